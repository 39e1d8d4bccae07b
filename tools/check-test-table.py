#!/usr/bin/env python3
"""Compare the tests two ctest configurations register.

Usage: ctest --test-dir <build> --show-only=json-v1 > before.json   (then again after a change, > after.json)
       tools/check-test-table.py before.json after.json
Prints each test added, removed or changed (command argument for argument, properties) and a note when the order
differs; exits 1 on any difference, 0 when the "tests" arrays are identical. Compared: each test's name, command and
properties (not its backtrace, which points at the lines of the CMakeLists that declare it).
"""
import json
import sys


def load(path):
    with open(path) as f:
        return [{k: t.get(k) for k in ("name", "command", "properties")} for t in json.load(f)["tests"]]


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    a, b = load(argv[1]), load(argv[2])
    da, db = {t["name"]: t for t in a}, {t["name"]: t for t in b}
    bad = 0
    for n in sorted(da.keys() - db.keys()):
        print(f"removed: {n}")
        bad += 1
    for n in sorted(db.keys() - da.keys()):
        print(f"added: {n}")
        bad += 1
    for n in [t["name"] for t in a if t["name"] in db]:
        x, y = da[n], db[n]
        if x == y:
            continue
        bad += 1
        print(f"changed: {n}")
        for k in sorted(x.keys() | y.keys()):
            if x.get(k) != y.get(k):
                print(f"  {k}:\n    - {json.dumps(x.get(k))}\n    + {json.dumps(y.get(k))}")
    if len(a) != len(da) or len(b) != len(db):
        print("duplicate test names")
        bad += 1
    if not bad and [t["name"] for t in a] != [t["name"] for t in b]:
        print("same tests, different order")
        bad += 1
    print(f"{len(a)} tests before, {len(b)} after: {'identical' if not bad else f'{bad} difference(s)'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
