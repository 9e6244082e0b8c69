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
#include <tuple>
#include <utility>
#include <vector>

namespace mlir::stablehlo_tvm {

using Wide = std::complex<long double>;

/// e^(sign 2 pi i num / den). The angle is reduced exactly to a quarter
/// turn and folded into its first half by the circle's symmetries before
/// sin and cos are taken, so multiples of a quarter turn are exactly 0 and
/// +-1 (in long double, sin(pi) is 5e-20, which a float holds: a real
/// transform's Nyquist bin had a nonzero imaginary part) and angles that
/// mirror one another get the same values.
inline Wide cis(int sign, int64_t num, int64_t den) {
  constexpr long double halfPi = 1.570796326794896619231321691639751442L;
  int64_t reduced = ((num % den) + den) % den;
  int64_t quarters = 4 * reduced / den;    // whole quarter turns
  int64_t rest = 4 * reduced - quarters * den; // then rest / den of one
  long double c, s;
  if (2 * rest <= den) {
    long double angle = halfPi * static_cast<long double>(rest) /
                        static_cast<long double>(den);
    c = std::cos(angle);
    s = std::sin(angle);
  } else {
    long double angle = halfPi * static_cast<long double>(den - rest) /
                        static_cast<long double>(den);
    c = std::sin(angle);
    s = std::cos(angle);
  }
  switch (quarters) {
  case 1:
    std::tie(c, s) = std::make_pair(-s, c);
    break;
  case 2:
    std::tie(c, s) = std::make_pair(-c, -s);
    break;
  case 3:
    std::tie(c, s) = std::make_pair(s, -c);
    break;
  default:
    break;
  }
  return {c, s == 0 ? s : sign * s};
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
