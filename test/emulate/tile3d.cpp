/* Host emulation of the 3D shared tile kernel TileKernel<3> (src/cuda/kernels/kernels.cuh compiled as host C++, test/emulate.cmake
   says): one cycle against doc/algorithm.md's cycle written literally in 3D (star and box, variable,
   constant and constant-inside (cint) coefficients, tiles with overlap, a tile long in z, a one-plane last tile, 8-wide
   rows with their threads interleaved), native and single (correction form, x ~ 1e6), from x = 0, and the transposed
   correction against the literal N^T b (the adjoint of the literal cycle from zero). */
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <thread>
#include <random>
#include <functional>
#include "cuda/kernels/kernels.cuh"
#include "launch.h"
#include "ref3d.h"

using namespace hjcuda;

/* One cycle of TileKernel<3> (S: the sub-iterations' scalar), with the plan's points per thread (4, or 8 where 4 would
   need more than kTileMaxThreads threads) */
template <class S, int KIND, bool VAR>
static std::vector<double> Tile(const Problem &p, const int *t, const int *o, int K, double w, int xzero, int transpose, bool cint = false)
{
  const long long     N = p.N();
  std::vector<double> y((size_t)N, transpose ? 0.0 : -12345.0);
  std::vector<float>  coeff(p.coef.begin(), p.coef.end()), invdiagf(p.invdiag.begin(), p.invdiag.end());
  Launch<double>      L{}; /* the library's descriptor; the kernel parameter is made from it as the launchers make it */
  L.xpad  = p.xpad.data();
  L.b     = p.b.data();
  L.y     = Output<double>{y.data(), 0, p.n[0], (long long)p.n[0] * p.n[1]};
  L.coefT = p.coef.data(), L.invdiagT = p.invdiag.data();
  L.coeff = coeff.data(), L.invdiagf = invdiagf.data();
  for (int s = 0; s < 26; s++) L.cstT.c[s] = s < p.noff ? p.cst[s] : 0;
  L.cstT.invdiag = 1 / p.cst[p.noff];
  std::vector<double> wv((size_t)std::max(K, 1));
  std::vector<float>  wvf(wv.size());
  for (int j = 0; j < (int)wv.size(); j++) wv[j] = SweepWeight(w, j), wvf[j] = (float)wv[j]; /* a weight per sweep */
  L.wT     = wv.data();
  L.wf     = wvf.data();
  L.nlocal = N;
  L.box    = Box{p.n[0], p.n[1], p.n[2], p.n[0] + 2, p.n[1] + 2};
  for (int d = 0; d < 3; d++) L.t[d] = t[d], L.o[d] = o[d], L.ntiles[d] = hj::NumTiles(p.n[d], t[d], o[d]);
  L.k = K, L.xzero = xzero, L.transpose = transpose;
  if (cint) { /* the kernel takes the row of interior point (2,2,2) inside the 2-point shell, as the plan does */
    const long long u0 = p.U(2, 2, 2);
    L.cint             = 1;
    for (int d = 0; d < 3; d++) L.ilo[d] = 2, L.ihi[d] = p.n[d] - 2;
    for (int s = 0; s < p.noff; s++) L.cstT.c[s] = p.coef[s * N + u0];
    L.cstT.invdiag = p.invdiag[u0];
  }
  const TileParams<double, S> P    = L.template Params<S>();
  const long long             W[3] = {std::min(t[0], p.n[0]), std::min(t[1], p.n[1]), std::min(t[2], p.n[2])};
  const long long             npts = W[0] * W[1] * W[2], ntiles = P.ntiles[0] * P.ntiles[1] * P.ntiles[2];
  if ((npts + 3) / 4 <= kTileMaxThreads) EmuLaunch([&] { TileKernel<3, KIND, VAR, double, S, 4>(P); }, ntiles, (int)(((npts + 3) / 4 + 31) / 32 * 32));
  else EmuLaunch([&] { TileKernel<3, KIND, VAR, double, S, 8>(P); }, ntiles, (int)(((npts + 7) / 8 + 31) / 32 * 32));
  return y;
}

template <int KIND, bool VAR>
static int Check(const char *name, const Problem &p, std::vector<int> t, std::vector<int> o, int K, double w, bool cint = false)
{
  int fail = 0;
  { /* a cycle from x ~ 1e6: native to rounding of x, single (correction form) to 1e-5 of the correction */
    const std::vector<double> ref = Reference(p, t.data(), o.data(), K, w, false, false, false);
    const std::vector<double> yd = Tile<double, KIND, VAR>(p, t.data(), o.data(), K, w, 0, 0, cint), yf = Tile<float, KIND, VAR>(p, t.data(), o.data(), K, w, 0, 0, cint);
    double                    ed = 0, ef = 0, corr = 0, xn = 0;
    for (int k = 0; k < p.n[2]; k++)
      for (int j = 0; j < p.n[1]; j++)
        for (int i = 0; i < p.n[0]; i++) {
          const long long u = p.U(i, j, k);
          const double    x = p.xpad[p.Pad(i, j, k)];
          ed = std::max(ed, std::fabs(yd[u] - ref[u])), ef = std::max(ef, std::fabs(yf[u] - ref[u]));
          corr = std::max(corr, std::fabs(ref[u] - x)), xn = std::max(xn, std::fabs(x));
        }
    const bool ok = ed <= 1e-12 * xn && ef <= 1e-5 * corr && corr > 0;
    std::printf("hjtest %s %-44s cycle: native-ref %.2e (|x| %.0e), single-ref %.2e of the correction %.2e\n", ok ? "PASS" : "FAIL", name, ed, xn, ef / corr, corr);
    fail += !ok;
  }
  for (int tr = 0; tr < 2; tr++) { /* from zero (PCApply's first cycle), and the transposed correction (all of W(T) added) */
    const std::vector<double> ref = Reference(p, t.data(), o.data(), K, w, true, tr, tr);
    const std::vector<double> yd = Tile<double, KIND, VAR>(p, t.data(), o.data(), K, w, 1, tr, cint), yf = Tile<float, KIND, VAR>(p, t.data(), o.data(), K, w, 1, tr, cint);
    double                    ed = 0, ef = 0, yn = 0;
    for (long long u = 0; u < p.N(); u++) ed = std::max(ed, std::fabs(yd[u] - ref[u])), ef = std::max(ef, std::fabs(yf[u] - ref[u])), yn = std::max(yn, std::fabs(ref[u]));
    const bool ok = ed <= 1e-13 * yn && ef <= 1e-5 * yn && yn > 0;
    std::printf("hjtest %s %-44s %s: native-ref %.2e single-ref %.2e of max|y| %.2e\n", ok ? "PASS" : "FAIL", name, tr ? "transposed" : "from zero", ed / yn, ef / yn, yn);
    fail += !ok;
  }
  return fail;
}

int main()
{
  int fail = 0;
  /* the transposed reference above uses A's coefficients in the sweeps, as the kernel does with the planes it is given
     (the caller passes A^T's): the test checks the kernel's masking and adding, not the transposition */
  Problem ps = Make(13, 11, 23, hj::STAR, true, 1e6, 1);
  fail += Check<hj::STAR, true>("star variable, 6x5x9 tiles, overlap 2,2,2", ps, {6, 5, 9}, {2, 2, 2}, 3, 0.8);
  fail += Check<hj::STAR, true>("star variable, one tile long in z (8 points a thread)", ps, {13, 11, 23}, {0, 0, 0}, 4, 0.7);
  fail += Check<hj::STAR, true>("star variable, last tile one plane (z 11)", ps, {7, 11, 11}, {0, 0, 0}, 2, 0.9);
  fail += Check<hj::STAR, true>("star variable, 8x8x8 on 13x11x23", ps, {8, 8, 8}, {0, 0, 0}, 4, 0.8);
  Problem pc = Make(12, 9, 17, hj::STAR, false, 1e6, 2);
  fail += Check<hj::STAR, false>("star constant, 5x4x8 tiles, overlap 2,0,4, k 1", pc, {5, 4, 8}, {2, 0, 4}, 1, 1.0);
  fail += Check<hj::STAR, false>("star constant, 12x9x6, k 5", pc, {12, 9, 6}, {0, 0, 2}, 5, 0.8);
  Problem pb = Make(9, 10, 15, hj::BOX, true, 1e6, 3);
  fail += Check<hj::BOX, true>("box variable, 6x6x8 tiles, overlap 2", pb, {6, 6, 8}, {2, 2, 2}, 3, 0.8);
  Problem pbc = Make(10, 7, 13, hj::BOX, false, 1e6, 4);
  fail += Check<hj::BOX, false>("box constant, 10x7x13, k 2", pbc, {10, 7, 13}, {0, 0, 0}, 2, 0.9);
  /* constant rows inside the 2-point shell, variable rows in it (ex45's shape): the kernel's constant row (cint) there */
  for (int kind = 0; kind < 2; kind++) {
    Problem pm = Make(14, 12, 19, kind ? hj::BOX : hj::STAR, true, 1e6, 5 + kind);
    ConstantInside(pm);
    if (kind) fail += Check<hj::BOX, true>("box, constant inside (cint)", pm, {6, 5, 12}, {2, 2, 2}, 3, 0.8, true);
    else fail += Check<hj::STAR, true>("star, constant inside (cint)", pm, {8, 6, 7}, {2, 0, 2}, 4, 0.8, true);
  }
  /* rows 8 points wide in groups of 8 (InterleaveRows: threads reordered so that a half-warp's shared-memory accesses
     are conflict-free) and without (clipped tiles), star and box */
  {
    Problem pi = Make(17, 18, 9, hj::STAR, true, 1e6, 11), pib = Make(17, 18, 9, hj::BOX, true, 1e6, 12);
    fail += Check<hj::STAR, true>("8x8x5 rows interleaved", pi, {8, 8, 5}, {0, 0, 0}, 4, 0.8);
    fail += Check<hj::STAR, true>("8x16x4 rows interleaved o 2", pi, {8, 16, 4}, {2, 2, 2}, 3, 0.8);
    fail += Check<hj::BOX, true>("box 8x8x3 rows interleaved", pib, {8, 8, 3}, {0, 2, 0}, 2, 0.9);
  }
  { /* blocks last to first (launch.h): a write past a tile's owned core is not overwritten by the next tile then */
    emu_reverse = true;
    fail += Check<hj::STAR, true>("star variable, 6x5x9 tiles, overlap 2,2,2 (rev)", ps, {6, 5, 9}, {2, 2, 2}, 3, 0.8);
    fail += Check<hj::BOX, true>("box variable, 6x6x8 tiles, overlap 2 (rev)", pb, {6, 6, 8}, {2, 2, 2}, 3, 0.8);
    emu_reverse = false;
  }
  std::printf("hjtest %s\n", fail ? "FAIL (3D emulation)" : "PASS all checks");
  return fail;
}
