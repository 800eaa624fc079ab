#!/bin/bash
# make litmus: kwmatrix models on every kernel tree in the cache: herd7 on
# each litmus/*.litmus beside its "Result:" header, and on each path model
# without each barrier (and what covers it) beside its header and record
# (litmus/herd7-verdicts.tsv).  herd7 is run by kwmatrix models alone.
# herd7 is not packaged in Debian: without it, say so, and exit 77 (the
# test-suite convention for "skipped"), so that nobody reads it as a pass.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${KWMATRIX_CACHE:-$HOME/.cache/kwmatrix}
kwm=$(realpath "${KWM:-$repo/build/kwmatrix}")

tests=$(ls "$repo"/litmus/*.litmus | wc -l)
if ! command -v herd7 >/dev/null; then
	echo "litmus: SKIPPED $tests of $tests tests: herd7 is not installed (not packaged in Debian; build it from herdtools7 and put it on PATH)"
	exit 77
fi
bad=0 trees=0
for tree in "$cache"/src/*/tree; do
	[ -d "$tree/tools/memory-model" ] || continue
	trees=$((trees + 1))
	echo "litmus: litmus/ and the path models against $tree"
	if ! (cd "$repo" && "$kwm" models "$tree"); then
		echo "litmus: FAIL on $tree: herd7 disagrees with a header or a record, or a record is missing (above)"
		bad=1
	fi
done
if [ "$trees" -eq 0 ]; then
	echo "litmus: no kernel tree in $cache (fix: run make matrix once)" >&2
	exit 2
fi
# The check must be able to fail: a copy whose header says Never where
# herd7 says Sometimes must be refused.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$repo/litmus" "$work/"
sed -i 's/^ \* Result: Sometimes/ * Result: Never/' "$work/litmus/2+2W+poonceonces.litmus"
if (cd "$work" && "$kwm" models "$tree" 2>&1) | grep -q "^litmus: FAIL 2+2W+poonceonces.litmus: herd7 says 'Sometimes', header says 'Never'"; then
	echo "litmus: ok   a header that herd7 contradicts is caught (2+2W+poonceonces made to say Never)"
else
	echo "litmus: FAIL a header that herd7 contradicts was not caught"
	bad=1
fi
# Last: make check's summary quotes this line.
echo "litmus: $tests tests and the path models on $trees kernel trees' models: $([ $bad = 0 ] && echo 'all as their headers say' || echo FAILED) (herd7 $(herd7 -version 2>/dev/null | head -n1))"
exit $bad
