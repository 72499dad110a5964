#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_comch authors
#
# devtools/doca-coverage.py on a made-up guide and sample tree
# (test/doca_coverage): the names it keeps, how it classifies them, and that an
# unexplained name fails it.
# Usage: doca_coverage.sh <source dir>
set -u
src=$1
fix=$src/test/doca_coverage
tool=$src/devtools/doca-coverage.py
out=$(mktemp -d /tmp/doca-coverage.XXXXXX)
trap 'rm -rf "$out"' EXIT
fail=0

python3 "$tool" --seeds "$fix/seeds" --samples "$fix/samples" --notes "$fix/notes" --print \
	>"$out/table" 2>"$out/err" || { cat "$out/err"; echo "FAIL: the tool failed"; exit 1; }
grep '^   \* - ' "$out/table" | grep -o '``[^`]*``' | tr -d '`' | sort >"$out/names"
cat >"$out/want" <<'LIST'
DOCA_LOG_INFO
DOCA_SUCCESS
doca_comch_connection
doca_comch_connection_update_info
doca_comch_server_create
doca_comm_channel_ep_get_pending_connections
doca_dev
doca_devinfo
doca_error_t
doca_fixture_missing_call
doca_pe
doca_pe_progress
LIST
if ! diff -u "$out/want" "$out/names"; then
	echo "FAIL: the names kept are not the expected ones"
	fail=1
fi
# classified: declared ones present (or different per the notes), the rest per the notes
row() {
	awk -v n="\`\`$1\`\`" '$0 ~ n { getline; sub(/^ *- /, ""); print; exit }' "$out/table"
}
for check in "doca_pe_progress present" "doca_comm_channel_ep_get_pending_connections different" \
	"doca_fixture_missing_call missing"; do
	set -- $check
	got=$(row "$1")
	[ "$got" = "$2" ] || { echo "FAIL: $1 is '$got', expected '$2'"; fail=1; }
done
# a name neither declared nor explained is an error
printf 'doca_fixture_unexplained_call\n' >"$out/extra.txt"
mkdir "$out/seeds"
cp "$fix/seeds/guide.txt" "$out/extra.txt" "$out/seeds/"
if python3 "$tool" --seeds "$out/seeds" --notes "$fix/notes" --print >/dev/null 2>"$out/err"; then
	echo "FAIL: an unexplained name was accepted"
	fail=1
fi
grep -q "doca_fixture_unexplained_call: not declared" "$out/err" ||
	{ echo "FAIL: the unexplained name was not named"; fail=1; }
# a name only the BlueField side's header declares (a dpu directory, installed
# apart) is the layer's too, shown with that header's installed path
mkdir -p "$out/hdr/sdk/dpu" "$out/dpuseeds"
printf '#define DOCA_FIXTURE_HOST 1\n' >"$out/hdr/sdk/doca_build_config.h"
printf '#define DOCA_FIXTURE_DPU_ONLY 1\n' >"$out/hdr/sdk/dpu/doca_build_config.h"
printf 'DOCA_FIXTURE_DPU_ONLY\n' >"$out/dpuseeds/guide.txt"
if python3 "$tool" --seeds "$out/dpuseeds" --notes "$fix/notes" --headers "$out/hdr" --print \
	>"$out/table" 2>"$out/err"; then
	got=$(awk '/``DOCA_FIXTURE_DPU_ONLY``/ { getline; getline; sub(/^ *- /, ""); print; exit }' \
		"$out/table")
	[ "$(row DOCA_FIXTURE_DPU_ONLY)" = present ] && [ "$got" = '``dpu/doca_build_config.h``' ] ||
		{ echo "FAIL: the BlueField side's name is '$got'"; fail=1; }
else
	cat "$out/err"
	echo "FAIL: a name of the BlueField side's header was not seen"
	fail=1
fi
[ $fail -eq 0 ] && echo "doca-coverage: names and classes as expected"
exit $fail
