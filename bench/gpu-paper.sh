# bench/gpu.sh part "paper": B1 and B2 (the paper's Tables 1-4) with a time budget. Sourced by bench/gpu.sh.
HJ_COMMIT=$(head -1 "$dev/COMMIT") PYTHON=python3 "$here/bench/paper.sh" "$B/bench" "$OUT/bench" ${PAPER_BUDGET:-$(( $(left) - 20 ))} ${PAPER_PARTS:-b1 b1big b1single b2 b2big b2single} >"$OUT/paper.log" 2>&1 || { log "FAIL paper"; fails=$((fails + 1)); }
tail -30 "$OUT/paper.log" | tee -a "$OUT/summary.txt"
