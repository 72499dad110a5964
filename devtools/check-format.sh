#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_comch authors
#
# Check the C lines a change adds against the rules every line keeps:
#   - indentation by tabs (spaces only after the tabs, to align);
#   - at most 100 columns, tabs counted as 8;
#   - no trailing blanks.
# Then say how many of those lines clang-format (.clang-format, the code's
# style) would lay out differently: information for the author, not a failure,
# since the code is wrapped by hand where clang-format cannot follow it.
#
#   devtools/check-format.sh [RANGE]
#
# RANGE defaults to the commits after devtools/commit-check-base.
set -eu
cd "$(dirname "$0")/.."
range=${1:-$(cat devtools/commit-check-base)..HEAD}
base=${range%%..*}
out=$(git diff -U0 --no-color "$range" -- '*.c' '*.h' | awk '
	/^\+\+\+ / { file = substr($2, 3); next }
	/^@@ / { split($3, a, ","); line = substr(a[1], 2); next }
	/^\+/ {
		s = substr($0, 2)
		where = file ":" line
		line++
		if (s ~ /[ \t]$/)
			print where ": trailing blanks"
		if (s ~ /^ +[^ *]/ || s ~ /^\t* {8}/)
			print where ": indented with spaces"
		col = 0
		for (i = 1; i <= length(s); i++)
			col = substr(s, i, 1) == "\t" ? (int(col / 8) + 1) * 8 : col + 1
		if (col > 100)
			print where ": " col " columns (at most 100)"
	}')
if [ -n "$out" ]; then
	echo "$out" | sed 's/^/check-format: /'
	echo "check-format: $(echo "$out" | wc -l) problem(s) in the lines $range adds"
	exit 1
fi
msg="check-format: the lines $range adds keep the rules"
if command -v git-clang-format >/dev/null 2>&1 || command -v clang-format >/dev/null 2>&1; then
	n=$(git clang-format --quiet --diff "$base" -- '*.c' '*.h' 2>/dev/null |
	    grep -c '^-[^-]' || true)
	msg="$msg; clang-format would lay out $n of them differently (information)"
fi
echo "$msg"
