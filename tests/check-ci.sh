#!/bin/sh
# The CI definitions, where their services look for them, parse, every
# command they run exists (scripts under ci/, executable, and make
# targets of the Makefile), and each fans out over exactly the targets
# the driver knows.  Then each service's own tool: GitHub's workflow
# schema (action-validator), and the GitLab pipeline run for real
# (gitlab-ci-local, shell executor) on arm64 with a short night; a
# broken copy of each must be refused.  scripts/deps.sh check installs
# both into $KWMATRIX_CACHE/tools.
cd "$(dirname "$0")/.." || exit 1
GITHUB=.github/workflows/nightly.yml
GITLAB=.gitlab-ci.yml
cache=${KWMATRIX_CACHE:-$HOME/.cache/kwmatrix}
bin=$cache/tools/node_modules/.bin
status=0
/usr/bin/python3 - "$GITHUB" "$GITLAB" <<'PY' || status=1
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

work=$(mktemp -d /tmp/kwm-check-ci.XXXXXX)
trap 'rm -rf "$work"' EXIT
for tool in action-validator gitlab-ci-local; do
	if [ ! -x "$bin/$tool" ]; then
		echo "FAIL $tool is not installed in $bin (fix: scripts/deps.sh check)"
		exit 1
	fi
done

# GitHub: the schema its runner checks; a workflow without runs-on is refused.
sed 's/runs-on:/runs-onn:/' "$GITHUB" >"$work/broken.yml"
if ! "$bin/action-validator" "$GITHUB" >"$work/github.out" 2>&1; then
	echo "FAIL $GITHUB: action-validator refuses it:"
	head -20 "$work/github.out"
	status=1
elif "$bin/action-validator" "$work/broken.yml" >/dev/null 2>&1; then
	echo "FAIL action-validator accepts a workflow without runs-on: it checks nothing"
	status=1
else
	echo "ok   github workflow: validated ($GITHUB; a copy without runs-on refused)"
fi

# GitLab: the pipeline in a copy of the checkout, as a schedule would run
# it, narrowed to arm64's plain kernel and kunit; then a copy whose
# nightly job fails must fail the pipeline.
mkdir "$work/repo"
git ls-files --cached --others --exclude-standard -z |
	rsync -a --from0 --files-from=- --ignore-missing-args ./ "$work/repo/"
(cd "$work/repo" && git init -q && git add -A && git -c user.name=kwmatrix -c user.email=kwmatrix@localhost commit -qm check)
pipeline() {
	(cd "$work/repo" && "$bin/gitlab-ci-local" --force-shell-executor --file "$1" \
		--variable CI_PIPELINE_SOURCE=schedule --variable "KWMATRIX_CACHE=$cache" \
		--variable "KWM_NIGHTLY_SCOPE=-k plain -s kunit" --variable KWM_NIGHTLY_DURATION=2 \
		--variable KWM_NIGHTLY_DEPS= "nightly: [arm64]" merge)
}
sed 's|ci/nightly.sh \$TARGET|ci/nightly.sh no-such-target|' "$GITLAB" >"$work/repo/broken-gitlab-ci.yml"
if pipeline "$GITLAB" >"$work/gitlab.out" 2>&1; then
	jobs=$(grep -c '^ PASS ' "$work/gitlab.out")
	merged=$work/repo/.gitlab-ci-local/artifacts/merge/merged/matrix.json
	if [ "$jobs" -ge 2 ] && [ -s "$merged" ] &&
	   python3 -c 'import json,sys; sys.exit(0 if [t["column"] for t in json.load(open(sys.argv[1]))["targets"]] == ["arm64"] else 1)' "$merged"; then
		if pipeline broken-gitlab-ci.yml >"$work/broken.out" 2>&1; then
			echo "FAIL gitlab-ci-local passed a pipeline whose nightly job fails"
			status=1
		else
			echo "ok   gitlab pipeline: $jobs jobs ran ($GITLAB, arm64: the nightly and the merge; merged/ where the pipeline says; a copy with a failing job refused)"
			gitlab_jobs=$jobs
		fi
	else
		echo "FAIL $GITLAB: $jobs jobs passed, merged matrix: $(ls "$merged" 2>&1)"
		status=1
	fi
else
	echo "FAIL $GITLAB: the pipeline failed under gitlab-ci-local:"
	tail -20 "$work/gitlab.out"
	status=1
fi
# The line make check's summary shows.
[ $status -eq 0 ] && echo "CI definitions: github workflow: validated; gitlab pipeline: $gitlab_jobs jobs ran"
exit $status
