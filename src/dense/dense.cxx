/* The dense inverse of a small operator, the mechanics of PCHJDENSE (src/pc/hjdense/hjdense.cxx, which calls these):
   its columns formed by an inner PC, the product checked against that PC, and for a singular operator the null space
   found, the operator pinned on it and the inverse projected. Host matrices and vectors only. */
#include "dense/dense.h"
#include <petscmat.h>

/* the inverse the inner PC (set up) applies: its columns the inner PC applied to the identity's, one at a time (the
   inverse's n^2 scalars are the only dense storage) */
PetscErrorCode HJDenseForm(PC inner, PetscInt n, Mat *inverse)
{
  PetscScalar *a, *ea;
  PetscInt     lda;
  Vec          e, col;

  PetscFunctionBegin;
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, NULL, inverse));
  PetscCall(MatDenseGetLDA(*inverse, &lda));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, &e));
  PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, NULL, &col));
  PetscCall(VecSet(e, 0.0));
  PetscCall(MatDenseGetArrayWrite(*inverse, &a));
  for (PetscInt j = 0; j < n; j++) {
    PetscCall(VecGetArray(e, &ea));
    ea[j] = 1.0;
    if (j) ea[j - 1] = 0.0;
    PetscCall(VecRestoreArray(e, &ea));
    PetscCall(VecPlaceArray(col, a + (size_t)j * lda));
    PetscCall(PCApply(inner, e, col));
    PetscCall(VecResetArray(col));
  }
  PetscCall(MatDenseRestoreArrayWrite(*inverse, &a));
  PetscCall(MatAssemblyBegin(*inverse, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*inverse, MAT_FINAL_ASSEMBLY));
  PetscCall(VecDestroy(&col));
  PetscCall(VecDestroy(&e));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Does the dense product give what the inner PC gives? On a consistent right-hand side r = A v (v random), the
   relative residuals ||r - A X r|| / ||r|| of the product (rel[0]) and ||r - A P(r)|| / ||r|| of the inner PC (rel[1]):
   accepted where the first is within HJD_CHECK_FACTOR of the second, or below sqrt(eps). On a singular operator the
   inverse a factorization forms holds 1/pivot ~ 1/eps in every entry, and its product loses every digit where the
   factorization's own solves lose them only along the null space (which A multiplies away): the residual tells. */
PetscErrorCode HJDenseCheck(PC inner, Mat A, Mat X, PetscReal rel[2], PetscBool *accept)
{
  PetscRandom rnd;
  Vec         v, r, y, t;
  PetscReal   rnorm, tnorm;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(X, &v, &r));
  PetscCall(VecDuplicate(r, &y));
  PetscCall(VecDuplicate(r, &t));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 0x4a4444)); /* the same check at every setup */
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(v, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(MatMult(A, v, r));
  PetscCall(VecNorm(r, NORM_2, &rnorm));
  for (int i = 0; i < 2; i++) {
    if (i == 0) PetscCall(MatMult(X, r, y));
    else PetscCall(PCApply(inner, r, y));
    PetscCall(MatMult(A, y, t));
    PetscCall(VecAYPX(t, -1.0, r));
    PetscCall(VecNorm(t, NORM_2, &tnorm));
    rel[i] = rnorm > 0 ? tnorm / rnorm : 0;
  }
  *accept = (PetscBool)(rel[0] <= PetscMax(HJD_CHECK_FACTOR * rel[1], PetscSqrtReal(PETSC_MACHINE_EPSILON)));
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The null space attached to the operator (MatSetNullSpace()) as an orthonormal basis Z, n x m column-major on the
   host (the constant first where it has one), or m = 0: none attached, or its vectors are not of the operator's size */
PetscErrorCode HJDenseNullBasis(Mat A, PetscInt n, PetscInt *m, PetscScalar **Z)
{
  MatNullSpace       ns;
  PetscBool          cnst;
  PetscInt           nv, j = 0;
  const Vec         *vecs;
  const PetscScalar *va;

  PetscFunctionBegin;
  *m = 0;
  *Z = NULL;
  PetscCall(MatGetNullSpace(A, &ns));
  if (!ns) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatNullSpaceGetVecs(ns, &cnst, &nv, &vecs));
  for (PetscInt i = 0; i < nv; i++) {
    PetscInt len;

    PetscCall(VecGetSize(vecs[i], &len));
    if (len != n) {
      PetscCall(PetscInfo(A, "the null space's vector %" PetscInt_FMT " has %" PetscInt_FMT " entries, the operator %" PetscInt_FMT " rows: not used\n", i, len, n));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  *m = (cnst ? 1 : 0) + nv;
  if (!*m) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1((size_t)n * *m, Z));
  if (cnst) {
    for (PetscInt i = 0; i < n; i++) (*Z)[i] = 1.0 / PetscSqrtReal((PetscReal)n);
    j = 1;
  }
  for (PetscInt i = 0; i < nv; i++, j++) { /* MatNullSpaceCreate() requires them orthonormal and orthogonal to the constant */
    PetscCall(VecGetArrayRead(vecs[i], &va));
    PetscCall(PetscArraycpy(*Z + (size_t)j * n, va, n));
    PetscCall(VecRestoreArrayRead(vecs[i], &va));
  }
  for (PetscInt c = 0; c < *m; c++) { /* orthonormal again (MatNullSpaceCreate() checks it only in debug builds, to sqrt(eps)) */
    PetscScalar *zc  = *Z + (size_t)c * n;
    PetscReal    nrm = 0;

    for (PetscInt l = 0; l < c; l++) {
      const PetscScalar *zl  = *Z + (size_t)l * n;
      PetscScalar        dot = 0;

      for (PetscInt i = 0; i < n; i++) dot += PetscConj(zl[i]) * zc[i];
      for (PetscInt i = 0; i < n; i++) zc[i] -= dot * zl[i];
    }
    for (PetscInt i = 0; i < n; i++) nrm += PetscRealPart(PetscConj(zc[i]) * zc[i]);
    nrm = PetscSqrtReal(nrm);
    PetscCheck(nrm > 1e-8, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "PCHJDENSE: the operator's null space (MatSetNullSpace()) has linearly dependent vectors");
    for (PetscInt i = 0; i < n; i++) zc[i] /= nrm;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* No null space attached, but a singular operator whose rows sum to zero (a Neumann or periodic operator from PCMG's
   Galerkin product, which attaches none): the constants, taken as its null space (m = 1), else m = 0 */
PetscErrorCode HJDenseConstants(Mat A, PetscInt n, PetscInt *m, PetscScalar **Z)
{
  Vec       one, t;
  PetscReal anorm, tnorm;

  PetscFunctionBegin;
  *m = 0;
  PetscCall(MatCreateVecs(A, &one, &t));
  PetscCall(VecSet(one, 1.0));
  PetscCall(MatMult(A, one, t));
  PetscCall(VecNorm(t, NORM_INFINITY, &tnorm));
  PetscCall(MatNorm(A, NORM_INFINITY, &anorm));
  PetscCall(VecDestroy(&one));
  PetscCall(VecDestroy(&t));
  if (!(anorm > 0 && tnorm <= 1e3 * PETSC_MACHINE_EPSILON * anorm)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscInfo(A, "no null space attached; the rows sum to zero (||A 1|| / ||A|| = %g): the constants taken as the null space\n", (double)(tnorm / anorm)));
  *m = 1;
  PetscCall(PetscMalloc1(n, Z));
  for (PetscInt i = 0; i < n; i++) (*Z)[i] = 1.0 / PetscSqrtReal((PetscReal)n);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* B = A + sum_j s_j e_{k_j} e_{k_j}^T: rows k_j chosen by partial pivoting on Z (so Z's rows k_1..k_m are nonsingular),
   s_j = A_kk (or ||A||_inf where that is 0). For A with null space Z (and the same left null space, as a symmetric A),
   B is nonsingular, and on a right-hand side in A's range B^{-1} r solves A x = r (the one solution with x_k = 0). */
PetscErrorCode HJDensePin(Mat A, PetscInt n, PetscInt m, const PetscScalar *Z, Mat *B)
{
  PetscScalar *W, *da;
  PetscInt    *rows;
  PetscBool   *used;
  Vec          d;
  PetscReal    anorm;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3((size_t)n * m, &W, m, &rows, n, &used));
  PetscCall(PetscArraycpy(W, Z, (size_t)n * m));
  for (PetscInt i = 0; i < n; i++) used[i] = PETSC_FALSE;
  for (PetscInt j = 0; j < m; j++) {
    PetscScalar *wj = W + (size_t)j * n;
    PetscInt     k  = -1;

    for (PetscInt i = 0; i < n; i++)
      if (!used[i] && (k < 0 || PetscAbsScalar(wj[i]) > PetscAbsScalar(wj[k]))) k = i;
    PetscCheck(k >= 0 && PetscAbsScalar(wj[k]) > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "PCHJDENSE: the operator's null space (MatSetNullSpace()) has linearly dependent vectors");
    rows[j] = k;
    used[k] = PETSC_TRUE;
    for (PetscInt l = j + 1; l < m; l++) {
      PetscScalar *wl = W + (size_t)l * n, f = wl[k] / wj[k];

      for (PetscInt i = 0; i < n; i++) wl[i] -= f * wj[i];
    }
  }
  PetscCall(MatNorm(A, NORM_INFINITY, &anorm));
  PetscCall(MatCreateVecs(A, &d, NULL));
  PetscCall(MatGetDiagonal(A, d));
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, B));
  PetscCall(MatSetOption(*B, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE)); /* a pinned row may store no diagonal */
  PetscCall(VecGetArray(d, &da));
  for (PetscInt j = 0; j < m; j++) { /* a_kk again (B_kk = 2 a_kk, whatever its sign or phase), or ||A||_inf where a_kk = 0 */
    const PetscScalar s = PetscAbsScalar(da[rows[j]]) > 0 ? da[rows[j]] : (PetscScalar)(anorm > 0 ? anorm : 1.0);

    PetscCall(MatSetValue(*B, rows[j], rows[j], s, ADD_VALUES));
    PetscCall(PetscInfo(A, "pinned row %" PetscInt_FMT " of the null space's %" PetscInt_FMT "\n", rows[j], m));
  }
  PetscCall(VecRestoreArray(d, &da));
  PetscCall(MatAssemblyBegin(*B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*B, MAT_FINAL_ASSEMBLY));
  PetscCall(VecDestroy(&d));
  PetscCall(PetscFree3(W, rows, used));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* X = P X P with P = I - Z Z^H (Z orthonormal): the inverse's output without its null space component, whichever rows
   were pinned, and its input likewise (so that X is A's pseudo-inverse on a Hermitian A, and X^T the transpose's) */
PetscErrorCode HJDenseProject(Mat X, PetscInt n, PetscInt m, const PetscScalar *Z)
{
  PetscScalar *a, *xz;
  PetscInt     lda;

  PetscFunctionBegin;
  PetscCall(MatDenseGetLDA(X, &lda));
  PetscCall(MatDenseGetArray(X, &a));
  for (PetscInt c = 0; c < n; c++) { /* P X, column by column */
    PetscScalar *col = a + (size_t)c * lda;

    for (PetscInt j = 0; j < m; j++) {
      const PetscScalar *z   = Z + (size_t)j * n;
      PetscScalar        dot = 0;

      for (PetscInt i = 0; i < n; i++) dot += PetscConj(z[i]) * col[i];
      for (PetscInt i = 0; i < n; i++) col[i] -= dot * z[i];
    }
  }
  PetscCall(PetscMalloc1(n, &xz));
  for (PetscInt j = 0; j < m; j++) { /* (P X) P = P X - (P X z) z^H, one null vector at a time (orthonormal) */
    const PetscScalar *z = Z + (size_t)j * n;

    for (PetscInt i = 0; i < n; i++) xz[i] = 0;
    for (PetscInt c = 0; c < n; c++)
      for (PetscInt i = 0; i < n; i++) xz[i] += a[(size_t)c * lda + i] * z[c];
    for (PetscInt c = 0; c < n; c++)
      for (PetscInt i = 0; i < n; i++) a[(size_t)c * lda + i] -= xz[i] * PetscConj(z[c]);
  }
  PetscCall(PetscFree(xz));
  PetscCall(MatDenseRestoreArray(X, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Setup. The inner PC on a host copy A of the operator (on a GPU matrix the factorization would be the device's sparse
   LU, whose setup alone costs tens of milliseconds), its inverse formed and checked (HJDenseCheck). Where the check
   fails and A has a null space attached, again on A pinned on it (HJDensePin), the output projected; where that fails
   too, or A has none, the inner PC is applied directly on A: hjdense then gives what its inner PC gives, never a
   product that lost its digits. */
