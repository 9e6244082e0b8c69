//===- NativeFft.cpp - stablehlo.fft as a library call --------------------===//
//
// `stablehlo_tvm.fft(inputs..., fft_type, rank, outputs...)`: the transform
// of stablehlo.fft over the last `rank` axes, complex values as (real,
// imaginary) part tensors of f32 or f64 (stablehlo-lower-complex's form):
//   FFT, IFFT (types 0, 1): re, im -> re, im
//   RFFT (2):               x      -> re, im (last axis n/2 + 1 bins)
//   IRFFT (3):              re, im -> x      (last axis n points)
// IFFT and IRFFT scale by 1 / (the product of the lengths), as the spec's
// inverse does; IRFFT reads bins 0..n/2 as a Hermitian spectrum, the
// imaginary parts of bins 0 and n/2 ignored.
//
// Each axis is transformed in blocks of lanes (FftKernels.h): V lines
// along the axis are gathered into a block, transformed and scattered back.
// Real transforms take two lines a lane, one as the real and one as the
// imaginary part, and separate their spectra by symmetry.
//
//===----------------------------------------------------------------------===//

#include "NativeFft.h"
#include "ParallelLaunch.h"

#include "FftKernels.h"

#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>

#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace mlir::stablehlo_tvm::python {
namespace {

namespace ffi = tvm::ffi;
using fft::Plan;

enum FftType : int64_t { kFft = 0, kIfft = 1, kRfft = 2, kIrfft = 3 };

/// Lanes a block: 64 bytes of each part.
template <typename T> constexpr int64_t kLanes = 64 / sizeof(T);

/// The lines along one axis of a row-major shape: `outer` x `inner` lines of
/// `n` points each `inner` apart.
struct Axis {
  int64_t outer = 1, n = 1, inner = 1;

  Axis(int64_t outer, int64_t n, int64_t inner)
      : outer(outer), n(n), inner(inner) {}
  Axis(const std::vector<int64_t> &shape, int64_t axis) {
    for (int64_t k = 0; k < axis; ++k)
      outer *= shape[k];
    n = shape[axis];
    for (size_t k = axis + 1; k < shape.size(); ++k)
      inner *= shape[k];
  }
  int64_t lines() const { return outer * inner; }
  int64_t start(int64_t line) const {
    return (line / inner) * n * inner + line % inner;
  }
};

/// Copies `count` points of the lines starting at `starts` (`stride`
/// apart) into lanes 0..used-1 of a block of `lanes` lanes.
template <typename T>
void gather(const T *from, T *block, const int64_t *starts, int64_t used,
            int64_t lanes, int64_t count, int64_t stride) {
  if (starts[used - 1] - starts[0] == used - 1) {
    // Side by side: a point of every line at a time.
    for (int64_t j = 0; j < count; ++j)
      std::copy_n(from + starts[0] + j * stride, used, block + j * lanes);
    return;
  }
  if (stride == 1) {
    // Whole lines (evenly spaced, the last axis): tile transposes.
    fft::linesToBlock(from + starts[0], starts[1] - starts[0], used, count,
                      block, lanes);
    return;
  }
  for (int64_t v = 0; v < used; ++v)
    for (int64_t j = 0; j < count; ++j)
      block[j * lanes + v] = from[starts[v] + j * stride];
}

/// The inverse of gather, times `scale`.
template <typename T>
void scatter(const T *block, T *to, const int64_t *starts, int64_t used,
             int64_t lanes, int64_t count, int64_t stride, T scale) {
  if (starts[used - 1] - starts[0] == used - 1) {
    for (int64_t j = 0; j < count; ++j) {
      const T *row = block + j * lanes;
      T *out = to + starts[0] + j * stride;
      for (int64_t v = 0; v < used; ++v)
        out[v] = row[v] * scale;
    }
    return;
  }
  if (stride == 1) {
    fft::blockToLines(block, lanes, used, count, to + starts[0],
                      starts[1] - starts[0], scale);
    return;
  }
  for (int64_t v = 0; v < used; ++v)
    for (int64_t j = 0; j < count; ++j)
      to[starts[v] + j * stride] = block[j * lanes + v] * scale;
}

/// A block of `lanes` lanes of n points (re, im), its transform's scratch
/// and `extra` more values, kept by each thread across calls: fresh pages
/// for every call cost more than the transform.
template <typename T> struct Block {
  T *re, *im, *work, *extra;

  Block(const Plan<T> &plan, int64_t lanes, int64_t extraValues = 0) {
    thread_local std::vector<T> memory;
    size_t size = 2 * plan.n * lanes + plan.scratch(lanes) + extraValues;
    if (memory.size() < size)
      memory.resize(size);
    re = memory.data();
    im = re + plan.n * lanes;
    work = im + plan.n * lanes;
    extra = work + plan.scratch(lanes);
  }
};

/// Transforms of at least this many points in all share TVM's threads.
constexpr int64_t kParallelPoints = 65536;

/// The kernels' own parallel-loop launcher (ParallelLaunch.h, the ABI of
/// TVM's c_backend_api.h), so that the transform's threads are theirs and
/// never compete with them.
struct ParallelGroupEnv {
  void *sync;
  int32_t tasks;
};
using ParallelLambda = int (*)(int task, ParallelGroupEnv *env, void *data);
using ParallelLaunch = int (*)(ParallelLambda lambda, void *data, int tasks);

/// Runs body(begin, end) over the blocks [0, count), split among TVM's
/// threads when `points` are worth waking them for.
template <typename F> void forBlocks(int64_t count, int64_t points, F &&body) {
  static const auto launch = [] {
    // STABLEHLO_TVM_PARALLEL_LAUNCH=tvm: TVM's, as for the kernels.
    const char *which = std::getenv("STABLEHLO_TVM_PARALLEL_LAUNCH");
    if (which && std::string_view(which) == "tvm")
      return reinterpret_cast<ParallelLaunch>(
          dlsym(RTLD_DEFAULT, "TVMBackendParallelLaunch"));
    return reinterpret_cast<ParallelLaunch>(parallelLaunchAddress());
  }();
  if (!launch || count < 2 || points < kParallelPoints) {
    body(int64_t(0), count);
    return;
  }
  struct Work {
    F *body;
    int64_t count;
  } work{&body, count};
  ParallelLambda lambda = [](int task, ParallelGroupEnv *env, void *data) {
    auto *w = static_cast<Work *>(data);
    int64_t begin = w->count * task / env->tasks,
            end = w->count * (task + 1) / env->tasks;
    if (begin < end)
      (*w->body)(begin, end);
    return 0;
  };
  if (launch(lambda, &work, 0) != 0)
    TVM_FFI_THROW(RuntimeError) << "stablehlo_tvm.fft: the thread pool failed";
}

template <typename T>
void complexAxis(const Axis &a, int sign, const T *sr, const T *si, T *dr,
                 T *di, T scale);

/// Few long lines (the last axis) in four steps (Plan::columns): a line as
/// an n1 x n2 matrix, its columns' transforms, the twiddle factors, its
/// rows' transforms and a transpose into place, each step on full blocks
/// that fit in cache.
template <typename T>
void fourSteps(const Axis &a, const Plan<T> &plan, const T *sr, const T *si,
               T *dr, T *di, T scale) {
  int64_t n1 = plan.columns->n, n2 = plan.rows->n, n = a.n;
  thread_local std::vector<T> memory;
  if (memory.size() < static_cast<size_t>(2 * n))
    memory.resize(2 * n);
  T *tr = memory.data(), *ti = tr + n;
  for (int64_t line = 0; line < a.lines(); ++line) {
    complexAxis(Axis(1, n1, n2), plan.sign, sr + line * n, si + line * n, tr,
                ti, T(1));
    fft::multiplyPoints(n, 1, tr, ti, plan.splitRe.data(),
                        plan.splitIm.data());
    complexAxis(Axis(n1, n2, 1), plan.sign, tr, ti, tr, ti, T(1));
    // Row k1, column k2 is X[k1 + n1 k2]: the n1 x n2 matrix transposed
    // (an n2-lane block of n1 points written out as n2 lines).
    fft::blockToLines(tr, n2, n2, n1, dr + line * n, n1, scale);
    fft::blockToLines(ti, n2, n2, n1, di + line * n, n1, scale);
  }
}

/// The complex transform along `axis` from (sr, si) into (dr, di) (which may
/// be the same), times `scale`.
template <typename T>
void complexAxis(const Axis &a, int sign, const T *sr, const T *si, T *dr,
                 T *di, T scale) {
  const Plan<T> &plan = Plan<T>::get(a.n, sign);
  if (plan.columns && a.inner == 1 && a.lines() < fft::kFewLanes)
    return fourSteps(a, plan, sr, si, dr, di, scale);
  int64_t lanes = std::min(kLanes<T>, a.lines());
  int64_t blocks = (a.lines() + lanes - 1) / lanes;
  forBlocks(blocks, a.lines() * a.n, [&](int64_t begin, int64_t end) {
    Block<T> block(plan, lanes);
    int64_t starts[kLanes<T>];
    int64_t last = std::min(end * lanes, a.lines());
    for (int64_t first = begin * lanes; first < last; first += lanes) {
      int64_t used = std::min(lanes, a.lines() - first);
      for (int64_t v = 0; v < used; ++v)
        starts[v] = a.start(first + v);
      gather(sr, block.re, starts, used, lanes, a.n, a.inner);
      gather(si, block.im, starts, used, lanes, a.n, a.inner);
      fft::transform(plan, lanes, block.re, block.im, block.work);
      scatter(block.re, dr, starts, used, lanes, a.n, a.inner, scale);
      scatter(block.im, di, starts, used, lanes, a.n, a.inner, scale);
    }
  });
}

/// Rows [first, first + pairs) of a real transform go in lanes as real
/// parts, the next `second` rows (at most `pairs`) as imaginary parts.
struct Pairing {
  int64_t first, pairs, second;

  Pairing(int64_t first, int64_t rows, int64_t lanes)
      : first(first), pairs(std::min(lanes, (rows - first + 1) / 2)),
        second(std::min(rows - first - pairs, pairs)) {}
};

/// Runs body(block, pairing, lanes, spectra) over the blocks of a real
/// transform of `rows` lines of n points along the last axis (two rows a
/// lane, see Pairing), shared among threads; `spectra` are four arrays of
/// n/2 + 1 bins x lanes beside the block: the two rows' parts.
template <typename T, typename F>
void forRowPairs(const Plan<T> &plan, int64_t rows, int64_t n, F &&body) {
  int64_t bins = n / 2 + 1;
  int64_t lanes = std::min(kLanes<T>, (rows + 1) / 2);
  int64_t blocks = (rows + 2 * lanes - 1) / (2 * lanes);
  forBlocks(blocks, rows * n, [&](int64_t begin, int64_t end) {
    Block<T> block(plan, lanes, 4 * bins * lanes);
    T *spectra[4];
    for (int k = 0; k < 4; ++k)
      spectra[k] = block.extra + k * bins * lanes;
    int64_t last = std::min(end * 2 * lanes, rows);
    for (int64_t first = begin * 2 * lanes; first < last; first += 2 * lanes)
      body(block, Pairing(first, rows, lanes), lanes, spectra);
  });
}

/// RFFT along the last axis: `rows` real lines of n points into rows of
/// n/2 + 1 bins. With Z the transform of a lane, rows a (its real part)
/// and b (its imaginary part) have X_a[k] = (Z[k] + conj Z[n-k]) / 2 and
/// X_b[k] = (Z[k] - conj Z[n-k]) / 2i.
template <typename T>
void realForward(int64_t rows, int64_t n, const T *x, T *dr, T *di) {
  const Plan<T> &plan = Plan<T>::get(n, -1);
  int64_t bins = n / 2 + 1;
  const T half = static_cast<T>(0.5);
  forRowPairs(plan, rows, n, [&](Block<T> &block, const Pairing &p,
                                 int64_t lanes, T *const *spectra) {
    T *re = block.re, *im = block.im;
    T *ar = spectra[0], *ai = spectra[1], *br = spectra[2], *bi = spectra[3];
    std::fill_n(im, n * lanes, T(0));
    fft::linesToBlock(x + p.first * n, n, p.pairs, n, re, lanes);
    if (p.second)
      fft::linesToBlock(x + (p.first + p.pairs) * n, n, p.second, n, im, lanes);
    fft::transform(plan, lanes, re, im, block.work);
    for (int64_t k = 0; k < bins; ++k) {
      const T *zr = re + k * lanes, *zi = im + k * lanes;
      const T *cr = re + ((n - k) % n) * lanes, *ci = im + ((n - k) % n) * lanes;
      for (int64_t v = 0; v < lanes; ++v) {
        ar[k * lanes + v] = half * (zr[v] + cr[v]);
        ai[k * lanes + v] = half * (zi[v] - ci[v]);
        br[k * lanes + v] = half * (zi[v] + ci[v]);
        bi[k * lanes + v] = half * (cr[v] - zr[v]);
      }
    }
    fft::blockToLines(ar, lanes, p.pairs, bins, dr + p.first * bins, bins, T(1));
    fft::blockToLines(ai, lanes, p.pairs, bins, di + p.first * bins, bins, T(1));
    if (!p.second)
      return;
    int64_t b = (p.first + p.pairs) * bins;
    fft::blockToLines(br, lanes, p.second, bins, dr + b, bins, T(1));
    fft::blockToLines(bi, lanes, p.second, bins, di + b, bins, T(1));
  });
}

/// IRFFT along the last axis: rows of n/2 + 1 bins (sr, si) into real
/// lines of n points, times `scale`. A lane's spectrum is X_a + i X_b for
/// its two rows a and b, each extended by Hermitian symmetry (the
/// imaginary parts of the bins that are their own conjugates dropped); the
/// inverse's real and imaginary parts are the two signals.
template <typename T>
void realInverse(int64_t rows, int64_t n, const T *sr, const T *si, T *x,
                 T scale) {
  const Plan<T> &plan = Plan<T>::get(n, 1);
  int64_t bins = n / 2 + 1;
  forRowPairs(plan, rows, n, [&](Block<T> &block, const Pairing &p,
                                 int64_t lanes, T *const *spectra) {
    T *re = block.re, *im = block.im;
    T *ar = spectra[0], *ai = spectra[1], *br = spectra[2], *bi = spectra[3];
    std::fill_n(br, 2 * bins * lanes, T(0));
    fft::linesToBlock(sr + p.first * bins, bins, p.pairs, bins, ar, lanes);
    fft::linesToBlock(si + p.first * bins, bins, p.pairs, bins, ai, lanes);
    if (p.second) {
      int64_t b = (p.first + p.pairs) * bins;
      fft::linesToBlock(sr + b, bins, p.second, bins, br, lanes);
      fft::linesToBlock(si + b, bins, p.second, bins, bi, lanes);
    }
    for (int64_t k = 0; k < n; ++k) {
      bool mirrored = k >= bins, selfConjugate = k == 0 || 2 * k == n;
      int64_t at = (mirrored ? n - k : k) * lanes;
      T sign = selfConjugate ? T(0) : mirrored ? T(-1) : T(1);
      for (int64_t v = 0; v < lanes; ++v) {
        // Z = X_a + i X_b.
        re[k * lanes + v] = ar[at + v] - sign * bi[at + v];
        im[k * lanes + v] = sign * ai[at + v] + br[at + v];
      }
    }
    fft::transform(plan, lanes, re, im, block.work);
    fft::blockToLines(re, lanes, p.pairs, n, x + p.first * n, n, scale);
    if (p.second)
      fft::blockToLines(im, lanes, p.second, n, x + (p.first + p.pairs) * n,
                        n, scale);
  });
}

std::vector<int64_t> shapeOf(const ffi::TensorView &t) {
  return std::vector<int64_t>(t.shape().begin(), t.shape().end());
}

template <typename T> T *data(const ffi::TensorView &t) {
  return reinterpret_cast<T *>(static_cast<char *>(t.data_ptr()) +
                               t.byte_offset());
}

int64_t product(const std::vector<int64_t> &shape, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t k = from; k < to; ++k)
    p *= shape[k];
  return p;
}

template <typename T>
void run(FftType type, int64_t rank, const std::vector<ffi::TensorView> &in,
         const std::vector<ffi::TensorView> &out) {
  std::vector<int64_t> inShape = shapeOf(in[0]), outShape = shapeOf(out[0]);
  int64_t dims = static_cast<int64_t>(inShape.size()), first = dims - rank;
  if (product(inShape, 0, dims) == 0 || product(outShape, 0, dims) == 0) {
    // No input points: every output is an empty sum.
    for (const ffi::TensorView &t : out)
      std::fill_n(data<T>(t), product(outShape, 0, dims), T(0));
    return;
  }
  switch (type) {
  case kFft:
  case kIfft: {
    int sign = type == kFft ? -1 : 1;
    const T *sr = data<T>(in[0]), *si = data<T>(in[1]);
    T *dr = data<T>(out[0]), *di = data<T>(out[1]);
    for (int64_t axis = first; axis < dims; ++axis) {
      Axis a(outShape, axis);
      T scale = type == kIfft ? T(1) / static_cast<T>(a.n) : T(1);
      complexAxis(a, sign, sr, si, dr, di, scale);
      sr = dr;
      si = di;
    }
    return;
  }
  case kRfft: {
    int64_t n = inShape.back();
    T *dr = data<T>(out[0]), *di = data<T>(out[1]);
    realForward(product(inShape, 0, dims - 1), n, data<T>(in[0]), dr, di);
    for (int64_t axis = first; axis < dims - 1; ++axis)
      complexAxis(Axis(outShape, axis), -1, dr, di, dr, di, T(1));
    return;
  }
  case kIrfft: {
    int64_t n = outShape.back();
    const T *sr = data<T>(in[0]), *si = data<T>(in[1]);
    std::vector<T> tr, ti;
    if (rank > 1) {
      int64_t count = product(inShape, 0, dims);
      tr.resize(count);
      ti.resize(count);
      for (int64_t axis = first; axis < dims - 1; ++axis) {
        Axis a(inShape, axis);
        complexAxis(a, 1, sr, si, tr.data(), ti.data(),
                    T(1) / static_cast<T>(a.n));
        sr = tr.data();
        si = ti.data();
      }
    }
    realInverse(product(inShape, 0, dims - 1), n, sr, si, data<T>(out[0]),
                T(1) / static_cast<T>(n));
    return;
  }
  }
}

/// Checks the call's tensors against stablehlo.fft's typing rules.
void check(FftType type, int64_t rank, const std::vector<ffi::TensorView> &in,
           const std::vector<ffi::TensorView> &out) {
  DLDataType element = in[0].dtype();
  auto fail = [](const char *why) {
    TVM_FFI_THROW(ValueError) << "stablehlo_tvm.fft: " << why;
  };
  if (element.code != kDLFloat || element.lanes != 1 ||
      (element.bits != 32 && element.bits != 64))
    fail("parts must be float32 or float64");
  std::vector<int64_t> inShape = shapeOf(in[0]), outShape = shapeOf(out[0]);
  int64_t dims = static_cast<int64_t>(inShape.size());
  if (rank < 1 || rank > dims || outShape.size() != inShape.size())
    fail("the transform's rank does not fit the operand");
  for (const auto *group : {&in, &out})
    for (const ffi::TensorView &t : *group) {
      DLDataType e = t.dtype();
      if (e.code != element.code || e.bits != element.bits ||
          e.lanes != element.lanes || t.device().device_type != kDLCPU ||
          !t.IsContiguous() || shapeOf(t) != shapeOf((*group)[0]))
        fail("parts must be compact CPU tensors of one type and shape");
    }
  for (int64_t k = 0; k + 1 < dims; ++k)
    if (inShape[k] != outShape[k])
      fail("operand and result shapes differ");
  int64_t last = inShape.back(), lastOut = outShape.back();
  bool fits = type == kRfft    ? lastOut == last / 2 + 1
              : type == kIrfft ? last == lastOut / 2 + 1
                               : last == lastOut;
  if (!fits)
    fail("the last axis does not match the transform's length");
}

void call(ffi::PackedArgs args) {
  // Tensor counts by type: inputs, outputs.
  static const int kInputs[] = {2, 2, 1, 2}, kOutputs[] = {2, 2, 2, 1};
  int64_t type = -1, rank = 0;
  for (int inputs : {1, 2}) {
    auto t = args.size() > inputs ? args[inputs].try_cast<int64_t>() : std::nullopt;
    auto r = args.size() > inputs + 1 ? args[inputs + 1].try_cast<int64_t>()
                                      : std::nullopt;
    if (t && r && *t >= 0 && *t <= 3 && kInputs[*t] == inputs) {
      type = *t;
      rank = *r;
      break;
    }
  }
  if (type < 0 || args.size() != kInputs[type] + 2 + kOutputs[type])
    TVM_FFI_THROW(ValueError)
        << "stablehlo_tvm.fft expects (inputs..., fft_type, rank, outputs...)";
  std::vector<ffi::TensorView> in, out;
  for (int k = 0; k < args.size(); ++k) {
    if (k == kInputs[type] || k == kInputs[type] + 1)
      continue;
    auto view = args[k].try_cast<ffi::TensorView>();
    if (!view)
      TVM_FFI_THROW(TypeError) << "stablehlo_tvm.fft: argument " << k
                               << " is not a tensor";
    (k < kInputs[type] ? in : out).push_back(*view);
  }
  auto fftType = static_cast<FftType>(type);
  check(fftType, rank, in, out);
  if (in[0].dtype().bits == 32)
    run<float>(fftType, rank, in, out);
  else
    run<double>(fftType, rank, in, out);
}

} // namespace

void registerNativeFft() {
  ffi::Function::SetGlobal(
      "stablehlo_tvm.fft",
      ffi::Function::FromPacked([](ffi::PackedArgs args, ffi::Any *) {
        call(args);
      }),
      /*override=*/true);
}

} // namespace mlir::stablehlo_tvm::python
