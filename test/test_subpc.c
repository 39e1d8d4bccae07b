static const char help[] = "PCHJACOBI in other roles, each PCApply against the literal reference of hjtest.c:\n"
                           "  -mode sbaij:      a symmetric operator stored as MATSBAIJ (upper triangle only) gives the AIJ operator's result\n"
                           "  -mode asm:        PCASM with one DMDA subdomain per rank (-pc_asm_dm_subdomains), sub-PC hjacobi: the reference\n"
                           "                    on the operator with every coupling between ranks removed (block Jacobi over ranks)\n"
                           "  -mode fieldsplit: additive PCFIELDSPLIT of a DMDA's fields, each field's PC hjacobi: per field, the reference\n"
                           "                    on that field's submatrix over a dof-1 grid of the same sizes\n"
                           "  -pc_hjacobi_* options are given to the hjacobi sub-PCs (copied under their prefixes), plus the operator\n"
                           "  options of test_reference (-dim, -n, -kind, -dof, ...), -tol t\n";

#include "hjtest.h"
#include <string.h>

static PetscInt  nchecks, nfail;
static PetscReal tol = 1e-12;

/* give the unprefixed -pc_hjacobi_* options to the PCs with this prefix */
static PetscErrorCode CopyOptions(const char *prefix)
{
  const char *names[] = {"tile", "overlap", "subiterations", "cycles", "omega", "backend", "inner_precision", "cuda_kernel"};

  PetscFunctionBeginUser;
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    char      from[64], to[128], val[256];
    PetscBool set;
    PetscCall(PetscSNPrintf(from, sizeof(from), "-pc_hjacobi_%s", names[i]));
    PetscCall(PetscOptionsGetString(NULL, NULL, from, val, sizeof(val), &set));
    if (!set) continue;
    PetscCall(PetscSNPrintf(to, sizeof(to), "-%spc_hjacobi_%s", prefix, names[i]));
    PetscCall(PetscOptionsSetValue(NULL, to, val));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCApply(pc, b) against c cycles of the reference on csr (global PETSc ordering of p) */
static PetscErrorCode CompareApply(PC pc, PC hjpc, HJProblem *p, const HJCSR *csr, Vec b, Vec y, const char *what)
{
  HJParams     par;
  PetscScalar *bf, *ref;
  PetscReal    rel;

  PetscFunctionBeginUser;
  PetscCall(VecSet(y, 1.0e3));
  PetscCall(PCApply(pc, b, y));
  PetscCall(HJParamsGet(hjpc, p, PETSC_FALSE, &par));
  PetscCall(HJGatherVec(b, &bf));
  PetscCall(PetscCalloc1(p->N * p->dof, &ref));
  PetscCall(HJRefCycles(p, csr, &par, bf, ref, par.c));
  PetscCall(HJCompareRef(y, ref, &rel));
  PetscCall(HJReport(p->comm, what, rel, tol, PETSC_TRUE, &nchecks, &nfail));
  PetscCall(PetscFree(ref));
  PetscCall(PetscFree(bf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SBAIJ: the PC on the symmetric-storage copy must give the reference of the full (AIJ) operator */
static PetscErrorCode ModeSBAIJ(HJProblem *p, Mat A, Vec b, Vec y)
{
  Mat       S;
  PC        pc;
  HJCSR     csr;
  PetscBool sym;
  Vec       z;
  PetscReal rel;

  PetscFunctionBeginUser;
  PetscCall(MatIsSymmetric(A, 0.0, &sym));
  PetscCheck(sym, p->comm, PETSC_ERR_ARG_WRONG, "[hjtest] -mode sbaij needs -symmetric");
  PetscCall(MatConvert(A, MATSBAIJ, MAT_INITIAL_MATRIX, &S));
  PetscCall(PCCreate(p->comm, &pc));
  PetscCall(PCSetType(pc, PCHJACOBI));
  PetscCall(PCSetDM(pc, p->da)); /* MatConvert() does not carry the DM */
  PetscCall(PCSetOperators(pc, S, S));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(HJGatherMatrix(A, PETSC_FALSE, &csr));
  PetscCall(CompareApply(pc, pc, p, &csr, b, y, "SBAIJ Pmat: PCApply equals the reference of the whole operator"));
  PetscCall(VecDuplicate(y, &z)); /* A^T = A: the transpose must be the same preconditioner read from A^T (overlap 0) */
  PetscCall(PCApplyTranspose(pc, b, z));
  {
    HJParams par;
    PetscCall(HJParamsGet(pc, p, PETSC_FALSE, &par));
    if (par.o[0] == 0 && par.o[1] == 0 && par.o[2] == 0) {
      PetscCall(HJCompareVec(z, y, &rel));
      PetscCall(HJReport(p->comm, "SBAIJ Pmat, overlap 0: PCApplyTranspose equals PCApply (A symmetric)", rel, tol, PETSC_TRUE, &nchecks, &nfail));
    }
  }
  PetscCall(HJCSRDestroy(&csr));
  PetscCall(VecDestroy(&z));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&S));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ASM with DMDA subdomains (one per rank, no overlap): block Jacobi over ranks with hjacobi on each rank's box */
static PetscErrorCode ModeASM(HJProblem *p, Mat A, Vec b, Vec y)
{
  PC              pc, sub;
  KSP            *ksps;
  PetscInt        nloc, first;
  HJCSR           csr;
  const PetscInt *ranges;
  PetscBool       ishj;

  PetscFunctionBeginUser;
  PetscCall(CopyOptions("sub_"));
  PetscCall(PCCreate(p->comm, &pc));
  PetscCall(PCSetType(pc, PCASM));
  PetscCall(PCSetDM(pc, p->da));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCASMSetDMSubdomains(pc, PETSC_TRUE));
  PetscCall(PetscOptionsSetValue(NULL, "-sub_pc_type", "hjacobi"));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PCSetUp(pc));
  PetscCall(PCASMGetSubKSP(pc, &nloc, &first, &ksps));
  PetscCheck(nloc == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "[hjtest] expected one subdomain per rank, got %" PetscInt_FMT, nloc);
  PetscCall(KSPGetPC(ksps[0], &sub));
  PetscCall(PetscObjectTypeCompare((PetscObject)sub, PCHJACOBI, &ishj));
  PetscCheck(ishj, PETSC_COMM_SELF, PETSC_ERR_PLIB, "[hjtest] the sub-PC is not hjacobi");
  /* the reference on A without the couplings between ranks */
  PetscCall(HJGatherMatrix(A, PETSC_FALSE, &csr));
  PetscCall(MatGetOwnershipRanges(A, &ranges));
  for (PetscInt r = 0, owner = 0; r < csr.n; r++) {
    while (r >= ranges[owner + 1]) owner++;
    for (PetscInt e = csr.ia[r]; e < csr.ia[r + 1]; e++)
      if (csr.ja[e] < ranges[owner] || csr.ja[e] >= ranges[owner + 1]) csr.a[e] = 0;
  }
  PetscCall(CompareApply(pc, sub, p, &csr, b, y, "PCASM with DMDA subdomains, sub-PC hjacobi: reference without couplings between ranks"));
  PetscCall(HJCSRDestroy(&csr));
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* additive fieldsplit of the DMDA's fields: field f's result is hjacobi on A_ff over a dof-1 grid */
static PetscErrorCode ModeFieldsplit(HJProblem *p, Mat A, Vec b, Vec y)
{
  PC        pc;
  KSP      *ksps;
  PetscInt  nf;
  char      prefix[64], opt[128];
  HJProblem p1;

  PetscFunctionBeginUser;
  PetscCheck(p->dof > 1, p->comm, PETSC_ERR_ARG_WRONG, "[hjtest] -mode fieldsplit needs -dof > 1");
  for (PetscInt f = 0; f < p->dof; f++) {
    PetscCall(PetscSNPrintf(prefix, sizeof(prefix), "fieldsplit_%" PetscInt_FMT "_", f));
    PetscCall(CopyOptions(prefix));
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%spc_type", prefix));
    PetscCall(PetscOptionsSetValue(NULL, opt, "hjacobi"));
  }
  PetscCall(PCCreate(p->comm, &pc));
  PetscCall(PCSetType(pc, PCFIELDSPLIT));
  PetscCall(PCSetDM(pc, p->da));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCFieldSplitSetType(pc, PC_COMPOSITE_ADDITIVE));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PCSetUp(pc));
  PetscCall(PCFieldSplitGetSubKSP(pc, &nf, &ksps));
  PetscCheck(nf == p->dof, p->comm, PETSC_ERR_PLIB, "[hjtest] expected %" PetscInt_FMT " splits, got %" PetscInt_FMT, p->dof, nf);
  PetscCall(VecSet(y, 1.0e3));
  PetscCall(PCApply(pc, b, y));
  /* the same grid with one field (the DMDA's rank grid depends on the sizes and ranks only) */
  PetscCall(PetscOptionsSetValue(NULL, "-dof", "1"));
  PetscCall(HJProblemCreate(p->comm, &p1));
  for (PetscInt f = 0; f < p->dof; f++) {
    IS           is;
    Mat          Aff;
    Vec          bf, yf;
    PetscInt     rs, n;
    PC           sub;
    HJCSR        csr;
    HJParams     par;
    PetscScalar *bg, *ref;
    PetscReal    rel;
    char         what[128];

    PetscCall(VecGetOwnershipRange(b, &rs, NULL));
    PetscCall(VecGetLocalSize(b, &n));
    PetscCall(ISCreateStride(p->comm, n / p->dof, rs + f, p->dof, &is));
    PetscCall(MatCreateSubMatrix(A, is, is, MAT_INITIAL_MATRIX, &Aff));
    PetscCall(VecGetSubVector(b, is, &bf));
    PetscCall(VecGetSubVector(y, is, &yf));
    PetscCall(KSPGetPC(ksps[f], &sub));
    PetscCall(HJParamsGet(sub, &p1, PETSC_FALSE, &par));
    PetscCall(HJGatherMatrix(Aff, PETSC_FALSE, &csr));
    PetscCall(HJGatherVec(bf, &bg));
    PetscCall(PetscCalloc1(p1.N, &ref));
    PetscCall(HJRefCycles(&p1, &csr, &par, bg, ref, par.c));
    PetscCall(HJCompareRef(yf, ref, &rel));
    PetscCall(PetscSNPrintf(what, sizeof(what), "PCFIELDSPLIT of the DMDA's fields, field %" PetscInt_FMT " with hjacobi: reference on A_ff", f));
    PetscCall(HJReport(p->comm, what, rel, tol, PETSC_TRUE, &nchecks, &nfail));
    PetscCall(PetscFree(ref));
    PetscCall(PetscFree(bg));
    PetscCall(HJCSRDestroy(&csr));
    PetscCall(VecRestoreSubVector(b, is, &bf));
    PetscCall(VecRestoreSubVector(y, is, &yf));
    PetscCall(MatDestroy(&Aff));
    PetscCall(ISDestroy(&is));
  }
  PetscCall(PetscFree(ksps));
  PetscCall(HJProblemDestroy(&p1));
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  HJProblem   p;
  Mat         A;
  Vec         b, y;
  const char *modes[] = {"sbaij", "asm", "fieldsplit"};
  PetscInt    mode    = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetEList(NULL, NULL, "-mode", modes, 3, &mode, NULL));
  PetscCall(HJProblemCreate(PETSC_COMM_WORLD, &p));
  PetscCall(HJProblemCreateMatrix(&p, &A));
  PetscCall(HJProblemAssemble(&p, 9, A));
  PetscCall(DMCreateGlobalVector(p.da, &b));
  PetscCall(VecDuplicate(b, &y));
  PetscCall(HJProblemFillVec(&p, 19, b));
  if (mode == 0) PetscCall(ModeSBAIJ(&p, A, b, y));
  else if (mode == 1) PetscCall(ModeASM(&p, A, b, y));
  else PetscCall(ModeFieldsplit(&p, A, b, y));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&A));
  PetscCall(HJProblemDestroy(&p));
  PetscCheck(nchecks > 0 && nfail == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "[hjtest] %" PetscInt_FMT " of %" PetscInt_FMT " checks failed", nfail, nchecks);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest PASS all %" PetscInt_FMT " checks\n", nchecks));
  PetscCall(PetscFinalize());
  return 0;
}
