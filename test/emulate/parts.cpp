/* Host emulation of the V-cycle's march kernels (src/cuda/kernels/residual.cuh and transfer.cuh compiled as host C++,
   test/emulate.cmake says): ResidualMarchKernel (3D) against r = b - A x written as a plain loop (variable, constant and
   constant-inside rows, x read in place with zeros outside the box or from a padded array with random ghost values),
   and TransferMarchKernel (3D, and the 2D restriction: what cuda/transfer.cu launches) against arith/transfer.hpp's point formulas (InterpolatePoint, RestrictPoint) on the same
   input: one rank's whole grid, and a rank's box of a periodic grid whose ghosted input holds the periodic neighbours;
   with and without y. Odd sizes, lateral boxes that are no multiple of the lateral tile, runs that do not divide the
   march, one-point directions. */
#include <cstdio>
#include <cmath>
#include <vector>
#include <random>
#include <algorithm>
#include "cuda/kernels/transfer.cuh"
#include "launch.h"

using namespace hjcuda;

static std::mt19937_64                        gen(7);
static std::uniform_real_distribution<double> R(-1, 1);

static double RelDiff(const std::vector<double> &a, const std::vector<double> &b)
{
  double e = 0, m = 0;
  for (size_t q = 0; q < a.size(); q++) e = std::max(e, std::fabs(a[q] - b[q])), m = std::max(m, std::fabs(b[q]));
  return m > 0 ? e / m : e;
}

/* r = b - A x on an n0 x n1 x n2 box (n2 = 1 in 2D) with ResidualMarchKernel<DIM, var, direct>; cint: rows inside
   [1, n - 1) (every direction of the dimension) are the constant row */
template <int DIM>
static int CheckResidual(int n0, int n1, int n2, bool var, bool direct, bool cint)
{
  constexpr int       noff = 2 * DIM;
  const long long     N = (long long)n0 * n1 * n2, e0 = n0 + 2, e1 = n1 + 2, e2 = DIM == 3 ? n2 + 2 : 1;
  std::vector<double> x(N), b(N), r(N, 0.0), ref(N), coef(noff * N), invd(N), xpad(e0 * e1 * e2, 0.0), row(noff);
  auto                Pad = [&](int i, int j, int k) { return (i + 1) + e0 * ((j + 1) + e1 * (DIM == 3 ? k + 1 : 0)); };
  for (auto &v : xpad) v = direct ? 0.0 : R(gen); /* the ghost layer (unused by the direct read) */
  for (auto &v : b) v = R(gen);
  for (auto &v : row) v = -(0.5 + 0.5 * std::fabs(R(gen)));
  const double         cdiag = 2.0 * DIM + 0.3;
  ResidualArgs<double> a{};
  a.cint = var && cint;
  for (int q = 0; q < 3; q++) a.ilo[q] = 1, a.ihi[q] = (q == 0 ? n0 : q == 1 ? n1 : n2) - 1;
  if (DIM == 2) a.ilo[2] = 0, a.ihi[2] = 1;
  for (int k = 0; k < n2; k++)
    for (int j = 0; j < n1; j++)
      for (int i = 0; i < n0; i++) {
        const long long u      = i + (long long)n0 * (j + (long long)n1 * k);
        const bool      inside = i >= a.ilo[0] && i < a.ihi[0] && j >= a.ilo[1] && j < a.ihi[1] && k >= a.ilo[2] && k < a.ihi[2];
        x[u] = xpad[Pad(i, j, k)] = R(gen);
        for (int s = 0; s < noff; s++) coef[s * N + u] = a.cint && inside ? row[s] : -(0.2 + std::fabs(R(gen)));
        invd[u] = a.cint && inside ? 1 / cdiag : 1 / (1.5 * DIM + std::fabs(R(gen)));
      }
  for (int k = 0; k < n2; k++)
    for (int j = 0; j < n1; j++)
      for (int i = 0; i < n0; i++) {
        const long long u = i + (long long)n0 * (j + (long long)n1 * k);
        double          s = 0;
        for (int q = 0; q < noff; q++) {
          const int  p = i + hj::Offset(DIM, hj::STAR, q, 0), t = j + hj::Offset(DIM, hj::STAR, q, 1), w = k + hj::Offset(DIM, hj::STAR, q, 2);
          const bool in = p >= 0 && p < n0 && t >= 0 && t < n1 && w >= 0 && w < n2;
          s += (var ? coef[q * N + u] : row[q]) * (direct ? (in ? x[p + (long long)n0 * (t + (long long)n1 * w)] : 0.0) : xpad[Pad(p, t, w)]);
        }
        ref[u] = b[u] - s - (var ? 1 / invd[u] : cdiag) * x[u];
      }
  a.xpad = xpad.data(), a.x = x.data(), a.b = b.data(), a.r = r.data(), a.coef = var ? coef.data() : nullptr, a.invdiag = var ? invd.data() : nullptr;
  for (int s = 0; s < noff; s++) a.crow[s] = row[s];
  a.cdiag = cdiag;
  a.xm0 = n0, a.xm1 = n1, a.xm2 = n2, a.ext0 = e0, a.ext1 = e1, a.nlocal = N;
  const long long nb = MarchBlocks<3>(n0, n1, n2, kResidualRun);
  static_assert(DIM == 3, "the residual's march is 3D");
  const auto k = var ? (direct ? &ResidualMarchKernel<true, true, double> : &ResidualMarchKernel<true, false, double>) : (direct ? &ResidualMarchKernel<false, true, double> : &ResidualMarchKernel<false, false, double>);
  EmuLaunch([&]() { k(a); }, nb, kResidualBlock);
  const double e  = RelDiff(r, ref);
  const bool   ok = e <= 1e-14;
  std::printf("hjtest %s residual %dD %4d x %4d x %3d %-8s %-6s %s: march-loop %.2e\n", ok ? "PASS" : "FAIL", DIM, n0, n1, n2, var ? "variable" : "constant", direct ? "direct" : "padded", a.cint ? "cint" : "", e);
  return !ok;
}

/* one transfer: fine grid mf (coarse mc) in every direction of DIM, periodic or not; the output box [os, os + om) of
   its grid (the whole grid: one rank, wrap), the input the box around it that the transfer reads (a rank's ghosted box:
   no wrap, the periodic neighbours in it) */
template <int DIM>
static int CheckTransfer(bool transpose, const long long *mc, bool periodic, const long long *os, const long long *om, bool whole, bool add)
{
  hj::TransferGrid g{};
  g.dof = 1, g.wrap = whole;
  for (int d = 0; d < 3; d++) {
    g.periodic[d]     = d < DIM && periodic;
    g.mc[d]           = d < DIM ? mc[d] : 1;
    g.mf[d]           = d < DIM ? (periodic ? 2 * mc[d] : 2 * (mc[d] - 1) + 1) : 1;
    const long long m = transpose ? g.mc[d] : g.mf[d], min = transpose ? g.mf[d] : g.mc[d]; /* output and input grids */
    g.os[d] = d < DIM && !whole ? os[d] : 0;
    g.om[d] = d < DIM && !whole ? om[d] : m;
    if (whole || d >= DIM) g.is[d] = 0, g.im[d] = min;
    else if (transpose) g.is[d] = 2 * g.os[d] - 1, g.im[d] = 2 * g.om[d] + 1;              /* fine children 2 I - 1 .. 2 I + 1 */
    else g.is[d] = (g.os[d] >> 1), g.im[d] = ((g.os[d] + g.om[d] - 1) >> 1) + 2 - g.is[d]; /* coarse parents I0, I0 + 1 */
  }
  const long long     nin = g.im[0] * g.im[1] * g.im[2], nout = g.om[0] * g.om[1] * g.om[2];
  std::vector<double> in(nin), y(nout), w(nout), ref(nout);
  for (auto &v : in) v = R(gen);
  for (auto &v : y) v = R(gen);
  const auto bx = hj::InputOf(g, in.data());
  for (long long k = 0; k < g.om[2]; k++)
    for (long long j = 0; j < g.om[1]; j++)
      for (long long i = 0; i < g.om[0]; i++) {
        const long long u = i + g.om[0] * (j + g.om[1] * k), gi = g.os[0] + i, gj = g.os[1] + j, gk = g.os[2] + k;
        const double    v = transpose ? hj::RestrictPoint<DIM, double>(bx, g, gi, gj, gk, 0) : hj::InterpolatePoint<DIM, double>(bx, g, gi, gj, gk, 0);
        ref[u]            = add ? y[u] + v : v;
      }
  w = y; /* y == w, as PCMG's MatInterpolateAdd(P, xc, xf, xf) */
  if (!TransferMarches(g, DIM, transpose)) {
    std::printf("hjtest FAIL transfer %dD: the march refuses this grid\n", DIM);
    return 1;
  }
  const long long nb = DIM == 3 ? MarchBlocks<3>(g.om[0], g.om[1], g.om[2], kTransferRun) : MarchBlocks<2>(g.om[0], 1, g.om[1], kTransferRun);
  auto            k  = &TransferMarchKernel<DIM, true, double>;
  if constexpr (DIM == 3)
    if (!transpose) k = &TransferMarchKernel<3, false, double>;
  EmuLaunch([&]() { k(g, in.data(), add ? w.data() : nullptr, w.data()); }, nb, kTransferBlock);
  const double e  = RelDiff(w, ref);
  const bool   ok = e <= 1e-14;
  std::printf("hjtest %s %-11s %dD coarse %3lld x %3lld x %3lld %-8s box %s%s: march-points %.2e\n", ok ? "PASS" : "FAIL", transpose ? "restriction" : "interp", DIM, g.mc[0], g.mc[1], g.mc[2], periodic ? "periodic" : "", whole ? "whole" : "part", add ? " + y" : "", e);
  return !ok;
}

int main()
{
  int fail = 0;
  for (int var = 0; var < 2; var++)
    for (int direct = 0; direct < 2; direct++)
      for (int cint = 0; cint < 1 + var; cint++) {
        fail += CheckResidual<3>(37, 11, 35, var, direct, cint);
        fail += CheckResidual<3>(1, 9, 17, var, direct, cint);
        fail += CheckResidual<3>(5, 3, 1, var, direct, cint);
        fail += CheckResidual<3>(70, 19, 50, var, direct, cint);
      }
  const long long mc3[3] = {17, 6, 10}, mc2[3] = {140, 9, 1}, os3[3] = {3, 1, 5}, om3[3] = {11, 8, 12}, os2[3] = {7, 2, 0};
  const long long cs3[3] = {2, 3, 4}, co3[3] = {5, 3, 4};
  /* several runs along z in both products; boxes spanning a periodic grid (their inputs reach indices -1 and m) */
  const long long mcz[3] = {9, 5, 40}, z0[3] = {0, 0, 0}, fz[3] = {18, 10, 80}, cz[3] = {9, 5, 40}, c2[3] = {140, 9, 1};
  for (int t = 0; t < 2; t++)
    for (int add = 0; add < 2; add++) {
      fail += CheckTransfer<3>(t, mc3, false, nullptr, nullptr, true, add);
      /* a rank's box: fine boxes starting at odd and even indices, the periodic neighbours in the ghosted input */
      fail += CheckTransfer<3>(t, mc3, true, t ? cs3 : os3, t ? co3 : om3, false, add);
      fail += CheckTransfer<3>(t, mc3, false, t ? cs3 : os3, t ? co3 : om3, false, add);
      fail += CheckTransfer<3>(t, mcz, false, nullptr, nullptr, true, add);
      fail += CheckTransfer<3>(t, mcz, true, z0, t ? cz : fz, false, add);
      if (t) { /* 2D: the restriction's march only */
        fail += CheckTransfer<2>(t, mc2, true, z0, c2, false, add);
        fail += CheckTransfer<2>(t, mc2, false, nullptr, nullptr, true, add);
        fail += CheckTransfer<2>(t, mc2, true, os2, co3, false, add);
      }
    }
  std::printf("hjtest %s\n", fail ? "FAIL (march kernel emulation)" : "PASS all checks");
  return fail != 0;
}
