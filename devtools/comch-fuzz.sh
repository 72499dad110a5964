#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Build the libFuzzer targets of test/fuzz in build-fuzz (clang, ASan, UBSan) and run
# each for the given time over a scratch copy of its seed corpus: the committed
# corpus is never modified.
#
#   devtools/comch-fuzz.sh [seconds-per-target] [target...]
#
# Seconds default to 30, targets to all of them. Exits non-zero if a target
# crashed, leaked (memory or descriptors) or hung, printing the reproducer;
# run it again with: build-fuzz/test/fuzz/<target> <reproducer>. With
# COMCH_FUZZ_KEEP set, the grown corpora and the logs are kept (and named).
set -e
cd "$(dirname "$0")/.."
ALL="fuzz_shm_server fuzz_shm_client fuzz_shm_ctl fuzz_shm_ring"
secs=${1:-30}
case $secs in
''|*[!0-9]*)
	echo "usage: $0 [seconds-per-target] [target...] (targets: $ALL)" >&2
	exit 2
	;;
esac
[ $# -eq 0 ] || shift
targets=${*:-$ALL}
for t in $targets; do
	[ -d "test/fuzz/corpus/$t" ] || { echo "$0: no target $t (targets: $ALL)" >&2; exit 2; }
done

[ -d build-fuzz ] || CC=clang meson setup build-fuzz -Dfuzz=true -Db_lundef=false \
	-Dexamples=false >/dev/null
ninja_targets=""
for t in $targets; do
	ninja_targets="$ninja_targets test/fuzz/$t"
done
# shellcheck disable=SC2086 # one word per target
ninja -C build-fuzz $ninja_targets

work=$(mktemp -d "${TMPDIR:-/tmp}/comch-fuzz-XXXXXX")
failed=""
for t in $targets; do
	dir="$work/$t"
	mkdir -p "$dir/corpus" "$dir/crash"
	cp "test/fuzz/corpus/$t/"* "$dir/corpus/"
	# -timeout: an input is a few ms; seconds mean a hang (a wait that never ends).
	if ASAN_OPTIONS=detect_leaks=1:${ASAN_OPTIONS:-} \
	   UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:${UBSAN_OPTIONS:-} \
	   "build-fuzz/test/fuzz/$t" -max_total_time="$secs" -timeout=20 -rss_limit_mb=4096 \
		-print_final_stats=1 -artifact_prefix="$dir/crash/" "$dir/corpus" \
		>"$dir/log" 2>&1; then
		done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$dir/log" | tail -n 1)
		speed=$(sed -n 's/^stat::average_exec_per_sec:[[:space:]]*//p' "$dir/log")
		echo "$t: ok, ${secs} s, $speed execs/s, ${done_line#*DONE }"
	else
		failed="$failed $t"
		echo "$t: FAILED (log: $dir/log)"
		grep -E 'ERROR|SUMMARY|fuzz:|^    #[0-9]' "$dir/log" | head -n 30 || true
		for a in "$dir/crash/"*; do
			[ -e "$a" ] || continue
			echo "$t: reproducer $a"
			echo "$t: run again with: build-fuzz/test/fuzz/$t $a"
		done
	fi
done
if [ -n "$failed" ]; then
	echo "fuzzing failed:$failed (everything kept in $work)"
	exit 1
fi
if [ -n "${COMCH_FUZZ_KEEP:-}" ]; then
	echo "corpora and logs kept in $work"
else
	rm -rf "$work"
fi
