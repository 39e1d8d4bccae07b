/* Host emulation of the CUDA tile kernels (test/emulate/cuda_runtime.h; the kernel headers themselves, their
   device-only macros as test/emulate/hjemulate.h defines them; the kernel parameter made from the launch descriptor,
   Launch::Params, as the launchers make it): one cycle with S = double (native) and S = float (the
   correction form) against a literal doc/algorithm.md cycle, with x ~ 1e6 and a residual of order 1 (near convergence).
   Native must match to rounding of x; single to 1e-5 of the correction (it is ~1e-7; rounding x to float, as the
   single mode did before, would be off by ~6e-2). Also InvertBlocksKernel. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <thread>
#include <random>
#include <functional>
#include "cuda/kernels/block.cuh"
#include "launch.h"
#include "arith/dispatch.hpp"

using namespace hjcuda;

static bool g_cint = false; /* launch with the constant box of the plan (P.cint): see main */

struct Problem {
  int                 nx, ny, dof, noff = 4; // 2D star
  std::vector<double> xpad, b, coef, invdiag, diag, cst;
  long long           ext0() const { return nx + 2; }
  long long           ext1() const { return ny + 2; }
};

// dof x dof inverse by Gauss-Jordan (host), for the literal reference's blocks
static void Inv(int n, const double *a, double *v)
{
  std::vector<double> m(a, a + n * n);
  for (int i = 0; i < n * n; i++) v[i] = (i / n == i % n);
  for (int c = 0; c < n; c++) {
    int p = c;
    for (int r = c + 1; r < n; r++)
      if (std::fabs(m[r * n + c]) > std::fabs(m[p * n + c])) p = r;
    for (int j = 0; j < n; j++) std::swap(m[c * n + j], m[p * n + j]), std::swap(v[c * n + j], v[p * n + j]);
    double s = 1 / m[c * n + c];
    for (int j = 0; j < n; j++) m[c * n + j] *= s, v[c * n + j] *= s;
    for (int r = 0; r < n; r++)
      if (r != c) {
        double f = m[r * n + c];
        for (int j = 0; j < n; j++) m[r * n + j] -= f * m[c * n + j], v[r * n + j] -= f * v[c * n + j];
      }
  }
}

static Problem Make(int nx, int ny, int dof, double X0, bool zero_y, unsigned seed)
{
  Problem                                p;
  std::mt19937_64                        g(seed);
  std::uniform_real_distribution<double> U(-1, 1);
  p.nx = nx, p.ny = ny, p.dof = dof;
  const long long n = (long long)nx * ny, dd = dof * dof;
  p.xpad.assign((size_t)(p.ext0() * p.ext1() * dof), 0.0);
  p.b.resize(n * dof);
  p.coef.resize(4 * n * dd);
  p.invdiag.resize(n * dd);
  p.diag.resize(n * dd);
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++)
      for (int c = 0; c < dof; c++) p.xpad[dof * ((i + 1) + p.ext0() * (j + 1)) + c] = X0 + U(g);
  for (auto &v : p.b) v = U(g);
  for (long long u = 0; u < n; u++) {
    double rowsum = 0;
    for (int s = 0; s < 4; s++)
      for (int e = 0; e < dd; e++) {
        double v                     = (zero_y && s >= 2) ? 0.0 : -(0.5 + 0.5 * std::fabs(U(g))) * (e / dof == e % dof ? 1.0 : 0.1);
        p.coef[(s * n + u) * dd + e] = v;
        rowsum += std::fabs(v);
      }
    for (int e = 0; e < dd; e++) p.diag[u * dd + e] = (e / dof == e % dof) ? rowsum / dof + 0.3 + 0.2 * std::fabs(U(g)) : 0.05 * U(g);
    Inv(dof, &p.diag[u * dd], &p.invdiag[u * dd]);
  }
  // b = A x + r with r in [-1, 1]: the correction is O(1) while x ~ X0, as near convergence
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) {
      const long long u     = i + (long long)nx * j;
      const int       di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
      for (int c = 0; c < dof; c++) {
        double ax = 0;
        for (int c2 = 0; c2 < dof; c2++) ax += p.diag[u * dd + c * dof + c2] * p.xpad[dof * ((i + 1) + p.ext0() * (j + 1)) + c2];
        for (int s = 0; s < 4; s++)
          for (int c2 = 0; c2 < dof; c2++) ax += p.coef[(s * n + u) * dd + c * dof + c2] * p.xpad[dof * ((i + di[s] + 1) + p.ext0() * (j + dj[s] + 1)) + c2];
        p.b[u * dof + c] = ax + U(g);
      }
    }
  return p;
}

// doc/algorithm.md's cycle, literally (2D star, dof blocks): tiles, frozen halo, k damped sweeps, owned write
static std::vector<double> Reference(const Problem &p, int t0, int t1, int o0, int o1, int k, double w)
{
  const int           dof = p.dof, dd = dof * dof;
  const long long     n = (long long)p.nx * p.ny;
  std::vector<double> out((size_t)(n * dof));
  auto                X   = [&](int i, int j, int c) { return (i < 0 || j < 0 || i >= p.nx || j >= p.ny) ? 0.0 : p.xpad[dof * ((i + 1) + p.ext0() * (j + 1)) + c]; };
  const long long     nt0 = hj::NumTiles(p.nx, t0, o0), nt1 = hj::NumTiles(p.ny, t1, o1);
  const int           di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
  for (long long a = 0; a < nt0; a++)
    for (long long bb = 0; bb < nt1; bb++) {
      hj::Range           rx = hj::TileRange(p.nx, t0, o0, a), ry = hj::TileRange(p.ny, t1, o1, bb);
      auto                inW = [&](int i, int j) { return i >= rx.w0 && i < rx.w1 && j >= ry.w0 && j < ry.w1; };
      std::vector<double> y((size_t)(n * dof)), yn;
      for (int j = 0; j < p.ny; j++)
        for (int i = 0; i < p.nx; i++)
          for (int c = 0; c < dof; c++) y[(i + p.nx * j) * dof + c] = X(i, j, c);
      for (int it = 0; it < k; it++) {
        yn = y;
        for (int j = (int)ry.w0; j < ry.w1; j++)
          for (int i = (int)rx.w0; i < rx.w1; i++) {
            const long long     u = i + (long long)p.nx * j;
            std::vector<double> r(dof);
            for (int c = 0; c < dof; c++) r[c] = p.b[u * dof + c];
            for (int s = 0; s < 4; s++) {
              int qi = i + di[s], qj = j + dj[s];
              for (int c = 0; c < dof; c++)
                for (int c2 = 0; c2 < dof; c2++) {
                  double v = (qi < 0 || qj < 0 || qi >= p.nx || qj >= p.ny) ? 0.0 : (inW(qi, qj) ? y[(qi + p.nx * qj) * dof + c2] : X(qi, qj, c2));
                  r[c] -= p.coef[(s * n + u) * dd + c * dof + c2] * v;
                }
            }
            for (int c = 0; c < dof; c++) {
              double z = 0;
              for (int c2 = 0; c2 < dof; c2++) z += p.invdiag[u * dd + c * dof + c2] * r[c2];
              yn[u * dof + c] = y[u * dof + c] + SweepWeight(w, it) * (z - y[u * dof + c]);
            }
          }
        y = yn;
      }
      for (int j = (int)ry.o0; j < ry.o1; j++)
        for (int i = (int)rx.o0; i < rx.o1; i++)
          for (int c = 0; c < dof; c++) out[(i + p.nx * j) * dof + c] = y[(i + p.nx * j) * dof + c];
    }
  return out;
}

// One cycle through the emulated kernel. kind: 0 TileKernel (2D), 1 TileKernelStrip (R = 4), 2 TileKernel 1D on rows,
// 3 TileKernelBlock (dof), 4 TileKernelStrip (R = 8). split: the tiles in two launches through P.tileids (TileId), in another order (odd ids
// ascending, then even ids descending), as a cycle launches its interior tiles during the ghost exchange
template <class S>
static std::vector<double> Kernel(const Problem &p, int kind, bool var, int t0, int t1, int o0, int o1, int k, double w, double cstc, double cstinv, int xzero = 0, int transpose = 0, bool split = false)
{
  const int           dof = p.dof;
  const long long     n   = (long long)p.nx * p.ny;
  std::vector<double> y((size_t)(n * dof), -12345.0);
  std::vector<float>  coeff(p.coef.begin(), p.coef.end()), invdiagf(p.invdiag.begin(), p.invdiag.end());
  Launch<double>      L{}; /* the library's descriptor; the kernel parameter is made from it as the launchers make it */
  L.xpad  = p.xpad.data();
  L.b     = p.b.data();
  L.y     = Output<double>{y.data(), 0, p.nx, (long long)p.nx * p.ny};
  L.coefT = p.coef.data(), L.invdiagT = p.invdiag.data(), L.diagT = p.diag.data();
  L.coeff = coeff.data(), L.invdiagf = invdiagf.data();
  for (int s = 0; s < 26; s++) L.cstT.c[s] = s < 4 ? cstc : 0;
  L.cstT.invdiag = cstinv;
  std::vector<double> wv((size_t)std::max(k, 1));
  std::vector<float>  wvf(wv.size());
  for (int j = 0; j < (int)wv.size(); j++) wv[j] = SweepWeight(w, j), wvf[j] = (float)wv[j]; /* a weight per sweep */
  L.wT            = wv.data();
  L.wf            = wvf.data();
  L.nlocal        = n;
  L.box           = Box{p.nx, p.ny, 1, p.ext0(), p.ext1()};
  const bool rows = kind == 2;
  if (rows) t1 = 1, o1 = 0, L.xshift = p.ext0();
  L.t[0] = t0, L.t[1] = t1, L.t[2] = 1, L.o[0] = o0, L.o[1] = o1, L.o[2] = 0;
  L.ntiles[0] = hj::NumTiles(p.nx, t0, o0), L.ntiles[1] = hj::NumTiles(p.ny, t1, o1), L.ntiles[2] = 1;
  L.k     = k;
  L.xzero = xzero, L.transpose = transpose;
  if (g_cint) { /* the plan's constant box: rows 2..n-3 of both directions have the row of point (2, 2) (the caller made it so) */
    const long long u0 = 2 + (long long)p.nx * 2;
    L.cint             = 1;
    L.ilo[0] = 2, L.ihi[0] = p.nx - 2, L.ilo[1] = 2, L.ihi[1] = p.ny - 2, L.ilo[2] = 0, L.ihi[2] = 1;
    for (int s = 0; s < 4; s++) L.cstT.c[s] = p.coef[s * n + u0];
    L.cstT.invdiag = p.invdiag[u0];
  }
  TileParams<double, S> P = L.template Params<S>();
  if (transpose) std::fill(y.begin(), y.end(), 0.0); /* the transposed correction adds into y */
  const long long ntot = P.ntiles[0] * P.ntiles[1];
  const int       W0 = std::min(t0, p.nx), W1 = std::min(t1, p.ny);
  auto            launch = [&](long long nblocks) {
    if (kind == 0 || kind == 2) {
      const int npts = W0 * W1, ppt = 2, nth = ((npts + ppt - 1) / ppt + 31) / 32 * 32;
      if (kind == 0) EmuLaunch([&] { var ? TileKernel<2, hj::STAR, true, double, S, 2>(P) : TileKernel<2, hj::STAR, false, double, S, 2>(P); }, nblocks, nth);
      else EmuLaunch([&] { var ? TileKernel<1, hj::STAR, true, double, S, 2>(P) : TileKernel<1, hj::STAR, false, double, S, 2>(P); }, nblocks, nth);
    } else if (kind == 1) {
      const int R = 4, nth = (W0 * ((W1 + R - 1) / R) + 31) / 32 * 32;
      EmuLaunch([&] { var ? TileKernelStrip<true, double, S, 4>(P) : TileKernelStrip<false, double, S, 4>(P); }, nblocks, nth);
    } else if (kind == 4) {
      const int R = 8, nth = (W0 * ((W1 + R - 1) / R) + 31) / 32 * 32;
      EmuLaunch([&] { var ? TileKernelStrip<true, double, S, 8>(P) : TileKernelStrip<false, double, S, 8>(P); }, nblocks, nth);
    } else {
      const int npts = W0 * W1, nth = std::min((npts + 31) / 32 * 32, 256);
      if (dof == 2) EmuLaunch([&] { TileKernelBlock<2, hj::STAR, 2, double, S>(P); }, nblocks, nth);
      else EmuLaunch([&] { TileKernelBlock<2, hj::STAR, 3, double, S>(P); }, nblocks, nth);
    }
  };
  if (split) {
    std::vector<unsigned> ids;
    for (long long id = 1; id < ntot; id += 2) ids.push_back((unsigned)id);
    const long long m = (long long)ids.size();
    for (long long id = (ntot - 1) / 2 * 2; id >= 0; id -= 2) ids.push_back((unsigned)id);
    P.tileids = ids.data();
    launch(m);
    P.tileids = ids.data() + m;
    launch(ntot - m);
  } else launch(ntot);
  return y;
}

/* The same cycle with the tiles in two launches in another order (TileId): the same bits */
template <class S>
static int CheckSplit(const char *name, const Problem &p, int kind, bool var, int t0, int t1, int o0, int o1, int k, double w, double cstc = 0, double cstinv = 0)
{
  const std::vector<double> a  = Kernel<S>(p, kind, var, t0, t1, o0, o1, k, w, cstc, cstinv);
  const std::vector<double> b  = Kernel<S>(p, kind, var, t0, t1, o0, o1, k, w, cstc, cstinv, 0, 0, true);
  const bool                ok = a.size() == b.size() && !std::memcmp(a.data(), b.data(), a.size() * sizeof(double));
  std::printf("hjtest %s %-40s tiles in two launches through tileids = one launch, bit for bit\n", ok ? "PASS" : "FAIL", name);
  return ok ? 0 : 1;
}

static int Check(const char *name, const Problem &p, int kind, bool var, int t0, int t1, int o0, int o1, int k, double w, double cstc = 0, double cstinv = 0)
{
  std::vector<double> ref = Reference(p, t0, kind == 2 ? 1 : t1, o0, kind == 2 ? 0 : o1, k, w);
  std::vector<double> yd  = Kernel<double>(p, kind, var, t0, t1, o0, o1, k, w, cstc, cstinv);
  std::vector<double> yf  = Kernel<float>(p, kind, var, t0, t1, o0, o1, k, w, cstc, cstinv);
  double              ed = 0, ef = 0, corr = 0, xn = 0;
  for (size_t i = 0; i < ref.size(); i++) {
    const int    d = p.dof, pt = (int)(i / d), c = (int)(i % d), ii = pt % p.nx, jj = pt / p.nx;
    const double x = p.xpad[d * ((ii + 1) + p.ext0() * (jj + 1)) + c];
    ed             = std::max(ed, std::fabs(yd[i] - ref[i]));
    ef             = std::max(ef, std::fabs(yf[i] - ref[i]));
    corr           = std::max(corr, std::fabs(ref[i] - x));
    xn             = std::max(xn, std::fabs(x));
  }
  // native: to rounding of |x|; single (correction form): about 1e-7 of the correction, far below float's 6e-8 |x|
  const bool ok = ed <= 1e-12 * xn && ef <= 1e-5 * corr;
  std::printf("hjtest %s %-40s max|x| %.1e max|correction| %.2e  native-ref %.2e  single-ref %.2e (%.2e of the correction; x in float would be ~%.0e)\n", ok ? "PASS" : "FAIL", name, xn, corr, ed, ef, ef / corr, 6e-8 * xn);
  return ok ? 0 : 1;
}

/* From a zero x (PCApply's first cycle; with transpose the transposed correction, atomic adds): the single mode is
   today's from-zero float iteration, r = b (masked when transposed): it must agree with native to float rounding */
static int CheckZero(const char *name, const Problem &p, int kind, int transpose, int t0, int t1, int o0, int o1, int k, double w)
{
  std::vector<double> yd = Kernel<double>(p, kind, true, t0, t1, o0, o1, k, w, 0, 0, 1, transpose);
  std::vector<double> yf = Kernel<float>(p, kind, true, t0, t1, o0, o1, k, w, 0, 0, 1, transpose);
  double              e = 0, yn = 0;
  for (size_t i = 0; i < yd.size(); i++) e = std::max(e, std::fabs(yd[i] - yf[i])), yn = std::max(yn, std::fabs(yd[i]));
  const bool ok = e <= 1e-5 * yn && yn > 0;
  std::printf("hjtest %s %-40s single-native %.2e of max|y| %.2e\n", ok ? "PASS" : "FAIL", name, e / yn, yn);
  return ok ? 0 : 1;
}

/* hj::DispatchTable's probe: entry (A, B, C) returns 100 A + 10 B + C */
template <int A, bool B, int C>
static int DispatchValue()
{
  return A * 100 + B * 10 + C;
}
struct DispatchProbe {
  template <int A, int B, int C>
  static constexpr int (*Get())()
  {
    return &DispatchValue<A, B == 1, C>;
  }
};

int main()
{
  int     fail = 0;
  Problem p    = Make(37, 29, 1, 1e6, false, 1);
  fail += Check("TileKernel 2D star variable", p, 0, true, 16, 12, 4, 2, 3, 0.8);
  fail += Check("TileKernelStrip R=4 variable (partial)", p, 1, true, 16, 13, 4, 2, 3, 0.9);
  fail += Check("TileKernelStrip R=8 variable (partial)", p, 4, true, 16, 13, 4, 2, 3, 0.9);
  Problem pc = Make(37, 29, 1, 1e6, false, 2);
  for (long long u = 0; u < 37 * 29; u++) {
    for (int s = 0; s < 4; s++) pc.coef[s * 37 * 29 + u] = -1.0;
    pc.invdiag[u] = 1 / 4.5, pc.diag[u] = 4.5; // the constant stencil, as the kernels' cst; the reference reads the planes
  }
  { /* b = A x + r again for the constant planes */
    std::mt19937_64                        g(9);
    std::uniform_real_distribution<double> U(-1, 1);
    const int                              di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
    for (int j = 0; j < 29; j++)
      for (int i = 0; i < 37; i++) {
        double ax = 4.5 * pc.xpad[(i + 1) + pc.ext0() * (j + 1)];
        for (int s = 0; s < 4; s++) ax -= pc.xpad[(i + di[s] + 1) + pc.ext0() * (j + dj[s] + 1)];
        pc.b[i + 37 * j] = ax + U(g);
      }
  }
  fail += Check("TileKernel 2D star constant", pc, 0, false, 16, 12, 4, 2, 3, 0.8, -1.0, 1 / 4.5);
  fail += Check("TileKernelStrip R=4 constant", pc, 1, false, 16, 12, 4, 2, 4, 1.0, -1.0, 1 / 4.5);
  fail += Check("TileKernelStrip R=8 constant (partial)", pc, 4, false, 16, 12, 4, 2, 4, 1.0, -1.0, 1 / 4.5);
  Problem pr = Make(45, 7, 1, 1e6, true, 3);
  fail += Check("TileKernel 1D on rows (zero y couplings)", pr, 2, true, 16, 1, 4, 0, 4, 0.8);
  Problem pb = Make(23, 19, 2, 1e6, false, 4);
  fail += Check("TileKernelBlock dof 2", pb, 3, true, 8, 7, 2, 2, 3, 0.8);
  Problem pb3 = Make(17, 13, 3, 1e6, false, 5);
  fail += Check("TileKernelBlock dof 3", pb3, 3, true, 8, 6, 2, 0, 2, 1.0);
  fail += CheckZero("TileKernel from zero", p, 0, 0, 16, 12, 4, 2, 3, 0.8);
  fail += CheckZero("TileKernel transposed (from zero, atomic)", p, 0, 1, 16, 12, 4, 2, 3, 0.8);
  fail += CheckZero("TileKernelBlock transposed dof 2", pb, 3, 1, 8, 7, 2, 2, 3, 0.8);
  fail += CheckSplit<double>("split: TileKernel 2D", p, 0, true, 16, 12, 4, 2, 3, 0.8);
  fail += CheckSplit<float>("split: TileKernel 2D single", p, 0, true, 16, 12, 4, 2, 3, 0.8);
  fail += CheckSplit<double>("split: TileKernelStrip", p, 1, true, 16, 13, 4, 2, 3, 0.9);
  fail += CheckSplit<double>("split: TileKernel 1D on rows", pr, 2, true, 16, 1, 4, 0, 4, 0.8);
  fail += CheckSplit<double>("split: TileKernelBlock dof 3", pb3, 3, true, 8, 6, 2, 0, 2, 1.0);
  { /* InvertBlocksKernel: inverse of invdiag back to diag */
    std::vector<double> d2(pb3.diag.size());
    EmuLaunch([&] { InvertBlocksKernel<double>(17 * 13, 3, pb3.invdiag.data(), d2.data()); }, 1, 64);
    double e = 0;
    for (size_t i = 0; i < d2.size(); i++) e = std::max(e, std::fabs(d2[i] - pb3.diag[i]));
    std::printf("hjtest %s InvertBlocksKernel dof 3: max |inv(invdiag) - diag| %.2e\n", e < 1e-13 ? "PASS" : "FAIL", e);
    fail += e >= 1e-13;
  }
  { /* constant rows inside a 2-point shell, variable in it (ex45's shape): the kernels take P.cst there (P.cint) */
    Problem         pm = Make(37, 29, 1, 1e6, false, 11);
    const long long n  = 37 * 29;
    for (int j = 2; j < 27; j++)
      for (int i = 2; i < 35; i++) {
        const long long u = i + 37LL * j;
        for (int s = 0; s < 4; s++) pm.coef[s * n + u] = -1.0 - 0.1 * s;
        pm.invdiag[u] = 1 / 5.0, pm.diag[u] = 5.0;
      }
    g_cint = true;
    fail += Check("TileKernel 2D, constant inside (cint)", pm, 0, true, 16, 12, 4, 2, 3, 0.8);
    fail += Check("TileKernelStrip R=4, constant inside (cint)", pm, 1, true, 16, 13, 4, 2, 3, 0.9);
    fail += Check("TileKernelStrip R=8, constant inside (cint)", pm, 4, true, 16, 13, 4, 2, 3, 0.9);
    g_cint = false;
  }
  { /* hj::DispatchTable (the kernel tables of cuda/kernels/dispatch.cuh): every combination once, row-major, nullptr out of range */
    int bad = 0;
    for (int a = 0; a < 5; a++)
      for (int b = 0; b < 2; b++)
        for (int c = 0; c < 4; c++) bad += hj::DispatchTable<DispatchProbe, 5, 2, 4>::At(a, (bool)b, c)() != a * 100 + b * 10 + c;
    bad += hj::DispatchTable<DispatchProbe, 5, 2, 4>::At(5, 0, 0) != nullptr;
    bad += hj::DispatchTable<DispatchProbe, 5, 2, 4>::At(0, 2, 0) != nullptr;
    bad += hj::DispatchTable<DispatchProbe, 5, 2, 4>::At(0, 0, -1) != nullptr;
    std::printf("hjtest %s hj::DispatchTable 5 x 2 x 4: %d wrong entries\n", bad ? "FAIL" : "PASS", bad);
    fail += bad != 0;
  }
  std::printf("hjtest %s\n", fail ? "FAIL (emulation)" : "PASS all checks");
  return fail;
}
