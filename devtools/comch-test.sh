#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Build everything, the guides and the API reference included, and run every
# test suite (fast, conformance: once per driver, integration, doca: the DOCA
# compatibility layer), check the installed library, its ABI, that every public
# header is documented, the commits and their lines, then run the suites again
# under AddressSanitizer with UndefinedBehaviorSanitizer, and under
# ThreadSanitizer, then fuzz the wire protocol.
#
# Each build prints one line: what ran, the counts, and where its log is. A
# failure prints the end of its log and stops.
set -e
cd "$(dirname "$0")/.."
logs=$(mktemp -d "${TMPDIR:-/tmp}/comch-test-logs.XXXXXX")
COMCH_DEPS_LOG="$logs/packages.log"
. devtools/comch-deps.sh
suites="--suite fast --suite conformance --suite integration --suite doca"

# run LOG COMMAND...: COMMAND's output to LOG; on failure, its end and stop.
run() {
	log=$1
	shift
	if ! "$@" >>"$log" 2>&1; then
		echo "FAILED: $* (log: $log)"
		grep -E 'FAIL|ERROR|runtime error|Sanitizer' "$log" | head -n 20 | sed 's/^/  | /'
		tail -n 15 "$log" | sed 's/^/  | /'
		exit 1
	fi
}

# The counts of a meson test log's summary: "57 ok, 1 expected failure".
counts() {
	awk '/^Ok:/ { ok = $2 } /^Expected Fail:/ { xf = $3 } /^Skipped:/ { sk = $2 }
	     END { printf "%d ok, %d expected failure%s", ok, xf, xf == 1 ? "" : "s";
		   if (sk) printf ", %d skipped", sk }' "$1"
}

log=$logs/normal.log
# With the docs (Sphinx and Doxygen, warnings as errors): a build directory set
# up before without them is switched over (only then: a configure regenerates).
if [ ! -d build ]; then
	run "$log" meson setup build -Denable_docs=true
elif ! meson configure build | grep -Eq '^ *enable_docs +true '; then
	run "$log" meson configure build -Denable_docs=true
fi
run "$log" ninja -C build
run "$log" meson test -C build $suites --print-errorlogs
run "$log" ./devtools/check-install.sh build
run "$log" ./devtools/check-symbols.sh build
run "$log" ./devtools/check-api-doc.sh
# The commits since the rules began, and the code lines they add.
run "$log" ./devtools/check-commit.sh
run "$log" ./devtools/check-format.sh
echo "normal build: $(counts "$log"); guides and API reference built; install, ABI," \
	"API doc, commit and format checks ok (log: $log)"

# AddressSanitizer and UndefinedBehaviorSanitizer in one build. UBSan only
# prints and goes on by default: -fno-sanitize-recover=all makes every finding
# end the test (compiled in, so a test's own UBSAN_OPTIONS cannot undo it), and
# UBSAN_OPTIONS asks for the stack. A new directory name: a build-asan set up
# before with ASan alone is not taken for this one.
log=$logs/asan-ubsan.log
[ -d build-asan-ubsan ] || run "$log" meson setup build-asan-ubsan \
	-Db_sanitize=address,undefined -Db_lundef=false -Dexamples=false \
	-Dc_args=-fno-sanitize-recover=all -Dc_link_args=-fno-sanitize-recover=all
run "$log" ninja -C build-asan-ubsan
run "$log" env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	meson test -C build-asan-ubsan $suites --print-errorlogs
echo "AddressSanitizer + UBSan build: $(counts "$log") (log: $log)"

# ThreadSanitizer: see devtools/tsan.supp for what the build does to let it see
# DPDK's rings, and for the reports left, if any, with their reasons.
log=$logs/tsan.log
[ -d build-tsan ] || run "$log" meson setup build-tsan -Db_sanitize=thread -Db_lundef=false \
	-Dexamples=false -Dc_args=-DRTE_USE_C11_MEM_MODEL
run "$log" ninja -C build-tsan
run "$log" env TSAN_OPTIONS="halt_on_error=1:exitcode=66:suppressions=$(pwd)/devtools/tsan.supp" \
	meson test -C build-tsan $suites --print-errorlogs
echo "ThreadSanitizer build: $(counts "$log") (log: $log)"

# Fuzzing (test/fuzz): each target for 30 s, when clang can link libFuzzer.
log=$logs/fuzz.log
fuzz_probe=$(mktemp -d "${TMPDIR:-/tmp}/comch-fuzz-probe-XXXXXX")
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' \
	>"$fuzz_probe/probe.c"
if ! command -v clang >/dev/null 2>&1; then
	fuzz_skip="clang is not installed"
elif ! clang -fsanitize=fuzzer,address -o "$fuzz_probe/probe" "$fuzz_probe/probe.c" \
	>/dev/null 2>&1; then
	fuzz_skip="clang cannot link -fsanitize=fuzzer,address (libclang-rt-dev missing?)"
else
	fuzz_skip=""
fi
rm -rf "$fuzz_probe"
if [ -z "$fuzz_skip" ]; then
	run "$log" ./devtools/comch-fuzz.sh 30
	echo "fuzzing: $(grep -c ': ok,' "$log") targets, 30 s each, no finding (log: $log)"
else
	echo "fuzzing skipped: $fuzz_skip"
fi
