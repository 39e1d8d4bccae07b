static const char help[] = "Richardson iteration with PCHJACOBI on a problem whose solution is large against its right-hand side\n"
                           "(|x| >= 1e4 |b|): the true relative residual must go below -tol (issue 15: the single inner precision\n"
                           "must not cap the accuracy). The operator is a random symmetric M-matrix with A 1 = shift 1 (a shifted\n"
                           "graph Laplacian: couplings in [-1, -0.5], between fields of a point and across fields x0.05), the solution\n"
                           "x* = C + w with w random in [-1, 1] of mean zero, b = A x*, the initial guess x0 = C (the large part, as a\n"
                           "time step or a Newton iteration knows it); so |x*| / |b| is about 1 / shift and the error to remove is w.\n"
                           "With -check_floor (default) the same iteration is repeated with x rounded to float after every cycle, the\n"
                           "way the single inner precision iterated before its correction form: its residual must stay above\n"
                           "100 tol (float keeps about 6e-8 |x|, i.e. a residual near 1e-7 |A| |x| / |b| ~ 1e-3 here), which shows\n"
                           "that the test can fail.\n"
                           "  -dim 1|2|3 -n N (or -da_grid_x ...) -kind star|box -periodic -dof d -seed s\n"
                           "  -constant (one coupling value: constant coefficients when periodic) -zero_y (y couplings stored zeros)\n"
                           "  -C 1e7 -shift 5e-5 -max_cycles 3000 -tol 1e-9 -check_floor 0|1 -min_ratio 1e4 (|x*| / |b| checked at least)\n"
                           "A cycle is not symmetric in general: it excites A's slowest modes (eigenvalue shift, the constant of\n"
                           "each independent part), which then decay slowly; small grids keep that part below tol.\n";

#include "hjtest.h"
#include <stdint.h>

static uint64_t Mix(uint64_t h)
{
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

/* a number in [0, 1) from (seed, a, b): the same on every rank layout */
static PetscReal Rand01(PetscInt seed, PetscInt a, PetscInt b)
{
  return (PetscReal)((double)(Mix((uint64_t)seed ^ Mix((uint64_t)a ^ Mix((uint64_t)b))) >> 11) * (1.0 / 9007199254740992.0));
}

/* natural index of grid point c, wrapped where periodic; -1 outside the domain */
static PetscInt Natural(const HJProblem *p, const PetscInt c[3])
{
  PetscInt q[3];
  for (PetscInt d = 0; d < 3; d++) {
    q[d] = c[d];
    if (q[d] < 0 || q[d] >= p->M[d]) {
      if (!p->periodic || d >= p->dim) return -1;
      q[d] = (q[d] + p->M[d]) % p->M[d];
    }
  }
  return q[0] + p->M[0] * (q[1] + p->M[1] * q[2]);
}

/* the coupling between field c1 of natural point n1 and field c2 of n2 (n1, c1) != (n2, c2): symmetric, negative */
static PetscScalar Coupling(const HJProblem *p, PetscInt n1, PetscInt c1, PetscInt n2, PetscInt c2)
{
  const PetscInt  a = n1 * p->dof + c1, b = n2 * p->dof + c2;
  const PetscReal r = p->constant ? 0.5 : Rand01(p->seed, PetscMin(a, b), PetscMax(a, b)); /* -constant: one value */
  return -(0.5 + 0.5 * r) * (c1 == c2 ? 1.0 : 0.05);
}

/* A: every row's off-diagonal entries from Coupling(), its diagonal shift minus their sum (so A 1 = shift 1) */
static PetscErrorCode Assemble(HJProblem *p, PetscReal shift, Mat A)
{
  PetscInt    xs, ys, zs, xm, ym, zm, c[3], s[3], lo[3], hi[3], dof = p->dof;
  MatStencil  row, col[32 * 8];
  PetscScalar val[32 * 8];

  PetscFunctionBeginUser;
  PetscCall(DMDAGetCorners(p->da, &xs, &ys, &zs, &xm, &ym, &zm));
  for (PetscInt d = 0; d < 3; d++) lo[d] = d < p->dim ? -1 : 0, hi[d] = d < p->dim ? 1 : 0;
  for (c[2] = zs; c[2] < zs + zm; c[2]++)
    for (c[1] = ys; c[1] < ys + ym; c[1]++)
      for (c[0] = xs; c[0] < xs + xm; c[0]++) {
        const PetscInt np = Natural(p, c);
        for (PetscInt c1 = 0; c1 < dof; c1++) {
          PetscInt    nc = 0, idiag = -1;
          PetscScalar sum = 0;
          row.i = c[0], row.j = c[1], row.k = c[2], row.c = c1;
          for (s[2] = lo[2]; s[2] <= hi[2]; s[2]++)
            for (s[1] = lo[1]; s[1] <= hi[1]; s[1]++)
              for (s[0] = lo[0]; s[0] <= hi[0]; s[0]++) {
                const PetscInt nnz = (s[0] != 0) + (s[1] != 0) + (s[2] != 0), q[3] = {c[0] + s[0], c[1] + s[1], c[2] + s[2]};
                const PetscInt nq = Natural(p, q);
                if ((!p->box && nnz > 1) || nq < 0) continue;
                for (PetscInt c2 = 0; c2 < dof; c2++) {
                  col[nc].i = q[0], col[nc].j = q[1], col[nc].k = q[2], col[nc].c = c2;
                  if (nnz == 0 && c2 == c1) {
                    idiag   = nc;
                    val[nc] = 0;
                  } else {
                    val[nc] = (p->zero_y && s[1] != 0) ? 0.0 : Coupling(p, np, c1, nq, c2); /* -zero_y: stored zeros */
                    sum += val[nc];
                  }
                  nc++;
                }
              }
          val[idiag] = shift - sum;
          PetscCall(MatSetValuesStencil(A, 1, &row, nc, col, val, INSERT_VALUES));
        }
      }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x* = C + w, w in [-1, 1] with its mean removed (the constant is A's slowest mode, eigenvalue shift); with -zero_y
   every row of the grid is a problem of its own, and w's mean is removed row by row */
static PetscErrorCode Solution(HJProblem *p, PetscReal C, Vec x)
{
  PetscInt     xs, ys, zs, xm, ym, zm, c[3], nrows = p->M[1] * p->M[2];
  PetscScalar *a;
  PetscReal   *sum;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(nrows, &sum));
  PetscCall(DMDAGetCorners(p->da, &xs, &ys, &zs, &xm, &ym, &zm));
  PetscCall(VecGetArray(x, &a));
  for (PetscInt pass = 0; pass < 2; pass++) { /* 0: w and the sums of its rows (or of all), 1: C + w - mean */
    if (pass) PetscCall(MPIU_Allreduce(MPI_IN_PLACE, sum, (PetscMPIInt)nrows, MPIU_REAL, MPI_SUM, p->comm));
    for (c[2] = zs; c[2] < zs + zm; c[2]++)
      for (c[1] = ys; c[1] < ys + ym; c[1]++)
        for (c[0] = xs; c[0] < xs + xm; c[0]++) {
          const PetscInt l = (c[0] - xs) + xm * ((c[1] - ys) + ym * (c[2] - zs)), row = p->zero_y ? c[1] + p->M[1] * c[2] : 0;
          const PetscInt npts = p->zero_y ? p->M[0] : p->N;
          for (PetscInt f = 0; f < p->dof; f++) {
            if (!pass) sum[row] += (PetscReal)(a[l * p->dof + f] = 2.0 * Rand01(p->seed + 1, Natural(p, c) * p->dof + f, 3) - 1.0);
            else a[l * p->dof + f] += C - sum[row] / (PetscReal)(npts * p->dof);
          }
        }
  }
  PetscCall(VecRestoreArray(x, &a));
  PetscCall(PetscFree(sum));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TrueResidual(Mat A, Vec b, Vec x, Vec r, PetscReal bnorm, PetscReal *rel)
{
  PetscReal rn;

  PetscFunctionBeginUser;
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  *rel = rn / bnorm;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x <- (double)(float)x: what the earlier single inner precision did to x in every cycle */
static PetscErrorCode RoundToFloat(Vec x)
{
  PetscInt     n;
  PetscScalar *a;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArray(x, &a));
  for (PetscInt i = 0; i < n; i++) a[i] = (PetscScalar)(float)PetscRealPart(a[i]);
  PetscCall(VecRestoreArray(x, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  HJProblem                   p;
  Mat                         A;
  PC                          pc;
  Vec                         xs, b, x, r, w;
  PetscReal                   C = 1e7, shift = 5e-5, tol = 1e-9, minratio = 1e4, bnorm, xnorm, rel = 0, relf = 0;
  PetscInt                    maxc = 3000, chunk = 50, n = 0, outits;
  PetscBool                   floor = PETSC_TRUE;
  PCRichardsonConvergedReason reason;
  PetscInt                    nchecks = 0, nfail = 0;
  PCHJacobiInnerPrecision     ip;
  char                        what[256];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PCHJacobiInitializePackage());
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-C", &C, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-shift", &shift, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-max_cycles", &maxc, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-check_floor", &floor, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-min_ratio", &minratio, NULL));

  PetscCall(HJProblemCreate(PETSC_COMM_WORLD, &p));
  PetscCall(HJProblemCreateMatrix(&p, &A));
  PetscCall(Assemble(&p, shift, A));
  PetscCall(DMCreateGlobalVector(p.da, &xs));
  PetscCall(VecDuplicate(xs, &b));
  PetscCall(VecDuplicate(xs, &x));
  PetscCall(VecDuplicate(xs, &r));
  PetscCall(VecDuplicate(xs, &w));
  PetscCall(Solution(&p, C, xs));
  PetscCall(MatMult(A, xs, b));
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  PetscCall(VecNorm(xs, NORM_2, &xnorm));
  PetscCall(PetscSNPrintf(what, sizeof(what), "the problem: |b| / |x| at most 1 / %g", (double)minratio));
  PetscCall(HJReport(p.comm, what, bnorm / xnorm, 1 / minratio, PETSC_TRUE, &nchecks, &nfail));

  PetscCall(PCCreate(p.comm, &pc));
  PetscCall(PCSetType(pc, PCHJACOBI));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PCSetUp(pc));
  PetscCall(PCHJacobiGetInnerPrecision(pc, &ip));

  /* Richardson from x0 = C, chunk cycles at a time, until the true residual is below tol or maxc cycles */
  PetscCall(VecSet(x, C));
  PetscCall(TrueResidual(A, b, x, r, bnorm, &rel));
  PetscCall(PetscPrintf(p.comm, "hjtest info: |x*| / |b| = %.3e, initial relative residual %.3e\n", (double)(xnorm / bnorm), (double)rel));
  while (n < maxc && rel > tol) {
    const PetscInt its = PetscMin(chunk, maxc - n);
    PetscCall(PCApplyRichardson(pc, b, x, w, 0.0, 0.0, PETSC_MAX_REAL, its, PETSC_FALSE, &outits, &reason));
    n += its;
    PetscCall(TrueResidual(A, b, x, r, bnorm, &rel));
  }
  PetscCall(PetscSNPrintf(what, sizeof(what), "true relative residual of Richardson, %s sub-iterations, after %" PetscInt_FMT " iterations", PCHJacobiInnerPrecisions[ip], n));
  PetscCall(HJReport(p.comm, what, rel, tol, PETSC_TRUE, &nchecks, &nfail));

  /* the same iterations with x rounded to float after each: the floor the correction form removes */
  if (floor) {
    PetscCall(VecSet(x, C));
    for (PetscInt i = 0; i < PetscMax(n, chunk); i++) {
      PetscCall(PCApplyRichardson(pc, b, x, w, 0.0, 0.0, PETSC_MAX_REAL, 1, PETSC_FALSE, &outits, &reason));
      PetscCall(RoundToFloat(x));
    }
    PetscCall(TrueResidual(A, b, x, r, bnorm, &relf));
    PetscCall(PetscSNPrintf(what, sizeof(what), "the same with x rounded to float every iteration stalls (the test can fail) after %" PetscInt_FMT, PetscMax(n, chunk)));
    PetscCall(HJReport(p.comm, what, relf, 100 * tol, PETSC_FALSE, &nchecks, &nfail));
  }

  PetscCall(PCDestroy(&pc));
  PetscCall(VecDestroy(&xs));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&w));
  PetscCall(MatDestroy(&A));
  PetscCall(HJProblemDestroy(&p));
  PetscCheck(nchecks > 0 && nfail == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "[hjtest] %" PetscInt_FMT " of %" PetscInt_FMT " checks failed", nfail, nchecks);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hjtest PASS all %" PetscInt_FMT " checks\n", nchecks));
  PetscCall(PetscFinalize());
  return 0;
}
