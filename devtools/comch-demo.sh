#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Build everything, then run the main job: a BlueField-side process (server) and a
# host-side process (client) talking over the shm driver (control path, fast path,
# legacy endpoints, a DOCA program on the DOCA compatibility layer), then a short benchmark.
set -e
cd "$(dirname "$0")/.."
. devtools/comch-deps.sh
[ -d build ] || meson setup build >/dev/null
ninja -C build

dir=$(mktemp -d /tmp/comch-demo.XXXXXX)
trap 'kill $srv 2>/dev/null || true; rm -rf "$dir"' EXIT
eal="--no-huge -m 512 --no-pci -l 0 --log-level=lib.comch:notice"

echo "== control path: BlueField-side server and host-side client, two processes =="
build/examples/comch_ctrl_path_server/dpdk-comch_ctrl_path_server $eal --file-prefix=demo-dpu-$$ -- \
	-p "shm:domain=demo,role=dpu,rep=pf0,dir=$dir" -r pf0 -n demo_server \
	-t "Hello from the BlueField" &
srv=$!
build/examples/comch_ctrl_path_client/dpdk-comch_ctrl_path_client $eal --file-prefix=demo-host-$$ -- \
	-p "shm:domain=demo,role=host,fn=pf0,dir=$dir" -n demo_server \
	-t "Hello from the host"
wait $srv
srv=

echo
echo "== fast path: each side creates a producer and a consumer and sends its text =="
build/examples/comch_data_path_high_speed_server/dpdk-comch_data_path_high_speed_server \
	$eal --file-prefix=demo-fp-dpu-$$ -- \
	-p "shm:domain=demo,role=dpu,rep=pf0,dir=$dir" -r pf0 -n demo_fast \
	-t "Fast hello from the BlueField" &
srv=$!
build/examples/comch_data_path_high_speed_client/dpdk-comch_data_path_high_speed_client \
	$eal --file-prefix=demo-fp-host-$$ -- \
	-p "shm:domain=demo,role=host,fn=pf0,dir=$dir" -n demo_fast \
	-t "Fast hello from the host"
wait $srv
srv=

echo
echo "== legacy endpoint API: a service listening on the BlueField side, a host-side endpoint connecting =="
build/examples/comch_ep_server/dpdk-comch_ep_server $eal --file-prefix=demo-ep-dpu-$$ -- \
	-p "shm:domain=demo,role=dpu,rep=pf0,dir=$dir" -r pf0 -n demo_ep \
	-t "Endpoint hello from the BlueField" &
srv=$!
build/examples/comch_ep_client/dpdk-comch_ep_client $eal --file-prefix=demo-ep-host-$$ -- \
	-p "shm:domain=demo,role=host,fn=pf0,dir=$dir" -n demo_ep \
	-t "Endpoint hello from the host"
wait $srv
srv=

echo
echo "== DOCA compatibility: a DOCA-style server and client (DOCA names only), their PCI addresses mapped to the demo's shm domain =="
RTE_COMCH_DOCA_DEVICES="03:00.0=shm:domain=demo-doca,dir=$dir" \
	build/examples/doca_comch/dpdk-doca-comch-server -s demo_doca -t "DOCA hello from the BlueField" &
srv=$!
sleep 1
RTE_COMCH_DOCA_DEVICES="b1:00.0=shm:domain=demo-doca,dir=$dir" \
	build/examples/doca_comch/dpdk-doca-comch-client -s demo_doca -t "DOCA hello from the host"
wait $srv
srv=

echo
echo "== speed: dpdk-test-comch (shm driver, both sides polling) =="
build/app/test-comch/dpdk-test-comch
