#!/usr/bin/env bash
# bench/cputransfer.sh BUILD [REPS]: hjmg with and without its stencil transfers on the CPU, REPS rounds in turn:
# 3D 97^3 on 1 rank, 3D 129^3 and 2D 2049^2 on 2 ranks (examples/mg3d); per run the steady KSPSolve (second solve) and
# the finest level's MGInterp event (interpolation + restriction of both solves, -pc_mg_log).
set -uo pipefail
b=$1 reps=${2:-3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
for ((r = 0; r < reps; r++)); do
  for g in "1|-da_grid_x 97 -da_grid_y 97 -da_grid_z 97" "2|-da_grid_x 129 -da_grid_y 129 -da_grid_z 129" "2|-dim 2 -da_grid_x 2049 -da_grid_y 2049"; do
    IFS='|' read -r np grid <<<"$g"
    for t in true false; do
      o=$(mpiexec -n "$np" "$b/examples/mg3d" $grid -pc_type hjmg -pc_hjmg_stencil_transfer $t -pc_mg_log -log_view 2>&1)
      res=$(echo "$o" | sed -n 's/^RESULT.* grid=\([0-9x]*\) .* its=\([0-9]*\) time=\([0-9.e+-]*\) .*/\1 its \2 steady \3/p')
      interp=$(echo "$o" | awk '$1 == "MGInterp" && $3 + 0 >= l {l = $3 + 0; t = $6} END {print t}') # the finest level: the highest number
      echo "np $np $res stencil_transfer $t finest MGInterp $interp"
    done
  done
done
