#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_comch authors
#
# Build NVIDIA's published DOCA Comch samples and secure channel application,
# unmodified, against the DOCA compatibility layer, and run each as a
# BlueField-side process and a host-side process over the shm driver. Only
# the build's include and link flags change: the samples' and the
# application's own meson.build.public files ask pkg-config for doca-common,
# doca-comch and doca-argp, which the layer installs as aliases (those of
# <libdir>/pkgconfig/rte-comch-doca-dpu for a BlueField-side build); the
# application is also built with a plain cc command line.
#
#   ./devtools/doca-samples-check.sh [--full] <doca-samples checkout>
#
# The checkout is NVIDIA's doca-samples repository (or /opt/mellanox/doca on a
# DOCA host); nothing of it is copied into this tree. The secure channel runs
# at a few message sizes, 100,000 messages each way; --full sweeps sizes from
# 1 B to its 65535-B maximum and counts from 1 to 1,000,000 (a few minutes).
# Every run must exit 0 on both sides, each side's producer must have sent and
# its consumer received every message, and nothing may log an error. Exit
# status 0 if all ran so.
set -eu

full=0
if [ "${1:-}" = "--full" ]; then
	full=1
	shift
fi
src=${1:?usage: $0 [--full] <doca-samples checkout>}
src=$(cd "$src" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/doca-samples-check.XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "== building and installing rte_comch and its DOCA layer into $work/inst"
meson setup "$work/build" "$top" --prefix="$work/inst" -Dtests=false -Dexamples=false \
	>"$work/setup.log"
ninja -C "$work/build" install >"$work/install.log"
libdir=$(find "$work/inst" -name 'librte_comch_doca.so' -printf '%h\n' | head -1)
host_pc="$libdir/pkgconfig:$libdir/pkgconfig/rte-comch-doca"
dpu_pc="$libdir/pkgconfig:$libdir/pkgconfig/rte-comch-doca-dpu"
export PKG_CONFIG_PATH="$host_pc"
export LD_LIBRARY_PATH="$libdir"
# Every PCI address the programs give names one shm device of a private domain.
mkdir -m 700 "$work/shm"
export RTE_COMCH_DOCA_DEVICES="*=shm:domain=dsc$$,dir=$work/shm"
unset RTE_COMCH_DOCA_REPS RTE_COMCH_DOCA_CONFIG

status=0
fail() {
	echo "FAIL: $*"
	status=1
}

# A run's output must hold no error (DOCA's line format: [...][DOCA][ERR][...]).
no_errors() {
	if grep -E '\]\[(ERR|CRIT)\]\[' "$1" >"$1.errors"; then
		cat "$1.errors"
		fail "$2 logged errors"
	fi
}

# ----------------------------------------------------------------- samples

# The samples as NVIDIA ships them for building one by one: meson.build.public.
cp -r "$src/samples" "$work/samples"
cp "$src/VERSION" "$work/VERSION" 2>/dev/null || echo 3.3.0 >"$work/VERSION"
# (Their meson files name ../../../applications/common as an include directory.)
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
		grep -q 'Sample finished successfully' "$work/$name.$side.out" ||
			fail "$name $side did not finish successfully"
	done
	for line in "$@"; do
		grep -qF "$line" "$work/$name.server.out" "$work/$name.client.out" ||
			fail "$name: no line \"$line\""
	done
}
run_pair comch_ctrl_path "New client connected to server" \
	"Message received: 'Message from the client'" "CC server context has been stopped" \
	"CC client context has been stopped"
run_pair comch_data_path_high_speed "Got a new remote consumer with ID" \
	"Producer task sent successfully" "CC consumer context has been stopped" \
	"Message received: 'Message from the client'"

# ---------------------------------------------------------- secure channel

app="$src/applications/secure_channel"
if [ ! -d "$app" ]; then
	echo "== no applications/secure_channel in $src: the application is not checked"
	[ $status = 0 ] && echo "== all four samples ran to completion" || echo "== FAILED"
	exit $status
fi

# NVIDIA's application tree as its meson.build.public files build it: the
# applications' top level with only this application, its common code, and
# the samples' common code.
tree="$work/apps"
mkdir -p "$tree/applications"
cp -r "$src/samples" "$tree/samples"
cp "$work/VERSION" "$tree/VERSION"
cp -r "$src/applications/common" "$src/applications/secure_channel" \
	"$src/applications/meson_options.txt" "$tree/applications/"
cp "$src/applications/meson.build.public" "$tree/applications/meson.build"
cp "$app/meson.build.public" "$tree/applications/secure_channel/meson.build"

# meson: host side, and BlueField side as DOCA's build finds it (doca_build_config.h).
for side in host dpu; do
	pc=$host_pc
	[ $side = dpu ] && pc=$dpu_pc
	echo "== building secure_channel ($side side, meson.build.public)"
	PKG_CONFIG_PATH=$pc meson setup "$work/out/sc_meson_$side" "$tree/applications" \
		-Denable_all_applications=false -Denable_secure_channel=true \
		>"$work/sc_meson_$side.setup.log" 2>&1 ||
		{ cat "$work/sc_meson_$side.setup.log"; exit 1; }
	want=NO
	[ $side = dpu ] && want=YES
	grep -q "\"DOCA_ARCH_DPU\" with dependency doca-common: $want" \
		"$work/sc_meson_$side.setup.log" ||
		fail "the $side-side meson build does not see DOCA_ARCH_DPU as $want"
	ninja -C "$work/out/sc_meson_$side" >"$work/sc_meson_$side.build.log" 2>&1 ||
		{ cat "$work/sc_meson_$side.build.log"; exit 1; }
done
# cc: the same sources on one command line each.
for side in host dpu; do
	pc=$host_pc
	[ $side = dpu ] && pc=$dpu_pc
	echo "== building secure_channel ($side side, cc)"
	# shellcheck disable=SC2046
	cc -o "$work/out/sc_cc_$side" -I"$src/applications/common" -I"$src" \
		"$app/secure_channel.c" "$app/secure_channel_core.c" \
		"$src/applications/common/comch_utils.c" "$src/applications/common/utils.c" \
		"$src/samples/common.c" \
		$(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs doca-comch doca-argp doca-common) \
		-lpthread \
		>"$work/sc_cc_$side.build.log" 2>&1 || { cat "$work/sc_cc_$side.build.log"; exit 1; }
done

# One run: the BlueField side (server) and the host side (client), each
# sending count messages of size bytes to the other.
summary="$work/summary"
: >"$summary"
run_sc() {
	dpu=$1
	host=$2
	size=$3
	count=$4
	tag="$5 ${size}B x$count"
	out="$work/sc.$5.$size.$count"
	timeout 1800 "$dpu" -s "$size" -n "$count" -p 03:00.0 -r b1:00.0 \
		>"$out.dpu" 2>&1 &
	spid=$!
	# The client waits for ever for a server that is not there yet: start it after.
	i=0
	while ! grep -q 'waiting on a client' "$out.dpu" 2>/dev/null && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if ! grep -q 'waiting on a client' "$out.dpu"; then
		kill $spid 2>/dev/null || true
		wait $spid || true
		cat "$out.dpu"
		fail "$tag: the BlueField side did not start its server"
		return
	fi
	crc=0
	timeout 1800 "$host" -s "$size" -n "$count" -p 03:00.0 >"$out.host" 2>&1 || crc=$?
	src_rc=0
	wait $spid || src_rc=$?
	[ $src_rc = 0 ] || fail "$tag: BlueField side exited with $src_rc"
	[ $crc = 0 ] || fail "$tag: host side exited with $crc"
	for side in dpu host; do
		grep -q "Producer sent $count messages" "$out.$side" ||
			fail "$tag: the $side side's producer did not send $count messages"
		grep -q "Consumer received $count messages" "$out.$side" ||
			fail "$tag: the $side side's consumer did not receive $count messages"
		no_errors "$out.$side" "$tag ($side side)"
	done
	if [ $status != 0 ]; then
		cat "$out.dpu" "$out.host"
	fi
	# Milliseconds of each side's producer and consumer, as it reports them.
	ms=$(sed -n 's/.*\(Producer sent\|Consumer received\) [0-9]* messages in approximately \([0-9.]*\) milliseconds.*/\2/p' \
		"$out.dpu" "$out.host" | tr '\n' ' ')
	echo "$tag: ok; ms (dpu producer, consumer; host producer, consumer): $ms" |
		tee -a "$summary"
}

m_dpu="$work/out/sc_meson_dpu/secure_channel/doca_secure_channel"
m_host="$work/out/sc_meson_host/secure_channel/doca_secure_channel"
c_dpu="$work/out/sc_cc_dpu"
c_host="$work/out/sc_cc_host"
echo "== running secure_channel"
if [ $full = 1 ]; then
	for size in 1 64 512 4000 4096 16384 65535; do
		for count in 1 1000 100000 1000000; do
			run_sc "$m_dpu" "$m_host" $size $count meson
		done
	done
	for size in 1 65535; do
		run_sc "$c_dpu" "$c_host" $size 1000000 cc
	done
else
	for size in 1 64 4000 65535; do
		run_sc "$m_dpu" "$m_host" $size 100000 meson
	done
	run_sc "$c_dpu" "$c_host" 4000 100000 cc
fi

if [ $status = 0 ]; then
	echo "== the four samples and every secure channel run completed cleanly"
else
	echo "== FAILED"
fi
exit $status
