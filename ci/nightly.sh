#!/bin/sh
# The nightly matrix: every target and suite, with a long torture.
# CI services call this (see github-nightly.yml, gitlab-ci.yml); it is a
# thin wrapper over the Makefile.
#   ci/nightly.sh [TARGET]     one target per CI job, or all of them
set -eu
cd "$(dirname "$0")/.."
duration=${KWM_NIGHTLY_DURATION:-120}
targets=${1:+-t $1}
exec make matrix KWM_ARGS="$targets -d $duration"
