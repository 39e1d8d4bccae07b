/* hj::DispatchTable: run-time integers to template instantiations, for the backends' tables of kernels or cycles.

     struct Entries { template <int A, int B> static constexpr Fn Get() { return &Kernel<A, B == 1>; } };
     Fn f = hj::DispatchTable<Entries, 3, 2>::At(a, b); // Entries::Get<a, b>(), or nullptr when a or b is out of range

   The table holds Get<I...>() for every I_d in [0, N_d), row-major (the last index fastest), built at compile time from
   an index sequence: every combination is instantiated exactly once, and no index is computed by hand. */
#pragma once

#include <array>
#include <cstddef>
#include <utility>

namespace hj
{
template <class Entries, int... N>
class DispatchTable {
  static constexpr int         kDims = (int)sizeof...(N);
  static constexpr std::size_t kSize = (std::size_t(1) * ... * std::size_t(N));

  /* index d of the combination with flat (row-major) position f */
  static constexpr int Digit(std::size_t f, int d)
  {
    constexpr int ext[] = {N...};
    for (int e = kDims - 1; e > d; e--) f /= (std::size_t)ext[e];
    return (int)(f % (std::size_t)ext[d]);
  }
  template <std::size_t F, std::size_t... D>
  static constexpr auto Entry(std::index_sequence<D...>)
  {
    return Entries::template Get<Digit(F, (int)D)...>();
  }
  template <std::size_t... F>
  static constexpr auto Build(std::index_sequence<F...>)
  {
    return std::array<decltype(Entry<0>(std::make_index_sequence<kDims>{})), kSize>{{Entry<F>(std::make_index_sequence<kDims>{})...}};
  }

public:
  template <class... I>
  static auto At(I... i)
  {
    static_assert(sizeof...(I) == sizeof...(N), "one index per dimension of the table");
    static constexpr auto table = Build(std::make_index_sequence<kSize>{});
    const int             idx[] = {(int)i...};
    constexpr int         ext[] = {N...};
    std::size_t           f     = 0;
    for (int d = 0; d < kDims; d++) {
      if (idx[d] < 0 || idx[d] >= ext[d]) return typename decltype(table)::value_type{};
      f = f * (std::size_t)ext[d] + (std::size_t)idx[d];
    }
    return table[f];
  }
};
} // namespace hj
