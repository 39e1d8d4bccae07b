/* The index helpers shared by the host backend and the CUDA kernels: an Array4-style view of a strided 3D array
   (hj::View) and the geometry of one tile (hj::TileBox). Every padded, unpadded, output and shared-buffer index of
   the backends is one of these, instead of each writing its own `a + ext0*(b + ext1*c)`; host C++ and CUDA include
   this same file (HJ_HD: __host__ __device__ under nvcc).

   Layouts (x fastest; DOF scalars per point stored together: scalar c of point n at DOF*n + c):
     padded     xpad, ypad: ext0 x ext1 x ext2 points, ext = xm + 2*pad with the ghost layer pad = (1, DIM>1, DIM>2)
                hj::Padded<DOF>(a, DIM, ext0, ext1): (i, j, k) are owned coordinates, -1 and xm are the ghost layer
     unpadded   b, x, every coefficient plane: xm0 x xm1 x xm2 points
                hj::Unpadded<DOF>(a, xm0, xm1): owned coordinates
     output     hjcuda::Output<T> (cuda/kernels/launch.h: out, obase, os1, os2): one of the two above, chosen at run time
                hj::OutputView<DOF>(o): owned coordinates
     buffer     a tile's shared (device) or scratch (host) buffer, W(T) with its halo: TileBox::Buffer<DOF>(buf),
                int offsets, buffer coordinates (below)
   A view's (i, j, k) are relative to its origin and may be negative (the ghost layer, the halo); offsets are formed
   as one integer, DOF*(base + i + s1*(j + n1*k)) (+ c), and added to the base pointer once, so no pointer outside
   the array is formed on the way. Moving the origin (Shifted, TileBox::Halo) changes base only. Every view has
   Index(i,j,k) (scalar offset of the point), ptr(i,j,k,c), operator()(i,j,k,c), Shifted(i,j,k), s1 and s2().

   Tile coordinates (TileBox, from the three hj::Range of a tile, doc/algorithm.md step 1):
     W(T) coordinates    (i, j, k) in [0, w): point (w0 + i, ...) of the owned box
     buffer coordinates  W(T) coordinates + pad: [0, s) = W(T) and its halo H(T), the layout of the tile buffers
   TileBox::Halo(view) is a global view re-based to buffer coordinates, TileBox::Work(view) to W(T) coordinates.
   Example, one tile of a DIM-dimensional scalar grid:
     const hj::TileBox tb = hj::MakeTileBox<DIM>(rx, ry, rz);
     const auto x  = tb.PaddedHalo(xpad, ext0, ext1);           // x(bi, bj, bk): W(T) + H(T)
     const auto bb = tb.Work(hj::Unpadded(b, xm0, xm1));         // bb(i, j, k): W(T) only
     const auto sb = tb.Buffer(buf);                             // sb(bi, bj, bk), int offsets
     if (tb.Owned(i, j, k)) ...                                  // T owns W(T) point (i, j, k) */
#pragma once

#include "arith/point.hpp"
#include <type_traits>

namespace hj
{
/* A view of an array with extents: element c of point (i, j, k) is p[DOF*(base + i + s1*(j + n1*k)) + c], s1 the
   extent (points) of a row and n1 the rows of a plane. The offset is formed in Horner form from the two extents, as
   the kernels always did: extents that come from kernel parameters then cost no register (a precomputed plane
   stride s1*n1 would be held in two). I is the offset type: 64-bit for global arrays, int for a tile's buffer. */
template <class T, int DOF = 1, class I = long long>
struct View {
  T *p;            /* the array */
  I  base, s1, n1; /* offset of the origin (points), row extent (the stride of j), rows per plane */

  HJ_HD I  s2() const { return s1 * n1; } /* the stride of k */
  HJ_HD I  Index(I i, I j, I k) const { return DOF * (base + i + s1 * (j + n1 * k)); }
  HJ_HD T *ptr(I i, I j, I k, int c = 0) const { return p + (Index(i, j, k) + c); }
  HJ_HD T &operator()(I i, I j, I k, int c = 0) const { return p[Index(i, j, k) + c]; }
  /* the same array with its origin at this view's (i, j, k) */
  HJ_HD View Shifted(I i, I j, I k) const { return {p, base + i + s1 * (j + n1 * k), s1, n1}; }
  /* the same array with explicit strides (StridedView below), for code that needs s2() anyway (a point's
     neighbours: hj::PointUpdate, hj::Residual take the strides) */
  HJ_HD auto Strided() const;
};

/* A view with explicit strides s1, s2 of j and k: hjcuda::Output<T> (its two layouts are known at run time only).
   The same interface as View. */
template <class T, int DOF = 1>
struct StridedView {
  T        *p;
  long long base, s1, s2_;

  HJ_HD long long   s2() const { return s2_; }
  HJ_HD long long   Index(long long i, long long j, long long k) const { return DOF * (base + i + s1 * j + s2_ * k); }
  HJ_HD T          *ptr(long long i, long long j, long long k, int c = 0) const { return p + (Index(i, j, k) + c); }
  HJ_HD T          &operator()(long long i, long long j, long long k, int c = 0) const { return p[Index(i, j, k) + c]; }
  HJ_HD StridedView Shifted(long long i, long long j, long long k) const { return {p, base + i + s1 * j + s2_ * k, s1, s2_}; }
};

template <class T, int DOF, class I>
HJ_HD auto View<T, DOF, I>::Strided() const
{
  return StridedView<T, DOF>{p, base, s1, s2()};
}

/* width of the ghost layer (and of a tile's halo) of a dim-dimensional grid in direction d */
HJ_HD constexpr int Pad(int dim, int d)
{
  return d < dim ? 1 : 0;
}

/* A padded array (ext0 x ext1 x * points with the ghost layer), in owned coordinates. */
template <int DOF = 1, class T>
HJ_HD View<T, DOF> Padded(T *a, int dim, long long ext0, long long ext1)
{
  return {a, Pad(dim, 0) + ext0 * (Pad(dim, 1) + ext1 * Pad(dim, 2)), ext0, ext1};
}

/* An unpadded owned array (xm0 x xm1 x * points: b, x, one coefficient plane). */
template <int DOF = 1, class T>
HJ_HD View<T, DOF> Unpadded(T *a, long long xm0, long long xm1)
{
  return {a, 0, xm0, xm1};
}

/* hjcuda::Output<T> (or anything with out, obase, os1, os2) as a view in owned coordinates. */
template <int DOF = 1, class O>
HJ_HD auto OutputView(const O &o) -> StridedView<typename std::remove_reference<decltype(*o.out)>::type, DOF>
{
  return {o.out, o.obase, o.os1, o.os2};
}

/* The geometry of one tile T of a DIM-dimensional grid from its three hj::Range (unused directions: [0, 1)). */
struct TileBox {
  long long w0[3];  /* W(T)'s first point, owned coordinates */
  int       w[3];   /* W(T)'s extents */
  int       pad[3]; /* halo width: Pad(DIM, d) */
  int       s[3];   /* buffer extents, W(T) plus halo: w + 2*pad */
  int       o0[3];  /* T's owned sub-box [o0, o1), W(T) coordinates */
  int       o1[3];

  HJ_HD int Points() const { return w[0] * w[1] * w[2]; }       /* points of W(T) */
  HJ_HD int BufferPoints() const { return s[0] * s[1] * s[2]; } /* points of W(T) + H(T) */
  /* T owns W(T) point (i, j, k) */
  HJ_HD bool Owned(int i, int j, int k) const { return i >= o0[0] && i < o1[0] && j >= o0[1] && j < o1[1] && k >= o0[2] && k < o1[2]; }
  /* a tile buffer (s[0] x s[1] x s[2] points of DOF values), buffer coordinates */
  template <int DOF = 1, class S>
  HJ_HD View<S, DOF, int> Buffer(S *buf) const
  {
    return {buf, 0, s[0], s[1]};
  }
  /* a global view (owned coordinates) re-based to buffer coordinates, or to W(T) coordinates */
  template <class V>
  HJ_HD V Halo(const V &v) const
  {
    return v.Shifted(w0[0] - pad[0], w0[1] - pad[1], w0[2] - pad[2]);
  }
  template <class V>
  HJ_HD V Work(const V &v) const
  {
    return v.Shifted(w0[0], w0[1], w0[2]);
  }
  /* Halo(Padded<DOF>(a, DIM, ext0, ext1)) formed directly: the ghost layer and the halo have the same width, so in
     padded coordinates T's halo starts at W(T)'s first point w0 (fewer instructions and registers on the GPU). */
  template <int DOF = 1, class T>
  HJ_HD View<T, DOF> PaddedHalo(T *a, long long ext0, long long ext1) const
  {
    return {a, w0[0] + ext0 * (w0[1] + ext1 * w0[2]), ext0, ext1};
  }
};

template <int DIM>
HJ_HD TileBox MakeTileBox(const Range &rx, const Range &ry, const Range &rz)
{
  TileBox     tb;
  const Range r[3] = {rx, ry, rz};
#if defined(__CUDA_ARCH__)
  #pragma unroll
#endif
  for (int d = 0; d < 3; d++) {
    tb.w0[d]  = r[d].w0;
    tb.w[d]   = (int)(r[d].w1 - r[d].w0);
    tb.pad[d] = Pad(DIM, d);
    tb.s[d]   = tb.w[d] + 2 * tb.pad[d];
    tb.o0[d]  = (int)(r[d].o0 - r[d].w0);
    tb.o1[d]  = (int)(r[d].o1 - r[d].w0);
  }
  return tb;
}
} // namespace hj
