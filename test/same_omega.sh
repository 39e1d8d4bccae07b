#!/bin/bash
# same_omega.sh MPIEXEC COMMAND...: runs a test program (its "hjtest config: ... omega W" line reports the omega in use
# after setup) on 1, 2 and 4 ranks and passes when the three choose the same omega from the same operator.
set -u
mpiexec=$1
shift
ws=()
for np in 1 2 4; do
  out=$("$mpiexec" -n $np "$@" 2>&1) || { printf '%s\n' "$out"; echo "same_omega: FAIL: exit status on $np ranks"; exit 1; }
  w=$(printf '%s\n' "$out" | grep -o "hjtest config: .*" | grep -o "omega [0-9.e+-]*" | head -1)
  echo "$np rank(s): $w"
  [ -n "$w" ] || { printf '%s\n' "$out"; echo "same_omega: FAIL: no omega in the config line"; exit 1; }
  ws+=("$w")
done
[ "${ws[0]}" = "${ws[1]}" ] && [ "${ws[0]}" = "${ws[2]}" ] || { echo "same_omega: FAIL: the ranks counts chose different omegas"; exit 1; }
echo "same_omega: PASS"
