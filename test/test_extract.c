static const char help[] = "The device extraction (aijcusparse Pmat, CUDA backend) equals the host extraction bit for bit: planes, inverse\n"
                           "diagonal (blocks), kind, constant coefficients, directions without couplings. Then the same with one device value\n"
                           "changed, which must be seen (the comparison can fail). Problem options as test_reference.\n";

#include "hjtest.h"

int main(int argc, char **argv)
{
  HJProblem p;
  Mat       A;
  PC        pc;
  PetscInt  nchecks = 0, nfail = 0, n, gn;
  PetscErrorCode (*cmp)(PC, PetscInt, PetscInt *) = NULL;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(HJProblemCreate(PETSC_COMM_WORLD, &p));
  PetscCall(HJProblemCreateMatrix(&p, &A));
  PetscCall(HJProblemAssemble(&p, 11, A));
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetType(pc, PCHJACOBI));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PCSetUp(pc));
  PetscCall(PetscObjectQueryFunction((PetscObject)pc, "PCHJacobiExtractCompare_C", &cmp));
  PetscCheck(cmp, PETSC_COMM_WORLD, PETSC_ERR_SUP, "[hjtest] this build of PCHJACOBI has no device extraction (no CUDA)");
  for (PetscInt perturb = 0; perturb < 2; perturb++) {
    PetscCall((*cmp)(pc, perturb, &n));
    PetscCall(MPIU_Allreduce(&n, &gn, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
    PetscCall(HJReport(PETSC_COMM_WORLD, perturb ? "device extraction with one value changed differs from the host's" : "device extraction = host extraction, bit for bit", (PetscReal)gn, 0.5, (PetscBool)!perturb, &nchecks, &nfail));
  }
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscCall(HJProblemDestroy(&p));
  PetscCheck(nchecks > 0 && nfail == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "[hjtest] %" PetscInt_FMT " of %" PetscInt_FMT " checks failed", nfail, nchecks);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest PASS all %" PetscInt_FMT " checks\n", nchecks));
  PetscCall(PetscFinalize());
  return 0;
}
