#!/bin/sh
# Print kwmatrix's figures, each measured by this script, per target:
#   warm rebuild after an edit of the subject (lib/kw_worker.c in 0001),
#   boot to the first KTAP line, the whole warm 3-target matrix after that
#   edit, calibration (weak SB outcomes per million), time and operations
#   to kill each mutant, torture operations per second; and, with
#   BENCH_COLD=1, the cold kernel build (empty build cache, ccache off).
#
#   bench/bench.sh            (make bench)
#   BENCH_COLD=1 bench/bench.sh
#   BENCH_DURATION=20 bench/bench.sh   torture seconds (default 10)
set -eu
cd "$(dirname "$0")/.."
KWM=${KWM:-build/kwmatrix}
DURATION=${BENCH_DURATION:-10}
work=$(mktemp -d /tmp/kwm-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
[ -x "$KWM" ] || make -s "$KWM"

summary() {
	python3 - "$@" <<'PY'
import json, sys
for path in sys.argv[1:]:
    m = json.load(open(path))
    for t in m["targets"]:
        g, b = t["guest"], t["build"]
        name = t.get("column", t["target"])
        print(f"{name:12} build {b['seconds']:7.1f} s ({'cached' if b['up_to_date'] else 'built'})"
              f"   boot to first KTAP {g['boot_seconds'] or 0:5.1f} s   guest {g['run_seconds']:6.1f} s")
        for r in t.get("calibration", []):
            if r["shape"].startswith("SB") and not r["forbidden"]:
                print(f"{name:12} calibration {r['shape']:18} {r['per_million']:10.2f} weak per million ({r['weak']} in {r['runs']})")
        for c in t["cells"]:
            tor = c.get("torture")
            if tor:
                print(f"{name:12} {c['suite']:20} {tor['ops_per_sec']:8} ops/s   longest flush {tor['max_flush_us']} us")
            if c["status"] != "PASS":
                print(f"{name:12} {c['suite']:20} {c['status']:12} {c['reason'] or ''}")
PY
}

# Warm: make sure the kernels are cached, then edit the subject's module.
echo "# warming the cache (kernels for every target)"
"$KWM" run --repo . -r "$work/warm" -k plain -s kunit >/dev/null 2>&1 || true
mkdir -p "$work/patch"
cp patch/* "$work/patch/"
stamp=$(date +%s)
sed -i "s/^+MODULE_DESCRIPTION(\"Simple kthread work processor/+MODULE_DESCRIPTION(\"Simple kthread work processor [bench $stamp]/" \
	"$work"/patch/0001-*.patch
echo "# edit of lib/kw_worker.c, then the kunit matrix on every target"
echo "# command: kwmatrix run -p <edited copy of patch/> -k plain -s kunit"
start=$(date +%s.%N)
"$KWM" run --repo . -r "$work/edit" -p "$work/patch" -k plain -s kunit >/dev/null 2>&1 || true
end=$(date +%s.%N)
summary "$work"/edit/*/matrix.json | grep -v calibration
printf 'whole warm matrix after the edit: %.1f s (target: under 90 s)\n' "$(echo "$end - $start" | bc)"

echo "# the plain kernels, torture ${DURATION} s: kwmatrix run -k plain -d $DURATION"
"$KWM" run --repo . -r "$work/full" -k plain -d "$DURATION" >/dev/null 2>&1 || true
summary "$work"/full/*/matrix.json | grep -v " build "

echo "# the oracles on arm64: kwmatrix run -t arm64 -k kcsan,kasan -d $DURATION"
"$KWM" run --repo . -r "$work/oracles" -t arm64 -k kcsan,kasan -d "$DURATION" >/dev/null 2>&1 || true
summary "$work"/oracles/*/matrix.json

if [ "${BENCH_COLD:-0}" = 1 ]; then
	echo "# cold: empty build cache, ccache disabled"
	cache=$work/cold
	mkdir -p "$cache"
	CCACHE_DISABLE=1 KWMATRIX_CACHE=$cache "$KWM" run --repo . -r "$work/cold-results" -s kunit >/dev/null 2>&1 || true
	# (every kernel of every target: plain, and KCSAN and KASAN where they exist)
	summary "$work"/cold-results/*/matrix.json | grep " build "
else
	echo "# cold kernel build: not measured (BENCH_COLD=1 bench/bench.sh measures it, ~20 min)"
fi
