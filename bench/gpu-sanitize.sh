# bench/gpu.sh part "sanitize": compute-sanitizer memcheck and racecheck on CUDA cases (tile kernel 2D/3D, star/box,
# variable/constant, clipped edge tiles, classic k = 1, the register-strip kernel with partial strips, the point-block
# kernel (dof 3 and 4, single inner precision), the rows kernel (no y couplings), single precision in correction form
# (registers, 3D shared)); every case also runs the device extraction and PCApplyTranspose's transposed tile kernel.
# cuSPARSE's own kernels (PETSc's MatMult/MatMultTranspose) are excluded: racecheck reports hazards inside
# cusparse::csrmv_v3_kernel (run 3 of the H100 results), which are not ours to fix. Sourced by bench/gpu.sh.
CS=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
TR=$B/test/test_reference
CUB="-dm_vec_type cuda -dm_mat_type aijcusparse -pc_hjacobi_backend cuda"
cases=(
  "-dim 2 -da_grid_x 67 -da_grid_y 45 -pc_hjacobi_tile 16,8 -pc_hjacobi_overlap 4,2 -pc_hjacobi_subiterations 2 -pc_hjacobi_cycles 2"
  "-dim 3 -kind box -n 23 -pc_hjacobi_tile 8,6,5 -pc_hjacobi_overlap 2,0,2 -pc_hjacobi_subiterations 3"
  "-constant -dim 2 -n 45 -pc_hjacobi_tile 16 -pc_hjacobi_overlap 2 -pc_hjacobi_subiterations 1"
  "-dim 2 -da_grid_x 71 -da_grid_y 61 -pc_hjacobi_cuda_kernel registers -pc_hjacobi_cuda_strip 8 -pc_hjacobi_tile 32,13 -pc_hjacobi_overlap 4,2 -pc_hjacobi_subiterations 3"
  "-dof 3 -dim 3 -kind box -n 13 -pc_hjacobi_tile 6,5,7 -pc_hjacobi_overlap 2,0,2 -pc_hjacobi_subiterations 2"
  "-dof 4 -dim 2 -periodic -n 29 -pc_hjacobi_tile 8 -pc_hjacobi_overlap 2 -pc_hjacobi_subiterations 3 -pc_hjacobi_inner_precision single -tol 1e-5"
  "-zero_y -dim 2 -da_grid_x 77 -da_grid_y 23 -pc_hjacobi_tile 16,5 -pc_hjacobi_overlap 4,2 -pc_hjacobi_subiterations 3"
  "-dim 2 -da_grid_x 71 -da_grid_y 61 -pc_hjacobi_cuda_kernel registers -pc_hjacobi_tile 32,13 -pc_hjacobi_overlap 4,2 -pc_hjacobi_subiterations 3 -pc_hjacobi_inner_precision single -tol 1e-5"
  "-dim 3 -kind box -n 19 -pc_hjacobi_tile 8,6,5 -pc_hjacobi_overlap 2 -pc_hjacobi_subiterations 3 -pc_hjacobi_cycles 2 -pc_hjacobi_inner_precision single -tol 1e-5"
)
if [ -z "$CS" ]; then
  log "SKIP sanitize: no compute-sanitizer"
else
  i=0
  for c in "${cases[@]}"; do
    for tool in memcheck racecheck; do
      i=$((i + 1))
      if timeout 60 $CS --tool $tool --kernel-name-exclude kns=cusparse --error-exitcode 99 $TR $CUB $c >"$OUT/sanitize-$tool-$i.log" 2>&1 && grep -q "ERROR SUMMARY: 0 errors\|RACECHECK SUMMARY: 0 hazards" "$OUT/sanitize-$tool-$i.log"; then
        log "PASS sanitize $tool: $c ($(grep -hoE '(ERROR|RACECHECK) SUMMARY: [^$]*' "$OUT/sanitize-$tool-$i.log" | head -1))"
      else
        log "FAIL sanitize $tool: $c"; tail -20 "$OUT/sanitize-$tool-$i.log"; fails=$((fails + 1))
      fi
    done
  done
  cat "$OUT"/sanitize-*.log > "$OUT/sanitize.log"; rm -f "$OUT"/sanitize-*-*.log
fi
