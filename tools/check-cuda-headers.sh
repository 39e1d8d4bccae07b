#!/usr/bin/env bash
# Compiles the CUDA backend (nvcc -c, every .cu under src/cuda) against a PETSc's headers configured as they would be with
# CUDA, in several index and scalar configurations, without building that PETSc: a CPU-only PETSc's include folder is
# copied and its petscconf.h given PETSC_HAVE_CUDA (and the configuration's other defines). "next" also declares
# MatSeqAIJCUSPARSEGetIJ() with PetscInt indices, as PETSc's main branch (the next release) does.
# Usage: tools/check-cuda-headers.sh PETSC_DIR [CONFIG...]   CONFIG: int32 int64 int64-next complex (default: all)
# Needs nvcc (PATH or /usr/local/cuda/bin) and an MPI C++ compiler (mpicxx) for MPI's include path.
set -euo pipefail
petsc=${1:?usage: $0 PETSC_DIR [int32|int64|int64-next|complex ...]}
shift
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(int32 int64 int64-next complex)
root=$(cd "$(dirname "$0")/.." && pwd)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
mpiinc=$(mpicxx --showme:incdirs 2>/dev/null | sed 's/\([^ ]*\)/-I\1/g')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# PETSc 3.25's petscdevice_cuda.h includes nvml.h (from the GPU driver, absent on a machine without one) and uses
# nothing of it in the header: an empty stand-in, searched last, where nvcc finds none
stub=()
if ! echo '#include <nvml.h>' | "$nvcc" -x cu -E - -o /dev/null > /dev/null 2>&1; then
  mkdir -p "$work/stub" && echo '/* check-cuda-headers.sh: empty stand-in for the driver'"'"'s nvml.h */' > "$work/stub/nvml.h"
  stub=(-I"$work/stub")
  echo "check-cuda-headers: no nvml.h here (it comes with the GPU driver): an empty stand-in is used"
fi
fail=0
for cfg in "${configs[@]}"; do
  inc=$work/$cfg
  cp -r "$petsc/include" "$inc"
  conf=$inc/petscconf.h
  sed -i '/PETSC_USE_64BIT_INDICES\|PETSC_HAVE_CUDA\b/d' "$conf"
  cudaver=$("$nvcc" --version | sed -n 's/.*release \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
  { # what PETSc's configure writes for CUDA: the package's version and its comparisons
    set -- $cudaver
    echo "#define PETSC_PKG_CUDA_VERSION_MAJOR $1"
    echo "#define PETSC_PKG_CUDA_VERSION_MINOR $2"
    echo "#define PETSC_PKG_CUDA_VERSION_SUBMINOR 0"
    v=PETSC_PKG_CUDA_VERSION
    echo "#define ${v}_EQ(M, m, s) (${v}_MAJOR == (M) && ${v}_MINOR == (m) && ${v}_SUBMINOR == (s))"
    echo "#define ${v}_LT(M, m, s) (${v}_MAJOR < (M) || (${v}_MAJOR == (M) && (${v}_MINOR < (m) || (${v}_MINOR == (m) && ${v}_SUBMINOR < (s)))))"
    echo "#define ${v}_LE(M, m, s) (${v}_LT(M, m, s) || ${v}_EQ(M, m, s))"
    echo "#define ${v}_GT(M, m, s) (0 == ${v}_LE(M, m, s))"
    echo "#define ${v}_GE(M, m, s) (0 == ${v}_LT(M, m, s))"
  } >> "$inc/petscpkg_version.h"
  {
    echo '#define PETSC_HAVE_CUDA 1'
    echo '#define PETSC_HAVE_CUPM 1'
    case $cfg in
      int64*) echo '#define PETSC_USE_64BIT_INDICES 1' ;;
      complex) echo '#define PETSC_USE_COMPLEX 1' ;;
      int32) ;;
      *) echo "check-cuda-headers: unknown configuration $cfg" >&2; exit 2 ;;
    esac
  } >> "$conf"
  if [ "$cfg" = int64-next ]; then # PETSc main: the device CSR indices are PetscInt
    sed -i 's/MatSeqAIJCUSPARSE\(Get\|Restore\)IJ(Mat, PetscBool, const int \*\*, const int \*\*)/MatSeqAIJCUSPARSE\1IJ(Mat, PetscBool, const PetscInt **, const PetscInt **)/' "$inc/petscmat.h"
    grep -q 'MatSeqAIJCUSPARSEGetIJ(Mat, PetscBool, const PetscInt \*\*' "$inc/petscmat.h" || { echo "check-cuda-headers: could not rewrite MatSeqAIJCUSPARSEGetIJ in petscmat.h" >&2; exit 2; }
  fi
  n=0 bad=0
  for cu in $(find "$root/src/cuda" -name '*.cu' | sort); do
    n=$((n + 1))
    if ! "$nvcc" -c -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -DHJACOBI_WITH_CUDA=1 -Xcompiler -fPIC \
        -I"$root/include" -I"$root/src" -I"$inc" $mpiinc "${stub[@]}" "$cu" -o "$work/$(basename "$cu").o" > "$work/log" 2>&1; then
      echo "check-cuda-headers: $cfg: $(basename "$cu") FAILED"; head -20 "$work/log"; bad=$((bad + 1))
    fi
  done
  echo "check-cuda-headers: $cfg ($(sed -n 's/^#define PETSC_VERSION_\(MAJOR\|MINOR\|SUBMINOR\) *\([0-9]*\)/\2/p' "$inc/petscversion.h" | paste -sd.)): $((n - bad))/$n CUDA sources compile"
  [ $bad = 0 ] || fail=1
done
exit $fail
