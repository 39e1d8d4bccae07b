#!/bin/bash
# compare_its.sh RATIO TRUETOL -- REFERENCE COMMAND... -- TESTED COMMAND...
# Runs both commands (each with -ksp_converged_reason and a true-residual monitor among its options) and passes when
#   * neither prints DIVERGED or "did not converge", and both exit 0,
#   * the tested command's linear iterations, summed over all its solves ("Linear ... solve converged due to ...
#     iterations N"), are at most RATIO times the reference's (e.g. PCJACOBI's or PCPBJACOBI's),
#   * every solve of the tested command ends with a true relative residual ||r||/||b|| (the last "true resid norm
#     ... ||r(i)||/||b|| x" line before each "Linear ... solve" line) at most TRUETOL or, if larger, the reference's
#     worst: no false convergence (GMRES stops on the preconditioned norm; a nearly singular preconditioner fools it).
# With RATIO "max:N" the tested command's total must be at most N (for references that converge in one iteration).
set -u
. "$(dirname "$0")/its_args.sh"
[ $# -ge 2 ] || { echo "compare_its.sh: usage: RATIO TRUETOL -- REF... -- TEST..."; exit 2; }
ratio=$1 truetol=$2
shift 2
its_args compare_its.sh "RATIO TRUETOL -- REF... -- TEST..." "$@"

# total linear iterations, and the largest final true relative residual of any solve (-1: no monitor line)
summarise() {
  awk '/true resid norm/ { for (i = 1; i <= NF; i++) if ($i ~ /\|\|r\(i\)\|\|\/\|\|b\|\|/) last = $(i + 1); seen = 1 }
       /Linear .*solve (converged|did not converge)/ { for (i = 1; i <= NF; i++) if ($i == "iterations") its += $(i + 1); n++;
         if (seen) { if (last + 0 > worst) worst = last + 0 } else worst = -1; seen = 0 }
       END { printf "%d %d %g\n", n, its, (n ? worst : -1) }'
}

ok=1
its_run
printf '%s\n' "== reference: ${ref[*]}" "$rout" | grep -v "KSP .*resid norm" 
printf '%s\n' "== tested: ${tst[*]}" "$tout" | grep -v "KSP .*resid norm"
read -r rn rits rworst <<< "$(printf '%s\n' "$rout" | summarise)"
read -r tn tits tworst <<< "$(printf '%s\n' "$tout" | summarise)"
echo "compare_its: reference $rn solves, $rits iterations (exit $rrc), worst final true relative residual $rworst; tested $tn solves, $tits iterations (exit $trc), worst final true relative residual $tworst"
[ $rrc = 0 ] && [ $trc = 0 ] || { echo "compare_its: FAIL: nonzero exit status"; ok=0; }
if printf '%s\n' "$rout" "$tout" | grep -Eq "DIVERGED|did not converge"; then echo "compare_its: FAIL: a solve diverged"; ok=0; fi
[ "$rn" -gt 0 ] && [ "$tn" -gt 0 ] || { echo "compare_its: FAIL: no converged-reason lines"; ok=0; }
if [ "${ratio#max:}" != "$ratio" ]; then
  limit=${ratio#max:}
else
  limit=$(awk -v r="$ratio" -v n="$rits" 'BEGIN { printf "%d", r * n }')
fi
[ "$tits" -le "$limit" ] || { echo "compare_its: FAIL: $tits iterations > $limit"; ok=0; }
awk -v w="$tworst" -v t="$truetol" -v r="$rworst" 'BEGIN { exit !(w >= 0 && (w <= t || w <= r)) }' || { echo "compare_its: FAIL: final true relative residual $tworst > $truetol and > the reference's $rworst (or no true-residual monitor)"; ok=0; }
if [ $ok = 1 ]; then echo "compare_its: PASS ($tits <= $limit iterations)"; exit 0; fi
exit 1
