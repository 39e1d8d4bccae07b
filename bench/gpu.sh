#!/usr/bin/env bash
# The one GPU script: builds here, runs every GPU check and benchmark there.
#
#   bench/gpu.sh prepare            # here (no GPU): build against the CUDA PETSc into .device/ (git-ignored)
#   bench/gpu.sh run [PART...]      # on the GPU machine, from the repo root; results under $OUT (default ./gpu-out)
#
# With the `device` tool of this workplace:  run(command="bench/gpu.sh run", carry=[".device"]).
# PARTs (default: all, in this order): env check tutorials roofline sanitize mg paper tuning
#   env        GPU name, driver, commit
#   check      CUDA backend vs host backend on the test matrix (1 and 2 ranks)
#   sanitize   compute-sanitizer memcheck and racecheck on CUDA cases
#   tutorials  PETSc ex45 / ex50 on the GPU with hjacobi, iteration counts against the host backend
#   roofline   B5;  paper: B1, B2;  mg: B3, B4;  levels: PCMG time per level;  tuning: fp32 inner sweeps and 64 x 64 tiles (bench/TUNING.md)
#   defaults   issue 12/15: B3 with the automatic omega against fixed ones, B4 fp64 and fp32 (correction form), setup profile
#   setup      B7 and B3 one-shot: PCHJacobiExtract (full, value-only) vs MatMult; ex45 257^3 and SNES ex19 one-shot -log_view
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dev=$here/.device
cmd=${1:-run}; shift || true

if [ "$cmd" = prepare ]; then
  set -e
  [ -f /opt/petsc-cuda/lib/libpetsc.so ] || tar -C / -xJf "$here/../shared/petsc-cuda/petsc-cuda-opt.tar.xz"
  mkdir -p "$dev/petsc-cuda"
  cp -u "$here"/../shared/petsc-cuda/{petsc-cuda-opt.tar.xz,device-env.sh} "$dev/petsc-cuda/"
  cp -ru "$here/../shared/petsc-cuda/debs" "$dev/petsc-cuda/"
  PATH=/usr/local/cuda/bin:$PATH cmake -S "$here" -B "$dev/build" -DPETSC_DIR=/opt/petsc-cuda -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$dev/build" -j "$(nproc)"
  (cd "$here" && git rev-parse HEAD 2>/dev/null; cd "$here" && git status --porcelain | grep -q . && echo "(with uncommitted changes)") > "$dev/COMMIT" || true
  du -sh "$dev"
  exit 0
fi

# ---------------------------------------------------------------- on the GPU machine
OUT=${OUT:-$here/gpu-out}; mkdir -p "$OUT"
# ctest files hold the absolute paths of the machine that built them (/work/main): make them valid here
if [ "$here" != /work/main ] && [ ! -e /work/main ]; then mkdir -p /work && ln -s "$here" /work/main; fi
. "$dev/petsc-cuda/device-env.sh"
B=$dev/build
export LD_LIBRARY_PATH=$B:${LD_LIBRARY_PATH:-}
LIB=$B/libpetsc-hjacobi.so
GPUOPT="-dm_vec_type cuda -dm_mat_type aijcusparse"
parts=${*:-env check tutorials roofline sanitize mg levels paper tuning}
START=$(date +%s); DEADLINE=${GPU_DEADLINE:-540} # seconds for the whole command; the paper part gets what is left
left() { echo $((DEADLINE - ($(date +%s) - START))); }
log() { echo "$@" | tee -a "$OUT/summary.txt"; }
fails=0
runcase() { # name, command...: run, record PASS/FAIL
  local name=$1; shift
  if "$@" >>"$OUT/$name.log" 2>&1; then log "PASS $name"; else log "FAIL $name: $*"; fails=$((fails + 1)); fi
}
for part in $parts; do
  case $part in
  env)
    log "GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1)"
    log "commit: $(head -1 "$dev/COMMIT" 2>/dev/null) $(sed -n 2p "$dev/COMMIT" 2>/dev/null)"
    log "command: bench/gpu.sh run $parts"
    log "date: $(date -u +%FT%TZ)"
    ;;
  *)
    log "== $part ($(left) s left)"
    if [ -x "$here/bench/gpu-$part.sh" ]; then
      . "$here/bench/gpu-$part.sh"
    else
      log "SKIP $part (no bench/gpu-$part.sh)"
    fi
    ;;
  esac
done
log "failures: $fails"
# the device tool returns at most 8 files: everything but the summary goes into one archive
(cd "$OUT" && tar czf /tmp/hj-results.tgz --exclude summary.txt --exclude ./results.tgz . && mv /tmp/hj-results.tgz results.tgz && find . -mindepth 1 ! -name results.tgz ! -name summary.txt -delete)
exit $((fails > 0))
