//===- Math.cpp - Math functions Relax lacks, from ones it has ------------===//
//
// Each function is a short formula over Relax operators that keeps the
// accuracy the corpus asks for (3 ULP): expm1 and log1p use the exact
// corrections of Kahan/Goldberg rather than exp(x) - 1 and log(1 + x);
// round_nearest_afz fixes up round-half-even at exact ties; sign returns its
// operand for zeros and NaN; popcnt and count_leading_zeros are bit tricks on
// the unsigned bits. Half-precision operands compute in f32.
//
//===----------------------------------------------------------------------===//

#include "DeclineReasons.h"
#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/CHLO/IR/CHLO.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

#include <cmath>
#include <limits>

#include <type_traits>

namespace mlir::stablehlo_tvm {
namespace {

/// Builds tvm ops on tensors of one type, with constants splatted to it.
struct MathBuilder {
  OpBuilder &b;
  Location loc;
  RankedTensorType type;
  /// A value of `type`'s shape: where it is dynamic, constants take its sizes.
  Value like = {};

  RankedTensorType boolType() { return type.clone(b.getI1Type()); }
  Value constant(double value) {
    Type element = type.getElementType();
    if (isa<FloatType>(element))
      return splatConstant(b, loc, type, b.getFloatAttr(element, value), like);
    return splatConstant(b, loc, type,
                         b.getIntegerAttr(element, static_cast<int64_t>(value)),
                         like);
  }
  template <typename Op>
  Value unary(Value x) {
    return Op::create(b, loc, type, x);
  }
  template <typename Op>
  Value binary(Value x, Value y) {
    return Op::create(b, loc, type, x, y);
  }
  template <typename Op>
  Value compare(Value x, Value y) {
    return Op::create(b, loc, boolType(), x, y);
  }
  Value select(Value cond, Value x, Value y) {
    return tvm::WhereOp::create(b, loc, type, cond, x, y);
  }
  template <typename Op>
  Value logical(Value x, Value y) {
    return Op::create(b, loc, boolType(), x, y);
  }
  Value logicalNot(Value x) {
    return tvm::LogicalNotOp::create(b, loc, boolType(), x);
  }
};

// Every intermediate is a named statement: C++ leaves the order of evaluating
// call arguments open, and the emitted op order must not depend on it.

/// -1, 0 or 1 by sign; zeros (of either sign) and NaN are returned as they are.
Value emitSign(MathBuilder &m, Value x) {
  Value zero = m.constant(0);
  Value isNegative = m.compare<tvm::LessOp>(x, zero);
  Value minusOne = m.constant(-1);
  Value negative = m.select(isNegative, minusOne, x);
  Value isPositive = m.compare<tvm::GreaterOp>(x, zero);
  Value one = m.constant(1);
  return m.select(isPositive, one, negative);
}

/// `magnitude` with the sign of `x`: negated where x < 0 (odd functions
/// computed on |x|).
Value withSignOf(MathBuilder &m, Value x, Value magnitude) {
  Value zero = m.constant(0);
  Value negative = m.compare<tvm::LessOp>(x, zero);
  Value negated = m.unary<tvm::NegativeOp>(magnitude);
  return m.select(negative, negated, magnitude);
}

/// `result`, but x itself where x is zero: f(+-0) = +-0 keeps the zero's sign.
Value keepZeros(MathBuilder &m, Value x, Value result) {
  Value zero = m.constant(0);
  Value isZero = m.compare<tvm::EqualOp>(x, zero);
  return m.select(isZero, x, result);
}

Value emitRoundAwayFromZero(MathBuilder &m, Value x) {
  Value truncated = m.unary<tvm::TruncOp>(x);
  Value difference = m.binary<tvm::SubtractOp>(x, truncated);
  Value fraction = m.unary<tvm::AbsOp>(difference);
  Value half = m.constant(0.5);
  Value tie = m.compare<tvm::EqualOp>(fraction, half);
  Value sign = emitSign(m, x);
  Value away = m.binary<tvm::AddOp>(truncated, sign);
  Value nearestEven = m.unary<tvm::RoundOp>(x);
  return m.select(tie, away, nearestEven);
}

/// expm1(x) = (u - 1) * x / log(u) with u = exp(x), exact where u rounds to 1;
/// u - 1 itself beyond |x| = 1, where nothing cancels (and (u - 1) x would
/// overflow for u near the largest float).
Value emitExpm1(MathBuilder &m, Value x) {
  Value u = m.unary<tvm::ExpOp>(x);
  Value one = m.constant(1);
  Value uMinusOne = m.binary<tvm::SubtractOp>(u, one);
  Value product = m.binary<tvm::MultiplyOp>(uMinusOne, x);
  Value logU = m.unary<tvm::LogOp>(u);
  Value corrected = m.binary<tvm::DivideOp>(product, logU);
  Value far = m.compare<tvm::GreaterOp>(m.unary<tvm::AbsOp>(x), one);
  corrected = m.select(far, uMinusOne, corrected);
  Value minusOne = m.constant(-1);
  Value saturated = m.compare<tvm::EqualOp>(uMinusOne, minusOne);
  Value result = m.select(saturated, minusOne, corrected);
  Value exact = m.compare<tvm::EqualOp>(u, one);
  result = m.select(exact, x, result);
  Value inf = m.constant(std::numeric_limits<double>::infinity());
  Value overflow = m.compare<tvm::EqualOp>(u, inf);
  return m.select(overflow, u, result);
}

/// log1p(x) = log(u) * x / (u - 1) with u = 1 + x, exact where u rounds to 1;
/// log(u) itself where u - 1 is x (no rounding to correct; log(u) x would
/// overflow for x near the largest float).
Value emitLog1p(MathBuilder &m, Value x) {
  Value one = m.constant(1);
  Value u = m.binary<tvm::AddOp>(one, x);
  Value logU = m.unary<tvm::LogOp>(u);
  Value product = m.binary<tvm::MultiplyOp>(logU, x);
  Value uMinusOne = m.binary<tvm::SubtractOp>(u, one);
  Value corrected = m.binary<tvm::DivideOp>(product, uMinusOne);
  Value unrounded = m.compare<tvm::EqualOp>(uMinusOne, x);
  corrected = m.select(unrounded, logU, corrected);
  Value exact = m.compare<tvm::EqualOp>(u, one);
  Value result = m.select(exact, x, corrected);
  Value inf = m.constant(std::numeric_limits<double>::infinity());
  Value overflow = m.compare<tvm::EqualOp>(u, inf);
  return m.select(overflow, u, result);
}

/// tanh(x) = t / (t + 2) with t = expm1(2|x|), the sign put back; 1 where t
/// overflows. For f64: TVM's own f64 tanh is a fast approximation (tens of
/// ULP off). f32 goes to tvm.tanh, see emitTanhOp.
Value emitTanh(MathBuilder &m, Value x) {
  Value y = m.unary<tvm::AbsOp>(x);
  Value twoY = m.binary<tvm::AddOp>(y, y);
  Value t = emitExpm1(m, twoY);
  Value two = m.constant(2);
  Value denominator = m.binary<tvm::AddOp>(t, two);
  Value magnitude = m.binary<tvm::DivideOp>(t, denominator);
  Value large = m.compare<tvm::GreaterOp>(y, m.constant(22));
  Value one = m.constant(1);
  magnitude = m.select(large, one, magnitude);
  return keepZeros(m, x, withSignOf(m, x, magnitude));
}

/// atanh(x) = (log1p(x) - log1p(-x)) / 2: no cancellation near 0 (the two
/// terms have opposite signs) and exact log1p near +-1.
Value emitAtanh(MathBuilder &m, Value x) {
  Value up = emitLog1p(m, x);
  Value negated = m.unary<tvm::NegativeOp>(x);
  Value down = emitLog1p(m, negated);
  Value difference = m.binary<tvm::SubtractOp>(up, down);
  Value half = m.constant(0.5);
  Value result = m.binary<tvm::MultiplyOp>(difference, half);
  return keepZeros(m, x, result);
}

//===----------------------------------------------------------------------===//
// Special functions (CHLO), computed in f64 for every narrower type.
//===----------------------------------------------------------------------===//

/// Horner's rule: sum coefficients[k] v^k.
Value emitPolynomial(MathBuilder &m, ArrayRef<double> coefficients, Value v) {
  Value result = m.constant(coefficients.back());
  for (double coefficient : llvm::reverse(coefficients.drop_back())) {
    Value scaled = m.binary<tvm::MultiplyOp>(result, v);
    result = m.binary<tvm::AddOp>(scaled, m.constant(coefficient));
  }
  return result;
}

// erfcx(y) = exp(y^2) erfc(y), fitted by scripts/fit_float64_special.py
// erfc (Chebyshev, at 150 bits; each within 1 ULP in f64).
// [0.5, 2], degree 24, fit error 1.0e-23
static constexpr double kErfcxHalfToTwo[] = {
    0.3678229164523611, -0.15661640697345738, 0.06007250896683682,
    -0.021185834510773504, 0.0069645332199977745, -0.0021551128074248724,
    0.0006323772264293098, -0.00017697065839972795, 4.745054940418951e-05,
    -1.2235801174013132e-05, 3.0439740878151664e-06, -7.325295373155951e-07,
    1.7091483065680873e-07, -3.874080041008066e-08, 8.545727017628162e-09,
    -1.837346940474552e-09, 3.855581395951072e-10, -7.906023869718423e-11,
    1.5860813060554136e-11, -3.1200202425108202e-12, 6.007372627110418e-13,
    -1.1096925175294839e-13, 2.0611329339432478e-14, -4.6709259745509925e-15,
    8.314623530231907e-16,
};
// [2, 4], degree 22, fit error 1.4e-22
static constexpr double kErfcxTwoToFour[] = {
    0.17900115118138996, -0.05437226000717287, 0.015884371159871336,
    -0.004479431018372575, 0.0012230390523768056, -0.00032412554449686923,
    8.355413962873968e-05, -2.0989464460113736e-05, 5.146436562032531e-06,
    -1.2333677280403098e-06, 2.892666759582244e-07, -6.646685261274741e-08,
    1.4977685015929866e-08, -3.3128970739088556e-09, 7.198593928147398e-10,
    -1.5376702872170272e-10, 3.2314875688302254e-11, -6.6948617097274996e-12,
    1.3640085229469536e-12, -2.6704708238591855e-13, 5.294289291001235e-14,
    -1.3083336917782581e-14, 2.5083479223320454e-15,
};
// [0, 0.25], degree 18, fit error 1.5e-19
static constexpr double kErfcxTimesYBeyondFour[] = {
    0.5598813296070474, -0.008424825196312678, -0.0038428666504105057,
    0.0003432647266446961, 5.551282973127899e-05, -1.4924206794864918e-05,
    -1.9212400875267608e-07, 6.270851850317828e-07, -8.438242399454995e-08,
    -1.8620219558457148e-08, 8.20276684561404e-09, -4.3664729313991925e-10,
    -4.6512580753503194e-10, 1.3637183449929798e-10, 4.01383906916236e-12,
    -1.2523763076311273e-11, 2.689254774100492e-12, 5.41232089854438e-13,
    -2.7865675968834615e-13,
};

/// exp(-y^2) for y >= 0 without the error of rounding y^2 (y^2 ULPs): y^2 =
/// h^2 + d with h = y truncated to 2^-20 (h^2 exact in f64) and d = (y - h)
/// (y + h) small, so exp(-y^2) = exp(-h^2) exp(-d), each rounded once.
static Value emitGaussian(MathBuilder &m, Value y) {
  Value scale = m.constant(1048576.0);
  Value scaled = m.binary<tvm::MultiplyOp>(y, scale);
  Value truncated = m.unary<tvm::FloorOp>(scaled);
  Value h = m.binary<tvm::DivideOp>(truncated, scale);
  Value hSquared = m.binary<tvm::MultiplyOp>(h, h);
  Value below = m.binary<tvm::SubtractOp>(y, h);
  Value sum = m.binary<tvm::AddOp>(y, h);
  Value d = m.binary<tvm::MultiplyOp>(below, sum);
  Value negH2 = m.unary<tvm::NegativeOp>(hSquared);
  Value negD = m.unary<tvm::NegativeOp>(d);
  Value large = m.unary<tvm::ExpOp>(negH2);
  Value small = m.unary<tvm::ExpOp>(negD);
  return m.binary<tvm::MultiplyOp>(large, small);
}

/// erfc in f64: 1 - erf(|x|) below 1/2 (erf < 0.53 there: no cancellation),
/// else exp(-y^2) erfcx(y) with erfcx from the fits above (1 - erf would
/// lose 5 bits at 1.45 and 15 at 3); erfc(-y) = 2 - erfc(y).
Value emitErfc(MathBuilder &m, Value x) {
  Value y = m.unary<tvm::AbsOp>(x);
  Value one = m.constant(1);
  Value erfY = m.unary<tvm::ErfOp>(y);
  Value near = m.binary<tvm::SubtractOp>(one, erfY);
  // [0.5, 2]: s = (2y - 2.5) / 1.5.
  Value twoY = m.binary<tvm::AddOp>(y, y);
  Value shifted = m.binary<tvm::SubtractOp>(twoY, m.constant(2.5));
  Value s1 = m.binary<tvm::DivideOp>(shifted, m.constant(1.5));
  Value low = emitPolynomial(m, kErfcxHalfToTwo, s1);
  // [2, 4]: s = y - 3.
  Value s2 = m.binary<tvm::SubtractOp>(y, m.constant(3));
  Value middle = emitPolynomial(m, kErfcxTwoToFour, s2);
  // Beyond 4: erfcx(y) = g(t) t with t = 1/y, s = 8t - 1.
  Value t = m.binary<tvm::DivideOp>(one, y);
  Value eightT = m.binary<tvm::MultiplyOp>(t, m.constant(8));
  Value s3 = m.binary<tvm::SubtractOp>(eightT, one);
  Value g = emitPolynomial(m, kErfcxTimesYBeyondFour, s3);
  Value high = m.binary<tvm::MultiplyOp>(g, t);
  Value belowFour = m.compare<tvm::LessOp>(y, m.constant(4));
  Value belowTwo = m.compare<tvm::LessOp>(y, m.constant(2));
  Value scaledTail = m.select(belowTwo, low, m.select(belowFour, middle, high));
  Value gauss = emitGaussian(m, y);
  Value product = m.binary<tvm::MultiplyOp>(gauss, scaledTail);
  // erfc(y) < 2^-1074 beyond 27.3; at infinity, y - h would be NaN.
  Value underflows = m.compare<tvm::GreaterOp>(y, m.constant(27.5));
  Value far = m.select(underflows, m.constant(0), product);
  Value isNear = m.compare<tvm::LessOp>(y, m.constant(0.5));
  Value positive = m.select(isNear, near, far);
  Value two = m.constant(2);
  Value reflected = m.binary<tvm::SubtractOp>(two, positive);
  Value negative = m.compare<tvm::LessOp>(x, m.constant(0));
  return m.select(negative, reflected, positive);
}

/// erfc for f32 (narrower floats widen to it), vectorizable with f32 exp:
/// the f64 continued fraction costs ~60 divisions an element.
/// erfc(y) = exp(-y^2) erfcx(y) for y = |x|, a product of positive factors
/// (no cancellation), with y^2 split exactly: yh, y rounded down to a
/// multiple of 1/256, has an exact f32 square, so exp(-y^2) =
/// exp(-yh^2) exp(-d) with d = (y - yh)(y + yh) < 0.08. f32 exp takes the
/// exact large part; f64 takes exp(-d) (Taylor, degree 6) and erfcx (a
/// rational fit, relative error 7.5e-10 on [0, 10.1], from
/// scripts/fit_fastmath.py); within 2 ULP (test_fastmath.py). Beyond 10.1
/// erfc rounds to 0 in f32; erfc(-y) = 2 - erfc(y).
Value emitErfcF32(MathBuilder &m, Value x) {
  static constexpr double kErfcxP[] = {
      1.0000000007445577,  1.1369197719620234,  0.6324534708591929,
      0.1840801074755586,  0.0239969792767579,  -3.8843178468768943e-07,
      7.879939951066747e-09};
  static constexpr double kErfcxQ[] = {
      1.0,                2.2652990245741287, 2.188568113873887,
      1.1405800520915894, 0.3264681848239386, 0.04251847939008934};
  static constexpr double kExpTaylor[] = {1.0,     1.0,      1.0 / 2,
                                          1.0 / 6, 1.0 / 24, 1.0 / 120,
                                          1.0 / 720};
  Value y = m.unary<tvm::AbsOp>(x);
  Value clamped = m.binary<tvm::MinimumOp>(y, m.constant(10.1));
  Value scaled = m.binary<tvm::MultiplyOp>(clamped, m.constant(256));
  Value grid = m.unary<tvm::FloorOp>(scaled);
  Value high = m.binary<tvm::MultiplyOp>(grid, m.constant(1.0 / 256));
  Value highSquare = m.binary<tvm::MultiplyOp>(high, high);
  Value negHighSquare = m.unary<tvm::NegativeOp>(highSquare);
  Value gaussHigh = m.unary<tvm::ExpOp>(negHighSquare);

  MathBuilder wide{m.b, m.loc, m.type.clone(m.b.getF64Type())};
  Value y64 = astype(m.b, m.loc, clamped, wide.type);
  Value high64 = astype(m.b, m.loc, high, wide.type);
  Value low = wide.binary<tvm::SubtractOp>(y64, high64);
  Value sum = wide.binary<tvm::AddOp>(y64, high64);
  Value d = wide.binary<tvm::MultiplyOp>(low, sum);
  Value negD = wide.unary<tvm::NegativeOp>(d);
  Value gaussLow = emitPolynomial(wide, kExpTaylor, negD);
  Value numerator = emitPolynomial(wide, kErfcxP, y64);
  Value denominator = emitPolynomial(wide, kErfcxQ, y64);
  Value erfcx = wide.binary<tvm::DivideOp>(numerator, denominator);
  Value gaussHigh64 = astype(m.b, m.loc, gaussHigh, wide.type);
  Value product = wide.binary<tvm::MultiplyOp>(gaussLow, erfcx);
  product = wide.binary<tvm::MultiplyOp>(gaussHigh64, product);
  Value positive = astype(m.b, m.loc, product, m.type);
  Value two = m.constant(2);
  Value reflected = m.binary<tvm::SubtractOp>(two, positive);
  Value negative = m.compare<tvm::LessOp>(x, m.constant(0));
  Value result = m.select(negative, reflected, positive);
  Value nan = tvm::IsNaNOp::create(m.b, m.loc, m.boolType(), x);
  return m.select(nan, x, result);
}

/// x - round(x), exact, in [-1/2, 1/2]: |sin(pi x)| and tan(pi x) of it are
/// those of x, without the rounding of pi x for large |x| (and a tiny x is
/// itself; x - floor(x) rounded -1e-300 to 1).
Value fractionalPart(MathBuilder &m, Value x) {
  Value nearest = m.unary<tvm::RoundOp>(x);
  return m.binary<tvm::SubtractOp>(x, nearest);
}

/// |t| <= 1/2 (t a fractionalPart) reduced for sin(pi t) and cos(pi t):
/// a = |t| up to 1/4, else a = 1/2 - |t| (exact) with sin and cos
/// swapped, since the series for cos(pi t) near t = 1/2 would sum to ~0
/// from terms near 1. sinOverX = sin(pi a) / (pi a) and cos = cos(pi a) are
/// Taylor series in (pi a)^2 <= 0.62 to the 16th power of pi a (the
/// remainders are below 3e-18):
/// polynomials that vectorize, where a vector sin or tan is a libm call per
/// lane (9 of 10 of lgamma's time).
struct PiReduced {
  Value a, sinOverX, cos, swapped, negative;
};
static PiReduced reducePi(MathBuilder &m, Value t) {
  SmallVector<double> sine, cosine;
  double factorial = 1;
  for (int n = 1; n <= 17; ++n) {
    factorial *= n;
    (n % 2 ? sine : cosine).push_back((n / 2 % 2 ? -1.0 : 1.0) / factorial);
  }
  cosine.insert(cosine.begin(), 1.0);
  Value magnitude = m.unary<tvm::AbsOp>(t);
  Value complement = m.binary<tvm::SubtractOp>(m.constant(0.5), magnitude);
  Value swapped = m.compare<tvm::GreaterOp>(magnitude, m.constant(0.25));
  Value a = m.select(swapped, complement, magnitude);
  Value x = m.binary<tvm::MultiplyOp>(m.constant(M_PI), a);
  Value u = m.binary<tvm::MultiplyOp>(x, x);
  Value sinOverX = emitPolynomial(m, sine, u);
  Value cos = emitPolynomial(m, cosine, u);
  Value negative = m.compare<tvm::LessOp>(t, m.constant(0));
  return {a, sinOverX, cos, swapped, negative};
}

/// sin(pi t) and cos(pi t) for |t| <= 1/2.
std::pair<Value, Value> emitSinCosPi(MathBuilder &m, Value t) {
  PiReduced r = reducePi(m, t);
  Value x = m.binary<tvm::MultiplyOp>(m.constant(M_PI), r.a);
  Value sinA = m.binary<tvm::MultiplyOp>(x, r.sinOverX);
  Value sinMagnitude = m.select(r.swapped, r.cos, sinA);
  Value cos = m.select(r.swapped, sinA, r.cos);
  // sin is odd: t's sign (a zero keeps its own: -0 * 1 is -0).
  Value negated = m.unary<tvm::NegativeOp>(sinMagnitude);
  Value sin = m.select(r.negative, negated, sinMagnitude);
  Value zero = m.compare<tvm::EqualOp>(t, m.constant(0));
  return {m.select(zero, t, sin), cos};
}

/// pi cot(pi t) for |t| <= 1/2, without rounding pi twice: cos / (a sinOverX)
/// up to |t| = 1/4, else pi^2 a sinOverX / cos. Where digamma's reflection
/// cancels (next to its negative zeros), each ULP here is tens of the
/// result's.
Value emitPiCotPi(MathBuilder &m, Value t) {
  PiReduced r = reducePi(m, t);
  Value aSin = m.binary<tvm::MultiplyOp>(r.a, r.sinOverX);
  Value direct = m.binary<tvm::DivideOp>(r.cos, aSin);
  Value piSquaredA = m.binary<tvm::MultiplyOp>(m.constant(M_PI * M_PI), aSin);
  Value complementary = m.binary<tvm::DivideOp>(piSquaredA, r.cos);
  Value magnitude = m.select(r.swapped, complementary, direct);
  Value negated = m.unary<tvm::NegativeOp>(magnitude);
  return m.select(r.negative, negated, magnitude);
}

// lgamma(2 + t) / t, fitted by scripts/fit_float64_special.py lgamma.
// lgamma(2 + t) / t on [-1/2, 1/2], degree 20, fit error 8.8e-21
static constexpr double kLgammaAroundTwo[] = {
    0.42278433509846713, 0.1612335167120566, -0.016838075263299522,
    0.0025726010534730787, -0.00046159693929212654, 9.032844783545014e-05,
    -1.86367798703102e-05, 3.981793164251527e-06, -8.716982757351021e-07,
    1.9425294274976835e-07, -4.387327521544026e-08, 1.001332617019718e-08,
    -2.304571826674516e-09, 5.339628272805235e-10, -1.2444505508836123e-10,
    2.924867873716732e-11, -6.878918801035825e-12, 1.5406673737439663e-12,
    -3.646155586866453e-13, 1.2345447235230874e-13, -2.943025091543748e-14,
};

/// lgamma(2 + t) for |t| <= 1/2 as t times the fit in 2t: accurate to the
/// ULP near lgamma's zeros at 1 and 2, where a Lanczos sum's absolute error
/// of an ULP of 1 is many ULPs of the result, and exactly 0 there.
Value emitLgammaAroundTwo(MathBuilder &m, Value t) {
  Value twoT = m.binary<tvm::AddOp>(t, t);
  Value quotient = emitPolynomial(m, kLgammaAroundTwo, twoT);
  return m.binary<tvm::MultiplyOp>(quotient, t);
}

/// log|Gamma(x)| for x >= 1/2: below 7, the fit about 2 after the
/// recurrence lgamma(x) = lgamma(x - 1) + log(x - 1) brings x into
/// (3/2, 5/2] (one log of the product of the steps; below 3/2,
/// lgamma(x) = lgamma(x + 1) - log x); from 7, Stirling's series
/// (x - 1/2) log x - x + log(2 pi) / 2 + sum B_2k / (2k (2k - 1) x^(2k-1)),
/// whose first omitted term is 4e-18 of the result there. (A Lanczos sum is
/// 1e-15 off in absolute terms: 20 ULP of lgamma(2.8) = 0.54.)
Value emitLgammaAtLeastHalf(MathBuilder &m, Value x) {
  static constexpr double kStirling[] = {
      1.0 / 12,         -1.0 / 360,       1.0 / 1260,
      -1.0 / 1680,      1.0 / 1188,       -691.0 / 360360,
      1.0 / 156,        -3617.0 / 122400, 43867.0 / 244188,
      -174611.0 / 125400};
  Value one = m.constant(1);
  // Stirling, on max(x, 7).
  Value large = m.binary<tvm::MaximumOp>(x, m.constant(7));
  Value inverse = m.binary<tvm::DivideOp>(one, large);
  Value inverse2 = m.binary<tvm::MultiplyOp>(inverse, inverse);
  Value series = emitPolynomial(m, kStirling, inverse2);
  Value tail = m.binary<tvm::MultiplyOp>(series, inverse);
  Value logLarge = m.unary<tvm::LogOp>(large);
  Value lessHalf = m.binary<tvm::SubtractOp>(large, m.constant(0.5));
  Value power = m.binary<tvm::MultiplyOp>(lessHalf, logLarge);
  Value stirling = m.binary<tvm::SubtractOp>(power, large);
  Value constantTerm = m.constant(0.5 * std::log(2 * M_PI));
  stirling = m.binary<tvm::AddOp>(stirling, constantTerm);
  stirling = m.binary<tvm::AddOp>(stirling, tail);
  // Below 7: at most five steps down to (3/2, 5/2] (x - 1 is exact).
  Value z = m.binary<tvm::MinimumOp>(x, m.constant(7));
  Value product = one;
  for (int i = 0; i < 5; ++i) {
    Value above = m.compare<tvm::GreaterOp>(z, m.constant(2.5));
    Value lower = m.binary<tvm::SubtractOp>(z, one);
    Value scaled = m.binary<tvm::MultiplyOp>(product, lower);
    product = m.select(above, scaled, product);
    z = m.select(above, lower, z);
  }
  Value logProduct = m.unary<tvm::LogOp>(product);
  // lgamma(z) = lgamma(z + 1) - log z below 3/2 (z - 1 and z - 2 are
  // exact there).
  Value belowOneHalf = m.compare<tvm::LessOp>(z, m.constant(1.5));
  Value shift = m.select(belowOneHalf, one, m.constant(2));
  Value offset = m.binary<tvm::SubtractOp>(z, shift);
  Value aroundTwo = emitLgammaAroundTwo(m, offset);
  Value logZ = emitLog1p(m, offset);
  Value zero = m.constant(0);
  Value correction = m.select(belowOneHalf, logZ, zero);
  Value near = m.binary<tvm::SubtractOp>(aroundTwo, correction);
  near = m.binary<tvm::AddOp>(near, logProduct);
  Value inRange = m.compare<tvm::LessOp>(x, m.constant(7));
  return m.select(inRange, near, stirling);
}

Value emitLgamma(MathBuilder &m, Value x) {
  Value one = m.constant(1);
  Value oneMinusX = m.binary<tvm::SubtractOp>(one, x);
  Value small = m.compare<tvm::LessOp>(x, m.constant(0.5));
  // Both branches are computed; each gets an argument >= 1/2.
  Value upper = m.select(small, oneMinusX, x);
  Value lg = emitLgammaAtLeastHalf(m, upper);
  Value pi = m.constant(M_PI);
  Value sine = emitSinCosPi(m, fractionalPart(m, x)).first;
  Value absSine = m.unary<tvm::AbsOp>(sine);
  Value ratio = m.binary<tvm::DivideOp>(pi, absSine);
  Value logRatio = m.unary<tvm::LogOp>(ratio);
  Value reflected = m.binary<tvm::SubtractOp>(logRatio, lg);
  Value result = m.select(small, reflected, lg);
  // lgamma(+-inf) = +inf, and so at the poles (0, -1, -2, ...), where
  // sin(pi x) rounds to a tiny nonzero value.
  Value magnitude = m.unary<tvm::AbsOp>(x);
  Value inf = m.constant(std::numeric_limits<double>::infinity());
  Value infinite = m.compare<tvm::EqualOp>(magnitude, inf);
  Value floorX = m.unary<tvm::FloorOp>(x);
  Value integral = m.compare<tvm::EqualOp>(floorX, x);
  Value nonPositive = m.compare<tvm::LessEqualOp>(x, m.constant(0));
  Value pole = m.logical<tvm::LogicalAndOp>(integral, nonPositive);
  Value overflow = m.logical<tvm::LogicalOrOp>(infinite, pole);
  result = m.select(overflow, inf, result);
  // NaN stays NaN (min and max with 10 above would drop it).
  Value nan = tvm::IsNaNOp::create(m.b, m.loc, m.boolType(), x);
  return m.select(nan, x, result);
}

// digamma, fitted by scripts/fit_float64_special.py digamma.
// psi(x) / (x - x0) on [1, 2], degree 28, fit error 8.6e-23
static constexpr double kDigammaZeroHigh = 1.4616321449683622;
static constexpr double kDigammaZeroLow = 9.549995429965697e-17;
static constexpr double kDigammaOverZero[] = {
    0.9510558760318328, -0.21181371064073024, 0.06013562106019673,
    -0.018550615381739664, 0.005936795278307165, -0.001935066664741037,
    0.0006368880302863958, -0.00021074841281329163, 6.995018920907314e-05,
    -2.3258233071403072e-05, 7.741229115823183e-06, -2.5781319407511236e-06,
    8.589252611933906e-07, -2.862184331066109e-07, 9.538822883762647e-08,
    -3.179271437623189e-08, 1.0596858145134139e-08, -3.531664559009299e-09,
    1.1771930535605165e-09, -3.9316515172800677e-10, 1.3105391326672414e-10,
    -4.2800802936611814e-11, 1.4266888856035417e-11, -5.454124431562101e-12,
    1.8180396524194086e-12, -2.4279082325258105e-13, 8.093020511736088e-14,
    -1.3873734557972463e-13, 4.624577795604966e-14,
};
// g(t) on [0, 1/2], degree 18, fit error 4.9e-19
static constexpr double kDigammaAsymptotic[] = {
    -0.005176692688090146, -0.010291822948461298, -0.005026035012454677,
    0.00011372558398300792, 2.137691800617189e-05, -3.447071117187119e-06,
    -5.043287000561933e-08, 1.2318427877669748e-07, -2.335304349353441e-08,
    -1.008493739042459e-09, 1.8326968755984415e-09, -5.157934196392433e-10,
    2.4761038566573388e-11, 4.1446806158427874e-11, -2.0873607272109347e-11,
    4.354605142710735e-12, 9.244250318626418e-13, -9.36636824764729e-13,
    2.0433331608113547e-13,
};

/// digamma: reflection psi(x) = psi(1 - x) - pi / tan(pi x) below 1/2, with
/// psi(1 - x) = psi(-x) + 1/(-x) for x <= -1 (1 - x would round, and next to
/// psi's negative zeros, where the reflection cancels, that is many ULPs).
/// For y >= 1/2: from 2, log y - 1/(2y) + g(1/y), g the fit of what the
/// asymptotic series sums; on [1, 2), (y - x0) times the fit over psi's
/// zero x0 = 1.46; on [1/2, 1), psi(y + 1) - 1/y. (Summing 1/y up to 10 and
/// subtracting it from the series cancelled to 5 ULP next to x0.)
Value emitDigamma(MathBuilder &m, Value x) {
  Value one = m.constant(1);
  Value zero = m.constant(0);
  Value small = m.compare<tvm::LessOp>(x, m.constant(0.5));
  Value oneMinusX = m.binary<tvm::SubtractOp>(one, x);
  Value negativeX = m.unary<tvm::NegativeOp>(x);
  Value shifted = m.compare<tvm::LessEqualOp>(x, m.constant(-1));
  Value reflectedArgument = m.select(shifted, negativeX, oneMinusX);
  Value y = m.select(small, reflectedArgument, x);
  Value inverse = m.binary<tvm::DivideOp>(one, y);
  // [1, 2): the fit over the zero (y + 1 for y below 1).
  Value belowOne = m.compare<tvm::LessOp>(y, one);
  Value yPlusOne = m.binary<tvm::AddOp>(y, one);
  Value z = m.select(belowOne, yPlusOne, y);
  Value twoZ = m.binary<tvm::AddOp>(z, z);
  Value s = m.binary<tvm::SubtractOp>(twoZ, m.constant(3));
  Value quotient = emitPolynomial(m, kDigammaOverZero, s);
  Value fromZero = m.binary<tvm::SubtractOp>(z, m.constant(kDigammaZeroHigh));
  fromZero = m.binary<tvm::SubtractOp>(fromZero, m.constant(kDigammaZeroLow));
  Value near = m.binary<tvm::MultiplyOp>(fromZero, quotient);
  // From 2: log y - t/2 + g(t), t = 1/y, s = 4t - 1 (on max(y, 2)).
  Value far = m.binary<tvm::MaximumOp>(y, m.constant(2));
  Value t = m.binary<tvm::DivideOp>(one, far);
  Value fourT = m.binary<tvm::MultiplyOp>(t, m.constant(4));
  Value sFar = m.binary<tvm::SubtractOp>(fourT, one);
  Value g = emitPolynomial(m, kDigammaAsymptotic, sFar);
  Value logY = m.unary<tvm::LogOp>(far);
  Value halfT = m.binary<tvm::MultiplyOp>(t, m.constant(0.5));
  Value asymptotic = m.binary<tvm::SubtractOp>(logY, halfT);
  asymptotic = m.binary<tvm::AddOp>(asymptotic, g);
  Value belowTwo = m.compare<tvm::LessOp>(z, m.constant(2));
  Value psi = m.select(belowTwo, near, asymptotic);
  // psi(y) = psi(y + 1) - 1/y below 1; psi(1 - x) = psi(-x) + 1/(-x).
  Value negativeInverse = m.unary<tvm::NegativeOp>(inverse);
  Value shiftTerm = m.select(shifted, inverse, zero);
  Value step = m.select(belowOne, negativeInverse, shiftTerm);
  psi = m.binary<tvm::AddOp>(psi, step);
  Value cotTerm = emitPiCotPi(m, fractionalPart(m, x));
  Value reflected = m.binary<tvm::SubtractOp>(psi, cotTerm);
  Value result = m.select(small, reflected, psi);
  // The poles (0, -1, -2, ...) are NaN, as XLA has them.
  Value integral = m.compare<tvm::EqualOp>(m.unary<tvm::FloorOp>(x), x);
  Value nonPositive = m.compare<tvm::LessEqualOp>(x, zero);
  Value pole = m.logical<tvm::LogicalAndOp>(integral, nonPositive);
  Value nan = tvm::IsNaNOp::create(m.b, m.loc, m.boolType(), x);
  Value undefined = m.logical<tvm::LogicalOrOp>(pole, nan);
  return m.select(undefined,
                  m.constant(std::numeric_limits<double>::quiet_NaN()),
                  result);
}

/// Whether the integral `x` is even: floor(x / 2) * 2 == x.
Value isEven(MathBuilder &m, Value x) {
  Value half = m.binary<tvm::MultiplyOp>(x, m.constant(0.5));
  Value floorHalf = m.unary<tvm::FloorOp>(half);
  Value twice = m.binary<tvm::AddOp>(floorHalf, floorHalf);
  return m.compare<tvm::EqualOp>(twice, x);
}

/// Hurwitz zeta(x, q) = sum over k >= 0 of (q + k)^-x: ten terms of the sum,
/// then Euler-Maclaurin from a = q + 9 (the integral, half the last term,
/// and twelve Bernoulli corrections B_2j / (2j)! (x)_(2j-1) a^(-x-2j+1)).
/// Outside the domain, as XLA: +inf at x = 1, NaN for x < 1 and for q <= 0
/// with x not integral; at the poles (q a non-positive integer) +inf for
/// even x and NaN for odd x.
Value emitZeta(MathBuilder &m, Value x, Value original) {
  Value q = original;
  // (2j)! / B_2j for j = 1..12.
  static constexpr double kScales[] = {
      12.0, -720.0, 30240.0, -1209600.0, 47900160.0,
      -1.8924375803183791606e9, 7.47242496e10, -2.950130727918164224e12,
      1.1646782814350067249e14, -4.5979787224074726105e15,
      1.8152105401943546773e17, -7.1661652561756670113e18};
  Value one = m.constant(1);
  Value zero = m.constant(0);
  Value negX = m.unary<tvm::NegativeOp>(x);
  // A negative q is first moved to q + s >= 0 (s <= 12) by
  // zeta(x, q) = q^-x + zeta(x, q + 1), so that the tail starts at 9 or
  // more: from q + 9 near 3 it is off in the tenth digit.
  constexpr int kMaxShift = 12;
  Value negative = m.compare<tvm::LessOp>(q, zero);
  Value ceilNegQ = m.unary<tvm::NegativeOp>(m.unary<tvm::FloorOp>(q));
  Value shift = m.select(negative,
                         m.binary<tvm::MinimumOp>(ceilNegQ, m.constant(kMaxShift)),
                         zero);
  Value shifted = zero;
  for (int j = 0; j < kMaxShift; ++j) {
    Value jth = m.binary<tvm::AddOp>(q, m.constant(j));
    Value power = m.binary<tvm::PowerOp>(jth, negX);
    Value counted = m.compare<tvm::LessOp>(m.constant(j), shift);
    shifted = m.binary<tvm::AddOp>(shifted, m.select(counted, power, zero));
  }
  q = m.binary<tvm::AddOp>(q, shift);
  Value sum = m.binary<tvm::AddOp>(shifted, m.binary<tvm::PowerOp>(q, negX));
  Value a = q;
  Value term = sum;
  for (int k = 0; k < 9; ++k) {
    a = m.binary<tvm::AddOp>(a, one);
    term = m.binary<tvm::PowerOp>(a, negX);
    sum = m.binary<tvm::AddOp>(sum, term);
  }
  Value xMinusOne = m.binary<tvm::SubtractOp>(x, one);
  Value integral = m.binary<tvm::DivideOp>(m.binary<tvm::MultiplyOp>(term, a),
                                           xMinusOne);
  sum = m.binary<tvm::AddOp>(sum, integral);
  Value halfTerm = m.binary<tvm::MultiplyOp>(term, m.constant(0.5));
  sum = m.binary<tvm::SubtractOp>(sum, halfTerm);
  Value rising = one; // x (x + 1) ... (x + 2j - 2)
  Value k = m.constant(0);
  for (double scale : kScales) {
    rising = m.binary<tvm::MultiplyOp>(rising, m.binary<tvm::AddOp>(x, k));
    term = m.binary<tvm::DivideOp>(term, a);
    Value scaled = m.binary<tvm::DivideOp>(m.binary<tvm::MultiplyOp>(rising, term),
                                           m.constant(scale));
    sum = m.binary<tvm::AddOp>(sum, scaled);
    k = m.binary<tvm::AddOp>(k, one);
    rising = m.binary<tvm::MultiplyOp>(rising, m.binary<tvm::AddOp>(x, k));
    term = m.binary<tvm::DivideOp>(term, a);
    k = m.binary<tvm::AddOp>(k, one);
  }
  Value inf = m.constant(std::numeric_limits<double>::infinity());
  Value nan = m.constant(std::numeric_limits<double>::quiet_NaN());
  Value result = m.select(m.compare<tvm::EqualOp>(x, one), inf, sum);
  result = m.select(m.compare<tvm::LessOp>(x, one), nan, result);
  q = original;
  Value qNonPositive = m.compare<tvm::LessEqualOp>(q, m.constant(0));
  Value xIntegral = m.compare<tvm::EqualOp>(m.unary<tvm::FloorOp>(x), x);
  Value xFractional = m.logicalNot(xIntegral);
  result = m.select(m.logical<tvm::LogicalAndOp>(qNonPositive, xFractional),
                    nan, result);
  Value qIntegral = m.compare<tvm::EqualOp>(m.unary<tvm::FloorOp>(q), q);
  Value pole = m.logical<tvm::LogicalAndOp>(qNonPositive, qIntegral);
  Value atPole = m.select(isEven(m, x), inf, nan);
  return m.select(pole, atPole, result);
}

/// polygamma(n, x) = (-1)^(n+1) n! zeta(n + 1, x) for integral n >= 1,
/// digamma(x) for n = 0, NaN for other n.
Value emitPolygamma(MathBuilder &m, Value n, Value x) {
  Value one = m.constant(1);
  Value nPlusOne = m.binary<tvm::AddOp>(n, one);
  Value factorial = m.unary<tvm::ExpOp>(emitLgamma(m, nPlusOne));
  Value sign = m.select(isEven(m, n), m.constant(-1), one);
  Value zeta = emitZeta(m, nPlusOne, x);
  Value result = m.binary<tvm::MultiplyOp>(
      m.binary<tvm::MultiplyOp>(sign, factorial), zeta);
  result = m.select(m.compare<tvm::EqualOp>(n, m.constant(0)),
                    emitDigamma(m, x), result);
  Value nIntegral = m.compare<tvm::EqualOp>(m.unary<tvm::FloorOp>(n), n);
  Value nNegative = m.compare<tvm::LessOp>(n, m.constant(0));
  Value outside = m.logical<tvm::LogicalOrOp>(
      nNegative, m.logicalNot(nIntegral));
  return m.select(outside, m.constant(std::numeric_limits<double>::quiet_NaN()),
                  result);
}

/// f32 erf_inv: Giles' single-precision approximation ("Approximating the
/// erfinv function", GPU Computing Gems, 2010), a polynomial in
/// w = -log(1 - y^2) on each side of w = 5 times y (within a few ULP, as
/// XLA's f32 erf_inv): no erf and no f64, so it vectorizes (jax.random's
/// normal samples go through it). +-1 map to +-inf.
Value emitErfInvF32(MathBuilder &m, Value y) {
  static constexpr double central[] = {
      2.81022636e-08,  3.43273939e-07, -3.5233877e-06,
      -4.39150654e-06, 0.00021858087,  -0.00125372503,
      -0.00417768164,  0.246640727,    1.50140941};
  static constexpr double tail[] = {
      -0.000200214257, 0.000100950558, 0.00134934322,
      -0.00367342844,  0.00573950773,  -0.0076224613,
      0.00943887047,   1.00167406,     2.83297682};
  Value one = m.constant(1);
  Value w = m.unary<tvm::NegativeOp>(m.unary<tvm::LogOp>(m.binary<tvm::MultiplyOp>(
      m.binary<tvm::SubtractOp>(one, y), m.binary<tvm::AddOp>(one, y))));
  auto horner = [&](ArrayRef<double> coefficients, Value t) {
    Value p = m.constant(coefficients.front());
    for (double c : coefficients.drop_front())
      p = m.binary<tvm::AddOp>(m.constant(c), m.binary<tvm::MultiplyOp>(p, t));
    return p;
  };
  Value near = horner(central, m.binary<tvm::SubtractOp>(w, m.constant(2.5)));
  // The square root of a negative w (none: w >= 0 for |y| <= 1) or of the
  // central range's w is not used.
  Value far = horner(tail, m.binary<tvm::SubtractOp>(
                               m.unary<tvm::SqrtOp>(w), m.constant(3)));
  Value p = m.select(m.compare<tvm::LessOp>(w, m.constant(5)), near, far);
  Value x = m.binary<tvm::MultiplyOp>(p, y);
  Value atOne = m.compare<tvm::EqualOp>(m.unary<tvm::AbsOp>(y), one);
  Value signedInf = m.binary<tvm::MultiplyOp>(
      emitSign(m, y), m.constant(std::numeric_limits<double>::infinity()));
  return m.select(atOne, signedInf, x);
}

/// erf_inv: Winitzki's closed-form estimate, then three Newton steps on erf
/// and, from |y| = 1/2 on, a fourth whose residual erf(x) - y is
/// sign(y) ((1 - |y|) - erfc(|x|)): 1 - |y| is exact there and erfc(|x|)
/// accurate to its own ULPs, where erf(x) - y carries an ULP of 1 that the
/// step divides by the small slope (7 ULP at y = 0.998 without it). Where
/// 1 - |y| is within 1e-9 of 0 the three steps do not converge that close
/// and the result keeps their error. +-1 map to +-inf.
Value emitErfInv(MathBuilder &m, Value y) {
  constexpr double a = 0.147;
  Value one = m.constant(1);
  // 1 - y^2 as (1 - |y|)(1 + |y|): 1 - y^2 rounded cancels near +-1.
  Value magnitudeY = m.unary<tvm::AbsOp>(y);
  Value oneMinusMagnitude = m.binary<tvm::SubtractOp>(one, magnitudeY);
  Value oneMinusY2 = m.binary<tvm::MultiplyOp>(
      oneMinusMagnitude, m.binary<tvm::AddOp>(one, magnitudeY));
  Value ln = m.unary<tvm::LogOp>(oneMinusY2);
  Value halfLn = m.binary<tvm::MultiplyOp>(ln, m.constant(0.5));
  Value t = m.binary<tvm::AddOp>(m.constant(2 / (M_PI * a)), halfLn);
  Value t2 = m.binary<tvm::MultiplyOp>(t, t);
  Value lnOverA = m.binary<tvm::DivideOp>(ln, m.constant(a));
  Value inner = m.binary<tvm::SubtractOp>(t2, lnOverA);
  Value root = m.unary<tvm::SqrtOp>(inner);
  Value estimate = m.unary<tvm::SqrtOp>(m.binary<tvm::SubtractOp>(root, t));
  Value sign = emitSign(m, y);
  Value x = m.binary<tvm::MultiplyOp>(sign, estimate);
  Value scale = m.constant(2 / std::sqrt(M_PI));
  Value tail = m.compare<tvm::GreaterEqualOp>(magnitudeY, m.constant(0.5));
  for (int i = 0; i < 4; ++i) {
    Value residual;
    if (i < 3) {
      residual = m.binary<tvm::SubtractOp>(m.unary<tvm::ErfOp>(x), y);
    } else {
      // The last step's residual, accurate in the tail; elsewhere the
      // three before have converged.
      Value erfcX = emitErfc(m, m.unary<tvm::AbsOp>(x));
      Value tailResidual = m.binary<tvm::MultiplyOp>(
          sign, m.binary<tvm::SubtractOp>(oneMinusMagnitude, erfcX));
      residual = m.select(tail, tailResidual, m.constant(0));
    }
    Value x2 = m.binary<tvm::MultiplyOp>(x, x);
    Value negX2 = m.unary<tvm::NegativeOp>(x2);
    Value slope = m.binary<tvm::MultiplyOp>(scale, m.unary<tvm::ExpOp>(negX2));
    Value step = m.binary<tvm::DivideOp>(residual, slope);
    x = m.binary<tvm::SubtractOp>(x, step);
  }
  Value atOne = m.compare<tvm::EqualOp>(magnitudeY, one);
  Value inf = m.constant(std::numeric_limits<double>::infinity());
  Value signedInf = m.binary<tvm::MultiplyOp>(sign, inf);
  return m.select(atOne, signedInf, x);
}

// bessel_i1e, fitted by scripts/fit_float64_special.py i1e.
// bessel_i1e(y) / y on [0, 8], degree 30, fit error 6.6e-21
static constexpr double kI1eOverY[] = {
    0.044687709875608835, -0.06112433802966629, 0.06805759990951162,
    -0.06848260620582547, 0.06376740371340577, -0.05528003922705145,
    0.044674572621297426, -0.03367135551992345, 0.023686016957069872,
    -0.015571309256761071, 0.00958396215685903, -0.0055345677592584745,
    0.0030057623826419107, -0.0015388749695928036, 0.0007445124987600121,
    -0.00034117472470779683, 0.00014842079087416368, -6.142655661897402e-05,
    2.423470540495527e-05, -9.131776664168443e-06, 3.2924557329085607e-06,
    -1.1381555648107214e-06, 3.774988459780846e-07, -1.1994064721626751e-07,
    3.685261019396175e-08, -1.122403584956652e-08, 3.19001022454089e-09,
    -7.278385771188532e-10, 1.9897866775946007e-10, -9.50499529391487e-11,
    2.3182083168309976e-11,
};
// sqrt(y) bessel_i1e(y) in t = 6/y on [0, 1], degree 32, fit error 7.5e-19
static constexpr double kI1eTimesRootY[] = {
    0.386123659201314, -0.0132013913819496, -0.0004189330009531233,
    -4.25968017857122e-05, -8.402420097515145e-06, -2.9270430713027268e-06,
    -1.4382149069374854e-06, -4.270408221739424e-07, 5.256081247236111e-07,
    7.949880874723974e-07, 6.079925727789184e-08, -6.237075449082814e-07,
    -1.5379777777233544e-07, 5.296752357602153e-07, 5.399618485568706e-08,
    -4.93158737347039e-07, 1.399968901860585e-07, 4.366517267514892e-07,
    -3.624278496286049e-07, -3.220071742911452e-07, 5.206101473980287e-07,
    1.7411760358552538e-07, -5.341433405260107e-07, -5.365210860163363e-08,
    4.0499845554704924e-07, -3.2999161974130972e-09, -2.22822752613208e-07,
    1.1410384423015488e-08, 8.42906512878241e-08, -4.6666246035068644e-09,
    -1.9611145187430427e-08, 6.916798806203799e-10, 2.114213848388977e-09,
};

/// bessel_i1e(x) = exp(-|x|) I1(x), odd in x: y times the fit of i1e(y) / y
/// up to 6, the fit of sqrt(y) i1e(y) in 6/y beyond. (I1's power series
/// times exp(-y) up to 25 summed 46 terms to 10 ULP near 24.)
Value emitBesselI1e(MathBuilder &m, Value x) {
  Value y = m.unary<tvm::AbsOp>(x);
  Value quarter = m.binary<tvm::MultiplyOp>(y, m.constant(0.25));
  Value s = m.binary<tvm::SubtractOp>(quarter, m.constant(1));
  Value overY = emitPolynomial(m, kI1eOverY, s);
  Value small = m.binary<tvm::MultiplyOp>(overY, y);
  Value far = m.binary<tvm::MaximumOp>(y, m.constant(6));
  Value t = m.binary<tvm::DivideOp>(m.constant(6), far);
  Value twoT = m.binary<tvm::AddOp>(t, t);
  Value sFar = m.binary<tvm::SubtractOp>(twoT, m.constant(1));
  Value rootScaled = emitPolynomial(m, kI1eTimesRootY, sFar);
  Value asymptotic =
      m.binary<tvm::MultiplyOp>(rootScaled, m.unary<tvm::RsqrtOp>(far));
  Value large = m.compare<tvm::GreaterOp>(y, m.constant(6));
  Value magnitude = m.select(large, asymptotic, small);
  // Odd: -0 stays -0.
  Value zero = m.compare<tvm::EqualOp>(y, m.constant(0));
  return m.select(zero, x, withSignOf(m, x, magnitude));
}

Value emitCbrt(MathBuilder &m, Value x) {
  Value a = m.unary<tvm::AbsOp>(x);
  // pow(a, 1/3) is off by |log a| times 1/3's rounding error: one Newton
  // step y -= (y^3 - a) / 3y^2 makes it correctly rounded but for an ULP.
  // Tiny a are scaled by 2^300 first (y^3 - a must not be subnormal).
  Value tiny = m.compare<tvm::LessOp>(a, m.constant(std::ldexp(1.0, -900)));
  Value up = m.binary<tvm::MultiplyOp>(a, m.constant(std::ldexp(1.0, 300)));
  Value scaled = m.select(tiny, up, a);
  Value y = m.binary<tvm::PowerOp>(scaled, m.constant(1.0 / 3.0));
  Value y2 = m.binary<tvm::MultiplyOp>(y, y);
  Value y3 = m.binary<tvm::MultiplyOp>(y2, y);
  Value residual = m.binary<tvm::SubtractOp>(y3, scaled);
  Value slope = m.binary<tvm::MultiplyOp>(m.constant(3), y2);
  Value step = m.binary<tvm::DivideOp>(residual, slope);
  Value refined = m.binary<tvm::SubtractOp>(y, step);
  Value down =
      m.binary<tvm::MultiplyOp>(refined, m.constant(std::ldexp(1.0, -100)));
  Value magnitude = m.select(tiny, down, refined);
  // Infinity (where the step is inf - inf) and NaN are their own roots.
  Value special =
      m.logicalNot(tvm::IsFiniteOp::create(m.b, m.loc, m.boolType(), a));
  magnitude = m.select(special, a, magnitude);
  return keepZeros(m, x, withSignOf(m, x, magnitude));
}

/// sinh |x| = (u + u / (u + 1)) / 2 with u = expm1|x|: no cancellation for
/// small x. Beyond 20, e^|x| / 2 as (e^(|x|/2) / 2) e^(|x|/2), which
/// overflows only where sinh does.
Value emitSinh(MathBuilder &m, Value x) {
  Value y = m.unary<tvm::AbsOp>(x);
  Value u = emitExpm1(m, y);
  Value one = m.constant(1), half = m.constant(0.5);
  Value ratio = m.binary<tvm::DivideOp>(u, m.binary<tvm::AddOp>(u, one));
  Value small = m.binary<tvm::MultiplyOp>(half, m.binary<tvm::AddOp>(u, ratio));
  Value h = m.unary<tvm::ExpOp>(m.binary<tvm::MultiplyOp>(half, y));
  Value large = m.binary<tvm::MultiplyOp>(m.binary<tvm::MultiplyOp>(half, h), h);
  Value beyond = m.compare<tvm::GreaterOp>(y, m.constant(20));
  Value magnitude = m.select(beyond, large, small);
  return keepZeros(m, x, withSignOf(m, x, magnitude));
}

/// cosh x = (e^|x| + e^-|x|) / 2; beyond 20 as sinh's large branch.
Value emitCosh(MathBuilder &m, Value x) {
  Value y = m.unary<tvm::AbsOp>(x);
  Value half = m.constant(0.5);
  Value e = m.unary<tvm::ExpOp>(y);
  Value sum = m.binary<tvm::AddOp>(e, m.binary<tvm::DivideOp>(m.constant(1), e));
  Value small = m.binary<tvm::MultiplyOp>(half, sum);
  Value h = m.unary<tvm::ExpOp>(m.binary<tvm::MultiplyOp>(half, y));
  Value large = m.binary<tvm::MultiplyOp>(m.binary<tvm::MultiplyOp>(half, h), h);
  Value beyond = m.compare<tvm::GreaterOp>(y, m.constant(20));
  return m.select(beyond, large, small);
}

/// Set bits of an unsigned integer, by the SWAR sums of pairs, nibbles,
/// bytes, ...: a few shifts, ands and adds, no lookup.
Value emitPopcount(MathBuilder &m, Value x, unsigned width) {
  Value result = x;
  for (unsigned step = 1; step < width; step *= 2) {
    // Bits of each 2*step-wide field: low half plus high half.
    APInt pattern(width, 0);
    for (unsigned bit = 0; bit < width; bit += 2 * step)
      pattern.setBits(bit, bit + step);
    Value fieldMask = splatConstant(
        m.b, m.loc, m.type,
        m.b.getIntegerAttr(m.type.getElementType(), pattern));
    Value shift = splatConstant(
        m.b, m.loc, m.type, m.b.getIntegerAttr(m.type.getElementType(), step));
    Value low = m.binary<tvm::BitwiseAndOp>(result, fieldMask);
    Value shifted = m.binary<tvm::RightShiftOp>(result, shift);
    Value high = m.binary<tvm::BitwiseAndOp>(shifted, fieldMask);
    result = m.binary<tvm::AddOp>(low, high);
  }
  return result;
}

/// Leading zeros: smear the highest set bit right, then count the zeros left.
Value emitLeadingZeros(MathBuilder &m, Value x, unsigned width) {
  Value smeared = x;
  for (unsigned step = 1; step < width; step *= 2) {
    Value shift = splatConstant(
        m.b, m.loc, m.type, m.b.getIntegerAttr(m.type.getElementType(), step));
    Value shifted = m.binary<tvm::RightShiftOp>(smeared, shift);
    smeared = m.binary<tvm::BitwiseOrOp>(smeared, shifted);
  }
  Value ones = emitPopcount(m, smeared, width);
  Value total = splatConstant(
      m.b, m.loc, m.type, m.b.getIntegerAttr(m.type.getElementType(), width));
  return m.binary<tvm::SubtractOp>(total, ones);
}

/// popcnt and count_leading_zeros on integers, computed on the unsigned bits.
template <typename SrcOp>
struct BitCountConversion : TVMTypedPattern<SrcOp> {
  using TVMTypedPattern<SrcOp>::TVMTypedPattern;

  LogicalResult
  rewrite(SrcOp op, typename SrcOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    auto intType = dyn_cast<IntegerType>(type.getElementType());
    if (!intType || intType.getWidth() == 1)
      return decline(rewriter, op, "not an integer tensor");
    Location loc = op.getLoc();
    unsigned width = intType.getWidth();
    auto unsignedType = type.clone(
        IntegerType::get(rewriter.getContext(), width, IntegerType::Unsigned));
    Value x = astype(rewriter, loc, adaptor.getOperand(), unsignedType);
    MathBuilder m{rewriter, loc, unsignedType};
    Value result;
    if constexpr (std::is_same_v<SrcOp, stablehlo::PopulationCountOp>)
      result = emitPopcount(m, x, width);
    else
      result = emitLeadingZeros(m, x, width);
    rewriter.replaceOp(op, astype(rewriter, loc, result, type));
    return success();
  }
};

enum class InfKind { Any, Positive, Negative };

template <InfKind kind>
Value emitIsInf(OpBuilder &b, Location loc, Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  MathBuilder m{b, loc, type};
  double inf = std::numeric_limits<double>::infinity();
  Value subject = kind == InfKind::Any ? m.unary<tvm::AbsOp>(x) : x;
  Value target = m.constant(kind == InfKind::Negative ? -inf : inf);
  return tvm::EqualOp::create(b, loc, type.clone(b.getI1Type()), subject, target);
}

/// A float function of its operands (`Emit` takes the builder and one
/// Value per operand), computed in f32 for f16/bf16. Floats narrower than
/// `MinWidth` bits compute widened (see computeWidened).
template <typename SrcOp, auto Emit, unsigned MinWidth = 32>
struct FloatMathConversion : TVMTypedPattern<SrcOp> {
  using TVMTypedPattern<SrcOp>::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(SrcOp op, typename SrcOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    Type element = type.getElementType();
    if (!isa<FloatType>(element))
      return decline(rewriter, op, "not a float tensor");
    Location loc = op.getLoc();
    Value result = computeWidened(
        rewriter, loc, adaptor.getOperands(), type, MinWidth,
        [&](ValueRange operands, RankedTensorType computeType) {
          MathBuilder m{rewriter, loc, computeType, operands[0]};
          if constexpr (std::is_invocable_v<decltype(Emit), MathBuilder &, Value>)
            return Emit(m, operands[0]);
          else
            return Emit(m, operands[0], operands[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// f32 tanh stays tvm.tanh: stablehlo_tvm's CPU build lowers it to vector
/// code within 1 ULP (python/stablehlo_tvm/cpu/fastmath.py), many times
/// faster than the f64 formula.
Value emitTanhOp(MathBuilder &m, Value x) { return m.unary<tvm::TanhOp>(x); }

/// One formula for f32 (FloatMathConversion computes narrower floats in f32)
/// and another for f64.
template <Value (*EmitF32)(MathBuilder &, Value),
          Value (*EmitF64)(MathBuilder &, Value)>
Value emitByWidth(MathBuilder &m, Value x) {
  return m.type.getElementType().isF32() ? EmitF32(m, x) : EmitF64(m, x);
}

struct SignConversion : TVMTypedPattern<stablehlo::SignOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(stablehlo::SignOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getType().getElementType().isInteger(1))
      return decline(rewriter, op, "element type unsupported");
    MathBuilder m{rewriter, op.getLoc(), op.getType(), adaptor.getOperand()};
    rewriter.replaceOp(op, emitSign(m, adaptor.getOperand()));
    return success();
  }
};

template <typename SrcOp, InfKind kind>
struct IsInfConversion : TVMTypedPattern<SrcOp> {
  using TVMTypedPattern<SrcOp>::TVMTypedPattern;

  LogicalResult
  rewrite(SrcOp op, typename SrcOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, emitIsInf<kind>(rewriter, op.getLoc(),
                                           adaptor.getOperand()));
    return success();
  }
};

/// power on floats (C's pow); integer powers are left unsupported.
struct FloatPowerConversion : TVMTypedPattern<stablehlo::PowOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(stablehlo::PowOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = op.getType();
    Type element = type.getElementType();
    if (!isa<FloatType>(element))
      return decline(rewriter, op, "not a float power");
    rewriter.replaceOp(
        op, computeHalfInF32(rewriter, op.getLoc(), adaptor.getOperands(), type,
                             [&](ValueRange operands, RankedTensorType wideType) {
                               return tvm::PowerOp::create(
                                   rewriter, op.getLoc(), wideType, operands);
                             }));
    return success();
  }
};

} // namespace

void populateMathPatterns(MLIRContext *context, RewritePatternSet &patterns) {
  using namespace stablehlo;
  patterns.add<FloatMathConversion<RoundOp, emitRoundAwayFromZero>,
               FloatMathConversion<Expm1Op, emitExpm1>,
               FloatMathConversion<Log1pOp, emitLog1p>,
               // f32 and narrower in f64 (see below).
               FloatMathConversion<CbrtOp, emitCbrt, 64>,
               FloatMathConversion<chlo::SinhOp, emitSinh, 64>,
               FloatMathConversion<chlo::CoshOp, emitCosh, 64>,
               FloatMathConversion<TanhOp, emitByWidth<emitTanhOp, emitTanh>>,
               FloatMathConversion<chlo::ErfcOp,
                                   emitByWidth<emitErfcF32, emitErfc>>,
               // f32 and narrower in f64: rounding a wider result keeps the
               // error within 1 ULP.
               FloatMathConversion<chlo::AtanhOp, emitAtanh, 64>,
               FloatMathConversion<chlo::LgammaOp, emitLgamma, 64>,
               FloatMathConversion<chlo::DigammaOp, emitDigamma, 64>,
               FloatMathConversion<chlo::ErfInvOp,
                                   emitByWidth<emitErfInvF32, emitErfInv>>,
               FloatMathConversion<chlo::BesselI1eOp, emitBesselI1e, 64>,
               FloatMathConversion<chlo::ZetaOp, emitZeta, 64>,
               FloatMathConversion<chlo::PolygammaOp, emitPolygamma, 64>,
               SignConversion,
               FloatPowerConversion,
               IsInfConversion<chlo::IsInfOp, InfKind::Any>,
               IsInfConversion<chlo::IsPosInfOp, InfKind::Positive>,
               IsInfConversion<chlo::IsNegInfOp, InfKind::Negative>,
               BitCountConversion<PopulationCountOp>,
               BitCountConversion<ClzOp>>(context);
}

} // namespace mlir::stablehlo_tvm
