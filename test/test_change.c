static const char help[] = "Operators that change under one PCHJACOBI, each result checked against the literal reference:\n"
                           "another matrix (KSPSetOperators), PCSetType away and back, PCReset and reuse, a DMDA of another size\n"
                           "(PC and KSP), a MATSHELL Amat with an AIJ Pmat, and a MATSHELL Pmat (must be an error).\n"
                           "  -dim -n -kind ... as test_reference; -n2 n: the size of the second grid; -shell_pmat_dm: also a MATSHELL Pmat with a DMDA on the PC\n";

#include "hjtest.h"
#include <string.h>

static PetscInt  nchecks, nfail;
static PetscReal tol = 1e-12;

/* PCApply and 2 Richardson iterations from a nonzero guess against the reference on (p, A) */
static PetscErrorCode Check(PC pc, HJProblem *p, Mat A, const char *what)
{
  HJParams                    par;
  HJCSR                       csr;
  Vec                         b, x0, y;
  PetscScalar                *bf, *x0f, *ref;
  PetscReal                   rel, rel2;
  PetscInt                    outits;
  PCRichardsonConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(DMCreateGlobalVector(p->da, &b));
  PetscCall(VecDuplicate(b, &x0));
  PetscCall(VecDuplicate(b, &y));
  PetscCall(HJProblemFillVec(p, 21, b));
  PetscCall(HJProblemFillVec(p, 22, x0));
  PetscCall(VecSet(y, 1.0e3));
  PetscCall(PCApply(pc, b, y));
  PetscCall(HJParamsGet(pc, p, PETSC_FALSE, &par));
  PetscCall(HJGatherMatrix(A, PETSC_FALSE, &csr));
  PetscCall(HJGatherVec(b, &bf));
  PetscCall(HJGatherVec(x0, &x0f));
  PetscCall(PetscCalloc1(p->N * p->dof, &ref));
  PetscCall(HJRefCycles(p, &csr, &par, bf, ref, par.c));
  PetscCall(HJCompareRef(y, ref, &rel));
  PetscCall(VecCopy(x0, y));
  PetscCall(PCApplyRichardson(pc, b, y, x0, 0, 0, 0, 2, PETSC_FALSE, &outits, &reason));
  PetscCall(PetscArraycpy(ref, x0f, p->N * p->dof));
  PetscCall(HJRefCycles(p, &csr, &par, bf, ref, 2 * par.c));
  PetscCall(HJCompareRef(y, ref, &rel2));
  PetscCall(HJReport(p->comm, what, PetscMax(rel, rel2), tol, PETSC_TRUE, &nchecks, &nfail));
  PetscCall(PetscFree(ref));
  PetscCall(PetscFree(bf));
  PetscCall(PetscFree(x0f));
  PetscCall(HJCSRDestroy(&csr));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x0));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetParams(PC pc)
{
  PetscFunctionBeginUser;
  PetscCall(PCHJacobiSetTileSize(pc, 5, 4, 3));
  PetscCall(PCHJacobiSetOverlap(pc, 2, 2, 0));
  PetscCall(PCHJacobiSetSubiterations(pc, 3));
  PetscCall(PCHJacobiSetCycles(pc, 2));
  PetscCall(PCHJacobiSetOmega(pc, 0.9));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MATSHELL: y = A x through the AIJ matrix in its context */
static PetscErrorCode ShellMult(Mat S, Vec x, Vec y)
{
  Mat A;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(S, &A));
  PetscCall(MatMult(A, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CreateShell(Mat A, Mat *S)
{
  PetscInt m, n, M, N;
  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(A, &m, &n));
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatCreateShell(PetscObjectComm((PetscObject)A), m, n, M, N, A, S));
  PetscCall(MatShellSetOperation(*S, MATOP_MULT, (void (*)(void))ShellMult));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static char           first_msg[4096];
static PetscErrorCode Catch(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (p == PETSC_ERROR_INITIAL && mess) {
    strncpy(first_msg, mess, sizeof(first_msg) - 1);
    first_msg[sizeof(first_msg) - 1] = 0;
  }
  return n;
}

/* a MATSHELL Pmat must stop PCSetUp with a message matching one of the words */
static PetscErrorCode ExpectShellPmatError(MPI_Comm comm, Mat S, DM da, const char *w1, const char *w2, const char *what)
{
  PC             pc;
  PetscErrorCode ierr;
  PetscBool      ok;

  PetscFunctionBeginUser;
  PetscCall(PCCreate(comm, &pc));
  PetscCall(PCSetType(pc, PCHJACOBI));
  PetscCall(PCSetOperators(pc, S, S));
  if (da) PetscCall(PCSetDM(pc, da));
  first_msg[0] = 0;
  PetscCall(PetscPushErrorHandler(Catch, NULL));
  ierr = PCSetUp(pc);
  PetscCall(PetscPopErrorHandler());
  ok = (PetscBool)(ierr && (strstr(first_msg, w1) || strstr(first_msg, w2)));
  PetscCall(PetscPrintf(comm, "hjtest %s %s: %s [%s]\n", ok ? "PASS" : "FAIL", what, ierr ? "error" : "no error", first_msg));
  nchecks++;
  if (!ok) nfail++;
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  HJProblem p, p2;
  Mat       A, B, A2, S;
  PC        pc;
  KSP       ksp;
  PetscInt  n2 = -1;
  char      buf[32];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n2", &n2, NULL));
  PetscCall(HJProblemCreate(PETSC_COMM_WORLD, &p));
  PetscCall(HJProblemCreateMatrix(&p, &A));
  PetscCall(HJProblemAssemble(&p, 11, A));
  PetscCall(HJProblemCreateMatrix(&p, &B));
  PetscCall(HJProblemAssemble(&p, 77, B));
  if (n2 < 0) n2 = p.M[0] + 3;
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "%" PetscInt_FMT, n2));
  PetscCall(PetscOptionsSetValue(NULL, "-n", buf));
  PetscCall(HJProblemCreate(PETSC_COMM_WORLD, &p2));
  PetscCall(HJProblemCreateMatrix(&p2, &A2));
  PetscCall(HJProblemAssemble(&p2, 13, A2));

  /* 1. PC with A, then another matrix on the same DMDA (different values): re-extraction, same layout */
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetType(pc, PCHJACOBI));
  PetscCall(SetParams(pc));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(Check(pc, &p, A, "first matrix"));
  PetscCall(PCSetOperators(pc, B, B));
  PetscCall(Check(pc, &p, B, "PCSetOperators with another matrix, same DMDA"));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(Check(pc, &p, A, "back to the first matrix"));
  /* 1b. same matrix, parameters changed after setup that a backend chooses its kernel by (the CUDA backend: k = 1
     the classic sweep, else a tile kernel; omega and k in its launch descriptor; its -pc_hjacobi_cuda_* options): the
     next apply must use them, not what setup chose before */
  PetscCall(PCHJacobiSetSubiterations(pc, 1));
  PetscCall(Check(pc, &p, A, "subiterations 1 after setup"));
  PetscCall(PCHJacobiSetSubiterations(pc, 2));
  PetscCall(PCHJacobiSetOmega(pc, 0.6));
  PetscCall(Check(pc, &p, A, "subiterations 2 and omega 0.6 after setup"));
  PetscCall(PetscOptionsSetValue(NULL, "-pc_hjacobi_cuda_kernel", "shared")); /* ignored by builds without CUDA */
  PetscCall(PetscOptionsSetValue(NULL, "-pc_hjacobi_cuda_tile_kernel", "1"));
  PetscCall(PCHJacobiSetSubiterations(pc, 1));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(Check(pc, &p, A, "-pc_hjacobi_cuda_kernel shared -pc_hjacobi_cuda_tile_kernel, k = 1, after setup"));
  PetscCall(PetscOptionsClearValue(NULL, "-pc_hjacobi_cuda_kernel"));
  PetscCall(PetscOptionsClearValue(NULL, "-pc_hjacobi_cuda_tile_kernel"));
  /* 2. away to PCJACOBI and back: a fresh hjacobi (defaults), then the parameters again */
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(PCSetUp(pc));
  PetscCall(PCSetType(pc, PCHJACOBI));
  PetscCall(Check(pc, &p, A, "PCSetType jacobi then hjacobi (defaults)"));
  PetscCall(SetParams(pc));
  PetscCall(Check(pc, &p, A, "PCSetType jacobi then hjacobi, parameters set again"));
  /* 3. PCReset, then the same operators again */
  PetscCall(PCReset(pc));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(Check(pc, &p, A, "PCReset, same matrix again"));
  /* 4. PCReset, then a matrix on a DMDA of another size */
  PetscCall(PCReset(pc));
  PetscCall(PCSetOperators(pc, A2, A2));
  PetscCall(Check(pc, &p2, A2, "PCReset, DMDA of another size"));
  /* 5. a MATSHELL Amat, the AIJ DMDA matrix as Pmat (no DM on the PC): hjacobi uses the Pmat */
  PetscCall(PCReset(pc));
  PetscCall(CreateShell(A, &S));
  PetscCall(PCSetOperators(pc, S, A));
  PetscCall(Check(pc, &p, A, "MATSHELL Amat, AIJ Pmat"));
  PetscCall(PCDestroy(&pc));

  /* 6. the same through a KSP: KSPReset, KSPSetDM with the new DMDA (not active), new operators */
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetType(ksp, KSPRICHARDSON));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCHJACOBI));
  PetscCall(SetParams(pc));
  PetscCall(KSPSetDM(ksp, p.da));
  PetscCall(HJKSPSetDMActive(ksp, PETSC_FALSE));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetUp(ksp));
  PetscCall(Check(pc, &p, A, "KSP with DM"));
  PetscCall(KSPSetOperators(ksp, B, B));
  PetscCall(KSPSetUp(ksp));
  PetscCall(Check(pc, &p, B, "KSPSetOperators with another matrix"));
  PetscCall(KSPReset(ksp));
  PetscCall(KSPSetDM(ksp, p2.da));
  PetscCall(HJKSPSetDMActive(ksp, PETSC_FALSE));
  PetscCall(KSPSetOperators(ksp, A2, A2));
  PetscCall(KSPSetUp(ksp));
  PetscCall(Check(pc, &p2, A2, "KSPReset, KSPSetDM with a DMDA of another size"));
  PetscCall(KSPDestroy(&ksp));

  /* 8. no PCReset, a new DMDA of the same global size: first with the other boundary type (periodic <-> not; same owned
     boxes, so only the DM object tells), then on more than one rank with another distribution. The layout and the
     ghost exchange must be rebuilt: checked against the reference on the new grid. */
  {
    HJProblem p3, p4;
    Mat       A3, A4;

    PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
    PetscCall(PCSetType(pc, PCHJACOBI));
    PetscCall(SetParams(pc));
    PetscCall(PCSetOperators(pc, A, A));
    PetscCall(Check(pc, &p, A, "before the DMDA changes"));
    PetscCall(PetscOptionsSetValue(NULL, "-n", NULL));
    PetscCall(PetscSNPrintf(buf, sizeof(buf), "%" PetscInt_FMT, p.M[0]));
    PetscCall(PetscOptionsSetValue(NULL, "-n", buf));
    PetscCall(PetscOptionsSetValue(NULL, "-periodic", p.periodic ? "0" : "1"));
    PetscCall(HJProblemCreate(PETSC_COMM_WORLD, &p3));
    PetscCall(HJProblemCreateMatrix(&p3, &A3));
    PetscCall(HJProblemAssemble(&p3, 17, A3));
    PetscCall(PCSetOperators(pc, A3, A3));
    PetscCall(Check(pc, &p3, A3, p.periodic ? "no PCReset, same sizes, DMDA no longer periodic" : "no PCReset, same sizes, DMDA now periodic"));
    PetscCall(PetscOptionsSetValue(NULL, "-periodic", p.periodic ? "1" : "0"));
    if (p.size > 1 && p.dim > 1) {
      char np[16];
      PetscCall(PetscSNPrintf(np, sizeof(np), "%d", (int)p.size));
      PetscCall(PetscOptionsSetValue(NULL, "-da_processors_x", p.m[0] == 1 ? np : "1"));
      PetscCall(PetscOptionsSetValue(NULL, "-da_processors_y", p.m[0] == 1 ? "1" : np));
      if (p.dim > 2) PetscCall(PetscOptionsSetValue(NULL, "-da_processors_z", "1"));
      PetscCall(HJProblemCreate(PETSC_COMM_WORLD, &p4));
      PetscCall(HJProblemCreateMatrix(&p4, &A4));
      PetscCall(HJProblemAssemble(&p4, 19, A4));
      PetscCall(PCSetOperators(pc, A4, A4));
      PetscCall(Check(pc, &p4, A4, "no PCReset, same sizes, DMDA distributed differently"));
      PetscCall(MatDestroy(&A4));
      PetscCall(HJProblemDestroy(&p4));
    }
    PetscCall(PCDestroy(&pc));
    PetscCall(MatDestroy(&A3));
    PetscCall(HJProblemDestroy(&p3));
  }

  /* 7. a MATSHELL Pmat: a clear error, with or without a DMDA on the PC */
  PetscCall(ExpectShellPmatError(PETSC_COMM_WORLD, S, NULL, "DMDA", "DMCreateMatrix", "MATSHELL Pmat, no DM: error"));
  {
    PetscBool dm = PETSC_FALSE; /* separate test: PCHJACOBI 0.1.0 crashes here (MatGetRow of a MATSHELL without getrow) */
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-shell_pmat_dm", &dm, NULL));
    if (dm) PetscCall(ExpectShellPmatError(PETSC_COMM_WORLD, S, p.da, "MatGetRow", "assembled", "MATSHELL Pmat on a DMDA PC: error"));
  }

  PetscCall(MatDestroy(&S));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&A2));
  PetscCall(HJProblemDestroy(&p));
  PetscCall(HJProblemDestroy(&p2));
  PetscCheck(nchecks > 0 && nfail == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "[hjtest] %" PetscInt_FMT " of %" PetscInt_FMT " checks failed", nfail, nchecks);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest PASS all %" PetscInt_FMT " checks\n", nchecks));
  PetscCall(PetscFinalize());
  return 0;
}
