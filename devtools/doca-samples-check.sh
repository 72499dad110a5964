#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_comch authors
#
# Build NVIDIA's published DOCA Comch samples, unmodified, against the DOCA
# compatibility layer, and run each as a server process and a client process
# over the shm driver. Only the build's include and link flags change: the
# samples' own meson.build.public files ask pkg-config for doca-common,
# doca-comch and doca-argp, which the layer installs as aliases.
#
#   ./devtools/doca-samples-check.sh <doca-samples checkout>
#
# The checkout is NVIDIA's doca-samples repository (or /opt/mellanox/doca on a
# DOCA host); nothing of it is copied into this tree. Exit status 0 if all four
# samples ran to completion with the lines they print on a BlueField.
set -eu

src=${1:?usage: $0 <doca-samples checkout>}
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/doca-samples-check.XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "== building and installing rte_comch and its DOCA layer into $work/inst"
meson setup "$work/build" "$top" --prefix="$work/inst" -Dtests=false -Dexamples=false \
	>"$work/setup.log"
ninja -C "$work/build" install >"$work/install.log"
libdir=$(find "$work/inst" -name 'librte_comch_doca.so' -printf '%h\n' | head -1)
export PKG_CONFIG_PATH="$libdir/pkgconfig:$libdir/pkgconfig/rte-comch-doca"
export LD_LIBRARY_PATH="$libdir"

# The samples as NVIDIA ships them for building one by one: meson.build.public.
cp -r "$src/samples" "$work/samples"
cp "$src/VERSION" "$work/VERSION" 2>/dev/null || echo 3.3.0 >"$work/VERSION"
mkdir -p "$work/applications/common"
samples="comch_ctrl_path_server comch_ctrl_path_client comch_data_path_high_speed_server
	comch_data_path_high_speed_client"
for s in $samples; do
	d="$work/samples/doca_comch/$s"
	cp "$d/meson.build.public" "$d/meson.build"
	echo "== building $s"
	meson setup "$work/out/$s" "$d" >"$work/$s.setup.log" || { cat "$work/$s.setup.log"; exit 1; }
	ninja -C "$work/out/$s" >"$work/$s.build.log" || { cat "$work/$s.build.log"; exit 1; }
done

# Run a server and its client; both must exit 0 and print their success lines.
status=0
run_pair() {
	name=$1
	shift
	echo "== running doca_${name}_server and doca_${name}_client"
	"$work/out/${name}_server/doca_${name}_server" >"$work/$name.server.out" 2>&1 &
	spid=$!
	sleep 1
	"$work/out/${name}_client/doca_${name}_client" >"$work/$name.client.out" 2>&1 || status=1
	wait $spid || status=1
	for side in server client; do
		echo "-- $side"
		cat "$work/$name.$side.out"
		grep -q 'Sample finished successfully' "$work/$name.$side.out" || {
			echo "FAIL: $name $side did not finish successfully"
			status=1
		}
	done
	for line in "$@"; do
		grep -qF "$line" "$work/$name.server.out" "$work/$name.client.out" || {
			echo "FAIL: $name: no line \"$line\""
			status=1
		}
	done
}
run_pair comch_ctrl_path "New client connected to server" \
	"Message received: 'Message from the client'" "CC server context has been stopped" \
	"CC client context has been stopped"
run_pair comch_data_path_high_speed "Got a new remote consumer with ID" \
	"Producer task sent successfully" "CC consumer context has been stopped" \
	"Message received: 'Message from the client'"
[ $status = 0 ] && echo "== all four samples ran to completion" || echo "== FAILED"
exit $status
