# its_args.sh: sourced by same_its.sh and compare_its.sh, which both take "-- REFERENCE COMMAND... -- TESTED COMMAND..."
# and run the two commands one after the other.

# its_args NAME USAGE ARGS...: splits ARGS ("-- REF... -- TEST...") into the arrays ref and tst; a malformed list
# exits 2 with "NAME: usage: USAGE"
its_args() {
  local name=$1 usage=$2
  shift 2
  [ "${1:-}" = "--" ] || { echo "$name: usage: $usage"; exit 2; }
  shift
  ref=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do ref+=("$1"); shift; done
  [ $# -gt 0 ] || { echo "$name: missing the second --"; exit 2; }
  shift
  tst=("$@")
  [ ${#ref[@]} -gt 0 ] && [ ${#tst[@]} -gt 0 ] || { echo "$name: an empty command"; exit 2; }
}

# its_run: runs ref then tst; their output (stdout and stderr) in rout and tout, their exit status in rrc and trc
its_run() {
  rout=$("${ref[@]}" 2>&1); rrc=$?
  tout=$("${tst[@]}" 2>&1); trc=$?
}
