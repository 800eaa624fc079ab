#!/bin/bash
# make litmus: run herd7 on every litmus/*.litmus against the kernel tree's
# tools/memory-model, and compare each verdict with its "Result:" header;
# then every "Without" and "Uncovered" verdict of the path models
# (kwmatrix models cuts each barrier, and each covering primitive, out).
# herd7 is not packaged in Debian: without it, say so, and exit 77 (the
# test-suite convention for "skipped"), so that nobody reads it as a pass.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${KWMATRIX_CACHE:-$HOME/.cache/kwmatrix}

tests=$(ls "$repo"/litmus/*.litmus | wc -l)
if ! command -v herd7 >/dev/null; then
	echo "litmus: SKIPPED $tests of $tests tests: herd7 is not installed (not packaged in Debian; build it from herdtools7 and put it on PATH)"
	exit 77
fi
model=$(ls -d "$cache"/src/*/tree/tools/memory-model 2>/dev/null | head -n1)
if [ -z "$model" ]; then
	echo "litmus: no kernel tree in $cache (fix: run make matrix once)" >&2
	exit 2
fi
bad=0 good=0
for t in "$repo"/litmus/*.litmus; do
	want=$(sed -n 's/^ \* Result: \([A-Za-z]*\).*/\1/p' "$t" | head -n1)
	out=$(cd "$model" && herd7 -conf linux-kernel.cfg "$t" 2>&1) || true
	got=$(printf '%s\n' "$out" | awk '/^Observation/ { print $3 }')
	if [ "$got" = "$want" ]; then
		echo "litmus: ok   $(basename "$t"): $got"
		good=$((good + 1))
	elif [ -z "$got" ]; then
		# A herd7 built by hand and not installed needs HERDLIB=<its herd/libdir>.
		echo "litmus: FAIL $(basename "$t"): herd7 gave no verdict: $(printf '%s\n' "$out" | grep -m1 . )"
		bad=1
	else
		echo "litmus: FAIL $(basename "$t"): herd7 says '$got', header says '$want'"
		bad=1
	fi
done
# Every tree in the cache: herd7 against each header and each record of
# that tree's model (litmus/herd7-verdicts.tsv).
kwm=${KWM:-$repo/build/kwmatrix}
for tree in "$cache"/src/*/tree; do
	[ -d "$tree/tools/memory-model" ] || continue
	echo "litmus: the path models against $tree"
	if ! (cd "$repo" && "$kwm" models "$tree"); then
		echo "litmus: FAIL the path models on $tree: herd7 disagrees with a header or a record, or a record is missing (above)"
		bad=1
	fi
done
# Last: make check's summary quotes this line.
echo "litmus: $good of $tests tests as their Result: says (herd7 $(herd7 -version 2>/dev/null | head -n1))"
exit $bad
