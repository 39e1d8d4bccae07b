# bench/gpu.sh part "tuning": the tuning steps of bench/TUNING.md not measured before, side by side in one run.
# Sourced by bench/gpu.sh. Results: $OUT/tuning.log, $OUT/tuning/*.csv.
G="-dm_vec_type cuda -dm_mat_type aijcusparse -pc_hjacobi_backend cuda"
T=$OUT/tuning; mkdir -p "$T"
tstep() { # seconds label command...
  local need=$1 label=$2; shift 2
  if [ "$(left)" -lt "$need" ]; then log "SKIP $label (time)"; return; fi
  echo "== $label: $*" >>"$OUT/tuning.log"
  timeout "$need" "$@" >>"$OUT/tuning.log" 2>&1 || log "FAIL $label (rc $?)"
  log "done $label ($(left) s left)"
}
# 1. inner-sweep cost: fp64 vs fp32 sub-iterations, register and shared kernels, tile 32 and 64 (4096^2)
for K in registers shared; do
  for P in native single; do
    for t in 32 64; do
      tstep 30 "roofline $K $P tile $t" $B/bench/roofline -n 4096 -tile $t -k_list 16,32 $G -pc_hjacobi_cuda_kernel $K -pc_hjacobi_inner_precision $P -csv $T/roofline_${K}_${P}_$t.csv
    done
  done
done
grep -E "^== roofline|marginal|hierarchical" "$OUT/tuning.log" | tee -a "$OUT/summary.txt"
# (fp32 sub-iterations on B1 2048^2 and 64 x 64 tiles are timed by the paper part: bench/paper.sh b1single, b1)
