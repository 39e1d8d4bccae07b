# bench/gpu.sh part "tutorials": PETSc's unmodified ex45 and ex50 on the GPU with hjacobi (loaded by -dll_append);
# iteration counts must equal the host backend's. Sourced by bench/gpu.sh.
CU="-dm_vec_type cuda -dm_mat_type aijcusparse"
tut() { # name np exe args...: GPU run vs host-backend run, same options
  local name=$1 np=$2 exe=$3; shift 3
  local g h
  g=$(mpiexec -n $np $exe -dll_append $LIB $CU "$@" -ksp_converged_reason 2>&1 | tee -a "$OUT/tutorials.log" | grep -oE "CONVERGED_[A-Z_]+ iterations [0-9]+" | tail -1)
  h=$(mpiexec -n $np $exe -dll_append $LIB "$@" -ksp_converged_reason 2>&1 | grep -oE "CONVERGED_[A-Z_]+ iterations [0-9]+" | tail -1)
  if [ -n "$g" ] && [ "$g" = "$h" ]; then log "PASS $name (np $np): GPU $g, host $h"; else log "FAIL $name (np $np): GPU '$g' host '$h'"; fails=$((fails + 1)); fi
}
E45=$B/test/tutorial_ex45; E50=$B/test/tutorial_ex50; E19=$B/test/tutorial_ex19
for np in 1 2; do
  tut ex45_mg_hjacobi $np $E45 -da_grid_x 65 -da_grid_y 65 -da_grid_z 65 -pc_type mg -pc_mg_levels 4 -mg_levels_pc_type hjacobi
  tut ex45_mg_richardson_hjacobi $np $E45 -da_grid_x 65 -da_grid_y 65 -da_grid_z 65 -pc_type mg -pc_mg_levels 4 -mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi -mg_levels_pc_hjacobi_omega 0.8
  tut ex45_mg_galerkin $np $E45 -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -pc_type mg -pc_mg_levels 3 -pc_mg_galerkin pmat -mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi
  tut ex50_hjacobi $np $E50 -da_grid_x 129 -da_grid_y 129 -pc_type hjacobi -pc_hjacobi_overlap 2
  # SNES ex19 (dof = 4, point-block kernel): Newton iterations (the last CONVERGED line) on the GPU and the host
  tut ex19_mg_richardson_hjacobi $np $E19 -da_refine 5 -lidvelocity 100 -grashof 1e2 -snes_converged_reason -pc_type mg -mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi -mg_levels_pc_hjacobi_omega 0.8
done
# ex19 129^2 on the GPU: SNESSolve with PCMG + hjacobi (point-block) against PCMG + Chebyshev/Jacobi and + Chebyshev/PBJacobi
for sm in "-mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi -mg_levels_pc_hjacobi_omega 0.8" "-mg_levels_pc_type jacobi" "-mg_levels_pc_type pbjacobi"; do
  r=$(mpiexec -n 1 $E19 -dll_append $LIB $CU -da_refine 5 -lidvelocity 100 -grashof 1e2 -snes_converged_reason -ksp_converged_reason -pc_type mg $sm -log_view 2>&1 | tee -a "$OUT/tutorials.log")
  log "INFO ex19 129^2 GPU ($sm): SNES $(echo "$r" | grep -oE "FNORM[A-Z_]* iterations [0-9]+" | tail -1), linear its $(echo "$r" | grep -oE "CONVERGED_RTOL iterations [0-9]+" | awk '{s+=$3} END {print s}'), SNESSolve $(echo "$r" | awk '/^SNESSolve/ {print $4 " s"}')"
done
# the same ex45 with PETSc's Chebyshev/Jacobi smoother, for the iteration-count comparison of the MG issue
mpiexec -n 1 $E45 $CU -da_grid_x 65 -da_grid_y 65 -da_grid_z 65 -pc_type mg -pc_mg_levels 4 -mg_levels_pc_type jacobi -ksp_converged_reason 2>&1 | grep -oE "CONVERGED_[A-Z_]+ iterations [0-9]+" | sed 's/^/INFO ex45 chebyshev\/jacobi (np 1): /' | tee -a "$OUT/summary.txt"
