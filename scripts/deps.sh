#!/bin/sh
# Install, from Debian's packages, whatever kwmatrix needs and is missing.
# Runs apt-get as root (directly, or through sudo); prints what is missing
# and how to install it otherwise.
#   scripts/deps.sh            what make matrix needs
#   scripts/deps.sh nightly    and every target's compiler (ci/nightly.sh)
#   scripts/deps.sh check      and the CI services' own validators, from
#                              the npm registry, into $KWMATRIX_CACHE/tools
#                              (make check; tests/check-ci.sh runs them)
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
# GitHub's workflow schema checker, and GitLab's pipeline run locally
# (4.60.0: later ones need a newer Node.js than Debian 12's).
NPM_TOOLS="@action-validator/cli@0.6.0 gitlab-ci-local@4.60.0"
tools=${KWMATRIX_CACHE:-$HOME/.cache/kwmatrix}/tools
# gitlab-ci-local copies the checkout with rsync.
if [ "${1:-}" = check ]; then
	PACKAGES="$PACKAGES rsync"
	command -v npm >/dev/null 2>&1 || PACKAGES="$PACKAGES npm"
fi

# npm_tools: each of NPM_TOOLS at its version in $tools, or installed there.
npm_tools() {
	[ "${1:-}" = check ] || return 0
	[ "$(cat "$tools/.installed" 2>/dev/null)" = "$NPM_TOOLS" ] && return 0
	echo "kwmatrix: installing from the npm registry into $tools: $NPM_TOOLS" >&2
	mkdir -p "$tools"
	# shellcheck disable=SC2086
	if ! npm install --silent --no-audit --no-fund --prefix "$tools" $NPM_TOOLS >&2; then
		echo "kwmatrix: error: npm could not install $NPM_TOOLS (fix: reach the npm registry, or set npm's registry)" >&2
		exit 1
	fi
	echo "$NPM_TOOLS" >"$tools/.installed"
}

missing=""
for p in $PACKAGES; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing="$missing $p"
done
if [ -z "$missing" ]; then
	npm_tools "${1:-}"
	exit 0
fi

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
npm_tools "${1:-}"
