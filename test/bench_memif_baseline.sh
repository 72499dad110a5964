#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# dpdk-test-comch's summary compares rte_comch with the stronger of memif's two
# modes in each test: the one with more GB/s in fp-bw and the shorter p50 in
# fp-lat; with --repeat, the one with the better median over the runs. Skipped
# (77) where DPDK has no memif driver.
# Usage: bench_memif_baseline.sh DPDK-TEST-COMCH
set -e
bench=$1
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# The summary's baseline of a test ("fp-bw 4 KiB comch" ...): memif or memif-zc.
summary_base() {
	sed -n "/^$1/,\$p" "$out" | grep -E "^  $2 +[0-9]" | head -1 |
		awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^memif/) { print $i; exit } }'
}

# The stronger memif mode of a test in the rows of the runs printed: with the
# median over them of GB/s (fp-bw, higher is better) or p50 (fp-lat, lower).
stronger() {
	awk -v mode="$1" -v col="$2" -v low="$3" '
		/^[a-z]/ { cur = ($1 " " $2 " " $3) }
		/^Summary/ { cur = "" }
		cur ~ "^" mode && /^  memif(-zc)? / { v[$1] = v[$1] " " $col }
		function med(s,   a, n, i, j, t) {
			n = split(s, a, " ")
			for (i = 1; i <= n; i++)
				for (j = i + 1; j <= n; j++)
					if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		END {
			if (v["memif"] == "" || v["memif-zc"] == "") exit
			c = med(v["memif"]); z = med(v["memif-zc"])
			if (c == z) print "either"
			else print ((low ? c < z : c > z) ? "memif" : "memif-zc")
		}' "$out"
}

check() {
	want=$(stronger "$1" "$3" "$4")
	got=$(summary_base "$5" "$2")
	if [ "$want" = "" ]; then
		echo "no memif rows for $1"; cat "$out"; exit 1
	fi
	if [ "$want" != "either" ] && [ "$got" != "$want" ]; then
		echo "$1: the summary compares with $got, the stronger was $want"; cat "$out"
		exit 1
	fi
}

rc=0
"$bench" --mode fp-bw,fp-lat --size 4096 --transport comch,memif,memif-zc \
	--iterations 500 --warmup 50 --duration 0.05 --no-progress >"$out" 2>&1 || rc=$?
if grep -qE '^  memif(-zc)? +skipped: no memif PMD' "$out"; then
	echo "no memif driver: skipped"; exit 77
fi
[ "$rc" -eq 0 ] || { cat "$out"; exit 1; }
# fp-bw: GB/s is column 4 of a row; fp-lat: the p50 is column 4 too.
check "fp-bw 4 KiB" "fp-bw 4 KiB comch" 4 0 "Summary: "
check "fp-lat 4 KiB" "fp-lat 4 KiB comch" 4 1 "Summary: "

"$bench" --mode fp-bw --size 4096 --transport comch,memif,memif-zc --duration 0.05 \
	--no-progress --repeat 3 >"$out" 2>&1 || { cat "$out"; exit 1; }
check "fp-bw 4 KiB" "fp-bw 4 KiB comch" 4 0 "Summary of 3 runs"
echo "ok"
