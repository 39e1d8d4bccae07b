#!/bin/bash
# same_its.sh -- REFERENCE COMMAND... -- TESTED COMMAND...
# The same solve on two backends (e.g. the host backend and the CUDA backend of an unmodified PETSc tutorial) must
# converge with the same count: passes when both exit 0, neither prints DIVERGED, and the last "CONVERGED_<reason>
# iterations N" line of each (the outer solve's: ksp or snes -*_converged_reason) is the same.
set -u
. "$(dirname "$0")/its_args.sh"
its_args same_its.sh "-- REF... -- TEST..." "$@"
its_run
printf '%s\n' "== reference: ${ref[*]}" "$rout" "== tested: ${tst[*]}" "$tout"
last() { grep -oE "CONVERGED_[A-Z_]+ iterations [0-9]+" | tail -1; }
r=$(printf '%s\n' "$rout" | last)
t=$(printf '%s\n' "$tout" | last)
echo "same_its: reference '$r' (exit $rrc), tested '$t' (exit $trc)"
if [ $rrc = 0 ] && [ $trc = 0 ] && [ -n "$r" ] && [ "$r" = "$t" ] && ! printf '%s\n' "$rout" "$tout" | grep -q DIVERGED; then
  echo "same_its: PASS"
  exit 0
fi
echo "same_its: FAIL"
exit 1
