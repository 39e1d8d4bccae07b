# bench/gpu.sh part "mg": B3 (PCMG smoother) and B4 (CG preconditioner) of BENCHMARKS.md, on the GPU, one process per
# solver, KSPSolve time of a second solve (the first sets up). Sourced by bench/gpu.sh. Results: $OUT/mg.csv.
CU="-dm_vec_type cuda -dm_mat_type aijcusparse"
M3=$B/examples/mg3d; V2=$B/examples/varcoef2d
G3="-da_grid_x ${MG_N:-257} -da_grid_y ${MG_N:-257} -da_grid_z ${MG_N:-257}"
echo "bench,solver,result" > "$OUT/mg.csv"
mgrun() { # label, exe, args...
  local label=$1 exe=$2; shift 2
  local r
  r=$(timeout 60 mpiexec -n 1 $exe $CU "$@" 2>&1 | tee -a "$OUT/mg.log" | grep '^RESULT' | tail -1)
  if [ -n "$r" ]; then log "INFO $label: ${r#RESULT }"; echo "${label%% *},\"${label#* }\",\"$r\"" >> "$OUT/mg.csv"
  else log "FAIL $label (no RESULT)"; fails=$((fails + 1)); fi
}
HJ="-mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi -mg_levels_pc_hjacobi_tile 8 -mg_levels_pc_hjacobi_omega 0.8"
mgrun "B3 mg+hjacobi(k4,w0.8,its2)" $M3 $G3 $HJ -mg_levels_pc_hjacobi_subiterations 4
mgrun "B3 mg+hjacobi(k4,w0.8,its1)" $M3 $G3 $HJ -mg_levels_pc_hjacobi_subiterations 4 -mg_levels_ksp_max_it 1
mgrun "B3 mg+chebyshev/jacobi" $M3 $G3 -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi
mgrun "B3 gamg" $M3 $G3 -pc_type gamg
mgrun "B4 cg+jacobi(3d,symmetric)" $M3 $G3 -symmetric -ksp_type cg -pc_type jacobi -ksp_max_it 5000
mgrun "B4 cg+hjacobi(3d,symmetric,k4,w0.8,o0)" $M3 $G3 -symmetric -ksp_type cg -pc_type hjacobi -pc_hjacobi_tile 8 -pc_hjacobi_subiterations 4 -pc_hjacobi_omega 0.8 -pc_hjacobi_overlap 0 -ksp_max_it 5000
mgrun "B4 cg+jacobi(varcoef2d)" $V2 -n ${VC_N:-2049} -pc_type jacobi -ksp_max_it 20000
mgrun "B4 cg+hjacobi(varcoef2d,k8,o0)" $V2 -n ${VC_N:-2049} -pc_type hjacobi -pc_hjacobi_tile 32 -pc_hjacobi_subiterations 8 -pc_hjacobi_overlap 0 -ksp_max_it 20000
mgrun "B4 cg+hjacobi(varcoef2d,k16,w0.8,o0)" $V2 -n ${VC_N:-2049} -pc_type hjacobi -pc_hjacobi_tile 32 -pc_hjacobi_subiterations 16 -pc_hjacobi_omega 0.8 -pc_hjacobi_overlap 0 -ksp_max_it 20000
