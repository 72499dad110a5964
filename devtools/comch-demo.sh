#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Build everything, then run the main job: a BlueField-side process (server) and
# a host-side process (client) talking over the shm driver (control path, fast
# path, legacy endpoints, a DOCA program on the DOCA compatibility layer, a DOCA
# MsgQ program with its DPA part on the software DPA), then a short benchmark
# against baselines measured in the same run.
#
# It prints a few lines per part; every program's full output, the package
# installation and the build go to log files, named at the end.
set -e
cd "$(dirname "$0")/.."
logs=$(mktemp -d "${TMPDIR:-/tmp}/comch-demo-logs.XXXXXX")
COMCH_DEPS_LOG="$logs/packages.log"
. devtools/comch-deps.sh

# The step's log on failure, so that what broke is on the screen.
fail() {
	echo "FAILED: $1 (log: $2)"
	tail -n 20 "$2" | sed 's/^/  | /'
	exit 1
}

[ -d build ] || meson setup build >"$logs/build.log" 2>&1 || fail "meson setup" "$logs/build.log"
ninja -C build >>"$logs/build.log" 2>&1 || fail "build" "$logs/build.log"
echo "built rte_comch $(cat VERSION): the library, its drivers, the DOCA layer, examples and" \
	"dpdk-test-comch (log: $logs/build.log)"

dir=$(mktemp -d "${TMPDIR:-/tmp}/comch-demo.XXXXXX")
srv=
trap 'kill $srv 2>/dev/null || true; rm -rf "$dir"' EXIT
# EAL's own start-up lines are not the demo's: errors only.
eal="--no-huge -m 512 --no-pci -l 0 --log-level=lib.eal:error --log-level=lib.telemetry:error"
eal="$eal --log-level=lib.comch:notice"
dpu="shm:domain=demo,role=dpu,rep=pf0,dir=$dir"
host="shm:domain=demo,role=host,fn=pf0,dir=$dir"

# run_pair NAME SERVER-COMMAND CLIENT-COMMAND PATTERN: both sides, their output in
# logs; prints the lines of both that match PATTERN (what they exchanged).
run_pair() {
	name=$1
	sh -c "$2" >"$logs/$name-server.log" 2>&1 &
	srv=$!
	sh -c "$3" >"$logs/$name-client.log" 2>&1 || { kill $srv 2>/dev/null; \
		fail "$name: the host side" "$logs/$name-client.log"; }
	wait $srv || fail "$name: the BlueField side" "$logs/$name-server.log"
	srv=
	# (DOCA programs log in DOCA's format: the message without its prefix.)
	doca='s/^\[[^]]*\]\[[^]]*\]\[DOCA\]\[[A-Z]*\]\[[^]]*\]\[[^]]*\] //'
	{ sed -e "$doca" -e "s/^/  BlueField side: /" "$logs/$name-server.log"
	  sed -e "$doca" -e "s/^/  host side:      /" "$logs/$name-client.log"; } |
		grep -E "$4" || true
}

echo
echo "control path: a server on the BlueField side, a client on the host side, two processes"
run_pair ctrl \
	"build/examples/comch_ctrl_path_server/dpdk-comch_ctrl_path_server $eal \
		--file-prefix=demo-dpu-$$ -- -p '$dpu' -r pf0 -n demo_server \
		-t 'Hello from the BlueField'" \
	"build/examples/comch_ctrl_path_client/dpdk-comch_ctrl_path_client $eal \
		--file-prefix=demo-host-$$ -- -p '$host' -n demo_server -t 'Hello from the host'" \
	'received message|done'

echo
echo "fast path: each side starts a producer and a consumer and sends its text"
run_pair fast \
	"build/examples/comch_data_path_high_speed_server/dpdk-comch_data_path_high_speed_server \
		$eal --file-prefix=demo-fp-dpu-$$ -- -p '$dpu' -r pf0 -n demo_fast \
		-t 'Fast hello from the BlueField'" \
	"build/examples/comch_data_path_high_speed_client/dpdk-comch_data_path_high_speed_client \
		$eal --file-prefix=demo-fp-host-$$ -- -p '$host' -n demo_fast \
		-t 'Fast hello from the host'" \
	'received:'

echo
echo "legacy endpoint API: a service on the BlueField side, a host endpoint connecting to it"
run_pair ep \
	"build/examples/comch_ep_server/dpdk-comch_ep_server $eal --file-prefix=demo-ep-dpu-$$ \
		-- -p '$dpu' -r pf0 -n demo_ep -t 'Endpoint hello from the BlueField'" \
	"build/examples/comch_ep_client/dpdk-comch_ep_client $eal --file-prefix=demo-ep-host-$$ \
		-- -p '$host' -n demo_ep -t 'Endpoint hello from the host'" \
	'received message'

echo
echo "DOCA compatibility: a program written in DOCA names only, its PCI addresses mapped to" \
	"this shm domain"
run_pair doca \
	"sleep 0; RTE_COMCH_DOCA_DEVICES='03:00.0=shm:domain=demo-doca,dir=$dir' \
		build/examples/doca_comch/dpdk-doca-comch-server -s demo_doca \
		-t 'DOCA hello from the BlueField'" \
	"sleep 1; RTE_COMCH_DOCA_DEVICES='b1:00.0=shm:domain=demo-doca,dir=$dir' \
		build/examples/doca_comch/dpdk-doca-comch-client -s demo_doca \
		-t 'DOCA hello from the host'" \
	'Exchanged'

echo
echo "DOCA MsgQ: a CPU part and a DPA part in DOCA names, the DPA part on the software DPA"
RTE_COMCH_DOCA_DEVICES="*=shm:domain=demo-msgq,dir=$dir" \
	build/examples/doca_comch_msgq/dpdk-doca-comch-msgq -N 2000 -s 64 -w 16 >"$logs/msgq.log" 2>&1 ||
	fail "doca_comch_msgq" "$logs/msgq.log"
sed -e "s/^\[[^]]*\]\[[^]]*\]\[DOCA\]\[[A-Z]*\]\[[^]]*\]\[[^]]*\] //" "$logs/msgq.log" |
	grep -E 'Request 0:|Exchanged|sample done' | sed 's/^/  /' || true

echo
echo "speed: dpdk-test-comch, both sides polling, one per core, against baselines of the" \
	"same run (full results: $logs/bench.log)"
build/app/test-comch/dpdk-test-comch --brief >"$logs/bench.log" 2>&1 ||
	fail "dpdk-test-comch" "$logs/bench.log"
sed -n '/^Summary/,$p' "$logs/bench.log" | sed '/^$/d'
echo
echo "demo done: control path, fast path, endpoints, a DOCA program and a DOCA MsgQ program," \
	"then the benchmark; every program's full output is in $logs"
