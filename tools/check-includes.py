#!/usr/bin/env python3
"""The include graph of src/ and include/: prints it by stage folder, and fails when it has a cycle, when a core file
(anything outside src/cuda/ but the backend registry src/pc/hjbackends.cxx) includes a CUDA backend file or tests
HJACOBI_WITH_CUDA, or when an include names a file that is not there.
Usage: tools/check-includes.py [-v]   (-v: every edge)"""
import os, re, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
inc_re = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
files = []
for top in ("src", "include"):
    for d, _, fs in os.walk(os.path.join(root, top)):
        files += [os.path.relpath(os.path.join(d, f), root) for f in fs if f.endswith((".c", ".cxx", ".cu", ".h", ".hpp", ".cuh"))]
files.sort()

def resolve(src, kind, name):
    cands = [os.path.join(os.path.dirname(src), name)] if kind == '"' else []
    cands += [os.path.join("src", name), os.path.join("include", name)]
    for c in cands:
        c = os.path.normpath(c)
        if c in fset:
            return c
    return None

fset = set(files)
edges, problems = {f: [] for f in files}, []
registry = "src/pc/hjbackends.cxx"
for f in files:
    text = open(os.path.join(root, f)).read()
    for line in text.splitlines():
        m = inc_re.match(line)
        if not m:
            continue
        kind, name = m.groups()
        t = resolve(f, kind, name)
        if t is None:
            if kind == '"' or name.startswith("petschjacobi"):
                problems.append(f"{f}: #include {kind}{name} names no file of the project")
            continue
        edges[f].append(t)
    core = not f.startswith("src/cuda/") and f != registry
    if core and "HJACOBI_WITH_CUDA" in text:
        problems.append(f"{f}: a core file tests HJACOBI_WITH_CUDA")
for f in files:
    if not f.startswith("src/cuda/") and f != registry:
        for t in edges[f]:
            if t.startswith("src/cuda/"):
                problems.append(f"{f}: a core file includes the CUDA backend's {t}")

# cycles: depth-first search with colours
colour, stack = {f: 0 for f in files}, []
def visit(f):
    colour[f] = 1
    stack.append(f)
    for t in edges[f]:
        if colour[t] == 1:
            problems.append("include cycle: " + " -> ".join(stack[stack.index(t):] + [t]))
        elif colour[t] == 0:
            visit(t)
    stack.pop()
    colour[f] = 2
for f in files:
    if colour[f] == 0:
        visit(f)

def group(f):
    parts = f.split("/")
    return "/".join(parts[:-1])
groups = {}
for f in files:
    for t in edges[f]:
        if group(f) != group(t):
            groups.setdefault((group(f), group(t)), 0)
            groups[(group(f), group(t))] += 1
print(f"check-includes: {len(files)} files, {sum(len(v) for v in edges.values())} project includes; folder -> folder:")
for (a, b), n in sorted(groups.items()):
    print(f"  {a} -> {b} ({n})")
if "-v" in sys.argv:
    for f in files:
        for t in edges[f]:
            print(f"  {f} -> {t}")
for p in problems:
    print("check-includes: " + p)
print("check-includes: " + ("FAILED" if problems else "no cycle; no core file includes the CUDA backend or tests HJACOBI_WITH_CUDA"))
sys.exit(1 if problems else 0)
