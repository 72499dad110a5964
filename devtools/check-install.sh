#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Install into a scratch root and build a sample out of tree with nothing but
# `pkg-config librte_comch`, as an outside DPDK application would.
# Usage: check-install.sh <build dir>
set -e
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
root=$(mktemp -d /tmp/comch-install.XXXXXX)
trap 'rm -rf "$root"' EXIT
DESTDIR="$root" meson install -C "$build" --no-rebuild >/dev/null
# Point a copy of our .pc file at the scratch root; libdpdk's stays as installed.
mkdir "$root/pc"
sed "s|^prefix=|prefix=$root|" "$(find "$root" -name librte_comch.pc | head -n 1)" \
	>"$root/pc/librte_comch.pc"
export PKG_CONFIG_PATH="$root/pc"
libdir=$(pkg-config --variable=libdir librte_comch)
# The 0.x API is experimental: an application opts in, as with DPDK's own.
cc -o "$root/client" -DALLOW_EXPERIMENTAL_API -Werror \
	"$src/examples/comch_ctrl_path_client/main.c" \
	"$src/examples/common/comch_sample.c" -I"$src/examples/common" \
	$(pkg-config --cflags --libs librte_comch) -Wl,-rpath,"$libdir"
"$root/client" --no-huge -m 64 --no-pci --no-telemetry -l 0 --file-prefix=inst-$$ \
	--log-level=lib.eal:error -- -h >/dev/null 2>&1 || true
# The library, and the shm driver it finds its devices with, though nothing calls it.
ldd "$root/client" | grep -q "$root.*librte_comch\.so"
ldd "$root/client" | grep -q "$root.*librte_comch_shm\.so"
# The legacy endpoint API: its own library and pkg-config module, on top of
# librte_comch's (an endpoint sample, built with nothing but that module).
sed "s|^prefix=|prefix=$root|" "$(find "$root" -name librte_comch_ep.pc | head -n 1)" \
	>"$root/pc/librte_comch_ep.pc"
cc -o "$root/ep_client" -DALLOW_EXPERIMENTAL_API -Werror \
	"$src/examples/comch_ep_client/main.c" "$src/examples/common/comch_sample.c" \
	"$src/examples/common/comch_sample_ep.c" -I"$src/examples/common" \
	$(pkg-config --cflags --libs librte_comch_ep) -Wl,-rpath,"$libdir"
ldd "$root/ep_client" | grep -q "$root.*librte_comch_ep\.so"
ldd "$root/ep_client" | grep -q "$root.*librte_comch\.so"
if nm -D --defined-only "$libdir/librte_comch.so" | grep -q ' rte_comch_ep_'; then
	echo "install check: librte_comch exports the endpoint API (librte_comch_ep's)" >&2
	exit 1
fi
echo "install check: built an endpoint sample with pkg-config librte_comch_ep: ok"
# rdma-core is the mlx5 driver's alone: the library and the other drivers never link it.
for lib in librte_comch librte_comch_ep librte_comch_shm; do
	if ldd "$libdir/$lib.so" | grep -Eq "libibverbs|librdmacm"; then
		echo "install check: $lib links rdma-core (only librte_comch_mlx5 may)" >&2
		exit 1
	fi
done
if [ -e "$libdir/librte_comch_mlx5.so" ]; then
	ldd "$libdir/librte_comch_mlx5.so" | grep -q libibverbs
	ldd "$libdir/librte_comch_mlx5.so" | grep -q librdmacm
	echo "install check: rdma-core linked by librte_comch_mlx5 only: ok"
fi
# Every installed header compiles on its own, in C and (if there is a compiler) C++.
incdir=$(pkg-config --variable=includedir librte_comch)/dpdk
for h in "$incdir"/rte_comch*.h; do
	printf '#include <%s>\n' "$(basename "$h")" >"$root/inc.c"
	cc -c -o /dev/null -DALLOW_EXPERIMENTAL_API -DALLOW_INTERNAL_API -Wall -Werror \
		$(pkg-config --cflags librte_comch) "$root/inc.c" ||
		{ echo "install check: $h does not compile on its own" >&2; exit 1; }
	if command -v c++ >/dev/null; then
		c++ -x c++ -c -o /dev/null -DALLOW_EXPERIMENTAL_API -DALLOW_INTERNAL_API -Wall \
			-Werror $(pkg-config --cflags librte_comch) "$root/inc.c" ||
			{ echo "install check: $h does not compile as C++" >&2; exit 1; }
	fi
done
echo "install check: built and linked a sample against the installed librte_comch: ok"

# The DOCA layer: a DOCA program builds with `pkg-config doca-comch` (the alias a
# DOCA meson.build asks for) and nothing else; every DOCA header compiles alone.
for pc in librte_comch_dpa librte_comch_dpa_rt rte-comch-doca-sdk rte-comch-doca doca-comch doca-common \
	doca-argp; do
	sed "s|^prefix=|prefix=$root|" "$(find "$root" -name "$pc.pc" | head -n 1)" \
		>"$root/pc/$pc.pc"
done
cc -o "$root/doca_server" -Werror "$src/examples/doca_comch/doca_comch_server.c" \
	"$src/examples/doca_comch/doca_comch_common.c" \
	$(pkg-config --cflags --libs doca-comch doca-common doca-argp) -Wl,-rpath,"$libdir"
ldd "$root/doca_server" | grep -q "$root.*librte_comch_doca\.so"
ldd "$root/doca_server" | grep -q "$root.*librte_comch_doca_sdk\.so"
LD_LIBRARY_PATH="$libdir" "$root/doca_server" --help >/dev/null
docainc=$(pkg-config --variable=includedir rte-comch-doca)/rte_comch_doca
# The DOCA headers are the application's C: no compiler builtins of atomics in them.
if grep -n '__atomic' "$docainc"/doca_*.h; then
	echo "install check: a DOCA header uses __atomic builtins (keep them in the .c)" >&2
	exit 1
fi
for h in "$docainc"/doca_*.h; do
	printf '#include <%s>\n' "$(basename "$h")" >"$root/inc.c"
	cc -c -o /dev/null -Wall -Werror $(pkg-config --cflags rte-comch-doca) "$root/inc.c" ||
		{ echo "install check: $h does not compile on its own" >&2; exit 1; }
	if command -v c++ >/dev/null; then
		c++ -x c++ -c -o /dev/null -Wall -Werror $(pkg-config --cflags rte-comch-doca) \
			"$root/inc.c" ||
			{ echo "install check: $h does not compile as C++" >&2; exit 1; }
	fi
done
echo "install check: built a DOCA program with pkg-config doca-comch; every DOCA header compiles alone: ok"

# MsgQ with the software DPA: a program builds with `pkg-config librte_comch_dpa`
# alone, which brings the dpa driver and the DPA runtime it is built on.
cc -o "$root/msgq" -DALLOW_EXPERIMENTAL_API -Werror "$src/examples/comch_msgq/main.c" \
	"$src/examples/comch_msgq/msgq_prog.c" "$src/examples/common/comch_sample.c" \
	-I"$src/examples/common" $(pkg-config --cflags --libs librte_comch_dpa) \
	-Wl,-rpath,"$libdir"
ldd "$root/msgq" | grep -q "$root.*librte_comch_dpa\.so"
ldd "$root/msgq" | grep -q "$root.*librte_comch_dpa_rt\.so"
# One way: the runtime never links the driver built on it.
if ldd "$libdir/librte_comch_dpa_rt.so" | grep -q "librte_comch_dpa\.so"; then
	echo "install check: librte_comch_dpa_rt links the dpa driver" >&2
	exit 1
fi
echo "install check: built a MsgQ program with pkg-config librte_comch_dpa: ok"
