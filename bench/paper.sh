#!/usr/bin/env bash
# B1, B2 and B5 of ../shared/BENCHMARKS.md on one GPU, inside a wall-time budget, then bench/summary.py.
#
# usage: bench/paper.sh EXEDIR OUTDIR [BUDGET_SECONDS=480] [PART...]
#   EXEDIR  the build's bench/ folder (holds paper and roofline; build with -DCMAKE_BUILD_TYPE=Release)
#   OUTDIR  receives <part>.csv, <part>.log, summary.md and the PNG plots (a part's old CSV is replaced)
#   BUDGET  wall seconds for all parts together (keep it under the 600 s a command may run); each part gets a share
#           by weight (below) as -max_seconds; a driver stops its sweep cleanly when its share is used up
#   PART    b1 (2D 1024^2), b1big (2D 2048^2), b1single (2048^2, fp32 sub-iterations), b2 (1D, 1024 copies of 1024),
#           b2big (1D, 4096 copies), b2single (1024 and 4096 copies, fp32 sub-iterations), b5 (roofline); default: all seven,
#           in that order; b5single (the roofline with fp32 sub-iterations) only when named
# environment:
#   HJ_RHS=paper|one   b = h^2 (default: the paper's system, see below) or b = 1 (BENCHMARKS.md as written: ~10x the cycles)
#   HJ_GPU_OPTS        default "-dm_vec_type cuda -dm_mat_type aijcusparse -pc_hjacobi_backend cuda"; "" runs on the host
#   HJ_SIZES=small     tiny grids (a dry run of this script on a CPU)
#   B5_N               roofline grid (default 4096: 134 MB per array, 8x the H100's L2; 8192 costs ~4x the host setup)
#   HJ_COMMIT, HJ_GPU  recorded in the CSV; MPIEXEC (default: none) prefixes the drivers; PYTHON (default python3)
#
# Why b = h^2 by default: the paper's update (its eqs. 7 and 14) is x = (b dx^2 + sum of neighbours)/d with b = 1, i.e.
# the system (unscaled stencil) x = dx^2 * 1. Its classic times fit that: 7901 ms / 179306 sweeps (the count for b = h^2
# at N = 1024) = 44 us per sweep of 1M points on a TITAN V (545 GB/s at 24 B/point), and the 1D case gives the same
# 44 us (5676 ms / 128760); with b = 1 classic needs 1.92M sweeps, which would mean 4 us per sweep (> 5 TB/s). So the
# paper's speedups were measured on b = h^2, whose residual is dominated by the boundary layer of x0 = 1.
#
# Configurations (k, overlap) per part, and why:
#   b1     tile 32x32: k in {4,16,32,64,128} x o in {0,2,4,8,16} (the paper's Table 3/4 range; k = 8 and o = 6, 12 left
#          out to fit), swept overlap-major so that a budget cut drops the large overlaps first, then tile 64x64 at
#          k:o = 32:4, 64:4, 64:8, 128:8 ("the best tile the GPU allows"; the paper's optimum was k ~ tile, small o).
#          Classic's count is measured and also computed exactly (-classic_count check), and the three counts
#          (hjacobi k = 1, stock PETSc, exact) are compared on 64 x 64 (-validate_n).
#   b1big  the 5 fastest configurations of b1's CSV (fallback: 16:2, 32:2, 32:4, 64:4, 64:8); classic's count is
#          computed (-classic_count exact: measuring it would cost ~6 runs of ~180k-7.7M sweeps of 35 us), its time per
#          cycle measured over 20000 cycles; the exact count is validated in the same run on 64 x 64 and in b1 at 1024.
#   b1single  b1big's 4 fastest configurations again with fp32 sub-iterations (-pc_hjacobi_inner_precision single;
#          classic and stock PETSc stay fp64): the tuning step "fp32 inner sweeps" of BENCHMARKS/TUNING.md. Beside them
#          a classic fp32 row (BENCHMARKS.md B1: "also report an fp32 classic sweep, so that the gain of the method and
#          the gain of the precision can be told apart"): k = 1 on the tile kernel (-pc_hjacobi_cuda_tile_kernel, set by
#          paper.c for that row only) with fp32 sweeps of the correction, one damped Jacobi sweep rounded to fp32 a
#          cycle, its tile the fastest per cycle of 32, 64 (2D) or 32, 128, 512 (1D); its count the computed one (as
#          classic's: exact arithmetic's), its time per cycle measured over 20000 cycles; every row gets its speedup
#          over it too (CSV speedup_vs_classic_fp32). -validate_n 512 measures the fp32 classic count on 512 x 512
#          (1D: 16 copies of 512; ~100k and ~84k cycles, a few seconds with stock PETSc's own count) against the
#          computed one, and checks the fp64 counts as b1 does.
#   b2     tile 32 (32 x 1): k in {4,8,16,32,64} x o in {0,2,4,8,12} (the paper's Table 2 optima: o = 2..12).
#   b2single  b2big's 4 fastest again with fp32 sub-iterations (as b1single, with its classic fp32 row), on 1024
#          and on 4096 copies
#   b2big  the 4 fastest of b2's CSV (fallback 8:4, 16:4, 32:8, 64:8); classic computed as in b1big.
#   b5     copy and VecAXPY bandwidth, the classic sweep, the hierarchical kernel at tile 32, k = 16, 32, 64.
#   b5single  b5 with -pc_hjacobi_inner_precision single: the cost of an fp32 inner sweep (correction form) against b5's
set -uo pipefail
if [ $# -lt 2 ]; then sed -n '2,20p' "$0"; exit 2; fi
EXEDIR=$(cd "$1" && pwd) || exit 2
OUT=$2
BUDGET=${3:-480}
shift $(($# < 3 ? $# : 3))
PARTS=("$@")
[ ${#PARTS[@]} -eq 0 ] && PARTS=(b1 b1big b1single b2 b2big b2single b5)
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || exit 2
HERE=$(cd "$(dirname "$0")" && pwd)
RHS=${HJ_RHS:-paper}
GPU_OPTS=${HJ_GPU_OPTS--dm_vec_type cuda -dm_mat_type aijcusparse -pc_hjacobi_backend cuda}
PY=${PYTHON:-python3}
MPIEXEC=${MPIEXEC:-}
[ "$BUDGET" -gt 590 ] 2>/dev/null && echo "paper.sh: warning: budget $BUDGET s exceeds a 10-minute command" >&2

# sizes: N, 2D big N, 1D copies, big copies, roofline N, validation N
if [ "${HJ_SIZES:-}" = small ]; then
  N1=64 N2=96 C1=64 C2=128 N5=${B5_N:-128} NV=24 NV32=24
else
  N1=1024 N2=2048 C1=1024 C2=4096 N5=${B5_N:-4096} NV=64 NV32=512
fi
# classic's count at 1024: measured (and checked) for b = h^2 (~180k cycles, ~1.3 s a run on an H100); computed for
# b = 1 (~1.9M cycles: ~14 s a run, 6 runs)
CC1=check
[ "$RHS" = one ] && CC1=exact

declare -A W=([b1]=34 [b1big]=24 [b1single]=14 [b2]=22 [b2big]=12 [b2single]=10 [b5]=8 [b5single]=8)
wsum=0
for p in "${PARTS[@]}"; do
  [ -n "${W[$p]:-}" ] || { echo "paper.sh: unknown part '$p' (b1 b1big b1single b2 b2big b2single b5 b5single)" >&2; exit 2; }
  wsum=$((wsum + W[$p]))
done
T0=$(date +%s)
share() { # sets s: part $1's weight's share of the budget left, minus 5 s for the process start
  local left=$((BUDGET - ($(date +%s) - T0)))
  s=$((left * W[$1] / wsum - 5))
  wsum=$((wsum - W[$1]))
  [ $s -lt 5 ] && s=5
  return 0
}
# the n fastest timed hierarchical configurations of a CSV as k:o:tile (paper.c's CSV columns)
best_of() {
  [ -f "$1" ] || return 0
  awk -F, '$5 == "hierarchical" && $10 != "nan" && $10 + 0 > 0 { print $10, $7 ":" $8 ":" $6 }' "$1" | sort -g | head -n "$2" | awk '{print $2}' | paste -sd, -
}
run() { # part, csv, args...
  local part=$1 csv=$2
  shift 2
  rm -f "$csv"
  echo "== paper.sh $part: $*" | tee "$OUT/$part.log"
  # shellcheck disable=SC2086
  $MPIEXEC "$@" $GPU_OPTS -csv "$csv" 2>&1 | tee -a "$OUT/$part.log"
  echo "== $part done at $(($(date +%s) - T0)) s of $BUDGET" | tee -a "$OUT/$part.log"
}

for p in "${PARTS[@]}"; do
  share "$p"
  case $p in
  b1)
    run b1 "$OUT/b1_$N1.csv" "$EXEDIR/paper" -mode 2d -n "$N1" -rhs "$RHS" -max_seconds "$s" -classic_count "$CC1" -validate_n "$NV" \
      -tiles 32 -k_list 1,4,16,32,64,128 -o_list 0,2,4,8,16 -extra_configs 32:4:64,64:4:64,64:8:64,128:8:64 ;;
  b1big)
    cf=$(best_of "$OUT/b1_$N1.csv" 5)
    run b1big "$OUT/b1_$N2.csv" "$EXEDIR/paper" -mode 2d -n "$N2" -rhs "$RHS" -max_seconds "$s" -classic_count exact -validate_n "$NV" \
      -configs "${cf:-16:2,32:2,32:4,64:4,64:8}" ;;
  b1single)
    cf=$(best_of "$OUT/b1_$N2.csv" 4)
    run b1single "$OUT/b1_${N2}_fp32.csv" "$EXEDIR/paper" -mode 2d -n "$N2" -rhs "$RHS" -max_seconds "$s" -classic_count exact -validate_n "$NV32" \
      -configs "${cf:-16:2,32:4,32:4:64,64:4:64,64:8:64}" -pc_hjacobi_inner_precision single ;;
  b2)
    run b2 "$OUT/b2_$C1.csv" "$EXEDIR/paper" -mode 1d -n "$N1" -ny "$C1" -rhs "$RHS" -max_seconds "$s" -classic_count "$CC1" -validate_n "$NV" \
      -tiles 32 -k_list 1,4,8,16,32,64 -o_list 0,2,4,8,12 -extra_configs 32:4:64,64:4:64,64:8:128,128:8:128 ;;
  b2big)
    cf=$(best_of "$OUT/b2_$C1.csv" 4)
    run b2big "$OUT/b2_$C2.csv" "$EXEDIR/paper" -mode 1d -n "$N1" -ny "$C2" -rhs "$RHS" -max_seconds "$s" -classic_count exact -validate_n "$NV" \
      -tiles 32 -configs "${cf:-8:4,16:4,32:8,64:8}" ;;
  b2single) # both sizes, half the share each
    cf=$(best_of "$OUT/b2_$C2.csv" 4)
    for C in "$C1" "$C2"; do
      run "b2single_$C" "$OUT/b2_${C}_fp32.csv" "$EXEDIR/paper" -mode 1d -n "$N1" -ny "$C" -rhs "$RHS" -max_seconds "$((s / 2))" -classic_count exact -validate_n "$NV32" \
        -configs "${cf:-64:8:128,32:4:64,16:4:32,32:8:32}" -pc_hjacobi_inner_precision single
    done ;;
  b5)
    run b5 "$OUT/b5.csv" "$EXEDIR/roofline" -n "$N5" -tile 32 -k_list 16,32,64 ;;
  b5single)
    run b5single "$OUT/b5_fp32.csv" "$EXEDIR/roofline" -n "$N5" -tile 32 -k_list 16,32,64 -pc_hjacobi_inner_precision single ;;
  esac
done
"$PY" "$HERE/summary.py" -o "$OUT" "$OUT"/*.csv 2>&1 | tee "$OUT/summary.log"
echo "paper.sh: total $(($(date +%s) - T0)) s"
