# bench/gpu.sh part "roofline": B5 (classic sweep against a device-to-device copy; sub-iteration rate against
# shared-memory bandwidth). Sourced by bench/gpu.sh. Results: $OUT/bench/.
HJ_COMMIT=$(head -1 "$dev/COMMIT") PYTHON=python3 "$here/bench/paper.sh" "$B/bench" "$OUT/bench" ${B5_BUDGET:-60} b5 >"$OUT/roofline.log" 2>&1 || { log "FAIL roofline"; fails=$((fails + 1)); }
grep -iE "copy|classic|ratio|shared|GB/s|updates" "$OUT/roofline.log" | head -20 | tee -a "$OUT/summary.txt"
