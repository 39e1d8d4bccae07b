# bench/gpu.sh part "levels": where a PCMG V-cycle with the hjacobi smoother spends its time, level by level
# (-pc_mg_log: PETSc's MGSmooth/MGResid/MGInterp events per level), on B3's 3D and 2D grids; the question is whether
# launch latency on the coarse levels matters (CUDA graphs or a persistent kernel would only pay off if it did).
# Sourced by bench/gpu.sh. Results: $OUT/levels.log.
CU="-dm_vec_type cuda -dm_mat_type aijcusparse"
HJ="-mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi -mg_levels_pc_hjacobi_omega 0.8"
for g in "-da_grid_x 257 -da_grid_y 257 -da_grid_z 257 -mg_levels_pc_hjacobi_tile 8" "-dim 2 -da_grid_x 4097 -da_grid_y 4097"; do
  if [ "$(left)" -lt 40 ]; then log "SKIP levels $g (time)"; continue; fi
  echo "== levels: $g" >>"$OUT/levels.log"
  timeout 90 $B/examples/mg3d $CU $g $HJ -pc_mg_log -log_view -log_view_gpu_time >>"$OUT/levels.log" 2>&1 || log "FAIL levels $g"
  grep -E "^RESULT" "$OUT/levels.log" | tail -1 | tee -a "$OUT/summary.txt"
done
grep -E "^== levels|^MGSmooth Level|^MGResid Level|^MGInterp Level|^KSPSolve |^PCApply |^PCHJacobi" "$OUT/levels.log" | tee -a "$OUT/summary.txt"
