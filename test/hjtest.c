#include "hjtest.h"
#include <stdint.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- deterministic random numbers (splitmix64)
   Values depend on the grid point, not on the rank layout, so one operator serves every number of ranks. */
static uint64_t HJMix(uint64_t z)
{
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static PetscReal HJRand(PetscInt seed, PetscInt a, PetscInt b, PetscInt tag)
{
  uint64_t h = HJMix((uint64_t)seed ^ HJMix((uint64_t)a ^ HJMix((uint64_t)b ^ HJMix((uint64_t)tag))));
  return (PetscReal)((double)(h >> 11) * (1.0 / 9007199254740992.0));
}

/* ---------------------------------------------------------------- the problem: DMDA, index maps */
PetscErrorCode HJProblemCreate(MPI_Comm comm, HJProblem *p)
{
  const char     *kinds[] = {"star", "box"};
  PetscInt        kind = 0, dakind = -1, n = -1, i, j, k, d;
  DMBoundaryType  bt;
  DMDAStencilType st;
  const PetscInt *lx, *ly, *lz;
  PetscInt        xs, ys, zs, xm, ym, zm, rs;
  Vec             g;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(p, sizeof(*p)));
  p->comm = comm;
  PetscCallMPI(MPI_Comm_rank(comm, &p->rank));
  PetscCallMPI(MPI_Comm_size(comm, &p->size));
  p->dim                = 2;
  p->dof                = 1;
  p->sw                 = 1;
  p->seed               = 7;
  p->dirichlet_boundary = PETSC_TRUE;
  p->dirichlet_fraction = 0.05;
  p->zero_diag_row      = -1;
  p->missing_diag_row   = -1;
  p->perturb_row        = -1;
  p->perturb_diag_row   = -1;
  p->corner_row         = -1;
  PetscCall(PetscStrcpy(p->dmkind, "da"));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dim", &p->dim, NULL));
  PetscCheck(p->dim >= 1 && p->dim <= 3, comm, PETSC_ERR_ARG_OUTOFRANGE, "[hjtest] -dim must be 1, 2 or 3");
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  if (n < 0) n = p->dim == 1 ? 41 : (p->dim == 2 ? 17 : 9);
  PetscCall(PetscOptionsGetEList(NULL, NULL, "-kind", kinds, 2, &kind, NULL));
  PetscCall(PetscOptionsGetEList(NULL, NULL, "-da_stencil", kinds, 2, &dakind, NULL));
  if (dakind < 0) dakind = kind;
  p->box      = kind == 1 ? PETSC_TRUE : PETSC_FALSE;
  p->stardmda = dakind == 0 ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-periodic", &p->periodic, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-symmetric", &p->symmetric, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-dirichlet_boundary", &p->dirichlet_boundary, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-dirichlet_fraction", &p->dirichlet_fraction, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-seed", &p->seed, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dof", &p->dof, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-wide", &p->wide, NULL));
  if (p->wide) p->sw = 2;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-zero_diag_row", &p->zero_diag_row, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-missing_diag_row", &p->missing_diag_row, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-constant", &p->constant, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-zero_y", &p->zero_y, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-perturb_row", &p->perturb_row, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-perturb_diag_row", &p->perturb_diag_row, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-dirichlet_constant_diag", &p->dirichlet_cdiag, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-dm_kind", p->dmkind, sizeof(p->dmkind), NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-prealloc_only", &p->prealloc_only, NULL));

  bt = p->periodic ? DM_BOUNDARY_PERIODIC : DM_BOUNDARY_NONE;
  st = p->stardmda ? DMDA_STENCIL_STAR : DMDA_STENCIL_BOX;
  if (p->dim == 1) PetscCall(DMDACreate1d(comm, bt, n, p->dof, p->sw, NULL, &p->da));
  else if (p->dim == 2) PetscCall(DMDACreate2d(comm, bt, bt, st, n, n, PETSC_DECIDE, PETSC_DECIDE, p->dof, p->sw, NULL, NULL, &p->da));
  else PetscCall(DMDACreate3d(comm, bt, bt, bt, st, n, n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, p->dof, p->sw, NULL, NULL, NULL, &p->da));
  PetscCall(DMSetFromOptions(p->da)); /* -da_grid_x, -da_processors_x, -dm_vec_type cuda, -dm_mat_type aijcusparse ... */
  PetscCall(DMSetUp(p->da));
  PetscCall(DMDAGetInfo(p->da, NULL, &p->M[0], &p->M[1], &p->M[2], &p->m[0], &p->m[1], &p->m[2], NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetOwnershipRanges(p->da, &lx, &ly, &lz));
  for (d = 0; d < 3; d++) {
    const PetscInt *l = d == 0 ? lx : (d == 1 ? ly : lz);
    if (d >= p->dim) {
      p->M[d] = 1;
      p->m[d] = 1;
    }
    PetscCall(PetscMalloc2(p->m[d], &p->lr[d], p->m[d] + 1, &p->ls[d]));
    p->ls[d][0] = 0;
    for (i = 0; i < p->m[d]; i++) {
      p->lr[d][i]     = d < p->dim ? l[i] : 1;
      p->ls[d][i + 1] = p->ls[d][i] + p->lr[d][i];
    }
    PetscCheck(p->ls[d][p->m[d]] == p->M[d], comm, PETSC_ERR_PLIB, "[hjtest] ownership ranges do not add up");
  }
  PetscCheck(!p->periodic || (p->M[0] >= 3 && p->M[1] >= (p->dim > 1 ? 3 : 1) && p->M[2] >= (p->dim > 2 ? 3 : 1)), comm, PETSC_ERR_ARG_OUTOFRANGE, "[hjtest] periodic grids need at least 3 points per dimension");
  p->N = p->M[0] * p->M[1] * p->M[2];

  /* PETSc ordering: ranks in order r = pi + m0*(pj + m1*pk), each rank's box x fastest */
  PetscCall(PetscMalloc1(p->N, &p->petsc_of_nat));
  {
    PetscInt cnt = 0, pi, pj, pk;
    for (pk = 0; pk < p->m[2]; pk++)
      for (pj = 0; pj < p->m[1]; pj++)
        for (pi = 0; pi < p->m[0]; pi++)
          for (k = p->ls[2][pk]; k < p->ls[2][pk + 1]; k++)
            for (j = p->ls[1][pj]; j < p->ls[1][pj + 1]; j++)
              for (i = p->ls[0][pi]; i < p->ls[0][pi + 1]; i++) p->petsc_of_nat[i + p->M[0] * (j + p->M[1] * k)] = cnt++;
  }
  /* check the map against the DMDA on the points this rank owns (every rank checks its own part) */
  PetscCall(DMDAGetCorners(p->da, &xs, &ys, &zs, &xm, &ym, &zm));
  PetscCall(DMGetGlobalVector(p->da, &g));
  PetscCall(VecGetOwnershipRange(g, &rs, NULL));
  PetscCall(DMRestoreGlobalVector(p->da, &g));
  for (k = zs; k < zs + zm; k++)
    for (j = ys; j < ys + ym; j++)
      for (i = xs; i < xs + xm; i++) {
        PetscInt l = (i - xs) + xm * ((j - ys) + ym * (k - zs));
        PetscCheck(p->petsc_of_nat[i + p->M[0] * (j + p->M[1] * k)] * p->dof == rs + l * p->dof, PETSC_COMM_SELF, PETSC_ERR_PLIB, "[hjtest] index map disagrees with the DMDA");
      }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJProblemDestroy(HJProblem *p)
{
  PetscFunctionBeginUser;
  for (PetscInt d = 0; d < 3; d++) PetscCall(PetscFree2(p->lr[d], p->ls[d]));
  PetscCall(PetscFree(p->petsc_of_nat));
  PetscCall(DMDestroy(&p->da));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- the random operator */
static PetscBool HJIsDirichlet(HJProblem *p, const PetscInt c[3], PetscInt nat)
{
  if (p->dirichlet_boundary && !p->periodic)
    for (PetscInt d = 0; d < p->dim; d++)
      if (c[d] == 0 || c[d] == p->M[d] - 1) return PETSC_TRUE;
  return HJRand(p->seed, nat, 0, 3) < p->dirichlet_fraction ? PETSC_TRUE : PETSC_FALSE;
}

/* neighbour of c at offset s; returns PETSC_FALSE outside a non-periodic domain */
static PetscBool HJNeighbour(HJProblem *p, const PetscInt c[3], const PetscInt s[3], PetscInt q[3])
{
  for (PetscInt d = 0; d < 3; d++) {
    q[d] = c[d] + s[d];
    if (q[d] < 0 || q[d] >= p->M[d]) {
      if (!p->periodic || d >= p->dim) return PETSC_FALSE;
      q[d] = (q[d] + p->M[d]) % p->M[d];
    }
  }
  return PETSC_TRUE;
}

static PetscInt HJNat(HJProblem *p, const PetscInt c[3])
{
  return c[0] + p->M[0] * (c[1] + p->M[1] * c[2]);
}

/* complex PETSc: an imaginary part in [-0.5, 0.5) for the values of a nonsymmetric operator and of vectors, so that
   every complex product (and a conjugation where the method has none, e.g. in M^T) shows; symmetric operators stay
   real (Hermitian: CG and the symmetry tests apply) */
static PetscScalar HJImag(HJProblem *p, PetscInt vseed, PetscInt a, PetscInt b)
{
#if defined(PETSC_USE_COMPLEX)
  if (!p || !p->symmetric) return PETSC_i * (HJRand(vseed, a, b, 7) - 0.5);
#endif
  return 0.0;
}

/* off-diagonal coupling value between rows (pn, c1) and (qn, c2) at offset s; symmetric operators hash the unordered
   pair; constant operators hash only the offset (s and -s alike when symmetric) */
static PetscScalar HJCoupling(HJProblem *p, PetscInt vseed, PetscInt pn, PetscInt c1, PetscInt qn, PetscInt c2, const PetscInt s[3])
{
  PetscInt a = pn * p->dof + c1, b = qn * p->dof + c2;
  if (p->constant) {
    PetscInt code = (s[0] + 1) + 3 * (s[1] + 1) + 9 * (s[2] + 1);
    a             = p->symmetric ? PetscMin(code, 26 - code) : code;
    b             = -1 - (c1 * p->dof + c2);
  } else if (p->symmetric && a > b) {
    PetscInt t = a;
    a          = b;
    b          = t;
  }
  return 2.0 * HJRand(vseed, a, b, 1) - 1.5 + HJImag(p, vseed, a, b); /* real part in [-1.5, 0.5): mostly negative, some positive */
}

PetscErrorCode HJProblemCreateMatrix(HJProblem *p, Mat *A)
{
  PetscBool isda, isnone, isshell;

  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(p->dmkind, "da", &isda));
  PetscCall(PetscStrcmp(p->dmkind, "none", &isnone));
  PetscCall(PetscStrcmp(p->dmkind, "shell", &isshell));
  PetscCheck(isda || isnone || isshell, p->comm, PETSC_ERR_ARG_WRONG, "[hjtest] -dm_kind must be da, none or shell");
  if (isda) {
    PetscCall(DMSetMatrixPreallocateOnly(p->da, p->prealloc_only));
    PetscCall(DMCreateMatrix(p->da, A));
  } else {
    /* a plain matrix that knows nothing of the grid */
    PetscInt nloc;
    Vec      g;
    PetscCall(DMGetGlobalVector(p->da, &g));
    PetscCall(VecGetLocalSize(g, &nloc));
    PetscCall(DMRestoreGlobalVector(p->da, &g));
    PetscCall(MatCreate(p->comm, A));
    PetscCall(MatSetSizes(*A, nloc, nloc, PETSC_DETERMINE, PETSC_DETERMINE));
    PetscCall(MatSetType(*A, MATAIJ));
    PetscCall(MatSetFromOptions(*A));
    PetscCall(MatSeqAIJSetPreallocation(*A, 29 * p->dof, NULL));
    PetscCall(MatMPIAIJSetPreallocation(*A, 29 * p->dof, NULL, 29 * p->dof, NULL));
  }
  /* box couplings on a star DMDA (Galerkin coarse grids) need more than the DMDA preallocates */
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_LOCATION_ERR, PETSC_FALSE));
  PetscCall(MatSetOption(*A, MAT_SORTED_FULL, PETSC_FALSE)); /* DMDA preallocate-only sets it; our rows are not sorted */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Fills A with the random operator; vseed picks the values, the pattern (Dirichlet rows) depends only on p->seed.
   Global indices come from our own map, so box entries on a star DMDA reach corner neighbours on other ranks. */
PetscErrorCode HJProblemAssemble(HJProblem *p, PetscInt vseed, Mat A)
{
  PetscInt     xs, ys, zs, xm, ym, zm, c[3], s[3], q[3], dof = p->dof, lo[3], hi[3], nc, d, zero[3] = {0, 0, 0};
  PetscInt    *cols;
  PetscScalar *vals;
  PetscReal    cdiag = 0; /* the diagonal of a constant operator: dominant over the full stencil */

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(32 * dof, &cols, 32 * dof, &vals));
  PetscCall(DMDAGetCorners(p->da, &xs, &ys, &zs, &xm, &ym, &zm));
  for (d = 0; d < 3; d++) {
    lo[d] = d < p->dim ? -1 : 0;
    hi[d] = d < p->dim ? 1 : 0;
  }
  for (s[2] = lo[2]; s[2] <= hi[2]; s[2]++)
    for (s[1] = lo[1]; s[1] <= hi[1]; s[1]++)
      for (s[0] = lo[0]; s[0] <= hi[0]; s[0]++) {
        PetscInt nnz = (s[0] != 0) + (s[1] != 0) + (s[2] != 0);
        if (nnz == 0 || (!p->box && nnz > 1)) continue;
        for (PetscInt c2 = 0; c2 < dof; c2++) cdiag += PetscAbsScalar(HJCoupling(p, vseed, 0, 0, 0, c2, s)) * (c2 ? 0.1 : 1.0);
      }
  cdiag = cdiag * (1.1 + 0.5 * HJRand(vseed, 0, 0, 5)) + 0.05;
  for (c[2] = zs; c[2] < zs + zm; c[2]++)
    for (c[1] = ys; c[1] < ys + ym; c[1]++)
      for (c[0] = xs; c[0] < xs + xm; c[0]++) {
        PetscInt  pn   = HJNat(p, c);
        PetscInt  prow = p->petsc_of_nat[pn];
        PetscBool dir  = HJIsDirichlet(p, c, pn);
        for (PetscInt c1 = 0; c1 < dof; c1++) {
          PetscReal offsum = 0;
          PetscInt  row    = prow * dof + c1;
          nc               = 0;
          if (!dir) {
            for (s[2] = lo[2]; s[2] <= hi[2]; s[2]++)
              for (s[1] = lo[1]; s[1] <= hi[1]; s[1]++)
                for (s[0] = lo[0]; s[0] <= hi[0]; s[0]++) {
                  PetscInt nnz = (s[0] != 0) + (s[1] != 0) + (s[2] != 0), qn;
                  if (nnz == 0 || (!p->box && nnz > 1 && pn != p->corner_row)) continue;
                  if (!HJNeighbour(p, c, s, q)) continue;
                  qn = HJNat(p, q);
                  if (p->symmetric && HJIsDirichlet(p, q, qn)) continue; /* keep A symmetric */
                  for (PetscInt c2 = 0; c2 < dof; c2++) {
                    PetscScalar v = (p->zero_y && s[1] != 0) ? 0.0 : HJCoupling(p, vseed, pn, c1, qn, c2, s); /* stored zeros */
                    if (pn == p->perturb_row && nc == 0) v *= 1.5;
                    if (c2 != c1) v *= 0.1;
                    cols[nc]   = p->petsc_of_nat[qn] * dof + c2;
                    vals[nc++] = v;
                    offsum += PetscAbsScalar(v);
                  }
                }
            if (p->wide) { /* an entry two points away in x: outside the width-1 box */
              PetscInt w[3] = {2, 0, 0};
              if (HJNeighbour(p, c, w, q)) {
                cols[nc]   = p->petsc_of_nat[HJNat(p, q)] * dof + c1;
                vals[nc++] = -0.25;
                offsum += 0.25;
              }
            }
            for (PetscInt c2 = 0; c2 < dof; c2++) { /* the rest of the diagonal block */
              PetscScalar v;
              if (c2 == c1) continue;
              v          = 0.1 * HJCoupling(p, vseed, pn, c1, pn, c2, zero);
              cols[nc]   = prow * dof + c2;
              vals[nc++] = v;
              offsum += PetscAbsScalar(v);
            }
          }
          if (pn != p->missing_diag_row) {
            cols[nc] = row;
            if (pn == p->zero_diag_row) vals[nc++] = 0.0;
            else if (dir && !(p->constant && p->dirichlet_cdiag)) vals[nc++] = 0.5 + HJRand(vseed, pn * dof + c1, 0, 2);
            else if (p->constant) vals[nc++] = cdiag;
            else vals[nc++] = offsum * (1.1 + 0.5 * HJRand(vseed, pn * dof + c1, 0, 2)) + 0.05 + offsum * HJImag(p, vseed, pn * dof + c1, -2);
            if (pn == p->perturb_diag_row) vals[nc - 1] *= 1.5;
          }
          PetscCall(MatSetValues(A, 1, &row, nc, cols, vals, INSERT_VALUES));
        }
      }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree2(cols, vals));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJProblemFillVec(HJProblem *p, PetscInt vseed, Vec v)
{
  PetscInt     xs, ys, zs, xm, ym, zm, c[3];
  PetscScalar *a;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetCorners(p->da, &xs, &ys, &zs, &xm, &ym, &zm));
  PetscCall(VecGetArray(v, &a));
  for (c[2] = zs; c[2] < zs + zm; c[2]++)
    for (c[1] = ys; c[1] < ys + ym; c[1]++)
      for (c[0] = xs; c[0] < xs + xm; c[0]++) {
        PetscInt l = (c[0] - xs) + xm * ((c[1] - ys) + ym * (c[2] - zs));
        for (PetscInt f = 0; f < p->dof; f++) a[l * p->dof + f] = 2.0 * HJRand(vseed, HJNat(p, c) * p->dof + f, 0, 4) - 1.0 + HJImag(NULL, vseed, HJNat(p, c) * p->dof + f, -4);
      }
  PetscCall(VecRestoreArray(v, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJProblemView(HJProblem *p, const HJParams *par)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(p->comm, "hjtest config: dim %" PetscInt_FMT " grid %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT " ranks %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT " couplings %s dmda %s%s%s", p->dim, p->M[0], p->M[1], p->M[2], p->m[0], p->m[1], p->m[2], p->box ? "box" : "star", p->stardmda ? "star" : "box", p->periodic ? " periodic" : "", p->symmetric ? " symmetric" : ""));
  if (par) {
    PetscCall(PetscPrintf(p->comm, " | tile %" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT " overlap %" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT " subits %" PetscInt_FMT " cycles %" PetscInt_FMT " omega %g", par->t[0], par->t[1], par->t[2],
                          par->o[0], par->o[1], par->o[2], par->k, par->c, (double)par->w));
    if (par->wtype == PC_HJACOBI_WEIGHTS_CHEBYSHEV || par->wtype == PC_HJACOBI_WEIGHTS_CHEBYSHEV_SQUARED) PetscCall(PetscPrintf(p->comm, " weights %s on [%g, %g]", PCHJacobiWeightTypes[par->wtype], (double)par->lo, (double)par->hi));
    else PetscCall(PetscPrintf(p->comm, " weights %s", PCHJacobiWeightTypes[par->wtype]));
  }
  PetscCall(PetscPrintf(p->comm, "\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- parameters
   The reference takes the PC's parameters from its getters; when check_options is set, the options on the command
   line are also parsed here (one value = every dimension) and must agree with the getters. */
static PetscErrorCode HJCheckArrayOption(PC pc, HJProblem *p, const char *name, const PetscInt got[3], PetscBool *ok)
{
  const char *prefix;
  PetscInt    v[3] = {0, 0, 0}, nv = 3;
  PetscBool   set;

  PetscFunctionBeginUser;
  PetscCall(PCGetOptionsPrefix(pc, &prefix));
  PetscCall(PetscOptionsGetIntArray(NULL, prefix, name, v, &nv, &set));
  if (!set) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt d = 0; d < p->dim; d++) {
    PetscInt want = nv == 1 ? v[0] : v[d];
    PetscCheck(nv == 1 || nv >= p->dim, p->comm, PETSC_ERR_ARG_WRONG, "[hjtest] give %s one value or one per dimension", name);
    if (want != got[d]) {
      PetscCall(PetscPrintf(p->comm, "hjtest FAIL option %s: dimension %" PetscInt_FMT " asked %" PetscInt_FMT ", the PC reports %" PetscInt_FMT "\n", name, d, want, got[d]));
      *ok = PETSC_FALSE;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int HJCmpReal(const void *a, const void *b)
{
  PetscReal x = *(const PetscReal *)a, y = *(const PetscReal *)b;
  return x < y ? -1 : (x > y ? 1 : 0);
}

/* The sweep weights, independently of the library (doc/algorithm.md "Per-sweep weights w_1..w_k"): constant: omega k
   times; chebyshev: 1/l_j, l_j = (hi + lo)/2 + (hi - lo)/2 cos((2j - 1) pi / (2k)), j = 1..k; chebyshev_squared: the
   h = k/2 nodes of degree h each twice, and 1/hi for odd k. The PC's weights (PCHJacobiGetSweepWeights) must be this
   multiset; the reference then runs them in the PC's order. */
static PetscErrorCode HJWeightsGet(PC pc, HJProblem *p, HJParams *par)
{
  PetscInt         nk, n = 0;
  const PetscReal *pw;
  PetscReal        want[HJ_MAX_SWEEPS], got[HJ_MAX_SWEEPS], dmax = 0;
  PetscBool        ok = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCheck(par->k >= 1 && par->k <= HJ_MAX_SWEEPS, p->comm, PETSC_ERR_SUP, "[hjtest] the reference handles 1 to %d sub-iterations, got %" PetscInt_FMT, HJ_MAX_SWEEPS, par->k);
  PetscCall(PCHJacobiGetWeights(pc, &par->wtype));
  PetscCall(PCHJacobiGetSweepWeights(pc, &nk, &pw));
  par->lo = par->hi = 0;
  if (par->wtype == PC_HJACOBI_WEIGHTS_CONSTANT) {
    for (PetscInt j = 0; j < par->k; j++) want[n++] = par->w;
  } else if (par->wtype == PC_HJACOBI_WEIGHTS_CHEBYSHEV || par->wtype == PC_HJACOBI_WEIGHTS_CHEBYSHEV_SQUARED) {
    const PetscBool sq  = (PetscBool)(par->wtype == PC_HJACOBI_WEIGHTS_CHEBYSHEV_SQUARED);
    const PetscInt  deg = sq ? par->k / 2 : par->k;
    PetscCall(PCHJacobiGetChebyshevInterval(pc, &par->lo, &par->hi));
    if (!(par->lo > 0 && par->lo < par->hi)) {
      PetscCall(PetscPrintf(p->comm, "hjtest FAIL sweep weights: %s with the interval [%g, %g] (needs 0 < lo < hi)\n", PCHJacobiWeightTypes[par->wtype], (double)par->lo, (double)par->hi));
      ok = PETSC_FALSE;
    }
    for (PetscInt j = 1; j <= deg; j++) {
      PetscReal l = (par->hi + par->lo) / 2 + (par->hi - par->lo) / 2 * PetscCosReal((2 * j - 1) * PETSC_PI / (2 * deg));
      want[n++]   = 1 / l;
      if (sq) want[n++] = 1 / l;
    }
    if (sq && par->k % 2) want[n++] = 1 / par->hi;
  } else SETERRQ(p->comm, PETSC_ERR_PLIB, "[hjtest] PCHJacobiGetWeights after setup gave %d, not constant, chebyshev or chebyshev_squared", (int)par->wtype);
  if (nk != par->k) {
    PetscCall(PetscPrintf(p->comm, "hjtest FAIL sweep weights: the PC has %" PetscInt_FMT " weights for %" PetscInt_FMT " sub-iterations\n", nk, par->k));
    ok = PETSC_FALSE;
  } else {
    for (PetscInt j = 0; j < nk; j++) got[j] = pw[j];
    qsort(want, (size_t)n, sizeof(PetscReal), HJCmpReal);
    qsort(got, (size_t)nk, sizeof(PetscReal), HJCmpReal);
    for (PetscInt j = 0; j < nk; j++) dmax = PetscMax(dmax, PetscAbsReal(got[j] - want[j]) / PetscAbsReal(want[j]));
    if (!(dmax <= 1e-12)) {
      PetscCall(PetscPrintf(p->comm, "hjtest FAIL sweep weights: the PC's %s weights differ from the definition by %g (relative); sorted, PC vs definition:", PCHJacobiWeightTypes[par->wtype], (double)dmax));
      for (PetscInt j = 0; j < nk; j++) PetscCall(PetscPrintf(p->comm, " %.15g/%.15g", (double)got[j], (double)want[j]));
      PetscCall(PetscPrintf(p->comm, "\n"));
      ok = PETSC_FALSE;
    }
  }
  PetscCheck(ok, p->comm, PETSC_ERR_PLIB, "[hjtest] the PC's sweep weights disagree with doc/algorithm.md (hjtest FAIL above)");
  for (PetscInt j = 0; j < par->k; j++) par->wts[j] = pw[j];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJParamsGet(PC pc, HJProblem *p, PetscBool check_options, HJParams *par)
{
  PetscFunctionBeginUser;
  PetscCall(PCHJacobiGetTileSize(pc, &par->t[0], &par->t[1], &par->t[2]));
  PetscCall(PCHJacobiGetOverlap(pc, &par->o[0], &par->o[1], &par->o[2]));
  PetscCall(PCHJacobiGetSubiterations(pc, &par->k));
  PetscCall(PCHJacobiGetCycles(pc, &par->c));
  PetscCall(PCHJacobiGetOmega(pc, &par->w));
  for (PetscInt d = p->dim; d < 3; d++) { /* unused dimensions: one point, one tile */
    par->t[d] = 1;
    par->o[d] = 0;
  }
  PetscCall(HJWeightsGet(pc, p, par));
  if (check_options) {
    const char *prefix;
    PetscBool   ok = PETSC_TRUE, set;
    PetscInt    iv;
    PetscReal   rv;
    PetscCall(PCGetOptionsPrefix(pc, &prefix));
    PetscCall(HJCheckArrayOption(pc, p, "-pc_hjacobi_tile", par->t, &ok));
    PetscCall(HJCheckArrayOption(pc, p, "-pc_hjacobi_overlap", par->o, &ok));
    PetscCall(PetscOptionsGetInt(NULL, prefix, "-pc_hjacobi_subiterations", &iv, &set));
    if (set && iv != par->k) ok = PETSC_FALSE;
    PetscCall(PetscOptionsGetInt(NULL, prefix, "-pc_hjacobi_cycles", &iv, &set));
    if (set && iv != par->c) ok = PETSC_FALSE;
    PetscCall(PetscOptionsGetReal(NULL, prefix, "-pc_hjacobi_omega", &rv, &set));
    if (set && rv != par->w) ok = PETSC_FALSE;
    {
      PetscInt  wt = -1;
      PetscReal iv2[2];
      PetscInt  n2 = 2;
      PetscCall(PetscOptionsGetEList(NULL, prefix, "-pc_hjacobi_weights", PCHJacobiWeightTypes, 4, &wt, &set));
      if (set && wt > 0 && wt != (PetscInt)par->wtype) {
        PetscCall(PetscPrintf(p->comm, "hjtest FAIL option -pc_hjacobi_weights: asked %s, the PC uses %s\n", PCHJacobiWeightTypes[wt], PCHJacobiWeightTypes[par->wtype]));
        ok = PETSC_FALSE;
      }
      PetscCall(PetscOptionsGetRealArray(NULL, prefix, "-pc_hjacobi_chebyshev_interval", iv2, &n2, &set));
      if (set && n2 == 2 && iv2[0] > 0 && iv2[1] > 0 && par->wtype != PC_HJACOBI_WEIGHTS_CONSTANT && (iv2[0] != par->lo || iv2[1] != par->hi)) {
        PetscCall(PetscPrintf(p->comm, "hjtest FAIL option -pc_hjacobi_chebyshev_interval: asked [%g, %g], the PC uses [%g, %g]\n", (double)iv2[0], (double)iv2[1], (double)par->lo, (double)par->hi));
        ok = PETSC_FALSE;
      }
    }
    PetscCheck(ok, p->comm, PETSC_ERR_PLIB, "[hjtest] the PC's getters disagree with the command-line options");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- gathering */
PetscErrorCode HJGatherMatrix(Mat A, PetscBool transpose, HJCSR *csr)
{
  IS       is;
  Mat     *sub, S, T;
  PetscInt N, nnz = 0, ncols, r;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, N, 0, 1, &is));
  PetscCall(MatCreateSubMatrices(A, 1, &is, &is, MAT_INITIAL_MATRIX, &sub));
  PetscCall(MatConvert(sub[0], MATSEQAIJ, MAT_INITIAL_MATRIX, &S)); /* host copy, whatever the type */
  PetscCall(MatDestroySubMatrices(1, &sub));
  PetscCall(ISDestroy(&is));
  if (transpose) {
    PetscCall(MatTranspose(S, MAT_INITIAL_MATRIX, &T));
    PetscCall(MatDestroy(&S));
    S = T;
  }
  for (r = 0; r < N; r++) {
    PetscCall(MatGetRow(S, r, &ncols, NULL, NULL));
    nnz += ncols;
    PetscCall(MatRestoreRow(S, r, &ncols, NULL, NULL));
  }
  csr->n = N;
  PetscCall(PetscMalloc3(N + 1, &csr->ia, nnz, &csr->ja, nnz, &csr->a));
  csr->ia[0] = 0;
  for (r = 0; r < N; r++) {
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscCall(MatGetRow(S, r, &ncols, &cols, &vals));
    for (PetscInt e = 0; e < ncols; e++) {
      csr->ja[csr->ia[r] + e] = cols[e];
      csr->a[csr->ia[r] + e]  = vals[e];
    }
    csr->ia[r + 1] = csr->ia[r] + ncols;
    PetscCall(MatRestoreRow(S, r, &ncols, &cols, &vals));
  }
  PetscCall(MatDestroy(&S));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJCSRDestroy(HJCSR *csr)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree3(csr->ia, csr->ja, csr->a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJGatherVec(Vec v, PetscScalar **full)
{
  VecScatter         sc;
  Vec                all;
  PetscInt           N;
  const PetscScalar *a;

  PetscFunctionBeginUser;
  PetscCall(VecScatterCreateToAll(v, &sc, &all));
  PetscCall(VecScatterBegin(sc, v, all, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sc, v, all, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetSize(all, &N));
  PetscCall(PetscMalloc1(N, full));
  PetscCall(VecGetArrayRead(all, &a));
  PetscCall(PetscArraycpy(*full, a, N));
  PetscCall(VecRestoreArrayRead(all, &a));
  PetscCall(VecScatterDestroy(&sc));
  PetscCall(VecDestroy(&all));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- the reference, doc/algorithm.md literally
   Tiles along one dimension of a box of n points (step 1): working regions of t points start every t - o points
   and are clipped to the box; (n - o)/(t - o) of them, rounded up, at least one. Of the o points two neighbours
   share, the o/2 nearer a tile's centre are its own; the first tile owns from the box's start, the last to its end. */
PetscErrorCode HJTileRanges(PetscInt n, PetscInt t, PetscInt o, PetscInt *ntiles, PetscInt ws[], PetscInt we[], PetscInt os[], PetscInt oe[])
{
  PetscInt nt, i;

  PetscFunctionBeginUser;
  PetscCheck(t >= 1 && o >= 0 && o < t && o % 2 == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "[hjtest] reference got t %" PetscInt_FMT " o %" PetscInt_FMT, t, o);
  nt = n > o ? (n - o + (t - o) - 1) / (t - o) : 1;
  if (nt < 1) nt = 1;
  for (i = 0; i < nt; i++) {
    ws[i] = i * (t - o);
    we[i] = PetscMin(ws[i] + t, n);
    os[i] = i == 0 ? 0 : ws[i] + o / 2;
    oe[i] = i == nt - 1 ? n : ws[i] + t - o / 2;
    PetscCheck(os[i] < oe[i] && ws[i] <= os[i] && oe[i] <= we[i], PETSC_COMM_SELF, PETSC_ERR_PLIB, "[hjtest] reference tile %" PetscInt_FMT " of %" PetscInt_FMT " (n %" PetscInt_FMT ", t %" PetscInt_FMT ", o %" PetscInt_FMT ") is degenerate", i, nt, n, t, o);
  }
  *ntiles = nt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Does the coupling between natural points a and b cross a periodic seam? A periodic seam is a tile boundary, like a
   rank boundary (doc/design.md): even when one tile spans the whole periodic direction, the neighbour across the seam
   is read from the frozen halo. */
static PetscBool Seam(const HJProblem *p, PetscInt a, PetscInt b)
{
  const PetscInt ca[3] = {a % p->M[0], (a / p->M[0]) % p->M[1], a / (p->M[0] * p->M[1])};
  const PetscInt cb[3] = {b % p->M[0], (b / p->M[0]) % p->M[1], b / (p->M[0] * p->M[1])};
  for (PetscInt d = 0; d < 3; d++)
    if (PetscAbsInt(ca[d] - cb[d]) > 1) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* Solves D z = r for the n x n row-major D by Gaussian elimination with partial pivoting (D and r are overwritten);
   for n = 1 this is z = r / d. */
static PetscErrorCode HJSolveBlock(PetscInt n, PetscScalar *D, PetscScalar *r, PetscScalar *z)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < n; k++) {
    PetscInt piv = k;
    for (PetscInt i = k + 1; i < n; i++)
      if (PetscAbsScalar(D[i * n + k]) > PetscAbsScalar(D[piv * n + k])) piv = i;
    PetscCheck(D[piv * n + k] != 0.0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "[hjtest] the reference met a singular diagonal block");
    if (piv != k) {
      for (PetscInt j = 0; j < n; j++) {
        PetscScalar t  = D[k * n + j];
        D[k * n + j]   = D[piv * n + j];
        D[piv * n + j] = t;
      }
      {
        PetscScalar t = r[k];
        r[k]          = r[piv];
        r[piv]        = t;
      }
    }
    for (PetscInt i = k + 1; i < n; i++) {
      PetscScalar f = D[i * n + k] / D[k * n + k];
      for (PetscInt j = k; j < n; j++) D[i * n + j] -= f * D[k * n + j];
      r[i] -= f * r[k];
    }
  }
  for (PetscInt i = n - 1; i >= 0; i--) {
    PetscScalar v = r[i];
    for (PetscInt j = i + 1; j < n; j++) v -= D[i * n + j] * z[j];
    z[i] = v / D[i * n + i];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ncycles cycles of doc/algorithm.md on the full vector x (PETSc ordering, every rank computes all of it). With dof > 1
   fields per point, y(p) is the point's vector of dof values, d(p) its dof x dof diagonal block (the entries of its
   rows in its own columns) and the division a solve with d(p).
   transpose (A is then A^T): the cycles of PCApplyTranspose as doc/algorithm.md defines them, x' = x + N^T (b - A^T x):
   per tile, the residual on T's owned points (zero on the rest of W(T)), k damped sweeps with A_TT^T from zero with a
   zero halo, and the whole of W(T) added to x' (overlapping tiles add). */
static PetscErrorCode RefCycles(HJProblem *p, const HJCSR *A, const HJParams *par, const PetscScalar *b, PetscScalar *x, PetscInt ncycles, PetscBool transpose)
{
  PetscInt     N = p->N, dof = p->dof, Nd = p->N * p->dof, *stamp, *count, *list, *natof, tileid = 0, d, cyc;
  PetscInt    *ws[3], *we[3], *os[3], *oe[3], nt[3];
  PetscScalar *xin, *xout, *y, *ynew, *rhs, *resid, D[64], res[8], z[8];

  PetscFunctionBeginUser;
  PetscCheck(dof >= 1 && dof <= 8, p->comm, PETSC_ERR_SUP, "[hjtest] the reference handles 1 to 8 fields per grid point");
  PetscCheck(A->n == Nd, p->comm, PETSC_ERR_PLIB, "[hjtest] matrix size");
  PetscCall(PetscMalloc4(Nd, &xin, Nd, &xout, Nd, &y, Nd, &ynew));
  PetscCall(PetscMalloc2(Nd, &rhs, Nd, &resid));
  PetscCall(PetscMalloc4(N, &stamp, N, &count, N, &list, N, &natof));
  for (PetscInt n = 0; n < N; n++) natof[p->petsc_of_nat[n]] = n;
  for (d = 0; d < 3; d++) PetscCall(PetscMalloc4(p->M[d] + 1, &ws[d], p->M[d] + 1, &we[d], p->M[d] + 1, &os[d], p->M[d] + 1, &oe[d]));
  PetscCall(PetscArraycpy(xin, x, Nd));
  for (PetscInt g = 0; g < N; g++) stamp[g] = -1;
  for (cyc = 0; cyc < ncycles; cyc++) {
    PetscCall(PetscArrayzero(count, N));
    if (transpose) { /* r = b - A^T x; x' starts from x and every tile adds its correction */
      for (PetscInt row = 0; row < Nd; row++) {
        resid[row] = b[row];
        for (PetscInt q = A->ia[row]; q < A->ia[row + 1]; q++) resid[row] -= A->a[q] * xin[A->ja[q]];
      }
      PetscCall(PetscArraycpy(xout, xin, Nd));
    }
    for (PetscInt pk = 0; pk < p->m[2]; pk++)
      for (PetscInt pj = 0; pj < p->m[1]; pj++)
        for (PetscInt pi = 0; pi < p->m[0]; pi++) {
          PetscInt r[3] = {pi, pj, pk}, bs[3];
          for (d = 0; d < 3; d++) {
            bs[d] = p->ls[d][r[d]];
            PetscCall(HJTileRanges(p->lr[d][r[d]], par->t[d], par->o[d], &nt[d], ws[d], we[d], os[d], oe[d]));
          }
          for (PetscInt tk = 0; tk < nt[2]; tk++)
            for (PetscInt tj = 0; tj < nt[1]; tj++)
              for (PetscInt ti = 0; ti < nt[0]; ti++) {
                PetscInt nw = 0, i, j, k;
                tileid++;
                /* step 2: y = x on W(T), the right-hand side b; transposed: y = 0, the residual on T's owned points */
                for (k = bs[2] + ws[2][tk]; k < bs[2] + we[2][tk]; k++)
                  for (j = bs[1] + ws[1][tj]; j < bs[1] + we[1][tj]; j++)
                    for (i = bs[0] + ws[0][ti]; i < bs[0] + we[0][ti]; i++) {
                      PetscInt  g     = p->petsc_of_nat[i + p->M[0] * (j + p->M[1] * k)];
                      PetscBool owned = (PetscBool)(k >= bs[2] + os[2][tk] && k < bs[2] + oe[2][tk] && j >= bs[1] + os[1][tj] && j < bs[1] + oe[1][tj] && i >= bs[0] + os[0][ti] && i < bs[0] + oe[0][ti]);
                      list[nw++]      = g;
                      stamp[g]        = tileid;
                      for (PetscInt f = 0; f < dof; f++) {
                        y[g * dof + f]   = transpose ? 0 : xin[g * dof + f];
                        rhs[g * dof + f] = transpose ? (owned ? resid[g * dof + f] : 0) : b[g * dof + f];
                      }
                    }
                /* step 3: k Jacobi sweeps on W(T), the halo (every other point) frozen at x (transposed: at zero) */
                for (PetscInt sweep = 0; sweep < par->k; sweep++) {
                  for (PetscInt e = 0; e < nw; e++) {
                    PetscInt pp = list[e];
                    if (dof == 1) {
                      PetscScalar sum = 0, dg = 0;
                      for (PetscInt q = A->ia[pp]; q < A->ia[pp + 1]; q++) {
                        PetscInt col = A->ja[q];
                        if (col == pp) dg += A->a[q];
                        else sum += A->a[q] * (stamp[col] == tileid && !Seam(p, natof[pp], natof[col]) ? y[col] : (transpose ? 0 : xin[col]));
                      }
                      PetscCheck(dg != 0.0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "[hjtest] the reference met a zero on the main diagonal");
                      ynew[pp] = y[pp] + par->wts[sweep] * (rhs[pp] - sum - dg * y[pp]) / dg;
                    } else { /* r = b(p) - sum_s A_s(p) y(p+s) - d(p) y(p); y(p) += w d(p)^{-1} r */
                      PetscCall(PetscArrayzero(D, dof * dof));
                      for (PetscInt c1 = 0; c1 < dof; c1++) {
                        PetscInt    row = pp * dof + c1;
                        PetscScalar sum = 0;
                        for (PetscInt q = A->ia[row]; q < A->ia[row + 1]; q++) {
                          PetscInt col = A->ja[q], cp = col / dof;
                          if (cp == pp) D[c1 * dof + col % dof] += A->a[q];
                          else sum += A->a[q] * (stamp[cp] == tileid && !Seam(p, natof[pp], natof[cp]) ? y[col] : (transpose ? 0 : xin[col]));
                        }
                        res[c1] = rhs[row] - sum;
                      }
                      for (PetscInt c1 = 0; c1 < dof; c1++)
                        for (PetscInt c2 = 0; c2 < dof; c2++) res[c1] -= D[c1 * dof + c2] * y[pp * dof + c2];
                      PetscCall(HJSolveBlock(dof, D, res, z));
                      for (PetscInt c1 = 0; c1 < dof; c1++) ynew[pp * dof + c1] = y[pp * dof + c1] + par->wts[sweep] * z[c1];
                    }
                  }
                  for (PetscInt e = 0; e < nw; e++)
                    for (PetscInt f = 0; f < dof; f++) y[list[e] * dof + f] = ynew[list[e] * dof + f];
                }
                /* step 4: write the points T owns; transposed: add all of W(T) */
                if (transpose)
                  for (PetscInt e = 0; e < nw; e++)
                    for (PetscInt f = 0; f < dof; f++) xout[list[e] * dof + f] += y[list[e] * dof + f];
                for (k = bs[2] + os[2][tk]; k < bs[2] + oe[2][tk]; k++)
                  for (j = bs[1] + os[1][tj]; j < bs[1] + oe[1][tj]; j++)
                    for (i = bs[0] + os[0][ti]; i < bs[0] + oe[0][ti]; i++) {
                      PetscInt g = p->petsc_of_nat[i + p->M[0] * (j + p->M[1] * k)];
                      if (!transpose)
                        for (PetscInt f = 0; f < dof; f++) xout[g * dof + f] = y[g * dof + f];
                      count[g]++;
                    }
              }
        }
    for (PetscInt g = 0; g < N; g++) PetscCheck(count[g] == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "[hjtest] reference: the owned regions do not partition the grid");
    PetscCall(PetscArraycpy(xin, xout, Nd));
  }
  PetscCall(PetscArraycpy(x, xin, Nd));
  for (d = 0; d < 3; d++) PetscCall(PetscFree4(ws[d], we[d], os[d], oe[d]));
  PetscCall(PetscFree4(stamp, count, list, natof));
  PetscCall(PetscFree4(xin, xout, y, ynew));
  PetscCall(PetscFree2(rhs, resid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJRefCycles(HJProblem *p, const HJCSR *A, const HJParams *par, const PetscScalar *b, PetscScalar *x, PetscInt ncycles)
{
  PetscFunctionBeginUser;
  PetscCall(RefCycles(p, A, par, b, x, ncycles, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJRefTransposeCycles(HJProblem *p, const HJCSR *At, const HJParams *par, const PetscScalar *b, PetscScalar *x, PetscInt ncycles)
{
  PetscFunctionBeginUser;
  PetscCall(RefCycles(p, At, par, b, x, ncycles, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- comparing and reporting */
static PetscErrorCode HJRel(MPI_Comm comm, PetscReal dmax, PetscReal rmax, PetscReal *rel)
{
  PetscReal loc[2] = {dmax, rmax}, glob[2];

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Allreduce(loc, glob, 2, MPIU_REAL, MPI_MAX, comm));
  *rel = glob[1] > 0 ? glob[0] / glob[1] : glob[0];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* max |y - ref| / max |ref| over the owned entries (NaN counts as a huge difference) */
PetscErrorCode HJCompareRef(Vec y, const PetscScalar *ref, PetscReal *rel)
{
  PetscInt           rs, n;
  const PetscScalar *a;
  PetscReal          dmax = 0, rmax = 0;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(y, &rs, NULL));
  PetscCall(VecGetLocalSize(y, &n));
  PetscCall(VecGetArrayRead(y, &a));
  for (PetscInt l = 0; l < n; l++) {
    PetscReal dd = PetscAbsScalar(a[l] - ref[rs + l]);
    if (PetscIsInfOrNanReal(dd)) dd = PETSC_MAX_REAL;
    dmax = PetscMax(dmax, dd);
    rmax = PetscMax(rmax, PetscAbsScalar(ref[rs + l]));
  }
  PetscCall(VecRestoreArrayRead(y, &a));
  PetscCall(HJRel(PetscObjectComm((PetscObject)y), dmax, rmax, rel));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HJCompareVec(Vec y, Vec ref, PetscReal *rel)
{
  PetscInt           n;
  const PetscScalar *a, *r;
  PetscReal          dmax = 0, rmax = 0;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(y, &n));
  PetscCall(VecGetArrayRead(y, &a));
  PetscCall(VecGetArrayRead(ref, &r));
  for (PetscInt l = 0; l < n; l++) {
    PetscReal dd = PetscAbsScalar(a[l] - r[l]);
    if (PetscIsInfOrNanReal(dd)) dd = PETSC_MAX_REAL;
    dmax = PetscMax(dmax, dd);
    rmax = PetscMax(rmax, PetscAbsScalar(r[l]));
  }
  PetscCall(VecRestoreArrayRead(y, &a));
  PetscCall(VecRestoreArrayRead(ref, &r));
  PetscCall(HJRel(PetscObjectComm((PetscObject)y), dmax, rmax, rel));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* expect_small: pass when val <= tol; otherwise pass when val > tol (a check that must see a difference) */
PetscErrorCode HJReport(MPI_Comm comm, const char *what, PetscReal val, PetscReal tol, PetscBool expect_small, PetscInt *nchecks, PetscInt *nfail)
{
  PetscBool pass = expect_small ? (PetscBool)(val <= tol) : (PetscBool)(val > tol);

  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(comm, "hjtest %s %s: reldiff %.3e (%s %.1e)\n", pass ? "PASS" : "FAIL", what, (double)val, expect_small ? "tol" : "must exceed", (double)tol));
  (*nchecks)++;
  if (!pass) (*nfail)++;
  PetscFunctionReturn(PETSC_SUCCESS);
}
