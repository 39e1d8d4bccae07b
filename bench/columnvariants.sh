#!/usr/bin/env bash
# Variants of the column kernel (src/cuda/kernels/columns.cuh) built by hand beside the CUDA build, for one GPU run
# that times them side by side (suites with "columnalone_u", bench/suites.txt): HJ_COLUMN_UNROLL (the step loop's
# unroll factor) and HJ_COLUMN_SELECT (1: every thread computes every level, a select keeps frozen points).
#   bench/columnvariants.sh "1 0" "2 1" ...     -> .device/build/bench/columnalone_u1s0, columnalone_u2s1, ...
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/bench/device.env"
out=$HJ_DEVICE_DIR/build/bench
mkdir -p "$out"
for v in "$@"; do
  set -- $v
  "$HJ_CUDA_BIN/nvcc" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -DHJ_COLUMN_UNROLL="$1" -DHJ_COLUMN_SELECT="$2" \
    -I"$src/src" -I"$src/src/cuda/kernels" -I"$src/include" "$src/bench/columnalone.cu" -o "$out/columnalone_u$1s$2" &
done
wait
ls -la "$out"/columnalone_u*
