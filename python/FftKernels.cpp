//===- FftKernels.cpp - Batched split-complex Fourier transforms ----------===//
//
// See FftKernels.h. One step of radix p over a transform of length
// n = p m, as V-lane blocks of `width` = s V values (s: the product of the
// radices before it, the number of interleaved subtransforms):
//
//   y[(p j + k) width + w] = w_n^(j k) sum_t x[(j + m t) width + w] w_p^(t k)
//
// for j < m, k < p; the next step sees length m and width p * width, and the
// last one leaves the transform in natural order.
//
//===----------------------------------------------------------------------===//

#include "FftKernels.h"

#include "stablehlo-tvm/Support/WideFourier.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <map>
#include <mutex>
#include <utility>

namespace mlir::stablehlo_tvm::python::fft {
namespace {

/// The radices of n in step order: 4s first, then 2, 3 and odd primes; empty
/// when a prime factor exceeds kLargestRadix.
std::vector<int64_t> radicesOf(int64_t n) {
  std::vector<int64_t> radices;
  while (n % 4 == 0) {
    radices.push_back(4);
    n /= 4;
  }
  if (n % 2 == 0) {
    radices.push_back(2);
    n /= 2;
  }
  for (int64_t p = 3; p <= kLargestRadix && n > 1; p += 2)
    while (n % p == 0) {
      radices.push_back(p);
      n /= p;
    }
  if (n > 1)
    radices.clear();
  return radices;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
// The steps are compiled for each vector width; the loader picks one.
#define FFT_CLONES                                                             \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define FFT_CLONES
#endif
#define FFT_INLINE __attribute__((always_inline)) inline

template <typename T> struct Lanes {
  const T *__restrict xr;
  const T *__restrict xi;
  T *__restrict yr;
  T *__restrict yi;
};

template <typename T>
FFT_INLINE void radix2(const Stage<T> &s, int64_t width, Lanes<T> z) {
  int64_t m = s.m;
  for (int64_t j = 0; j < m; ++j) {
    T wr = s.twiddleRe[j], wi = s.twiddleIm[j];
    const T *ar = z.xr + j * width, *ai = z.xi + j * width;
    const T *br = ar + m * width, *bi = ai + m * width;
    T *y0r = z.yr + 2 * j * width, *y0i = z.yi + 2 * j * width;
    T *y1r = y0r + width, *y1i = y0i + width;
#pragma GCC ivdep
    for (int64_t w = 0; w < width; ++w) {
      T dr = ar[w] - br[w], di = ai[w] - bi[w];
      y0r[w] = ar[w] + br[w];
      y0i[w] = ai[w] + bi[w];
      y1r[w] = dr * wr - di * wi;
      y1i[w] = dr * wi + di * wr;
    }
  }
}

template <typename T>
FFT_INLINE void radix4(const Stage<T> &s, int64_t width, Lanes<T> z,
                       int sign) {
  int64_t m = s.m;
  T sg = static_cast<T>(sign);
  for (int64_t j = 0; j < m; ++j) {
    const T *tr = &s.twiddleRe[3 * j], *ti = &s.twiddleIm[3 * j];
    T w1r = tr[0], w1i = ti[0], w2r = tr[1], w2i = ti[1], w3r = tr[2],
      w3i = ti[2];
    const T *a0r = z.xr + j * width, *a0i = z.xi + j * width;
    const T *a1r = a0r + m * width, *a1i = a0i + m * width;
    const T *a2r = a1r + m * width, *a2i = a1i + m * width;
    const T *a3r = a2r + m * width, *a3i = a2i + m * width;
    T *y0r = z.yr + 4 * j * width, *y0i = z.yi + 4 * j * width;
    T *y1r = y0r + width, *y1i = y0i + width;
    T *y2r = y1r + width, *y2i = y1i + width;
    T *y3r = y2r + width, *y3i = y2i + width;
#pragma GCC ivdep
    for (int64_t w = 0; w < width; ++w) {
      T t0r = a0r[w] + a2r[w], t0i = a0i[w] + a2i[w];
      T t1r = a0r[w] - a2r[w], t1i = a0i[w] - a2i[w];
      T t2r = a1r[w] + a3r[w], t2i = a1i[w] + a3i[w];
      T t3r = a1r[w] - a3r[w], t3i = a1i[w] - a3i[w];
      // w_4^k = (sign i)^k: Y1 = t1 + sign i t3, Y3 = t1 - sign i t3.
      T b1r = t1r - sg * t3i, b1i = t1i + sg * t3r;
      T b2r = t0r - t2r, b2i = t0i - t2i;
      T b3r = t1r + sg * t3i, b3i = t1i - sg * t3r;
      y0r[w] = t0r + t2r;
      y0i[w] = t0i + t2i;
      y1r[w] = b1r * w1r - b1i * w1i;
      y1i[w] = b1r * w1i + b1i * w1r;
      y2r[w] = b2r * w2r - b2i * w2i;
      y2i[w] = b2r * w2i + b2i * w2r;
      y3r[w] = b3r * w3r - b3i * w3i;
      y3i[w] = b3r * w3i + b3i * w3r;
    }
  }
}

template <typename T>
FFT_INLINE void radix3(const Stage<T> &s, int64_t width, Lanes<T> z,
                       int sign) {
  int64_t m = s.m;
  // w_3 = -1/2 + sign i sqrt(3)/2.
  T half = static_cast<T>(0.5);
  T h = static_cast<T>(sign * 0.86602540378443864676372317075293618L);
  for (int64_t j = 0; j < m; ++j) {
    const T *tr = &s.twiddleRe[2 * j], *ti = &s.twiddleIm[2 * j];
    T w1r = tr[0], w1i = ti[0], w2r = tr[1], w2i = ti[1];
    const T *a0r = z.xr + j * width, *a0i = z.xi + j * width;
    const T *a1r = a0r + m * width, *a1i = a0i + m * width;
    const T *a2r = a1r + m * width, *a2i = a1i + m * width;
    T *y0r = z.yr + 3 * j * width, *y0i = z.yi + 3 * j * width;
    T *y1r = y0r + width, *y1i = y0i + width;
    T *y2r = y1r + width, *y2i = y1i + width;
#pragma GCC ivdep
    for (int64_t w = 0; w < width; ++w) {
      T ur = a1r[w] + a2r[w], ui = a1i[w] + a2i[w];
      T vr = a1r[w] - a2r[w], vi = a1i[w] - a2i[w];
      T cr = a0r[w] - half * ur, ci = a0i[w] - half * ui;
      // Y1 = c + i h v, Y2 = c - i h v.
      T b1r = cr - h * vi, b1i = ci + h * vr;
      T b2r = cr + h * vi, b2i = ci - h * vr;
      y0r[w] = a0r[w] + ur;
      y0i[w] = a0i[w] + ui;
      y1r[w] = b1r * w1r - b1i * w1i;
      y1i[w] = b1r * w1i + b1i * w1r;
      y2r[w] = b2r * w2r - b2i * w2i;
      y2i[w] = b2r * w2i + b2i * w2r;
    }
  }
}

/// An odd radix p: Y_k = a_0 + sum over t <= (p-1)/2 of
/// (a_t + a_(p-t)) cos(2 pi t k / p) + i (a_t - a_(p-t)) sign sin(...),
/// `chunk` lanes at a time, each output summed in registers (a
/// read-modify-write of the output per term made radix 53 40x slower a
/// point than radix 4).
template <typename T, int64_t Chunk>
FFT_INLINE void radixOddChunk(const Stage<T> &s, int64_t width, Lanes<T> z,
                              int64_t j, int64_t w0, int64_t chunk) {
  int64_t m = s.m, p = s.radix, half = (p - 1) / 2;
  const T *ar = z.xr + j * width + w0, *ai = z.xi + j * width + w0;
  for (int64_t k = 0; k < p; ++k) {
    T accR[Chunk], accI[Chunk];
    for (int64_t v = 0; v < chunk; ++v) {
      accR[v] = ar[v];
      accI[v] = ai[v];
    }
    for (int64_t t = 1; t <= half; ++t) {
      T c = s.rootRe[(t * k) % p], sn = s.rootIm[(t * k) % p];
      const T *br = ar + t * m * width, *bi = ai + t * m * width;
      const T *cr = ar + (p - t) * m * width, *ci = ai + (p - t) * m * width;
      for (int64_t v = 0; v < chunk; ++v) {
        accR[v] += (br[v] + cr[v]) * c - (bi[v] - ci[v]) * sn;
        accI[v] += (bi[v] + ci[v]) * c + (br[v] - cr[v]) * sn;
      }
    }
    T *yr = z.yr + (p * j + k) * width + w0, *yi = z.yi + (p * j + k) * width + w0;
    T wr = k ? s.twiddleRe[(p - 1) * j + k - 1] : T(1);
    T wi = k ? s.twiddleIm[(p - 1) * j + k - 1] : T(0);
    for (int64_t v = 0; v < chunk; ++v) {
      yr[v] = accR[v] * wr - accI[v] * wi;
      yi[v] = accR[v] * wi + accI[v] * wr;
    }
  }
}

template <typename T>
FFT_INLINE void radixOdd(const Stage<T> &s, int64_t width, Lanes<T> z) {
  constexpr int64_t kChunk = 64 / sizeof(T);
  for (int64_t j = 0; j < s.m; ++j) {
    int64_t w0 = 0;
    for (; w0 + kChunk <= width; w0 += kChunk)
      radixOddChunk<T, kChunk>(s, width, z, j, w0, kChunk);
    if (w0 < width)
      radixOddChunk<T, kChunk>(s, width, z, j, w0, width - w0);
  }
}

template <typename T>
FFT_INLINE void stepOf(const Stage<T> &s, int64_t width, Lanes<T> z,
                       int sign) {
  switch (s.radix) {
  case 2:
    return radix2(s, width, z);
  case 3:
    return radix3(s, width, z, sign);
  case 4:
    return radix4(s, width, z, sign);
  default:
    return radixOdd(s, width, z);
  }
}

FFT_CLONES void step(const Stage<float> &s, int64_t width, Lanes<float> z,
                     int sign) {
  stepOf(s, width, z, sign);
}
FFT_CLONES void step(const Stage<double> &s, int64_t width, Lanes<double> z,
                     int sign) {
  stepOf(s, width, z, sign);
}

/// (xr, xi) *= (yr, yi) lane by lane, point by point: `count` points of
/// `lanes` lanes, the second operand one value a point.
template <typename T>
FFT_INLINE void scalePointsOf(int64_t count, int64_t lanes, T *__restrict xr,
                              T *__restrict xi, const T *yr, const T *yi) {
  if (lanes == 1) {
#pragma GCC ivdep
    for (int64_t j = 0; j < count; ++j) {
      T ar = xr[j], ai = xi[j];
      xr[j] = ar * yr[j] - ai * yi[j];
      xi[j] = ar * yi[j] + ai * yr[j];
    }
    return;
  }
  for (int64_t j = 0; j < count; ++j) {
    T cr = yr[j], ci = yi[j];
    T *pr = xr + j * lanes, *pi = xi + j * lanes;
#pragma GCC ivdep
    for (int64_t v = 0; v < lanes; ++v) {
      T ar = pr[v], ai = pi[v];
      pr[v] = ar * cr - ai * ci;
      pi[v] = ar * ci + ai * cr;
    }
  }
}
FFT_CLONES void scalePoints(int64_t count, int64_t lanes, float *xr, float *xi,
                            const float *yr, const float *yi) {
  scalePointsOf(count, lanes, xr, xi, yr, yi);
}
FFT_CLONES void scalePoints(int64_t count, int64_t lanes, double *xr,
                            double *xi, const double *yr, const double *yi) {
  scalePointsOf(count, lanes, xr, xi, yr, yi);
}

/// Eight values of T as one vector.
template <typename T> struct Vector8;
template <> struct Vector8<float> {
  typedef float type __attribute__((vector_size(32)));
};
template <> struct Vector8<double> {
  typedef double type __attribute__((vector_size(64)));
};

/// The 8 x 8 tile at `from` (rows `fromStride` apart) transposed to `to`
/// (rows `toStride` apart), times `scale`: pairs of rows interleaved, then
/// pairs of pairs, then halves.
template <typename T>
FFT_INLINE void tile(const T *from, int64_t fromStride, T *to,
                     int64_t toStride, T scale) {
  using V = typename Vector8<T>::type;
  V r[8], t[8], u[8];
  for (int i = 0; i < 8; ++i)
    __builtin_memcpy(&r[i], from + i * fromStride, sizeof(V));
  for (int i = 0; i < 8; i += 2) {
    t[i] = __builtin_shufflevector(r[i], r[i + 1], 0, 8, 1, 9, 4, 12, 5, 13);
    t[i + 1] =
        __builtin_shufflevector(r[i], r[i + 1], 2, 10, 3, 11, 6, 14, 7, 15);
  }
  for (int i = 0; i < 8; i += 4)
    for (int k = 0; k < 2; ++k) {
      u[i + 2 * k] =
          __builtin_shufflevector(t[i + k], t[i + k + 2], 0, 1, 8, 9, 4, 5, 12, 13);
      u[i + 2 * k + 1] = __builtin_shufflevector(t[i + k], t[i + k + 2], 2, 3,
                                                 10, 11, 6, 7, 14, 15);
    }
  for (int k = 0; k < 4; ++k) {
    V low = __builtin_shufflevector(u[k], u[k + 4], 0, 1, 2, 3, 8, 9, 10, 11) *
            scale;
    V high =
        __builtin_shufflevector(u[k], u[k + 4], 4, 5, 6, 7, 12, 13, 14, 15) *
        scale;
    __builtin_memcpy(to + k * toStride, &low, sizeof(V));
    __builtin_memcpy(to + (k + 4) * toStride, &high, sizeof(V));
  }
}

/// The `rows` x `count` matrix at `from` (rows `fromStride` apart)
/// transposed to `to` (rows `toStride` apart), times `scale`.
template <typename T>
FFT_INLINE void transposeOf(const T *from, int64_t fromStride, int64_t rows,
                            int64_t count, T *to, int64_t toStride, T scale) {
  int64_t fullRows = rows - rows % 8, fullCount = count - count % 8;
  for (int64_t r = 0; r < fullRows; r += 8)
    for (int64_t j = 0; j < fullCount; j += 8)
      tile(from + r * fromStride + j, fromStride, to + j * toStride + r,
           toStride, scale);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = r < fullRows ? fullCount : 0; j < count; ++j)
      to[j * toStride + r] = from[r * fromStride + j] * scale;
}

FFT_CLONES void transpose(const float *from, int64_t fromStride, int64_t rows,
                          int64_t count, float *to, int64_t toStride,
                          float scale) {
  transposeOf(from, fromStride, rows, count, to, toStride, scale);
}
FFT_CLONES void transpose(const double *from, int64_t fromStride, int64_t rows,
                          int64_t count, double *to, int64_t toStride,
                          double scale) {
  transposeOf(from, fromStride, rows, count, to, toStride, scale);
}

template <typename T> std::unique_ptr<Plan<T>> makePlan(int64_t n, int sign) {
  auto plan = std::make_unique<Plan<T>>();
  plan->n = n;
  plan->sign = sign;
  std::vector<int64_t> radices = radicesOf(n);
  if (radices.empty() && n > 1) {
    int64_t size = 1;
    while (size < 2 * n - 1)
      size *= 2;
    plan->convolution = makePlan<T>(size, -1);
    plan->inverseConvolution = makePlan<T>(size, 1);
    std::vector<Wide> kernel(size);
    for (int64_t t = 0; t < n; ++t) {
      // b[t] = e^(sign pi i t^2 / n) = cis(sign, t^2 mod 2n, 2n).
      Wide b = cis(sign, (t * t) % (2 * n), 2 * n);
      plan->chirpRe.push_back(static_cast<T>(b.real()));
      plan->chirpIm.push_back(static_cast<T>(b.imag()));
      kernel[t] = std::conj(b);
      if (t > 0)
        kernel[size - t] = std::conj(b);
    }
    wideRadix2(kernel, -1);
    for (Wide k : kernel) {
      plan->kernelRe.push_back(static_cast<T>(k.real() / size));
      plan->kernelIm.push_back(static_cast<T>(k.imag() / size));
    }
    return plan;
  }
  int64_t split = 1;
  for (int64_t d = 16; d * d <= n; ++d)
    if (n % d == 0)
      split = d;
  if (n >= kSplitLength && split > 1) {
    int64_t n2 = n / split;
    plan->columns = makePlan<T>(split, sign);
    plan->rows = makePlan<T>(n2, sign);
    for (int64_t k1 = 0; k1 < split; ++k1)
      for (int64_t j2 = 0; j2 < n2; ++j2) {
        Wide w = cis(sign, k1 * j2, n);
        plan->splitRe.push_back(static_cast<T>(w.real()));
        plan->splitIm.push_back(static_cast<T>(w.imag()));
      }
  }
  int64_t length = n;
  for (int64_t p : radices) {
    Stage<T> s;
    s.radix = p;
    s.m = length / p;
    for (int64_t j = 0; j < s.m; ++j)
      for (int64_t k = 1; k < p; ++k) {
        Wide w = cis(sign, j * k, length);
        s.twiddleRe.push_back(static_cast<T>(w.real()));
        s.twiddleIm.push_back(static_cast<T>(w.imag()));
      }
    for (int64_t t = 0; t < p; ++t) {
      Wide w = cis(sign, t, p);
      s.rootRe.push_back(static_cast<T>(w.real()));
      s.rootIm.push_back(static_cast<T>(w.imag()));
    }
    plan->stages.push_back(std::move(s));
    length /= p;
  }
  return plan;
}

} // namespace

template <typename T> const Plan<T> &Plan<T>::get(int64_t n, int sign) {
  static std::mutex mutex;
  static std::map<std::pair<int64_t, int>, std::unique_ptr<Plan<T>>> plans;
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<Plan<T>> &plan = plans[{n, sign}];
  if (!plan)
    plan = makePlan<T>(n, sign);
  return *plan;
}

template <typename T> int64_t Plan<T>::scratch(int64_t lanes) const {
  if (convolution)
    return 2 * convolution->n * lanes + convolution->scratch(lanes);
  return 2 * n * lanes;
}


template <typename T>
void transform(const Plan<T> &plan, int64_t lanes, T *re, T *im, T *work) {
  int64_t n = plan.n;
  if (plan.convolution) {
    int64_t size = plan.convolution->n;
    T *ar = work, *ai = work + size * lanes, *rest = work + 2 * size * lanes;
    for (int64_t t = 0; t < size * lanes; ++t)
      ar[t] = ai[t] = 0;
    for (int64_t t = 0; t < n * lanes; ++t) {
      ar[t] = re[t];
      ai[t] = im[t];
    }
    scalePoints(n, lanes, ar, ai, plan.chirpRe.data(), plan.chirpIm.data());
    transform(*plan.convolution, lanes, ar, ai, rest);
    scalePoints(size, lanes, ar, ai, plan.kernelRe.data(), plan.kernelIm.data());
    transform(*plan.inverseConvolution, lanes, ar, ai, rest);
    for (int64_t t = 0; t < n * lanes; ++t) {
      re[t] = ar[t];
      im[t] = ai[t];
    }
    scalePoints(n, lanes, re, im, plan.chirpRe.data(), plan.chirpIm.data());
    return;
  }
  T *xr = re, *xi = im, *yr = work, *yi = work + n * lanes;
  int64_t width = lanes;
  for (const Stage<T> &s : plan.stages) {
    step(s, width, Lanes<T>{xr, xi, yr, yi}, plan.sign);
    std::swap(xr, yr);
    std::swap(xi, yi);
    width *= s.radix;
  }
  if (xr != re)
    for (int64_t t = 0; t < n * lanes; ++t) {
      re[t] = xr[t];
      im[t] = xi[t];
    }
}

template <typename T>
void linesToBlock(const T *lines, int64_t stride, int64_t rows, int64_t count,
                  T *block, int64_t lanes) {
  transpose(lines, stride, rows, count, block, lanes, T(1));
}

template <typename T>
void blockToLines(const T *block, int64_t lanes, int64_t rows, int64_t count,
                  T *lines, int64_t stride, T scale) {
  transpose(block, lanes, count, rows, lines, stride, scale);
}

template <typename T>
void multiplyPoints(int64_t count, int64_t lanes, T *xr, T *xi, const T *yr,
                    const T *yi) {
  scalePoints(count, lanes, xr, xi, yr, yi);
}

template struct Plan<float>;
template struct Plan<double>;
template void transform(const Plan<float> &, int64_t, float *, float *,
                        float *);
template void transform(const Plan<double> &, int64_t, double *, double *,
                        double *);
template void multiplyPoints(int64_t, int64_t, float *, float *,
                             const float *, const float *);
template void multiplyPoints(int64_t, int64_t, double *, double *,
                             const double *, const double *);
template void linesToBlock(const float *, int64_t, int64_t, int64_t, float *,
                           int64_t);
template void linesToBlock(const double *, int64_t, int64_t, int64_t,
                           double *, int64_t);
template void blockToLines(const float *, int64_t, int64_t, int64_t, float *,
                           int64_t, float);
template void blockToLines(const double *, int64_t, int64_t, int64_t,
                           double *, int64_t, double);

} // namespace mlir::stablehlo_tvm::python::fft
