#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The library's ABI, three ways that must agree: the functions the public headers
# mark __rte_experimental, the EXPERIMENTAL node of version.map, and what the
# built library exports. The driver calls (INTERNAL) are checked likewise.
# Usage: check-symbols.sh <build dir>
set -e
src=$(cd "$(dirname "$0")/.." && pwd)
lib=$(find "$1/lib/comch" -maxdepth 1 -type f -name 'librte_comch.so.*.*' | head -n 1)
tmp=$(mktemp -d /tmp/comch-symbols.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# Declared: the line after __rte_experimental (or __rte_internal) and its return type;
# an inline function (the fast path's burst calls) is not exported, so not listed.
for mark in experimental internal; do
	awk -v m="__rte_$mark" '$0 == m { want = 2; next }
		want == 2 && /^static inline/ { want = 0; next }
		want == 2 { want = 1; next }
		want == 1 { sub(/\(.*/, ""); print; want = 0 }' \
		"$src"/lib/comch/rte_comch*.h | sort -u >"$tmp/decl-$mark"
done
# Listed in the version script, by node.
awk '/^EXPERIMENTAL/ { n = "experimental" } /^INTERNAL/ { n = "internal" }
	/^[A-Z_0-9]+ \{/ && !/EXPERIMENTAL|INTERNAL/ { n = "" }
	n != "" && /^\t[a-z_0-9]+;$/ { gsub(/[\t;]/, ""); print > ("'"$tmp"'/map-" n) }' \
	"$src/lib/comch/version.map"
sort -o "$tmp/map-experimental" "$tmp/map-experimental"
sort -o "$tmp/map-internal" "$tmp/map-internal"
# Exported by the library.
nm -D --defined-only "$lib" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort -u >"$tmp/exported"
cat "$tmp/map-experimental" "$tmp/map-internal" | sort >"$tmp/map-all"

rc=0
for mark in experimental internal; do
	if ! diff -u "$tmp/decl-$mark" "$tmp/map-$mark" >"$tmp/d"; then
		echo "check-symbols: __rte_$mark in the headers and version.map differ:"
		cat "$tmp/d"
		rc=1
	fi
done
if ! diff -u "$tmp/map-all" "$tmp/exported" >"$tmp/d"; then
	echo "check-symbols: version.map and the symbols $lib exports differ:"
	cat "$tmp/d"
	rc=1
fi
[ $rc -eq 0 ] && echo "check-symbols: $(wc -l <"$tmp/map-experimental") experimental and" \
	"$(wc -l <"$tmp/map-internal") internal symbols, declared, listed and exported: ok"
exit $rc
