#!/bin/sh
# Run the tree's scripts/checkpatch.pl --strict on every patch of the
# series; any error, warning or check fails.  Uses the source tree that
# kwmatrix unpacked into the cache (make matrix does that).
cd "$(dirname "$0")" || exit 1
cache=${KWMATRIX_CACHE:-$HOME/.cache/kwmatrix}
version=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null)
tree=$cache/src/$version/pristine
if [ ! -x "$tree/scripts/checkpatch.pl" ]; then
	echo "checkpatch: error: no source tree in $cache (fix: run make matrix first)" >&2
	exit 1
fi
# KW_WORKER_INIT() and friends must name their object twice, as every
# DEFINE_ and _INIT initializer of the kernel does: MACRO_ARG_REUSE is the
# one check that cannot apply to them.
ignore=MACRO_ARG_REUSE
bad=0
while read -r p; do
	p=$(printf '%s' "${p%%#*}" | tr -d ' \t')
	[ -n "$p" ] || continue
	out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --ignore "$ignore" "$OLDPWD/$p" 2>&1)
	summary=$(printf '%s\n' "$out" | grep '^total:')
	case "$summary" in
	"total: 0 errors, 0 warnings, 0 checks"*) echo "checkpatch: ok   $p" ;;
	*) printf '%s\n' "$out"; echo "checkpatch: FAIL $p: $summary"; bad=$((bad + 1)) ;;
	esac
done < series
[ "$bad" -eq 0 ]
