#!/bin/sh
# checkpatch.sh [VERSION [SERIES_DIR]]: run linux-source-VERSION's
# scripts/checkpatch.pl --strict on every patch of the series in
# SERIES_DIR (default: this folder), taking the refreshed ones from its
# VERSION/ folder where there are any; any error, warning or check fails.
# Uses the source tree that kwmatrix unpacked into the cache (make matrix
# does that).  VERSION defaults to 6.1.  The matrix's checkpatch cells
# run this script once per kernel version.  A clean result is kept in
# the cache under a digest of the patch, the Debian version of the tree
# and the ignored checks, and printed again for the same inputs.
cd "${2:-$(dirname "$0")}" || exit 2
release=${1:-6.1}
cache=${KWMATRIX_CACHE:-$HOME/.cache/kwmatrix}
version=$(dpkg-query -W -f='${Version}' "linux-source-$release" 2>/dev/null)
tree=$cache/src/$version/pristine
if [ -z "$version" ] || [ ! -x "$tree/scripts/checkpatch.pl" ]; then
	echo "checkpatch: error: no linux-source-$release tree in $cache (fix: run make matrix first)" >&2
	exit 2
fi
# KW_WORKER_INIT() and friends must name their object twice, as every
# DEFINE_ and _INIT initializer of the kernel does: MACRO_ARG_REUSE is the
# one check that cannot apply to them.
ignore=MACRO_ARG_REUSE
clean=$cache/checkpatch
bad=0 total=0
while read -r p; do
	p=$(printf '%s' "${p%%#*}" | tr -d ' \t')
	[ -n "$p" ] || continue
	[ -f "$release/$p" ] && p=$release/$p
	total=$((total + 1))
	key=$( (cat "$p"; echo "$version $ignore") | sha256sum | cut -c1-32)
	if [ -f "$clean/$key" ]; then
		echo "checkpatch: ok   $p (clean before: the same patch on the same tree)"
		continue
	fi
	out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --ignore "$ignore" "$OLDPWD/$p" 2>&1)
	summary=$(printf '%s\n' "$out" | grep '^total:')
	case "$summary" in
	"total: 0 errors, 0 warnings, 0 checks"*)
		echo "checkpatch: ok   $p"
		mkdir -p "$clean" && printf '%s\n' "$summary" >"$clean/$key.$$" &&
			mv "$clean/$key.$$" "$clean/$key"
		;;
	*) printf '%s\n' "$out"; echo "checkpatch: FAIL $p: $summary"; bad=$((bad + 1)) ;;
	esac
done < series
echo "checkpatch: $((total - bad)) of $total patches clean on linux-source-$release"
[ "$bad" -eq 0 ]
