/* The V-cycle's other parts alone on a GPU: the residual (ResidualKernel, one thread per point, against the march
   ResidualMarchKernel) and the grid transfers (TransferKernel against TransferMarchKernel: the interpolation w = w + P x,
   as PCMG's MatInterpolateAdd(x_c, x_f, x_f), and the restriction w = P^T x), with the library's launch shapes but
   without the library or PETSc. Checked on small odd grids in 2D and 3D (remainder tiles and runs, a nonzero ghost
   layer, every var/direct/cint form, planes inside the constant box that differ from its row) against each other and
   a host loop, then timed at mg3d's sizes (257^3, 2D 4097^2), the mean of 20 launches. Built by bench/gpu.sh prepare
   (bench/CMakeLists.txt, target partsalone, with the CUDA backend):
     partsalone            checks, then timings
     partsalone check      checks only
     partsalone prof       one launch of each march kernel at the timing sizes (ncu -k regex:March) */
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <random>
#include <algorithm>
#include <string>
#include "cuda/kernels/residual.cuh"
#include "cuda/kernels/transfer.cuh"
#include "alone.h"

using namespace hjcuda;

struct Dv { /* a device array of doubles */
  double *p = nullptr;
  size_t  n;
  explicit Dv(size_t n_) : n(n_) { CK(cudaMalloc(&p, std::max<size_t>(n, 1) * 8)); }
  explicit Dv(const std::vector<double> &v) : Dv(v.size()) { CK(cudaMemcpy(p, v.data(), n * 8, cudaMemcpyHostToDevice)); }
  Dv(const Dv &) = delete;
  ~Dv() { cudaFree(p); }
  std::vector<double> Get() const
  {
    std::vector<double> v(n);
    CK(cudaMemcpy(v.data(), p, n * 8, cudaMemcpyDeviceToHost));
    return v;
  }
};
static double Rel(const std::vector<double> &a, const std::vector<double> &ref) /* max |a - ref| / max |ref| */
{
  double e = 0, m = 0;
  for (size_t i = 0; i < a.size(); i++) {
    const double d = std::fabs(a[i] - ref[i]);
    if (!(d <= e)) e = d; /* NaN stays */
    m = std::max(m, std::fabs(ref[i]));
  }
  return e / std::max(m, 1e-300);
}
template <class F>
static float Time(F launch, int reps) /* ms per launch: one warm-up, then the mean of reps */
{
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  launch();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaEventRecord(a));
  for (int r = 0; r < reps; r++) launch();
  CK(cudaEventRecord(b));
  CK(cudaEventSynchronize(b));
  CK(cudaGetLastError());
  float ms;
  CK(cudaEventElapsedTime(&ms, a, b));
  cudaEventDestroy(a), cudaEventDestroy(b);
  return ms / reps;
}

/* ---------------------------------------------------------------- the residual */
struct ResProblem { /* n[2] = 1 in 2D; the rows of [ilo, ihi) are crow/cdiag (cint), other rows the planes */
  int                 dim;
  long long           n[3], ilo[3], ihi[3];
  std::vector<double> x, xpad, b, coef, invdiag;
  double              crow[6], cdiag;
  long long           N() const { return n[0] * n[1] * n[2]; }
  long long           Pad(long long i, long long j, long long k) const { return (i + 1) + (n[0] + 2) * ((j + 1) + (n[1] + 2) * (dim == 3 ? k + 1 : 0)); }
  bool                In(long long i, long long j, long long k) const { return i >= 0 && j >= 0 && k >= 0 && i < n[0] && j < n[1] && k < n[2]; }
  bool                Box(long long i, long long j, long long k) const { return i >= ilo[0] && i < ihi[0] && j >= ilo[1] && j < ihi[1] && k >= ilo[2] && k < ihi[2]; }
};
/* check: random row crow, box [1, n-2) (whole where n < 4), the planes inside it random too (poison: a kernel that reads
   them there shows), a random ghost layer; else mg3d's shape: the Laplacian in [1, n-1), variable rows on the faces */
static ResProblem MakeRes(int dim, long long nx, long long ny, long long nz, bool check, unsigned seed)
{
  ResProblem                             p;
  std::mt19937_64                        g(seed);
  std::uniform_real_distribution<double> R(-1, 1);
  p.dim = dim, p.n[0] = nx, p.n[1] = ny, p.n[2] = dim == 3 ? nz : 1;
  const int ns = 2 * dim;
  for (int d = 0; d < 3; d++) {
    const bool whole = d >= dim || (check && p.n[d] < 4);
    p.ilo[d]         = whole ? 0 : 1;
    p.ihi[d]         = whole ? p.n[d] : p.n[d] - (check ? 2 : 1);
  }
  for (int s = 0; s < ns; s++) p.crow[s] = check ? -(0.5 + 0.4 * R(g)) : -1.0;
  p.cdiag = check ? 2 * dim + 0.3 : 2 * dim;
  p.xpad.assign((size_t)((nx + 2) * (ny + 2) * (dim == 3 ? nz + 2 : 1)), 0.0);
  p.x.resize(p.N()), p.b.resize(p.N()), p.coef.resize(ns * p.N()), p.invdiag.resize(p.N());
  for (long long k = dim == 3 ? -1 : 0; k <= (dim == 3 ? p.n[2] : 0); k++)
    for (long long j = -1; j <= p.n[1]; j++)
      for (long long i = -1; i <= p.n[0]; i++) {
        if (!p.In(i, j, k)) {
          if (check) p.xpad[p.Pad(i, j, k)] = 1 + R(g);
          continue;
        }
        const long long u = i + p.n[0] * (j + p.n[1] * k);
        p.x[u] = p.xpad[p.Pad(i, j, k)] = 1 + R(g);
        p.b[u]                          = R(g);
        const bool row                  = !check && p.Box(i, j, k);
        double     rs                   = 0;
        for (int s = 0; s < ns; s++) rs += std::fabs(p.coef[s * p.N() + u] = row ? p.crow[s] : -(0.3 + 0.7 * std::fabs(R(g))));
        p.invdiag[u] = row ? 1 / p.cdiag : 1 / (rs + 0.5);
      }
  return p;
}
/* r = b - sum_s a_s x(p+s) - d x(p), the neighbours from xpad (zero outside the box: direct) */
static std::vector<double> ResRef(const ResProblem &p, bool var, bool direct, bool cint)
{
  std::vector<double> r(p.N());
  for (long long k = 0; k < p.n[2]; k++)
    for (long long j = 0; j < p.n[1]; j++)
      for (long long i = 0; i < p.n[0]; i++) {
        const long long u   = i + p.n[0] * (j + p.n[1] * k);
        const bool      row = !var || (cint && p.Box(i, j, k));
        double          sum = 0;
        for (int s = 0; s < 2 * p.dim; s++) {
          const long long a = i + hj::Offset(p.dim, hj::STAR, s, 0), b = j + hj::Offset(p.dim, hj::STAR, s, 1), c = k + hj::Offset(p.dim, hj::STAR, s, 2);
          sum += (row ? p.crow[s] : p.coef[s * p.N() + u]) * (direct && !p.In(a, b, c) ? 0.0 : p.xpad[p.Pad(a, b, c)]);
        }
        r[u] = p.b[u] - sum - (row ? p.cdiag : 1 / p.invdiag[u]) * p.x[u];
      }
  return r;
}
struct ResDev { /* the problem on the device and its ResidualArgs */
  Dv                   x, xpad, b, coef, invdiag, r;
  ResidualArgs<double> a{};
  ResDev(const ResProblem &p, bool var, bool cint) : x(p.x), xpad(p.xpad), b(p.b), coef(p.coef), invdiag(p.invdiag), r((size_t)p.N())
  {
    a.xpad = xpad.p, a.x = x.p, a.b = b.p, a.r = r.p, a.coef = var ? coef.p : nullptr, a.invdiag = var ? invdiag.p : nullptr;
    for (int s = 0; s < 2 * p.dim; s++) a.crow[s] = p.crow[s];
    a.cdiag = p.cdiag;
    a.cint  = var && cint;
    for (int d = 0; d < 3; d++) a.ilo[d] = a.cint ? p.ilo[d] : 0, a.ihi[d] = a.cint ? p.ihi[d] : 0;
    a.xm0 = p.n[0], a.xm1 = p.n[1], a.xm2 = p.n[2], a.ext0 = p.n[0] + 2, a.ext1 = p.n[1] + 2, a.nlocal = p.N();
  }
};
template <int DIM, bool VAR, bool DIRECT>
static void ResLaunch(bool march, const ResidualArgs<double> &a) /* cuda/residual.cu's launches */
{
  if constexpr (DIM == 3) /* (2D: ResidualKernel only) */
    if (march) {
      ResidualMarchKernel<VAR, DIRECT, double><<<(unsigned)MarchBlocks<3>(a.xm0, a.xm1, a.xm2, kResidualRun), kResidualBlock>>>(a);
      return;
    }
  ResidualKernel<DIM, hj::STAR, VAR, DIRECT, double><<<dim3((unsigned)((a.xm0 * a.xm1 + kResidualBlock - 1) / kResidualBlock), 1, (unsigned)std::min(a.xm2, 65535LL)), kResidualBlock>>>(a);
}
using ResFn                      = void (*)(bool, const ResidualArgs<double> &);
static const ResFn kRes[2][2][2] = {
  /* [dim-2][var][direct] */
  {{ResLaunch<2, false, false>, ResLaunch<2, false, true>}, {ResLaunch<2, true, false>, ResLaunch<2, true, true>}},
  {{ResLaunch<3, false, false>, ResLaunch<3, false, true>}, {ResLaunch<3, true, false>, ResLaunch<3, true, true>}}
};
static std::vector<double> ResRun(ResDev &d, int dim, bool var, bool direct, bool march)
{
  CK(cudaMemset(d.r.p, 0xff, d.r.n * 8)); /* NaN: a point not written shows */
  kRes[dim - 2][var][direct](march, d.a);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  return d.r.Get();
}
static int CheckRes(int dim, long long nx, long long ny, long long nz)
{
  const ResProblem p    = MakeRes(dim, nx, ny, nz, true, 11 + (unsigned)(nx + 7 * ny + 31 * nz));
  int              fail = 0;
  for (int var = 0; var < 2; var++)
    for (int cint = 0; cint <= var; cint++)
      for (int direct = 0; direct < 2; direct++) {
        ResDev                    d(p, var, cint);
        const std::vector<double> ref = ResRef(p, var, direct, cint), o = ResRun(d, dim, var, direct, false), m = ResRun(d, dim, var, direct, true);
        const double              eo = Rel(o, ref), em = Rel(m, o);
        const bool                ok = eo <= 1e-13 && em <= 1e-13; /* (NaN fails) */
        char                      name[64];
        snprintf(name, sizeof name, dim == 3 ? "%lldx%lldx%lld" : "%lldx%lld", nx, ny, nz);
        printf("gpucheck %s residual %dd %-10s %-5s %-6s %-4s old-host %.2e march-old %.2e\n", ok ? "PASS" : "FAIL", dim, name, var ? "var" : "const", direct ? "direct" : "padded", cint ? "cint" : "", eo, em);
        fail += !ok;
      }
  return fail;
}

/* ---------------------------------------------------------------- the transfers (one rank, not periodic, dof 1) */
static hj::TransferGrid MakeGrid(int dim, const long long *mc, bool transpose)
{
  hj::TransferGrid g{};
  for (int d = 0; d < 3; d++) {
    g.mc[d] = d < dim ? mc[d] : 1, g.mf[d] = d < dim ? 2 * (mc[d] - 1) + 1 : 1;
    g.om[d] = transpose ? g.mc[d] : g.mf[d], g.im[d] = transpose ? g.mf[d] : g.mc[d];
  }
  g.dof = 1, g.wrap = 1;
  return g;
}
template <int DIM, bool TR>
static void TrLaunch(bool march, const hj::TransferGrid &g, const double *x, const double *y, double *w) /* cuda/transfer.cu's */
{
  const long long n = g.om[0] * g.om[1] * g.om[2];
  if constexpr (DIM == 3 || TR) /* (2D: the restriction's march only) */
    if (march) {
      TransferMarchKernel<DIM, TR, double><<<(unsigned)MarchBlocks<DIM>(g.om[0], DIM == 3 ? g.om[1] : 1, g.om[DIM - 1], kTransferRun), kTransferBlock>>>(g, x, y, w);
      return;
    }
  TransferKernel<DIM, TR, double, unsigned><<<(unsigned)((n + kTransferBlock - 1) / kTransferBlock), kTransferBlock>>>(g, x, y, w, (unsigned)n);
}
static void Tr(int dim, bool transpose, bool march, const hj::TransferGrid &g, const double *x, const double *y, double *w)
{
  if (dim == 2) transpose ? TrLaunch<2, true>(march, g, x, y, w) : TrLaunch<2, false>(march, g, x, y, w);
  else transpose ? TrLaunch<3, true>(march, g, x, y, w) : TrLaunch<3, false>(march, g, x, y, w);
}
static int CheckTr(int dim, std::vector<long long> mc)
{
  int                                    fail = 0;
  std::mt19937_64                        gen(5 + mc[0] + 3 * mc[1]);
  std::uniform_real_distribution<double> R(-1, 1);
  for (int tr = 0; tr < 2; tr++) {
    const hj::TransferGrid g  = MakeGrid(dim, mc.data(), tr);
    const long long        ni = g.im[0] * g.im[1] * g.im[2], no = g.om[0] * g.om[1] * g.om[2];
    std::vector<double>    x(ni), w0(no), ref(no);
    for (auto &v : x) v = R(gen);
    for (auto &v : w0) v = tr ? 0.0 : R(gen); /* interpolation: w = w + P x (y == w) */
    for (long long u = 0; u < no; u++) {
      const long long i = u % g.om[0], j = (u / g.om[0]) % g.om[1], k = u / (g.om[0] * g.om[1]);
      const auto      in = hj::InputOf(g, x.data());
      const double v = dim == 2 ? (tr ? hj::RestrictPoint<2, double>(in, g, i, j, k, 0) : hj::InterpolatePoint<2, double>(in, g, i, j, k, 0)) : (tr ? hj::RestrictPoint<3, double>(in, g, i, j, k, 0) : hj::InterpolatePoint<3, double>(in, g, i, j, k, 0));
      ref[u]         = w0[u] + v;
    }
    Dv                  dx(x), wo(w0), wm(w0);
    std::vector<double> r[2];
    Dv                 *ws[2] = {&wo, &wm};
    for (int march = 0; march < 2; march++) {
      if (tr) CK(cudaMemset(ws[march]->p, 0xff, no * 8)); /* NaN: a point not written shows */
      Tr(dim, tr, march, g, dx.p, tr ? nullptr : ws[march]->p, ws[march]->p);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      r[march] = ws[march]->Get();
    }
    const double eo = Rel(r[0], ref), em = Rel(r[1], r[0]);
    const bool   ok = eo <= 1e-13 && em <= 1e-13;
    char         name[64];
    snprintf(name, sizeof name, dim == 3 ? "%lldx%lldx%lld" : "%lldx%lld", g.mf[0], g.mf[1], g.mf[2]);
    printf("gpucheck %s %-8s %dd fine %-10s old-host %.2e march-old %.2e\n", ok ? "PASS" : "FAIL", tr ? "restrict" : "interp", dim, name, eo, em);
    fail += !ok;
  }
  return fail;
}

/* ---------------------------------------------------------------- timings at mg3d's sizes */
static void Line(const char *what, int dim, const char *form, const char *ver, float ms, double bytes, const char *per)
{
  printf("time %s %dd%s%s %s: %.4f ms, %.0f GB/s%s\n", what, dim, *form ? " " : "", form, ver, ms, bytes / ms / 1e6, per);
}
static int TimeRes(int dim, long long n, bool prof)
{
  const ResProblem p = MakeRes(dim, n, n, n, false, 1);
  ResDev           d(p, true, true);
  int              fail = 0;
  for (int direct = 1; direct >= 0; direct--) {
    if (prof) {
      kRes[dim - 2][1][direct](true, d.a);
      CK(cudaDeviceSynchronize());
      continue;
    }
    const std::vector<double> o = ResRun(d, dim, true, direct, false), m = ResRun(d, dim, true, direct, true);
    const double              e = Rel(m, o);
    fail += !(e <= 1e-13);
    const char *form = direct ? "var direct" : "var padded";
    printf("same residual %dd %s at %lld^%d: march-old %.2e %s\n", dim, form, n, dim, e, e <= 1e-13 ? "PASS" : "FAIL");
    float ms[2];
    for (int march = 0; march < 2; march++) {
      ms[march] = Time([&] { kRes[dim - 2][1][direct](march, d.a); }, 20);
      Line("residual", dim, form, march ? "new" : "old", ms[march], 24.0 * p.N(), " (24 B/point)");
    }
    printf("ratio residual %dd %s old/new: %.2f\n", dim, form, ms[0] / ms[1]);
  }
  return fail;
}
static void TimeTr(int dim, long long nc, bool prof)
{
  const long long mc[3] = {nc, nc, nc};
  for (int tr = 1; tr >= 2 - dim; tr--) { /* (2D: the restriction only) */
    const hj::TransferGrid g  = MakeGrid(dim, mc, tr);
    const double           nf = (double)g.mf[0] * g.mf[1] * g.mf[2], ncp = (double)g.mc[0] * g.mc[1] * g.mc[2];
    std::vector<double>    x((size_t)(g.im[0] * g.im[1] * g.im[2]));
    std::mt19937_64        gen(3);
    for (auto &v : x) v = std::uniform_real_distribution<double>(-1, 1)(gen);
    Dv dx(x), w((size_t)(g.om[0] * g.om[1] * g.om[2]));
    CK(cudaMemset(w.p, 0, w.n * 8));
    const double *y = tr ? nullptr : w.p; /* interpolation: w = w + P x */
    if (prof) {
      Tr(dim, tr, true, g, dx.p, y, w.p);
      CK(cudaDeviceSynchronize());
      continue;
    }
    const double bytes = tr ? 8 * nf + 8 * ncp : 16 * nf + 8 * ncp;
    float        ms[2];
    for (int march = 0; march < 2; march++) {
      ms[march] = Time([&] { Tr(dim, tr, march, g, dx.p, y, w.p); }, 20);
      Line(tr ? "restrict" : "interp", dim, "", march ? "new" : "old", ms[march], bytes, "");
    }
    printf("ratio %s %dd old/new: %.2f\n", tr ? "restrict" : "interp", dim, ms[0] / ms[1]);
  }
}

int main(int argc, char **argv)
{
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "prof") { /* one launch of each march kernel at the timing sizes, for ncu */
    TimeRes(3, 257, true), TimeTr(3, 129, true), TimeTr(2, 2049, true);
    return 0;
  }
  int fail = 0;
  /* lateral tile 32 x 8 (3D), 256 (2D) and runs of 16: remainders in every direction, a run longer than the extent */
  fail += CheckRes(3, 13, 9, 7);
  fail += CheckRes(3, 33, 17, 40);
  fail += CheckRes(3, 1, 1, 5);
  fail += CheckRes(3, 257, 3, 2);
  fail += CheckRes(3, 64, 16, 32); /* whole tiles and runs */
  fail += CheckRes(2, 37, 21, 1);
  fail += CheckRes(2, 5, 300, 1);
  fail += CheckRes(2, 300, 17, 1);
  fail += CheckTr(3, {7, 5, 4});   /* fine 13x9x7 */
  fail += CheckTr(3, {17, 9, 21}); /* fine 33x17x41 */
  fail += CheckTr(3, {1, 1, 3});   /* fine 1x1x5 */
  fail += CheckTr(3, {129, 2, 2}); /* fine 257x3x3 */
  fail += CheckTr(3, {33, 9, 17}); /* fine 65x17x33: coarse 33x9x17 */
  fail += CheckTr(2, {19, 11});    /* fine 37x21 */
  fail += CheckTr(2, {3, 150});    /* fine 5x299 */
  fail += CheckTr(2, {300, 9});    /* fine 599x17 */
  printf("gpucheck %s\n", fail ? "FAIL" : "PASS all");
  if (mode == "check") return fail;
  fail += TimeRes(3, 257, false);
  TimeTr(3, 129, false);
  TimeTr(2, 2049, false);
  return fail;
}
