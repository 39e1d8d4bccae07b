#!/usr/bin/env bash
# bench/cputransfer.sh BUILD [REPS] hjmg with and without its stencil transfers on the CPU, REPS rounds in turn
# (MODES="true false" by default: -pc_hjmg_stencil_transfer's values; "default" runs without the option):
# 3D 97^3 on 1 rank, 3D 129^3 and 2D 2049^2 on 2 ranks (examples/mg3d); per run the steady KSPSolve (second solve) and
# the finest level's MGInterp event (interpolation + restriction of both solves, -pc_mg_log), and the one-shot time
# (the first solve with its setup: -log_view's KSPSolve total minus the second solve, plus PCSetUp, whose check of the
# interpolations is the transfers' setup cost).
set -uo pipefail
b=$1 reps=${2:-3} modes=${MODES:-true false}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
for ((r = 0; r < reps; r++)); do
  for g in "1|-da_grid_x 97 -da_grid_y 97 -da_grid_z 97" "2|-da_grid_x 129 -da_grid_y 129 -da_grid_z 129" "2|-dim 2 -da_grid_x 2049 -da_grid_y 2049" ${EXTRA_GRID:+"$EXTRA_GRID"}; do
    IFS='|' read -r np grid <<<"$g"
    for t in $modes; do
      opt="-pc_hjmg_stencil_transfer $t"
      [ "$t" = default ] && opt=""
      o=$(mpiexec -n "$np" "$b/examples/mg3d" $grid -pc_type hjmg $opt -pc_mg_log -log_view 2>&1)
      res=$(echo "$o" | sed -n 's/^RESULT.* grid=\([0-9x]*\) .* its=\([0-9]*\) time=\([0-9.e+-]*\) .*/\1 its \2 steady \3/p')
      interp=$(echo "$o" | awk '$1 == "MGInterp" && $3 + 0 >= l {l = $3 + 0; t = $6} END {print t}') # the finest level: the highest number
      t2=$(echo "$o" | sed -n 's/^RESULT.* time=\([0-9.e+-]*\) .*/\1/p')
      tall=$(echo "$o" | awk '/^KSPSolve / {print $4}' | head -1)
      tset=$(echo "$o" | awk '/^PCSetUp / {print $4}' | head -1)
      echo "np $np $res stencil_transfer $t finest MGInterp $interp one-shot $(python3 -c "print('%.4f' % ($tall - $t2 + $tset))")"
    done
  done
done
