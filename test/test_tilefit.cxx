/* What a tile of the CUDA tile kernels holds (arith/tilefit.hpp), checked on the host without a GPU: the needs of a tile
   against a count by hand, the largest tiles that fit (what the CUDA backend's error at PCSetUp names) against a walk
   over every extent, and that every default tile (hj::DefaultTile, what PCSetUp takes when the user gives no tile)
   fits the tile kernels on a GPU with 96 KiB of shared memory per block, for 1D to 3D grids, dof 1 to 8, double and
   complex double, native and single sub-iterations, on rank boxes from 1 to 5000 points a direction; the column
   kernel's default tile for the device's SMs. */
#include "arith/tilefit.hpp"
#include <cstdio>
#include <initializer_list>

static int nfail = 0, nchecks = 0;
#define CHECK(c, ...) \
  do { \
    nchecks++; \
    if (!(c)) { \
      nfail++; \
      std::printf("hjtest FAIL %s: ", #c); \
      std::printf(__VA_ARGS__); \
      std::printf("\n"); \
    } \
  } while (0)

static const long long kH100 = 232448;    /* an H100's or H200's shared memory per block (opt-in) */
static const long long kV100 = 96 * 1024; /* the least of the GPUs a default tile must fit */

int main()
{
  /* needs: two buffers of W(T) plus a one-point halo, dof values of ssize bytes; the point-block kernel's float
     right-hand side in correction form */
  {
    const long long w3[3] = {8, 8, 8}, w2[3] = {32, 32, 1}, w1[3] = {256, 1, 1};
    CHECK(hj::TileNeeds(w3, 3, 1, false, 8).bytes == 2 * 1000 * 8 && hj::TileNeeds(w3, 3, 1, false, 8).points == 512, "3D 8^3");
    CHECK(hj::TileNeeds(w2, 2, 4, false, 8).bytes == 2 * 34 * 34 * 4 * 8, "2D 32^2 dof 4");
    CHECK(hj::TileNeeds(w2, 2, 4, true, 4).bytes == 2 * 34 * 34 * 4 * 4 + 32 * 32 * 4 * 4, "2D 32^2 dof 4 single (the residual in float)");
    CHECK(hj::TileNeeds(w2, 2, 1, true, 4).bytes == 2 * 34 * 34 * 4, "2D 32^2 dof 1 single (no residual buffer)");
    CHECK(hj::TileNeeds(w1, 1, 1, false, 8).bytes == 2 * 258 * 8, "1D 256");
    CHECK(hj::TileNeeds(w2, 1, 1, false, 8).bytes == 2 * 34 * 8, "rows: a 2D tile with no y halo is its x extent");
  }
  /* fits: the shared kernel's 4096 points (dof 1 only), the shared memory beside the static ranges */
  {
    const long long a[3] = {16, 16, 16}, b[3] = {16, 16, 17}, c[3] = {64, 64, 1}, d[3] = {4096, 1, 1}, e[3] = {4097, 1, 1};
    CHECK(hj::TileFits(a, 3, 1, false, 8, kH100) && !hj::TileFits(b, 3, 1, false, 8, kH100), "4096 points fit, 4352 do not");
    CHECK(hj::TileFits(c, 2, 1, false, 8, kH100) && hj::TileFits(d, 1, 1, false, 8, kH100) && !hj::TileFits(e, 1, 1, false, 8, kH100), "2D 64^2, 1D 4096 and 4097");
    CHECK(hj::TileFits(b, 3, 2, false, 8, kH100), "dof 2: the point-block kernel loops over any number of points");
    const long long w[3] = {10, 10, 10}, v[3] = {11, 11, 11};
    CHECK(hj::TileFits(w, 3, 8, false, 8, kH100) && !hj::TileFits(v, 3, 8, false, 8, kH100), "dof 8: 10^3 takes 221184 bytes, 11^3 281216");
    const long long need = hj::TileNeeds(w, 3, 8, false, 8).bytes;
    CHECK(hj::TileFits(w, 3, 8, false, 8, need + hj::kTileStaticBytes) && !hj::TileFits(w, 3, 8, false, 8, need + hj::kTileStaticBytes - 1), "the static ranges count");
  }
  /* the largest tile that fits, with the other extents kept and alike in every direction, against a walk */
  {
    const long long shapes[][3] = {
      {12,   10, 40 },
      {32,   8,  64 },
      {16,   16, 16 },
      {128,  64, 1  },
      {40,   40, 8  },
      {5000, 1,  1  },
      {70,   70, 1  },
      {3,    3,  900}
    };
    for (int dim = 1; dim <= 3; dim++)
      for (int dof : {1, 2, 8})
        for (bool single : {false, true})
          for (long long lim : {kH100, kV100, 64LL * 1024}) {
            const long long ss = single ? 4 : 8;
            for (auto &sh : shapes) {
              long long       w[3] = {sh[0], dim > 1 ? sh[1] : 1, dim > 2 ? sh[2] : 1}, walk = 0;
              const long long wl = hj::TileFitAlong(w, dim - 1, dim, dof, single, ss, lim, w[dim - 1]);
              for (long long x = 1; x <= w[dim - 1]; x++) {
                long long v[3] = {w[0], w[1], w[2]};
                v[dim - 1]     = x;
                if (hj::TileFits(v, dim, dof, single, ss, lim)) walk = x;
              }
              CHECK(wl == walk, "along: dim %d dof %d single %d limit %lld tile %lldx%lldx%lld: %lld, the walk %lld", dim, dof, (int)single, lim, w[0], w[1], w[2], wl, walk);
            }
            const long long c    = hj::TileFitCube(dim, dof, single, ss, lim, hj::kTileMaxPoints);
            long long       walk = 0;
            for (long long x = 1; x <= hj::kTileMaxPoints; x++) {
              const long long v[3] = {x, dim > 1 ? x : 1, dim > 2 ? x : 1};
              if (hj::TileFits(v, dim, dof, single, ss, lim)) walk = x;
              else break;
            }
            CHECK(c == walk && c >= 1, "cube: dim %d dof %d single %d limit %lld: %lld, the walk %lld", dim, dof, (int)single, lim, c, walk);
          }
    /* what the GPU tests' errors name (test/errors.cmake, cuda_err_tile_fit_*) */
    const long long t1[3] = {12, 10, 40}, t2[3] = {16, 16, 16};
    CHECK(hj::TileFitAlong(t1, 2, 3, 1, false, 8, kH100, 40) == 34 && hj::TileFitCube(3, 1, false, 8, kH100, hj::kTileMaxPoints) == 16, "12,10,40 on an H100: 12,10,34 or 16,16,16");
    CHECK(hj::TileFitAlong(t2, 2, 3, 8, false, 8, kH100, 16) == 3 && hj::TileFitCube(3, 8, false, 8, kH100, hj::kTileMaxPoints) == 10, "dof 8 16^3 on an H100: 16,16,3 or 10,10,10");
  }
  /* every default tile fits a GPU with 96 KiB, its working region on every rank box (at most the largest) too */
  {
    const long long ms[]  = {1, 2, 3, 5, 7, 8, 9, 10, 12, 15, 16, 17, 24, 31, 32, 33, 40, 47, 63, 64, 65, 100, 127, 255, 256, 257, 300, 511, 512, 513, 1000, 5000};
    const int       nm    = (int)(sizeof(ms) / sizeof(ms[0]));
    long long       ncase = 0;
    for (int dim = 1; dim <= 3; dim++)
      for (int dof = 1; dof <= 8; dof++)
        for (long long ssize : {8LL, 16LL})
          for (int a = 0; a < nm; a++)
            for (int b = 0; b < (dim > 1 ? nm : 1); b++)
              for (int c = 0; c < (dim > 2 ? nm : 1); c++) {
                const long long mmax[3] = {ms[a], dim > 1 ? ms[b] : 1, dim > 2 ? ms[c] : 1};
                long long       t[3], w[3];
                hj::DefaultTile(dim, dof, ssize, true, mmax, t);
                for (int d = 0; d < 3; d++) w[d] = t[d] < mmax[d] ? t[d] : mmax[d];
                ncase++;
                CHECK(t[0] >= 1 && t[1] >= 1 && t[2] >= 1 && (dim > 1 || t[1] == 1) && (dim > 2 || t[2] == 1), "tile %lldx%lldx%lld", t[0], t[1], t[2]);
                for (bool single : {false, true}) {
                  const long long ss = single ? ssize / 2 : ssize;
                  CHECK(hj::TileFits(w, dim, dof, single, ss, kV100), "default tile %lldx%lldx%lld (working region %lldx%lldx%lld) of a %dD grid with dof %d, %lld-byte values, single %d, rank box %lldx%lldx%lld: %lld points, %lld bytes", t[0], t[1], t[2], w[0], w[1], w[2], dim, dof, ssize, (int)single, mmax[0], mmax[1], mmax[2],
                        hj::TileNeeds(w, dim, dof, single, ss).points, hj::TileNeeds(w, dim, dof, single, ss).bytes);
                }
              }
    CHECK(ncase > 100000, "%lld default-tile cases", ncase);
    /* the choices themselves: the paper's tiles, whole directions where the boxes are short, the shrunk ones */
    struct {
      int       dim, dof;
      long long mmax[3], t[3];
    } cases[] = {
      {1, 1, {1000, 1, 1},    {256, 1, 1} },
      {2, 1, {1000, 1000, 1}, {32, 32, 1} },
      {3, 1, {257, 257, 257}, {8, 8, 8}   },
      {3, 4, {9, 9, 9},       {9, 9, 9}   }, /* ksp ex42 (issue 12): one tile */
      {2, 1, {63, 63, 1},     {63, 63, 1} },
      {2, 1, {63, 64, 1},     {63, 32, 1} },
      {3, 1, {15, 15, 15},    {15, 15, 15}},
      {3, 2, {15, 15, 15},    {8, 8, 8}   }, /* whole: 157216 bytes of buffers, more than 96 KiB */
      {2, 4, {1000, 1000, 1}, {32, 32, 1} },
      {2, 5, {1000, 1000, 1}, {32, 32, 1} },
      {2, 6, {1000, 1000, 1}, {32, 16, 1} },
      {2, 8, {1000, 1000, 1}, {32, 16, 1} },
      {3, 6, {257, 257, 257}, {8, 8, 8}   },
      {3, 7, {257, 257, 257}, {8, 8, 4}   },
      {3, 8, {100, 100, 100}, {8, 8, 4}   },
      {3, 8, {9, 9, 9},       {8, 8, 4}   },
      {2, 8, {20, 20, 1},     {32, 32, 1} }, /* a box within one tile: nothing to shrink */
    };
    for (auto &cs : cases) {
      long long t[3];
      hj::DefaultTile(cs.dim, cs.dof, 8, true, cs.mmax, t);
      CHECK(t[0] == cs.t[0] && t[1] == cs.t[1] && t[2] == cs.t[2], "%dD dof %d on %lldx%lldx%lld: %lldx%lldx%lld, expected %lldx%lldx%lld", cs.dim, cs.dof, cs.mmax[0], cs.mmax[1], cs.mmax[2], t[0], t[1], t[2], cs.t[0], cs.t[1], cs.t[2]);
    }
    /* the host backend (hj::HostDefaultTile): long rows, equal tiles nearest the targets (no thin remainder), whatever
       dof and the scalar's size; no shrinking */
    struct {
      int       dim, dof;
      long long ssize, mmax[3], t[3];
    } hostcases[] = {
      {3, 2, 8,  {15, 15, 15},    {128, 15, 15}},
      {3, 4, 16, {9, 9, 9},       {128, 9, 9}  },
      {2, 8, 8,  {1000, 1000, 1}, {334, 33, 1} },
      {3, 8, 16, {257, 257, 257}, {129, 9, 9}  },
      {2, 1, 8,  {64, 64, 1},     {256, 32, 1} },
      {3, 1, 8,  {97, 97, 97},    {128, 9, 9}  },
      {3, 1, 8,  {129, 129, 65},  {129, 9, 9}  },
      {2, 1, 8,  {2049, 1025, 1}, {257, 33, 1} },
      {1, 1, 8,  {2000, 1, 1},    {2000, 1, 1} },
      {1, 1, 8,  {100, 1, 1},     {1024, 1, 1} },
      {3, 1, 8,  {16, 17, 7},     {128, 9, 8}  },
    };
    for (auto &cs : hostcases) {
      long long t[3];
      hj::DefaultTile(cs.dim, cs.dof, cs.ssize, false, cs.mmax, t);
      CHECK(t[0] == cs.t[0] && t[1] == cs.t[1] && t[2] == cs.t[2], "host: %dD dof %d (%lld-byte values) on %lldx%lldx%lld: %lldx%lldx%lld, expected %lldx%lldx%lld", cs.dim, cs.dof, cs.ssize, cs.mmax[0], cs.mmax[1], cs.mmax[2], t[0], t[1], t[2], cs.t[0], cs.t[1], cs.t[2]);
    }
  }
  /* the column kernel's default (hj::ColumnDefaultTile): equal tiles nearest 30 x 14 x 48; z pieces cut (not below 32
     planes) while the box has fewer than two tiles for each SM; nsm 0 cuts nothing */
  {
    struct {
      long long mmax[3], nsm, t[3];
    } colcases[] = {
      {{257, 257, 257}, 132, {29, 14, 43}}, /* 1026 tiles: no cut */
      {{129, 129, 129}, 0,   {26, 13, 43}}, /* 150 */
      {{129, 129, 129}, 132, {26, 13, 33}}, /* 150 -> 200; 26 planes would be too short */
      {{129, 129, 129}, 60,  {26, 13, 43}}, /* 150 >= 120 */
      {{129, 129, 129}, 76,  {26, 13, 33}}, /* 150 < 152 */
      {{129, 129, 65},  132, {26, 13, 33}}, /* 2 pieces of 33; 3 would be 22 planes */
      {{97, 97, 200},   132, {25, 14, 34}}, /* 4 x 7 x 5 = 140 -> 4 x 7 x 6 = 168; 7 pieces would be 29 planes */
      {{30, 14, 31},    132, {30, 14, 31}}, /* one tile; too short to cut */
    };
    for (auto &cs : colcases) {
      long long t[3];
      hj::ColumnDefaultTile(cs.mmax, cs.nsm, t);
      CHECK(t[0] == cs.t[0] && t[1] == cs.t[1] && t[2] == cs.t[2], "columns on %lldx%lldx%lld, %lld SMs: %lldx%lldx%lld, expected %lldx%lldx%lld", cs.mmax[0], cs.mmax[1], cs.mmax[2], cs.nsm, t[0], t[1], t[2], cs.t[0], cs.t[1], cs.t[2]);
    }
  }
  std::printf("hjtest %s tile fit: %d of %d checks failed\n", nfail ? "FAIL" : "PASS", nfail, nchecks);
  if (!nfail) std::printf("hjtest PASS all checks\n");
  return nfail ? 1 : 0;
}
