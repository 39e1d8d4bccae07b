#!/bin/bash
# same_solve.sh RTOL -- REFERENCE COMMAND... -- TESTED COMMAND...
# The same solves reached by two routes (-pc_type hjmg and the PCMG options it stands for; hjmg's residual through the
# smoother and PCMG's): passes when both exit 0, neither prints DIVERGED, the converged-reason lines (KSP and SNES,
# every solve, in order) give the same reasons and iteration counts, and the monitors' norms ("true resid norm x", "SNES Function
# norm x", the examples' final "relres=x", which a run without monitors, such as KSPRICHARDSON's PCApplyRichardson,
# still prints, and -ksp_view_final_residual's "final norm of residual x"), in order, are as many and agree: |a - b| <= RTOL max(|a|, |b|, 1e-6 x the run's largest norm), so that
# the answers agree to rounding (a norm near the end of a solve, 1e-9 of the first, keeps about 6 digits).
set -u
. "$(dirname "$0")/its_args.sh"
[ $# -ge 1 ] || { echo "same_solve.sh: usage: RTOL -- REF... -- TEST..."; exit 2; }
rtol=$1
shift
its_args same_solve.sh "RTOL -- REF... -- TEST..." "$@"
its_run
printf '%s\n' "== reference: ${ref[*]}" "$rout" "== tested: ${tst[*]}" "$tout"
its() { grep -oE "(converged|did not converge) due to [A-Z_]+ iterations [0-9]+" | awk '{ printf "%s:%s ", $(NF - 2), $NF }'; }
# each norm with its kind: M (a monitor's, full precision), R (an example's relres=, printed with 4 digits) or F
# (-ksp_view_final_residual's true residual norm after each solve, 6 digits; it keeps KSPRICHARDSON's PCApplyRichardson)
norms() { grep -oE "(true resid norm |Function norm |relres=|final norm of residual )[-+0-9.eE]+" | sed -E 's/^relres=(.*)/\1 R/; s/^final norm of residual (.*)/\1 F/; s/.* ([-+0-9.eE]+)$/\1 M/'; }
ri=$(printf '%s\n' "$rout" | its)
ti=$(printf '%s\n' "$tout" | its)
ok=1
echo "same_solve: reasons and iterations: reference '$ri', tested '$ti'"
[ $rrc = 0 ] && [ $trc = 0 ] || { echo "same_solve: FAIL: nonzero exit status ($rrc, $trc)"; ok=0; }
if printf '%s\n' "$rout" "$tout" | grep -q DIVERGED; then echo "same_solve: FAIL: a solve diverged"; ok=0; fi
[ -n "$ri" ] && [ "$ri" = "$ti" ] || { echo "same_solve: FAIL: the reasons or iteration counts differ (or none printed)"; ok=0; }
report=$(paste <(printf '%s\n' "$rout" | norms) <(printf '%s\n' "$tout" | norms) | awk -F '\t' -v t="$rtol" '
  { n++; split($1, x, " "); split($2, y, " "); a[n] = x[1]; b[n] = y[1]; r[n] = (x[2] == "R" || y[2] == "R") ? 2e-3 : ((x[2] == "F" || y[2] == "F") ? 1e-5 : 0)
    if ($1 == "" || $2 == "") miss++; m = (a[n] < 0 ? -a[n] : a[n]); if (m > big) big = m }
  END {
    for (i = 1; i <= n; i++) {
      d = a[i] - b[i]; if (d < 0) d = -d
      s = (a[i] < 0 ? -a[i] : a[i]); u = (b[i] < 0 ? -b[i] : b[i]); if (u > s) s = u; if (1e-6 * big > s) s = 1e-6 * big
      if (d / s > worst) worst = d / s
      tt = t; if (tt < r[i]) tt = r[i] # printed digits (4: half a unit of the last is up to 1e-3 relative; 6: 1e-5)
      if (d > tt * s) bad++
    }
    printf "%d %d %d %g\n", n, miss, bad, worst }')
read -r n miss bad worst <<< "$report"
echo "same_solve: $n monitor norms compared, largest relative difference $worst (tolerance $rtol)"
[ "$n" -gt 0 ] && [ "$miss" = 0 ] || { echo "same_solve: FAIL: no monitor norms, or not as many in both"; ok=0; }
[ "$bad" = 0 ] || { echo "same_solve: FAIL: $bad norms differ by more than $rtol"; ok=0; }
if [ $ok = 1 ]; then echo "same_solve: PASS"; exit 0; fi
exit 1
