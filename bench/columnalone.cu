/* The column kernel alone on a GPU (issue 28 item 1): ColumnKernel and TileKernel<3, STAR> with the library's launch
   descriptor but without the library or PETSc, checked against doc/algorithm.md's cycle written literally (small odd
   grids, remainder tiles, overlap, ghost values) and timed at 257^3 with mg3d's shape (the Laplacian inside, variable
   rows in the 2-point shell, cint) and with a constant stencil, one cycle per launch, the mean of 20 launches, for
   several tiles. Built by bench/gpu.sh prepare (bench/CMakeLists.txt, target columnalone, with the CUDA backend):
     columnalone            checks, then timings
     columnalone check      checks only (compute-sanitizer --tool racecheck columnalone check)
     columnalone quick      a few checks, then the three modes at 29 x 14 x 43
     columnalone prof       one launch of each kernel at 257^3: planes, shared, constant, classes (ncu -k regex:ColumnKernel) */
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <random>
#include <algorithm>
#include <string>
#include "cuda/kernels/columns.cuh"
#include "alone.h"

using namespace hjcuda;

struct Problem {
  int                 n[3], noff = 6;
  std::vector<double> xpad, b, coef, invdiag, cst;
  long long           N() const { return (long long)n[0] * n[1] * n[2]; }
  long long           Pad(int i, int j, int k) const { return (i + 1) + (long long)(n[0] + 2) * ((j + 1) + (long long)(n[1] + 2) * (k + 1)); }
  long long           U(int i, int j, int k) const { return i + (long long)n[0] * (j + (long long)n[1] * k); }
};
static Problem Make(int nx, int ny, int nz, bool ghost, int shell, unsigned seed)
{
  Problem                                p;
  std::mt19937_64                        g(seed);
  std::uniform_real_distribution<double> R(-1, 1);
  p.n[0] = nx, p.n[1] = ny, p.n[2] = nz;
  p.xpad.assign((size_t)((nx + 2LL) * (ny + 2) * (nz + 2)), 0.0);
  p.b.resize(p.N());
  p.coef.resize(6 * p.N());
  p.invdiag.resize(p.N());
  for (int k = -1; k <= nz; k++)
    for (int j = -1; j <= ny; j++)
      for (int i = -1; i <= nx; i++) {
        bool in = i >= 0 && j >= 0 && k >= 0 && i < nx && j < ny && k < nz;
        if (in || ghost) p.xpad[p.Pad(i, j, k)] = 1 + R(g);
      }
  for (auto &v : p.b) v = R(g);
  for (int s = 0; s < 6; s++) p.cst.push_back(-1.0);
  p.cst.push_back(6.0);
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++) {
        long long u      = p.U(i, j, k);
        bool      inside = i >= shell && j >= shell && k >= shell && i < nx - shell && j < ny - shell && k < nz - shell;
        double    rs     = 0;
        for (int s = 0; s < 6; s++) rs += std::fabs(p.coef[s * p.N() + u] = inside ? -1.0 : -(0.3 + 0.7 * std::fabs(R(g))));
        p.invdiag[u] = inside ? 1.0 / 6.0 : 1 / (rs + 0.5);
      }
  return p;
}
static std::vector<double> Reference(const Problem &p, const int *t, const int *o, int K, const double *w)
{
  std::vector<double> out(p.N(), 0.0);
  long long           nt[3];
  for (int d = 0; d < 3; d++) nt[d] = hj::NumTiles(p.n[d], t[d], o[d]);
  for (long long c = 0; c < nt[2]; c++)
    for (long long bt = 0; bt < nt[1]; bt++)
      for (long long a = 0; a < nt[0]; a++) {
        const hj::Range     r[3] = {hj::TileRange(p.n[0], t[0], o[0], a), hj::TileRange(p.n[1], t[1], o[1], bt), hj::TileRange(p.n[2], t[2], o[2], c)};
        auto                inW  = [&](int i, int j, int k) { return i >= r[0].w0 && i < r[0].w1 && j >= r[1].w0 && j < r[1].w1 && k >= r[2].w0 && k < r[2].w1; };
        int                 s0 = r[0].w1 - r[0].w0, s1 = r[1].w1 - r[1].w0, s2 = r[2].w1 - r[2].w0;
        auto                L = [&](int i, int j, int k) { return (i - r[0].w0) + s0 * ((j - r[1].w0) + (long long)s1 * (k - r[2].w0)); };
        std::vector<double> y((size_t)s0 * s1 * s2), yn;
        for (int k = r[2].w0; k < r[2].w1; k++)
          for (int j = r[1].w0; j < r[1].w1; j++)
            for (int i = r[0].w0; i < r[0].w1; i++) y[L(i, j, k)] = p.xpad[p.Pad(i, j, k)];
        for (int it = 0; it < K; it++) {
          yn = y;
          for (int k = r[2].w0; k < r[2].w1; k++)
            for (int j = r[1].w0; j < r[1].w1; j++)
              for (int i = r[0].w0; i < r[0].w1; i++) {
                long long u   = p.U(i, j, k);
                double    sum = 0;
                for (int s = 0; s < 6; s++) {
                  int a2 = i + hj::Offset(3, 0, s, 0), b2 = j + hj::Offset(3, 0, s, 1), c2 = k + hj::Offset(3, 0, s, 2);
                  sum += p.coef[s * p.N() + u] * (inW(a2, b2, c2) ? y[L(a2, b2, c2)] : p.xpad[p.Pad(a2, b2, c2)]);
                }
                yn[L(i, j, k)] = y[L(i, j, k)] + w[it] * ((p.b[u] - sum) * p.invdiag[u] - y[L(i, j, k)]);
              }
          y = yn;
        }
        for (int k = r[2].o0; k < r[2].o1; k++)
          for (int j = r[1].o0; j < r[1].o1; j++)
            for (int i = r[0].o0; i < r[0].o1; i++) out[p.U(i, j, k)] = y[L(i, j, k)];
      }
  return out;
}
struct Dev {
  double        *xpad, *b, *coef, *invdiag, *y, *w, *tab = nullptr, wh[8] = {0};
  unsigned char *cls = nullptr;
  Dev(const Problem &p, const double *wh, int K)
  {
    CK(cudaMalloc(&xpad, p.xpad.size() * 8));
    CK(cudaMemcpy(xpad, p.xpad.data(), p.xpad.size() * 8, cudaMemcpyHostToDevice));
    CK(cudaMalloc(&b, p.N() * 8));
    CK(cudaMemcpy(b, p.b.data(), p.N() * 8, cudaMemcpyHostToDevice));
    CK(cudaMalloc(&coef, 6 * p.N() * 8));
    CK(cudaMemcpy(coef, p.coef.data(), 6 * p.N() * 8, cudaMemcpyHostToDevice));
    CK(cudaMalloc(&invdiag, p.N() * 8));
    CK(cudaMemcpy(invdiag, p.invdiag.data(), p.N() * 8, cudaMemcpyHostToDevice));
    CK(cudaMalloc(&y, p.N() * 8));
    CK(cudaMalloc(&w, 8 * 8));
    CK(cudaMemcpy(w, wh, K * 8, cudaMemcpyHostToDevice));
    for (int j = 0; j < K; j++) this->wh[j] = wh[j];
  }
  /* row classes (mg3d's operator: the Laplacian inside, Dirichlet rows with the same diagonal on the faces) */
  void Classes(const Problem &p)
  {
    std::vector<unsigned char> c(p.N());
    std::vector<double>        t(hj::kRowClasses * 8, 0.0);
    for (int s = 0; s < 6; s++) t[s] = p.cst[s];
    t[6] = 1 / p.cst[6], t[8 + 6] = 1 / p.cst[6];
    for (int k = 0; k < p.n[2]; k++)
      for (int j = 0; j < p.n[1]; j++)
        for (int i = 0; i < p.n[0]; i++) c[p.U(i, j, k)] = (i == 0 || j == 0 || k == 0 || i == p.n[0] - 1 || j == p.n[1] - 1 || k == p.n[2] - 1) ? 1 : 0;
    CK(cudaMalloc(&cls, p.N()));
    CK(cudaMemcpy(cls, c.data(), p.N(), cudaMemcpyHostToDevice));
    CK(cudaMalloc(&tab, t.size() * 8));
    CK(cudaMemcpy(tab, t.data(), t.size() * 8, cudaMemcpyHostToDevice));
  }
};
// kind: 0 stream, 1 TileKernel (shared). cint: the constant box [2, n-2)
static int            g_shell = 2; /* the variable rows' shell (mg3d: 1 point, its -symmetric form: 2) */
static Launch<double> Desc(const Problem &p, Dev &d, const int *t, const int *o, int K, bool cint)
{
  Launch<double> L{};
  L.xpad     = d.xpad;
  L.b        = d.b;
  L.y        = Output<double>{d.y, 0, p.n[0], (long long)p.n[0] * p.n[1]};
  L.coefT    = d.coef;
  L.invdiagT = d.invdiag;
  for (int s = 0; s < 26; s++) L.cstT.c[s] = s < 6 ? p.cst[s] : 0;
  L.cstT.invdiag = 1 / p.cst[6];
  L.wT           = d.w;
  for (int j = 0; j < K; j++) L.wv[j] = d.wh[j];
  L.nlocal = p.N();
  L.box    = Box{p.n[0], p.n[1], p.n[2], p.n[0] + 2, p.n[1] + 2};
  for (int dd = 0; dd < 3; dd++) L.t[dd] = t[dd], L.o[dd] = o[dd], L.ntiles[dd] = hj::NumTiles(p.n[dd], t[dd], o[dd]);
  L.k    = K;
  L.ntot = L.ntiles[0] * L.ntiles[1] * L.ntiles[2];
  if (d.cls) L.rowclass = d.cls, L.rowtab = d.tab;
  if (cint) {
    L.cint = 1;
    for (int dd = 0; dd < 3; dd++) L.ilo[dd] = g_shell, L.ihi[dd] = p.n[dd] - g_shell;
  }
  return L;
}
static bool g_const = false, g_fix = false; /* g_fix: ColumnKernel<..., 1> (the fixed plane) where the tile fits it */
template <int K>
static float Run(int kind, const Problem &p, Dev &d, const int *t, const int *o, bool cint, int reps)
{
  Launch<double> L = Desc(p, d, t, o, K, cint);
  auto           P = L.Params<double>();
  long long      W[3];
  for (int dd = 0; dd < 3; dd++) W[dd] = std::min<long long>(t[dd], p.n[dd]);
  int    nth;
  size_t smem;
  void (*kern)(TileParams<double, double>);
  if (kind == 0) {
    const hj::ColumnNeed need = hj::ColumnNeeds(W, K, 8, 200 * 1024), dyn = hj::ColumnNeeds(W, K, 8, 0); /* (0: never fixed) */
    nth  = (int)dyn.threads;
    smem = (size_t)dyn.bytes;
    kern = g_const ? ColumnKernel<kColumnConstant, double, K> : (d.cls ? ColumnKernel<kColumnClasses, double, K> : ColumnKernel<kColumnPlanes, double, K>);
    if (g_fix && need.fixed) { /* the fixed plane, as the library takes it */
      nth  = (int)need.threads;
      smem = (size_t)need.bytes;
      kern = g_const ? ColumnKernel<kColumnConstant, double, K, 1> : (d.cls ? ColumnKernel<kColumnClasses, double, K, 1> : ColumnKernel<kColumnPlanes, double, K, 1>);
    }
  } else {
    long long np  = W[0] * W[1] * W[2];
    int       ppt = 1;
    while ((np + ppt - 1) / ppt > 256 && ppt < 8) ppt *= 2;
    nth  = (int)(((np + ppt - 1) / ppt + 31) / 32 * 32);
    smem = 2 * (W[0] + 2) * (W[1] + 2) * (W[2] + 2) * 8;
    kern = ppt == 1 ? TileKernel<3, 0, true, double, double, 1>
         : ppt == 2 ? (g_const ? TileKernel<3, 0, false, double, double, 2> : TileKernel<3, 0, true, double, double, 2>)
         : ppt == 4 ? TileKernel<3, 0, true, double, double, 4>
                    : TileKernel<3, 0, true, double, double, 8>;
  }
  CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  cudaEvent_t a, bb;
  cudaEventCreate(&a);
  cudaEventCreate(&bb);
  kern<<<(unsigned)L.ntot, nth, smem>>>(P);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  cudaEventRecord(a);
  for (int r = 0; r < reps; r++) kern<<<(unsigned)L.ntot, nth, smem>>>(P);
  cudaEventRecord(bb);
  CK(cudaEventSynchronize(bb));
  CK(cudaGetLastError());
  float ms;
  cudaEventElapsedTime(&ms, a, bb);
  return ms / reps;
}
static double MaxDiff(const std::vector<double> &a, const std::vector<double> &b)
{
  double e = 0;
  for (size_t i = 0; i < a.size(); i++) e = std::max(e, std::fabs(a[i] - b[i]));
  return e;
}
/* mode: 0 the planes (variable rows in a 2-point shell), 1 a constant stencil, 2 row classes (Dirichlet rows on the faces) */
template <int K>
static int Check(const char *name, int nx, int ny, int nz, std::vector<int> t, std::vector<int> o, bool ghost, int mode = 0)
{
  Problem p = Make(nx, ny, nz, ghost, mode == 0 ? 2 : (mode == 1 ? 0 : 1), 7 + nx);
  if (mode == 2)
    for (int k = 0; k < nz; k++)
      for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
          if (i == 0 || j == 0 || k == 0 || i == nx - 1 || j == ny - 1 || k == nz - 1) {
            for (int q = 0; q < 6; q++) p.coef[q * p.N() + p.U(i, j, k)] = 0;
            p.invdiag[p.U(i, j, k)] = 1 / p.cst[6];
          }
  double w[8];
  for (int j = 0; j < K; j++) w[j] = 0.8 * (j & 1 ? 1.2 : 0.9);
  Dev d(p, w, K);
  if (mode == 2) d.Classes(p);
  g_const                 = mode == 1;
  std::vector<double> ref = Reference(p, t.data(), o.data(), K, w), ys(p.N()), yt(p.N());
  Run<K>(0, p, d, t.data(), o.data(), true, 1);
  CK(cudaMemcpy(ys.data(), d.y, p.N() * 8, cudaMemcpyDeviceToHost));
  bool   tfit = (long long)std::min(t[0], nx) * std::min(t[1], ny) * std::min(t[2], nz) <= 4096;
  double et   = -1;
  if (tfit) {
    Run<K>(1, p, d, t.data(), o.data(), true, 1);
    CK(cudaMemcpy(yt.data(), d.y, p.N() * 8, cudaMemcpyDeviceToHost));
    et = MaxDiff(yt, ref);
  }
  g_const   = false;
  double es = MaxDiff(ys, ref);
  bool   ok = es < 1e-12;
  printf("gpucheck %s k %d %-40s %-9s columns-ref %.2e shared-ref %.2e\n", ok ? "PASS" : "FAIL", K, name, mode == 0 ? "planes" : (mode == 1 ? "constant" : "classes"), es, et);
  return !ok;
}
/* the constant-stencil and row-class modes' checks (the planes mode is the default Check) */
static int ModeChecks()
{
  int fail = 0;
  for (int m = 1; m <= 2; m++) {
    fail += Check<4>("37x21x19 30,14,8", 37, 21, 19, {30, 14, 8}, {0, 0, 0}, true, m);
    fail += Check<4>("67x37x29 32,16,12", 67, 37, 29, {32, 16, 12}, {0, 2, 2}, false, m);
    fail += Check<2>("13x50x11 3,40,5", 13, 50, 11, {3, 40, 5}, {2, 0, 2}, true, m);
    fail += Check<8>("45x39x33 30,14,20 k 8", 45, 39, 33, {30, 14, 20}, {0, 2, 2}, true, m);
  }
  return fail;
}
int main(int argc, char **argv)
{
  int fail = 0;
  if (argc > 2 && std::string(argv[2]) == "fix") g_fix = true; /* (quick, prof) the fixed plane where the tile fits it */
  if (argc > 1 && std::string(argv[1]) == "prof") {            /* one launch each, for ncu */
    Problem p    = Make(257, 257, 257, false, 2, 1);
    double  w[8] = {0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 0.8};
    Dev     d(p, w, 4);
    int     o[3] = {0, 0, 0}, t8[3] = {8, 8, 8}, ts[3] = {29, 14, 43};
    Run<4>(0, p, d, ts, o, true, 1); /* planes */
    Run<4>(1, p, d, t8, o, true, 1);
    g_const = true;
    Run<4>(0, p, d, ts, o, false, 1); /* constant */
    g_const = false;
    d.Classes(p);
    Run<4>(0, p, d, ts, o, true, 1); /* row classes */
    return 0;
  }
  if (argc > 1 && std::string(argv[1]) == "quick") { /* the checks, then 29 x 14 x 43 with a constant stencil, row classes and planes */
    fail += Check<4>("37x21x19 30,14,8", 37, 21, 19, {30, 14, 8}, {0, 0, 0}, true);
    fail += Check<4>("45x39x33 16,16,33", 45, 39, 33, {16, 16, 33}, {2, 4, 0}, false);
    fail += Check<2>("13x50x11 3,40,5", 13, 50, 11, {3, 40, 5}, {2, 0, 2}, true);
    fail += Check<8>("45x39x33 30,14,20 k 8", 45, 39, 33, {30, 14, 20}, {0, 2, 2}, true);
    fail += ModeChecks();
    Problem      p    = Make(257, 257, 257, false, 1, 1);
    double       w[8] = {0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 0.8};
    Dev          d(p, w, 4);
    int          o[3] = {0, 0, 0}, ts[3] = {29, 14, 43};
    const double bytes = 24.0 * p.N();
    g_shell            = 1;
    float mp           = Run<4>(0, p, d, ts, o, true, 20);
    g_const            = true;
    float mc           = Run<4>(0, p, d, ts, o, false, 20);
    g_const            = false;
    d.Classes(p);
    float mk = Run<4>(0, p, d, ts, o, true, 20);
    printf("quick%s classes k 2 %.4f ms, k 8 %.4f ms\n", g_fix ? " fix" : "", Run<2>(0, p, d, ts, o, true, 20), Run<8>(0, p, d, ts, o, true, 20));
    printf("quick%s %s constant %.4f ms (%.1f%%), classes %.4f ms (%.1f%%), planes %.4f ms (%.1f%% of 3.35 TB/s)\n", g_fix ? " fix" : "", fail ? "FAIL" : "PASS", mc, 100 * bytes / mc / 1e6 / 3350, mk, 100 * bytes / mk / 1e6 / 3350, mp, 100 * bytes / mp / 1e6 / 3350);
    return fail;
  }
  bool timing = argc < 2 || std::string(argv[1]) != "check";
  fail += Check<4>("37x21x19 30,14,8", 37, 21, 19, {30, 14, 8}, {0, 0, 0}, true);
  fail += Check<4>("37x21x19 32,8,8", 37, 21, 19, {32, 8, 8}, {0, 0, 0}, true);
  fail += Check<2>("37x21x19 32,8,8 o2", 37, 21, 19, {32, 8, 8}, {2, 2, 2}, true);
  fail += Check<4>("45x39x33 16,16,33", 45, 39, 33, {16, 16, 33}, {2, 4, 0}, false);
  fail += Check<8>("45x39x33 30,14,20 k 8", 45, 39, 33, {30, 14, 20}, {0, 2, 2}, true);
  fail += Check<4>("67x37x29 32,16,12", 67, 37, 29, {32, 16, 12}, {0, 2, 2}, false);
  fail += Check<2>("13x50x11 3,40,5", 13, 50, 11, {3, 40, 5}, {2, 0, 2}, true);
  fail += ModeChecks();
  printf("gpucheck %s\n", fail ? "FAIL" : "PASS all");
  if (!timing) return fail;
  /* 257^3, mg3d's shape: the Laplacian inside, variable rows in the 2-point shell (cint), one cycle per launch */
  Problem             p    = Make(257, 257, 257, false, 2, 1);
  double              w[8] = {0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 0.8};
  Dev                 d(p, w, 4);
  const double        bytes = 24.0 * p.N();
  std::vector<double> y0(p.N()), y1(p.N());
  struct Cfg {
    int kind, K, t[3];
  } cfgs[] = {
    {1, 4, {8, 8, 8}    },
    {0, 4, {29, 14, 52} },
    {0, 4, {29, 14, 43} },
    {0, 4, {29, 14, 86} },
    {0, 4, {29, 14, 257}},
    {0, 4, {29, 6, 52}  },
    {0, 4, {29, 30, 52} },
    {0, 4, {62, 14, 52} },
    {0, 4, {14, 14, 52} },
    {1, 2, {8, 8, 8}    },
    {0, 2, {29, 14, 52} },
  };
  int o[3] = {0, 0, 0};
  for (auto &c : cfgs) {
    float ms = c.K == 4 ? Run<4>(c.kind, p, d, c.t, o, true, 20) : Run<2>(c.kind, p, d, c.t, o, true, 20);
    printf("time %-7s k %d tile %3d,%3d,%3d: %.4f ms per cycle, %.0f GB/s = %.1f%% of 3.35 TB/s (24 B/point)\n", c.kind ? "shared" : "columns", c.K, c.t[0], c.t[1], c.t[2], ms, bytes / ms / 1e6, 100 * bytes / ms / 1e6 / 3350);
  }
  {
    Problem p1 = Make(257, 257, 257, false, 1, 1); /* variable rows in a 1-point shell (mg3d's Dirichlet faces) */
    Dev     d1(p1, w, 4);
    g_shell = 1;
    for (auto &c : cfgs) {
      if (c.K != 4) continue;
      float ms = Run<4>(c.kind, p1, d1, c.t, o, true, 20);
      printf("shell1 %-7s k %d tile %3d,%3d,%3d: %.4f ms per cycle, %.1f%% of 3.35 TB/s (24 B/point)\n", c.kind ? "shared" : "columns", c.K, c.t[0], c.t[1], c.t[2], ms, 100 * bytes / ms / 1e6 / 3350);
    }
    g_shell = 2;
    d1.Classes(p1); /* the same timings with row classes (the planes unread) */
    for (auto &c : cfgs) {
      if (c.K != 4 && c.kind == 1) continue;
      float ms = c.K == 4 ? Run<4>(c.kind, p1, d1, c.t, o, true, 20) : Run<2>(c.kind, p1, d1, c.t, o, true, 20);
      printf("classes %-7s k %d tile %3d,%3d,%3d: %.4f ms per cycle, %.1f%% of 3.35 TB/s (24 B/point)\n", c.kind ? "shared" : "columns", c.K, c.t[0], c.t[1], c.t[2], ms, 100 * bytes / ms / 1e6 / 3350);
    }
  }
  g_const = true;
  for (auto &c : cfgs) {
    if (c.K != 4) continue;
    float ms = Run<4>(c.kind, p, d, c.t, o, false, 20);
    printf("const %-7s k %d tile %3d,%3d,%3d: %.4f ms per cycle, %.1f%% of 3.35 TB/s (24 B/point)\n", c.kind ? "shared" : "columns", c.K, c.t[0], c.t[1], c.t[2], ms, 100 * bytes / ms / 1e6 / 3350);
  }
  g_const = false;
  /* same result at 257^3: stream 32,8,65 against shared 8^3 (both against the same x) */
  int t8[3] = {8, 8, 8}, ts[3] = {29, 14, 52};
  Run<4>(1, p, d, t8, o, true, 1);
  CK(cudaMemcpy(y0.data(), d.y, p.N() * 8, cudaMemcpyDeviceToHost));
  Run<4>(0, p, d, ts, o, true, 1);
  CK(cudaMemcpy(y1.data(), d.y, p.N() * 8, cudaMemcpyDeviceToHost));
  printf("257^3: |columns 29,14,52 - shared 8^3| = %.2e (different tiles: not equal; for scale |y| ~ 1)\n", MaxDiff(y0, y1));
  return fail;
}
