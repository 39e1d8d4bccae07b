/* Host emulation of the column kernel ColumnKernel (src/cuda/kernels/columns.cuh compiled as host C++, test/emulate.cmake
   says): one cycle against doc/algorithm.md's cycle written literally (test/emulate/ref3d.h) for 3D star stencils,
   variable, constant and constant-inside (cint) coefficients, tiles with overlap in every direction, clipped and
   one-plane tiles, a tile spanning the box, ghost values in the padded layer, k = 1 to 8, from x, from zero and the
   transposed correction (the adjoint's masking and adding). */
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <thread>
#include <random>
#include <functional>
#include "cuda/kernels/columns.cuh"
#include "launch.h"
#include "ref3d.h"

using namespace hjcuda;

/* Row classes (the kernel's P.rowclass): every point of p gets row 0 (p.cst) inside the 2-point shell and one of
   nrows - 1 other rows in it (chosen by a hash of the point); p's planes are rewritten to match, so the reference reads
   the same rows. Returns the class of each point; tab gets the table (row 0 unused by the kernel: it takes P.cst). */
static std::vector<unsigned char> MakeClasses(Problem &p, int nrows, std::vector<double> &tab)
{
  std::mt19937_64                        g(99);
  std::uniform_real_distribution<double> R(-1, 1);
  std::vector<unsigned char>             cls((size_t)p.N());
  tab.assign((size_t)hj::kRowClasses * 8, 0.0);
  for (int c = 0; c < nrows; c++) {
    double sum = 0;
    for (int s = 0; s < 6; s++) sum += std::fabs(tab[8 * c + s] = c ? (c == 1 ? 0.0 : -(0.2 + 0.5 * std::fabs(R(g)))) : p.cst[s]); /* row 1: a Dirichlet row */
    tab[8 * c + 6] = c ? 1 / (sum + 0.4 + std::fabs(R(g))) : 1 / p.cst[6];
  }
  for (int k = 0; k < p.n[2]; k++)
    for (int j = 0; j < p.n[1]; j++)
      for (int i = 0; i < p.n[0]; i++) {
        const long long u  = p.U(i, j, k);
        const bool      in = i >= 2 && j >= 2 && k >= 2 && i < p.n[0] - 2 && j < p.n[1] - 2 && k < p.n[2] - 2;
        const int       c  = in ? 0 : 1 + (int)((u * 2654435761ull) % (unsigned long long)(nrows - 1));
        cls[u]             = (unsigned char)c;
        for (int s = 0; s < 6; s++) p.coef[s * p.N() + u] = tab[8 * c + s];
        p.invdiag[u] = tab[8 * c + 6];
      }
  return cls;
}

static int *emu_fixed_seen = nullptr; /* counts the launches on the fixed plane */

template <bool VAR, int K>
static std::vector<double> Columns(const Problem &p, const int *t, const int *o, double w, int xzero, int transpose, bool cint, const std::vector<unsigned char> *cls = nullptr, const std::vector<double> *tab = nullptr, bool inplace = false)
{
  const long long     N = p.N();
  std::vector<double> y((size_t)N, transpose ? 0.0 : -12345.0);
  Launch<double>      L{};
  L.xpad  = p.xpad.data();
  L.b     = p.b.data();
  L.y     = Output<double>{y.data(), 0, p.n[0], (long long)p.n[0] * p.n[1]};
  L.coefT = p.coef.data(), L.invdiagT = p.invdiag.data();
  for (int s = 0; s < 26; s++) L.cstT.c[s] = s < p.noff ? p.cst[s] : 0;
  L.cstT.invdiag = 1 / p.cst[p.noff];
  std::vector<double> wv(K);
  for (int j = 0; j < K; j++) wv[j] = SweepWeight(w, j);
  L.wT = wv.data();
  for (int j = 0; j < K; j++) L.wv[j] = wv[j];
  L.nlocal = N;
  L.box    = Box{p.n[0], p.n[1], p.n[2], p.n[0] + 2, p.n[1] + 2};
  for (int d = 0; d < 3; d++) L.t[d] = t[d], L.o[d] = o[d], L.ntiles[d] = hj::NumTiles(p.n[d], t[d], o[d]);
  L.k = K, L.xzero = xzero, L.transpose = transpose;
  if (cint) { /* the row of interior point (2,2,2) inside the 2-point shell, as the plan takes it */
    const long long u0 = p.U(2, 2, 2);
    L.cint             = 1;
    for (int d = 0; d < 3; d++) L.ilo[d] = 2, L.ihi[d] = p.n[d] - 2;
    for (int s = 0; s < p.noff; s++) L.cstT.c[s] = p.coef[s * N + u0];
    L.cstT.invdiag = p.invdiag[u0];
  }
  if (cls) L.rowclass = cls->data(), L.rowtab = tab->data(), L.coefT = nullptr, L.invdiagT = nullptr; /* no plane may be read */
  std::vector<double> xu;
  if (inplace) { /* x read in place from the unpadded array; xpad must not be read */
    for (int k = 0; k < p.n[2]; k++)
      for (int j = 0; j < p.n[1]; j++)
        for (int i = 0; i < p.n[0]; i++) xu.push_back(p.xpad[p.Pad(i, j, k)]);
    L.xin  = xu.data();
    L.xpad = nullptr;
  }
  const TileParams<double, double> P    = L.template Params<double>();
  const long long                  W[3] = {std::min(t[0], p.n[0]), std::min(t[1], p.n[1]), std::min(t[2], p.n[2])};
  const hj::ColumnNeed             need = hj::ColumnNeeds(W, K, 8, 1LL << 40);
  const long long                  nb   = P.ntiles[0] * P.ntiles[1] * P.ntiles[2];
  const int                        M    = !VAR ? kColumnConstant : (cls ? kColumnClasses : kColumnPlanes);
  auto                             go   = [&](auto kernel) { EmuLaunch([&] { kernel(P); }, nb, (int)need.threads); };
  if (need.fixed) /* the fixed plane, as the CUDA plan takes it */
    go(M == kColumnConstant ? ColumnKernel<kColumnConstant, double, K, 1> : (M == kColumnClasses ? ColumnKernel<kColumnClasses, double, K, 1> : ColumnKernel<kColumnPlanes, double, K, 1>));
  else go(M == kColumnConstant ? ColumnKernel<kColumnConstant, double, K, 0> : (M == kColumnClasses ? ColumnKernel<kColumnClasses, double, K, 0> : ColumnKernel<kColumnPlanes, double, K, 0>));
  if (emu_fixed_seen) *emu_fixed_seen += need.fixed;
  return y;
}

template <bool VAR, int K>
static int Check(const char *name, const Problem &p, std::vector<int> t, std::vector<int> o, double w, bool cint = false, const std::vector<unsigned char> *cls = nullptr, const std::vector<double> *tab = nullptr, int modes = 8)
{
  int fail = 0;
  for (int mode = 0; mode < modes; mode++) { /* from x (~1e6), from zero, the transposed correction, x read in place; blocks
                                           first to last, then last to first (a stray write past an owned core shows in one) */
    const bool xzero = (mode & 3) == 1 || (mode & 3) == 2, tr = (mode & 3) == 2;
    if ((mode & 3) == 3 && p.ghost) continue; /* in place: one rank, no ghost values */
    emu_reverse                   = mode >= 4;
    const std::vector<double> ref = Reference(p, t.data(), o.data(), K, w, xzero, tr, tr);
    const std::vector<double> yc  = Columns<VAR, K>(p, t.data(), o.data(), w, xzero, tr, cint, cls, tab, (mode & 3) == 3);
    double                    e = 0, yn = 0;
    for (long long u = 0; u < p.N(); u++) e = std::max(e, std::fabs(yc[u] - ref[u])), yn = std::max(yn, std::fabs(ref[u]));
    const bool ok = e <= 1e-13 * yn && yn > 0;
    std::printf("hjtest %s k %d %-46s %-10s columns-ref %.2e of max|y| %.2e\n", ok ? "PASS" : "FAIL", K, name, (mode & 3) == 0 ? (emu_reverse ? "cycle, rev" : "cycle") : ((mode & 3) == 3 ? (emu_reverse ? "in place, rev" : "in place") : (tr ? (emu_reverse ? "transp, rev" : "transposed") : (emu_reverse ? "zero, rev" : "from zero"))), e / yn, yn);
    fail += !ok;
  }
  return fail;
}

int main()
{
  int     fail = 0;
  Problem ps   = Make(13, 11, 23, hj::STAR, true, 1e6, 1);
  fail += Check<true, 3>("variable, 6x5x9 tiles, overlap 2,2,2", ps, {6, 5, 9}, {2, 2, 2}, 0.8);
  fail += Check<true, 4>("variable, one tile spanning the box", ps, {13, 11, 23}, {0, 0, 0}, 0.7);
  fail += Check<true, 2>("variable, last tile one plane (z 11)", ps, {7, 11, 11}, {0, 0, 0}, 0.9);
  fail += Check<true, 8>("variable, 8x8x8 on 13x11x23, k 8", ps, {8, 8, 8}, {0, 0, 0}, 0.8);
  fail += Check<true, 1>("variable, k 1 (one Jacobi sweep)", ps, {4, 6, 5}, {2, 0, 2}, 0.8);
  Problem pc = Make(12, 9, 17, hj::STAR, false, 1e6, 2);
  fail += Check<false, 1>("constant, 5x4x8, overlap 2,0,4, k 1", pc, {5, 4, 8}, {2, 0, 4}, 1.0);
  fail += Check<false, 5>("constant, 12x9x6, overlap 0,0,2, k 5", pc, {12, 9, 6}, {0, 0, 2}, 0.8);
  fail += Check<false, 4>("constant, 10x3x17 (thin y), overlap 4,0,0", pc, {10, 3, 17}, {4, 0, 0}, 0.8);
  /* ghost values in the padded layer (another rank's points) */
  Problem pg = Make(11, 10, 14, hj::STAR, true, 1.0, 3, true);
  fail += Check<true, 4>("variable, ghost layer, 7x6x10, overlap 0,2,0", pg, {7, 6, 10}, {0, 2, 0}, 0.8);
  fail += Check<true, 6>("variable, ghost layer, one tile, k 6", pg, {11, 10, 14}, {0, 0, 0}, 0.7);
  /* constant rows inside the 2-point shell, variable rows in it (mg3d's and ex45's shape): the kernel's constant row there */
  Problem pm = Make(14, 12, 19, hj::STAR, true, 1e6, 5);
  ConstantInside(pm);
  fail += Check<true, 4>("constant inside (cint), 8x6x7, overlap 2,0,2", pm, {8, 6, 7}, {2, 0, 2}, 0.8, true);
  fail += Check<true, 3>("constant inside (cint), 30x14x64 (default shape)", pm, {30, 14, 64}, {0, 0, 0}, 0.8, true);
  /* row classes: the rows from a table by each point's class, no plane read (the planes hold the same rows for the reference) */
  {
    std::vector<double>        tab;
    Problem                    pr  = Make(15, 13, 21, hj::STAR, true, 1e6, 8);
    std::vector<unsigned char> cls = MakeClasses(pr, 5, tab);
    fail += Check<true, 4>("row classes (5 rows), 8x6x7, overlap 2,0,2", pr, {8, 6, 7}, {2, 0, 2}, 0.8, false, &cls, &tab);
    fail += Check<true, 2>("row classes (5 rows), one tile", pr, {15, 13, 21}, {0, 0, 0}, 0.9, false, &cls, &tab);
    fail += Check<true, 8>("row classes (5 rows), 6x5x9, k 8", pr, {6, 5, 9}, {0, 2, 2}, 0.8, false, &cls, &tab);
    Problem                    pd   = Make(12, 14, 17, hj::STAR, true, 1.0, 9, true);
    std::vector<unsigned char> cls2 = MakeClasses(pd, hj::kRowClasses, tab);
    fail += Check<true, 5>("row classes (16 rows), ghost layer, k 5", pd, {7, 6, 10}, {0, 2, 0}, 0.8, false, &cls2, &tab);
  }
  { /* the fixed plane (hj::ColumnNeed::fixed: 22 x 14 and 31 x 16 planes of 32 x 16), every mode, remainder tiles */
    int fixed      = 0;
    emu_fixed_seen = &fixed;
    Problem pf     = Make(41, 29, 13, hj::STAR, true, 1e6, 10);
    fail += Check<true, 4>("fixed plane, variable, 20x12x5, overlap 2,2,0", pf, {20, 12, 5}, {2, 2, 0}, 0.8);
    Problem pk = Make(33, 17, 9, hj::STAR, false, 1e6, 11);
    fail += Check<false, 3>("fixed plane, constant, 29x14x4 (default shape)", pk, {29, 14, 4}, {0, 0, 0}, 0.8);
    std::vector<double>        tab;
    Problem                    pr  = Make(35, 19, 11, hj::STAR, true, 1.0, 12, true);
    std::vector<unsigned char> cls = MakeClasses(pr, 5, tab);
    fail += Check<true, 4>("fixed plane, row classes, ghost layer, 30x14x6", pr, {30, 14, 6}, {0, 0, 2}, 0.8, false, &cls, &tab);
    fail += Check<true, 8>("fixed plane, row classes, k 8", pr, {30, 14, 6}, {0, 0, 2}, 0.8, false, &cls, &tab);
    /* tiles deep enough for the steady steps: pairs and an odd remainder (k <= 4), one at a time (k > 4); blocks in order
       only (the reversed order is checked on the fixed plane above) */
    Problem pz = Make(29, 16, 30, hj::STAR, true, 1e6, 13);
    fail += Check<true, 4>("fixed plane, steady pairs, 29x14x17, overlap 0,2,4", pz, {29, 14, 17}, {0, 2, 4}, 0.8, false, nullptr, nullptr, 4);
    fail += Check<false, 3>("fixed plane, steady pairs, constant, 30x14x16", pk, {30, 14, 16}, {0, 0, 0}, 0.8, false, nullptr, nullptr, 4);
    fail += Check<true, 1>("fixed plane, steady, k 1, 29x14x13", pz, {29, 14, 13}, {0, 0, 0}, 0.8, false, nullptr, nullptr, 4);
    fail += Check<true, 2>("fixed plane, steady, k 2, 29x14x14", pz, {29, 14, 14}, {0, 2, 0}, 0.8, false, nullptr, nullptr, 4);
    fail += Check<true, 6>("fixed plane, steady, k 6, 29x14x20", pz, {29, 14, 20}, {0, 0, 2}, 0.8, false, nullptr, nullptr, 4);
    Problem                    pq   = Make(30, 15, 24, hj::STAR, true, 1.0, 14, true);
    std::vector<unsigned char> cls2 = MakeClasses(pq, 5, tab);
    fail += Check<true, 4>("fixed plane, row classes, steady, 30x14x15", pq, {30, 14, 15}, {0, 0, 0}, 0.8, false, &cls2, &tab, 4);
    fail += Check<true, 8>("fixed plane, row classes, steady, k 8, 30x14x21", pq, {30, 14, 21}, {0, 0, 2}, 0.8, false, &cls2, &tab, 4);
    const bool ok = fixed > 0;
    std::printf("hjtest %s fixed plane launches: %d\n", ok ? "PASS" : "FAIL", fixed);
    fail += !ok;
    emu_fixed_seen = nullptr;
  }
  std::printf("hjtest %s\n", fail ? "FAIL (column kernel emulation)" : "PASS all checks");
  return fail;
}
