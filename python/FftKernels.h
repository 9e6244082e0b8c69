//===- FftKernels.h - Batched split-complex Fourier transforms --*- C++ -*-===//
//
// The transforms behind `stablehlo_tvm.fft` (NativeFft.cpp), free of TVM so
// that they can be tested and timed alone.
//
// A block is V transforms of the same length n held as `re[j * V + v]`,
// `im[j * V + v]` (point j of transform v): every butterfly works on V
// contiguous lanes, so the loops vectorize over the batch whichever axis
// the transform runs along. Lengths factor into radices 4, 2, 3 and odd
// primes up to kLargestRadix, taken in a self-sorting (Stockham) order, so
// no bit reversal is needed; a length with a larger prime factor is
// Bluestein's chirp convolution through a power-of-two transform.
// Twiddle factors are computed in long double and rounded once.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_PYTHON_FFTKERNELS_H
#define STABLEHLO_TVM_PYTHON_FFTKERNELS_H

#include <cstdint>
#include <memory>
#include <vector>

namespace mlir::stablehlo_tvm::python::fft {

/// Prime factors up to this are radices of their own (work p per point);
/// a length with a larger one goes through Bluestein's convolution.
constexpr int64_t kLargestRadix = 61;

/// Fewer transforms than this take a long length's four steps.
constexpr int64_t kFewLanes = 8;
/// Lengths from this on that factor into two of at least 16 have four
/// steps.
constexpr int64_t kSplitLength = 1024;

/// One radix step: `radix`-point transforms over `m` groups, whose twiddle
/// factors w_(radix m)^(j k) for j < m, 0 < k < radix are `twiddles`.
template <typename T> struct Stage {
  int64_t radix = 0, m = 0;
  std::vector<T> twiddleRe, twiddleIm;
  /// cos and sin(2 pi t / radix) for the odd generic radices.
  std::vector<T> rootRe, rootIm;
};

/// Everything a length-n transform in one direction needs.
template <typename T> struct Plan {
  int64_t n = 0;
  int sign = -1;
  std::vector<Stage<T>> stages;
  // Bluestein: the chirp b[t] = e^(sign pi i t^2 / n), and the transform of
  // the convolution kernel conj(b) over `convolution->n` points, over that
  // length (the inverse's 1/M folded in).
  std::unique_ptr<Plan<T>> convolution, inverseConvolution;
  std::vector<T> chirpRe, chirpIm, kernelRe, kernelIm;
  // A long composite length n = n1 n2, for transforms too few to fill a
  // block's lanes: the four-step factorization, n1-point transforms down the
  // columns of x as an n1 x n2 matrix, twiddle factors w_n^(k1 j2) (at
  // k1 n2 + j2), n2-point transforms along its rows and a transpose, so that
  // every step runs on full blocks (NativeFft.cpp).
  std::unique_ptr<Plan<T>> columns, rows;
  std::vector<T> splitRe, splitIm;

  /// The plan for `n` points in direction `sign`, shared and cached.
  static const Plan &get(int64_t n, int sign);
  /// Scratch a block of `lanes` transforms needs beside its own data, in T.
  int64_t scratch(int64_t lanes) const;
};

/// Copies `rows` lines of `count` points, line r at `lines + r * stride`,
/// into lanes 0..rows-1 of a block of `lanes` lanes (point j of line r at
/// `block[j * lanes + r]`): 8 x 8 tiles through vector shuffles.
template <typename T>
void linesToBlock(const T *lines, int64_t stride, int64_t rows, int64_t count,
                  T *block, int64_t lanes);

/// The inverse of linesToBlock, times `scale`.
template <typename T>
void blockToLines(const T *block, int64_t lanes, int64_t rows, int64_t count,
                  T *lines, int64_t stride, T scale);

/// (xr, xi) *= (yr, yi) point by point, over `count` points of `lanes`
/// lanes (the second operand one value a point).
template <typename T>
void multiplyPoints(int64_t count, int64_t lanes, T *xr, T *xi, const T *yr,
                    const T *yi);

/// Transforms the block (re, im) of `lanes` transforms in place (unscaled);
/// `work` holds plan.scratch(lanes) values.
template <typename T>
void transform(const Plan<T> &plan, int64_t lanes, T *re, T *im, T *work);

} // namespace mlir::stablehlo_tvm::python::fft

#endif // STABLEHLO_TVM_PYTHON_FFTKERNELS_H
