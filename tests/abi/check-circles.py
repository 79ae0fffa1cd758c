#!/usr/bin/env python3
"""check-circles.py: no circle of modules anywhere in src/.

A module is a .c file and the .h of the same name in the same folder
(sim/sim.c with sim/sim.h), or a file that has no such partner: a reader
takes the two together, so a module depends on what either half includes
or calls.  A module depends on another when it includes one of its files,
or calls a function the other's .c defines (found by name at a call site;
comments and strings left out).  A header without a .c of its name
depends only on the headers it includes: it declares, so a file that
includes it needs its declarations, not every file that defines them.
A circle is two or more modules that reach each other by such
dependencies: then neither can be read, tested or changed without the
other (issue 21: cmd_probe.c and probe_all.c, abi.c and device.c were;
issue 31: sim.c called the handlers that took their types from sim.h).
Prints each circle and exits 1 if any, else one summary line.  An
argument names another tree to check in place of src/ (the checker's own
test, test-check-circles.sh, gives it small trees).
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SRC = os.path.normpath(sys.argv[1] if len(sys.argv) > 1
                       else os.path.join(ROOT, "src"))
INC_DIRS = [os.path.join(SRC, "lib"), SRC]

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# a definition: a line at column 0 that is not static, ends in a call's
# parenthesis list, and whose body opens on a later line at column 0
DEFN = re.compile(r'^(?!static\b)[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\([^;{]*?\)\s*\n\{',
                  re.M)
CALL = re.compile(r'\b([A-Za-z_]\w*)\s*\(')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')


def unit(path):
    """The module of a file: its path without .c or .h when both halves
    exist, else the file's own path."""
    rel = os.path.relpath(path, SRC)
    stem, ext = os.path.splitext(path)
    other = stem + (".h" if ext == ".c" else ".c")
    if os.path.isfile(other):
        return os.path.relpath(stem, SRC) + ".[ch]"
    return rel


def sources():
    for d, _, names in os.walk(SRC):
        for n in sorted(names):
            if n.endswith((".c", ".h")):
                yield os.path.join(d, n)


def resolve(inc, here):
    for base in [os.path.dirname(here)] + INC_DIRS:
        p = os.path.normpath(os.path.join(base, inc))
        if os.path.isfile(p) and p.startswith(SRC + os.sep):
            return p
    return None


def main():
    text = {}
    for p in sources():
        with open(p, encoding="utf-8", errors="replace") as f:
            text[p] = f.read()
    defined = {}
    for p, t in text.items():
        if p.endswith(".c"):
            for name in DEFN.findall(COMMENT.sub(" ", t)):
                defined.setdefault(name, set()).add(unit(p))
    edges = {}
    n_inc = n_call = 0
    for p, t in text.items():
        u = unit(p)
        out = edges.setdefault(u, {})
        for inc in INCLUDE.findall(t):
            q = resolve(inc, p)
            if q and unit(q) != u:
                out.setdefault(unit(q), "includes %s" % os.path.relpath(q, SRC))
                n_inc += 1
        if not p.endswith(".c"):
            continue
        code = STRING.sub('""', COMMENT.sub(" ", t))
        for name in set(CALL.findall(code)):
            for v in defined.get(name, ()):
                if v != u:
                    out.setdefault(v, "calls %s()" % name)
                    n_call += 1
    circles = scc(edges)
    for c in circles:
        print("not ok - circle: " + " <-> ".join(sorted(c)))
        for a in sorted(c):
            for b in sorted(c):
                if b in edges.get(a, {}):
                    print("  %s -> %s: %s" % (a, b, edges[a][b]))
    print("circles: %d modules, %d includes and %d calls across modules, %d circles"
          % (len(edges), n_inc, n_call, len(circles)))
    return 1 if circles or not n_inc or not n_call else 0


def scc(edges):
    """Tarjan's strongly connected components with more than one unit."""
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


if __name__ == "__main__":
    sys.exit(main())
