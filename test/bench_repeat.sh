#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# dpdk-test-comch --repeat: every run is printed, then the summary over the
# runs, with a median ratio and its spread for each rte_comch row, and with
# --targets the targets judged over the runs (a stable target with the
# baseline's own figure beside it); a bad count, or --repeat with --side, is
# refused.
# Usage: bench_repeat.sh DPDK-TEST-COMCH
set -e
bench=$1
out=$(mktemp)
trap 'rm -f "$out"' EXIT

"$bench" --mode fp-stream,fp-lat,ep-stream --size 64 \
	--transport comch,comch-burst,unix,cacheline --iterations 200 --warmup 50 \
	--duration 0.05 --no-progress --brief --repeat 3 --targets >"$out"
for k in 1 2 3; do
	grep -q "^Run $k of 3$" "$out" || { echo "no run $k"; cat "$out"; exit 1; }
done
grep -q '^Summary of 3 runs' "$out" || { echo "no summary of the runs"; cat "$out"; exit 1; }
# fp-stream burst 1 and burst 32 against the Unix socket, fp-lat against the
# cache line (not memif: DPDK's memif PMD races under ThreadSanitizer)
rows=$(sed -n '/^Summary of 3 runs/,/^Targets over/p' "$out" |
	grep -cE '^  fp-(stream|lat) 64 B comch-burst.* [0-9]+\.[0-9]+x \[[0-9.]+-[0-9.]+\] of 3$')
[ "$rows" -eq 3 ] || { echo "expected 3 rows with a median and a spread, got $rows"; \
	cat "$out"; exit 1; }
# --targets: the latency targets judged over the runs, each API against its
# own factor; none against memif, which this plan did not run
targets=$(sed -n '/^Targets over 3 runs/,$p' "$out")
echo "$targets" | grep -qE '^  fp-lat 64 B comch-burst p50 within 1\.5x of cacheline: [0-9.]+x \[[0-9.]+-[0-9.]+\] of 3: (met|missed)$' ||
	{ echo "no burst-API latency target over the runs"; cat "$out"; exit 1; }
echo "$targets" | grep -qE '^  fp-lat 64 B comch p50 within 2\.0x of cacheline: [0-9.]+x \[[0-9.]+-[0-9.]+\] of 3: (met|missed)$' ||
	{ echo "no task-API latency target over the runs"; cat "$out"; exit 1; }
# ep-stream: at least 2x the Unix socket, and stable, with the socket's own
# lowest run beside rte_comch's
echo "$targets" | grep -qE '^  ep-stream 64 B comch at least 2\.0x unix: [0-9.]+x \[[0-9.]+-[0-9.]+\] of 3: (met|missed)$' ||
	{ echo "no endpoint stream target over the runs"; cat "$out"; exit 1; }
echo "$targets" | grep -qE '^  ep-stream 64 B comch stable, the lowest run within 30% of the median: [0-9]+% \(unix [0-9]+%\): (met|missed)$' ||
	{ echo "no stability target with the baseline's own"; cat "$out"; exit 1; }
if echo "$targets" | grep -q memif; then
	echo "a target against memif, which did not run"; cat "$out"; exit 1
fi

for bad in "--repeat 0" "--repeat 101" "--repeat x" "--repeat 2 --side server"; do
	if "$bench" $bad >"$out" 2>&1; then
		echo "accepted: $bad"
		exit 1
	fi
	grep -q repeat "$out" || { echo "no word of --repeat for: $bad"; cat "$out"; exit 1; }
done
echo "ok"
