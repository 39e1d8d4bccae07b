#!/bin/bash
# expect.sh [--error] [-e REGEX]... [-n REGEX]... [-i PREFIX] -- COMMAND [ARGS...]
# Runs COMMAND and passes when
#   * its exit status is 0 (or, with --error, nonzero: a bad input must stop the program),
#   * every -e REGEX matches the output (extended regex, case-insensitive),
#   * no -n REGEX matches it.
# With --error, a check line ("hjtest PASS|FAIL ...") or a test program's own error ("[hjtest] ...") means the library
# let the bad input through (a configuration line "hjtest config: ..." is allowed: an error may come at PCApply).
# -i PREFIX: COMMAND writes PetscInfo to PREFIX.<rank> (-info PREFIX:classes); those files (removed before the run,
# so a stale one cannot pass) are checked with the output, each whole: one rank wrote it, nothing is interleaved.
want_error=0
musts=()
nots=()
info=
while [ $# -gt 0 ]; do
  case "$1" in
    --error) want_error=1; nots+=("hjtest (PASS|FAIL)|\[hjtest\]"); shift ;;
    -e) musts+=("$2"); shift 2 ;;
    -n) nots+=("$2"); shift 2 ;;
    -i) info=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "expect.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -z "$info" ] || rm -f "$info".*
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
ok=1
if [ -n "$info" ]; then
  files=("$info".*)
  if [ -e "${files[0]}" ]; then
    for f in "${files[@]}"; do out+=$'\n'"== $f"$'\n'"$(cat "$f")"; done
    echo "expect.sh: PetscInfo of ${#files[@]} rank(s) in $info.*"
  else
    echo "expect.sh: FAIL: no PetscInfo file $info.*"; ok=0
  fi
fi
if [ $want_error = 1 ] && [ $rc = 0 ]; then echo "expect.sh: FAIL: exit status 0, expected an error"; ok=0; fi
if [ $want_error = 0 ] && [ $rc != 0 ]; then echo "expect.sh: FAIL: exit status $rc"; ok=0; fi
for r in "${musts[@]}"; do
  if ! printf '%s\n' "$out" | grep -Eiq -e "$r"; then echo "expect.sh: FAIL: output does not match /$r/"; ok=0; fi
done
for r in "${nots[@]}"; do
  if printf '%s\n' "$out" | grep -Eiq -e "$r"; then echo "expect.sh: FAIL: output matches /$r/"; ok=0; fi
done
if [ $ok = 1 ]; then echo "expect.sh: PASS (exit status $rc)"; exit 0; fi
exit 1
