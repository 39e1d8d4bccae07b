/* Host emulation of the streaming 3D kernel StreamKernel (src/cuda/kernels/stream.cuh compiled as host C++, test/emulate.cmake
   says): one cycle against doc/algorithm.md's cycle written literally in 3D for a star stencil, k = 2 and 4, with x-y tiles
   of several shapes (32 x 8, 16 x 16, narrow ones, the whole box), z extents streamed (short tiles, the whole box, a
   one-plane last tile), overlap in every direction, odd sizes and remainder tiles, variable, constant and
   constant-inside (cint, variable rows in the boundary shell) coefficients, a ghost layer holding values (another
   rank's or the periodic seam's: the frozen halo read from xpad), from x = 0, and a split launch (P.tileids, tiles in
   another order). The reference reads every neighbour outside W(T) from xpad, the ghost layer included. */
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <thread>
#include <random>
#include <functional>
#include "cuda/kernels/stream.cuh"
#include "launch.h"

using namespace hjcuda;

struct Problem {
  int                 n[3], noff = 6;
  bool                var;
  std::vector<double> xpad, b, coef, invdiag, cst; /* cst: the constant row (6 values, then the diagonal) */
  long long           N() const { return (long long)n[0] * n[1] * n[2]; }
  long long           Pad(int i, int j, int k) const { return (i + 1) + (long long)(n[0] + 2) * ((j + 1) + (long long)(n[1] + 2) * (k + 1)); }
  long long           U(int i, int j, int k) const { return i + (long long)n[0] * (j + (long long)n[1] * k); }
  double              C(int s, long long u) const { return var ? coef[s * N() + u] : cst[s]; }
  double              Invd(long long u) const { return var ? invdiag[u] : 1 / cst[noff]; }
};

/* ghost: the ghost layer holds values (as from another rank or the periodic seam), else zeros (a Dirichlet face);
   shell >= 0: the rows at least shell points inside every face are the constant row (var), the others random */
static Problem Make(int nx, int ny, int nz, bool var, bool ghost, int shell, double X0, unsigned seed)
{
  Problem                                p;
  std::mt19937_64                        g(seed);
  std::uniform_real_distribution<double> R(-1, 1);
  p.n[0] = nx, p.n[1] = ny, p.n[2] = nz, p.var = var;
  p.xpad.assign((size_t)((nx + 2) * (ny + 2) * (nz + 2)), 0.0);
  p.b.resize(p.N());
  p.coef.resize(p.noff * p.N());
  p.invdiag.resize(p.N());
  for (int k = -1; k <= nz; k++)
    for (int j = -1; j <= ny; j++)
      for (int i = -1; i <= nx; i++) {
        const bool in = i >= 0 && j >= 0 && k >= 0 && i < nx && j < ny && k < nz;
        if (in || ghost) p.xpad[p.Pad(i, j, k)] = X0 + R(g);
      }
  for (auto &v : p.b) v = R(g);
  for (int s = 0; s < p.noff; s++) p.cst.push_back(-(0.4 + 0.3 * std::fabs(R(g))));
  double sum = 0;
  for (int s = 0; s < p.noff; s++) sum += std::fabs(p.cst[s]);
  p.cst.push_back(sum + 0.5);
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++) {
        const long long u      = p.U(i, j, k);
        const bool      inside = shell >= 0 && i >= shell && j >= shell && k >= shell && i < nx - shell && j < ny - shell && k < nz - shell;
        double          rowsum = 0;
        for (int s = 0; s < p.noff; s++) rowsum += std::fabs(p.coef[s * p.N() + u] = inside ? p.cst[s] : -(0.3 + 0.7 * std::fabs(R(g))));
        p.invdiag[u] = inside ? 1 / p.cst[p.noff] : 1 / (rowsum + 0.3 + 0.5 * std::fabs(R(g)));
      }
  return p;
}

/* doc/algorithm.md's cycle, literally: for each tile, y = x on W(T); k sweeps over W(T) with every other point (the
   halo, the ghost layer included) frozen at x; the owned core out. xzero: x = 0. */
static std::vector<double> Reference(const Problem &p, const int *t, const int *o, int K, double w, bool xzero)
{
  const long long     N = p.N();
  std::vector<double> out((size_t)N, 0.0);
  long long           nt[3];
  for (int d = 0; d < 3; d++) nt[d] = hj::NumTiles(p.n[d], t[d], o[d]);
  auto X = [&](int i, int j, int k) { return xzero ? 0.0 : p.xpad[p.Pad(i, j, k)]; };
  for (long long c = 0; c < nt[2]; c++)
    for (long long bt = 0; bt < nt[1]; bt++)
      for (long long a = 0; a < nt[0]; a++) {
        const hj::Range     r[3] = {hj::TileRange(p.n[0], t[0], o[0], a), hj::TileRange(p.n[1], t[1], o[1], bt), hj::TileRange(p.n[2], t[2], o[2], c)};
        auto                inW  = [&](int i, int j, int k) { return i >= r[0].w0 && i < r[0].w1 && j >= r[1].w0 && j < r[1].w1 && k >= r[2].w0 && k < r[2].w1; };
        auto                owns = [&](int i, int j, int k) { return i >= r[0].o0 && i < r[0].o1 && j >= r[1].o0 && j < r[1].o1 && k >= r[2].o0 && k < r[2].o1; };
        const int           s0 = (int)(r[0].w1 - r[0].w0), s1 = (int)(r[1].w1 - r[1].w0), s2 = (int)(r[2].w1 - r[2].w0);
        auto                L = [&](int i, int j, int k) { return (i - r[0].w0) + s0 * ((j - r[1].w0) + (long long)s1 * (k - r[2].w0)); };
        std::vector<double> y((size_t)s0 * s1 * s2), yn;
        for (int k = (int)r[2].w0; k < r[2].w1; k++)
          for (int j = (int)r[1].w0; j < r[1].w1; j++)
            for (int i = (int)r[0].w0; i < r[0].w1; i++) y[L(i, j, k)] = X(i, j, k);
        for (int it = 0; it < K; it++) {
          yn = y;
          for (int k = (int)r[2].w0; k < r[2].w1; k++)
            for (int j = (int)r[1].w0; j < r[1].w1; j++)
              for (int i = (int)r[0].w0; i < r[0].w1; i++) {
                const long long u   = p.U(i, j, k);
                double          sum = 0;
                for (int s = 0; s < p.noff; s++) {
                  const int a2 = i + hj::Offset(3, hj::STAR, s, 0), b2 = j + hj::Offset(3, hj::STAR, s, 1), c2 = k + hj::Offset(3, hj::STAR, s, 2);
                  sum += p.C(s, u) * (inW(a2, b2, c2) ? y[L(a2, b2, c2)] : X(a2, b2, c2));
                }
                yn[L(i, j, k)] = y[L(i, j, k)] + SweepWeight(w, it) * ((p.b[u] - sum) * p.Invd(u) - y[L(i, j, k)]);
              }
          y = yn;
        }
        for (int k = (int)r[2].w0; k < r[2].w1; k++)
          for (int j = (int)r[1].w0; j < r[1].w1; j++)
            for (int i = (int)r[0].w0; i < r[0].w1; i++)
              if (owns(i, j, k)) out[p.U(i, j, k)] += y[L(i, j, k)];
      }
  return out;
}

/* One cycle of StreamKernel with the plan's threads (hj::StreamThreads of the largest x-y working region); cint: the
   constant box of the plan (the rows at least 2 points inside every face); split: the tiles in two launches through
   P.tileids, odd ids first, in descending order */
template <bool VAR, int K>
static std::vector<double> Stream(const Problem &p, const int *t, const int *o, double w, int xzero, bool cint, bool split)
{
  const long long     N = p.N();
  std::vector<double> y((size_t)N, -12345.0);
  Launch<double>      L{};
  L.xpad  = p.xpad.data();
  L.b     = p.b.data();
  L.y     = Output<double>{y.data(), 0, p.n[0], (long long)p.n[0] * p.n[1]};
  L.coefT = p.coef.data(), L.invdiagT = p.invdiag.data();
  for (int s = 0; s < 26; s++) L.cstT.c[s] = s < p.noff ? p.cst[s] : 0;
  L.cstT.invdiag = 1 / p.cst[p.noff];
  std::vector<double> wv(K);
  for (int j = 0; j < K; j++) wv[j] = SweepWeight(w, j);
  L.wT     = wv.data();
  L.nlocal = N;
  L.box    = Box{p.n[0], p.n[1], p.n[2], p.n[0] + 2, p.n[1] + 2};
  for (int d = 0; d < 3; d++) L.t[d] = t[d], L.o[d] = o[d], L.ntiles[d] = hj::NumTiles(p.n[d], t[d], o[d]);
  L.k = K, L.xzero = xzero;
  if (cint) {
    L.cint = 1;
    for (int d = 0; d < 3; d++) L.ilo[d] = 2, L.ihi[d] = p.n[d] - 2;
  }
  const long long ntiles = L.ntiles[0] * L.ntiles[1] * L.ntiles[2];
  const int       nth    = (int)hj::StreamThreads(std::min<long long>(t[0], p.n[0]), std::min<long long>(t[1], p.n[1]));
  if (!split) {
    const TileParams<double, double> P = L.template Params<double>();
    EmuLaunch([&] { StreamKernel<VAR, double, K>(P); }, ntiles, nth);
  } else {
    std::vector<unsigned> odd, even;
    for (long long b = ntiles - 1; b >= 0; b--) (b & 1 ? odd : even).push_back((unsigned)b);
    for (auto *ids : {&odd, &even}) {
      if (ids->empty()) continue;
      L.tileids                          = ids->data();
      const TileParams<double, double> P = L.template Params<double>();
      EmuLaunch([&] { StreamKernel<VAR, double, K>(P); }, (long long)ids->size(), nth);
    }
  }
  return y;
}

template <bool VAR, int K>
static int Check(const char *name, const Problem &p, std::vector<int> t, std::vector<int> o, double w, bool cint = false, bool split = false)
{
  int fail = 0;
  for (int xzero = 0; xzero < 2; xzero++) {
    const std::vector<double> ref = Reference(p, t.data(), o.data(), K, w, xzero);
    const std::vector<double> ys  = Stream<VAR, K>(p, t.data(), o.data(), w, xzero, cint, split);
    double                    e = 0, yn = 0;
    for (long long u = 0; u < p.N(); u++) e = std::max(e, std::fabs(ys[u] - ref[u])), yn = std::max(yn, std::fabs(ref[u]));
    const bool ok = e <= 1e-13 * yn && yn > 0;
    std::printf("hjtest %s stream k %d %-52s %s: stream-ref %.2e of max|y| %.2e\n", ok ? "PASS" : "FAIL", K, name, xzero ? "from zero" : "cycle    ", e / yn, yn);
    fail += !ok;
  }
  return fail;
}

int main()
{
  int fail = 0;
  /* variable rows, the ghost layer holding values (another rank's, or the periodic seam's) */
  Problem pv = Make(37, 21, 19, true, true, -1, 1e3, 1);
  fail += Check<true, 4>("variable, 32x8x8 (x remainder 5, y 5)", pv, {32, 8, 8}, {0, 0, 0}, 0.8);
  fail += Check<true, 2>("variable, 32x8x8 overlap 2,2,2", pv, {32, 8, 8}, {2, 2, 2}, 0.9);
  fail += Check<true, 4>("variable, 16x16 whole z (19 planes)", pv, {16, 16, 19}, {4, 2, 0}, 0.7);
  fail += Check<true, 2>("variable, 5x3x7 overlap 2,2,4, split launch", pv, {5, 3, 7}, {2, 2, 4}, 1.1, false, true);
  fail += Check<true, 4>("variable, 1x40 (ring > columns), z 9 last plane 1", pv, {1, 40, 9}, {0, 0, 0}, 0.8);
  fail += Check<true, 4>("variable, whole box in one tile", pv, {37, 21, 19}, {0, 0, 0}, 0.8);
  /* constant stencil, zero ghost layer (Dirichlet faces) */
  Problem pc = Make(33, 17, 13, false, false, -1, 1e3, 2);
  fail += Check<false, 4>("constant, 32x8x6 (one-column remainder)", pc, {32, 8, 6}, {0, 0, 0}, 0.8);
  fail += Check<false, 2>("constant, 8x8x8 overlap 2", pc, {8, 8, 8}, {2, 2, 2}, 1.0);
  fail += Check<false, 4>("constant, 16x4x13 whole z, split launch", pc, {16, 4, 13}, {0, 2, 0}, 0.9, false, true);
  /* constant rows inside the 2-point shell, variable in it (mg3d's shape), with and without the ghost values */
  Problem pm = Make(35, 26, 23, true, false, 2, 1e3, 3), pmg = Make(29, 19, 17, true, true, 2, 1e3, 4);
  fail += Check<true, 4>("cint, 32x8x8", pm, {32, 8, 8}, {0, 0, 0}, 0.8, true);
  fail += Check<true, 4>("cint, 32x8x23 whole z", pm, {32, 8, 23}, {0, 0, 0}, 0.8, true);
  fail += Check<true, 2>("cint, 16x8x10 overlap 2,4,2", pm, {16, 8, 10}, {2, 4, 2}, 0.9, true);
  fail += Check<true, 4>("cint, ghost values, 32x16x5 overlap 0,2,2", pmg, {32, 16, 5}, {0, 2, 2}, 0.7, true);
  fail += Check<true, 2>("cint, ghost values, 7x6x4, split launch", pmg, {7, 6, 4}, {2, 2, 0}, 1.2, true, true);
  std::printf("hjtest %s\n", fail ? "FAIL (stream emulation)" : "PASS all checks");
  return fail;
}
