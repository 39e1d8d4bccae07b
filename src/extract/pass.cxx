/* The one pass over this rank's rows of the Pmat that fills an HJStencil: owned points in grid order (x fastest, the
   order of the rows), each point's rows gathered into a small buffer indexed by offset code, then written once into
   every plane, its diagonal block inverted, and constant coefficients and coupled directions tracked on the way.
   Why it is fast: the column of an entry of the rank's own block is placed by comparisons against the row's plane
   and line starts (no division but by the compile-time dof), the off-process columns (garray) are turned into grid
   points once per pass, and nothing is read twice. */
#include "extract/pass.h"
#include "arith/point.hpp"
#include "arith/extract.hpp"
#include <array>
#include <type_traits>
#include <utility>

PetscInt HJExtractCodeOfSlot(PetscInt dim, PetscInt kind, PetscInt s)
{
  return (hj::Offset((int)dim, (int)kind, (int)s, 0) + 1) + 3 * (hj::Offset((int)dim, (int)kind, (int)s, 1) + 1) + 9 * (hj::Offset((int)dim, (int)kind, (int)s, 2) + 1);
}

PetscErrorCode HJExtractExpandToBox(const HJLayout *L, HJStencil *st, PetscInt nrows)
{
  const PetscInt dim = L->dim, nbox = hj::NumOffsets((int)dim, hj::BOX), bs2 = st->dof * st->dof;
  const size_t   N = (size_t)L->nlocal, len = (size_t)nrows * bs2;
  PetscInt       starof[27];
  PetscScalar   *coef;

  PetscFunctionBegin;
  if (st->kind == hj::BOX) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt c = 0; c < 27; c++) starof[c] = -1;
  for (PetscInt s = 0; s < st->noff; s++) starof[HJExtractCodeOfSlot(dim, hj::STAR, s)] = s;
  PetscCall(PetscMalloc1((size_t)nbox * N * bs2, &coef));
  for (PetscInt s = 0; s < nbox; s++) {
    const PetscInt ss = starof[HJExtractCodeOfSlot(dim, hj::BOX, s)];
    if (ss >= 0) PetscCall(PetscArraycpy(coef + s * N * bs2, st->coef + ss * N * bs2, len));
    else PetscCall(PetscArrayzero(coef + s * N * bs2, len));
  }
  PetscCall(PetscFree(st->coef));
  st->coef = coef;
  st->kind = hj::BOX;
  st->noff = nbox;
  PetscFunctionReturn(PETSC_SUCCESS);
}

namespace
{
/* an offset between grid points along d, taken the short way round in periodic directions (hj::Wrap) */
inline PetscInt Wrap(const HJLayout *L, PetscInt d, PetscInt off)
{
  return (PetscInt)hj::Wrap(L->bnd[d] == DM_BOUNDARY_PERIODIC, L->M[d], off);
}

/* the code of an offset, -1 if it leaves the width-1 box */
inline PetscInt CodeOf(const PetscInt off[3])
{
  if (off[0] < -1 || off[0] > 1 || off[1] < -1 || off[1] > 1 || off[2] < -1 || off[2] > 1) return -1;
  return (off[0] + 1) + 3 * (off[1] + 1) + 9 * (off[2] + 1);
}

/* an owned point: index u, local coordinates, the start of its z-plane and of its x-line within the plane, and
   whether it is interior to the rank's box (every neighbour in the box is one of the rank's own points) */
struct Point {
  PetscInt u, i, j, k, plane, line;
  bool     interior;
};

/* Columns of the rank's own points (a SeqAIJ, or an MPIAIJ's diagonal block): local index DOF*v + field.
   Interior points: the displacement v - u names the offset through a table (unique when every used direction has
   at least 3 points, which an interior point implies). Other points: v is placed relative to the row's point by
   comparing with the starts of the neighbouring planes and lines, which gives the one set of in-box coordinates of
   v; only x can then be more than one point away (periodic wrap on one rank, or an entry outside the box). Columns
   in a plane or line that is not adjacent (a periodic wrap in y or z on one rank, a wide entry) take the general
   path with divisions. */
template <int DOF>
struct LocalColumns {
  const PetscInt    *ia, *ja;
  const PetscScalar *aa;
  const HJLayout    *L;
  PetscInt           X, P;
  const PetscInt    *table; /* table[D], |D| <= Dmax: the code of displacement D from an interior point, or -1 */
  PetscInt           Dmax;

  template <class Emit>
  PetscErrorCode Row(PetscInt r, const Point &p, Emit &&emit) const
  {
    for (PetscInt e = ia[r]; e < ia[r + 1]; e++) {
      const PetscInt v = ja[e] / DOF, cf = ja[e] - DOF * v, D = v - p.u;
      PetscInt       off[3] = {0, 0, 0}, code = -1;
      if (p.interior && D >= -Dmax && D <= Dmax) code = table[D];
      if (code < 0) {
        PetscInt t = v - p.plane, dz = 0, dy = 0;
        if (t < 0) t += P, dz = -1;
        else if (t >= P) t -= P, dz = 1;
        t -= p.line;
        if (t < 0) t += X, dy = -1;
        else if (t >= X) t -= X, dy = 1;
        if (v - p.plane >= -P && v - p.plane < 2 * P && t >= 0 && t < X) {
          off[0] = Wrap(L, 0, t - p.i);
          off[1] = dy;
          off[2] = dz;
        } else { /* not in an adjacent plane and line: the general path */
          const PetscInt c[3] = {v % X, (v / X) % L->xm[1], v / P}, q[3] = {p.i, p.j, p.k};
          for (PetscInt d = 0; d < 3; d++) off[d] = Wrap(L, d, c[d] - q[d]);
        }
        code = CodeOf(off);
      }
      emit(code, off, cf, aa[e]);
    }
    return PETSC_SUCCESS;
  }
};

/* Columns of other ranks (an MPIAIJ's off-diagonal block): grid point and field of each, converted once per pass. */
struct RemoteColumns {
  const PetscInt    *ia, *ja;
  const PetscScalar *aa;
  const HJLayout    *L;
  const PetscInt    *pt; /* [3 * column] grid point, [3 * ncols + column] field */
  PetscInt           ncols;

  template <class Emit>
  PetscErrorCode Row(PetscInt r, const Point &p, Emit &&emit) const
  {
    const PetscInt q[3] = {L->xs[0] + p.i, L->xs[1] + p.j, L->xs[2] + p.k};
    for (PetscInt e = ia[r]; e < ia[r + 1]; e++) {
      const PetscInt *g      = pt + 3 * ja[e];
      PetscInt        off[3] = {Wrap(L, 0, g[0] - q[0]), Wrap(L, 1, g[1] - q[1]), Wrap(L, 2, g[2] - q[2])};
      emit(CodeOf(off), off, pt[3 * ncols + ja[e]], aa[e]);
    }
    return PETSC_SUCCESS;
  }
};

/* Any other matrix type with MatGetRow (BAIJ, SELL, ...): correct, not fast. */
struct GenericRows {
  Mat             A;
  const HJLayout *L;
  PetscInt        rstart;

  template <class Emit>
  PetscErrorCode Row(PetscInt r, const Point &p, Emit &&emit) const
  {
    PetscInt           ncols;
    const PetscInt    *cols;
    const PetscScalar *vals;
    const PetscInt     q[3] = {L->xs[0] + p.i, L->xs[1] + p.j, L->xs[2] + p.k};

    PetscFunctionBegin;
    PetscCall(MatGetRow(A, rstart + r, &ncols, &cols, &vals));
    for (PetscInt e = 0; e < ncols; e++) {
      PetscInt g[3], cf, off[3];
      PetscCall(HJLayoutPointOfGlobal(L, cols[e], g, &cf));
      for (PetscInt d = 0; d < 3; d++) off[d] = Wrap(L, d, g[d] - q[d]);
      emit(CodeOf(off), off, cf, vals[e]);
    }
    PetscCall(MatRestoreRow(A, rstart + r, &ncols, &cols, &vals));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
};

/* The pass for DOF fields per point. */
template <int DOF>
class Pass {
  static constexpr PetscInt BS2 = DOF * DOF;
  const HJLayout           *L;
  HJStencil                *st;
  PetscBool                 adapt, toswitch = PETSC_FALSE;
  HJExtractResult          *res;
  PetscScalar               buf[27 * BS2] = {}; /* the point's blocks by offset code; zero outside the codes of st->kind */
  PetscInt                  slot[27];           /* slot of a code in st->kind, -1 if the kind lacks it (the centre included) */
  bool                      kept[27];           /* a slot of st->kind, or the centre */
  PetscInt                  codes[27], ncodes;  /* the codes of st->kind's slots, in slot order */
  PetscInt                  dimcodes[26], ndim; /* every off-centre code of the box of this dimension */
  PetscInt                  dirbits[27];        /* bit d: the offset has a component along d */

  void SetKind()
  {
    ncodes = st->noff;
    for (PetscInt c = 0; c < 27; c++) slot[c] = -1;
    for (PetscInt s = 0; s < ncodes; s++) slot[codes[s] = HJExtractCodeOfSlot(L->dim, st->kind, s)] = s;
    for (PetscInt c = 0; c < 27; c++) kept[c] = slot[c] >= 0 || c == HJ_CODE_CENTRE;
  }

public:
  PetscInt dirmask    = 0;                                            /* HJExtractResult.dirmask */
  PetscInt wideown[4] = {-1, 0, 0, 0}, wideremote[4] = {-1, 0, 0, 0}; /* first wide entry of each block, row order */

  Pass(const HJLayout *L_, HJStencil *st_, PetscBool adapt_, HJExtractResult *res_) : L(L_), st(st_), adapt(adapt_), res(res_)
  {
    SetKind();
    ndim = hj::NumOffsets((int)L->dim, hj::BOX);
    for (PetscInt s = 0; s < ndim; s++) dimcodes[s] = HJExtractCodeOfSlot(L->dim, hj::BOX, s);
    for (PetscInt c = 0; c < 27; c++) dirbits[c] = (c % 3 != 1) | ((c / 3 % 3 != 1) << 1) | ((c / 9 != 1) << 2);
  }

  /* one stored entry of row c1 of point p: column at offset code (-1: outside the width-1 box, at off), field cf */
  void Entry(const Point &p, PetscInt c1, PetscInt code, const PetscInt off[3], PetscInt cf, PetscScalar v, PetscInt wide[4])
  {
    if (code >= 0 && kept[code]) { /* the common case: an offset of the kind, or the point itself */
      buf[code * BS2 + c1 * DOF + cf] += v;
      dirmask |= v != (PetscScalar)0 ? dirbits[code] : 0;
    } else if (code < 0) { /* outside the width-1 box: an error unless it is a stored zero */
      if (v != (PetscScalar)0 && wide[0] < 0) wide[0] = p.u, wide[1] = off[0], wide[2] = off[1], wide[3] = off[2];
    } else if (v != (PetscScalar)0) { /* a coupling only a box has (a stored zero there is dropped) */
      res->box = PETSC_TRUE;
      if (!adapt) return; /* the caller re-extracts */
      dirmask |= dirbits[code];
      toswitch = PETSC_TRUE; /* kept in buf, written after the switch to BOX */
      buf[code * BS2 + c1 * DOF + cf] += v;
    }
  }

  /* the inverse diagonal (block) of point u from its diagonal (block) */
  void Invert(const PetscScalar *diag, PetscInt u)
  {
    PetscScalar *inv = st->invdiag + u * BS2;
    bool         ok;
    if (DOF == 1) {
      ok     = diag[0] != (PetscScalar)0;
      inv[0] = hj::Recip(diag[0]);
    } else ok = hj::InvertBlock<HJ_MAX_DOF>(DOF, diag, inv);
    if (!ok && res->singular < 0) res->singular = u;
  }

  /* all rows of p were read: write its planes and inverse diagonal, track constancy, clear the buffer */
  PetscErrorCode Finish(const Point &p)
  {
    const size_t N = (size_t)L->nlocal;

    PetscFunctionBegin;
    if (toswitch) { /* the rows before p are complete in STAR */
      PetscCall(HJExtractExpandToBox(L, st, p.u));
      SetKind();
      toswitch  = PETSC_FALSE;
      pat.valid = false; /* its slots were STAR's */
    }
    for (PetscInt s = 0; s < ncodes; s++) {
      PetscScalar       *c = st->coef + (s * N + p.u) * BS2;
      const PetscScalar *b = buf + codes[s] * BS2;
      for (PetscInt q = 0; q < BS2; q++) c[q] = b[q];
    }
    Invert(buf + HJ_CODE_CENTRE * BS2, p.u);
    if (DOF == 1 && res->constant) TrackConstant(p);
    for (PetscInt s = 0; s < ncodes; s++)
      for (PetscInt q = 0; q < BS2; q++) buf[codes[s] * BS2 + q] = 0;
    for (PetscInt q = 0; q < BS2; q++) buf[HJ_CODE_CENTRE * BS2 + q] = 0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }

  /* HJStencil.constant: one inverse diagonal, and per offset one value wherever the neighbour is in the domain. Every
     offset of the box is tracked whatever the kind (those the kind lacks hold zero), so a later switch to BOX needs
     nothing redone. */
  void TrackConstant(const Point &p)
  {
    const PetscInt q[3] = {L->xs[0] + p.i, L->xs[1] + p.j, L->xs[2] + p.k};
    bool           in[3][3]; /* [d][o + 1]: the neighbour at offset o along d is in the domain */

    if (st->invdiag[p.u] != st->invdiag[0]) {
      res->constant = PETSC_FALSE;
      return;
    }
    for (PetscInt d = 0; d < 3; d++) {
      const bool per = L->bnd[d] == DM_BOUNDARY_PERIODIC;
      in[d][0]       = per || q[d] > 0;
      in[d][1]       = true;
      in[d][2]       = per || q[d] < L->M[d] - 1;
    }
    for (PetscInt s = 0; s < ndim; s++) {
      const PetscInt c = dimcodes[s];
      if (!(in[0][c % 3] && in[1][c / 3 % 3] && in[2][c / 9])) continue;
      if (!res->found[c]) {
        res->found[c] = PETSC_TRUE;
        res->cc[c]    = buf[c];
      } else if (buf[c] != res->cc[c]) {
        res->constant = PETSC_FALSE;
        return;
      }
    }
  }

  /* Interior points of a DMDA matrix repeat one row pattern (the column displacements of the point's DOF rows). Once
     recorded from a point the general path handled, a point with the same displacements is written straight from
     the values into the planes, no column decoded. Not while constancy is tracked (dof = 1 operators that are
     constant so far take the general path), nor for points with columns of other ranks. */
  static constexpr PetscInt  MAXE  = 27 * DOF; /* entries of a row within the width-1 box */
  static constexpr long long kDrop = -1 - BS2; /* an offset the kind lacks: the value must be zero */
  struct Pattern {
    bool      valid = false;
    PetscInt  nnz[DOF], delta[DOF][MAXE], dir[DOF][MAXE];
    long long dst[DOF][MAXE]; /* >= 0: offset in coef from the point's block of plane 0; -1 - q: diagonal block entry q */
    long long zero[27 * BS2]; /* plane positions no entry writes */
    PetscInt  nzero;
  } pat;

  template <class Src>
  void Record(const Src &own, const Point &p)
  {
    const long long NB                = (long long)L->nlocal * BS2;
    bool            covered[27 * BS2] = {};

    pat.valid = false;
    for (PetscInt c1 = 0; c1 < DOF; c1++) {
      const PetscInt r = DOF * p.u + c1, s0 = own.ia[r];
      if ((pat.nnz[c1] = own.ia[r + 1] - s0) > MAXE) return;
      for (PetscInt e = 0; e < pat.nnz[c1]; e++) {
        const PetscInt lc = own.ja[s0 + e], v = lc / DOF, cf = lc - DOF * v, D = v - p.u, q = c1 * DOF + cf;
        const PetscInt code = D >= -own.Dmax && D <= own.Dmax ? own.table[D] : -1;
        if (code < 0) return; /* outside the box: the general path reports it */
        pat.delta[c1][e] = lc - DOF * p.u;
        pat.dir[c1][e]   = code == HJ_CODE_CENTRE ? 0 : dirbits[code];
        if (code == HJ_CODE_CENTRE) pat.dst[c1][e] = -1 - q;
        else if (slot[code] < 0) pat.dst[c1][e] = kDrop;
        else pat.dst[c1][e] = slot[code] * NB + q, covered[code * BS2 + q] = true;
      }
    }
    pat.nzero = 0;
    for (PetscInt s = 0; s < ncodes; s++)
      for (PetscInt q = 0; q < BS2; q++)
        if (!covered[codes[s] * BS2 + q]) pat.zero[pat.nzero++] = s * NB + q;
    pat.valid = true;
  }

  /* p through the recorded pattern; false (nothing kept) when it does not apply */
  template <class Src, class RSrc>
  bool Apply(const Src &own, const RSrc *rem, const Point &p)
  {
    PetscScalar *base = st->coef + (size_t)p.u * BS2, dblk[BS2] = {};
    PetscInt     mask = 0;

    if (!pat.valid || res->constant) return false;
    for (PetscInt c1 = 0; c1 < DOF; c1++) {
      const PetscInt r = DOF * p.u + c1, s0 = own.ia[r];
      if (own.ia[r + 1] - s0 != pat.nnz[c1] || (rem && rem->ia[r + 1] != rem->ia[r])) return false;
      for (PetscInt e = 0; e < pat.nnz[c1]; e++)
        if (own.ja[s0 + e] - DOF * p.u != pat.delta[c1][e] || (pat.dst[c1][e] == kDrop && own.aa[s0 + e] != (PetscScalar)0)) return false;
    }
    for (PetscInt c1 = 0; c1 < DOF; c1++) {
      const PetscScalar *a = own.aa + own.ia[DOF * p.u + c1];
      for (PetscInt e = 0; e < pat.nnz[c1]; e++) {
        const long long   d = pat.dst[c1][e];
        const PetscScalar v = a[e] + (PetscScalar)0; /* as the general path's 0 + v: a stored -0 becomes +0 */
        if (d >= 0) base[d] = v;
        else if (d != kDrop) dblk[-1 - d] = v;
        mask |= v != (PetscScalar)0 ? pat.dir[c1][e] : 0;
      }
    }
    for (PetscInt z = 0; z < pat.nzero; z++) base[pat.zero[z]] = 0;
    dirmask |= mask;
    Invert(dblk, p.u);
    return true;
  }

  /* every owned point in grid order; src reads the rows (own columns, and remote ones if rsrc) */
  template <class Src, class RSrc>
  PetscErrorCode Run(const Src &src, const RSrc *rsrc)
  {
    const PetscInt X = L->xm[0], P = L->xm[0] * L->xm[1];
    Point          p;
    auto           inner = [&](PetscInt d, PetscInt c) { return d >= L->dim || (c >= 1 && c <= L->xm[d] - 2); };

    PetscFunctionBegin;
    p.u = 0;
    for (p.k = 0; p.k < L->xm[2]; p.k++)
      for (p.j = 0; p.j < L->xm[1]; p.j++)
        for (p.i = 0, p.plane = P * p.k, p.line = X * p.j; p.i < X; p.i++, p.u++) {
          p.interior = inner(0, p.i) && inner(1, p.j) && inner(2, p.k);
          if constexpr (std::is_same_v<Src, LocalColumns<DOF>>)
            if (p.interior && Apply(src, rsrc, p)) continue;
          for (PetscInt c1 = 0; c1 < DOF; c1++) {
            const PetscInt r = DOF * p.u + c1;
            PetscCall(src.Row(r, p, [&](PetscInt code, const PetscInt off[3], PetscInt cf, PetscScalar v) { Entry(p, c1, code, off, cf, v, wideown); }));
            if (rsrc) PetscCall(rsrc->Row(r, p, [&](PetscInt code, const PetscInt off[3], PetscInt cf, PetscScalar v) { Entry(p, c1, code, off, cf, v, wideremote); }));
          }
          PetscCall(Finish(p));
          if constexpr (std::is_same_v<Src, LocalColumns<DOF>>)
            if (p.interior && !res->constant) Record(src, p);
        }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
};

/* the CSR arrays of a SeqAIJ (kept by PETSc; read only) */
PetscErrorCode GetCSR(Mat S, const PetscInt **ia, const PetscInt **ja, const PetscScalar **aa)
{
  PetscInt  n;
  PetscBool done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(S, 0, PETSC_FALSE, PETSC_FALSE, &n, ia, ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "Cannot read the rows of the Pmat");
  PetscCall(MatSeqAIJGetArrayRead(S, aa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RestoreCSR(Mat S, const PetscInt **ia, const PetscInt **ja, const PetscScalar **aa)
{
  PetscInt  n;
  PetscBool done;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJRestoreArrayRead(S, aa));
  PetscCall(MatRestoreRowIJ(S, 0, PETSC_FALSE, PETSC_FALSE, &n, ia, ja, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <int DOF>
PetscErrorCode RunPass(Mat A, const HJLayout *L, HJStencil *st, PetscBool adapt, HJExtractResult *res)
{
  Pass<DOF> pass(L, st, adapt, res);
  PetscBool isseq, ismpi;

  PetscFunctionBegin;
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATSEQAIJ, &isseq));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATMPIAIJ, &ismpi));
  if (isseq || ismpi) {
    Mat               Ad = A, Ao = NULL;
    const PetscInt   *garray = NULL;
    const PetscInt    X = L->xm[0], P = L->xm[0] * L->xm[1], Dmax = P * (L->dim > 2) + X * (L->dim > 1) + 1;
    LocalColumns<DOF> own{NULL, NULL, NULL, L, X, P, NULL, Dmax};
    RemoteColumns     rem{NULL, NULL, NULL, L, NULL, 0};
    PetscInt         *pt = NULL, *table;

    PetscCall(PetscMalloc1(2 * Dmax + 1, &table));
    for (PetscInt D = 0; D < 2 * Dmax + 1; D++) table[D] = -1;
    for (PetscInt c = 0; c < 27; c++) {
      const PetscInt o[3] = {c % 3 - 1, c / 3 % 3 - 1, c / 9 - 1};
      if ((L->dim < 2 && o[1]) || (L->dim < 3 && o[2])) continue;
      table[Dmax + o[0] + X * o[1] + P * o[2]] = c;
    }
    own.table = table + Dmax;

    if (ismpi) PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
    PetscCall(GetCSR(Ad, &own.ia, &own.ja, &own.aa));
    if (Ao) { /* garray: the global index of each column of Ao */
      PetscCall(MatGetSize(Ao, NULL, &rem.ncols));
      PetscCall(PetscMalloc1(4 * rem.ncols, &pt));
      for (PetscInt c = 0; c < rem.ncols; c++) PetscCall(HJLayoutPointOfGlobal(L, garray[c], pt + 3 * c, pt + 3 * rem.ncols + c));
      rem.pt = pt;
      PetscCall(GetCSR(Ao, &rem.ia, &rem.ja, &rem.aa));
    }
    PetscCall(pass.Run(own, Ao ? &rem : (const RemoteColumns *)NULL));
    PetscCall(RestoreCSR(Ad, &own.ia, &own.ja, &own.aa));
    if (Ao) PetscCall(RestoreCSR(Ao, &rem.ia, &rem.ja, &rem.aa));
    PetscCall(PetscFree(pt));
    PetscCall(PetscFree(table));
  } else {
    GenericRows rows{A, L, 0};
    PetscCall(MatGetOwnershipRange(A, &rows.rstart, NULL));
    PetscCall(pass.Run(rows, (const GenericRows *)NULL));
  }
  for (PetscInt q = 0; q < 4; q++) res->wide[q] = pass.wideown[0] >= 0 ? pass.wideown[q] : pass.wideremote[q];
  res->dirmask = pass.dirmask;
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef PetscErrorCode (*PassFn)(Mat, const HJLayout *, HJStencil *, PetscBool, HJExtractResult *);
template <std::size_t... D>
constexpr auto PassTable(std::index_sequence<D...>)
{
  return std::array<PassFn, sizeof...(D)>{RunPass<(int)D + 1>...};
}
constexpr auto kPass = PassTable(std::make_index_sequence<HJ_MAX_DOF>{});
} // namespace

PetscErrorCode HJExtractPass(Mat A, const HJLayout *L, HJStencil *st, PetscBool adapt, HJExtractResult *res)
{
  PetscFunctionBegin;
  PetscCheck(L->dof >= 1 && L->dof <= HJ_MAX_DOF && st->dof == L->dof, PETSC_COMM_SELF, PETSC_ERR_PLIB, "stencil of dof %" PetscInt_FMT " for a layout of dof %" PetscInt_FMT, st->dof, L->dof);
  PetscCheck(!adapt || st->kind == hj::STAR, PETSC_COMM_SELF, PETSC_ERR_PLIB, "an adapting pass starts from a STAR stencil");
  PetscCall(PetscMemzero(res, sizeof(*res)));
  res->singular = -1;
  res->constant = (PetscBool)(L->dof == 1); /* no compact form for blocks */
  PetscCall(kPass[L->dof - 1](A, L, st, adapt, res));
  PetscFunctionReturn(PETSC_SUCCESS);
}
