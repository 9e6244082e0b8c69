//===- DecomposeFft.cpp - Fourier transforms as products ------------------===//
//
// stablehlo.fft becomes complex stablehlo ops (products with constant
// matrices, elementwise twiddle factors, reshapes and transposes) that
// stablehlo-lower-complex then splits into real ones. A short transform is
// one product with its DFT matrix. A composite length N = N1 N2 is the
// four-step Cooley-Tukey factorization: N1-point transforms, twiddle
// factors, N2-point transforms and one transpose, recursively, so the work
// is N (N1 + N2) instead of N^2 and the constants are N values instead of
// N^2. A long prime length is Bluestein's chirp: a cyclic convolution
// through power-of-two transforms. Constants are computed in extended
// precision and rounded once.
//
//===----------------------------------------------------------------------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"
#include "stablehlo-tvm/Support/LibraryFft.h"
#include "stablehlo-tvm/Support/WideFourier.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <cmath>
#include <complex>

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_DECOMPOSEFFT
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {


/// Lengths up to this are one product with the DFT matrix: below it the
/// extra passes of the four-step cost more than they save.
constexpr int64_t kDirectLength = 64;
/// A leading axis up to this is one product: the four-step would move it
/// last and back first, and gained nothing on 128 x 128 transforms while
/// building twice as long.
constexpr int64_t kDirectLeadingLength = 256;
/// Prime lengths up to this are one product too (an N x N matrix); longer
/// ones go through Bluestein's convolution.
constexpr int64_t kDirectPrimeLength = 1024;

/// The largest divisor of n that is at most sqrt(n) (1 when n is prime).
int64_t balancedFactor(int64_t n) {
  int64_t best = 1;
  for (int64_t d = 2; d * d <= n; ++d)
    if (n % d == 0)
      best = d;
  return best;
}

/// Builds the transforms of one fft op, whose parts are `part` (f32/f64).
struct FourierBuilder {
  OpBuilder &b;
  Location loc;
  FloatType part;

  ComplexType complexType() const { return ComplexType::get(part); }

  RankedTensorType tensorOf(ArrayRef<int64_t> shape, Type element) const {
    return RankedTensorType::get(shape, element);
  }
  static ArrayRef<int64_t> shapeOf(Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  }

  APFloat round(long double value) const {
    APFloat rounded(static_cast<double>(value));
    bool lost;
    rounded.convert(part.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &lost);
    return rounded;
  }

  /// A complex constant of `shape` whose element at flat position i is
  /// entry(i).
  Value complexConstant(ArrayRef<int64_t> shape,
                        llvm::function_ref<Wide(int64_t)> entry) {
    auto type = tensorOf(shape, complexType());
    SmallVector<std::complex<APFloat>> values;
    values.reserve(type.getNumElements());
    for (int64_t i = 0; i < type.getNumElements(); ++i) {
      Wide value = entry(i);
      values.emplace_back(round(value.real()), round(value.imag()));
    }
    return stablehlo::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, ArrayRef(values)));
  }

  /// A real constant (element type `part`) of `shape`.
  Value realConstant(ArrayRef<int64_t> shape,
                     llvm::function_ref<long double(int64_t)> entry) {
    auto type = tensorOf(shape, part);
    SmallVector<APFloat> values;
    values.reserve(type.getNumElements());
    for (int64_t i = 0; i < type.getNumElements(); ++i)
      values.push_back(round(entry(i)));
    return stablehlo::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, values));
  }

  /// x contracted along `axis` with the rows of matrix m; the new axis is
  /// last, the others keep their order.
  Value product(Value x, int64_t axis, Value m) {
    SmallVector<int64_t> shape;
    for (auto [d, size] : llvm::enumerate(shapeOf(x)))
      if (static_cast<int64_t>(d) != axis)
        shape.push_back(size);
    shape.push_back(shapeOf(m)[1]);
    Type element = cast<RankedTensorType>(m.getType()).getElementType();
    if (isa<ComplexType>(getElementTypeOrSelf(x.getType())))
      element = complexType();
    auto dims = stablehlo::DotDimensionNumbersAttr::get(b.getContext(), {}, {},
                                                        {axis}, {0});
    auto dot = stablehlo::DotGeneralOp::create(
        b, loc, tensorOf(shape, element), x, m, dims, nullptr, nullptr);
    dot->setAttr(tvm::TVMDialect::DftProductAttrHelper::getNameStr(),
                 b.getUnitAttr());
    return dot;
  }

  Value transpose(Value x, ArrayRef<int64_t> perm) {
    SmallVector<int64_t> shape;
    for (int64_t d : perm)
      shape.push_back(shapeOf(x)[d]);
    return stablehlo::TransposeOp::create(
        b, loc, cast<RankedTensorType>(x.getType()).clone(shape), x,
        b.getDenseI64ArrayAttr(perm));
  }

  /// The permutation exchanging axes a and c.
  static SmallVector<int64_t> swapping(int64_t rank, int64_t a, int64_t c) {
    SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    std::swap(perm[a], perm[c]);
    return perm;
  }

  Value reshape(Value x, ArrayRef<int64_t> shape) {
    return stablehlo::ReshapeOp::create(
        b, loc, cast<RankedTensorType>(x.getType()).clone(shape), x);
  }

  /// x times a constant over its trailing axes (broadcast over the rest).
  Value scaleTrailing(Value x, Value factors) {
    auto type = cast<RankedTensorType>(x.getType());
    int64_t rank = type.getRank(), k = shapeOf(factors).size();
    SmallVector<int64_t> dims =
        llvm::to_vector(llvm::seq<int64_t>(rank - k, rank));
    Value spread = stablehlo::BroadcastInDimOp::create(
        b, loc, type, factors, b.getDenseI64ArrayAttr(dims));
    return stablehlo::MulOp::create(b, loc, type, x, spread);
  }

  /// x[..., begin:end] along the last axis.
  Value sliceLast(Value x, int64_t begin, int64_t end) {
    auto type = cast<RankedTensorType>(x.getType());
    int64_t rank = type.getRank();
    SmallVector<int64_t> start(rank, 0), limit(type.getShape()),
        strides(rank, 1), shape(type.getShape());
    start[rank - 1] = begin;
    limit[rank - 1] = end;
    shape[rank - 1] = end - begin;
    return stablehlo::SliceOp::create(b, loc, type.clone(shape), x,
                                      b.getDenseI64ArrayAttr(start),
                                      b.getDenseI64ArrayAttr(limit),
                                      b.getDenseI64ArrayAttr(strides));
  }

  static bool isDirect(int64_t n) {
    return n <= kDirectLength ||
           (balancedFactor(n) == 1 && n <= kDirectPrimeLength);
  }

  /// The n-point DFT matrix (rows: inputs), times `scale`.
  Value dftMatrix(int64_t n, int sign, long double scale) {
    return complexConstant({n, n}, [&](int64_t i) {
      return scale * cis(sign, (i / n) * (i % n), n);
    });
  }

  /// The unnormalized DFT of complex x along `axis` (sign -1 forward, +1
  /// inverse) times `scale`, its axis moved last.
  Value dftToLast(Value x, int64_t axis, int sign, long double scale) {
    int64_t n = shapeOf(x)[axis], last = shapeOf(x).size() - 1;
    if (isDirect(n))
      return product(x, axis, dftMatrix(n, sign, scale));
    if (axis != last) {
      SmallVector<int64_t> perm;
      for (int64_t d = 0; d <= last; ++d)
        if (d != axis)
          perm.push_back(d);
      perm.push_back(axis);
      x = transpose(x, perm);
    }
    return dftLast(x, sign, scale);
  }

  /// The DFT along the last axis of complex x.
  Value dftLast(Value x, int sign, long double scale) {
    SmallVector<int64_t> shape(shapeOf(x));
    int64_t rank = shape.size(), n = shape.back();
    if (isDirect(n))
      return product(x, rank - 1, dftMatrix(n, sign, scale));
    int64_t n1 = balancedFactor(n);
    if (n1 == 1)
      return bluestein(x, sign, scale);
    int64_t n2 = n / n1;
    // x[n2 i1 + i2] as [..., i1, i2]; transform over i1 (-> [..., i2, k1]),
    // twiddle by w^(i2 k1), transform over i2 (-> [..., k1, k2]); the result
    // X[k1 + n1 k2] is [..., k2, k1] flattened.
    SmallVector<int64_t> split(shape);
    split.back() = n1;
    split.push_back(n2);
    Value y = dftToLast(reshape(x, split), rank - 1, sign, 1.0L);
    y = scaleTrailing(y, complexConstant({n2, n1}, [&](int64_t i) {
                        return scale * cis(sign, (i / n1) * (i % n1), n);
                      }));
    y = dftToLast(y, rank - 1, sign, 1.0L);
    return reshape(transpose(y, swapping(rank + 1, rank - 1, rank)), shape);
  }

  /// Bluestein: X[k] = c[k] sum_j (x[j] c[j]) conj(c[k - j]) with
  /// c[m] = e^(sign pi i m^2 / n), a cyclic convolution of length M >= 2n - 1
  /// (a power of two) done with M-point transforms.
  Value bluestein(Value x, int sign, long double scale) {
    SmallVector<int64_t> shape(shapeOf(x));
    int64_t rank = shape.size(), n = shape.back();
    int64_t m = 1;
    while (m < 2 * n - 1)
      m <<= 1;
    auto chirp = [&](int64_t j) {
      // m^2 mod 2n, exactly: the angle pi m^2 / n.
      int64_t square = static_cast<int64_t>(
          (static_cast<unsigned __int128>(j) * static_cast<unsigned __int128>(j)) %
          static_cast<unsigned __int128>(2 * n));
      return cis(sign, square, 2 * n);
    };
    Value a = scaleTrailing(x, complexConstant({n}, chirp));
    SmallVector<int64_t> padded(shape);
    padded.back() = m;
    SmallVector<int64_t> low(rank, 0), high(rank, 0), interior(rank, 0);
    high.back() = m - n;
    auto scalar = tensorOf({}, complexType());
    Value zero = stablehlo::ConstantOp::create(
        b, loc, scalar,
        DenseElementsAttr::get(
            scalar, ArrayRef(std::complex<APFloat>(round(0), round(0)))));
    a = stablehlo::PadOp::create(b, loc, tensorOf(padded, complexType()), a,
                                 zero, b.getDenseI64ArrayAttr(low),
                                 b.getDenseI64ArrayAttr(high),
                                 b.getDenseI64ArrayAttr(interior));
    // The kernel's transform, with the inverse's 1/M and the caller's scale.
    std::vector<Wide> kernel(m, Wide(0));
    for (int64_t j = 0; j < n; ++j) {
      kernel[j] = std::conj(chirp(j));
      if (j > 0)
        kernel[m - j] = kernel[j];
    }
    wideRadix2(kernel, -1);
    long double factor = scale / static_cast<long double>(m);
    Value spectrum = scaleTrailing(
        dftLast(a, -1, 1.0L),
        complexConstant({m}, [&](int64_t k) { return factor * kernel[k]; }));
    Value convolved = sliceLast(dftLast(spectrum, 1, 1.0L), 0, n);
    return scaleTrailing(convolved, complexConstant({n}, chirp));
  }

  /// The DFT of complex x along `axis`, the axis left in place.
  Value dftInPlace(Value x, int64_t axis, int sign, long double scale) {
    int64_t last = shapeOf(x).size() - 1;
    int64_t n = shapeOf(x)[axis];
    Value y = axis != last && n <= kDirectLeadingLength
                  ? product(x, axis, dftMatrix(n, sign, scale))
                  : dftToLast(x, axis, sign, scale);
    if (axis == last)
      return y;
    // Result axis d is y's d below `axis`, y's last at it, y's d - 1 above.
    SmallVector<int64_t> perm;
    for (int64_t d = 0; d <= last; ++d)
      perm.push_back(d < axis ? d : (d == axis ? last : d - 1));
    return transpose(y, perm);
  }

  Value toComplex(Value real) {
    auto type = cast<RankedTensorType>(real.getType());
    Value zeros = stablehlo::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, round(0)));
    return makeComplex(real, zeros);
  }

  Value realPart(Value v) {
    return stablehlo::RealOp::create(
        b, loc, cast<RankedTensorType>(v.getType()).clone(part), v);
  }
  Value imagPart(Value v) {
    return stablehlo::ImagOp::create(
        b, loc, cast<RankedTensorType>(v.getType()).clone(part), v);
  }
  Value makeComplex(Value re, Value im) {
    return stablehlo::ComplexOp::create(
        b, loc, cast<RankedTensorType>(re.getType()).clone(complexType()), re,
        im);
  }
  Value conjugate(Value v) {
    // Named steps: the order of evaluating call arguments is unspecified.
    Value im = imagPart(v);
    Value negated = stablehlo::NegOp::create(b, loc, im.getType(), im);
    Value re = realPart(v);
    return makeComplex(re, negated);
  }
  Value add(Value x, Value y) {
    return stablehlo::AddOp::create(b, loc, x.getType(), x, y);
  }
  Value reverseLast(Value v) {
    int64_t last = shapeOf(v).size() - 1;
    return stablehlo::ReverseOp::create(b, loc, v.getType(), v,
                                        b.getDenseI64ArrayAttr({last}));
  }
  /// `values` joined along their last axis.
  Value concatenateLast(ValueRange values) {
    SmallVector<int64_t> shape(shapeOf(values.front()));
    shape.back() = 0;
    for (Value v : values)
      shape.back() += shapeOf(v).back();
    return stablehlo::ConcatenateOp::create(
        b, loc, cast<RankedTensorType>(values.front().getType()).clone(shape),
        values, shape.size() - 1);
  }

  /// A[k] v[k] + B[k] conj(v[m - k]) for the m + 1 values of v, with
  /// A, B = (1 +- s i w^k) / 2, w = e^(s 2 pi i / n), n = 2m: how the
  /// spectrum of n real values and that of their m complex pairs give each
  /// other (s = -1 from the pairs' spectrum, +1 back to it).
  Value fold(Value v, int s, int64_t n) {
    int64_t m = n / 2;
    auto coefficient = [&](int plusMinus) {
      return complexConstant({m + 1}, [&, plusMinus](int64_t k) {
        Wide iw = Wide(0, 1) * cis(s, k, n);
        return (Wide(1) + static_cast<long double>(plusMinus * s) * iw) / 2.0L;
      });
    };
    // Named steps: the order of evaluating call arguments is unspecified.
    Value direct = scaleTrailing(v, coefficient(1));
    Value mirrored = scaleTrailing(conjugate(reverseLast(v)), coefficient(-1));
    return add(direct, mirrored);
  }

  /// RFFT of an even length n = 2m through one m-point complex transform:
  /// z[j] = x[2j] + i x[2j+1], Z its transform (Z[m] = Z[0]), and
  /// X[k] = A[k] Z[k] + B[k] conj(Z[m - k]) with A = (1 - i w^k) / 2,
  /// B = (1 + i w^k) / 2, w = e^(-2 pi i / n).
  Value realForwardHalved(Value x) {
    SmallVector<int64_t> shape(shapeOf(x));
    int64_t n = shape.back(), m = n / 2;
    SmallVector<int64_t> pairs(shape), halves(shape);
    pairs.back() = m;
    pairs.push_back(2);
    halves.back() = m;
    Value split = reshape(x, pairs);
    Value even = reshape(sliceLast(split, 0, 1), halves);
    Value odd = reshape(sliceLast(split, 1, 2), halves);
    Value z = makeComplex(even, odd);
    Value spectrum = dftLast(z, -1, 1.0L);
    Value first = sliceLast(spectrum, 0, 1);
    return fold(concatenateLast({spectrum, first}), -1, n);
  }

  /// IRFFT of an even length n = 2m, the inverse of realForwardHalved:
  /// Z[k] = C[k] X[k] + D[k] conj(X[m - k]), C = (1 + i w^-k) / 2,
  /// D = (1 - i w^-k) / 2, for k < m (the imaginary parts of bins 0 and m
  /// dropped first), z its inverse m-point transform, and x[2j] = Re z[j],
  /// x[2j+1] = Im z[j].
  Value realInverseHalved(Value x, int64_t n) {
    SmallVector<int64_t> shape(shapeOf(x));
    int64_t m = n / 2;
    Value kept = scaleTrailing(imagPart(x), realConstant({m + 1}, [&](int64_t k) {
                                 return k == 0 || k == m ? 0.0L : 1.0L;
                               }));
    Value re = realPart(x);
    Value folded = fold(makeComplex(re, kept), 1, n);
    Value z = dftLast(sliceLast(folded, 0, m), 1, 1.0L / m);
    SmallVector<int64_t> column(shape), signal(shape);
    column.back() = m;
    column.push_back(1);
    signal.back() = n;
    Value even = reshape(realPart(z), column);
    Value odd = reshape(imagPart(z), column);
    return reshape(concatenateLast({even, odd}), signal);
  }

  /// RFFT along the last axis: bins 0..n/2 of the real input's transform.
  Value realForward(Value x) {
    int64_t n = shapeOf(x).back(), bins = n / 2 + 1, last = shapeOf(x).size() - 1;
    if (!isDirect(n) && n % 2 == 0)
      return realForwardHalved(x);
    if (!isDirect(n))
      return sliceLast(dftLast(toComplex(x), -1, 1.0L), 0, bins);
    auto matrix = [&](bool imaginary) {
      return realConstant({n, bins}, [&](int64_t i) {
        Wide w = cis(-1, (i / bins) * (i % bins), n);
        return imaginary ? w.imag() : w.real();
      });
    };
    Value re = product(x, last, matrix(false));
    Value im = product(x, last, matrix(true));
    return makeComplex(re, im);
  }

  /// IRFFT along the last axis: the real signal of n points whose spectrum
  /// has bins 0..n/2 (the rest their conjugates; the imaginary parts of
  /// bins 0 and n/2 contribute nothing), scaled by 1/n.
  Value realInverse(Value x, int64_t n) {
    SmallVector<int64_t> shape(shapeOf(x));
    int64_t bins = shape.back(), last = shape.size() - 1;
    if (!isDirect(n) && n % 2 == 0)
      return realInverseHalved(x, n);
    if (!isDirect(n)) {
      // The whole Hermitian spectrum, then the complex inverse's real part.
      Value tail = conjugate(reverseLast(sliceLast(x, 1, n - bins + 1)));
      return realPart(dftLast(concatenateLast({x, tail}), 1, 1.0L / n));
    }
    // Bins 1..ceil(n/2)-1 stand for themselves and their conjugates.
    auto weight = [&](int64_t k) -> long double {
      if (k > n / 2)
        return 0;
      bool single = k == 0 || (n % 2 == 0 && k == n / 2);
      return (single ? 1.0L : 2.0L) / n;
    };
    auto matrix = [&](bool imaginary) {
      return realConstant({bins, n}, [&](int64_t i) {
        int64_t k = i / n, j = i % n;
        Wide w = weight(k) * cis(1, k * j, n);
        return imaginary ? -w.imag() : w.real();
      });
    };
    Value re = product(realPart(x), last, matrix(false));
    Value im = product(imagPart(x), last, matrix(true));
    return add(re, im);
  }
};

/// The f32/f64 part type of a statically shaped `op`, else null.
FloatType partTypeOf(stablehlo::FftOp op) {
  auto operand = cast<RankedTensorType>(op.getOperand().getType());
  auto result = cast<RankedTensorType>(op.getType());
  if (!operand.hasStaticShape() || !result.hasStaticShape())
    return nullptr;
  Type element = operand.getElementType();
  if (auto complex = dyn_cast<ComplexType>(element))
    element = complex.getElementType();
  if (!element.isF32() && !element.isF64())
    return nullptr;
  return cast<FloatType>(element);
}

/// The replacement of `op`, or null when its types are not ones this
/// handles (then the op stays, for the legality check to report).
Value decompose(stablehlo::FftOp op, OpBuilder &b) {
  auto operand = cast<RankedTensorType>(op.getOperand().getType());
  auto result = cast<RankedTensorType>(op.getType());
  FloatType part = partTypeOf(op);
  if (!part)
    return Value();
  FourierBuilder f{b, op.getLoc(), part};
  if (operand.getNumElements() == 0 || result.getNumElements() == 0 ||
      llvm::is_contained(op.getFftLength(), 0)) {
    // No input points: every output is an empty sum.
    Type zero = result.getElementType();
    Attribute value =
        isa<ComplexType>(zero)
            ? DenseElementsAttr::get(
                  result, std::complex<APFloat>(f.round(0), f.round(0)))
            : DenseElementsAttr::get(result, f.round(0));
    return stablehlo::ConstantOp::create(b, op.getLoc(), result,
                                         cast<ElementsAttr>(value));
  }
  ArrayRef<int64_t> lengths = op.getFftLength();
  int64_t rank = result.getRank();
  int64_t first = rank - static_cast<int64_t>(lengths.size()), last = rank - 1;
  Value v = op.getOperand();
  switch (op.getFftType()) {
  case stablehlo::FftType::FFT:
  case stablehlo::FftType::IFFT: {
    bool inverse = op.getFftType() == stablehlo::FftType::IFFT;
    for (int64_t axis = first; axis <= last; ++axis) {
      long double scale = inverse ? 1.0L / result.getDimSize(axis) : 1.0L;
      v = f.dftInPlace(v, axis, inverse ? 1 : -1, scale);
    }
    return v;
  }
  case stablehlo::FftType::RFFT:
    v = f.realForward(v);
    for (int64_t axis = first; axis < last; ++axis)
      v = f.dftInPlace(v, axis, -1, 1.0L);
    return v;
  case stablehlo::FftType::IRFFT:
    for (int64_t axis = first; axis < last; ++axis)
      v = f.dftInPlace(v, axis, 1, 1.0L / result.getDimSize(axis));
    return f.realInverse(v, lengths.back());
  }
  return Value();
}

/// Whether `op` goes to the library: f32/f64 parts, no empty axis, and at
/// least `points` points a transform.
bool forLibrary(stablehlo::FftOp op, int64_t points) {
  if (points <= 0 || !partTypeOf(op) ||
      cast<RankedTensorType>(op.getOperand().getType()).getNumElements() == 0 ||
      cast<RankedTensorType>(op.getType()).getNumElements() == 0)
    return false;
  int64_t count = 1;
  for (int64_t length : op.getFftLength())
    count *= length;
  return count >= points;
}

/// `op` as the library's transform (LibraryFft.h).
Value libraryCall(stablehlo::FftOp op, OpBuilder &b) {
  LibraryFftType type = LibraryFftType::Fft;
  switch (op.getFftType()) {
  case stablehlo::FftType::FFT:
    type = LibraryFftType::Fft;
    break;
  case stablehlo::FftType::IFFT:
    type = LibraryFftType::Ifft;
    break;
  case stablehlo::FftType::RFFT:
    type = LibraryFftType::Rfft;
    break;
  case stablehlo::FftType::IRFFT:
    type = LibraryFftType::Irfft;
    break;
  }
  NamedAttrList config;
  config.append("fft_type", b.getI64IntegerAttr(static_cast<int64_t>(type)));
  config.append("rank", b.getI64IntegerAttr(op.getFftLength().size()));
  OperationState state(op.getLoc(),
                       stablehlo::CustomCallOp::getOperationName(),
                       ValueRange{op.getOperand()}, TypeRange{op.getType()});
  state.addAttribute("call_target_name", b.getStringAttr(kLibraryFft));
  state.addAttribute("mhlo.backend_config", config.getDictionary(b.getContext()));
  return b.create(state)->getResult(0);
}

struct DecomposeFftPass : impl::DecomposeFftBase<DecomposeFftPass> {
  using DecomposeFftBase::DecomposeFftBase;

  void runOnOperation() override {
    SmallVector<stablehlo::FftOp> ffts;
    getOperation().walk([&](stablehlo::FftOp op) { ffts.push_back(op); });
    for (stablehlo::FftOp op : ffts) {
      OpBuilder b(op);
      Value replacement = forLibrary(op, libraryPoints) ? libraryCall(op, b)
                                                       : decompose(op, b);
      if (replacement) {
        op.getResult().replaceAllUsesWith(replacement);
        op.erase();
      }
    }
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
