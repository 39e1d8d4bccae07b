/* hjmg's coarse solve on CUDA vectors (doc/design.md "The coarse solve"): before PCMG's first setup, which reads the
   -mg_coarse_ options after this (so they still override), PCMG's LU becomes PCHJDENSE. PCMG's LU there is cuSPARSE's
   triangular solves, which wait for the stream twice per V-cycle (so the host cannot queue the up-sweep ahead of the
   device) and cost 0.1 ms at 125 unknowns; the dense inverse is one product that does not wait (H100: B3 3D
   2-4% faster on one GPU, B6 7-10% (strong) and 4% (weak) on two). One rank: the coarse PC itself; several: the PC
   inside PCMG's PCREDUNDANT (one copy of the coarse problem per rank). Not when the user chose: a solver package set by
   code, or any coarse PC, factor or redundant option given keeps PCMG's coarse solve as PCMG made it (with its
   MAT_SHIFT_INBLOCKS, which a PCLU made again by -mg_coarse_pc_type lu after a switch would not have). */
#include "mg/hjmg.h"
#include "dense/dense.h"

/* an option of the coarse solve's that says the user chose it (prefix: the coarse PC's) */
static PetscErrorCode CoarseChosenByPrefix(PetscOptions options, const char *prefix, PetscBool redundant, PetscBool *chosen)
{
  static const char *const pcnames[] = {"pc_type", "pc_factor_mat_solver_type", "pc_factor_shift_type", "pc_factor_shift_amount", "pc_factor_mat_ordering_type", "pc_factor_zeropivot", "pc_factor_fill", "pc_factor_in_place", "pc_factor_reuse_ordering", "pc_factor_reuse_fill", "pc_factor_nonzeros_along_diagonal", "pc_factor_pivot_in_blocks", "pc_factor_column_pivot", "ksp_type"};

  PetscFunctionBegin;
  *chosen = PETSC_FALSE;
  for (int r = 0; r < (redundant ? 2 : 1) && !*chosen; r++) /* the coarse PC's own names, then its redundant KSP's */
    for (const char *name : pcnames) {
      char key[256];

      if (!r && !strcmp(name, "ksp_type")) continue; /* the coarse KSP's type is not the coarse PC's */
      PetscCall(PetscSNPrintf(key, sizeof(key), "-%s%s", r ? "redundant_" : "", name));
      PetscCall(PetscOptionsHasName(options, prefix, key, chosen));
      if (*chosen) break;
    }
  if (redundant && !*chosen) PetscCall(PetscOptionsHasName(options, prefix, "-pc_redundant_number", chosen));
  if (redundant && !*chosen) PetscCall(PetscOptionsHasName(options, prefix, "-psubcomm_type", chosen));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CoarseChosen(PC cpc, PetscBool redundant, PetscBool *chosen)
{
  const char *prefix;

  PetscFunctionBegin;
  PetscCall(PCGetOptionsPrefix(cpc, &prefix));
  PetscCall(CoarseChosenByPrefix(((PetscObject)cpc)->options, prefix, redundant, chosen));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJMGCoarseChosen(PC cpc, PetscBool *chosen)
{
  PetscFunctionBegin;
  PetscCall(CoarseChosen(cpc, PETSC_TRUE, chosen));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether the PC's DM makes device vectors (hjmg's coarse default is hjdense there) */
static PetscErrorCode DeviceVectors(PC pc, PetscBool *device)
{
  VecType vtype;

  PetscFunctionBegin;
  *device = PETSC_FALSE;
  PetscCall(DMGetVecType(pc->dm, &vtype));
  if (vtype) {
    const HJBackendOps *ops;

    PetscCall(HJBackendOfVecType(vtype, &ops));
    *device = ops->device;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJMGCoarseDenseRows(PC pc, PetscInt *rows)
{
  PetscBool   device, chosen;
  PetscMPIInt size;
  const char *pcprefix;
  char        prefix[256];

  PetscFunctionBegin;
  *rows = 0;
  if (pc->setupcalled || !pc->dm) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DeviceVectors(pc, &device));
  if (!device) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  PetscCall(PCGetOptionsPrefix(pc, &pcprefix));
  PetscCall(PetscSNPrintf(prefix, sizeof(prefix), "%smg_coarse_", pcprefix ? pcprefix : ""));
  PetscCall(CoarseChosenByPrefix(((PetscObject)pc)->options, prefix, (PetscBool)(size > 1), &chosen));
  if (chosen) PetscFunctionReturn(PETSC_SUCCESS);
  *rows = HJD_MAX_SIZE;
  if (size > 1) PetscCall(PetscStrlcat(prefix, "redundant_", sizeof(prefix))); /* hjdense inside PCREDUNDANT */
  PetscCall(PetscOptionsGetInt(((PetscObject)pc)->options, prefix, "-pc_hjdense_max_size", rows, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* pc is PCMG's default LU with no solver package chosen in code: make it PCHJDENSE */
static PetscErrorCode ToDense(PC pc, PetscBool *done)
{
  PetscBool     lu;
  MatSolverType solver = NULL;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCLU, &lu));
  if (lu) PetscCall(PCFactorGetMatSolverType(pc, &solver));
  if (!lu || solver) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PCSetType(pc, PCHJDENSE));
  *done = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJMGCoarseDefault(PC pc)
{
  PC_MG         *mg = (PC_MG *)pc->data;
  const PetscInt n  = mg->levels ? mg->levels[0]->levels : 0;
  KSP            coarse;
  PC             cpc;
  PetscBool      lu, redundant, chosen, device, done = PETSC_FALSE;
  PetscMPIInt    size;

  PetscFunctionBegin;
  if (pc->setupcalled || n < 2 || !pc->dm || !(coarse = mg->levels[0]->smoothd)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DeviceVectors(pc, &device));
  if (!device) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPGetPC(coarse, &cpc));
  PetscCall(PetscObjectTypeCompare((PetscObject)cpc, PCLU, &lu));
  PetscCall(PetscObjectTypeCompare((PetscObject)cpc, PCREDUNDANT, &redundant));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)coarse), &size));
  if (!(lu && size == 1) && !(redundant && size > 1)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(CoarseChosen(cpc, redundant, &chosen));
  if (chosen) PetscFunctionReturn(PETSC_SUCCESS);
  if (lu) PetscCall(ToDense(cpc, &done));
  else {
    KSP         rksp;
    PC          rpc;
    PetscMPIInt rsize;

    PetscCall(PCRedundantGetKSP(cpc, &rksp)); /* made now as PCREDUNDANT's setup would (no redundant option was given) */
    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)rksp), &rsize));
    PetscCall(KSPGetPC(rksp, &rpc));
    if (rsize == 1) PetscCall(ToDense(rpc, &done)); /* (a PCRedundantSetNumber() of the code's may have made larger copies) */
  }
  if (done) PetscCall(PetscInfo(pc, "CUDA vectors: the coarse solve is hjdense%s (the coarse inverse as one dense product on the device)\n", redundant ? " inside PCREDUNDANT" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}
