/* The index helpers of arith/index.hpp (hj::View, hj::StridedView, hj::TileBox) against the literal layouts of
   doc/design.md "Data", written out here: padded (i+pad0) + ext0*((j+pad1) + ext1*(k+pad2)), unpadded
   i + xm0*(j + xm1*k), the two Output layouts, a tile's buffer; DOF scalars per point. For every tile of odd-sized
   boxes in 1, 2 and 3D with dof 1..3: each re-based view addresses the same scalar as the literal formula, the owned
   sub-boxes partition the box (Owned), and offsets past 2^31 are exact (64-bit; nothing allocated). */
#include "arith/index.hpp"
#include <cstdio>
#include <vector>

static int nfail = 0, nchecks = 0;
#define CHECK(c, ...) \
  do { \
    nchecks++; \
    if (!(c)) { \
      if (nfail++ < 20) { \
        std::printf("hjtest FAIL %s: ", #c); \
        std::printf(__VA_ARGS__); \
        std::printf("\n"); \
      } \
    } \
  } while (0)

struct Out { /* the shape of hjcuda::Output<T> (cuda/kernels/launch.h, not included: it needs the CUDA runtime) */
  double   *out;
  long long obase, os1, os2;
};

template <int DIM, int DOF>
static void Box(long long xm0, long long xm1, long long xm2, long long t0, long long t1, long long t2, long long o0, long long o1, long long o2)
{
  const int       p0 = hj::Pad(DIM, 0), p1 = hj::Pad(DIM, 1), p2 = hj::Pad(DIM, 2);
  const long long e0 = xm0 + 2 * p0, e1 = xm1 + 2 * p1;
  double         *a   = nullptr; /* views are compared by offset only */
  const auto      pv  = hj::Padded<DOF>(a, DIM, e0, e1);
  const auto      uv  = hj::Unpadded<DOF>(a, xm0, xm1);
  const Out       toy = {a, p0 + e0 * (p1 + e1 * p2), e0, e0 * e1}, tox = {a, 0, xm0, xm0 * xm1};
  const auto      yv = hj::OutputView<DOF>(toy), xv = hj::OutputView<DOF>(tox);
  auto            padded   = [&](long long i, long long j, long long k) { return DOF * ((i + p0) + e0 * ((j + p1) + e1 * (k + p2))); };
  auto            unpadded = [&](long long i, long long j, long long k) { return DOF * (i + xm0 * (j + xm1 * k)); };

  for (long long k = -p2; k < xm2 + p2; k++)
    for (long long j = -p1; j < xm1 + p1; j++)
      for (long long i = -p0; i < xm0 + p0; i++) {
        CHECK(pv.Index(i, j, k) == padded(i, j, k) && yv.Index(i, j, k) == padded(i, j, k) && pv.Strided().Index(i, j, k) == padded(i, j, k), "padded dim %d dof %d (%lld,%lld,%lld)", DIM, DOF, i, j, k);
        if (i >= 0 && j >= 0 && k >= 0 && i < xm0 && j < xm1 && k < xm2) CHECK(uv.Index(i, j, k) == unpadded(i, j, k) && xv.Index(i, j, k) == unpadded(i, j, k), "unpadded dim %d dof %d (%lld,%lld,%lld)", DIM, DOF, i, j, k);
      }

  const long long  nt[3] = {hj::NumTiles(xm0, t0, o0), hj::NumTiles(xm1, t1, o1), hj::NumTiles(xm2, t2, o2)};
  std::vector<int> owners((size_t)(xm0 * xm1 * xm2), 0);
  for (long long tk = 0; tk < nt[2]; tk++)
    for (long long tj = 0; tj < nt[1]; tj++)
      for (long long ti = 0; ti < nt[0]; ti++) {
        const hj::Range   rx = hj::TileRange(xm0, t0, o0, ti), ry = hj::TileRange(xm1, t1, o1, tj), rz = hj::TileRange(xm2, t2, o2, tk);
        const hj::TileBox tb = hj::MakeTileBox<DIM>(rx, ry, rz);
        const auto        xh = tb.Halo(pv), xd = tb.PaddedHalo<DOF>(a, e0, e1), yh = tb.Halo(yv), uw = tb.Work(uv);
        const auto        sb = tb.Buffer<DOF>(a);
        CHECK(tb.s[0] == (rx.w1 - rx.w0) + 2 * p0 && tb.s[1] == (ry.w1 - ry.w0) + 2 * p1 && tb.s[2] == (rz.w1 - rz.w0) + 2 * p2, "buffer extents dim %d", DIM);
        CHECK(tb.BufferPoints() == tb.s[0] * tb.s[1] * tb.s[2] && tb.Points() == (rx.w1 - rx.w0) * (ry.w1 - ry.w0) * (rz.w1 - rz.w0), "point counts dim %d", DIM);
        for (int bk = 0; bk < tb.s[2]; bk++)
          for (int bj = 0; bj < tb.s[1]; bj++)
            for (int bi = 0; bi < tb.s[0]; bi++) {
              /* buffer (bi,bj,bk) is owned point (w0 + bi - pad, ...): W(T) and its halo */
              const long long gi = rx.w0 + bi - p0, gj = ry.w0 + bj - p1, gk = rz.w0 + bk - p2;
              CHECK(xh.Index(bi, bj, bk) == padded(gi, gj, gk) && xd.Index(bi, bj, bk) == padded(gi, gj, gk) && yh.Index(bi, bj, bk) == padded(gi, gj, gk), "halo dim %d dof %d tile (%lld,%lld,%lld) buffer (%d,%d,%d)", DIM, DOF, ti, tj, tk, bi, bj, bk);
              CHECK(sb.Index(bi, bj, bk) == DOF * (bi + tb.s[0] * (bj + tb.s[1] * bk)), "buffer dim %d dof %d", DIM, DOF);
            }
        for (int k = 0; k < tb.w[2]; k++)
          for (int j = 0; j < tb.w[1]; j++)
            for (int i = 0; i < tb.w[0]; i++) {
              const long long gi = rx.w0 + i, gj = ry.w0 + j, gk = rz.w0 + k;
              const bool      own = gi >= rx.o0 && gi < rx.o1 && gj >= ry.o0 && gj < ry.o1 && gk >= rz.o0 && gk < rz.o1;
              CHECK(uw.Index(i, j, k) == unpadded(gi, gj, gk), "work dim %d dof %d", DIM, DOF);
              CHECK(tb.Owned(i, j, k) == own, "owned dim %d tile (%lld,%lld,%lld) point (%d,%d,%d)", DIM, ti, tj, tk, i, j, k);
              if (tb.Owned(i, j, k)) owners[(size_t)(gi + xm0 * (gj + xm1 * gk))]++;
            }
      }
  for (size_t u = 0; u < owners.size(); u++) CHECK(owners[u] == 1, "dim %d: point %zu owned by %d tiles", DIM, u, owners[u]);
}

int main()
{
  Box<1, 1>(23, 1, 1, 7, 1, 1, 2, 0, 0);
  Box<1, 3>(5, 1, 1, 8, 1, 1, 2, 0, 0); /* one tile: W(T) is the box */
  Box<2, 1>(17, 13, 1, 6, 5, 1, 2, 4, 0);
  Box<2, 2>(11, 10, 1, 5, 5, 1, 2, 2, 0);
  Box<3, 1>(9, 7, 11, 4, 5, 4, 2, 2, 2);
  Box<3, 3>(6, 9, 5, 4, 4, 3, 2, 0, 2); /* (overlaps are even: doc/algorithm.md step 1) */
  {                                     /* 64-bit: a 3D padded array of 3.2e5 x 3.2e5 x 40 points, dof 2: offsets near 8e12 */
    const long long xm0 = 320000, xm1 = 320000, e0 = xm0 + 2, e1 = xm1 + 2, i = xm0 - 1, j = xm1 - 3, k = 37;
    const auto      v   = hj::Padded<2>((double *)nullptr, 3, e0, e1);
    const long long lit = 2 * ((i + 1) + e0 * ((j + 1) + e1 * (k + 1)));
    CHECK(v.Index(i, j, k) == lit && v.Strided().Index(i, j, k) == lit && lit > (1LL << 40), "64-bit padded %lld vs %lld", v.Index(i, j, k), lit);
    const hj::TileBox tb = hj::MakeTileBox<3>(hj::TileRange(xm0, 64, 2, 4999), hj::TileRange(xm1, 64, 2, 5000), hj::TileRange(40, 8, 2, 5));
    CHECK(tb.PaddedHalo<2>((double *)nullptr, e0, e1).Index(1, 2, 3) == v.Index(tb.w0[0], tb.w0[1] + 1, tb.w0[2] + 2), "64-bit halo");
  }
  if (nfail) std::printf("hjtest FAIL %d of %d checks\n", nfail, nchecks);
  else std::printf("hjtest PASS all checks (%d)\n", nchecks);
  return nfail != 0;
}
