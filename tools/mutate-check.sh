#!/usr/bin/env bash
# tools/mutate-check.sh [-l | -c] BUILD_DIR [NAME...]
# Shows that the tests can fail. Each mutation below removes one check of the library (an error it raises) or changes
# one decision, rebuilds the library and runs the tests named with it, every one of which must then FAIL; the source
# is restored afterwards (also on an interrupt). First the same tests run on the unchanged library and must pass.
# One more breaks what the configure relies on: tutorials_missing (the tutorial sources are not found: the test
# tutorial_sources must fail); it configures a scratch build against the same PETSc.
# With NAMEs only those mutations run; -l lists them; -c only checks that every mutation's text is still in its file
# (CI runs that, so that the mutations follow the sources). Exit status 0 when every mutation is caught.
# Not run by CI (one library rebuild per mutation); run it after changing a check, its message or the test that guards
# it. For a build without CUDA (Debian's PETSc: `make test` builds into ./build): the CUDA backend's checks and their
# cuda_* tests need the GPU machine.
set -uo pipefail
cd "$(dirname "$0")/.."

muts=() # NAME|FILE|TESTS (alternatives of ctest names); FROM and TO in from_NAME / to_NAME
m() { muts+=("$1|$2|$5"); printf -v "from_$1" '%s' "$3"; printf -v "to_$1" '%s' "$4"; }

# -- the errors (test/errors.cmake and others): each test must match the library's own message
m tile_ge_1 src/pc/hjacobi/setters.cxx 'PetscCheck(t[d] >= 1,' 'PetscCheck(PETSC_TRUE || t[d] >= 1,' 'err_tile0'
m overlap_even src/pc/hjacobi/setters.cxx 'PetscCheck(o[d] >= 0 && o[d] % 2 == 0,' 'PetscCheck(PETSC_TRUE || o[d] % 2 == 0,' 'err_overlap_odd|err_overlap_odd_y|err_overlap_negative'
m overlap_lt_tile src/pc/hjacobi/hjacobi.cxx 'PetscCheck(hj->sw.overlap[d] < hj->sw.tile[d],' 'PetscCheck(PETSC_TRUE,' 'err_overlap_ge_tile|err_overlap_ge_tile_y'
m subiterations_ge_1 src/pc/hjacobi/setters.cxx 'PetscCheck(k >= 1,' 'PetscCheck(PETSC_TRUE,' 'err_subiterations0'
m cycles_ge_1 src/pc/hjacobi/setters.cxx 'PetscCheck(c >= 1,' 'PetscCheck(PETSC_TRUE,' 'err_cycles0'
m omega_option src/pc/hjacobi/hjacobi.cxx 'PetscCheck(w > 0 && w < 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_hjacobi_omega' \
  'PetscCheck(PETSC_TRUE, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_hjacobi_omega' 'err_omega0|err_omega2|err_omega_minus1|err_omega_minus2|err_omega_nan'
m omega_api src/pc/hjacobi/setters.cxx 'PetscCheck(w > 0 && w < 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCHJACOBI omega' \
  'PetscCheck(PETSC_TRUE, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCHJACOBI omega' 'omega_known_limited'
m backend_name src/pc/hjacobi/hjacobi.cxx 'PetscOptionsEnum("-pc_hjacobi_backend",' 'PetscOptionsEnum("-pc_hjacobi_backend_unread",' 'err_backend_foo'
m backend_no_cuda src/backend/backends.cxx 'SETERRQ(PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "-pc_hjacobi_backend cuda: this build' \
  'if (0) SETERRQ(PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "-pc_hjacobi_backend cuda: this build' 'err_backend_cuda'
m extract_device src/host/backend.cxx 'PetscCheck(hj->extract != HJ_EXTRACT_DEVICE,' 'PetscCheck(PETSC_TRUE,' 'err_extract_device_host'
m no_dm src/grid/grid.cxx 'PetscCheck(dm, ' 'PetscCheck(PETSC_TRUE || dm, ' \
  'err_no_dm|err_sub_bjacobi_np2|err_sub_asm_no_dm_np2|err_sub_asm_overlap0_np2|err_sub_gamg|err_sub_redundant_np2'
m not_dmda src/grid/grid.cxx 'PetscCheck(isda || misda,' 'PetscCheck(PETSC_TRUE,' 'err_not_dmda'
m asm_da_overlap src/grid/grid.cxx 'PetscCheck(xs[d] == nxs[d] && xm[d] == nxm[d],' 'PetscCheck(PETSC_TRUE,' 'err_sub_asm_da_overlap_np2'
m pmat_readable src/extract/stencil.cxx 'PetscCheck(hasrow && assembled,' 'PetscCheck(PETSC_TRUE || assembled,' 'rob_err_shell_pmat_dm'
m width_1 src/extract/stencil.cxx 'PetscCheck(!gflags[0],' 'PetscCheck(PETSC_TRUE,' 'err_wide_entries'
m singular_block src/extract/stencil.cxx 'PetscCheck(dof == 1, comm, PETSC_ERR_MAT_LU_ZRPVT' 'PetscCheck(PETSC_TRUE, comm, PETSC_ERR_MAT_LU_ZRPVT' 'err_dof2_singular_block'
m zero_diagonal src/extract/stencil.cxx '  SETERRQ(comm, PETSC_ERR_MAT_LU_ZRPVT, "PCHJACOBI divides' \
  '  if (dof) PetscFunctionReturn(PETSC_SUCCESS);
  SETERRQ(comm, PETSC_ERR_MAT_LU_ZRPVT, "PCHJACOBI divides' 'err_zero_diag|err_missing_diag|err_np2_zero_diag'
m dof_le_8 src/grid/layout.cxx 'PetscCheck(dof >= 1 && dof <= HJ_MAX_DOF,' 'PetscCheck(dof >= 1,' 'err_dof9'

# -- decisions that change a result or its stated reason (issue 22: mutants the suite let through)
m omega_rho src/omega/omega.cxx '#define HJ_OMEGA_RHO  0.9 ' '#define HJ_OMEGA_RHO  0.95' 'omega_known_limited|omega_known_limited_np2'
m omega_real_part src/omega/omega.cxx '    if (a <= 0 && ineg < 0) ineg = i;' '' 'omega_known_indefinite'
m omega_no_fit src/omega/omega.cxx 'if (w > hi || w <= 0 || w >= 2) {' 'if (w <= 0 || w >= 2) {' 'omega_known_no_omega'
m omega_nzstate src/omega/spectrum.cxx 'id != sp->id || nzstate != sp->nzstate ||' 'id != sp->id ||' 'omega_known_new_nonzeros'
m rich_b_zero src/solve/richardson.cxx '  if (rnorm0 == 0.0) rnorm0 = rnorm;' '' 'rich_tol_2d|rich_tol_3d_box_m1|rich_tol_np2_2d_m5|rich_tol_np4_3d'
m rich_norm_none src/solve/richardson.cxx ' && nt != KSP_NORM_NONE' '' 'rich_tol_2d|rich_tol_3d_box_m1|rich_tol_np2_2d_m5|rich_tol_np4_3d'
m extract_dropped_zero src/extract/pass.cxx ' || (pat.dst[c1][e] == kDrop && own.aa[s0 + e] != (PetscScalar)0)' '' 'val_corner_row|val_corner_row_dof2_3d'
m default_tile_two src/arith/tilefit.hpp 'if (mmax[d] > t[d] && mmax[d] < 2 * t[d]) t[d] = mmax[d];' 'if (mmax[d] > t[d] && mmax[d] <= 2 * t[d]) t[d] = mmax[d];' \
  'rob_tile_fit'
m default_tile_host src/pc/hjacobi/hjacobi.cxx '(long long)sizeof(PetscScalar), ops->device, mmax, t);' '(long long)sizeof(PetscScalar), PETSC_TRUE, mmax, t);' 'ref_default_tile_3d|ref_default_tile_3d_dof2_host|ref_default_tile_2d_rows'
m default_tile_host_even src/arith/tilefit.hpp 't[d] = d < dim ? (n <= 1 ? (m > target ? m : target) : (m + n - 1) / n) : 1;' 't[d] = d < dim ? (n <= 1 ? (m > target ? m : target) : target) : 1;' 'ref_default_tile_3d|rob_tile_fit'
# -- the sweeps' weights (issue 21): the host cycle's weight of sweep it, the Chebyshev nodes, the Leja order, the squared
# form, the interval's checks
m host_sweep_weight src/host/cycle.cxx 'const S           w    = A->w[it];' 'const S           w    = A->w[0];' 'wts_chsq_2d_star_o0_k8|tr_np2_wts_cheb_3d_box_o0_k5'
# -- the host cycle's fast paths (test/host.cmake): constant rows, the ends of their rows, a constant stencil, the zero
# start, the halo of the second buffer, vector remainders, the owned points of clipped and overlapping tiles
m host_const_rows src/host/cycle.cxx 'for (int s = 0; s < NO; s++) crow[s] = cr->coef[s];' 'for (int s = 0; s < NO; s++) crow[s] = cr->coef[0];' \
  'host_shell_2d|host_shell_3d|host_shell_3d_box|host_shell_3d_np4'
m host_const_xrows src/host/backend.cxx 'q[no] = st->invdiag[u];' 'q[no] = c->invdiag;' 'host_shell_1d|host_shell_2d|host_shell_3d|host_shell_3d_k1|host_shell_2d_np2'
m host_const_all src/host/cycle.cxx '    cdinv = st->cinvdiag;' '    cdinv = st->cinvdiag * 1.01;' 'host_constant_3d|host_constant_2d_np2|host_constant_view'
m host_zero_start src/host/backend.cxx 'args.xpad = zeroguess && c == 0 ? nullptr : h->xpad;' 'args.xpad = h->xpad;' 'host_rows_3d|host_shell_3d'
m host_second_halo src/host/cycle.cxx 'for (int q = 0; q < 2 && q < k - 1; q++) {' 'for (int q = 0; q < 1 && q < k - 1; q++) {' 'host_rows_3d|host_shell_2d|host_rows_2d_dof3'
m host_remainder src/host/cycle.cxx '  for (int i = 0; i < n; i++) y[i] = hj::PointUpdate<DIM, KIND>([&](int s) { return xs[s][i]; }, x[i], b[i], dinv, w,' \
  '  for (int i = 0; i < n - n % 2; i++) y[i] = hj::PointUpdate<DIM, KIND>([&](int s) { return xs[s][i]; }, x[i], b[i], dinv, w,' 'host_shell_3d|host_constant_3d'
m host_stencil_mult_used src/host/backend.cxx 'PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCHJacobiStencilMult_C", HJStencilMult_Host));' '' 'host_estimate_stencil'
m host_stencil_mult_diag src/host/cycle.cxx '+ x[i] / dinv[i])' '+ x[i] * dinv[i])' 'omega_known_limited|omega_known_limited_np2|wts_cheb_2d_star_o0_k5'
m host_owned_only src/host/cycle.cxx 'const int lo[3] = {last ? tb.o0[0] : 0,' 'const int lo[3] = {last ? 0 : 0,' 'host_shell_1d|host_shell_3d'
m cheb_nodes src/weights/weights.cxx '(2 * j + 1) * PETSC_PI / (2 * k)' '(2 * j + 2) * PETSC_PI / (2 * k)' 'wts_cheb_2d_star_o0_k5|wts_chsq_2d_star_o0_k8'
m cheb_squared src/weights/weights.cxx 'wt->w[2 * j] = wt->w[2 * j + 1] = wt->w[k - h + j];' 'wt->w[2 * j] = wt->w[2 * j + 1] = 1 / hi;' 'wts_chsq_2d_star_o0_k8|wts_auto_chsq'
m cheb_interval src/weights/weights.cxx 'PetscCheck(lo >= 0 && hi >= 0 && (lo == 0 || hi == 0 || (lo < hi && hi - lo > HJ_CHEB_WIDTH * hi)),' 'PetscCheck(PETSC_TRUE,' 'err_wts_interval_reversed'
m cheb_role src/weights/weights.cxx 'return (PetscBool)(prefix && strstr(prefix, "mg_levels_"));' 'return PETSC_FALSE;' 'wts_auto_constant_mg'
# -- the CUDA kernels as the emulation compiles them (the headers themselves, no copy): every sweep must take its own weight
m emulate_sweep_weight src/cuda/kernels/kernels.cuh 'const S omega = P.w[it];' 'const S omega = P.w[0];' 'emulate_cuda_kernels|emulate_cuda_kernels_3d'
# -- hjmg's gathered coarse levels (src/mg/gather.cxx): the transpose through PCTELESCOPE (the adjoint identity of
#    test_hjmg), the inner levels rediscretized where the outer ones are, and the telescope made again after a reset
#    (-malloc_dump finds the inner KSP the reset kept)
m ghost_faces src/grid/layout.cxx '(faces && outside > 1)' '(faces && outside > 0)' 'ref_np4_2d_star_then_box|comm_np4_dof2_3d_star'
m ghost_rebuild src/pc/hjacobi/hjacobi.cxx 'if (!hj->sw.ghostmade || faces != hj->sw.ghostfaces) {' 'if (!hj->sw.ghostmade) {' 'refresh_np4_2d_fits'
m gather_galerkin_ignore src/mg/gather.cxx 'if (compute && galerkin) PetscCall' 'if (PETSC_FALSE) PetscCall' 'hjmg_gather_galerkin_np2'
m gather_transpose src/mg/gather.cxx '    swapped         = ipc->ops->applytranspose;' '    swapped         = ipc->ops->apply;' 'hjmg_gather_adjoint_np2|hjmg_gather_adjoint_np4'
m gather_galerkin src/mg/gather.cxx 'compute && !galerkin ? "none" : "both"' '"both"' 'hjmg_gather_np2|hjmg_gather_np4'
m gather_reset src/mg/gather.cxx '  PetscCall(PCSetType(cpc, PCNONE));' '  PetscFunctionReturn(PETSC_SUCCESS);' 'hjmg_gather_adjoint_np2|hjmg_gather_adjoint_np4'
# (the limits themselves bind on the CUDA backend only: rob_tile_fit, and on a GPU ctest -R cuda_default_tile_3d_dof2_bytes)

configs=(tutorials_missing)
if [ "${1:-}" = -l ]; then
  for e in "${muts[@]}"; do IFS='|' read -r name file _ <<<"$e"; echo "$name ($file): ${e#*|*|}"; done
  echo "tutorials_missing (configure): tutorial_sources"
  exit 0
fi
if [ "${1:-}" = -c ]; then
  stale=0
  for e in "${muts[@]}"; do
    IFS='|' read -r name file _ <<<"$e"
    from="from_$name"
    grep -qF -- "${!from}" "$file" 2>/dev/null || { echo "mutate-check: $name: its text is no longer in $file"; stale=$((stale + 1)); }
  done
  echo "mutate-check: ${#muts[@]} mutations, $stale stale"
  [ $stale -eq 0 ]
  exit
fi
build=${1:?usage: tools/mutate-check.sh [-l | -c] BUILD_DIR [NAME...]}
shift
want=" $* "
np=${NP:-2}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
log=$(mktemp -d)
restore=
cleanup() {
  if [ -n "$restore" ]; then cp "$log/orig" "$restore" && echo "mutate-check: restored $restore"; fi
  rm -rf "$log"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

selected=() selconf=()
for e in "${muts[@]}"; do
  name=${e%%|*}
  if [ "$want" = "  " ] || [[ "$want" == *" $name "* ]]; then selected+=("$e"); fi
done
for name in "${configs[@]}"; do
  if [ "$want" = "  " ] || [[ "$want" == *" $name "* ]]; then selconf+=("$name"); fi
done
[ $((${#selected[@]} + ${#selconf[@]})) -gt 0 ] || { echo "mutate-check: no such mutation: $*" >&2; exit 2; }

# run_tests ALTERNATIVES: ctest on exactly those tests; prints "passed failed missing" test lists into $log
run_tests() {
  local tests=$1 t
  ctest --test-dir "$build" -j "$np" -R "^($tests)\$" >"$log/ctest" 2>&1
  : >"$log/passed"; : >"$log/failed"; : >"$log/missing"
  for t in ${tests//|/ }; do
    if grep -Eq "Test +#[0-9]+: $t \.+ +Passed" "$log/ctest"; then echo "$t" >>"$log/passed"
    elif grep -Eq "Test +#[0-9]+: $t \.+" "$log/ctest"; then echo "$t" >>"$log/failed"
    else echo "$t" >>"$log/missing"; fi
  done
}

caught=0 survived=0
# a scratch configure against the build's PETSc: configure [CMAKE ARGS...]
configure() {
  local pd pa
  pd=$(sed -n 's/^PETSC_DIR:[A-Z]*=//p' "$build/CMakeCache.txt")
  pa=$(sed -n 's/^PETSC_ARCH:[A-Z]*=//p' "$build/CMakeCache.txt")
  rm -rf "$log/scratch"
  cmake -S . -B "$log/scratch" ${pd:+-DPETSC_DIR=$pd} ${pa:+-DPETSC_ARCH=$pa} "$@" >"$log/configure" 2>&1
}
for name in "${selconf[@]}"; do
  case $name in
    tutorials_missing)
      if ! configure -DHJACOBI_PETSC_TUTORIALS=/nonexistent/src/ksp/ksp/tutorials; then
        echo "mutate-check: tutorials_missing: the scratch configure fails: $(tail -3 "$log/configure")"; survived=$((survived + 1))
      elif ctest --test-dir "$log/scratch" -R '^tutorial_sources$' >"$log/ctest" 2>&1; then
        echo "mutate-check: SURVIVED tutorials_missing: tutorial_sources passes without the tutorial sources"; survived=$((survived + 1))
      else
        echo "mutate-check: caught tutorials_missing: tutorial_sources fails"; caught=$((caught + 1))
      fi ;;
  esac
done
[ ${#selected[@]} -gt 0 ] || { echo "mutate-check: ${caught} of ${#selconf[@]} caught"; [ "$survived" -eq 0 ]; exit; }

echo "mutate-check: building $build"
cmake --build "$build" -j "$np" >"$log/build" 2>&1 || { tail -20 "$log/build"; echo "mutate-check: the build fails"; exit 2; }
all=$(for e in "${selected[@]}"; do echo "${e#*|*|}"; done | tr '|' '\n' | sort -u | paste -sd'|')
run_tests "$all"
if [ -s "$log/failed" ] || [ -s "$log/missing" ]; then
  echo "mutate-check: on the unchanged library these fail: $(paste -sd' ' "$log/failed"); not registered: $(paste -sd' ' "$log/missing")"
  exit 2
fi
echo "mutate-check: baseline: $(wc -l <"$log/passed") tests pass"

for e in "${selected[@]}"; do
  IFS='|' read -r name file _ <<<"$e"
  tests=${e#*|*|}
  from_var="from_$name" to_var="to_$name"
  cp "$file" "$log/orig"
  if ! FROM=${!from_var} TO=${!to_var} perl -0777 -i -pe '$n = () = /\Q$ENV{FROM}\E/g; die "found $n times\n" if $n != 1; s/\Q$ENV{FROM}\E/$ENV{TO}/' "$file" 2>"$log/perl"; then
    echo "mutate-check: $name: the text to change in $file is $(cat "$log/perl") (not once): update this script"
    survived=$((survived + 1))
    continue
  fi
  restore=$file
  target=(--target petsc-hjacobi)
  case $file in include/*) target=() ;; esac # a header: the test programs that include it too (test_tilefit)
  if ! cmake --build "$build" -j "$np" "${target[@]}" >"$log/build" 2>&1; then
    tail -20 "$log/build"
    echo "mutate-check: $name: the mutant does not compile: update this script"
    survived=$((survived + 1))
  else
    run_tests "$tests"
    if [ -s "$log/passed" ] || [ -s "$log/missing" ]; then
      echo "mutate-check: SURVIVED $name ($file): still pass: $(paste -sd' ' "$log/passed")$([ -s "$log/missing" ] && echo "; not registered: $(paste -sd' ' "$log/missing")")"
      survived=$((survived + 1))
    else
      echo "mutate-check: caught $name ($file): fail: $(paste -sd' ' "$log/failed")"
      caught=$((caught + 1))
    fi
  fi
  cp "$log/orig" "$file"
  restore=
done
cmake --build "$build" -j "$np" >"$log/build" 2>&1 || echo "mutate-check: rebuilding the restored tree failed"
echo "mutate-check: $caught of $((${#selected[@]} + ${#selconf[@]})) mutations caught, $survived not"
[ "$survived" -eq 0 ]
