#!/usr/bin/env bash
# bench/cpu.sh [BUILD_DIR] [c3|c4|cycle|setup]...: the CPU benchmarks C3 and C4 (bench/README.md "The benchmarks") on this
# machine, no GPU: every variant of a case run side by side, REPS times in turn (default 3), the median kept.
#   c3     PCMG (FGMRES, rtol 1e-8, examples/mg3d) with hjacobi's defaults against Richardson/SOR, Chebyshev/Jacobi and
#          Chebyshev/SOR (PCMG's default): 3D 97^3 on 1 rank, 129^3 on 2, 2D 2049^2 on 2; steady KSPSolve (a second
#          solve), V-cycles, and PCSetUp of the first solve (-log_view)
#   c4     CG with hjacobi (defaults, overlap 0; and k 8, k 16) against CG with Jacobi at equal true residual
#          (unpreconditioned norm, rtol 1e-8): varcoef2d 1025^2 and the symmetric 3D Poisson 129^3 (mg3d -symmetric), 1 rank
#   cycle  the host cycle against its bandwidth bound (bench/cpucycle: VecCopy in the same run), 3D 97^3 and 2D 1025^2
#   setup  PCSetUp of PCMG + hjacobi and + Chebyshev/Jacobi on unmodified ksp ex45 129^3, 1 rank (-log_view), with
#          PCHJacobiExtract against MatMult
# Writes bench/results/cpu-<model>/<date>-<run>-<suite>.log (commands, output lines kept) and prints a summary of
# ratios; RUN names the run (default c1). Only measures: nothing here decides a default.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
[ $# -gt 0 ] && shift
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(c3 c4 cycle setup)
reps=${REPS:-3}
run=${RUN:-c1}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
slug=$(echo "${cpu:-cpu}" | tr 'A-Z' 'a-z' | tr -cs 'a-z0-9' '-' | sed 's/-$//')
out=$src/bench/results/cpu-$slug
mkdir -p "$out"
commit=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)
stamp=$(date +%Y-%m-%d)
M3="$build/examples/mg3d"
V2="$build/examples/varcoef2d"

# one: LABEL NP ARGS...: runs mg3d/varcoef2d once, prints "LABEL its time setup relres"
one() {
  local label=$1 np=$2
  shift 2
  local o
  o=$(mpiexec -n "$np" "$@" -log_view 2>&1)
  echo "$o" | grep -E '^RESULT|^PCSetUp |^PCHJacobiExtract |^PCHJacobiEstimate |^MatMult |^KSPSetUp ' | sed "s|^|[$label] |" >>"$log"
  local its time setup relres
  its=$(echo "$o" | sed -n 's/^RESULT.* its=\([0-9]*\) .*/\1/p' | tail -1)
  time=$(echo "$o" | sed -n 's/^RESULT.* time=\([0-9.e+-]*\) .*/\1/p' | tail -1)
  relres=$(echo "$o" | sed -n 's/^RESULT.* relres=\([0-9.e+-]*\) .*/\1/p' | tail -1)
  setup=$(echo "$o" | awk '/^PCSetUp / {print $4}' | head -1)
  echo "$label ${its:-?} ${time:-nan} ${setup:-nan} ${relres:-?}"
}

# case TITLE NP VARIANTS (label|args) ...: REPS rounds, each variant once per round; medians
case_() {
  local title=$1 np=$2
  shift 2
  local variants=("$@") r v res=()
  echo "== $title ($np rank(s), $reps rounds)" | tee -a "$log"
  for ((r = 0; r < reps; r++)); do
    for v in "${variants[@]}"; do
      res+=("$(one "${v%%|*}" "$np" ${v#*|})")
    done
  done
  printf '%s\n' "${res[@]}" | python3 -c '
import sys, statistics
rows = {}
for line in sys.stdin:
    lab, its, t, s, rr = line.split()
    rows.setdefault(lab, []).append((its, float(t), float(s), rr))
first = None
for lab, v in rows.items():
    t = statistics.median(x[1] for x in v); s = statistics.median(x[2] for x in v)
    first = first or (lab, t, s)
    print(f"  {lab:34s} its {v[0][0]:>5s}  KSPSolve {t:8.4f} s (median of {len(v)})  PCSetUp {s:7.4f} s  relres {v[0][3]}  "
          + ("" if lab == first[0] else f"-> {first[0]} is {t / first[1]:.2f}x faster, setup {s / first[2]:.2f}x"))
' | tee -a "$log"
}

HJ="-mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi"
SOR="-mg_levels_ksp_type richardson -mg_levels_pc_type sor"
CJ="-mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi"
CS="-mg_levels_ksp_type chebyshev -mg_levels_pc_type sor"
for s in "${suites[@]}"; do
  log=$out/$stamp-$run-$s.log
  {
    echo "# bench/cpu.sh $s: CPU $cpu, commit $commit, $(date -u), REPS=$reps"
    echo "# command: REPS=$reps RUN=$run bench/cpu.sh $build $s"
  } >"$log"
  case $s in
    c3)
      for g in "1|-da_grid_x 97 -da_grid_y 97 -da_grid_z 97" "2|-da_grid_x 129 -da_grid_y 129 -da_grid_z 129" "2|-dim 2 -da_grid_x 2049 -da_grid_y 2049"; do
        np=${g%%|*} grid=${g#*|}
        case_ "C3 mg3d $grid" "$np" "hjacobi|$M3 $grid $HJ" "hjmg|$M3 $grid -pc_type hjmg" "richardson/sor|$M3 $grid $SOR" "chebyshev/jacobi|$M3 $grid $CJ" "chebyshev/sor|$M3 $grid $CS"
      done ;;
    c4)
      TR="-ksp_type cg -ksp_norm_type unpreconditioned -ksp_rtol 1e-8"
      case_ "C4 varcoef2d 1025^2" 1 "cg+hjacobi|$V2 -n 1025 $TR -pc_type hjacobi -ksp_max_it 20000" "cg+jacobi|$V2 -n 1025 $TR -pc_type jacobi -ksp_max_it 20000" \
        "cg+hjacobi(k8)|$V2 -n 1025 $TR -pc_type hjacobi -pc_hjacobi_subiterations 8 -ksp_max_it 20000" "cg+hjacobi(k16)|$V2 -n 1025 $TR -pc_type hjacobi -pc_hjacobi_subiterations 16 -ksp_max_it 20000"
      G129="-da_grid_x 129 -da_grid_y 129 -da_grid_z 129 -symmetric"
      case_ "C4 3D Poisson 129^3 (symmetric)" 1 "cg+hjacobi|$M3 $G129 $TR -pc_type hjacobi -ksp_max_it 5000" "cg+jacobi|$M3 $G129 $TR -pc_type jacobi -ksp_max_it 5000" \
        "cg+hjacobi(k8)|$M3 $G129 $TR -pc_type hjacobi -pc_hjacobi_subiterations 8 -ksp_max_it 5000" ;;
    cycle)
      for g in "-dim 3 -n 97" "-dim 3 -n 129" "-dim 2 -n 1025"; do
        echo "== cpucycle $g" | tee -a "$log"
        "$build/bench/cpucycle" $g -k_list 1,2,4,8 -reps 5 | grep -v '^RESULT' | tee -a "$log"
      done ;;
    setup)
      E45="$build/test/tutorial_ex45 -dll_append $build/libpetsc-hjacobi.so -da_grid_x 129 -da_grid_y 129 -da_grid_z 129 -pc_type mg -pc_mg_levels 5"
      for v in "mg+hjacobi|$HJ" "mg+chebyshev/jacobi|$CJ" "hjacobi|-pc_type hjacobi"; do
        setups=()
        for ((r = 0; r < reps; r++)); do
          o=$(mpiexec -n 1 $E45 ${v#*|} -log_view 2>&1 | grep -E '^PCSetUp |^KSPSolve |^PCHJacobiExtract |^PCHJacobiEstimate |^MatMult |^KSPSetUp ')
          echo "$o" | sed "s|^|[${v%%|*} $r] |" >>"$log"
          setups+=("$(echo "$o" | awk '/^PCSetUp / {print $4}')")
        done
        echo "  ex45 129^3 ${v%%|*}: PCSetUp ${setups[*]} s" | tee -a "$log"
      done ;;
    *) echo "bench/cpu.sh: unknown suite $s (c3, c4, cycle, setup)" >&2; exit 2 ;;
  esac
  echo "-> $log"
done
