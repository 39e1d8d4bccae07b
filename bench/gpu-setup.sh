# bench/gpu.sh part "setup" (B7 and B3 one-shot, ../shared/BENCHMARKS.md): what a user's run pays for PCHJACOBI's setup.
#  1. bench/setup: PCHJacobiExtract (full and value-only) against MatMult of the same matrix, one run each, on the GPU
#     (3D 257^3 star, 2D 4097^2, 2D dof 4 at ex19 -da_refine 7's 385^2) and on the host (3D 129^3, host vectors)
#  2. unmodified ex45 257^3, one solve, -log_view -log_view_gpu_time: PCSetUp and KSPSolve (in PETSc 3.22 KSPSolve
#     does not contain the PCSetUp of ex45's KSPSetComputeOperators path: the one-shot cost is their sum) and the whole run
#     for PCMG + Richardson/hjacobi, PCMG + Chebyshev/Jacobi (PETSc's default smoother) and GAMG
#  3. unmodified SNES ex19 -da_refine 6 on the GPU: SNESSolve time, Newton and linear iterations, hjacobi against PCMG's
#     default smoother
# Sourced by bench/gpu.sh. Results: $OUT/setup.log, lines starting with SETUP/ONESHOT/SNES in summary.txt.
CU="-dm_vec_type cuda -dm_mat_type aijcusparse"
S=$B/bench/setup
for a in "-dim 3 -n 257 $CU -log_view_gpu_time" "-dim 2 -n 4097 $CU -log_view_gpu_time" "-dim 2 -n 385 -dof 4 $CU -log_view_gpu_time" "-dim 3 -n 129"; do
  [ "$(left)" -lt 60 ] && { log "SKIP setup $a (time)"; continue; }
  timeout 120 $S $a -reps ${SETUP_REPS:-5} >>"$OUT/setup.log" 2>&1 || log "FAIL setup $a"
  grep "^SETUP" "$OUT/setup.log" | tail -1 | tee -a "$OUT/summary.txt"
done
E45=$B/test/tutorial_ex45; E19=$B/test/tutorial_ex19
G3="-da_grid_x 257 -da_grid_y 257 -da_grid_z 257 -ksp_rtol 1e-8 -ksp_converged_reason"
oneshot() { # tag, options...: ex45 257^3 one solve on the GPU with -log_view
  local tag=$1; shift
  [ "$(left)" -lt 45 ] && { log "SKIP ONESHOT $tag (time)"; return; }
  local r
  r=$(timeout 120 $E45 -dll_append $LIB $CU $G3 "$@" -log_view -log_view_gpu_time 2>&1 | tee -a "$OUT/setup.log")
  log "ONESHOT ex45 257^3 $tag: $(echo "$r" | grep -oE "CONVERGED_[A-Z_]+ iterations [0-9]+" | tail -1); PCSetUp $(echo "$r" | awk '/^PCSetUp / {print $4 " s"}'); KSPSolve $(echo "$r" | awk '/^KSPSolve / {print $4 " s"}'); PCHJacobiExtract $(echo "$r" | awk '/^PCHJacobiExtract / {print $4 " s"}'); PCHJacobiEstimate $(echo "$r" | awk '/^PCHJacobiEstimate / {print $4 " s"}'); MatMult $(echo "$r" | awk '/^MatMult / {print $2 " calls " $4 " s"}'); run $(echo "$r" | awk '/^Time \(sec\):/ {print $3 " s"}')"
}
oneshot "PCMG+hjacobi" -pc_type mg -pc_mg_levels 7 -mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi -mg_levels_pc_hjacobi_tile 8
oneshot "PCMG+chebyshev/jacobi" -pc_type mg -pc_mg_levels 7 -mg_levels_pc_type jacobi
oneshot "GAMG" -pc_type gamg
snes() { # tag, options...: ex19 -da_refine 6 on the GPU
  local tag=$1; shift
  [ "$(left)" -lt 40 ] && { log "SKIP SNES $tag (time)"; return; }
  local r
  r=$(timeout 120 $E19 -dll_append $LIB $CU -da_refine 6 -snes_converged_reason -ksp_converged_reason -pc_type mg "$@" -log_view -log_view_gpu_time 2>&1 | tee -a "$OUT/setup.log")
  log "SNES ex19 -da_refine 6 $tag: $(echo "$r" | grep -oE "CONVERGED_FNORM[A-Z_]* iterations [0-9]+" | tail -1); linear its $(echo "$r" | grep -oE "Linear solve converged due to CONVERGED_[A-Z_]+ iterations [0-9]+" | awk '{s+=$NF} END {print s}'); SNESSolve $(echo "$r" | awk '/^SNESSolve / {print $4 " s"}'); PCSetUp $(echo "$r" | awk '/^PCSetUp / {print $4 " s"}'); PCHJacobiExtract $(echo "$r" | awk '/^PCHJacobiExtract / {print $2 " calls " $4 " s"}')"
}
snes "PCMG+hjacobi" -mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi
snes "PCMG default (chebyshev/sor)"
snes "PCMG+chebyshev/pbjacobi" -mg_levels_pc_type pbjacobi
