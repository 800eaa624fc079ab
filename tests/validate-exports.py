#!/usr/bin/python3
# Validate what a run writes for other systems with each system's own
# validator: kcidb.json against KCIDB's v4.2 JSON schema (jsonschema,
# Draft 7, as kcidb-io does), junit.xml against Jenkins' junit-10.xsd
# (xmllint), the LAVA jobs with lava_common.schemas.validate(strict=True)
# and the device dictionary with lava_common.schemas.device.validate().
# Then a deliberately broken copy of each must fail.  Debian's python3
# (python3-jsonschema, lava-dispatcher), not a virtualenv's.
#
#   tests/validate-exports.py RESULTS_DIR...
#
# Prints "ok"/"FAIL" per check, exits 1 if any failed.
import copy
import glob
import json
import os
import subprocess
import sys
import tempfile

import jsonschema
import yaml
from lava_common.schemas import validate as lava_validate
from lava_common.schemas.device import validate as lava_device_validate

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMAS = os.path.join(HERE, "data", "schemas")
KCIDB = jsonschema.Draft7Validator(
    json.load(open(os.path.join(SCHEMAS, "kcidb-v04_02.schema.json"))),
    format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
failed = 0


def report(ok, what):
    global failed
    failed += not ok
    print(("ok   " if ok else "FAIL ") + what)


def kcidb_errors(data):
    return [f"{list(e.absolute_path)}: {e.message[:160]}" for e in KCIDB.iter_errors(data)]


def junit_errors(text):
    with tempfile.NamedTemporaryFile("w", suffix=".xml") as f:
        f.write(text)
        f.flush()
        r = subprocess.run(["xmllint", "--noout", "--schema",
                            os.path.join(SCHEMAS, "junit-10.xsd"), f.name],
                           capture_output=True, text=True)
    return [] if r.returncode == 0 else r.stderr.strip().splitlines()[:3]


def lava_errors(data, device):
    try:
        if device:
            lava_device_validate(data)
        else:
            lava_validate(data, strict=True)
        return []
    except Exception as e:  # voluptuous.Invalid and its kin
        return [f"{type(e).__name__}: {e}"]


def check(path, kind, errors_of, load, broken):
    data = load(path)
    errs = errors_of(data)
    report(not errs, f"{kind} {path}" + ("" if not errs else ": " + "; ".join(errs[:3])))
    errs = errors_of(broken(data))
    report(bool(errs), f"{kind} {path}, broken on purpose, is refused")


def broken_kcidb(d):
    d = copy.deepcopy(d)
    d["tests"][0]["path"] = "kw_worker.calibrate.SB+mbs"
    return d


def broken_lava_job(d):
    d = copy.deepcopy(d)
    d["actions"][0]["deploy"]["to"] = "carrier-pigeon"
    return d


def broken_lava_device(d):
    d = copy.deepcopy(d)
    d["actions"] = {"deploy": {"methods": {}}}
    return d


def load_yaml(path):
    return yaml.safe_load(open(path))


checked = 0
for results in sys.argv[1:]:
    # Every results folder holds a run's KCIDB and JUnit files, at least.
    for name in ("kcidb.json", "junit.xml"):
        report(bool(glob.glob(os.path.join(results, "**", name), recursive=True)),
               f"{results} holds a {name}")
    for path in sorted(glob.glob(os.path.join(results, "**", "kcidb.json"), recursive=True)):
        check(path, "KCIDB v4.2", kcidb_errors, lambda p: json.load(open(p)), broken_kcidb)
    for path in sorted(glob.glob(os.path.join(results, "**", "junit.xml"), recursive=True)):
        check(path, "JUnit (junit-10.xsd)", junit_errors, lambda p: open(p).read(),
              lambda t: t.replace("<testcase ", "<testcase bogus=\"1\" ", 1))
    for path in sorted(glob.glob(os.path.join(results, "**", "lava-*job.yaml"), recursive=True)):
        check(path, "LAVA job", lambda d: lava_errors(d, False), load_yaml, broken_lava_job)
    for path in sorted(glob.glob(os.path.join(results, "**", "lava-device.yaml"), recursive=True)):
        check(path, "LAVA device", lambda d: lava_errors(d, True), load_yaml, broken_lava_device)
report(len(sys.argv) > 1, "a results folder to validate")
sys.exit(1 if failed else 0)
