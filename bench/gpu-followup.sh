# bench/gpu.sh part "followup": the measurements the first H200 run left open, in priority order, each only if the
# deadline allows. Sourced by bench/gpu.sh. Results: $OUT/followup.log.
G="-dm_vec_type cuda -dm_mat_type aijcusparse -pc_hjacobi_backend cuda"
F=$OUT/followup.log
step() { # seconds-needed label command...: run if time is left
  local need=$1 label=$2; shift 2
  if [ "$(left)" -lt "$need" ]; then log "SKIP $label (time)"; return; fi
  echo "== $label: $*" >>"$F"
  timeout "$need" "$@" >>"$F" 2>&1 || log "FAIL $label (rc $?)"
  log "done $label ($(left) s left)"
}
# 1. the register-strip kernel against the shared-memory kernel: inner-sweep cost (B5 style), 4096^2
for K in shared registers; do
  step 40 "roofline kernel=$K" $B/bench/roofline -n 4096 -tile 32 -k_list 16,32 $G -pc_hjacobi_cuda_kernel $K
done
grep -E "^== roofline|classic|hierarchical|marginal" "$F" | tee -a "$OUT/summary.txt"
# 2. B1 at 2048^2 with the register kernel (classic's count computed exactly, as in the first run)
step 60 "B1 2048 registers" $B/bench/paper -mode 2d -n 2048 -rhs paper -max_seconds 50 -classic_count exact -validate_n 64 -configs 16:2:32x32,32:4:32x32 $G -pc_hjacobi_cuda_kernel registers -csv $OUT/b1_2048_registers.csv
grep -E "^(stock|classic|hierarchical|best)" "$F" | tee -a "$OUT/summary.txt"
# 3. ex45 on the GPU: the Richardson/hjacobi smoother against Chebyshev/Jacobi, same grid and levels
E45=$B/test/tutorial_ex45; GT="-dm_vec_type cuda -dm_mat_type aijcusparse -da_grid_x 65 -da_grid_y 65 -da_grid_z 65 -pc_type mg -pc_mg_levels 4 -ksp_converged_reason"
step 30 "ex45 cheb/jacobi" $E45 $GT -mg_levels_pc_type jacobi
step 30 "ex45 richardson/hjacobi w0.8" $E45 -dll_append $LIB $GT -mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi -mg_levels_pc_hjacobi_omega 0.8
grep -E "^== ex45|CONVERGED" "$F" | tee -a "$OUT/summary.txt"
# 4. B4 on seed 004's operator: CG + Jacobi against CG + hjacobi (o = 0, omega 0.8, k 16; both tile kernels)
V2=$B/examples/varcoef2d
step 45 "B4 varcoef2d cg+jacobi" $V2 -n 2049 $G -pc_type jacobi -ksp_max_it 20000
step 45 "B4 varcoef2d cg+hjacobi k16 w0.8" $V2 -n 2049 $G -pc_type hjacobi -pc_hjacobi_tile 32 -pc_hjacobi_subiterations 16 -pc_hjacobi_omega 0.8 -pc_hjacobi_overlap 0 -ksp_max_it 20000
step 45 "B4 varcoef2d cg+hjacobi k16 w0.8 registers" $V2 -n 2049 $G -pc_type hjacobi -pc_hjacobi_tile 32 -pc_hjacobi_subiterations 16 -pc_hjacobi_omega 0.8 -pc_hjacobi_overlap 0 -pc_hjacobi_cuda_kernel registers -ksp_max_it 20000
grep -E "^RESULT" "$F" | tee -a "$OUT/summary.txt"
# 5. B4 3D (symmetric form of ex45's operator), 257^3
M3=$B/examples/mg3d; G3="-da_grid_x 257 -da_grid_y 257 -da_grid_z 257 -symmetric -ksp_type cg -ksp_max_it 5000"
step 60 "B4 3d cg+jacobi" $M3 $G3 -dm_vec_type cuda -dm_mat_type aijcusparse -pc_type jacobi
step 60 "B4 3d cg+hjacobi k4 w0.8" $M3 $G3 $G -pc_type hjacobi -pc_hjacobi_tile 8 -pc_hjacobi_subiterations 4 -pc_hjacobi_omega 0.8 -pc_hjacobi_overlap 0
grep -E "^RESULT example=mg3d" "$F" | tee -a "$OUT/summary.txt"
