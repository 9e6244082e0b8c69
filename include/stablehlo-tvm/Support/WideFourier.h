//===- WideFourier.h - Fourier constants in extended precision --*- C++ -*-===//
//
// The roots of unity and the reference transform that the Fourier
// decomposition (stablehlo-decompose-fft) and the runtime's transform
// (python/FftKernels.cpp) compute their constants with: long double, each
// constant rounded once to its part type afterwards.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_SUPPORT_WIDEFOURIER_H
#define STABLEHLO_TVM_SUPPORT_WIDEFOURIER_H

#include <cmath>
#include <complex>
#include <cstdint>
#include <utility>
#include <vector>

namespace mlir::stablehlo_tvm {

using Wide = std::complex<long double>;

/// e^(sign 2 pi i num / den), the angle reduced exactly before rounding.
inline Wide cis(int sign, int64_t num, int64_t den) {
  constexpr long double twoPi = 6.283185307179586476925286766559005768L;
  int64_t reduced = num % den;
  long double angle = twoPi * static_cast<long double>(reduced) /
                      static_cast<long double>(den);
  return {std::cos(angle), sign * std::sin(angle)};
}

/// In-place radix-2 DFT (sign -1 forward, 1 unscaled inverse) of a
/// power-of-two length, for Bluestein's convolution kernels.
inline void wideRadix2(std::vector<Wide> &x, int sign) {
  size_t n = x.size();
  for (size_t i = 1, j = 0; i < n; ++i) {
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1)
      j ^= bit;
    j ^= bit;
    if (i < j)
      std::swap(x[i], x[j]);
  }
  std::vector<Wide> roots(n / 2);
  for (size_t k = 0; k < n / 2; ++k)
    roots[k] = cis(sign, static_cast<int64_t>(k), static_cast<int64_t>(n));
  for (size_t len = 2; len <= n; len <<= 1)
    for (size_t start = 0; start < n; start += len)
      for (size_t k = 0; k < len / 2; ++k) {
        Wide u = x[start + k], v = x[start + k + len / 2] * roots[k * (n / len)];
        x[start + k] = u + v;
        x[start + k + len / 2] = u - v;
      }
}

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_SUPPORT_WIDEFOURIER_H
