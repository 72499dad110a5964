#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Install the Debian 12 packages rte_comch builds with, if any is missing.
# Sourced by the other scripts; needs root (or sudo) only when something is missing.
set -e
COMCH_PKGS="build-essential meson ninja-build pkg-config libdpdk-dev libbsd-dev libcmocka-dev python3-pyelftools"
missing=""
for p in $COMCH_PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "Installing:$missing"
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
fi
