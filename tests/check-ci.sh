#!/bin/sh
# The CI definitions under ci/ parse, every command they run exists
# (scripts under ci/, executable, and make targets of the Makefile), and
# each fans out over exactly the targets the driver knows.
cd "$(dirname "$0")/.." || exit 1
/usr/bin/python3 - ci/*.yml <<'PY'
import os, re, subprocess, sys
try:
    import yaml
except ImportError:
    sys.exit("check-ci: python3-yaml is missing (fix: apt-get install python3-yaml, or make deps)")

targets = set(re.findall(r"^([a-z][a-z-]*):", open("Makefile").read(), re.M))
listing = subprocess.run(["build/kwmatrix", "list"], capture_output=True, text=True).stdout
# The indented lines under "targets:", up to the next heading.
section = listing.split("targets:\n", 1)[-1]
known = []
for line in section.splitlines():
    if not line.startswith("  "):
        break
    known.append(line.split()[0])
bad = 0

def fan_outs(node):
    """Lists under a "target" key: a CI service's matrix of targets."""
    if isinstance(node, dict):
        for key, value in node.items():
            if str(key).lower() == "target" and isinstance(value, list):
                yield value
            else:
                yield from fan_outs(value)
    elif isinstance(node, list):
        for item in node:
            yield from fan_outs(item)

def commands(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("run", "script", "before_script", "after_script"):
                yield from value if isinstance(value, list) else [value]
            else:
                yield from commands(value)
    elif isinstance(node, list):
        for item in node:
            yield from commands(item)

for path in sys.argv[1:]:
    try:
        doc = yaml.safe_load(open(path))
    except yaml.YAMLError as e:
        print(f"FAIL {path}: does not parse: {e}")
        bad += 1
        continue
    before = bad
    for cmd in commands(doc):
        for word in re.findall(r"(?:^|&& |; )(ci/[\w.-]+|make [\w-]+)", cmd):
            if word.startswith("ci/") and not os.access(word, os.X_OK):
                print(f"FAIL {path}: '{word}' is not an executable script")
                bad += 1
            elif word.startswith("make ") and word[5:] not in targets:
                print(f"FAIL {path}: no make target '{word[5:]}'")
                bad += 1
    for fan in fan_outs(doc):
        if fan != known:
            print(f"FAIL {path}: fans out over {fan}, not the driver's targets {known}")
            bad += 1
    if bad == before:
        print(f"ok   {path}: parses, its commands exist, every target has a job")
sys.exit(1 if bad else 0)
PY
