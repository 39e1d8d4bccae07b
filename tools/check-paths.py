#!/usr/bin/env python3
"""The files that docs and comments name exist: every path-like word (a name with a known extension, or with a folder
part such as src/mg/) in the README, doc/, bench/ and test/ pages, and in the comments of src/, include/, test/, bench/,
examples/ and tools/, is looked up relative to the repository root, to the naming file's folder, to src/ and to src/cuda/
(comments name files by their path under src/). Markdown links are checked the same way, anchors aside. Prints each
missing name with where it appears; exit status 1 if any.
Usage: tools/check-paths.py [ROOT]"""
import os
import re
import subprocess
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
EXT = r"(?:c|h|cu|cxx|cpp|hpp|cmake|md|py|sh|txt|csv|png|gz|log|env|pc|in)"
# a path: optional folders, then a file name with a known extension; or a known top folder followed by more
PATH = re.compile(r"(?<![\w./$<{-])((?:\.\./|\./)?(?:[A-Za-z0-9_.+-]+/)*[A-Za-z0-9_+-][A-Za-z0-9_.+-]*\." + EXT + r")(?![\w/(-])")
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
# names that are not files of this repository: PETSc's and the system's, generated files, patterns
EXTERNAL = re.compile(
    r"^(petsc|mpi|cuda|cub|nvml|thrust|cusparse|cublas|cuda_runtime|std|pcimpl|dmdaimpl|vecimpl|matimpl|kspimpl|ex\d+|"
    r"jacobi|pbjacobi|mg|gamg|telescope|redundant|PETSc|petscconf|petscpkg_version|petscsys|petscmat|petscksp|petscdm|"
    r"petscdmda|petscsf|petscvec|petscpc|petscdevice_cuda|petscviewer|petsclog|petscoptions|petscdevice)\b|"
    r"(^|/)(summary|results|mg|b1|b1_2048|out|LastTest|CTestCostData|CMakeCache|setup|classic|paper|roofline|exchange)\.(txt|md|csv|log|tgz)$|"
    r"\*|%|\$|<|>|^/|^\.\./shared/|^shared/|^build[-\w]*/|^\.device/|^\.devbase/|^/tmp/|/opt/|^usr/|share/petsc/|"
    r"^lib[\w-]*\.so|\.so\.|^[A-Z_]+\.(md|txt)$|^(KINDS|METHOD|HOPPER|STYLE|ALGORITHM|BENCHMARKS)\.md$")
DOCS = ["README.md", "doc", "bench/README.md", "bench/TUNING.md", "bench/results/README.md"] # not the run pages of
# bench/results/*/: they describe past runs, with files that stayed on the GPU machine
CODE = ["src", "include", "test", "bench", "examples", "tools", "CMakeLists.txt", "cmake", ".ci"]


def tracked(paths):
    out = subprocess.run(["git", "-C", root, "ls-files", "--"] + paths, capture_output=True, text=True, check=True).stdout
    return [f for f in out.splitlines() if os.path.isfile(os.path.join(root, f))]


def comments(text, name):
    """The comment text of a source file (C/C++/CUDA: /* */ and //; CMake, shell, Python: #)"""
    if name.endswith((".c", ".h", ".cu", ".cxx", ".cpp", ".hpp")):
        return "\n".join(m.group(0) for m in re.finditer(r"/\*.*?\*/|//[^\n]*", text, re.S))
    return "\n".join(m.group(0) for m in re.finditer(r"#[^\n]*", text))


def exists(word, where):
    word = word.rstrip(".,;:")
    bases = [root, os.path.join(root, os.path.dirname(where)), os.path.join(root, "src"), os.path.join(root, "src/cuda"),
             os.path.join(root, "include"), os.path.join(root, "include/petschjacobi/private"), os.path.join(root, "test")]
    return any(os.path.exists(os.path.normpath(os.path.join(b, word))) for b in bases)


missing = []
for f in tracked(DOCS + CODE):
    text = open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
    is_doc = f.endswith(".md")
    if is_doc and not any(f == d or f.startswith(d + "/") for d in DOCS):
        continue
    if not is_doc and not f.endswith((".c", ".h", ".cu", ".cxx", ".cpp", ".hpp", ".cmake", ".sh", ".py", ".txt")) and "/" in f and not f.startswith(".ci/"):
        continue
    # markdown: not its code blocks (commands run from the folder they cd to)
    body = re.sub(r"```.*?```", "", text, flags=re.S) if is_doc else comments(text, f)
    words = set(PATH.findall(body))
    if is_doc:
        words |= {w for w in LINK.findall(body) if not re.match(r"^[a-z]+:", w)}
    lines = body.splitlines()
    for w in sorted(words):
        w = w.rstrip(".,;:")
        # a bare file name on a line that speaks of PETSc's or the shared folder's sources is theirs
        if "/" not in w and any(w in l and re.search(r"PETSc|petsc|shared/|\.\./shared", l) for l in lines):
            continue
        # placeholders (CSV_STEM.png, DATE-RUN-b1.png) and file:line references to PETSc's sources are not ours
        if EXTERNAL.search(w) or EXTERNAL.search(os.path.basename(w)) or re.search(r"[A-Z]{3,}[_-]", w):
            continue
        if "/" not in w and re.search(re.escape(w) + r":\d", body):
            continue
        # a file of an earlier commit, named with the commit
        if any(w in l and re.search(r"\b(at|in) commit [0-9a-f]{7}|commit [0-9a-f]{7} has", l) for l in lines):
            continue
        if not exists(w, f):
            missing.append((f, w))
for f, w in missing:
    print(f"check-paths: {f} names {w}, which does not exist")
print(f"check-paths: {'FAILED' if missing else 'passed'} ({len(missing)} missing names)")
sys.exit(1 if missing else 0)
