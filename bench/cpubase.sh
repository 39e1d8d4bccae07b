#!/usr/bin/env bash
# bench/cpubase.sh NEW_BUILD BASE_BUILD [REPS]: C3 3D 97^3 (1 rank) with this build's hjacobi and an earlier build's,
# Richardson/SOR and Chebyshev/Jacobi beside them, REPS rounds in turn; per run the steady KSPSolve (the second solve)
# and the one-shot one (the first solve with its setup: -log_view's KSPSolve total minus the second, plus PCSetUp, which
# runs outside the KSPSolve event).
set -uo pipefail
new=$1 base=$2 reps=${3:-3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
G="-da_grid_x 97 -da_grid_y 97 -da_grid_z 97"
for ((r = 0; r < reps; r++)); do
  for v in "hjacobi new|$new|" "hjacobi base|$base|" "richardson/sor|$new|-mg_levels_ksp_type richardson -mg_levels_pc_type sor" "chebyshev/jacobi|$new|-mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi"; do
    IFS='|' read -r label b opts <<<"$v"
    o=$(mpiexec -n 1 "$b/examples/mg3d" $G $opts -log_view 2>&1)
    its=$(echo "$o" | sed -n 's/^RESULT.* its=\([0-9]*\) .*/\1/p')
    t2=$(echo "$o" | sed -n 's/^RESULT.* time=\([0-9.e+-]*\) .*/\1/p')
    tall=$(echo "$o" | awk '/^KSPSolve / {print $4}' | head -1)
    tset=$(echo "$o" | awk '/^PCSetUp / {print $4}' | head -1) # the first solve's PCSetUp runs outside its KSPSolve event
    echo "$label its $its steady $t2 one-shot $(python3 -c "print('%.4f' % ($tall - $t2 + $tset))")"
  done
done
