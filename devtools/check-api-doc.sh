#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The API reference of every public header, built by Doxygen with the settings
# of the docs build (doc/api/doxy-api.conf.in: an undocumented function,
# parameter, return value or struct member is an error) into a scratch
# directory, so that no build directory nor -Denable_docs is needed. Lists
# each undocumented item, one a line, and fails if there is any.
# Usage: check-api-doc.sh
set -e
src=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v doxygen >/dev/null 2>&1; then
	echo "check-api-doc: doxygen is not installed (devtools/comch-deps.sh installs it)"
	exit 1
fi
tmp=$(mktemp -d /tmp/comch-api-doc.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# What doc/api/meson.build's configure_file() fills in, nothing else.
sed -e "s|@VERSION@|$(cat "$src/VERSION")|" -e "s|@TOPDIR@|$src|g" -e "s|@OUTPUT@|$tmp|" \
	"$src/doc/api/doxy-api.conf.in" >"$tmp/doxy-api.conf"
rc=0
doxygen "$tmp/doxy-api.conf" >/dev/null 2>"$tmp/warnings" || rc=$?
# Doxygen lists a function's undocumented parameters on the lines after its
# own: one line per function, with source paths relative to the tree.
awk -v src="$src/" '
	/^  parameter / { sub(/^  /, " "); line = line $0; next }
	{ if (line != "") print line; line = $0 }
	END { if (line != "") print line }' "$tmp/warnings" |
	sed -e "s|$src/||g" -e 's/ error: / /; s/ warning: / /' >"$tmp/list"
if [ "$rc" -ne 0 ] && [ ! -s "$tmp/list" ]; then
	echo "check-api-doc: doxygen failed (exit status $rc) without a warning"
	exit 1
fi
if [ -s "$tmp/list" ]; then
	echo "check-api-doc: what the API reference finds undocumented ($(wc -l <"$tmp/list")):" \
		"document it in the header (settings: doc/api/doxy-api.conf.in)"
	sed 's/^/  /' "$tmp/list"
	exit 1
fi
echo "check-api-doc: every public function, parameter and member is documented"
