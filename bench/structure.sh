#!/bin/sh
# Print the driver's structure figures (issue 28's bars), from the tree as
# it is: functions in matrix/ over 80 and over 60 lines (from the line
# that opens a function at column 0 to its closing "}", a wrapped
# signature counted), include circles between matrix/'s modules of any
# length (x.c and x.h are module x), main.c's lines and the README's.
#   bench/structure.sh
cd "$(dirname "$0")/.." || exit 1
python3 - <<'PY'
import glob, os, re

lengths = []
for path in sorted(glob.glob("matrix/*.c")):
    lines = open(path).read().split("\n")
    start = None
    for i, line in enumerate(lines):
        # A definition starts at column 0 with a name and "(", and is not a prototype.
        if start is None and re.match(r"^[a-z_][\w \*]*\b(\w+)\(", line) and not line.rstrip().endswith(";"):
            start, name = i, re.match(r"^[a-z_][\w \*]*?\b(\w+)\(", line).group(1)
        elif start is not None and line == "}":
            lengths.append((i - start + 1, f"{path}:{name}"))
            start = None
lengths.sort(reverse=True)
over80 = [l for l in lengths if l[0] > 80]
over60 = [l for l in lengths if l[0] > 60]
print(f"functions over 80 lines: {len(over80)}; over 60: {len(over60)}")
for n, f in over60:
    print(f"  {n:4} {f}")

deps = {}
for path in glob.glob("matrix/*.[ch]"):
    mod = os.path.splitext(os.path.basename(path))[0]
    for inc in re.findall(r'^#include "(\w+)\.h"', open(path).read(), re.M):
        if inc != mod and os.path.exists(f"matrix/{inc}.h"):
            deps.setdefault(mod, set()).add(inc)
# A circle is any path of includes that comes back to its start.
circles, seen = [], set()
def walk(path):
    for nxt in sorted(deps.get(path[-1], ())):
        if nxt == path[0]:
            key = frozenset(path)
            if key not in seen:
                seen.add(key)
                circles.append(path + [nxt])
        elif nxt not in path and nxt > path[0]:
            walk(path + [nxt])
for mod in sorted(deps):
    walk([mod])
print(f"include circles (modules that include each other, directly or not): {len(circles)}")
for c in circles:
    print("  " + " -> ".join(c))
print(f"matrix/main.c: {sum(1 for _ in open('matrix/main.c'))} lines")
print(f"README.md: {sum(1 for _ in open('README.md'))} lines")
PY
