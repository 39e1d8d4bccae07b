#!/usr/bin/env bash
# Installs what petsc-hjacobi needs on a fresh Debian 12 machine (only what is missing):
# Debian's PETSc (3.18, CPU) with its tutorial sources, OpenMPI, CMake, pkg-config.
# With PETSC_DIR=/usr/lib/petscdir/petsc64-3.18/x86_64-linux-gnu-real: Debian's PETSc with 64-bit indices (PetscInt
# is int64_t) and the same tutorial sources. With PETSC_DIR pointing at another PETSc (e.g. /opt/petsc-cuda) only the
# build tools are installed; the PETScs of ../shared (/opt/petsc-3.25, /opt/petsc-cuda, /opt/petsc-cuda-complex) are
# unpacked from their tarballs when missing. PETSC_DIR=/usr/lib/petscdir/petsc3.18/x86_64-linux-gnu-complex: Debian's
# PETSc with complex scalars.
set -euo pipefail
need=()
command -v cmake >/dev/null || need+=(cmake)
command -v pkg-config >/dev/null || need+=(pkg-config)
command -v make >/dev/null || need+=(make)
command -v mpiexec >/dev/null || need+=(openmpi-bin libopenmpi-dev)
if [ -z "${PETSC_DIR:-}" ] || [ "${PETSC_DIR}" = /usr/lib/petscdir/petsc3.18/x86_64-linux-gnu-real ]; then
  [ -f /usr/lib/petscdir/petsc3.18/x86_64-linux-gnu-real/lib/pkgconfig/PETSc.pc ] || need+=(petsc-dev)
  [ -f /usr/share/petsc/3.18/share/petsc/examples/src/ksp/ksp/tutorials/ex45.c ] || need+=(libpetsc3.18-dev-examples)
elif [ "${PETSC_DIR}" = /usr/lib/petscdir/petsc64-3.18/x86_64-linux-gnu-real ]; then
  [ -f /usr/lib/petscdir/petsc64-3.18/x86_64-linux-gnu-real/lib/pkgconfig/PETSc.pc ] || need+=(libpetsc64-real3.18-dev)
  [ -f /usr/share/petsc/3.18/share/petsc/examples/src/ksp/ksp/tutorials/ex45.c ] || need+=(libpetsc3.18-dev-examples)
elif [ "${PETSC_DIR}" = /usr/lib/petscdir/petsc3.18/x86_64-linux-gnu-complex ]; then
  [ -f /usr/lib/petscdir/petsc3.18/x86_64-linux-gnu-complex/lib/pkgconfig/PETSc.pc ] || need+=(libpetsc-complex3.18-dev)
  [ -f /usr/share/petsc/3.18/share/petsc/examples/src/ksp/ksp/tutorials/ex45.c ] || need+=(libpetsc3.18-dev-examples)
else # this project's prebuilt PETScs (../shared): unpacked to /opt when missing and their tarball is at hand
  shared=${SHARED:-$(dirname "$0")/../../shared}
  case "${PETSC_DIR%/}" in
    /opt/petsc-3.25) tarball=$shared/petsc-3.25/petsc-3.25-opt.tar.xz ;;
    /opt/petsc-cuda) tarball=$shared/petsc-cuda/petsc-cuda-opt.tar.xz ;;
    /opt/petsc-cuda-complex) tarball=$shared/petsc-cuda/petsc-cuda-complex-opt.tar.xz ;;
    *) tarball= ;;
  esac
  if [ -n "$tarball" ] && [ ! -f "${PETSC_DIR%/}/lib/pkgconfig/PETSc.pc" ] && [ -f "$tarball" ]; then
    echo "tools/deps.sh: unpacking $tarball to ${PETSC_DIR%/}"
    tar -C / -xJf "$tarball"
  fi
  command -v mpicc >/dev/null || need+=(libopenmpi-dev)
  [ -f /usr/lib/x86_64-linux-gnu/liblapack.so.3 ] || need+=(liblapack3 libblas3)
fi
[ ${#need[@]} -eq 0 ] && exit 0
echo "tools/deps.sh: installing ${need[*]}"
SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
