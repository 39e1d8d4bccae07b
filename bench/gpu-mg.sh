# bench/gpu.sh part "mg": B3 (PCMG smoother) and B4 (CG preconditioner) of BENCHMARKS.md, on the GPU, one process per
# solver, KSPSolve time of a second solve (the first sets up). Sourced by bench/gpu.sh. Results: $OUT/mg.csv (one row
# per RESULT line), $OUT/mg.log (the programs' output).
# B3 3D and 2D: PCMG + Richardson/hjacobi (and, in the same process, a sweep of smoother settings: k, omega, smoothing
# iterations, tile) against PCMG + Chebyshev/Jacobi and GAMG. B4: CG + hjacobi against CG + Jacobi.
CU="-dm_vec_type cuda -dm_mat_type aijcusparse"
M3=$B/examples/mg3d; V2=$B/examples/varcoef2d
N3=${MG_N:-257}; N2=${MG_N2:-4097}; NV=${VC_N:-2049}
G3="-da_grid_x $N3 -da_grid_y $N3 -da_grid_z $N3"
G2="-dim 2 -da_grid_x $N2 -da_grid_y $N2"
echo "bench,label,result" > "$OUT/mg.csv"
mgrun() { # label, exe, args...: every RESULT line of the run becomes a CSV row
  local label=$1 exe=$2; shift 2
  local r
  if [ "$(left)" -lt 40 ]; then log "SKIP $label (time)"; return; fi
  r=$(timeout 90 mpiexec -n 1 $exe $CU "$@" 2>&1 | tee -a "$OUT/mg.log" | grep '^RESULT')
  if [ -n "$r" ]; then
    while IFS= read -r line; do echo "${label%% *},\"${label#* }\",\"$line\"" >> "$OUT/mg.csv"; done <<< "$r"
    log "INFO $label: $(echo "$r" | head -1 | sed 's/^RESULT //')"
  else log "FAIL $label (no RESULT)"; fails=$((fails + 1)); fi
}
HJ="-mg_levels_ksp_type richardson -mg_levels_pc_type hjacobi -mg_levels_pc_hjacobi_omega 0.8"
# smoother settings swept in the same process, applied one after the other (k:omega:its:tile; every entry sets a tile)
SW3=4:0.8:2:8,4:0.8:1:8,2:0.8:2:8,2:0.8:1:8,8:0.8:1:8,4:0.7:2:8,4:0.9:2:8,4:1:2:8,2:0.7:1:8,4:0.8:1:16,8:0.8:1:16,4:0.8:2:4,2:0.8:2:4,1:0.8:2:8,1:0.8:3:8
SW2=4:0.8:2:32,4:0.8:1:32,2:0.8:2:32,2:0.8:1:32,8:0.8:1:32,4:0.7:2:32,4:0.9:2:32,4:1:2:32,8:0.8:2:32,16:0.8:1:32,4:0.8:1:16,8:0.8:1:64,1:0.8:2:32,1:0.8:3:32
mgrun "B3 3d mg+hjacobi(tile8,k4,w0.8,its2)+sweep" $M3 $G3 $HJ -mg_levels_pc_hjacobi_tile 8 -mg_levels_pc_hjacobi_subiterations 4 -sweep $SW3
mgrun "B3 3d mg+chebyshev/jacobi" $M3 $G3 -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi
mgrun "B3 3d gamg" $M3 $G3 -pc_type gamg
mgrun "B3 2d mg+hjacobi(tile32,k4,w0.8,its2)+sweep" $M3 $G2 $HJ -mg_levels_pc_hjacobi_subiterations 4 -sweep $SW2
mgrun "B3 2d mg+chebyshev/jacobi" $M3 $G2 -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi
mgrun "B3 2d gamg" $M3 $G2 -pc_type gamg
mgrun "B4 cg+jacobi(3d,symmetric)" $M3 $G3 -symmetric -ksp_type cg -pc_type jacobi -ksp_max_it 5000
mgrun "B4 cg+hjacobi(3d,symmetric,tile8,k4,w0.8,o0)" $M3 $G3 -symmetric -ksp_type cg -pc_type hjacobi -pc_hjacobi_tile 8 -pc_hjacobi_subiterations 4 -pc_hjacobi_omega 0.8 -pc_hjacobi_overlap 0 -ksp_max_it 5000
mgrun "B4 cg+hjacobi(3d,symmetric,tile8,k4,w0.8,o0,single)" $M3 $G3 -symmetric -ksp_type cg -pc_type hjacobi -pc_hjacobi_tile 8 -pc_hjacobi_subiterations 4 -pc_hjacobi_omega 0.8 -pc_hjacobi_overlap 0 -pc_hjacobi_inner_precision single -ksp_max_it 5000
mgrun "B4 cg+jacobi(varcoef2d)" $V2 -n $NV -pc_type jacobi -ksp_max_it 20000
for c in "32 16 0.8" "32 32 0.8" "64 32 0.8" "64 64 0.8"; do
  read -r vt vk vw <<<"$c"
  mgrun "B4 cg+hjacobi(varcoef2d,tile$vt,k$vk,w$vw,o0)" $V2 -n $NV -pc_type hjacobi -pc_hjacobi_tile $vt -pc_hjacobi_subiterations $vk -pc_hjacobi_omega $vw -pc_hjacobi_overlap 0 -ksp_max_it 20000
  mgrun "B4 cg+hjacobi(varcoef2d,tile$vt,k$vk,w$vw,o0,single)" $V2 -n $NV -pc_type hjacobi -pc_hjacobi_tile $vt -pc_hjacobi_subiterations $vk -pc_hjacobi_omega $vw -pc_hjacobi_overlap 0 -pc_hjacobi_inner_precision single -ksp_max_it 20000
done
python3 "$here/bench/mgsummary.py" "$OUT/mg.csv" -o "$OUT/mg.md" >/dev/null 2>&1 || log "FAIL mgsummary"
