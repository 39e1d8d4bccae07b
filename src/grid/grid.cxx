/* Which DMDA and which matrix PCHJACOBI reads: the grid is the PC's DMDA, else the Pmat's; contexts that hand the PC a
   bare block without a grid are refused with the list of those that work; symmetric storage (SBAIJ) is read through
   an AIJ copy, so the lower triangle is not lost. */
#include <petschjacobi/private/pchjacobiimpl.h>

/* Where the PC sits without a grid, and what works instead (the same text on every rank). */
static const char NoGridHelp[] = "This happens when hjacobi is the sub-preconditioner of a PC that passes it a bare matrix block without a grid: "
                                 "-pc_type bjacobi on more than one rank, asm without -pc_asm_dm_subdomains (or with -pc_asm_overlap or -pc_asm_blocks, which turn it off), redundant, gamg levels, fieldsplit by index sets. "
                                 "hjacobi works directly (-pc_type hjacobi: between ranks it already is block Jacobi with frozen halos), as the smoother of "
                                 "geometric multigrid on a DMDA (-pc_type mg -mg_levels_pc_type hjacobi), inside asm with one DMDA subdomain per rank "
                                 "(-pc_type asm -pc_asm_dm_subdomains -sub_pc_type hjacobi, the DMDA's -da_overlap 0: block Jacobi over ranks, what bjacobi would give), inside fieldsplit of a DMDA's fields "
                                 "(-pc_type fieldsplit -fieldsplit_0_pc_type hjacobi) and inside bjacobi on one rank; in your own code call "
                                 "KSPSetDM()/PCSetDM() with the DMDA";

/* A DMDA made by DMCreateDomainDecomposition() for PCASM (DMDASetOffset: a box of a larger grid). With overlap, the box
   spans ranks and PCASM's submatrix rows come sorted by global index, not in the box's grid order: refuse that. */
static PetscErrorCode CheckSubdomain(PC pc, DM da)
{
  PetscInt xo, yo, zo, Mo, No, Po, xs[3], xm[3], nxs[3], nxm[3];

  PetscFunctionBegin;
  PetscCall(DMDAGetOffset(da, &xo, &yo, &zo, &Mo, &No, &Po));
  if (Mo <= 0) PetscFunctionReturn(PETSC_SUCCESS); /* not a subdomain */
  PetscCall(DMDAGetCorners(da, &xs[0], &xs[1], &xs[2], &xm[0], &xm[1], &xm[2]));
  PetscCall(DMDAGetNonOverlappingRegion(da, &nxs[0], &nxs[1], &nxs[2], &nxm[0], &nxm[1], &nxm[2]));
  for (PetscInt d = 0; d < 3; d++)
    PetscCheck(xs[d] == nxs[d] && xm[d] == nxm[d], PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PCHJACOBI inside PCASM needs DMDA subdomains without overlap (one rank's box each), but this subdomain extends %" PetscInt_FMT " points beyond its rank's box in direction %" PetscInt_FMT "; use -da_overlap 0 (asm with DMDA subdomains is then block Jacobi over ranks)", PetscMax(nxs[d] - xs[d], xs[d] + xm[d] - nxs[d] - nxm[d]), d);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJFindGrid(PC pc, DM *da)
{
  DM        dm = pc->dm, mdm = NULL;
  PetscBool isda = PETSC_FALSE, misda = PETSC_FALSE;

  PetscFunctionBegin;
  *da = NULL;
  if (dm) PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMDA, &isda));
  if (!isda) { /* the Pmat's grid: e.g. ksp ex65 solves on a DMSHELL but assembles with DMCreateMatrix() on a DMDA */
    PetscCall(MatGetDM(pc->pmat, &mdm));
    if (mdm) PetscCall(PetscObjectTypeCompare((PetscObject)mdm, DMDA, &misda));
    if (misda && dm) PetscCall(PetscInfo(pc, "the PC's DM is of type %s; using the DMDA the Pmat was created on\n", ((PetscObject)dm)->type_name));
    if (misda) dm = mdm;
  }
  PetscCheck(dm, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONGSTATE, "PCHJACOBI needs the DMDA of its grid, but neither the PC nor its Pmat has a DM. %s", NoGridHelp);
  PetscCheck(isda || misda, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "PCHJACOBI needs a DMDA, but the PC's DM is of type %s and the Pmat was not created on a DMDA; use a structured-grid DMDA or another preconditioner. %s",
             ((PetscObject)dm)->type_name, NoGridHelp);
  PetscCall(CheckSubdomain(pc, dm));
  *da = dm;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MATSBAIJ stores the upper triangle only, and MatGetRow (with -mat_getrow_uppertriangular) returns only that: read as
   it is, the stencil would lose every lower coupling and the preconditioner would be silently wrong and nonsymmetric.
   MatConvert() to AIJ mirrors the triangle (a_{-s}(p+s) = a_s(p)) on any number of ranks, couplings across ranks
   included, and keeps the row distribution, so the DMDA layout still matches. Anything else is read as it is. */
PetscErrorCode HJPmatReadable(Mat A, Mat *R)
{
  PetscBool sym;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &sym, MATSBAIJ, MATSEQSBAIJ, MATMPISBAIJ, ""));
  if (sym) {
    PetscCall(PetscInfo(A, "symmetric storage (%s): the stencil is read from an AIJ copy with both triangles\n", ((PetscObject)A)->type_name));
    PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, R));
  } else *R = A; /* borrowed: the caller destroys *R only when it differs from A */
  PetscFunctionReturn(PETSC_SUCCESS);
}
