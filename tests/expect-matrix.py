#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
The end-to-end expectations: every cell of a run's matrix.json has the
one status it must have, with a reason that says why, and each verdict
is the one the memory model and the kills give.  Where a platform allows
two statuses, the figure that decides between them is read from the run
and the status follows from it.

    tests/expect-matrix.py MATRIX_JSON    exit 0 if every cell is as expected
"""
import json, re, sys
m = json.load(open(sys.argv[1]))
# suite (regex) -> [(status, reason regex, None for no reason)], by kernel.
# One status per cell: where a platform allows two, the figure that
# decides between them is read here and the status follows from it.
# The truth the tests expect, in one place: each barrier's verdict, and
# its mutant's calibration shape.
TRUTH = [line.rstrip("\n").split("\t") for line in open("litmus/expected-verdicts.tsv")
         if line.strip() and not line.startswith("#")]
SHAPE = {barrier: shape for _, barrier, _, shape in TRUTH}
REDUNDANT = {version: {b for v, b, verdict, _ in TRUTH if v == version and verdict == "REDUNDANT"}
             for version, _, _, _ in TRUTH}
def violations(c):
    n = 0
    for test in c.get("tests") or []:
        for sub in test.get("subtests") or []:
            hit = re.match(r"(\d+) violations", sub.get("directive") or "")
            n += int(hit.group(1)) if hit and sub["status"] == "FAIL" else 0
    return n
def plain_mutant(t, c):
    # Decided by the column's calibration of the mutant's shape, then the
    # torture's violations, then the weak outcomes its flushes would meet.
    shape = SHAPE[c["barrier"]]
    r = next((r for r in t["calibration"] if r["shape"] == shape), None)
    if r is None:
        return []  # no figure: nothing is accepted
    if r["weak"] == 0:
        return [("UNOBSERVABLE", rf"^calibration saw {re.escape(shape)} 0 times in {r['runs']} runs here")]
    if violations(c):
        return [("KILLED", r"^\w+: \d+ violations")]
    flushes = (c.get("torture") or {}).get("flushes")
    if flushes is not None and flushes * r["weak"] / r["runs"] < 3:
        return [("UNOBSERVABLE", rf"^calibration saw {re.escape(shape)} here, but rarely: {r['weak']} weak in {r['runs']} runs")]
    return [("SURVIVED", rf"yet calibration saw {re.escape(shape)} here: {r['weak']} weak in {r['runs']} runs")]
def oracle_mutant(c):
    # Decided by the oracle's report on the subject (one in the rest of
    # the kernel kills nothing), or a check's violations.
    if (c.get("oracle_report") or {}).get("origin") == "the subject" or violations(c):
        return [("KILLED", r"^(KCSAN|KASAN): |^\w+: \d+ violations")]
    return [("UNOBSERVABLE", r"^KCSAN reported nothing and no check fired")]
def litmus_shape(name):
    parts = name.split("+")
    return "+".join(parts[:2]) if parts[0].isdigit() and len(parts) > 1 else parts[0]
def litmus_cell(t, side):
    # Decided by the rows: a Never test could fail where a Sometimes test
    # of its shape showed its weak outcome on the same side.
    shown = {litmus_shape(r["test"]) for r in t["litmus"]
             if r["result"] == "Sometimes" and (r.get(side) or {}).get("weak")}
    never = [r for r in t["litmus"] if r["result"] == "Never" and r.get(side)
             and not r[side]["skipped"]]
    could = sum(litmus_shape(r["test"]) in shown for r in never)
    if not never:
        return []  # an empty row proves nothing
    if not could:
        return [("UNOBSERVABLE", rf"^none of its {len(never)} Never tests could fail here")]
    return [("PASS", rf"^{could} of {len(never)} Never tests could fail here")]
RUNS_CLEAN = [("PASS", None), ("PASS", r"in the rest of the kernel")]
# Where herd7 checked the path models (README, "Barrier verdicts"), the
# barriers they show covered have COVERED mutants and REDUNDANT verdicts;
# where it did not, a header is a claim: platform statuses, NOT DECIDED.
COVERED = [("COVERED", r"^nothing can kill it anywhere: the memory model of the (seed|series) without [\w-]+ says Never, covered by ")]
# On the emulated machine: a needed barrier's mutant is KILLED (the
# issue's bar); a covered one's gets through: COVERED on herd7's word,
# UNCHECKED where only the header says so (herd7 not installed).
# Steered (emu_direct=), every needed barrier's mutant is killed: no
# SURVIVED is accepted.
EMU_KILLED = [("KILLED", r"^\w+: \d+ violations")]
EMU_COVERED = [("UNCHECKED", r"^no check caught it on the emulated machine in seconds=\d+ .*; only the memory model's header says the (seed|series) without [\w-]+ is Never \(expected, unchecked: herd7 not installed[^)]*\), covered by .*\(fix: build herd7")]
verdicts = {(v["version"], v["barrier"]): v for v in m["barriers"]}
# Whether herd7 judges the models here, decided from the repository's
# data, never from the driver's output: herd7 on PATH, or a record of
# herd7's for each of the version's path models, whole, on the tree's
# memory model (litmus/herd7-verdicts.tsv: sha256 of the test, then of
# each .cat/.bell/.def/.cfg file, its length first as 8 bytes).  A driver
# that ignored the records would print NOT DECIDED where this expects
# REDUNDANT.
import glob, hashlib, os, shutil, struct
cache = os.environ.get("KWMATRIX_CACHE") or os.path.expanduser("~/.cache/kwmatrix")
def sha256(path, framed=False):
    data = open(path, "rb").read()
    return hashlib.sha256((struct.pack("<Q", len(data)) if framed else b"") + data).hexdigest()
def model_digest(source_version):
    mm = f"{cache}/src/{source_version}/tree/tools/memory-model"
    names = sorted(n for n in os.listdir(mm) if n.endswith((".cat", ".bell", ".def", ".cfg")))
    return ",".join(f"{n}={sha256(os.path.join(mm, n), True)}" for n in names)
recorded = {tuple(line.split("\t")[:2]) for line in open("litmus/herd7-verdicts.tsv")
            if line.strip() and not line.startswith("#")}
source_version = m["targets"][0]["source_version"]
def herd7_checked(key):
    models = glob.glob(f"litmus/path-{key[0]}.litmus") + glob.glob(f"litmus/path-{key[0]}+*.litmus")
    return shutil.which("herd7") is not None or (bool(models) and all(
        (sha256(path), model_digest(source_version)) in recorded for path in models))
REPEATED = r"hunted -d on \S+, repeated \d+ s here: the emulated machine is the same software on every target$"
EXPECT = {
    "kunit": RUNS_CLEAN,
    "build": [("PASS", None)],
    "sparse": [("PASS", None)],
    "checkpatch": [("PASS", r"^5 patches clean$")],
    "calibrate": [("PASS", None)],
    # A later column repeats the emulated machine's tests another hunted.
    "calibrate-emu": [("PASS", None), ("PASS", "^" + REPEATED)],
    "detector-emu-no-wmb": [("KILLED", r"^MP\+wmb\+rmb: \d+ forbidden weak outcomes")],
    "detector-calibrate-stuck": [("KILLED", r"^SB: stuck: side 0 waited 1 s for the other at the meeting between rounds, and both stopped")],
    "detector-emu-uncovered-worker-b0": [("KILLED", r"^visibility: ")],
    "detector-litmus-emu-no-wmb": [("KILLED", r"^MP\+fencewmbonceonce\+fencermbonceonce: Never, yet \d+ weak outcomes")],
    "detector-litmus-emu-no-rmb": [("KILLED", r"^MP\+fencewmbonceonce\+fencermbonceonce: Never, yet \d+ weak outcomes")],
    "detector-litmus-emu-no-mb": [("KILLED", r"^SB\+fencembonceonces: Never, yet \d+ weak outcomes")],
    # The Never tests in the hunts' mode: none shows its outcome; broken, one does.
    "litmus-emu-steered": [("PASS", None), ("PASS", "^" + REPEATED)],
    "detector-litmus-emu-steered-no-wmb": [("KILLED", r"^MP\+fencewmbonceonce\+fencermbonceonce: Never, yet \d+ weak outcomes")],
    "torture": RUNS_CLEAN,
    "torture-emu": RUNS_CLEAN + [("PASS", "^" + REPEATED)],
    "torture-free": RUNS_CLEAN,
    "torture-free-wide": RUNS_CLEAN,
    "torture-seed": [("XFAIL", r"^known finding reproduced: completion: \d+ violations")],
    "torture-free-seed": [("KILLED", r"^KASAN: use-after-free")],
    "detector-no-wakeup": [("KILLED", r"^liveness: ")],
    "detector-early-done": [("KILLED", r"^completion: ")],
    "detector-early-wake": [("KILLED", r"^visibility: ")],
    "detector-stays-pending": [("KILLED", r"^requeue: ")],
    "detector-plain-done-seq": [("KILLED", r"^KCSAN: data-race in .*kw_worker")],
}
ok = m["complete"]
for t in m["targets"]:
    for c in t["cells"]:
        suite, reason = c["suite"], c["reason"]
        if t["unavailable"]:
            want = [("UNOBSERVABLE", "^" + re.escape(t["unavailable"]) + "$")]
        elif c["kind"] == "mutant" and c["emulated"]:
            version, barrier = c["subject"], c["barrier"]
            want = (COVERED if herd7_checked((version, barrier)) else EMU_COVERED) \
                   if barrier in REDUNDANT[version] else EMU_KILLED
        elif c["kind"] == "mutant" and herd7_checked((c["subject"], c["barrier"])) and \
             c["barrier"] in REDUNDANT[c["subject"]]:
            want = COVERED
        elif c["kind"] == "mutant":
            want = oracle_mutant(c) if t["kernel"] != "plain" else plain_mutant(t, c)
        elif suite in ("litmus", "litmus-emu"):
            want = litmus_cell(t, "native" if suite == "litmus" else "emulated")
        else:
            want = EXPECT.get(suite, [])
        if not any(c["status"] == s and (r is None and reason is None or
                                         r is not None and reason and re.search(r, reason))
                   for s, r in want):
            print(f"     {t['column']}/{suite}: {c['status']}: {reason} (expected one of {want})")
            ok = False
# The calibration's figures as the driver read them (its "# kwc:" lines)
# are those the guest's KTAP cases printed: a driver that read every
# shape as 0 would hold back every native mutant, and each cell above
# would still agree with it.
for t in m["targets"]:
    cal = next((c for c in t["cells"] if c["suite"] == "calibrate" and c["status"] == "PASS"), None)
    if not cal:
        continue
    printed = {sub["name"]: sub.get("directive") or "" for test in cal["tests"]
               for sub in test.get("subtests") or []}
    if not t["calibration"] or len(t["calibration"]) != len(printed):
        print(f"     {t['column']}: {len(t['calibration'] or [])} calibration figures, {len(printed)} shapes run")
        ok = False
    for r in t["calibration"] or []:
        text = printed.get(r["shape"], "")
        hit = re.match(r"(\d+) weak in (\d+) runs", text)
        # A forbidden shape skipped after its baseline showed nothing: 0 weak.
        if text.startswith("SKIP unobservable here") and r["forbidden"] and not r["weak"]:
            continue
        if not hit or (int(hit[1]), int(hit[2])) != (r["weak"], r["runs"]):
            print(f"     {t['column']}: calibration of {r['shape']} read as {r['weak']} weak in "
                  f"{r['runs']} runs, printed as '{printed.get(r['shape'])}'")
            ok = False
emulated = any(c["kind"] == "mutant" and c["emulated"] for t in m["targets"] for c in t["cells"])
if len(verdicts) != 8:
    print(f"     {len(verdicts)} barrier verdicts, not 4 barriers of 2 versions")
    ok = False
for (version, barrier), v in sorted(verdicts.items()):
    if barrier in REDUNDANT[version] and herd7_checked((version, barrier)):
        want = [("REDUNDANT", r"^covered by .*; (no oracle killed the mutant|no mutant of it ran here)$")]
    elif barrier in REDUNDANT[version]:
        want = [("NOT DECIDED", r"fix: build herd7")]
    elif emulated:
        want = [("NECESSARY", r"^mutant-\S+ on \S+: \w+: \d+ violations")]
    else:
        # No emulated mutant in this run (the oracle kernels): no kill.
        want = [("NOT DECIDED", r"(no mutant of the \w+ without [\w-]+ ran|not killed in \d+ cells?:)")]
    if not any(v["verdict"] == s and re.search(r, v["evidence"]) for s, r in want):
        print(f"     verdict {version}/{barrier}: {v['verdict']}: {v['evidence']} (expected one of {want})")
        ok = False
sys.exit(0 if ok else 1)
