#!/bin/sh
# make check: every stage of the tests, each to the end, then one closing
# summary with each stage's own last line.  A stage that exits 77 was
# skipped (litmus without herd7): it is listed as SKIPPED with its count,
# never as passed.  Exits 1 if any stage failed.
#
#   tests/check.sh DRIVER-WITH-SANITIZERS
cd "$(dirname "$0")/.." || exit 1
KWM_SAN=$1
log=$(mktemp -d /tmp/kwm-check.XXXXXX)
trap 'rm -rf "$log"' EXIT
summary="" failed=0 n=0

# stage NAME COMMAND...: run it, keep its output, note how it ended.
stage() {
	name=$1
	shift
	n=$((n + 1))
	echo "== $name: $*"
	"$@" 2>&1 | tee "$log/$n"
	status=$(cat "$log/status.$n" 2>/dev/null)
	last=$(grep -v '^\s*$' "$log/$n" | tail -n1)
	case $status in
	0) verdict="ok     " ;;
	77) verdict="SKIPPED" ;;
	*) verdict="FAILED "; failed=1 ;;
	esac
	summary="$summary
  $verdict $name: $last"
}

# The pipe hides a command's status: each stage writes its own.
run() {
	"$@"
	echo $? >"$log/status.$n"
}

stage "unit tests" run make --no-print-directory unit-tests
stage "CI definitions" run tests/check-ci.sh
stage "matrix tests" run tests/run-matrix-tests.sh "$KWM_SAN"
stage "checkpatch" run patch/checkpatch.sh
stage "litmus" run scripts/litmus.sh

echo
echo "make check: summary$summary"
exit $failed
