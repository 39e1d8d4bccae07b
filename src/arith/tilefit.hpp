/* What one tile of the CUDA tile kernels holds, as plain host arithmetic (no CUDA, no PETSc): the CUDA backend's plan
   checks a tile with it and names the largest tile that fits when it does not (src/cuda/plan/plan.cu), the default tile
   is chosen within it on every backend (src/pc/hjacobi/hjacobi.cxx), and test/test_tilefit.cxx checks both without a GPU. */
#pragma once

#include "arith/point.hpp"

namespace hj
{
/* The shared-memory tile kernel (TileKernel, one field per point) holds at most this many points of a working region:
   kTileMaxThreads = 512 threads of kMaxPointsPerThread = 8 points (src/cuda/kernels/launch.h checks the product). The
   register-strip kernel stays below it (at most 512 threads of strips of at most 8 points), and the point-block kernel
   (dof > 1) loops over its points. */
constexpr long long kTileMaxPoints = 4096;

/* The tile kernels' static shared memory beside the buffers: the tile's three ranges (TileRanges in cuda/kernels/kernels.cuh) */
constexpr long long kTileStaticBytes = 3 * (long long)sizeof(Range);

/* The dynamic shared memory a default tile may take per block: what a GPU with 96 KiB of shared memory per block holds
   beside kTileStaticBytes (every NVIDIA GPU of compute capability 7.0 and later but 7.5, whose limit is 64 KiB) */
constexpr long long kDefaultTileBytes = 96 * 1024 - kTileStaticBytes;

/* Dynamic shared memory of a tile kernel per block: two buffers of nbuf points (the largest working region with its
   halo) of dof values in the sub-iterations' scalar (ssize bytes), and for the point-block kernel in correction form
   (single with dof > 1) the sweeps' right-hand side of the npts points of the working region, in float. */
constexpr long long TileSharedBytes(long long nbuf, long long npts, int dof, bool single, long long ssize)
{
  return 2 * nbuf * dof * ssize + (single && dof > 1 ? npts * dof * (long long)sizeof(float) : 0);
}

/* What a working region of w[0] x w[1] x w[2] points needs (w[d] = 1 for d >= dim; a one-point halo on both sides of
   each direction d < dim), with dof values per point and the sub-iterations' scalar of ssize bytes */
struct TileNeed {
  long long points, bytes; /* points of W(T); dynamic shared memory per block */
};
inline TileNeed TileNeeds(const long long w[3], int dim, int dof, bool single, long long ssize)
{
  long long npts = 1, nbuf = 1;
  for (int d = 0; d < dim; d++) npts *= w[d], nbuf *= w[d] + 2;
  return TileNeed{npts, TileSharedBytes(nbuf, npts, dof, single, ssize)};
}

/* Whether a tile kernel holds that working region on a device allowing smemlimit bytes of shared memory per block */
inline bool TileFits(const long long w[3], int dim, int dof, bool single, long long ssize, long long smemlimit)
{
  const TileNeed n = TileNeeds(w, dim, dof, single, ssize);
  return (dof > 1 || n.points <= kTileMaxPoints) && n.bytes + kTileStaticBytes <= smemlimit;
}

/* The largest extent in direction d, at most wmax, with which w (its other extents kept) fits; 0 if none does */
inline long long TileFitAlong(const long long w[3], int d, int dim, int dof, bool single, long long ssize, long long smemlimit, long long wmax)
{
  long long lo = 0, hi = wmax < kTileMaxPoints * 64 ? wmax : kTileMaxPoints * 64; /* fits with lo, not with hi + 1 */
  long long v[3] = {w[0], w[1], w[2]};
  while (lo < hi) {
    const long long mid = (lo + hi + 1) / 2;
    v[d]                = mid;
    if (TileFits(v, dim, dof, single, ssize, smemlimit)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/* The largest c, at most wmax, with which c points in every direction d < dim fit; 0 if none does */
inline long long TileFitCube(int dim, int dof, bool single, long long ssize, long long smemlimit, long long wmax)
{
  long long lo = 0, hi = wmax < kTileMaxPoints ? wmax : kTileMaxPoints;
  while (lo < hi) {
    const long long mid = (lo + hi + 1) / 2, v[3] = {mid, dim > 1 ? mid : 1, dim > 2 ? mid : 1};
    if (TileFits(v, dim, dof, single, ssize, smemlimit)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/* The column kernel (3D star stencils, dof 1, sub-iterations in the global scalar: src/cuda/kernels/columns.cuh): one
   thread per column of the largest working region's x-y plane with its one-point halo ring, at most kColumnMaxThreads,
   k = 1..kColumnMaxK levels with two shared x-y planes each (and the weights and ranges in static shared memory); any
   extent in z. */
constexpr long long kColumnMaxThreads = 1024;
constexpr int       kColumnMaxK       = 8;
constexpr int       kRowClasses       = 16; /* distinct rows of a star operator the column kernel takes from a table */
/* The fixed plane (ColumnKernel's FIX): a buffer plane of kColumnFixThreads columns in rows of kColumnFixRow, one warp
   a row, whatever the tile's x-y extent, so that every shared-memory offset of a step is a constant of the code. Taken
   where the plane with its ring fits it and fills more than half of it (the default tile: 31 x 16 of 32 x 16); H100,
   bench/columnalone.cu: 0.247 against 0.284 ms per k = 4 cycle at 257^3 with row classes. */
constexpr int       kColumnFixRow      = 32;
constexpr long long kColumnFixThreads  = 512;
constexpr long long kColumnStaticBytes = kTileStaticBytes + kColumnMaxK * 16 + kRowClasses * 8 * 16;
struct ColumnNeed {
  long long threads, bytes; /* threads per block (a multiple of 32), dynamic shared memory per block */
  bool      fixed;          /* the fixed plane */
};
/* smemlimit: the shared memory a block may have; the fixed plane only where its larger planes fit it */
inline ColumnNeed ColumnNeeds(const long long w[3], int k, long long ssize, long long smemlimit)
{
  const long long sx = w[0] + 2, sy = w[1] + 2, np = sx * sy;
  const bool      fixed = sx <= kColumnFixRow && sy <= kColumnFixThreads / kColumnFixRow && 2 * np > kColumnFixThreads && 2 * (long long)k * kColumnFixThreads * ssize + kColumnStaticBytes <= smemlimit;
  const long long n     = fixed ? kColumnFixThreads : np;
  return ColumnNeed{(n + 31) / 32 * 32, 2 * (long long)k * n * ssize, fixed};
}
inline bool ColumnFits(const long long w[3], int k, long long ssize, long long smemlimit)
{
  const ColumnNeed n = ColumnNeeds(w, k, ssize, smemlimit);
  return k >= 1 && k <= kColumnMaxK && n.threads <= kColumnMaxThreads && n.bytes + kColumnStaticBytes <= smemlimit;
}

/* The column kernel's default tile (where the CUDA backend runs it: src/cuda/backend.cu): along each direction of the
   largest rank box, ceil(m / target) tiles of equal size (30 x 14 working columns: a 32 x 16 block of 512 threads with
   the ring; z in pieces of at most kColumnTile[2] planes: a 257^3 box gets 29 x 14 x 43 tiles, 1026 of them, about
   four waves of two blocks per SM on a 132-SM GPU; H100, bench/columnalone.cu: 0.339 ms per k = 4 cycle against 0.346
   with 52 planes and 0.357 with 86) */
constexpr long long kColumnTile[3] = {30, 14, 48};
/* ... and auto takes it only with at least this many tiles (blocks) on a rank: its blocks stream long columns, so a
   grid with few of them leaves SMs idle (bench/TUNING.md step 8). A 129^3 grid has 150 (26 x 13 x 43; 200 of 26 x 13 x 33 cut for 132 SMs), where it beats
   TileKernel 8^3 (H200, hjmg under Richardson: 3.42 against 4.10-4.13 ms for the solve, step 13); a 65^3 grid has 30 */
constexpr long long kColumnMinTiles = 128;
/* A variable stencil whose rows are one row inside a boundary shell (the CUDA plan's cint): the tiles whose working
   region lies inside that box run the constant-stencil instantiation of the tile kernel (coefficients as kernel
   operands; its variable twin holds every point's row in registers: 2D register strips 97 against 57 registers, 25%
   against 50% occupancy, 356 against 201 us per k = 4 cycle at 4097^2 on an H200, bench/TUNING.md step 14), the
   rest the variable one: a second launch per cycle, so only where those tiles hold at least this many points */
constexpr long long kConstSplitMinPoints = 1LL << 19;
/* A box with fewer tiles than kColumnBlocksPerSM blocks for each of the device's SMs (two blocks of the fixed plane's
   512 threads at 64 registers fit an SM) leaves SMs with one block, which waits on its loads alone: its z pieces are
   cut shorter, down to kColumnMinPlanes planes, until it has that many (H200, hjmg at 129^3 under Richardson: 26 x 13 x
   33, 200 tiles, 3.07 ms against 3.40-3.44 for 26 x 13 x 43, 150 tiles; 22 planes, 300 tiles, took 6 V-cycles
   instead of 5: bench/TUNING.md steps 13 and 15) */
constexpr long long kColumnBlocksPerSM = 2;
constexpr long long kColumnMinPlanes   = 32;
/* mmax: the largest rank box; nsm: the device's SMs (0: not known, no cut) */
inline void ColumnDefaultTile(const long long mmax[3], long long nsm, long long t[3])
{
  long long n[3];
  for (int d = 0; d < 3; d++) {
    const long long m = mmax[d] > 1 ? mmax[d] : 1;
    n[d]              = (m + kColumnTile[d] - 1) / kColumnTile[d];
    t[d]              = (m + n[d] - 1) / n[d];
  }
  const long long mz = mmax[2] > 1 ? mmax[2] : 1;
  while (n[0] * n[1] * n[2] < kColumnBlocksPerSM * nsm) {
    const long long nz = n[2] + 1, tz = (mz + nz - 1) / nz;
    if (tz < kColumnMinPlanes) break;
    n[2] = nz, t[2] = tz;
  }
}

/* Tile sizes used when the user gives none, per grid dimension (doc/algorithm.md t; the paper's 32 x 32 in 2D) */
constexpr long long kDefaultTile[3][3] = {
  {256, 1,  1},
  {32,  32, 1},
  {8,   8,  8}
};

/* The default tile t of a dim-dimensional grid with dof fields per point whose largest rank box (over the DMDA's
   partition, so that every rank chooses the same) has mmax[d] points in direction d, ssize bytes per value.
   kDefaultTile, except that a direction shorter than two default tiles is one tile (its whole extent), as long as the
   whole tile then stays small: at most kTileMaxPoints points and kDefaultTileBytes of buffers. Without it a 9-point
   direction got tiles of 8 and 1 points, and a 1-point tile with a frozen halo all round is a damped point Jacobi step
   there, far weaker than the tiles around it (PETSc's ksp ex42: bench/TUNING.md "Notes from the source").
   The tile is then shrunk until its buffers fit kDefaultTileBytes (halving its longest working
   extent, z before y before x on a tie): with dof 6 to 8 the 32 x 32 tile becomes 32 x 16 and with dof 7 and 8 the
   8 x 8 x 8 one 8 x 8 x 4 (where the rank box is that large), so that a default tile fits the CUDA tile kernels on
   every GPU with 96 KiB of shared memory per block, not only on those with more. That is the CUDA backend's default
   (device); the host backend's is HostDefaultTile (no limits: its buffers are ordinary memory), and does not depend on
   dof or on the size of the scalar type (complex or real). */
/* The host backend's targets per grid dimension: long rows (the cycle's vector loops run along x) and a tile with its
   halo well inside a core's L2 cache (3D 128 x 8 x 8: two buffers of 130 x 10 x 10 doubles, 208 KB); measured on the
   2-core development machine (bench/README.md, C3 and C4) */
constexpr long long kHostTile[3][3] = {
  {1024, 1,  1},
  {256,  32, 1},
  {128,  8,  8}
};

/* The host backend's default: along each direction n = floor(extent / target) tiles of equal size (at least the target,
   so an overlap below the target is always allowed), or one tile when n <= 1 (tile max(extent, target)): no thin
   remainder tile (97 points and target 8: 10 tiles of 9 and one of 7, not 12 of 8 and one of 1) */
inline void HostDefaultTile(int dim, const long long mmax[3], long long t[3])
{
  for (int d = 0; d < 3; d++) {
    const long long target = kHostTile[dim - 1][d], m = mmax[d], n = m / target;
    t[d] = d < dim ? (n <= 1 ? (m > target ? m : target) : (m + n - 1) / n) : 1;
  }
}

inline void DefaultTile(int dim, int dof, long long ssize, bool device, const long long mmax[3], long long t[3])
{
  long long w[3] = {1, 1, 1};
  if (!device) {
    HostDefaultTile(dim, mmax, t);
    return;
  }
  for (int d = 0; d < 3; d++) t[d] = kDefaultTile[dim - 1][d];
  for (int d = 0; d < dim; d++) w[d] = mmax[d] < 2 * t[d] ? mmax[d] : t[d]; /* the tile with the whole directions */
  const TileNeed whole = TileNeeds(w, dim, dof, false, ssize);
  if (whole.points <= kTileMaxPoints && whole.bytes <= kDefaultTileBytes)
    for (int d = 0; d < dim; d++)
      if (mmax[d] > t[d] && mmax[d] < 2 * t[d]) t[d] = mmax[d]; /* (up to t, one tile already) */
  for (;;) {
    int big = -1;
    for (int d = 0; d < dim; d++) {
      w[d] = t[d] < mmax[d] ? t[d] : mmax[d]; /* the working extent on the largest rank box */
      if (w[d] > 1 && (big < 0 || w[d] >= w[big])) big = d;
    }
    if (big < 0 || TileNeeds(w, dim, dof, false, ssize).bytes <= kDefaultTileBytes) break;
    t[big] = (w[big] + 1) / 2;
  }
}
} // namespace hj
