#!/bin/sh
# The nightly's last job: merge the shards' results into one matrix.
#   ci/merge.sh SHARDS_DIR OUT_DIR
# SHARDS_DIR holds each shard's results folder (any depth); OUT_DIR gets
# matrix.json, junit.xml, kcidb.json and every shard's logs.
set -eu
cd "$(dirname "$0")/.."
shards=$1 out=$2
make --no-print-directory -j"$(nproc)" build/kwmatrix >/dev/null
# shellcheck disable=SC2046
exec build/kwmatrix merge $(find "$shards" -name matrix.json | sort) -o "$out"
