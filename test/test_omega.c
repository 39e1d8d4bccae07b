static const char help[] = "The automatic omega (PCHJacobiSetOmega(pc, PETSC_DECIDE), the default) on operators whose spectrum is known.\n"
                           "A 2D box DMDA (n x n, n even) whose 2 x 2 point groups are independent: in group g, D^{-1}A is the 4 x 4\n"
                           "M = Q^T diag(R1, R2) Q, Q the rotation by 45 degrees in the planes (0,2) and (1,3) (M has a unit diagonal when\n"
                           "a1 + a2 = 2), R = [a b; -b a], eigenvalues a +- ib, for b >= 0, and [a |b|; |b| a], eigenvalues a +- |b|, for\n"
                           "b < 0, each eigenvalue theta moved to 1 + (theta - 1)(1 + e_g), e_g one of 8 levels in [0, 0.01] (more\n"
                           "distinct eigenvalues than the estimate's 10 Arnoldi steps, whose Ritz values then lie near them); each row is\n"
                           "scaled (D != I). Checks, on the exact eigenvalues: the omega chosen makes |1 - omega theta| <= 0.9 (0.91: the\n"
                           "Ritz values are near, not at, the eigenvalues) where |theta| >= lhi/(2 dim) (lhi = 1.1 x the largest real\n"
                           "part) and < 1 elsewhere; where no omega does that (-expect_fallback; the test checks that none does), the PC\n"
                           "falls back to k = 1, omega 1. The C API takes PETSC_DECIDE and refuses omega outside (0, 2).\n"
                           "  -block1 a1,b1 -block2 a2,b2 (default 1,1.5 twice) -n n (even, >= 6; default 8) -expect_fallback\n"
                           "  -first_pairs: first set the PC up on the groups' x-pairs alone (D^{-1}A = [1 c; c 1] per pair, c = 0.5 (1 + e_g),\n"
                           "   omega about 0.9), then add the other couplings to the same matrix (new nonzeros): the PC must estimate again\n"
                           "  -pc_view, -pc_hjacobi_* as usual\n";

#include "hjtest.h"
#include <string.h>

static PetscInt nchecks, nfail;

static PetscErrorCode Report(MPI_Comm comm, PetscBool ok, const char *what)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(comm, "hjtest %s %s\n", ok ? "PASS" : "FAIL", what));
  nchecks++;
  if (!ok) nfail++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define NLEVEL 8
static PetscReal Level(PetscInt l)
{
  return 0.01 * l / (NLEVEL - 1);
}

/* the 4 x 4 group matrix M = Q^T diag(R1, R2) Q of level e and its eigenvalues */
static PetscErrorCode GroupMatrix(const PetscReal blk[2][2], PetscReal e, PetscReal M[4][4], PetscReal re[4], PetscReal im[4])
{
  const PetscReal c        = PetscSqrtReal(0.5);
  PetscReal       M0[4][4] = {{0}}, Q[4][4] = {{0}};

  PetscFunctionBeginUser;
  for (PetscInt g = 0; g < 2; g++) {
    const PetscReal a = 1 + (blk[g][0] - 1) * (1 + e), b = blk[g][1] * (1 + e);
    M0[2 * g][2 * g] = M0[2 * g + 1][2 * g + 1] = a;
    M0[2 * g][2 * g + 1]                        = PetscAbsReal(b);
    M0[2 * g + 1][2 * g]                        = -b;
    re[2 * g]                                   = a + (b < 0 ? -b : 0);
    re[2 * g + 1]                               = a - (b < 0 ? -b : 0);
    im[2 * g]                                   = b < 0 ? 0 : b;
    im[2 * g + 1]                               = b < 0 ? 0 : -b;
  }
  Q[0][0] = Q[2][2] = Q[1][1] = Q[3][3] = c;
  Q[0][2] = Q[1][3] = -c;
  Q[2][0] = Q[3][1] = c;
  for (PetscInt i = 0; i < 4; i++)
    for (PetscInt j = 0; j < 4; j++) {
      M[i][j] = 0;
      for (PetscInt k = 0; k < 4; k++)
        for (PetscInt l = 0; l < 4; l++) M[i][j] += Q[k][i] * M0[k][l] * Q[l][j];
    }
  for (PetscInt i = 0; i < 4; i++) PetscCheck(PetscAbsReal(M[i][i] - 1) < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "[hjtest] the group matrix needs a1 + a2 = 2 (a unit diagonal)");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A = S M in every 2 x 2 group (S: row scales; M of the group's level), or only its x-pairs [1 c; c 1], c = 0.5 (1 + e) */
static PetscErrorCode Assemble(DM da, PetscInt n, const PetscReal blk[2][2], PetscBool pairs, Mat A)
{
  PetscInt xs, ys, xm, ym;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetCorners(da, &xs, &ys, NULL, &xm, &ym, NULL));
  for (PetscInt j = ys; j < ys + ym; j++)
    for (PetscInt i = xs; i < xs + xm; i++) {
      const PetscInt  l = (i % 2) + 2 * (j % 2), g = i / 2 + (n / 2) * (j / 2);
      const PetscReal s = 1 + 0.25 * ((i + 3 * j) % 5); /* D = S (M has a unit diagonal) */
      PetscReal       M[4][4], re[4], im[4];
      MatStencil      row = {0}, col[4];
      PetscScalar     v[4];
      PetscInt        nc = 0;

      const PetscReal e = Level(5 * g % NLEVEL);
      PetscCall(GroupMatrix(blk, e, M, re, im));
      row.i = i;
      row.j = j;
      for (PetscInt q = 0; q < 4; q++) {
        if (pairs && q / 2 != l / 2) continue;
        col[nc].i = i - (i % 2) + (q % 2);
        col[nc].j = j - (j % 2) + q / 2;
        col[nc].k = 0;
        col[nc].c = 0;
        v[nc++]   = s * (pairs ? (q == l ? 1.0 : 0.5 * (1 + e)) : M[l][q]);
      }
      PetscCall(MatSetValuesStencil(A, 1, &row, nc, col, v, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the largest |1 - w theta| over the high-frequency eigenvalues (|theta| >= lhi/(2 dim)) and over the others */
static PetscErrorCode Contraction(const PetscReal blk[2][2], PetscReal w, PetscReal *chigh, PetscReal *clow)
{
  PetscReal M[4][4], re[NLEVEL][4], im[NLEVEL][4], amax = 0;

  PetscFunctionBeginUser;
  for (PetscInt l = 0; l < NLEVEL; l++) {
    PetscCall(GroupMatrix(blk, Level(l), M, re[l], im[l]));
    for (PetscInt i = 0; i < 4; i++) amax = PetscMax(amax, re[l][i]);
  }
  *chigh = *clow = 0;
  for (PetscInt l = 0; l < NLEVEL; l++)
    for (PetscInt i = 0; i < 4; i++) {
      const PetscReal c = PetscSqrtReal(PetscSqr(1 - w * re[l][i]) + PetscSqr(w * im[l][i]));
      if (PetscSqrtReal(PetscSqr(re[l][i]) + PetscSqr(im[l][i])) >= 1.1 * amax / 4) *chigh = PetscMax(*chigh, c);
      else *clow = PetscMax(*clow, c);
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the error handler of the API checks: keep the first message, return */
static char           first_msg[1024];
static PetscErrorCode Catch(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (p == PETSC_ERROR_INITIAL && mess) {
    strncpy(first_msg, mess, sizeof(first_msg) - 1);
    first_msg[sizeof(first_msg) - 1] = 0;
  }
  return n;
}

/* PCHJacobiSetOmega(): PETSC_DECIDE is auto, a number outside (0, 2) an error that says so */
static PetscErrorCode CheckAPI(PC pc)
{
  const PetscReal bad[] = {0, 2, -0.5, 2.5};
  PetscReal       w;
  char            what[256];

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < 4; i++) {
    PetscErrorCode ierr;
    first_msg[0] = 0;
    PetscCall(PetscPushErrorHandler(Catch, NULL));
    ierr = PCHJacobiSetOmega(pc, bad[i]);
    PetscCall(PetscPopErrorHandler());
    PetscCall(PetscSNPrintf(what, sizeof(what), "PCHJacobiSetOmega(pc, %g) is an error: %s", (double)bad[i], ierr ? first_msg : "no error"));
    PetscCall(Report(PETSC_COMM_WORLD, (PetscBool)(ierr && strstr(first_msg, "omega must satisfy 0 < omega < 2")), what));
  }
  PetscCall(PCHJacobiSetOmega(pc, 0.7));
  PetscCall(PCHJacobiSetOmega(pc, PETSC_DECIDE));
  PetscCall(PCSetUp(pc));
  PetscCall(PCHJacobiGetOmega(pc, &w));
  PetscCall(PetscSNPrintf(what, sizeof(what), "PCHJacobiSetOmega(pc, PETSC_DECIDE) after 0.7: chosen again at setup (omega %g)", (double)w));
  PetscCall(Report(PETSC_COMM_WORLD, (PetscBool)(w != 0.7 && w > 0 && w < 2), what));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM        da;
  Mat       A;
  PC        pc;
  PetscInt  n = 8, nb, k, kuser = -1;
  PetscReal blk[2][2] =
    {
      {1, 1.5},
      {1, 1.5}
  },
            M[4][4], re[4], im[4], w, w0 = 0, chigh, clow;
  PetscBool fallback = PETSC_FALSE, first_pairs = PETSC_FALSE, set;
  char      what[256];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCheck(n >= 6 && n % 2 == 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "[hjtest] -n must be even and >= 6 (every level in a group)");
  for (PetscInt g = 0; g < 2; g++) {
    const char *name = g ? "-block2" : "-block1";
    nb               = 2;
    PetscCall(PetscOptionsGetRealArray(NULL, NULL, name, blk[g], &nb, &set));
    PetscCheck(!set || nb == 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "[hjtest] %s a,b", name);
  }
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-expect_fallback", &fallback, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-first_pairs", &first_pairs, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-pc_hjacobi_subiterations", &kuser, NULL));
  PetscCall(GroupMatrix(blk, 0, M, re, im));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest config: %" PetscInt_FMT " x %" PetscInt_FMT " points, eigenvalues of D^{-1}A: %g%+gi, %g%+gi, %g%+gi, %g%+gi, moved away from 1 by up to 1%%\n", n, n, (double)re[0], (double)im[0], (double)re[1], (double)im[1], (double)re[2], (double)im[2], (double)re[3], (double)im[3]));

  PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_BOX, n, n, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(DMSetMatrixPreallocateOnly(da, PETSC_TRUE)); /* the nonzero pattern is what Assemble inserts */
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatSetOption(A, MAT_SORTED_FULL, PETSC_FALSE)); /* preallocate-only sets it; the rows here are not full */
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetType(pc, PCHJACOBI));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetFromOptions(pc));
  if (first_pairs) {
    PetscObjectState nz0, nz1;
    PetscCall(Assemble(da, n, blk, PETSC_TRUE, A));
    PetscCall(PCSetUp(pc));
    PetscCall(PCHJacobiGetOmega(pc, &w0));
    PetscCall(MatGetNonzeroState(A, &nz0));
    PetscCall(Assemble(da, n, blk, PETSC_FALSE, A));
    PetscCall(MatGetNonzeroState(A, &nz1));
    PetscCheck(nz0 != nz1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "[hjtest] the couplings were meant to be new nonzeros");
  } else PetscCall(Assemble(da, n, blk, PETSC_FALSE, A));
  PetscCall(PCSetUp(pc)); /* -pc_view */
  PetscCall(PCHJacobiGetOmega(pc, &w));
  PetscCall(PCHJacobiGetSubiterations(pc, &k));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest config: omega %g, k %" PetscInt_FMT "%s\n", (double)w, k, first_pairs ? " (after the new nonzeros)" : ""));
  if (first_pairs) {
    PetscCall(PetscSNPrintf(what, sizeof(what), "new nonzeros in the same Pmat: omega estimated again (%g on the x-pairs alone, %g now)", (double)w0, (double)w));
    PetscCall(Report(PETSC_COMM_WORLD, (PetscBool)(w != w0), what));
  }

  if (fallback) { /* the premise: no omega in (0, 2) contracts as asked (step 1e-4, finer than the PC's 0.01) */
    for (PetscReal t = 1e-4; t < 2; t += 1e-4) {
      PetscCall(Contraction(blk, t, &chigh, &clow));
      PetscCheck(chigh > 0.9 || clow >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "[hjtest] omega %g contracts every eigenvalue (%g, %g): not a fallback case", (double)t, (double)chigh, (double)clow);
    }
    PetscCall(PetscSNPrintf(what, sizeof(what), "no omega contracts: fallback to k = 1, omega 1 (got k %" PetscInt_FMT ", omega %g)", k, (double)w));
    PetscCall(Report(PETSC_COMM_WORLD, (PetscBool)(w == 1 && k == (kuser > 0 ? kuser : 1)), what));
  } else {
    PetscCall(Contraction(blk, w, &chigh, &clow));
    PetscCall(PetscSNPrintf(what, sizeof(what), "omega %g: |1 - omega theta| = %.4f <= 0.91 on the high-frequency eigenvalues, %.4f < 1 on the others", (double)w, (double)chigh, (double)clow));
    PetscCall(Report(PETSC_COMM_WORLD, (PetscBool)(chigh <= 0.91 && clow < 1 && k == (kuser > 0 ? kuser : 4)), what));
  }
  PetscCall(CheckAPI(pc));

  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCheck(nchecks > 0 && nfail == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "[hjtest] %" PetscInt_FMT " of %" PetscInt_FMT " checks failed", nfail, nchecks);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest PASS all %" PetscInt_FMT " checks\n", nchecks));
  PetscCall(PetscFinalize());
  return 0;
}
