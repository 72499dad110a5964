#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Run rte_comch over RDMA with the mlx5 driver, on this machine, in one command:
# a BlueField-side and a host-side dpdk-test-comch, both on one RDMA device
# (a ConnectX/BlueField port, or soft-RoCE), control path and fast path.
#
#   devtools/comch-rdma.sh DEV ADDR [MODES]   an RDMA device and an IP address of it
#   devtools/comch-rdma.sh --rxe NETDEV [MODES]
#                                             soft-RoCE on NETDEV (made if missing,
#                                             as rxe0; needs root), its first IPv4
#
# MODES: dpdk-test-comch modes (default ctrl-lat,fp-lat,fp-stream,fp-bw). For a
# BlueField's two sides, or two machines, run the two commands this prints
# (doc/guides/comchdevs/mlx5.rst). The processes register memory: run as root,
# or raise "ulimit -l".
set -e
cd "$(dirname "$0")/.."

usage() {
	sed -n '3,16p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
}

[ $# -ge 1 ] || usage
if [ "$1" = "--rxe" ]; then
	[ $# -ge 2 ] || usage
	netdev=$2
	modes=${3:-}
	dev=rxe0
	if ! rdma link show 2>/dev/null | grep -q "^link $dev/"; then
		modprobe rdma_rxe || { echo "cannot load rdma_rxe: no soft-RoCE in this" \
			"kernel (needs root and CONFIG_RDMA_RXE)"; exit 1; }
		rdma link add "$dev" type rxe netdev "$netdev" ||
			{ echo "cannot make $dev on $netdev (needs root and iproute2's rdma)"; exit 1; }
	fi
	addr=$(ip -4 -o addr show dev "$netdev" | awk '{ sub("/.*", "", $4); print $4; exit }')
	[ -n "$addr" ] || { echo "$netdev has no IPv4 address"; exit 1; }
else
	[ $# -ge 2 ] || usage
	dev=$1
	addr=$2
	modes=${3:-}
fi
modes=${modes:-ctrl-lat,fp-lat,fp-stream,fp-bw}

. devtools/comch-deps.sh
[ -d build ] || meson setup build >/dev/null
ninja -C build >/dev/null
bench=build/app/test-comch/dpdk-test-comch
[ -e build/drivers/comch/mlx5/librte_comch_mlx5.so ] ||
	{ echo "the mlx5 driver was not built (rdma-core's headers missing?)"; exit 1; }

# The device must be one rdma-core sees: say which there are if not.
if [ ! -d "/sys/class/infiniband/$dev" ]; then
	echo "no RDMA device $dev; this machine has:" \
		"$(ls /sys/class/infiniband 2>/dev/null | tr '\n' ' ')"
	echo "(none: load the device's driver, or use --rxe NETDEV for soft-RoCE)"
	exit 1
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/comch-rdma.XXXXXX")
srv=
trap 'kill $srv 2>/dev/null || true; rm -rf "$dir"' EXIT
echo "mlx5 over $dev, $addr: a BlueField side (server) and a host side (client)," \
	"modes $modes"
echo "  $bench --side server --transport comch --mode $modes --dir $dir \\"
echo "      --devargs mlx5:dev=$dev,role=dpu,addr=$addr"
echo "  $bench --side client --transport comch --mode $modes --dir $dir \\"
echo "      --devargs mlx5:dev=$dev,role=host,addr=$addr"
$bench --side server --transport comch --mode "$modes" --dir "$dir" --server-lcore 0 \
	--devargs "mlx5:dev=$dev,role=dpu,addr=$addr" >"$dir/server.log" 2>&1 &
srv=$!
rc=0
$bench --side client --transport comch --mode "$modes" --dir "$dir" --client-lcore 1 \
	--devargs "mlx5:dev=$dev,role=host,addr=$addr" || rc=$?
wait $srv || { echo "the server side failed:"; tail -n 20 "$dir/server.log"; rc=1; }
srv=
exit $rc
