# bench/gpu.sh part "r16": strips of 16 points in the register kernel (64 x 64 tiles in 256 threads instead of 8-point
# strips in 512): its tests, the inner-sweep cost against R = 8, and B1 2048^2 in fp64 with 64 x 64 tiles against the
# best 32 x 32 configuration. Sourced by bench/gpu.sh. Results: $OUT/r16.log, $OUT/r16/*.csv.
# (In run8 `auto` chose R = 16 for the 64-wide tiles of the B1 line and R = 4 for 32 x 32; since then `auto` picks 4 or
# 8, so the B1 line now measures R = 8 for tile 64.)
G="-dm_vec_type cuda -dm_mat_type aijcusparse -pc_hjacobi_backend cuda"
mkdir -p "$OUT/r16"
( cd "$B" && ctest -L cuda -R reg --output-on-failure -j 4 --timeout 60 ) >"$OUT/r16-check.log" 2>&1
grep -E "tests passed|tests failed|\(Failed\)" "$OUT/r16-check.log" | tee -a "$OUT/summary.txt"
grep -q "100% tests passed" "$OUT/r16-check.log" || fails=$((fails + 1))
for R in 8 16; do
  timeout 40 $B/bench/roofline -n 4096 -tile 64 -k_list 16,32 $G -pc_hjacobi_cuda_kernel registers -pc_hjacobi_cuda_strip $R -csv $OUT/r16/roofline_r$R.csv >>"$OUT/r16.log" 2>&1 || { log "FAIL roofline R $R"; fails=$((fails + 1)); }
done
grep -E "marginal|hierarchical" "$OUT/r16.log" | tee -a "$OUT/summary.txt"
if [ "$(left)" -gt 45 ]; then
  timeout $(( $(left) - 10 )) $B/bench/paper -mode 2d -n 2048 -rhs paper -max_seconds $(( $(left) - 25 )) -classic_count exact -validate_n 0 -configs 32:4:32x32,64:8:64x64,32:4:64x64,64:4:64x64 $G -csv $OUT/r16/b1_2048_r16.csv >>"$OUT/r16.log" 2>&1 || { log "FAIL B1 r16"; fails=$((fails + 1)); }
else log "SKIP B1 r16 (time)"; fi
grep -E "^(classic|stock|hierarchical|best)" "$OUT/r16.log" | tee -a "$OUT/summary.txt"
