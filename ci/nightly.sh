#!/bin/sh
# The nightly matrix: every target (boot and build-only), every kernel
# version, every kernel (plain, KCSAN, KASAN) and every suite, with a
# long torture.
# CI services call this (see github-nightly.yml, gitlab-ci.yml); it is a
# thin wrapper over the Makefile.
#   ci/nightly.sh [TARGET]     one target per CI job, or all of them
set -eu
cd "$(dirname "$0")/.."
duration=${KWM_NIGHTLY_DURATION:-120}
scripts/deps.sh nightly
exec make matrix KWM_ARGS="-t ${1:-all} -V all -k all -d $duration"
