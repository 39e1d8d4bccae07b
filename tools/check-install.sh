#!/usr/bin/env bash
# Install check: installs a built tree into a temporary prefix and builds test/consumer/consumer.c as an outside
# project would, once through pkg-config and once through the CMake package (find_package(petsc-hjacobi)), runs
# both on 1 and 2 ranks, then moves the prefix elsewhere and does it all again (the install must be relocatable).
#   tools/check-install.sh [BUILD_DIR]     (default build; ctest runs it as install_consumer, label install)
# Also checks that no installed text file or run path names the install prefix, and that pkg-config's prefix is it.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-build}" && pwd)
mpiexec=${MPIEXEC:-mpiexec}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hjacobi-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check-install FAIL: $*"; exit 1; }

# pkg-config: the prefix it reports must be the install prefix; build, run.
consume_pkgconfig() { # prefix label
  local p=$1 pcdir got cc
  pcdir=$(dirname "$(find "$p" -name petsc-hjacobi.pc -print -quit)")
  [ -f "$pcdir/petsc-hjacobi.pc" ] || fail "no petsc-hjacobi.pc under $p"
  got=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=prefix petsc-hjacobi)
  [ "$(cd "$got" && pwd -P)" = "$(cd "$p" && pwd -P)" ] || fail "pkg-config prefix $got is not $p"
  # pkgconf's --define-prefix: the prefix itself, no ../.. (it assumes <prefix>/lib/pkgconfig, so not for lib/<arch>)
  if [ "$pcdir" = "$p/lib/pkgconfig" ] && grep -q -- --define-prefix <<<"$(pkg-config --help 2>&1)"; then
    got=$(PKG_CONFIG_PATH=$pcdir pkg-config --define-prefix --variable=prefix petsc-hjacobi)
    [ "$got" = "$p" ] || fail "pkg-config --define-prefix gives $got, not $p"
  fi
  cc=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=petsc_ccompiler petsc-hjacobi)
  # shellcheck disable=SC2046 # the flags are words
  "$cc" -o "$tmp/consumer-pc" "$src/test/consumer/consumer.c" $(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs petsc-hjacobi)
  run "$tmp/consumer-pc" "pkg-config, $2" "$p"
}

# CMake package: a fresh project finds it with CMAKE_PREFIX_PATH alone.
consume_cmake() { # prefix label
  local p=$1 b=$tmp/consumer-cmake cc
  rm -rf "$b"
  cc=$(PKG_CONFIG_PATH=$(dirname "$(find "$p" -name petsc-hjacobi.pc -print -quit)") pkg-config --variable=petsc_ccompiler petsc-hjacobi)
  cmake -S "$src/test/consumer" -B "$b" -DCMAKE_PREFIX_PATH="$p" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Release >"$tmp/cmake.log" 2>&1 ||
    { cat "$tmp/cmake.log"; fail "find_package(petsc-hjacobi) in $p"; }
  cmake --build "$b" >"$tmp/cmake-build.log" 2>&1 || { cat "$tmp/cmake-build.log"; fail "building the CMake consumer"; }
  run "$b/consumer" "CMake package, $2" "$p"
}

run() { # exe label prefix: the library it loads must be the one in prefix
  local out np
  out=$(ldd "$1") # not piped into grep -q: with pipefail, ldd killed by SIGPIPE would fail the match
  grep -q -- "libpetsc-hjacobi.so.* => $3/" <<<"$out" || { echo "$out"; fail "$1 does not load libpetsc-hjacobi from $3"; }
  for np in 1 2; do
    out=$("$mpiexec" -n $np "$1" 2>&1) || { echo "$out"; fail "$2, $np rank(s)"; }
    grep -q "consumer PASS" <<<"$out" || { echo "$out"; fail "$2, $np rank(s): no PASS line"; }
    echo "check-install: $2, $np rank(s): ${out#consumer PASS: }"
  done
}

p0=$tmp/prefix
p1=$tmp/moved/elsewhere
cmake --install "$build" --prefix "$p0" >/dev/null
# relocatable: nothing installed names the prefix (the CMake package and the .pc find themselves)
if grep -rIl -- "$p0" "$p0"; then fail "the installed files above name the install prefix $p0"; fi
so=$(find "$p0" -name 'libpetsc-hjacobi.so.*' -type f -print -quit)
[ -n "$so" ] || fail "no libpetsc-hjacobi.so.* under $p0"
if readelf -d "$so" | grep -E 'R(UN)?PATH' | grep -- "$p0"; then fail "$so has a run path into the prefix"; fi
consume_pkgconfig "$p0" "installed"
consume_cmake "$p0" "installed"
mkdir -p "$(dirname "$p1")"
mv "$p0" "$p1"
consume_pkgconfig "$p1" "after moving the prefix"
consume_cmake "$p1" "after moving the prefix"
echo "check-install PASS: pkg-config and CMake consumers, installed and moved ($build)"
