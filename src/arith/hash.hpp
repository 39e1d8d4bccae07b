/* The start vector of the omega estimate (omega/omega.cxx): a value in (-1, 1) per natural index, the same on the host and
   the device (integer arithmetic and one exact conversion), so that 1, 2 or 4 ranks and both backends estimate from
   the same vector. */
#pragma once

#include "arith/point.hpp"

namespace hj
{
/* splitmix64 of a 64-bit index, scaled to (-1, 1) */
HJ_HD double HashUnit(unsigned long long i)
{
  unsigned long long z = i + 0x9e3779b97f4a7c15ULL;
  z                    = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z                    = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z                    = z ^ (z >> 31);
  return 2.0 * (double)(z >> 11) / 9007199254740992.0 - 1.0;
}

/* the start value of field c of owned point (i, j, k) of the box at xs in the grid M0 x M1 (natural index of the value) */
HJ_HD double StartValue(long long xs0, long long xs1, long long xs2, long long i, long long j, long long k, long long M0, long long M1, int dof, int c)
{
  const unsigned long long nat = (unsigned long long)(xs0 + i) + (unsigned long long)M0 * ((unsigned long long)(xs1 + j) + (unsigned long long)M1 * (unsigned long long)(xs2 + k));
  return HashUnit(nat * (unsigned long long)dof + (unsigned long long)c);
}
} // namespace hj
