# bench/gpu.sh part "defaults": the automatic damping (issue 12) and the fp32 correction form (issue 15) on the GPU.
#  1. B3 3D 257^3 and 2D 4097^2 (mg3d, PCMG + Richardson/hjacobi, k 4, 2 smoothing its): the default (omega chosen from the
#     operator) first, then in the same process fixed omegas 0.6 ... 1.0 (-sweep): V-cycles and KSPSolve time each
#  2. B4 with fp64 and fp32 sub-iterations (correction form), CG + Jacobi beside them: varcoef2d 2049^2 (tile 32, k 32)
#     and the symmetric 3D 257^3 (tile 8, k 4), omega 0.8, overlap 0
#  3. where a full PCSetUp's time goes at 257^3 (bench/setup -log_view -log_view_gpu_time)
# Sourced by bench/gpu.sh. Results: $OUT/defaults.log, RESULT/INFO lines in summary.txt.
CU="-dm_vec_type cuda -dm_mat_type aijcusparse"
M3=$B/examples/mg3d; V2=$B/examples/varcoef2d
G3="-da_grid_x 257 -da_grid_y 257 -da_grid_z 257"
G2="-dim 2 -da_grid_x 4097 -da_grid_y 4097"
HJD="-mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi -mg_levels_pc_hjacobi_subiterations 4"
drun() { # label, exe, args...
  local label=$1 exe=$2; shift 2
  if [ "$(left)" -lt 40 ]; then log "SKIP $label (time)"; return; fi
  echo "== $label" >>"$OUT/defaults.log"
  timeout 120 mpiexec -n 1 $exe $CU "$@" 2>&1 | tee -a "$OUT/defaults.log" | grep -E '^RESULT|omega [0-9.]+ .auto' | sed "s|^|INFO $label: |" | tee -a "$OUT/summary.txt"
}
drun "B3 3d default omega, then fixed" $M3 $G3 $HJD -mg_levels_pc_hjacobi_tile 8 -mg_levels_pc_view -sweep 4:0.6:2:8,4:0.7:2:8,4:0.8:2:8,4:0.9:2:8,4:1:2:8
drun "B3 2d default omega, then fixed" $M3 $G2 $HJD -sweep 4:0.6:2:32,4:0.7:2:32,4:0.8:2:32,4:0.9:2:32,4:1:2:32
drun "B4 cg+jacobi(varcoef2d)" $V2 -n 2049 -pc_type jacobi -ksp_max_it 20000
for ip in native single; do
  drun "B4 cg+hjacobi(varcoef2d,tile32,k32,w0.8,o0,$ip)" $V2 -n 2049 -pc_type hjacobi -pc_hjacobi_tile 32 -pc_hjacobi_subiterations 32 -pc_hjacobi_omega 0.8 -pc_hjacobi_overlap 0 -pc_hjacobi_inner_precision $ip -ksp_max_it 20000
done
drun "B4 cg+jacobi(3d,symmetric)" $M3 $G3 -symmetric -ksp_type cg -pc_type jacobi -ksp_max_it 5000
for ip in native single; do
  drun "B4 cg+hjacobi(3d,symmetric,tile8,k4,w0.8,o0,$ip)" $M3 $G3 -symmetric -ksp_type cg -pc_type hjacobi -pc_hjacobi_tile 8 -pc_hjacobi_subiterations 4 -pc_hjacobi_omega 0.8 -pc_hjacobi_overlap 0 -pc_hjacobi_inner_precision $ip -ksp_max_it 5000
done
if [ "$(left)" -gt 40 ]; then
  echo "== setup profile 257^3" >>"$OUT/defaults.log"
  timeout 60 $B/bench/setup -dim 3 -n 257 -reps 2 $CU -log_view -log_view_gpu_time >>"$OUT/defaults.log" 2>&1
  grep -E "^SETUP|^PCSetUp |^PCHJacobi|^KSPSetUp |^KSPSolve |^MatGetDiagonal|^VecSet |^VecCopy |^MatCUSPARSCopyTo|^KSPGMRESOrthog|^MatMult " "$OUT/defaults.log" | tail -14 | tee -a "$OUT/summary.txt"
fi
