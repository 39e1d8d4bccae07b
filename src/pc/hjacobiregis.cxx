/* Package registration: the PC type, log events, the citation, and the entry point -dll_append looks up. */
#include <petschjacobi/private/pchjacobiimpl.h>

PetscLogEvent PCHJACOBI_Estimate, PCHJACOBI_Extract, PCHJACOBI_Cycle, PCHJACOBI_Exchange, PCHJACOBI_TileKernel, PCHJACOBI_ClassicKernel, PCHJACOBI_Fallback, PCHJACOBI_Residual, HJMG_Transfer, HJMG_Graph, HJMG_Record;

const char *const PCHJacobiBackends[]        = {"auto", "host", "cuda", "PCHJacobiBackend", "PC_HJACOBI_BACKEND_", NULL};
const char *const PCHJacobiWeightTypes[]     = {"auto", "constant", "chebyshev", "chebyshev_squared", "PCHJacobiWeightType", "PC_HJACOBI_WEIGHTS_", NULL};
const char *const PCHJacobiInnerPrecisions[] = {"native", "single", "PCHJacobiInnerPrecision", "PC_HJACOBI_INNER_PRECISION_", NULL};

static PetscBool PCHJacobiPackageInitialized = PETSC_FALSE;

static const char citation[] = "@inproceedings{islam2020hierarchical,\n"
                               "  title     = {Hierarchical {J}acobi Iteration for Structured Matrices on {GPU}s using Shared Memory},\n"
                               "  author    = {Mohammad Shafaet Islam and Qiqi Wang},\n"
                               "  booktitle = {IEEE High Performance Extreme Computing Conference (HPEC)},\n"
                               "  year      = {2022},\n"
                               "  note      = {arXiv:2006.16465}\n}\n";
static PetscBool  cited      = PETSC_FALSE;

/*@C
  PCHJacobiFinalizePackage - Clears the package's state at `PetscFinalize()`

  Level: developer

.seealso: `PCHJacobiInitializePackage()`
@*/
PetscErrorCode PCHJacobiFinalizePackage(void)
{
  PetscFunctionBegin;
  PCHJacobiPackageInitialized = PETSC_FALSE;
  cited                       = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  PCHJacobiInitializePackage - Registers `PCHJACOBI` with `PCRegister()` and its log events. Programs that link
  libpetsc-hjacobi call it once after `PetscInitialize()`; `-dll_append libpetsc-hjacobi.so` calls it for programs
  that do not. Calling it again does nothing.

  Level: beginner

.seealso: `PCHJACOBI`, `PCRegister()`
@*/
PetscErrorCode PCHJacobiInitializePackage(void)
{
  PetscFunctionBegin;
  if (PCHJacobiPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  PCHJacobiPackageInitialized = PETSC_TRUE;
  PetscCall(PCRegister(PCHJACOBI, PCCreate_HJacobi));
  PetscCall(PCRegister(PCHJMG, PCCreate_HJMG));       /* src/mg/: PCMG with hjacobi smoothers */
  PetscCall(PCRegister(PCHJDENSE, PCCreate_HJDense)); /* src/pc/hjdense/hjdense.cxx: hjmg's coarse solve on the GPU */
  PetscCall(PetscLogEventRegister("PCHJacobiExtract", PC_CLASSID, &PCHJACOBI_Extract));
  PetscCall(PetscLogEventRegister("PCHJacobiEstimate", PC_CLASSID, &PCHJACOBI_Estimate));
  PetscCall(PetscLogEventRegister("PCHJacobiCycle", PC_CLASSID, &PCHJACOBI_Cycle));
  PetscCall(PetscLogEventRegister("PCHJacobiExchange", PC_CLASSID, &PCHJACOBI_Exchange));
  PetscCall(PetscLogEventRegister("PCHJacobiTileKern", PC_CLASSID, &PCHJACOBI_TileKernel));
  PetscCall(PetscLogEventRegister("PCHJacobiClassicK", PC_CLASSID, &PCHJACOBI_ClassicKernel));
  PetscCall(PetscLogEventRegister("PCHJacobiFallback", PC_CLASSID, &PCHJACOBI_Fallback)); /* a device backend's PC on host vectors: the host backend's cycles */
  PetscCall(PetscLogEventRegister("PCHJacobiResidual", PC_CLASSID, &PCHJACOBI_Residual)); /* r = b - A x from the stencil ("PCHJacobiResidual_C") */
  PetscCall(PetscLogEventRegister("PCHJMGTransfer", PC_CLASSID, &HJMG_Transfer));         /* hjmg's stencil interpolation or restriction (src/mg/transfer.cxx) */
  PetscCall(PetscLogEventRegister("PCHJMGGraph", PC_CLASSID, &HJMG_Graph));               /* a replay of hjmg's recorded V-cycle (src/mg/graph.cxx) */
  PetscCall(PetscLogEventRegister("PCHJMGRecord", PC_CLASSID, &HJMG_Record));             /* its recording and check */
  PetscCall(PetscRegisterFinalize(PCHJacobiFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_INTERN PetscErrorCode PCHJacobiCite_Private(void)
{
  PetscFunctionBegin;
  PetscCall(PetscCitationsRegister(citation, &cited));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The symbol PETSc's -dll_append looks up for a library named libpetsc-hjacobi.so */
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_petsc_hjacobi(void)
{
  PetscFunctionBegin;
  PetscCall(PCHJacobiInitializePackage());
  PetscFunctionReturn(PETSC_SUCCESS);
}
