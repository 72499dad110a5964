#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Each library's ABI, three ways that must agree: the functions its public
# headers mark __rte_experimental, the EXPERIMENTAL node of its version.map, and
# what the built library exports. The driver calls (INTERNAL) are checked likewise.
# Checked: librte_comch, librte_comch_ep, the DPA runtime and the libraries
# drivers export API from (dpa).
# Usage: check-symbols.sh <build dir>
set -e
src=$(cd "$(dirname "$0")/.." && pwd)
build=$1
tmp=$(mktemp -d /tmp/comch-symbols.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
rc=0

# check_lib <dir under the source and build trees> <library name> <header prefix>
check_lib() {
	dir=$1
	lib=$(find "$build/$dir" -maxdepth 1 -type f -name "$2.so.*.*" | head -n 1)
	if [ -z "$lib" ]; then
		echo "check-symbols: no $2 built in $build/$dir"
		rc=1
		return
	fi
	# Declared: the line after __rte_experimental (or __rte_internal) and its
	# return type; an inline function (the fast path's burst calls) is not
	# exported, so not listed.
	for mark in experimental internal; do
		awk -v m="__rte_$mark" '$0 == m { want = 2; next }
			want == 2 && /^static inline/ { want = 0; next }
			want == 2 { want = 1; next }
			want == 1 { sub(/\(.*/, ""); print; want = 0 }' \
			"$src/$dir"/$3*.h | sort -u >"$tmp/decl-$mark"
	done
	# Listed in the version script, by node.
	: >"$tmp/map-experimental"
	: >"$tmp/map-internal"
	awk '/^EXPERIMENTAL/ { n = "experimental" } /^INTERNAL/ { n = "internal" }
		/^[A-Z_0-9]+ \{/ && !/EXPERIMENTAL|INTERNAL/ { n = "" }
		n != "" && /^\t[a-z_0-9]+;$/ { gsub(/[\t;]/, ""); print > ("'"$tmp"'/map-" n) }' \
		"$src/$dir/version.map"
	sort -o "$tmp/map-experimental" "$tmp/map-experimental"
	sort -o "$tmp/map-internal" "$tmp/map-internal"
	# Exported by the library.
	nm -D --defined-only "$lib" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' |
		sort -u >"$tmp/exported"
	cat "$tmp/map-experimental" "$tmp/map-internal" | sort >"$tmp/map-all"
	ok=1
	for mark in experimental internal; do
		if ! diff -u "$tmp/decl-$mark" "$tmp/map-$mark" >"$tmp/d"; then
			echo "check-symbols: $2: __rte_$mark in the headers and version.map differ:"
			cat "$tmp/d"
			ok=0
		fi
	done
	if ! diff -u "$tmp/map-all" "$tmp/exported" >"$tmp/d"; then
		echo "check-symbols: $2: version.map and the symbols $lib exports differ:"
		cat "$tmp/d"
		ok=0
	fi
	if [ $ok -eq 1 ]; then
		echo "check-symbols: $2: $(wc -l <"$tmp/map-experimental") experimental and" \
			"$(wc -l <"$tmp/map-internal") internal symbols, declared, listed and" \
			"exported: ok"
	else
		rc=1
	fi
}

check_lib lib/comch librte_comch rte_comch
check_lib lib/comch_ep librte_comch_ep rte_comch_ep
# The endpoint API is librte_comch_ep's alone: librte_comch exports none of it.
comch_lib=$(find "$build/lib/comch" -maxdepth 1 -type f -name 'librte_comch.so.*.*' | head -n 1)
if [ -n "$comch_lib" ] && nm -D --defined-only "$comch_lib" | grep -q ' rte_comch_ep_'; then
	echo "check-symbols: librte_comch exports rte_comch_ep_* (librte_comch_ep's):"
	nm -D --defined-only "$comch_lib" | grep ' rte_comch_ep_'
	rc=1
fi
check_lib lib/dpa librte_comch_dpa_rt rte_comch_dpa
check_lib drivers/comch/dpa librte_comch_dpa rte_comch_dpa
# The mlx5 driver (built when rdma-core is found): its one internal call, for tests.
if [ -d "$build/drivers/comch/mlx5" ]; then
	check_lib drivers/comch/mlx5 librte_comch_mlx5 mlx5_glue
fi

# The DOCA layer's two libraries export DOCA's names (version.map: doca_*,
# rte_comch_doca_*): each exactly the functions its own headers declare
# (sdk: doca_log, doca_argp, doca_error...; comch: the Comch mapping), and
# nothing of its internals.
# check_doca <dir under lib/doca_compat> <library name>
check_doca() {
	doca_lib=$(find "$build/lib/doca_compat/$1" -maxdepth 1 -type f -name "$2.so.*.*" |
		head -n 1)
	if [ -z "$doca_lib" ]; then
		echo "check-symbols: no $2 built in $build/lib/doca_compat/$1"
		rc=1
		return
	fi
	# (A static inline function, as doca_version(), is in the header only.)
	awk '/^(doca_[a-z_0-9]*|rte_comch_doca_[a-z_0-9]*)\(/ && prev !~ /^static inline/ {
			sub(/\(.*/, ""); print }
		{ prev = $0 }' \
		$(ls "$src/lib/doca_compat/$1"/doca_*.h | grep -v '_private\.h$') |
		sort -u >"$tmp/doca-decl"
	# Less the calls one library of the layer makes into the other (INTERNAL node).
	awk '/^INTERNAL/ { n = 1 } n && /^\t[a-z_0-9]+;$/ { gsub(/[\t;]/, ""); print }' \
		"$src/lib/doca_compat/$1/version.map" | sort -u >"$tmp/doca-internal"
	nm -D --defined-only "$doca_lib" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' |
		sort -u | comm -23 - "$tmp/doca-internal" >"$tmp/doca-exported"
	if diff -u "$tmp/doca-decl" "$tmp/doca-exported" >"$tmp/d"; then
		echo "check-symbols: $2: $(wc -l <"$tmp/doca-decl") functions," \
			"declared and exported: ok"
	else
		echo "check-symbols: $2: declared and exported functions differ:"
		cat "$tmp/d"
		rc=1
	fi
}
check_doca sdk librte_comch_doca_sdk
check_doca comch librte_comch_doca
exit $rc
