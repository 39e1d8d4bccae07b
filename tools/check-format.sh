#!/usr/bin/env bash
# tools/check-format.sh [-i]: every C/C++/CUDA source of the tree against .clang-format (PETSc's style); -i rewrites
# them in place. CI runs it without -i: a file that clang-format would change fails it, with the diff.
set -uo pipefail
cd "$(dirname "$0")/.."
cf=${CLANG_FORMAT:-clang-format}
command -v "$cf" >/dev/null || { echo "tools/check-format.sh: $cf not found (Debian: apt-get install clang-format)" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.c' '*.cxx' '*.cpp' '*.h' '*.hpp' '*.cu' '*.cuh' | grep -v '^bench/results/')
if [ "${1:-}" = -i ]; then "$cf" -i "${files[@]}"; exit; fi
bad=0
for f in "${files[@]}"; do
  if ! diff -u "$f" <("$cf" "$f") >/tmp/check-format.$$ 2>&1; then
    echo "tools/check-format.sh: $f is not formatted (tools/check-format.sh -i):"
    head -20 /tmp/check-format.$$
    bad=$((bad + 1))
  fi
done
rm -f /tmp/check-format.$$
echo "tools/check-format.sh: ${#files[@]} files, $bad not formatted ($("$cf" --version | head -1))"
[ "$bad" -eq 0 ]
