#!/bin/bash
# valgrind.sh PROGRAM [ARGS...]: runs one rank under valgrind and fails when a memory error (invalid access, use of
# uninitialised values) or a "definitely lost" block has a frame in libpetsc-hjacobi; OpenMPI's and PETSc's own
# reports (which valgrind always shows) are left out. Prints the records that count.
log=$(mktemp)
valgrind --leak-check=full --show-leak-kinds=definite --num-callers=40 --log-file="$log" "$@"
rc=$?
ours=$(awk 'BEGIN{RS="==[0-9]+== \n"} /(Invalid|uninitialised|definitely lost|Mismatched|overlap)/ && /libpetsc-hjacobi/ {print; print "----"; n++} END{exit n>0}' "$log"); bad=$?
printf '%s\n' "$ours"
echo "valgrind.sh: $(grep -c 'definitely lost in' "$log") definitely-lost records in all, $(grep -c '^==[0-9]*== \(Invalid\|Conditional\|Use of uninit\)' "$log") memory errors in all; program exit status $rc"
rm -f "$log"
if [ $rc != 0 ]; then echo "valgrind.sh: FAIL: exit status $rc"; exit 1; fi
if [ $bad != 0 ]; then echo "valgrind.sh: FAIL: reports with libpetsc-hjacobi frames (above)"; exit 1; fi
echo "valgrind.sh: PASS (no report in libpetsc-hjacobi)"
