#!/bin/sh
# The driver end to end: bad input is refused without leaving anything
# behind, then a real matrix run on every target, then faults injected
# with a fake QEMU.  Prints "N passed, N failed, N skipped", each skip
# with its reason above it.
#
#   tests/run-matrix-tests.sh DRIVER
#
# KWM_TEST_DURATION sets the torture seconds (default 5).
cd "$(dirname "$0")/.." || exit 1
KWM=$1
DURATION=${KWM_TEST_DURATION:-5}
# A sanitizer's report exits 86, never the 1 or 2 that a test expects: a
# leak on an error path once passed as the failing build's exit 1.
export ASAN_OPTIONS=exitcode=86 UBSAN_OPTIONS=exitcode=86
work=$(mktemp -d /tmp/kwm-matrix-tests.XXXXXX)
trap 'umount "$work/full" 2>/dev/null; rm -rf "$work"' EXIT
passed=0 failed=0 skipped=0 shards=0

# Each result line says how long its test took, so that make check's time can be read off.
since=$(date +%s)
took() { now=$(date +%s); took="($((now - since)) s)"; since=$now; }
ok() { passed=$((passed + 1)); took; echo "ok   $1 $took"; }
# skip NAME: WHY: not run here, counted, and never a pass.
skip() { skipped=$((skipped + 1)); took; echo "SKIP $1 $took"; }
bad() {
	failed=$((failed + 1))
	took
	echo "FAIL $1 $took"
	[ -f "$work/err" ] && sed 's/^/     /' "$work/err"
}

# expect_refused NAME PATTERN ARGS...: exit 2, the pattern on stderr,
# and nothing written to the results folder.
expect_refused() {
	name=$1 pattern=$2
	shift 2
	rm -rf "$work/results"
	# KWM_PATH, when set, is the driver's PATH (a missing tool); not ours.
	env PATH="${KWM_PATH:-$PATH}" "$KWM" run --repo . -r "$work/results" "$@" \
		>"$work/out" 2>"$work/err"
	status=$?
	if [ $status -eq 2 ] && grep -q -- "$pattern" "$work/err" &&
	   [ "$(find "$work/results" -mindepth 1 2>/dev/null | wc -l)" -eq 0 ]; then
		ok "$name"
	else
		echo "     exit $status" >>"$work/err"
		bad "$name"
	fi
}

expect_refused "unknown target" "unknown target 'sparc32'.*pick from" -t sparc32
expect_refused "duplicated target" "names 'arm64' twice" -t arm64,arm64
expect_refused "unknown suite" "unknown suite 'fuzz'" -s fuzz
expect_refused "unknown kernel version" "unknown kernel version '5.4'.*pick from 6.1, 6.12" -V 5.4
expect_refused "negative duration" "not a positive whole number" -d -5
expect_refused "unparseable duration" "not a positive whole number" -d 5s
expect_refused "zero jobs" "not a positive whole number" -j 0

mkdir -p "$work/series"
cp patch/*.patch "$work/series/"
printf '0001-kthread-implement-kthread_worker-2010-design-as-kw_w.patch\n0009-missing.patch\n' >"$work/series/series"
expect_refused "series names a missing patch" "0009-missing.patch, which does not exist" -p "$work/series"

# A patch that no longer applies: its context changed.
sed 's/^ obj-\$(CONFIG_POLYNOMIAL) += polynomial.o/ obj-$(CONFIG_POLYNOMIAL) += polynomial_renamed.o/' \
	patch/0001-*.patch >"$work/series/0001-broken.patch"
printf '0001-broken.patch\n' >"$work/series/series"
expect_refused "patch that does not apply" "patch 0001-broken.patch does not apply" -t arm64 -p "$work/series"
grep -q "first rejected hunk" "$work/err" && ok "rejected hunk shown" || bad "rejected hunk shown"

# A checkout whose fragment has a syntax error.
mkdir -p "$work/repo"
cp -r arch-configs include initramfs calibrate patch "$work/repo/"
printf 'CONFIG_SERIAL_AMBA_PL011 y\n' >>"$work/repo/arch-configs/arm64.config"
expect_refused "fragment syntax error" "arm64.config:.*not a Kconfig assignment" -t arm64 -R "$work/repo"

# A missing cross compiler or QEMU, named with its Debian package.
mkdir -p "$work/bin"
for tool in make patch ccache tar xz bison flex bc gcc; do
	ln -sf "$(command -v $tool)" "$work/bin/$tool"
done
KWM_PATH=$work/bin
expect_refused "missing cross compiler" "apt-get install gcc-aarch64-linux-gnu" -t arm64
ln -sf "$(command -v aarch64-linux-gnu-gcc)" "$work/bin/aarch64-linux-gnu-gcc"
expect_refused "missing QEMU" "apt-get install qemu-system-arm" -t arm64
ln -sf "$(command -v qemu-system-aarch64)" "$work/bin/qemu-system-aarch64"
expect_refused "missing lava-run" "apt-get install lava-dispatcher" -t arm64 -L
unset KWM_PATH

expect_refused "unwritable results folder" "cannot write results" -t arm64 -r /proc/kwm-results

# A missing firmware file: QEMU's data folder hidden under an empty tmpfs,
# in a mount namespace of its own (needs root; skipped, and said, if not).
if unshare -m true 2>/dev/null; then
	rm -rf "$work/results"
	unshare -m sh -c 'mount -t tmpfs tmpfs /usr/share/qemu && exec "$@"' sh \
		"$KWM" run --repo . -r "$work/results" -t riscv64 -k plain -s kunit \
		>"$work/out" 2>"$work/err"
	status=$?
	if [ $status -eq 2 ] && grep -q "firmware .*opensbi.* not found (fix: apt-get install qemu-system-data)" "$work/err" &&
	   [ ! -e "$work/results" ]; then
		ok "missing firmware"
	else
		echo "     exit $status" >>"$work/err"
		bad "missing firmware"
	fi
else
	skip "missing firmware: no mount namespace here (needs root)"
fi

# A fragment asking for a symbol that does not survive merging (riscv64
# has no KCSAN in 6.1): the build fails naming it, and leaves no build.
cp -r arch-configs include initramfs calibrate patch "$work/repo/" 2>/dev/null
cp arch-configs/riscv64.config "$work/repo/arch-configs/riscv64.config"
printf 'CONFIG_KCSAN=y\n' >>"$work/repo/arch-configs/riscv64.config"
"$KWM" run --repo "$work/repo" -r "$work/dropped" -t riscv64 -k plain -s kunit >"$work/out" 2>"$work/err"
status=$?
json=$(ls "$work"/dropped/*/matrix.json 2>/dev/null | head -1)
dir=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["targets"][0]["build"]["dir"])' "$json" 2>/dev/null)
if [ $status -eq 1 ] && grep -q "did not survive merging" "$json" && grep -q "CONFIG_KCSAN: asked y" "$json" &&
   [ -n "$dir" ] && [ ! -e "$dir" ]; then
	ok "fragment symbol dropped by merging: named, no build left"
else
	bad "fragment symbol dropped by merging: named, no build left (exit $status)"
fi
rm -f "$work/err"

# cells_green JSON: every cell has the status it must have, and a reason
# that says why: a green status with the wrong reason is a wrong verdict
# (tests/expect-matrix.py).
cells_green() {
	python3 tests/expect-matrix.py "$1"
}

# html_cells_match DIR: Chromium's DOM of DIR/index.html has, for every
# cell of DIR/matrix.json, a heat-map cell with its status.
html_cells_match() {
	chromium --headless=new --no-sandbox --disable-gpu --dump-dom \
		"file://$1/index.html" >"$work/dom.html" 2>"$work/chromium.log" &&
	chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
		--window-size=1400,1800 --screenshot=results/index.png \
		"file://$1/index.html" >>"$work/chromium.log" 2>&1 &&
	python3 - "$1/matrix.json" "$work/dom.html" <<'PY'
import json, re, sys
m = json.load(open(sys.argv[1]))
dom = open(sys.argv[2]).read()
table = dom[dom.index('id="matrix"'):]
table = table[:table.index("</table>")]
# Cell by cell: each heat-map cell links to its (column, suite) details.
shown = dict((href, status) for status, href in
             re.findall(r'<td class="([A-Z]+)"[^>]*><a href="#([^"]+)"', table))
def cell_id(column, suite):
    return ("cell-%s-%s" % (column, suite)).replace("+", "_").replace("/", "_")
want = {cell_id(t["column"], c["suite"]): c["status"] for t in m["targets"] for c in t["cells"]}
for k in sorted(set(want) | set(shown)):
    if want.get(k) != shown.get(k):
        print(f"     {k}: matrix.json {want.get(k)}, index.html {shown.get(k)}")
sys.exit(0 if want and shown == want else 1)
PY
}

# driver_green RC JSON: the driver exited 0 and every cell is as expected.
driver_green() {
	[ "$1" = 0 ] && [ -n "$2" ] && cells_green "$2"
}

# expectations_catch_breaks JSON: the expectations can fail.  Each break
# of what they guard, made in a copy of a green run's matrix.json, turns
# them red: a driver that leaks at exit (86), a calibration read as 0, a
# driver that ignores herd7's records, an empty litmus row.
expectations_catch_breaks() {
	caught=0
	driver_green 86 "$1" || caught=$((caught + 1))
	for brk in calibration-zero records-ignored empty-litmus; do
		python3 - "$1" "$work/broken.json" "$brk" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
brk = sys.argv[3]
for t in m["targets"]:
    if brk == "calibration-zero":
        for r in t["calibration"] or []:
            r["weak"], r["per_million"] = 0, 0.0
    elif brk == "empty-litmus":
        t["litmus"] = []
    for c in t["cells"]:
        if brk == "records-ignored" and c["status"] == "COVERED":
            c["status"] = "UNCHECKED"
            c["reason"] = c["reason"].replace("nothing can kill it anywhere", "only the header says")
for v in m["barriers"]:
    if brk == "records-ignored" and v["verdict"] == "REDUNDANT":
        v["verdict"], v["evidence"] = "NOT DECIDED", "unchecked (fix: build herd7)"
json.dump(m, open(sys.argv[2], "w"))
PY
		if cells_green "$work/broken.json" >"$work/broken.out"; then
			echo "     the expectations missed the break $brk"
		else
			caught=$((caught + 1))
		fi
	done
	[ "$caught" -eq 4 ]
}

# real_matrix NAME ARGS...: a real run, every cell as expected.
real_matrix() {
	name=$1
	shift
	echo "matrix: $name, torture ${DURATION}s (this builds kernels on a cold cache)"
	rm -rf "$work/matrix"
	# The driver's own status through the pipe: 0 for a green run, and
	# never the sanitizers' 86, which a leak at exit gives after
	# matrix.json is written.
	{ "$KWM" run --repo . -r "$work/matrix" -d "$DURATION" "$@" 2>&1; echo $? >"$work/matrix.rc"; } |
		tee "$work/matrix.out"
	rc=$(cat "$work/matrix.rc")
	json=$(ls "$work"/matrix/*/matrix.json 2>/dev/null | head -1)
	if driver_green "$rc" "$json"; then
		ok "matrix, $name: every cell as expected, exit 0"
	else
		bad "matrix, $name: every cell as expected, exit 0 (exit $rc; see $json)"
	fi

	shards=$((shards + 1))
	mkdir -p results "$work/shards/$shards"
	cp -r "$work"/matrix/* results/ 2>/dev/null
	cp -r "$work"/matrix/* "$work/shards/$shards/" 2>/dev/null
}

# litmus_bars JSON: on every column (there must be one), at least 30 of
# the kernel's own litmus tests ran natively and emulated, and no Never
# test showed a weak outcome on either side.
litmus_bars() {
	python3 - "$1" litmus/*.litmus <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
ours = {open(f).readline().split()[1] for f in sys.argv[2:]}
ok = bool(m["targets"])
for t in m["targets"]:
    rows = t.get("litmus", [])
    if not rows:
        # Every column of this run runs the litmus suites: none is a failure.
        print(f"     {t['column']}: no litmus rows")
        ok = False
        continue
    both = [r for r in rows if r["test"] not in ours and
            all(side in r and not r[side]["skipped"] for side in ("native", "emulated"))]
    bad = [(r["test"], side) for r in rows for side in ("native", "emulated")
           if side in r and r[side]["forbidden_seen"]]
    print(f"     {t['column']}: {len(both)} of the kernel's tests ran natively and emulated; Never with weak outcomes: {bad or 'none'}")
    ok &= len(both) >= 30 and not bad
sys.exit(0 if ok else 1)
PY
}

# The plain kernels of every target; the oracles on one (all nightly).
real_matrix "every target" -k plain
if expectations_catch_breaks "$(ls "$work"/matrix/*/matrix.json | head -1)"; then
	ok "expectations: a leak at exit, a calibration read as 0, ignored records and an empty litmus row each turn them red"
else
	bad "expectations: a leak at exit, a calibration read as 0, ignored records and an empty litmus row each turn them red"
fi
if litmus_bars "$(ls "$work"/matrix/*/matrix.json | head -1)"; then
	ok "litmus: 30 or more of the kernel's tests on every target, natively and emulated, none forbidden seen"
else
	bad "litmus: 30 or more of the kernel's tests on every target, natively and emulated, none forbidden seen"
fi
# Only the variants a column loads are built and packed: the plain
# kernels' initrds hold the barrier mutants, not the oracle kernels'
# detectors (late-wake, plain-done-seq).
packed=0
for dir in $(sed -n 's/^kwmatrix: [^ ]*: building in \([^ ]*\) .*/\1/p' "$work/matrix.out"); do
	grep -q '^file /lib/kw/no-worker-b0/kw_worker.ko ' "$dir/kwm/initramfs.list" &&
	! grep -q '^file /lib/kw/\(late-wake\|plain-done-seq\|seed-late-wake\)/' "$dir/kwm/initramfs.list" &&
	packed=$((packed + 1))
done
if [ "$packed" -eq 3 ]; then
	ok "variants: only those a column loads are built and packed (3 of 3 columns)"
else
	bad "variants: only those a column loads are built and packed ($packed of 3 columns)"
fi
# The native mutants of the plain columns: the guest held back each one
# whose shape the calibration before it saw 0 times, and ran the others.
if python3 - "$(ls "$work"/matrix/*/matrix.json | head -1)" <<'PY'
import json, re, sys
m = json.load(open(sys.argv[1]))
held = ran = 0
for t in m["targets"]:
    rates = {r["shape"]: r for r in t.get("calibration", [])}
    for c in t["cells"]:
        if c["kind"] != "mutant" or c["emulated"]:
            continue
        not_run = "not run" in (c["reason"] or "") or "did not run it" in (c["reason"] or "")
        shape = re.search(r"calibration saw (\S+) 0 times", c["reason"] or "")
        if not_run and (not shape or rates.get(shape.group(1), {"weak": 1})["weak"]):
            sys.exit(f"{t['column']}/{c['suite']}: held back, but its shape was seen: {c['reason']}")
        held += not_run
        ran += not not_run
print(f"     {held} native mutants held back by the calibration, {ran} run")
sys.exit(0 if held else 1)
PY
then
	ok "native mutants: held back where calibration saw their shape 0 times"
else
	bad "native mutants: held back where calibration saw their shape 0 times"
fi
# The emulated machine's own tests: hunted -d by the first column,
# repeated about 2 s by the later ones, whose cells name the first; each
# green.  The covered barriers' mutants on it (plain kernels only):
# sampled about 2 s by the hunting column, left out of the later ones
# (their cells name it), and said so.  And the seed's torture ended at
# its finding (its XFAIL).
if python3 - "$(ls "$work"/matrix/*/matrix.json | head -1)" "$DURATION" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
duration = int(sys.argv[2])
own = ("calibrate-emu", "litmus-emu", "torture-emu")
tests, sampled, left_out = {}, {}, {}
for t in m["targets"]:
    for c in t["cells"]:
        if c["suite"] == "torture-seed" and (c["status"] != "XFAIL" or c["seconds"] >= duration):
            sys.exit(f"{t['column']}/torture-seed: {c['status']} after {c['seconds']} s, not an XFAIL ended at its finding")
        if c["kind"] == "mutant" and c["emulated"] and c["status"] == "COVERED":
            if "; not run here: " in c["reason"]:
                left_out.setdefault(t["column"], []).append(c)
            elif c["seconds"] >= duration or "; sampled " not in c["reason"]:
                sys.exit(f"{t['column']}/{c['suite']}: {c['seconds']} s, not sampled: {c['reason']}")
            else:
                sampled.setdefault(t["column"], []).append(c)
        if c["suite"] in own:
            if not c["green"]:
                sys.exit(f"{t['column']}/{c['suite']}: {c['status']}: {c['reason']}")
            tests.setdefault(t["column"], []).append(c)
if len(sampled) != 1 or not left_out:
    sys.exit(f"want one column sampling the covered barriers' mutants and the others leaving them out: sampled on {list(sampled)}, left out on {list(left_out)}")
sampler = next(iter(sampled))
for col, cells in left_out.items():
    for c in cells:
        if c["seconds"] != 0 or f"; not run here: {sampler} sampled it" not in c["reason"]:
            sys.exit(f"{col}/{c['suite']}: {c['seconds']} s: {c['reason']}")
# The column that hunted them: the one whose cells name no other.
hunters = [col for col, cells in tests.items()
           if not any("repeated" in (c["reason"] or "") for c in cells)]
if len(hunters) != 1 or len(tests) < 2:
    sys.exit(f"want one column hunting the emulated machine's tests and others repeating them: hunted on {hunters} of {list(tests)}")
# The litmus row's brief Never tests end it a little under -d.
for col, cells in tests.items():
    for c in cells:
        hunted = col == hunters[0]
        if hunted != (c["seconds"] >= 0.8 * duration) or \
           (not hunted and f"hunted -d on {hunters[0]}, repeated" not in c["reason"]):
            sys.exit(f"{col}/{c['suite']}: {c['seconds']} s: {c['reason']}")
print(f"     the emulated machine's tests: hunted on {hunters[0]} "
      f"({min(c['seconds'] for c in tests[hunters[0]]):.1f} s at least), repeated on "
      + ", ".join(f"{col} ({max(c['seconds'] for c in cells):.1f} s at most)"
                  for col, cells in tests.items() if col != hunters[0])
      + f"; {len(sampled[sampler])} covered mutants sampled on {sampler}, left out on "
      + ", ".join(left_out))
PY
then
	ok "the emulated machine's tests: hunted -d once, repeated briefly after; covered mutants sampled once; the seed's torture ends at its finding"
else
	bad "the emulated machine's tests: hunted -d once, repeated briefly after; covered mutants sampled once; the seed's torture ends at its finding"
fi
real_matrix "KCSAN and KASAN on arm64" -t arm64 -k kcsan,kasan
# Their detectors hunt: each suite ends at its oracle's first report on
# the subject, before the torture's duration (the oracle's hunt_seconds)
# is over.  (A torture that slept through the init's signal once kept
# both suites to their whole hunt: 120.8 s and 60.3 s.)
hunted=0
for oracle in kcsan:KCSAN kasan:KASAN; do
	grep -q "^# kwm: ended early: the kernel reported \"${oracle#*:}:\" in \[kw_worker\]" \
		"$work"/matrix/*/arm64+"${oracle%:*}"/console.log &&
	python3 - "$work"/matrix/*/arm64+"${oracle%:*}"/console.log <<'PY' && hunted=$((hunted + 1))
import re, sys
suite = None
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"# kwm: ended early: ", line)
    if m:
        early = True
    m = re.match(r"# kwm-suite: (\S+)", line)
    if m:
        suite, early, duration = m.group(1), False, None
    m = re.match(r"# kwm: load kw_worker_torture .*duration=(\d+)\s*$", line)
    if m:
        duration = int(m.group(1))
    m = re.match(r"# kwm-suite-seconds: (\S+) ([\d.]+)", line)
    if m and early and duration:
        print(f"     {sys.argv[1].split('/')[-2]}/{suite}: ended after {float(m.group(2)):.1f} s of its {duration} s")
        sys.exit(0 if float(m.group(2)) < duration else 1)
sys.exit(1)
PY
done
if [ "$hunted" -eq 2 ]; then
	ok "oracle detectors end at their oracle's first report"
else
	bad "oracle detectors end at their oracle's first report"
fi
# kwmatrix litmus on a folder of tests nobody here wrote, one of each
# kind herd7 reads (tests/data/litmus/): each runs, or is one skipped row
# naming its problem, and none sinks the batch.  The test without a
# Result: line is judged by herd7's record beside it.  (After the checks
# that read the every-target run's build folders: this run rebuilds
# riscv64's initramfs with the litmus modules alone.)
"$KWM" litmus --repo . -r "$work/litmus-files" -t riscv64 -d 2 tests/data/litmus/*.litmus \
	>"$work/out" 2>"$work/err"
status=$?
if [ $status -eq 0 ] && grep -q "warning: .*tests/data/litmus/lisa.litmus: a LISA test" "$work/err" &&
   python3 - "$(ls "$work"/litmus-files/*/matrix.json 2>/dev/null | head -1)" <<'PY'
import json, sys
rows = {r["test"]: r for t in json.load(open(sys.argv[1]))["targets"] for r in t["litmus"]}
ok = True
def say(test, what):
    global ok
    print(f"     {test}: {what}")
    ok = False
for test, why in (("LB+atomic-on-int", "its C does not compile"), ("lisa", "a LISA test")):
    if why not in ((rows.get(test) or {}).get("native") or {}).get("skipped") or "":
        say(test, f"not skipped with '{why}'")
for test in ("MP+fencewmbonceonce+fencermbonceonce+diy7", "SB+fencembonceonces+undeclared",
             "MP+fencewmbonceonce+pointer-register"):
    r = rows.get(test)
    if not r or r["result"] != "Never":
        say(test, f"no row, or not Never: {r and r['result']}")
        continue
    for side in ("native", "emulated"):
        if not r.get(side) or r[side]["skipped"] or not r[side]["runs"] or r[side]["weak"]:
            say(test, f"{side}: {r.get(side)}")
sys.exit(0 if ok else 1)
PY
then
	ok "litmus FILE...: a diy7 header, undeclared registers, an address register run; an uncompilable test and a LISA file are skipped rows naming why"
else
	bad "litmus FILE...: a diy7 header, undeclared registers, an address register run; an uncompilable test and a LISA file are skipped rows naming why (exit $status)"
fi
# The second kernel version, with the series refreshed in patch/6.12/.
real_matrix "linux-source-6.12 on arm64" -V 6.12 -t arm64 -k plain
# run_green JSON...: exit 0 if every cell of every run is of a green status.
run_green() {
	python3 - "$@" <<'PY'
import json, sys
sys.exit(0 if all(c["green"] for f in sys.argv[1:]
                  for t in json.load(open(f))["targets"] for c in t["cells"]) else 1)
PY
}

# The nightly's merge job, on these three runs as shards: exit 0 exactly
# when every shard was green, as the runs themselves.
ci/merge.sh "$work/shards" "$work/merged" >"$work/out" 2>&1
status=$?
# shellcheck disable=SC2046
want=$(run_green $(find "$work/shards" -name matrix.json) && echo 0 || echo 1)
if [ $status -eq "$want" ] &&
   [ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["targets"]))' \
	"$work/merged/matrix.json")" -eq 6 ] &&
   [ -s "$work/merged/junit.xml" ] && [ -s "$work/merged/kcidb.json" ]; then
	ok "merge: three shards, six columns, every format, exit $want"
else
	bad "merge: three shards, six columns, every format, exit $want (exit $status)"
fi

# A green shard set merges green: the shards whose every cell was green.
mkdir -p "$work/green"
for f in $(find "$work/shards" -name matrix.json); do
	run_green "$f" && cp -r "$(dirname "$(dirname "$f")")" "$work/green/$(basename "$(dirname "$(dirname "$f")")")"
done
if [ "$(find "$work/green" -name matrix.json | wc -l)" -ge 1 ] &&
   ci/merge.sh "$work/green" "$work/merged-green" >"$work/out" 2>&1; then
	ok "merge: a green shard set gives exit 0 ($(find "$work/green" -name matrix.json | wc -l) shards)"
else
	bad "merge: a green shard set gives exit 0 (no green shard, or exit $?)"
fi

# Every file written for another system passes that system's own
# validator (KCIDB's JSON schema, Jenkins' JUnit XSD, LAVA's schemas), and
# a broken copy of each is refused: the shards and their merge.
if tests/validate-exports.py "$work/shards" "$work/merged" >"$work/validate.out" 2>&1; then
	ok "exports: $(grep -c '^ok' "$work/validate.out") checks by KCIDB's, JUnit's and LAVA's own validators"
else
	grep -v '^ok' "$work/validate.out" | head -20 >"$work/err"
	bad "exports: KCIDB's, JUnit's and LAVA's own validators"
fi

# The HTML report in a real headless Chromium: the page loads, the heat-map
# has a cell per suite and column with the statuses of matrix.json, and a
# screenshot is kept in results/.
if html_cells_match "$work/merged" && [ -s results/index.png ] &&
   [ "$(head -c 8 results/index.png | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]; then
	ok "HTML report: Chromium shows every cell; screenshot in results/index.png"
else
	bad "HTML report: Chromium shows every cell; screenshot in results/index.png"
fi
# Each barrier's row has the memory model's verdict, or why there is none.
if grep -q "^flush-b0 .*\(herd7 not installed\|(herd7 \)" "$work/matrix.out"; then
	ok "LKMM column: herd7's verdict, or why not"
else
	bad "LKMM column: herd7's verdict, or why not"
fi

# Faults, with a fake QEMU in front of the real one.
mkdir -p "$work/fake"
printf '#!/bin/sh\nsleep 600\n' >"$work/fake/qemu-system-aarch64"
chmod +x "$work/fake/qemu-system-aarch64"
start=$(date +%s)
PATH=$work/fake:$PATH "$KWM" run --repo . -r "$work/hang" -t arm64 -k plain -s kunit -T 5 >"$work/out" 2>"$work/err"
status=$? took=$(( $(date +%s) - start ))
json=$(ls "$work"/hang/*/matrix.json 2>/dev/null | head -1)
if [ $status -eq 1 ] && grep -q '"status": "TIMEOUT"' "$json" && [ $took -lt 60 ] &&
   ! pgrep -f "$work/fake/qemu-system-aarch64" >/dev/null; then
	ok "hung guest: TIMEOUT, QEMU gone"
else
	bad "hung guest: TIMEOUT, QEMU gone (exit $status, ${took}s)"
fi

printf '#!/bin/sh\necho "qemu: fake crash" >&2\nexit 1\n' >"$work/fake/qemu-system-aarch64"
PATH=$work/fake:$PATH "$KWM" run --repo . -r "$work/dead" -t arm64 -k plain -s kunit >"$work/out" 2>"$work/err"
status=$?
json=$(ls "$work"/dead/*/matrix.json 2>/dev/null | head -1)
if [ $status -eq 1 ] && grep -q '"status": "CRASHED"' "$json" && grep -q 'fake crash' "$json"; then
	ok "QEMU exits early: CRASHED with its message"
else
	bad "QEMU exits early: CRASHED with its message (exit $status)"
fi

# A red shard (the CRASHED run) beside a green one merges red: exit 1.
mkdir -p "$work/red"
cp -r "$work/dead" "$work/red/dead"
cp -r "$work/shards/3" "$work/red/6.12"
ci/merge.sh "$work/red" "$work/merged-red" >"$work/out" 2>&1
status=$?
if [ $status -eq 1 ] && grep -q '"status": "CRASHED"' "$work/merged-red/matrix.json"; then
	ok "merge: a red shard makes the merge exit 1"
else
	bad "merge: a red shard makes the merge exit 1 (exit $status)"
fi

# fake_console FILE: a QEMU that writes FILE as the guest's console and
# exits 0, as a guest that powers off does.  Sets status and json.
fake_console() {
	cat >"$work/fake/qemu-system-aarch64" <<FAKE
#!/bin/sh
while [ \$# -gt 0 ]; do
	[ "\$1" = -serial ] && cp "$1" "\${2#file:}"
	shift
done
exit 0
FAKE
	chmod +x "$work/fake/qemu-system-aarch64"
	rm -rf "$work/canned"
	PATH=$work/fake:$PATH "$KWM" run --repo . -r "$work/canned" -t arm64 -k plain -s kunit \
		>"$work/out" 2>"$work/err"
	status=$?
	json=$(ls "$work"/canned/*/matrix.json 2>/dev/null | head -1)
}

# expect_cell NAME STATUS TEXT: exit 1, a complete run, and the kunit cell
# has STATUS, with TEXT in its reason or excerpt.
expect_cell() {
	if [ $status -eq 1 ] && [ -n "$json" ] && python3 - "$json" "$2" "$3" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
c = m["targets"][0]["cells"][0]
text = (c["reason"] or "") + (c["excerpt"] or "")
sys.exit(0 if m["complete"] and c["status"] == sys.argv[2] and sys.argv[3] in text else 1)
PY
	then
		ok "$1"
	else
		bad "$1 (exit $status, $json)"
	fi
}

boot='[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x410fd083]
# kwm: init started'
suite_start='# kwm-suite: kunit
KTAP version 1
1..1
    KTAP version 1
    # Subtest: kw_worker
    1..7
    ok 1 kw_worker_queue_runs_work'
suite_end='    ok 2 b
    ok 3 c
    ok 4 d
    ok 5 e
    ok 6 f
    ok 7 g
ok 1 kw_worker
# kwm-suite-end: kunit
# kwm-done'

printf '%s\n' "$boot" >"$work/console"
fake_console "$work/console"
expect_cell "guest powers off without its results: CRASHED" CRASHED "stopped before this suite"

printf '%s\n%s\n    ok 2 kw_wor' "$boot" "$suite_start" >"$work/console"
fake_console "$work/console"
expect_cell "KTAP cut off mid-stream: CRASHED" CRASHED "KTAP: plan 1..7 but 2 results"

{ printf '%s\n' "$boot"; head -c 65536 /dev/urandom; } >"$work/console"
fake_console "$work/console"
expect_cell "garbage on the console: CRASHED, parser intact" CRASHED "this suite"

printf '%s\n%s\nKernel panic - not syncing: kwmatrix fault\n' "$boot" "$suite_start" >"$work/console"
fake_console "$work/console"
expect_cell "kernel panic during a suite: CRASHED with the excerpt" CRASHED "kwmatrix fault"

printf '%s\n%s\nInternal error: Oops: 96000005 [#1] SMP\n' "$boot" "$suite_start" >"$work/console"
fake_console "$work/console"
expect_cell "oops during a suite: CRASHED" CRASHED "Oops"

printf '%s\n%s\nWARNING: CPU: 1 PID: 60 at lib/kw_worker.c:42 kw_worker_fn+0x70/0x110 [kw_worker]\n%s\n' \
	"$boot" "$suite_start" "$suite_end" >"$work/console"
fake_console "$work/console"
expect_cell "WARNING during a passing suite: WARN" WARN "lib/kw_worker.c:42"

printf '%s\n%s\nBUG: KASAN: slab-use-after-free in kw_worker_fn+0x70/0x110 [kw_worker]\n kw_worker_fn+0x70/0x110 [kw_worker]\n%s\n' \
	"$boot" "$suite_start" "$suite_end" >"$work/console"
fake_console "$work/console"
expect_cell "KASAN report in the subject: FAIL, attributed" FAIL "in the subject"

# Progress and summary: in a log, plain appended lines and no escape codes;
# on a terminal (script(1) gives one), live lines redrawn in place and a
# coloured table.
printf '%s\n%s\n%s\n' "$boot" "$suite_start" "$suite_end" >"$work/console"
fake_console "$work/console"
esc=$(printf '\033')
if [ $status -eq 0 ] && ! grep -q "$esc" "$work/out" "$work/err" &&
   grep -q "^kwmatrix: arm64: suite 1 of 1: kunit" "$work/err" &&
   grep -q "^kwmatrix: arm64: done: 1 PASS" "$work/err"; then
	ok "progress in a log: one plain line per change"
else
	bad "progress in a log: one plain line per change (exit $status)"
fi
TERM=xterm PATH=$work/fake:$PATH script -qec \
	"'$KWM' run --repo . -r '$work/tty' -t arm64 -k plain -s kunit" "$work/typescript" >/dev/null
status=$?
if [ $status -eq 0 ] && grep -q "${esc}\[1F${esc}\[J" "$work/typescript" &&
   grep -q "arm64 .*done: 1 PASS" "$work/typescript" &&
   grep -q "${esc}\[32mPASS 7/7" "$work/typescript"; then
	ok "progress on a terminal: live lines, coloured table"
else
	bad "progress on a terminal: live lines, coloured table (exit $status)"
fi

# A full disk (a small tmpfs; needs root) while writing results, then
# during a build.
if mkdir -p "$work/full" && mount -t tmpfs -o size=256k tmpfs "$work/full" 2>/dev/null; then
	mkdir -p "$work/full/results"
	printf '%s\n' "$boot" >"$work/console"
	dd if=/dev/zero of="$work/full/fill" bs=4k 2>/dev/null
	PATH=$work/fake:$PATH "$KWM" run --repo . -r "$work/full/results" -t arm64 -k plain -s kunit \
		>"$work/out" 2>"$work/err"
	status=$?
	if [ $status -eq 2 ] && grep -q "free some space" "$work/err" &&
	   [ -z "$(find "$work/full/results" -name 'matrix.json*')" ]; then
		ok "disk full while writing results: one line, no matrix.json"
	else
		bad "disk full while writing results: one line, no matrix.json (exit $status)"
	fi
	rm -f "$work/full/fill"
	mkdir -p "$work/full/cache"
	ln -s "${KWMATRIX_CACHE:-$HOME/.cache/kwmatrix}/src" "$work/full/cache/src"
	"$KWM" run --repo . -c "$work/full/cache" -r "$work/fullbuild" -t arm64 -k plain -s kunit \
		>"$work/out" 2>"$work/err"
	status=$?
	json=$(ls "$work"/fullbuild/*/matrix.json 2>/dev/null | head -1)
	if [ $status -eq 1 ] && grep -q '"status": "ERROR"' "$json" &&
	   [ -z "$(find "$work/full/cache/build" -name .kwm-built 2>/dev/null)" ]; then
		ok "disk full during a build: ERROR, no build stamp"
	else
		bad "disk full during a build: ERROR, no build stamp (exit $status)"
	fi
	umount "$work/full"
else
	skip "disk full: cannot mount a tmpfs here (needs root)"
fi

# wait_for TEXT FILE: until FILE holds TEXT, for up to 120 s.
wait_for() {
	for _ in $(seq 1 120); do
		grep -q "$1" "$2" && return
		sleep 1
	done
}

# interrupted SIGNAL EXIT NAME: a signal during a torture; the guests are
# killed, the partial results marked incomplete, and the exit is EXIT.
interrupted() {
	rm -rf "$work/int"
	"$KWM" run --repo . -r "$work/int" -t arm64 -k plain -s torture -d 60 >"$work/out" 2>"$work/err" &
	pid=$!
	wait_for booting "$work/err"
	sleep 3
	kill -"$1" $pid
	wait $pid
	status=$?
	json=$(ls "$work"/int/*/matrix.json 2>/dev/null | head -1)
	if [ $status -eq "$2" ] && interrupted_cleanly; then
		ok "$3"
	else
		bad "$3 (exit $status)"
	fi
}

# interrupted_cleanly: $work/int's results say incomplete, its guest was
# stopped (not left to end its 60 s), its cells say the run was
# interrupted, and no QEMU of it runs on (its -initrd is in the results
# folder).
interrupted_cleanly() {
	json=$(ls "$work"/int/*/matrix.json 2>/dev/null | head -1)
	[ -n "$json" ] && grep -q '"complete": false' "$json" &&
		grep -q '"interrupted": true' "$json" &&
		grep -q '"reason": "run interrupted during this suite"' "$json" &&
		! pgrep -f "qemu-system.*$work/int/" >/dev/null
}

interrupted INT 130 "Ctrl-C: incomplete results, guests gone, exit 130"
# As CI services send at their time limit.
interrupted TERM 143 "SIGTERM: incomplete results, guests gone, exit 143"

# Its reader gone (kwmatrix run | head) once the guest runs: stopped as
# on Ctrl-C, not killed by SIGPIPE with QEMU left running for its bound.
# Four lines: the run, building, up to date, booting; the fifth, the
# suite's start, meets the closed pipe.
rm -rf "$work/int"
{
	"$KWM" run --repo . -r "$work/int" -t arm64 -k plain -s torture -d 60 2>&1
	echo $? >"$work/status"
} | head -n 4 >/dev/null
status=$(cat "$work/status")
if [ "$status" -eq 141 ] && interrupted_cleanly; then
	ok "reader gone: incomplete results, guests gone, exit 141"
else
	bad "reader gone: incomplete results, guests gone, exit 141 (exit $status)"
	pkill -f "qemu-system.*$work/int/" || true
fi

# SIGTERM during a build (a cache of its own, so that it builds): the make
# and its compilers stop with the driver, and no build stamp is left.
rm -rf "$work/termcache" && mkdir -p "$work/termcache"
ln -s "${KWMATRIX_CACHE:-$HOME/.cache/kwmatrix}/src" "$work/termcache/src"
"$KWM" run --repo . -c "$work/termcache" -r "$work/termbuild" -t arm64 -k plain -s kunit \
	>"$work/out" 2>"$work/err" &
pid=$!
wait_for "building in" "$work/err"
sleep 5
kill -TERM $pid
for _ in $(seq 1 30); do
	kill -0 $pid 2>/dev/null || break
	sleep 1
done
kill -KILL $pid 2>/dev/null
wait $pid
status=$?
json=$(ls "$work"/termbuild/*/matrix.json 2>/dev/null | head -1)
if [ $status -eq 143 ] && grep -q '"complete": false' "$json" &&
   grep -q "stopped by Terminated" "$json" &&
   ! pgrep -f "$work/termcache" >/dev/null &&
   [ -z "$(find "$work/termcache/build" -name .kwm-built 2>/dev/null)" ]; then
	ok "SIGTERM during a build: make stopped too, no build stamp"
else
	bad "SIGTERM during a build: make stopped too, no build stamp (exit $status)"
fi
pkill -KILL -f "$work/termcache" 2>/dev/null
rm -rf "$work/termcache" 2>/dev/null

# Two runs at once on one cache: the second waits, both complete.
"$KWM" run --repo . -r "$work/two" -t arm64 -k plain -s kunit >"$work/out1" 2>&1 &
pid=$!
"$KWM" run --repo . -r "$work/two" -t arm64 -k plain -s kunit >"$work/out2" 2>&1
status2=$?
wait $pid
status1=$?
if [ $status1 -eq 0 ] && [ $status2 -eq 0 ] &&
   [ "$(grep -l '"complete": true' "$work"/two/*/matrix.json | wc -l)" -eq 2 ]; then
	ok "two runs at once on one cache"
else
	bad "two runs at once on one cache (exits $status1 $status2)"
fi

# Through LAVA: a job per column for LAVA's qemu device type, run here by
# lava-run, read back into the matrix.  The detector fails KTAP cases, so
# LAVA's own monitor must count failures too.
"$KWM" run --repo . -L -r "$work/lava" -t arm64 -k plain -s kunit,detector-early-wake \
	>"$work/out" 2>"$work/err"
status=$?
json=$(ls "$work"/lava/*/matrix.json 2>/dev/null | head -1)
if [ $status -eq 0 ] && [ -n "$json" ] && python3 - "$json" <<'PY'
import json, os, re, sys, yaml
m = json.load(open(sys.argv[1]))
t = m["targets"][0]
cells = {c["suite"]: c["status"] for c in t["cells"]}
note = t["guest"]["runner_note"] or ""
folder = os.path.join(os.path.dirname(sys.argv[1]), t["column"])
job = yaml.safe_load(open(os.path.join(folder, "lava-job.yaml")))
board = yaml.safe_load(open(os.path.join(folder, "lava-board-job.yaml")))
fails = re.search(r"(\d+) fail", note)
sys.exit(0 if cells == {"kunit": "PASS", "detector-early-wake": "KILLED"}
         and t["guest"]["runner"] == "lava" and note.startswith("LAVA job pass")
         and fails and int(fails.group(1)) > 0
         and job["device_type"] == "qemu" and board["actions"][1]["boot"]["method"] == "u-boot"
         else 1)
PY
then
	ok "LAVA: lava-run boots the jobs, its results read back"
else
	bad "LAVA: lava-run boots the jobs, its results read back (exit $status)"
fi

# The build cell's W=1 pass and the sparse cell catch what they guard: a
# function without a prototype in the subject.  Each runs only where its
# suite is asked for: -s kunit builds and passes without them.
rm -rf "$work/series" && mkdir -p "$work/series"
cp patch/*.patch patch/series "$work/series/"
sed -i 's/^+MODULE_LICENSE("GPL");$/+MODULE_LICENSE("GPL"); int kwm_fault_unprototyped(void) { return 0; }/' \
	"$work"/series/0001-*.patch
"$KWM" run --repo . -r "$work/w1" -t arm64 -k plain -s build -p "$work/series" >"$work/out" 2>"$work/err"
status=$?
json=$(ls "$work"/w1/*/matrix.json 2>/dev/null | head -1)
if [ $status -eq 1 ] && [ -n "$json" ] && grep -q "do not build cleanly with W=1: 1 warnings" "$json" &&
   grep -q "no previous prototype for .*kwm_fault_unprototyped" "$json"; then
	ok "build cell: a W=1 warning in the series is an ERROR"
else
	bad "build cell: a W=1 warning in the series is an ERROR (exit $status)"
fi
"$KWM" run --repo . -r "$work/sparse" -t arm64 -k plain -s sparse -p "$work/series" >"$work/out" 2>"$work/err"
status=$?
json=$(ls "$work"/sparse/*/matrix.json 2>/dev/null | head -1)
if [ $status -eq 1 ] && [ -n "$json" ] && python3 - "$json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["targets"][0]["cells"][0]
sys.exit(0 if c["suite"] == "sparse" and c["status"] == "FAIL"
         and "kwm_fault_unprototyped' was not declared" in c["excerpt"] else 1)
PY
then
	ok "sparse cell: a symbol that should be static FAILs"
else
	bad "sparse cell: a symbol that should be static FAILs (exit $status)"
fi
"$KWM" run --repo . -r "$work/unasked" -t arm64 -k plain -s kunit -p "$work/series" >"$work/out" 2>"$work/err" &&
	ok "neither W=1 nor sparse where their suites are not asked for" ||
	bad "neither W=1 nor sparse where their suites are not asked for"

# A build that fails: the compiler's error in the cell, exit 1, and the
# next run with the real series builds again.
cp patch/*.patch patch/series "$work/series/"
sed -i '0,/^+\tKUNIT_EXPECT_EQ(test, tw.runs, 1);$/s//+\tKUNIT_EXPECT_EQ(test, tw.runs, 1) kwmatrix_fault;/' \
	"$work"/series/0002-*.patch
"$KWM" run --repo . -r "$work/broken" -t arm64 -k plain -s kunit -p "$work/series" >"$work/out" 2>"$work/err"
status=$?
json=$(ls "$work"/broken/*/matrix.json 2>/dev/null | head -1)
if [ $status -eq 1 ] && grep -q '"status": "ERROR"' "$json" && grep -q 'kwmatrix_fault' "$json"; then
	ok "failing build: ERROR with the compiler's message"
else
	bad "failing build: ERROR with the compiler's message (exit $status)"
fi
"$KWM" run --repo . -r "$work/fixed" -t arm64 -k plain -s kunit >"$work/out" 2>"$work/err" &&
	ok "next run after a failed build" || bad "next run after a failed build"

# The checkpatch cell catches what it guards: a patch without its
# Signed-off-by.  Only the commit message changes, so nothing rebuilds.
rm -rf "$work/series" && mkdir -p "$work/series"
cp patch/*.patch patch/series "$work/series/"
sed -i '/^Signed-off-by:/d' "$work"/series/0003-*.patch
"$KWM" run --repo . -r "$work/unsigned" -t arm64 -k plain -s checkpatch -p "$work/series" \
	>"$work/out" 2>"$work/err"
status=$?
json=$(ls "$work"/unsigned/*/matrix.json 2>/dev/null | head -1)
if [ $status -eq 1 ] && [ -n "$json" ] && python3 - "$json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["targets"][0]["cells"][0]
sys.exit(0 if c["status"] == "FAIL" and "1 of 5 patches" in c["reason"]
         and "Missing Signed-off-by" in c["excerpt"] else 1)
PY
then
	ok "checkpatch cell: a patch without Signed-off-by FAILs"
else
	bad "checkpatch cell: a patch without Signed-off-by FAILs (exit $status)"
fi

echo "matrix tests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
