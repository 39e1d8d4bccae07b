#!/usr/bin/env python3
"""The include graph of src/ and include/: prints it by stage folder, and fails when it has a cycle, when a core file
(anything outside src/cuda/ but the backend registry src/backend/backends.cxx) includes a CUDA backend file or tests
HJACOBI_WITH_CUDA, or when an include names a file that is not there.
Also the call graph of the core's sources (src/**/*.c, *.cxx outside src/cuda/): file A -> file B when A calls a
function that B defines with external linkage (not static); fails on a cycle between two or more files (layers call
down only). Calls through function pointers (the backend table) are not calls here.
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
registry = "src/backend/backends.cxx"
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

# call cycles between core sources
def strip_code(text):
    """comments, string and character literals removed (the calls and definitions that remain are code)"""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"'(?:\\.|[^'\\\n])'", "''", text)

def_re = re.compile(r"^(?!static\b)(?:[A-Za-z_][\w:<>]*[\s*&]+)+([A-Za-z_]\w*)\s*\([^;{}]*\)\s*(?:const\s*)?\{", re.M)
call_re = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
core_src = [f for f in files if f.startswith("src/") and not f.startswith("src/cuda/") and f.endswith((".c", ".cxx"))]
code = {f: strip_code(open(os.path.join(root, f)).read()) for f in core_src}
definer = {}
for f in core_src:
    for m in def_re.finditer(code[f]):
        definer.setdefault(m.group(1), f)
calls = {f: {} for f in core_src}
for f in core_src:
    for m in call_re.finditer(code[f]):
        g = definer.get(m.group(1))
        if g and g != f:
            calls[f].setdefault(g, set()).add(m.group(1))
# strongly connected components (Tarjan) of a graph given as node -> successors; any of two or more nodes is a cycle
def sccs(nodes, succ):
    index, low, onstack, st, comps, counter = {}, {}, set(), [], [], [0]
    def strong(v):
        index[v] = low[v] = counter[0]; counter[0] += 1
        st.append(v); onstack.add(v)
        for w in succ.get(v, {}):
            if w not in index:
                strong(w); low[v] = min(low[v], low[w])
            elif w in onstack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = st.pop(); onstack.discard(w); comp.append(w)
                if w == v:
                    break
            comps.append(sorted(comp))
    for v in nodes:
        if v not in index:
            strong(v)
    return comps
comps = sccs(core_src, calls)
for comp in comps:
    if len(comp) > 1:
        inside = [f"{a} -> {b} ({', '.join(sorted(calls[a][b]))})" for a in comp for b in comp if b in calls[a]]
        problems.append("call cycle between " + ", ".join(comp) + ": " + "; ".join(inside))
ncalls = sum(len(v) for v in calls.values())

# folder cycles: folder A -> folder B when a file of A calls a function a file of B defines, or includes a file of B
# (headers of include/ are the interface, not a floor); any cycle of two or more folders is a call going back up
def folder(f):
    return os.path.dirname(f)
fedges = {}
for f in core_src:
    for g, names in calls[f].items():
        if folder(f) != folder(g):
            fedges.setdefault(folder(f), {}).setdefault(folder(g), set()).update(f"{os.path.basename(f)} calls {n}" for n in names)
for f in files:
    for t in edges[f]:
        if folder(f) != folder(t) and f.startswith("src/") and t.startswith("src/") and not (f.startswith("src/cuda") and t.startswith("src/cuda")):
            fedges.setdefault(folder(f), {}).setdefault(folder(t), set()).add(f"{os.path.basename(f)} includes {os.path.basename(t)}")
fnodes = sorted(set(fedges) | {b for a in fedges.values() for b in a})
fcomps = sccs(fnodes, fedges)
for comp in fcomps:
    if len(comp) > 1:
        inside = [f"{a} -> {b} ({'; '.join(sorted(fedges[a][b])[:4])})" for a in comp for b in comp if b in fedges.get(a, {})]
        problems.append("folder cycle (a call or include going back up) between " + ", ".join(comp) + ": " + " | ".join(inside))

def group(f):
    parts = f.split("/")
    return "/".join(parts[:-1])
groups = {}
for f in files:
    for t in edges[f]:
        if group(f) != group(t):
            groups.setdefault((group(f), group(t)), 0)
            groups[(group(f), group(t))] += 1
print(f"check-includes: {len(files)} files, {sum(len(v) for v in edges.values())} project includes, {ncalls} file -> file calls between {len(core_src)} core sources; folder -> folder:")
for (a, b), n in sorted(groups.items()):
    print(f"  {a} -> {b} ({n})")
if "-v" in sys.argv:
    for f in files:
        for t in edges[f]:
            print(f"  {f} -> {t}")
    for f in core_src:
        for g in sorted(calls[f]):
            print(f"  {f} calls {g}: {', '.join(sorted(calls[f][g]))}")
for p in problems:
    print("check-includes: " + p)
print("check-includes: " + ("FAILED" if problems else "no include, call or folder cycle; no core file includes the CUDA backend or tests HJACOBI_WITH_CUDA"))
sys.exit(1 if problems else 0)
