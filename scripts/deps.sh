#!/bin/sh
# Install, from Debian's packages, whatever kwmatrix needs and is missing.
# Runs apt-get as root (directly, or through sudo); prints what is missing
# and how to install it otherwise.
set -eu

PACKAGES="make gcc patch xz-utils tar perl python3 procps pkg-config ccache bc bison flex
	libssl-dev libelf-dev cpio
	linux-source-6.1 linux-source-6.12
	gcc-aarch64-linux-gnu gcc-riscv64-linux-gnu gcc-powerpc64le-linux-gnu
	libc6-dev-arm64-cross libc6-dev-riscv64-cross libc6-dev-ppc64el-cross
	qemu-system-arm qemu-system-misc qemu-system-ppc qemu-system-data
	libjson-c-dev libxml2-dev libcmocka-dev git python3-yaml
	chromium sparse lava-dispatcher python3-jsonschema libxml2-utils"
# The nightly also boots x86_64 and builds for every other architecture.
if [ "${1:-}" = nightly ]; then
	PACKAGES="$PACKAGES qemu-system-x86 gcc-arm-linux-gnueabihf gcc-s390x-linux-gnu
	gcc-powerpc-linux-gnu gcc-mips64el-linux-gnuabi64 gcc-sparc64-linux-gnu
	gcc-alpha-linux-gnu gcc-hppa-linux-gnu gcc-m68k-linux-gnu gcc-sh4-linux-gnu"
fi

missing=""
for p in $PACKAGES; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "kwmatrix: installing from Debian:$missing" >&2
if [ "$(id -u)" = 0 ]; then
	SUDO=""
elif command -v sudo >/dev/null 2>&1; then
	SUDO="sudo"
else
	echo "kwmatrix: error: missing packages:$missing (fix: as root, apt-get install$missing)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
