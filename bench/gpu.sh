#!/usr/bin/env bash
# The GPU runner: builds here, runs suites of benchmark drivers and GPU checks there. The suites are data:
# bench/suites.txt (which driver, which options); the machine-specific paths are in bench/device.env.
#
#   bench/gpu.sh prepare              here (no GPU): build against the CUDA PETSc into .device/ (git-ignored)
#   HJ_SCALAR=complex bench/gpu.sh prepare|run ...   the same with the complex CUDA PETSc (.device/build-complex)
#   bench/gpu.sh run SUITE...         on the GPU machine, from the checkout: results under $OUT (default ./gpu-out)
#   bench/gpu.sh list                 the suites and their steps
#   DRYRUN=1 bench/gpu.sh run ...     print each step's command (and what would be skipped) instead of running it
#
# With this workplace's device tool:  run(command="GPU_DEADLINE=585 bench/gpu.sh run env check", carry=[".device"]).
# SUITE "env" records the GPU, the commit of the build and the command; the others are in bench/suites.txt.
# GPU_DEADLINE (default 540): seconds for the whole command; a step is skipped (SKIP line) when less than its SECONDS
# (NEED/LIMIT: NEED) are left, except a driver with -max_seconds {S}, which then gets what is left (at least 40 s); no
# step runs past the deadline. summary.txt gets PASS/FAIL/SKIP per step and the lines each step keeps; everything else ends in
# $OUT/results.tgz (the device tool returns few files). Exit status: 1 when a step failed.
set -uo pipefail
HJ_SRC=$(cd "$(dirname "$0")/.." && pwd)
. "$HJ_SRC/bench/device.env"
dev=$HJ_DEVICE_DIR
tarball=petsc-cuda-opt.tar.xz build=build
if [ "${HJ_SCALAR:-real}" = complex ]; then
  HJ_PETSC_CUDA=${HJ_PETSC_CUDA_COMPLEX:-/opt/petsc-cuda-complex} tarball=petsc-cuda-complex-opt.tar.xz build=build-complex
  export PETSC_SCALAR=complex # device-env.sh: the complex PETSc
fi
SUITES=$HJ_SUITES
cmd=${1:-}
shift || true

if [ "$cmd" = prepare ]; then
  set -e
  [ -f "$HJ_PETSC_CUDA/lib/libpetsc.so" ] || tar -C / -xJf "$HJ_PETSC_CUDA_PKG/$tarball"
  mkdir -p "$dev/petsc-cuda"
  cp -u "$HJ_PETSC_CUDA_PKG"/{$tarball,device-env.sh} "$dev/petsc-cuda/"
  cp -ru "$HJ_PETSC_CUDA_PKG/debs" "$dev/petsc-cuda/"
  # the CUDA-aware Open MPI beside it, where device-env.sh looks for it (HJ_MPI=cuda)
  if [ -f "$HJ_PETSC_CUDA_PKG/../ompi-cuda/ompi-cuda.tar.xz" ]; then
    mkdir -p "$dev/ompi-cuda" && cp -u "$HJ_PETSC_CUDA_PKG/../ompi-cuda/ompi-cuda.tar.xz" "$dev/ompi-cuda/"
  fi
  # the objects of the last prepare wait beside $dev (not carried): put back, the build is incremental
  parked=$dev.objects/$build
  if [ -d "$parked" ]; then (cd "$parked" && find . -name '*.o' -exec sh -c 'mkdir -p "$0/$(dirname "$1")" && mv "$1" "$0/$1"' "$dev/$build" {} \;); fi
  # the tests take mpiexec from PATH and PETSc's GPU-awareness from PETSC_OPTIONS (device-env.sh sets both for the MPI
  # chosen: Debian's, -use_gpu_aware_mpi 0; HJ_MPI=cuda, the CUDA-aware one), so that they run under either MPI
  PATH=$HJ_CUDA_BIN:$PATH cmake -S "$HJ_SRC" -B "$dev/$build" -DPETSC_DIR="$HJ_PETSC_CUDA" -DCMAKE_BUILD_TYPE=Release \
    -DHJACOBI_TEST_GPU_AWARE_MPI=ON -DHJACOBI_MPIEXEC=mpiexec >/dev/null
  cmake --build "$dev/$build" -j "${NP:-$(nproc)}" --target all columnalone partsalone
  # what the GPU machine does not need (the device tool carries at most 64 MiB): objects (parked for the next
  # prepare), CMake's compiler probes
  (cd "$dev/$build" && find . -name '*.o' -exec sh -c 'mkdir -p "$0/$(dirname "$1")" && mv "$1" "$0/$1"' "$parked" {} \;)
  rm -rf "$dev/$build"/CMakeFiles/[0-9]*
  # the commit (and whether the tree had changes), and the path the build was configured at (ctest files hold it)
  { git -C "$HJ_SRC" rev-parse HEAD 2>/dev/null || echo unknown
    git -C "$HJ_SRC" status --porcelain 2>/dev/null | grep -q . && echo "(with uncommitted changes)" || echo; } > "$dev/COMMIT"
  echo "$HJ_SRC" > "$dev/SRC"
  du -sh "$dev"
  exit 0
fi

# ---------------------------------------------------------------- the suites (bench/suites.txt)
declare -A DEF=()
STEPS=() # "suite<TAB>name<TAB>seconds<TAB>keep<TAB>command", in file order
subst() { # VAR text: VAR <- text with every {NAME} of DEF replaced (definitions may use earlier ones); no subshell
  local s=$2 k i
  for i in 1 2 3 4; do
    for k in "${!DEF[@]}"; do s=${s//\{$k\}/${DEF[$k]}}; done
  done
  printf -v "$1" '%s' "$s"
}
trim() { # VAR text: VAR <- text without leading and trailing blanks; no subshell (a fork per field made parsing slow)
  local s=$2
  s=${s#"${s%%[![:space:]]*}"}
  printf -v "$1" '%s' "${s%"${s##*[![:space:]]}"}"
}
while IFS= read -r line || [ -n "$line" ]; do
  case $line in '#'* | '') continue ;; esac
  if [[ $line =~ ^def\ +([A-Za-z0-9_]+)\ *=\ *(.*)$ ]]; then
    [ -z "${DEF[${BASH_REMATCH[1]}]+set}" ] || { echo "gpu.sh: {${BASH_REMATCH[1]}} defined twice in $SUITES (a definition holds for the whole file)" >&2; exit 2; }
    DEF[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
    continue
  fi
  f=() rest=$line
  for i in 1 2 3 4; do
    trim t "${rest%% | *}"
    f+=("$t")
    rest=${rest#* | }
  done
  [ "$rest" != "$line" ] || { echo "gpu.sh: bad line in $SUITES: $line" >&2; exit 2; }
  [[ ${f[2]} =~ ^[0-9]+(/[0-9]+)?$ ]] || { echo "gpu.sh: bad SECONDS '${f[2]}' in $SUITES: $line" >&2; exit 2; }
  trim t "$rest"
  STEPS+=("${f[0]}"$'\t'"${f[1]}"$'\t'"${f[2]}"$'\t'"${f[3]}"$'\t'"$t")
done < "$SUITES"
suites=$(printf '%s\n' "${STEPS[@]}" | cut -f1 | awk '!seen[$0]++' | paste -sd' ' -)

if [ "$cmd" = list ]; then
  for s in env $suites; do
    echo "$s"
    printf '%s\n' "${STEPS[@]}" | awk -F'\t' -v s="$s" '$1 == s { printf "  %-58s %7s s\n", $2, $3 }'
  done
  exit 0
fi
if [ "$cmd" != run ] || [ $# -eq 0 ]; then
  sed -n '2,15p' "$0"
  echo "suites: env $suites"
  exit 2
fi
for s in "$@"; do
  [ "$s" = env ] || [[ " $suites " == *" $s "* ]] || { echo "gpu.sh: unknown suite '$s' (suites: env $suites)" >&2; exit 2; }
done

# ---------------------------------------------------------------- on the GPU machine
DRY=${DRYRUN:-0}
OUT=${OUT:-$HJ_SRC/gpu-out}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
B=$dev/$build
if [ "$DRY" = 0 ]; then
  # the ctest files name the paths of the checkout that built them: make that path valid here
  built=$(cat "$dev/SRC" 2>/dev/null || echo "$HJ_SRC")
  if [ "$built" != "$HJ_SRC" ] && [ ! -e "$built" ]; then mkdir -p "$(dirname "$built")" && ln -s "$HJ_SRC" "$built"; fi
  . "$dev/petsc-cuda/device-env.sh"
  export LD_LIBRARY_PATH=$B:${LD_LIBRARY_PATH:-}
fi
export HJ_COMMIT=$(head -1 "$dev/COMMIT" 2>/dev/null || echo unknown)
DEF[B]=$B DEF[SRC]=$HJ_SRC DEF[OUT]=$OUT DEF[LIB]=$B/libpetsc-hjacobi.so
START=$EPOCHSECONDS DEADLINE=${GPU_DEADLINE:-540}
DRYUSED=0 # a dry run counts every step as using all its seconds (the worst case)
left() { echo $((DEADLINE - (EPOCHSECONDS - START) - DRYUSED)); }
log() { echo "$@" | tee -a "$OUT/summary.txt"; }
fails=0

runstep() { # suite name seconds keep command
  local suite=$1 name=$2 secs=${3#*/} need=${3%/*} keep=$4 c t0 rc tmp l
  l=$((DEADLINE - (EPOCHSECONDS - START) - DRYUSED))
  # a driver that stops cleanly at -max_seconds {S} runs in what is left (at least 40 s); a step with NEED/LIMIT runs
  # when NEED seconds are left, limited to what is left; any other step needs its SECONDS
  if [ "$l" -lt "$secs" ] && [[ $5 == *"{S}"* ]]; then need=40; fi
  if [ "$l" -lt "$need" ]; then log "SKIP [$suite] $name (needs $need s, $l s left)"; return; fi
  [ "$l" -lt "$secs" ] && secs=$((l - 5))
  DEF[S]=$((secs > 20 ? secs - 10 : secs))
  subst c "$5"
  subst keep "$keep"
  if [ "$DRY" != 0 ]; then
    echo "[$suite] $name: timeout $secs $c"
    DRYUSED=$((DRYUSED + need))
    return
  fi
  echo "== $name: $c" >> "$OUT/$suite.log"
  tmp=$(mktemp)
  t0=$(date +%s)
  (cd "$OUT" && timeout "$secs" bash -c "$c") < /dev/null > "$tmp" 2>&1 # no stdin: mpiexec would eat the step list
  rc=$?
  cat "$tmp" >> "$OUT/$suite.log"
  if grep -q '^RESULT' "$tmp"; then # rows for bench/mgsummary.py
    [ -s "$OUT/$suite.csv" ] || echo "bench,label,result" > "$OUT/$suite.csv"
    grep '^RESULT' "$tmp" | while IFS= read -r r; do echo "${name%% *},\"${name#* }\",\"$r\"" >> "$OUT/$suite.csv"; done
  fi
  if [ $rc = 0 ]; then log "PASS [$suite] $name ($(($(date +%s) - t0)) s)"
  else log "FAIL [$suite] $name (exit $rc$([ $rc = 124 ] && echo ": over $secs s"))"; fails=$((fails + 1)); fi
  [ "$keep" = - ] || grep -E -- "$keep" "$tmp" | sed "s|^|  |" | tee -a "$OUT/summary.txt"
  rm -f "$tmp"
}

for s in "$@"; do
  if [ "$s" = env ]; then
    log "GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1)"
    log "commit: $HJ_COMMIT $(sed -n 2p "$dev/COMMIT" 2>/dev/null)"
    log "command: bench/gpu.sh run $*"
    log "date: $(date -u +%FT%TZ)"
    continue
  fi
  log "== $s ($(left) s left)"
  while IFS=$'\t' read -r su name secs keep c; do
    [ "$su" = "$s" ] && runstep "$su" "$name" "$secs" "$keep" "$c"
  done < <(printf '%s\n' "${STEPS[@]}")
done
log "failures: $fails"
if [ "$DRY" = 0 ]; then
  # the device tool returns few files: everything but the summary goes into one archive
  (cd "$OUT" && tar czf /tmp/hj-results.tgz --exclude summary.txt --exclude ./results.tgz . && mv /tmp/hj-results.tgz results.tgz &&
    find . -mindepth 1 ! -name results.tgz ! -name summary.txt -delete)
fi
exit $((fails > 0))
