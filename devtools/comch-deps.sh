#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Install the Debian 12 packages rte_comch builds with, if any is missing.
# Sourced by the other scripts; needs root (or sudo) only when something is missing.
set -e
# doxygen and python3-sphinx: the API reference and the guides (-Denable_docs=true).
# libibverbs-dev and librdmacm-dev: the mlx5 driver, and its tests on a fake provider.
COMCH_PKGS="build-essential meson ninja-build pkg-config libdpdk-dev libbsd-dev libcmocka-dev python3-pyelftools doxygen python3-sphinx libibverbs-dev librdmacm-dev"
missing=""
for p in $COMCH_PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
# apt's output goes to a log (COMCH_DEPS_LOG, or one in TMPDIR): one line says
# what was installed and where the log is; on failure, its end is shown.
if [ -n "$missing" ]; then
	deps_log=${COMCH_DEPS_LOG:-$(mktemp "${TMPDIR:-/tmp}/comch-packages.XXXXXX.log")}
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	if ! { $SUDO apt-get update -qq &&
	       DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
			--no-install-recommends $missing; } >"$deps_log" 2>&1; then
		echo "FAILED to install:$missing (log: $deps_log)"
		tail -n 20 "$deps_log" | sed 's/^/  | /'
		exit 1
	fi
	echo "installed:$missing (log: $deps_log)"
fi
