#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Build everything and run every test suite (fast, conformance: once per driver,
# integration, doca: the DOCA compatibility layer), check the installed library and
# its ABI, then run the suites again under AddressSanitizer with
# UndefinedBehaviorSanitizer, and under ThreadSanitizer.
set -e
cd "$(dirname "$0")/.."
. devtools/comch-deps.sh
[ -d build ] || meson setup build >/dev/null
ninja -C build
meson test -C build --suite fast --suite conformance --suite integration --suite doca \
	--print-errorlogs
./devtools/check-install.sh build
./devtools/check-symbols.sh build
# The commits since the rules began, and the code lines they add.
./devtools/check-commit.sh
./devtools/check-format.sh

# AddressSanitizer and UndefinedBehaviorSanitizer in one build. UBSan only
# prints and goes on by default: -fno-sanitize-recover=all makes every finding
# end the test (compiled in, so a test's own UBSAN_OPTIONS cannot undo it), and
# UBSAN_OPTIONS asks for the stack. A new directory name: a build-asan set up
# before with ASan alone is not taken for this one.
[ -d build-asan-ubsan ] || meson setup build-asan-ubsan -Db_sanitize=address,undefined \
	-Db_lundef=false -Dexamples=false -Dc_args=-fno-sanitize-recover=all \
	-Dc_link_args=-fno-sanitize-recover=all >/dev/null
ninja -C build-asan-ubsan
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	meson test -C build-asan-ubsan --suite fast --suite conformance --suite integration \
	--suite doca --print-errorlogs

# ThreadSanitizer: see devtools/tsan.supp for what the build does to let it see
# DPDK's rings, and for the reports left, if any, with their reasons.
[ -d build-tsan ] || meson setup build-tsan -Db_sanitize=thread -Db_lundef=false \
	-Dexamples=false -Dc_args=-DRTE_USE_C11_MEM_MODEL >/dev/null
ninja -C build-tsan
TSAN_OPTIONS="halt_on_error=1:exitcode=66:suppressions=$(pwd)/devtools/tsan.supp" \
	meson test -C build-tsan --suite fast --suite conformance --suite integration --suite doca \
	--print-errorlogs

# Fuzzing (test/fuzz): each target for 30 s, when clang can link libFuzzer.
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
	./devtools/comch-fuzz.sh 30
else
	echo "fuzzing skipped: $fuzz_skip"
fi
