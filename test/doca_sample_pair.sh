#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Run the DOCA-style sample (examples/doca_comch) as a server process and a
# client process, with no device mapping (the layer's default), and check that
# each ran to completion and got the other's text on both paths.
# Usage: doca_sample_pair.sh <server> <client>
set -u
server=$1
client=$2
name="doca_sample_$$"
out=$(mktemp -d /tmp/doca-sample.XXXXXX)
trap 'rm -rf "$out"' EXIT
unset RTE_COMCH_DOCA_DEVICES RTE_COMCH_DOCA_REPS RTE_COMCH_DOCA_CONFIG RTE_COMCH_DOCA_EAL_ARGS
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
fail=0
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
