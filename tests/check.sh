#!/bin/sh
# make check: every stage of the tests, each to the end, then one closing
# summary with each stage's own last line.  A stage that exits 77 was
# skipped (litmus without herd7): it is listed as SKIPPED with its count,
# never as passed, and so is every test a stage skipped (its "SKIP" lines).
# Exits 1 if any stage failed.
#
#   tests/check.sh DRIVER-WITH-SANITIZERS
#
# KWM_REQUIRE="herd7 root" turns those skips into failures, on a machine
# meant to check them: a stage's skip counts by what the stage needs, a
# test's by the "(needs <what>)" its SKIP line gives.
cd "$(dirname "$0")/.." || exit 1
KWM_SAN=$1
log=$(mktemp -d /tmp/kwm-check.XXXXXX)
trap 'rm -rf "$log"' EXIT
summary="" failed=0 n=0 skips=0

# required WHAT: whether KWM_REQUIRE asks that WHAT not be skipped.
required() {
	case " $(echo "${KWM_REQUIRE:-}" | tr ',' ' ') " in
	*" $1 "*) return 0 ;;
	*) return 1 ;;
	esac
}

# stage NAME NEEDS COMMAND...: run it, keep its output, note how it ended
# and what it skipped; NEEDS is what a whole-stage skip lacked ("-": none).
stage() {
	name=$1 needs=$2
	shift 2
	n=$((n + 1))
	echo "== $name: $*"
	"$@" 2>&1 | tee "$log/$n"
	status=$(cat "$log/status.$n" 2>/dev/null)
	last=$(grep -v '^\s*$' "$log/$n" | tail -n1)
	case $status in
	0) verdict="ok     " ;;
	77) verdict="SKIPPED"
	    skips=$((skips + 1))
	    if required "$needs"; then
		    verdict="FAILED "; failed=1
		    last="$last (KWM_REQUIRE has $needs)"
	    fi ;;
	*) verdict="FAILED "; failed=1 ;;
	esac
	summary="$summary
  $verdict $name: $last"
	# Each test it skipped, by name: never lost in a count.
	grep '^SKIP ' "$log/$n" >"$log/skips.$n"
	while IFS= read -r line; do
		skips=$((skips + 1))
		what=$(printf '%s\n' "$line" | sed -n 's/.*(needs \([^)]*\)).*/\1/p')
		if [ -n "$what" ] && required "$what"; then
			failed=1
			line="$line: FAILED, KWM_REQUIRE has $what"
		fi
		summary="$summary
            $line"
	done <"$log/skips.$n"
}

# The pipe hides a command's status: each stage writes its own.
run() {
	"$@"
	echo $? >"$log/status.$n"
}

stage "unit tests" - run make --no-print-directory unit-tests
stage "CI definitions" - run tests/check-ci.sh
stage "matrix tests" - run tests/run-matrix-tests.sh "$KWM_SAN"
stage "checkpatch" - run patch/checkpatch.sh
stage "litmus" herd7 run scripts/litmus.sh

echo
echo "make check: summary$summary"
echo "make check: $skips skipped"
exit $failed
