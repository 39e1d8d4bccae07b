/* Tile index arithmetic for grids beyond 2^31 points (hj::NumTiles, hj::TileRange take long long), checked without
   allocating: the owned ranges partition [0, m) (first, last, interior tiles, counts), working regions hold the owned
   ones, are at most t long and start every t - o points; tile counts against a walk over the working regions. */
#include "arith/point.hpp"
#include <cstdio>

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

static void Partition(long long m, long long t, long long o)
{
  const long long n = hj::NumTiles(m, t, o);
  CHECK(n >= 1, "m %lld t %lld o %lld", m, t, o);
  if (m > t) CHECK((n - 1) * (t - o) + t >= m && (n - 2) * (t - o) + t < m, "tile count m %lld t %lld o %lld n %lld", m, t, o, n);
  /* first 3, last 3 and 50 spread over the middle; consecutive pairs must abut */
  long long idx[64], k = 0;
  for (long long i = 0; i < 3 && i < n; i++) idx[k++] = i;
  for (long long j = 1; j <= 50 && n > 6; j++) idx[k++] = 3 + (n - 6) * j / 51;
  for (long long i = n - 3 < 3 ? 3 : n - 3; i < n; i++) idx[k++] = i;
  for (long long e = 0; e < k; e++) {
    const long long i = idx[e];
    const hj::Range r = hj::TileRange(m, t, o, i);
    CHECK(0 <= r.w0 && r.w0 <= r.o0 && r.o0 < r.o1 && r.o1 <= r.w1 && r.w1 <= m && r.w1 - r.w0 <= (t < m ? t : m), "tile %lld of %lld: w [%lld,%lld) o [%lld,%lld) m %lld t %lld o %lld", i, n, r.w0, r.w1, r.o0, r.o1, m, t, o);
    if (i == 0) CHECK(r.o0 == 0 && r.w0 == 0, "first tile m %lld", m);
    if (i == n - 1) CHECK(r.o1 == m && r.w1 == m, "last tile of %lld: o1 %lld w1 %lld m %lld t %lld o %lld", n, r.o1, r.w1, m, t, o);
    if (i + 1 < n) {
      const hj::Range s = hj::TileRange(m, t, o, i + 1);
      CHECK(r.o1 == s.o0, "tiles %lld,%lld do not abut: %lld vs %lld (m %lld t %lld o %lld)", i, i + 1, r.o1, s.o0, m, t, o);
      CHECK(s.w0 - r.w0 == t - o, "tile stride %lld", s.w0 - r.w0);
    }
  }
}

int main()
{
  const long long two31 = 1LL << 31, two32 = 1LL << 32;
  const long long ms[]    = {two31 - 1, two31, two31 + 1, two32 - 1, two32 + 7, 3LL * two31 + 5, 1LL << 40, 2048LL * 2048 * 2048, 2048, 2049, 1, 2, 3};
  const long long ts[][2] = {
    {256,       0  },
    {256,       8  },
    {32,        2  },
    {8,         2  },
    {8,         6  },
    {3,         2  },
    {1,         0  },
    {2,         0  },
    {1024,      512},
    {two31 + 2, 2  }
  };
  for (long long m : ms)
    for (auto &to : ts) Partition(m, to[0], to[1]);
  /* the 2048^3 grid: per-direction sizes on 1..8 ranks with the default 3D tile */
  for (long long p = 1; p <= 8; p *= 2) {
    Partition(2048 / p, 8, 2);
    Partition(2048 / p, 8, 0);
  }
  /* tile counts against a count made by walking the working regions (one every t - o points until one reaches m),
     for sizes where the walk is short, up to and beyond 2^31 points with large tiles */
  {
    const long long ms2[]    = {1, 2, 7, 8, 9, 255, 256, 257, 2047, 2048, 2049, 100003, two31 - 1, two31, two31 + 1, two32 + 7, 3LL * two31 + 5};
    const long long ts2[][2] = {
      {8,               0        },
      {8,               2        },
      {8,               6        },
      {3,               2        },
      {256,             8        },
      {1LL << 20,       0        },
      {1LL << 20,       2        },
      {(1LL << 22) + 3, 1LL << 21},
      {two31 + 2,       2        }
    };
    for (long long m : ms2)
      for (auto &to : ts2) {
        const long long t = to[0], o = to[1];
        if (m / (t - o) > 10000000) continue; /* keep the walk short */
        long long n = 1, end = t;
        while (end < m) {
          end += t - o;
          n++;
        }
        CHECK(hj::NumTiles(m, t, o) == n, "NumTiles(%lld, %lld, %lld) = %lld, walking the tiles gives %lld", m, t, o, hj::NumTiles(m, t, o), n);
      }
  }
  CHECK(hj::NumTiles(2048LL * 2048 * 2048, 8, 0) == 2048LL * 2048 * 2048 / 8, "1D count of 2048^3");
  CHECK(hj::NumTiles(two32, 2, 0) == two31, "2^32 / 2");
  std::printf("hjtest %s index arithmetic: %d of %d checks failed\n", nfail ? "FAIL" : "PASS", nfail, nchecks);
  return nfail ? 1 : 0;
}
