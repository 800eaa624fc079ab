#!/bin/sh
# The nightly matrix: every target (boot and build-only), every kernel
# version, every kernel (plain, KCSAN, KASAN) and every suite, with a
# long torture.
# CI services call this (.github/workflows/nightly.yml, .gitlab-ci.yml);
# it is a thin wrapper over the Makefile.
#   ci/nightly.sh [TARGET]     one target per CI job, or all of them
# make check runs the GitLab pipeline with a narrower night
# (tests/check-ci.sh): KWM_NIGHTLY_DURATION (torture seconds, 120),
# KWM_NIGHTLY_SCOPE (the driver's options, "-V all -k all") and
# KWM_NIGHTLY_DEPS (scripts/deps.sh's set, "nightly").
set -eu
cd "$(dirname "$0")/.."
duration=${KWM_NIGHTLY_DURATION:-120}
scope=${KWM_NIGHTLY_SCOPE:--V all -k all}
scripts/deps.sh ${KWM_NIGHTLY_DEPS-nightly}
exec make matrix KWM_ARGS="-t ${1:-all} $scope -d $duration"
