/* The 3D emulation tests' problem and reference (test/emulate/tile3d.cpp, columns3d.cpp): random operators on a padded
   grid and doc/algorithm.md's cycle written literally. */
#pragma once
#include <cmath>
#include <random>
#include <vector>
#include "arith/point.hpp"
#include "launch.h"

struct Problem {
  int                 n[3], kind, noff;
  bool                var, ghost = false;          /* ghost: the padded layer holds values (another rank's), read as neighbours */
  std::vector<double> xpad, b, coef, invdiag, cst; /* cst: the constant stencil (noff values, then the diagonal) */
  long long           N() const { return (long long)n[0] * n[1] * n[2]; }
  long long           Pad(int i, int j, int k) const { return (i + 1) + (long long)(n[0] + 2) * ((j + 1) + (long long)(n[1] + 2) * (k + 1)); }
  long long           U(int i, int j, int k) const { return i + (long long)n[0] * (j + (long long)n[1] * k); }
  bool                In(int i, int j, int k) const { return i >= 0 && j >= 0 && k >= 0 && i < n[0] && j < n[1] && k < n[2]; }
  double              C(int s, long long u) const { return var ? coef[s * N() + u] : cst[s]; }
  double              Invd(long long u) const { return var ? invdiag[u] : 1 / cst[noff]; }
};

inline Problem Make(int nx, int ny, int nz, int kind, bool var, double X0, unsigned seed, bool ghost = false)
{
  Problem                                p;
  std::mt19937_64                        g(seed);
  std::uniform_real_distribution<double> R(-1, 1);
  p.n[0] = nx, p.n[1] = ny, p.n[2] = nz, p.kind = kind, p.var = var, p.noff = hj::NumOffsets(3, kind);
  p.xpad.assign((size_t)((nx + 2) * (ny + 2) * (nz + 2)), 0.0);
  p.b.resize(p.N());
  p.coef.resize(p.noff * p.N());
  p.invdiag.resize(p.N());
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++) p.xpad[p.Pad(i, j, k)] = X0 + R(g);
  if (ghost) { /* random values in the whole padded array, its layer (another rank's points) included */
    p.ghost = true;
    for (auto &v : p.xpad) v = X0 + R(g);
  }
  for (auto &v : p.b) v = R(g);
  for (int s = 0; s < p.noff; s++) p.cst.push_back(-(0.4 + 0.3 * std::fabs(R(g))));
  double sum = 0;
  for (int s = 0; s < p.noff; s++) sum += std::fabs(p.cst[s]);
  p.cst.push_back(sum + 0.5);
  for (long long u = 0; u < p.N(); u++) {
    double rowsum = 0;
    for (int s = 0; s < p.noff; s++) rowsum += std::fabs(p.coef[s * p.N() + u] = -(0.3 + 0.7 * std::fabs(R(g))));
    p.invdiag[u] = 1 / (rowsum + 0.3 + 0.5 * std::fabs(R(g)));
  }
  return p;
}

/* sum_s a_s(p) v(p+s) over in-grid neighbours, v(i,j,k) given */
template <class V>
inline double OffSum(const Problem &p, int i, int j, int k, const V &v)
{
  double    sum = 0;
  long long u   = p.U(i, j, k);
  for (int s = 0; s < p.noff; s++) {
    const int a = i + hj::Offset(3, p.kind, s, 0), bb = j + hj::Offset(3, p.kind, s, 1), c = k + hj::Offset(3, p.kind, s, 2);
    if (p.In(a, bb, c) || p.ghost) sum += p.C(s, u) * v(a, bb, c);
  }
  return sum;
}

/* doc/algorithm.md's cycle, literally: for each tile, y = x; k sweeps over W(T) with the halo frozen; the owned core
   out. xzero: x = 0. rhsmask: b only where the tile owns the point (the transposed correction's first step). */
inline std::vector<double> Reference(const Problem &p, const int *t, const int *o, int K, double w, bool xzero, bool rhsmask, bool addall)
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
        std::vector<double> y((size_t)N), yn;
        for (int k = 0; k < p.n[2]; k++)
          for (int j = 0; j < p.n[1]; j++)
            for (int i = 0; i < p.n[0]; i++) y[p.U(i, j, k)] = X(i, j, k);
        for (int it = 0; it < K; it++) {
          yn = y;
          for (int k = (int)r[2].w0; k < r[2].w1; k++)
            for (int j = (int)r[1].w0; j < r[1].w1; j++)
              for (int i = (int)r[0].w0; i < r[0].w1; i++) {
                const long long u   = p.U(i, j, k);
                const double    bb  = (rhsmask && !owns(i, j, k)) ? 0.0 : p.b[u];
                const double    sum = OffSum(p, i, j, k, [&](int a, int b2, int c2) { return inW(a, b2, c2) ? y[p.U(a, b2, c2)] : X(a, b2, c2); });
                yn[u]               = y[u] + SweepWeight(w, it) * ((bb - sum) * p.Invd(u) - y[u]);
              }
          y = yn;
        }
        for (int k = 0; k < p.n[2]; k++)
          for (int j = 0; j < p.n[1]; j++)
            for (int i = 0; i < p.n[0]; i++)
              if (addall ? inW(i, j, k) : owns(i, j, k)) out[p.U(i, j, k)] += y[p.U(i, j, k)];
      }
  return out;
}

/* every point at least 2 points from each face gets the constant row p.cst (variable rows in the 2-point shell: ex45's
   and mg3d's shape; the kernels' cint box) */
inline void ConstantInside(Problem &p)
{
  for (int k = 2; k < p.n[2] - 2; k++)
    for (int j = 2; j < p.n[1] - 2; j++)
      for (int i = 2; i < p.n[0] - 2; i++) {
        const long long u = p.U(i, j, k);
        for (int s = 0; s < p.noff; s++) p.coef[s * p.N() + u] = p.cst[s];
        p.invdiag[u] = 1 / p.cst[p.noff];
      }
}
