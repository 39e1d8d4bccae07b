#!/bin/bash
# best_omega.sh PERCENT -- MG3D COMMAND... -sweep k:w1:its,k:w2:its,...
# mg3d prints one RESULT line for its first solve (the PC's defaults: omega chosen from the operator) and one per
# -sweep entry (a fixed omega). Passes when the default's iterations are at most PERCENT % above the best entry's.
set -u
pct=$1
shift
[ "$1" = "--" ] && shift
out=$("$@" 2>&1); rc=$?
printf '%s\n' "$out" | grep RESULT
[ $rc = 0 ] || { echo "best_omega: FAIL: exit status $rc"; exit 1; }
printf '%s\n' "$out" | awk -v pct="$pct" '
  /^RESULT/ { its = -1; for (i = 1; i <= NF; i++) if ($i ~ /^its=/) its = substr($i, 5) + 0
              if ($0 !~ /reason=CONVERGED/) bad = 1
              if ($0 ~ /sweep=/) { if (best < 0 || its < best) { best = its; which = $0 } ; n++ } else def = its }
  BEGIN { best = -1; def = -1 }
  END { if (bad || def < 0 || n == 0) { print "best_omega: FAIL: missing or unconverged RESULT lines"; exit 1 }
        sub(/.*sweep=/, "", which); sub(/ .*/, "", which)
        printf "best_omega: default %d iterations, best fixed %d (%s), limit %.2f\n", def, best, which, best * (1 + pct / 100)
        if (def > best * (1 + pct / 100)) { print "best_omega: FAIL"; exit 1 }
        print "best_omega: PASS" }'
