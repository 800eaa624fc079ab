#!/bin/sh
# Run the host unit tests (cmocka binaries) from the top of the checkout
# and print one closing line: "N passed, N failed, N skipped", each
# skipped case named above it (cmocka's "[  SKIPPED ]" lines).
cd "$(dirname "$0")/.." || exit 1
passed=0 failed=0 skipped=0
for t in "$@"; do
	out=$("$t" 2>&1)
	status=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p')
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p')
	s=$(printf '%s\n' "$out" | sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p')
	printf '%s\n' "$out" | sed -n "s|^\[  SKIPPED \] \([^0-9].*\)|SKIP $(basename "$t"): \1|p" | sort -u
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
	skipped=$((skipped + ${s:-0}))
	# A binary that died without a summary counts as one failure.
	if [ "$status" -ne 0 ] && [ -z "$f" ]; then
		failed=$((failed + 1))
	fi
done
echo "unit tests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
