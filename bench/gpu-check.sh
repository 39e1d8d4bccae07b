# bench/gpu.sh part "check": every CUDA-labelled test (CUDA backend against the literal host reference, 1/2/4 ranks;
# identities; symmetry; ex45 on the GPU). Sourced by bench/gpu.sh.
( cd "$B" && ctest -L cuda --output-on-failure -j ${CHECK_J:-8} --timeout 120 ) >"$OUT/check.log" 2>&1
grep -E "tests passed|tests failed|Failed|\(Failed\)" "$OUT/check.log" | tee -a "$OUT/summary.txt"
grep -q "100% tests passed" "$OUT/check.log" || fails=$((fails + 1))
