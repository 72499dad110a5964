#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Run the DOCA-style sample (examples/doca_comch) as a server process and a
# client process, with the device mapping "*" (one shm device that answers to
# every PCI address), and check that each ran to completion and got the
# other's text on both paths; and that without a mapping the server fails to
# open its device, saying how to map one.
# Usage: doca_sample_pair.sh <server> <client>
set -u
server=$1
client=$2
name="doca_sample_$$"
out=$(mktemp -d /tmp/doca-sample.XXXXXX)
trap 'rm -rf "$out"' EXIT
unset RTE_COMCH_DOCA_DEVICES RTE_COMCH_DOCA_REPS RTE_COMCH_DOCA_CONFIG RTE_COMCH_DOCA_EAL_ARGS
fail=0
# No mapping: no device, as DOCA without a BlueField.
timeout 60 "$server" -s "$name" >"$out/nomap" 2>&1 && {
	echo "FAIL: the server ran without a device mapping"; fail=1; }
grep -q 'RTE_COMCH_DOCA_DEVICES="\*=shm:domain=doca"' "$out/nomap" || {
	cat "$out/nomap"; echo "FAIL: no hint of how to map a device"; fail=1; }
mkdir -m 700 "$out/shm"
export RTE_COMCH_DOCA_DEVICES="*=shm:domain=sample$$,dir=$out/shm"
timeout 60 "$server" -s "$name" -t "bluefield-$$" >"$out/server" 2>&1 &
spid=$!
# Start the client once the server listens (a client gives up after 5 s).
i=0
while ! grep -q "is running" "$out/server" 2>/dev/null && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
timeout 60 "$client" -s "$name" -t "host-$$" >"$out/client" 2>&1
crc=$?
wait $spid
src=$?
cat "$out/server" "$out/client"
[ $src -eq 0 ] || { echo "FAIL: server exited with $src"; fail=1; }
[ $crc -eq 0 ] || { echo "FAIL: client exited with $crc"; fail=1; }
grep -q "Exchanged: control path sent 'bluefield-$$'; fast path sent 'bluefield-$$', received 'host-$$'" \
	"$out/server" || { echo "FAIL: the server did not get the client's text"; fail=1; }
grep -q "Exchanged: control path received 'bluefield-$$'; fast path sent 'host-$$', received 'bluefield-$$'" \
	"$out/client" || { echo "FAIL: the client did not get the server's text"; fail=1; }
# Both log in DOCA's line format.
grep -Eq '^\[[0-9]{2}:[0-9]{2}:[0-9]{2}:[0-9]{6}\]\[[0-9]+\]\[DOCA\]\[INF\]\[doca_comch_server\.c:[0-9]+\]\[main\] Starting the server$' \
	"$out/server" || { echo "FAIL: the server's log lines are not in DOCA's format"; fail=1; }
exit $fail
