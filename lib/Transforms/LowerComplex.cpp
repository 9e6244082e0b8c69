//===- LowerComplex.cpp - Complex tensors as pairs of real tensors --------===//
//
// TVM has no complex dtype. Every tensor of complex<fN> becomes two tensors of
// fN, its real and imaginary parts, in function signatures too (each complex
// argument or result becomes two, real first; the original positions are
// listed in `tvm.complex_arguments` / `tvm.complex_results`). Ops become
// their definitions over the parts, in stablehlo/chlo ops on real tensors.
// A function using a complex op with no formula here is left unchanged, for
// the legality check to report.
//
//===----------------------------------------------------------------------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "stablehlo-tvm/Dialect/CHLO/IR/CHLO.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"
#include "stablehlo-tvm/Support/LibraryFft.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cmath>

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_LOWERCOMPLEX
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

bool isComplexTensor(Type type) {
  return isa<ComplexType>(getElementTypeOrSelf(type));
}

bool hasComplex(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isComplexTensor) ||
         llvm::any_of(op->getResultTypes(), isComplexTensor);
}

/// The real tensor type of either part of a complex tensor type.
RankedTensorType partType(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return tensor.clone(
      cast<ComplexType>(tensor.getElementType()).getElementType());
}

struct ComplexTypeConverter : TypeConverter {
  ComplexTypeConverter() {
    addConversion([](Type type) { return type; });
    addConversion([](RankedTensorType type, SmallVectorImpl<Type> &results)
                      -> std::optional<LogicalResult> {
      if (!isa<ComplexType>(type.getElementType()))
        return std::nullopt;
      results.push_back(partType(type));
      results.push_back(partType(type));
      return success();
    });
  }
};

/// Arithmetic on real tensors of one type, as stablehlo/chlo ops.
struct Real {
  OpBuilder &b;
  Location loc;

  template <typename Op> Value un(Value x) {
    return Op::create(b, loc, x.getType(), x);
  }
  template <typename Op> Value bin(Value x, Value y) {
    return Op::create(b, loc, x.getType(), x, y);
  }
  Value add(Value x, Value y) { return bin<stablehlo::AddOp>(x, y); }
  Value sub(Value x, Value y) { return bin<stablehlo::SubtractOp>(x, y); }
  Value mul(Value x, Value y) { return bin<stablehlo::MulOp>(x, y); }
  Value div(Value x, Value y) { return bin<stablehlo::DivOp>(x, y); }
  Value neg(Value x) { return un<stablehlo::NegOp>(x); }
  Value abs(Value x) { return un<stablehlo::AbsOp>(x); }
  Value exp(Value x) { return un<stablehlo::ExpOp>(x); }
  Value expm1(Value x) { return un<stablehlo::Expm1Op>(x); }
  Value log(Value x) { return un<stablehlo::LogOp>(x); }
  Value log1p(Value x) { return un<stablehlo::Log1pOp>(x); }
  Value sqrt(Value x) { return un<stablehlo::SqrtOp>(x); }
  Value sin(Value x) { return un<stablehlo::SineOp>(x); }
  Value cos(Value x) { return un<stablehlo::CosineOp>(x); }
  Value sinh(Value x) { return un<chlo::SinhOp>(x); }
  Value cosh(Value x) { return un<chlo::CoshOp>(x); }
  Value atan2(Value y, Value x) { return bin<stablehlo::Atan2Op>(y, x); }
  Value max(Value x, Value y) { return bin<stablehlo::MaxOp>(x, y); }
  Value min(Value x, Value y) { return bin<stablehlo::MinOp>(x, y); }
  Value constant(Value like, double value) {
    auto type = cast<RankedTensorType>(like.getType());
    if (type.hasStaticShape())
      return stablehlo::ConstantOp::create(
          b, loc, type,
          DenseElementsAttr::get(type, b.getFloatAttr(type.getElementType(), value)));
    // A dynamic shape: the scalar broadcast to `like`'s sizes, as JAX
    // writes it (stablehlo-symbolize-shapes reads the sizes).
    auto scalarType = RankedTensorType::get({}, type.getElementType());
    Value scalar = stablehlo::ConstantOp::create(
        b, loc, scalarType,
        DenseElementsAttr::get(scalarType,
                               b.getFloatAttr(type.getElementType(), value)));
    auto i32 = b.getI32Type();
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      Value size = stablehlo::GetDimensionSizeOp::create(
          b, loc, RankedTensorType::get({}, i32), like, d);
      sizes.push_back(stablehlo::ReshapeOp::create(
          b, loc, RankedTensorType::get({1}, i32), size));
    }
    Value shape = stablehlo::ConcatenateOp::create(
        b, loc, RankedTensorType::get({type.getRank()}, i32), sizes, 0);
    return stablehlo::DynamicBroadcastInDimOp::create(
        b, loc, type, scalar, shape, b.getDenseI64ArrayAttr({}),
        DenseI64ArrayAttr{}, DenseI64ArrayAttr{});
  }
  Value compare(stablehlo::ComparisonDirection dir, Value x, Value y) {
    auto type = cast<RankedTensorType>(x.getType()).clone(b.getI1Type());
    return stablehlo::CompareOp::create(
        b, loc, type, x, y,
        stablehlo::ComparisonDirectionAttr::get(b.getContext(), dir),
        stablehlo::ComparisonTypeAttr{});
  }
  Value select(Value pred, Value x, Value y) {
    return stablehlo::SelectOp::create(b, loc, x.getType(), pred, x, y);
  }
  Value andOp(Value x, Value y) { return bin<stablehlo::AndOp>(x, y); }
  Value orOp(Value x, Value y) { return bin<stablehlo::OrOp>(x, y); }
  /// Whether x's sign bit is set: x < 0, or x = -0 (1 / -0 is -inf).
  Value signBit(Value x) {
    Value zero = constant(x, 0.0);
    Value negative = compare(stablehlo::ComparisonDirection::LT, x, zero);
    Value reciprocal = div(constant(x, 1.0), x);
    return orOp(negative,
                compare(stablehlo::ComparisonDirection::LT, reciprocal, zero));
  }
  Value isInf(Value x) {
    return compare(stablehlo::ComparisonDirection::EQ, abs(x),
                   constant(x, INFINITY));
  }
  Value isFinite(Value x) {
    return compare(stablehlo::ComparisonDirection::LT, abs(x),
                   constant(x, INFINITY));
  }
  Value isNaN(Value x) {
    return compare(stablehlo::ComparisonDirection::NE, x, x);
  }

  /// |x + iy| without overflow in the squares: m * sqrt(1 + (n/m)^2).
  Value hypot(Value x, Value y) {
    Value ax = abs(x), ay = abs(y);
    Value m = max(ax, ay), n = min(ax, ay);
    Value zero = constant(x, 0.0), one = constant(x, 1.0);
    Value ratio = div(n, m);
    Value scaled = mul(m, sqrt(add(one, mul(ratio, ratio))));
    // 0/0 and inf/inf: the modulus is m itself.
    Value degenerate = orOp(compare(stablehlo::ComparisonDirection::EQ, m, zero),
                            compare(stablehlo::ComparisonDirection::EQ, m, n));
    Value exact = select(compare(stablehlo::ComparisonDirection::EQ, n, zero),
                         m, scaled);
    Value infinite = compare(stablehlo::ComparisonDirection::EQ, m,
                             constant(x, INFINITY));
    return select(orOp(degenerate, infinite),
                  select(degenerate, mul(m, sqrt(constant(x, 2.0))), m),
                  exact);
  }
};

using Parts = std::pair<Value, Value>;

/// Complex arithmetic over parts.
struct Complex : Real {
  using Real::add, Real::cos, Real::cosh, Real::div, Real::exp,
      Real::expm1, Real::log, Real::log1p, Real::mul, Real::sin, Real::sinh,
      Real::sqrt, Real::sub;

  Parts mul(Parts x, Parts y) {
    Value re = sub(Real::mul(x.first, y.first), Real::mul(x.second, y.second));
    Value im = add(Real::mul(x.first, y.second), Real::mul(x.second, y.first));
    return {re, im};
  }
  /// Smith's algorithm: divide by the larger part of the divisor first. Its
  /// sums (a + b r, c + d r, |r| <= 1) overflow where a part exceeds half
  /// the largest float although the quotient may not: such an operand is
  /// halved first (exactly) and the quotient scaled back after.
  Parts div(Parts x, Parts y) {
    auto [a, b2] = scaledBelowHalfLargest(x);
    auto [c, d] = scaledBelowHalfLargest(y);
    Value cBigger = compare(stablehlo::ComparisonDirection::GE, abs(c), abs(d));
    // |c| >= |d|: r = d/c, den = c + d r, ((a + b r), (b - a r)) / den.
    Value r1 = Real::div(d, c);
    Value den1 = add(c, Real::mul(d, r1));
    Value re1 = Real::div(add(a, Real::mul(b2, r1)), den1);
    Value im1 = Real::div(sub(b2, Real::mul(a, r1)), den1);
    // |c| < |d|: r = c/d, den = c r + d, ((a r + b), (b r - a)) / den.
    Value r2 = Real::div(c, d);
    Value den2 = add(Real::mul(c, r2), d);
    Value re2 = Real::div(add(Real::mul(a, r2), b2), den2);
    Value im2 = Real::div(sub(Real::mul(b2, r2), a), den2);
    Value re = select(cBigger, re1, re2), im = select(cBigger, im1, im2);
    // x s / (y t) is the quotient times s / t, each 1/2 or 1.
    Value undo = Real::div(scaleOf(y), scaleOf(x));
    re = Real::mul(re, undo);
    im = Real::mul(im, undo);
    return divisionSpecialValues(x, y, re, im);
  }
  /// 1/2 where a part of `x` exceeds half the largest float, else 1.
  Value scaleOf(Parts x) {
    auto type = cast<FloatType>(getElementTypeOrSelf(x.first.getType()));
    APFloat limit = APFloat::getLargest(type.getFloatSemantics());
    limit.divide(APFloat(type.getFloatSemantics(), 2),
                 APFloat::rmNearestTiesToEven);
    Value large = compare(stablehlo::ComparisonDirection::GT,
                          max(abs(x.first), abs(x.second)),
                          constant(x.first, limit.convertToDouble()));
    return select(large, constant(x.first, 0.5), constant(x.first, 1.0));
  }
  Parts scaledBelowHalfLargest(Parts x) {
    Value scale = scaleOf(x);
    return {Real::mul(x.first, scale), Real::mul(x.second, scale)};
  }
  /// C99 Annex G's recovery of infinities and zeros that Smith's formula
  /// makes NaN of (0/0, inf/inf): a nonzero over zero is an infinity,
  /// finite over infinite a zero, infinite over finite an infinity, each
  /// with the signs the parts give.
  Parts divisionSpecialValues(Parts x, Parts y, Value re, Value im) {
    using stablehlo::ComparisonDirection;
    auto [a, b] = x;
    auto [c, d] = y;
    Value zero = constant(a, 0.0), one = constant(a, 1.0),
          inf = constant(a, INFINITY);
    auto copySign = [&](Value magnitude, Value v) {
      return select(signBit(v), neg(magnitude), magnitude);
    };
    // copysign(1 or 0, v): an infinite part as +-1, a finite one as +-0.
    auto unit = [&](Value v) {
      return copySign(select(isInf(v), one, zero), v);
    };
    // Only where Smith's formula gave NaN: C99 applies the rules there.
    Value nanResult = orOp(isNaN(re), isNaN(im));
    Value finiteX = andOp(isFinite(a), isFinite(b));
    Value finiteY = andOp(isFinite(c), isFinite(d));
    Value zeroY = andOp(compare(ComparisonDirection::EQ, c, zero),
                        compare(ComparisonDirection::EQ, d, zero));
    Value numberX = orOp(compare(ComparisonDirection::EQ, a, a),
                         compare(ComparisonDirection::EQ, b, b));
    // x / 0 with x not NaN: copysign(inf, c) * (a, b).
    Value signedInf = copySign(inf, c);
    Value nonzeroX = orOp(compare(ComparisonDirection::NE, a, zero),
                          compare(ComparisonDirection::NE, b, zero));
    Value overZero = andOp(zeroY, andOp(numberX, nonzeroX));
    // Infinite over finite: inf * (a' c + b' d), inf * (b' c - a' d).
    Value infX = orOp(isInf(a), isInf(b));
    Value ua = unit(a), ub = unit(b);
    Value infOverFinite = andOp(infX, finiteY);
    Value reInf = Real::mul(inf, Real::add(Real::mul(ua, c), Real::mul(ub, d)));
    Value imInf = Real::mul(inf, Real::sub(Real::mul(ub, c), Real::mul(ua, d)));
    // Finite over infinite: 0 * (a c' + b d'), 0 * (b c' - a d').
    Value infY = orOp(isInf(c), isInf(d));
    Value uc = unit(c), ud = unit(d);
    Value finiteOverInf = andOp(finiteX, infY);
    Value reZero =
        Real::mul(zero, Real::add(Real::mul(a, uc), Real::mul(b, ud)));
    Value imZero =
        Real::mul(zero, Real::sub(Real::mul(b, uc), Real::mul(a, ud)));
    re = select(nanResult,
                select(overZero, Real::mul(signedInf, a),
                       select(infOverFinite, reInf,
                              select(finiteOverInf, reZero, re))),
                re);
    im = select(nanResult,
                select(overZero, Real::mul(signedInf, b),
                       select(infOverFinite, imInf,
                              select(finiteOverInf, imZero, im))),
                im);
    return {re, im};
  }
  /// e^a (cos b, sin b); exp(a + 0i) = e^a + 0i even where e^a overflows
  /// (C99), as sinh and cosh keep a zero imaginary part.
  Parts exp(Parts x) {
    Value e = Real::exp(x.first);
    return {Real::mul(e, cos(x.second)), timesSine(e, x.second)};
  }
  /// log|z| = log m + log1p((n/m)^2) / 2 (m, n the larger and smaller of
  /// |a| and |b|): accurate where |z| is near 1, unlike log(hypot(a, b)).
  Parts log(Parts x) {
    auto [a, b] = x;
    Value ax = abs(a), ay = abs(b);
    Value m = max(ax, ay), n = min(ax, ay);
    Value r = Real::div(n, m);
    Value half = constant(a, 0.5), inf = constant(a, INFINITY);
    Value correction = Real::mul(half, Real::log1p(Real::mul(r, r)));
    Value re = add(Real::log(m), correction);
    Value infinite =
        orOp(compare(stablehlo::ComparisonDirection::EQ, ax, inf),
             compare(stablehlo::ComparisonDirection::EQ, ay, inf));
    re = select(infinite, inf, re);
    Value zero = compare(stablehlo::ComparisonDirection::EQ, m,
                         constant(a, 0.0));
    re = select(zero, neg(inf), re);
    return {re, atan2(b, a)};
  }
  /// The principal square root: t = sqrt((|z| + |a|) / 2); for a >= 0 it is
  /// (t, b / 2t), else (|b| / 2t, t with b's sign).
  Parts sqrt(Parts x) {
    auto [a, b2] = x;
    Value zero = constant(a, 0.0), half = constant(a, 0.5);
    // t = sqrt(|z| / 2 + |a| / 2), halved before the sum: |z| + |a|
    // overflows for |a| near the maximum. Above 1 from z / 4 (exact there;
    // below, quartering a subnormal part would round it), t being twice
    // that root: |z| itself, and |z| / 2 + |a| / 2, overflow where both
    // parts are near the maximum.
    Value large = compare(stablehlo::ComparisonDirection::GT,
                          max(abs(a), abs(b2)), constant(a, 1.0));
    Value quarter = constant(a, 0.25);
    Value scale = select(large, quarter, constant(a, 1.0));
    Value as = Real::mul(a, scale), bs = Real::mul(b2, scale);
    Value root = Real::sqrt(
        add(Real::mul(half, hypot(as, bs)), Real::mul(half, abs(as))));
    Value t = select(large, add(root, root), root);
    Value twoT = add(t, t);
    Value q = Real::div(abs(b2), twoT);
    Value nonNegative = compare(stablehlo::ComparisonDirection::GE, a, zero);
    // sqrt(a - 0i) is the conjugate of sqrt(a + 0i): -0 counts as negative.
    Value bNegative = signBit(b2);
    Value re = select(nonNegative, t, q);
    Value imMagnitude = select(nonNegative, q, t);
    Value im = select(bNegative, neg(imMagnitude), imMagnitude);
    // sqrt(0 + bi) with b = 0: t = 0 and q = 0/0.
    Value isZero = compare(stablehlo::ComparisonDirection::EQ, t, zero);
    re = select(isZero, zero, re);
    im = select(isZero, b2, im);
    // C99: sqrt(a +- inf i) = inf +- inf i for every a, NaN included (q
    // would be inf / inf).
    Value infiniteB = isInf(b2);
    return {select(infiniteB, constant(a, INFINITY), re),
            select(infiniteB, b2, im)};
  }
  /// 1 / z by Smith's division: |z|^2 overflows for parts beyond 1e19 (f32).
  Parts reciprocal(Parts x) { return div(real(x.first, 1.0, 0.0), x); }
  /// f(a) sin b, but b itself where b = 0 and f(a) is not finite: C99's
  /// csinh/ccosh(+-inf + 0i) = +-inf + 0i and (NaN + 0i) = NaN + 0i (a
  /// zero imaginary part stays zero; inf * 0 would make it NaN).
  Value timesSine(Value fa, Value b) {
    using stablehlo::ComparisonDirection;
    Value zeroB = compare(ComparisonDirection::EQ, b, constant(b, 0.0));
    Value notFinite = orOp(
        compare(ComparisonDirection::NE, fa, fa),
        compare(ComparisonDirection::EQ, abs(fa),
                constant(fa, std::numeric_limits<double>::infinity())));
    return select(andOp(zeroB, notFinite), b, Real::mul(fa, Real::sin(b)));
  }
  /// sinh(a + bi) = (sinh a cos b, cosh a sin b).
  Parts sinh(Parts x) {
    return {Real::mul(Real::sinh(x.first), Real::cos(x.second)),
            timesSine(Real::cosh(x.first), x.second)};
  }
  /// cosh(a + bi) = (cosh a cos b, sinh a sin b).
  Parts cosh(Parts x) {
    return {Real::mul(Real::cosh(x.first), Real::cos(x.second)),
            timesSine(Real::sinh(x.first), x.second)};
  }
  /// tan z = -i tanh(iz): with tanh(-b + ai) = p + qi, tan z = q - pi.
  Parts tan(Parts x) {
    Parts t = tanh({neg(x.second), x.first});
    return {t.second, neg(t.first)};
  }
  Parts add(Parts x, Parts y) {
    return {Real::add(x.first, y.first), Real::add(x.second, y.second)};
  }
  Parts sub(Parts x, Parts y) {
    return {Real::sub(x.first, y.first), Real::sub(x.second, y.second)};
  }
  Parts negate(Parts x) { return {neg(x.first), neg(x.second)}; }
  /// i z and -i z.
  Parts timesI(Parts x) { return {neg(x.second), x.first}; }
  Parts timesMinusI(Parts x) { return {x.second, neg(x.first)}; }
  Parts real(Value like, double re, double im) {
    return {constant(like, re), constant(like, im)};
  }
  /// z^2 as ((a - b)(a + b), 2ab): no cancellation in the real part.
  Parts square(Parts x) {
    Value re = Real::mul(Real::sub(x.first, x.second),
                         Real::add(x.first, x.second));
    Value ab = Real::mul(x.first, x.second);
    return {re, Real::add(ab, ab)};
  }
  /// sqrt(1 - z) and sqrt(1 + z), with 1 - z's imaginary part -b (not
  /// 0 - b, which is +0 for b = +0 and puts the branch cut on the wrong side).
  std::pair<Parts, Parts> kahanRoots(Parts x) {
    Value one = constant(x.first, 1.0);
    Parts s = sqrt({Real::sub(one, x.first), neg(x.second)});
    Parts t = sqrt({Real::add(one, x.first), x.second});
    return {s, t};
  }
  /// Kahan's inverse sine: with s = sqrt(1 - z) and t = sqrt(1 + z),
  /// asin z = atan2(a, Re(s t)) + i asinh(Im(conj(s) t)). No square of z:
  /// no overflow for |z| up to the largest float, no cancellation near 1.
  Parts asin(Parts x) {
    auto [s, t] = kahanRoots(x);
    Value reST = Real::sub(Real::mul(s.first, t.first),
                           Real::mul(s.second, t.second));
    Value imConjST = Real::sub(Real::mul(s.first, t.second),
                               Real::mul(s.second, t.first));
    Value re = atan2(x.first, reST), im = un<chlo::AsinhOp>(imConjST);
    auto [reHuge, imHuge] = asinHuge(x);
    Value huge = isHuge(x);
    return {select(huge, reHuge, re), select(huge, imHuge, im)};
  }
  /// Beyond 1e150 (where s t overflows) and at infinity: asin z =
  /// atan2(a, |b|) + i sign(b) (log|z| + log 2), exact to 1/|z|^2.
  Parts asinHuge(Parts x) {
    auto [a, b] = x;
    Value magnitude = Real::add(log(x).first, constant(a, M_LN2));
    return {atan2(a, abs(b)), select(signBit(b), neg(magnitude), magnitude)};
  }
  /// A part beyond 1e150 or infinite (the other may be NaN).
  Value isHuge(Parts x) {
    Value big = constant(x.first, 1e150);
    return orOp(orOp(compare(stablehlo::ComparisonDirection::GT,
                             abs(x.first), big),
                     compare(stablehlo::ComparisonDirection::GT,
                             abs(x.second), big)),
                orOp(isInf(x.first), isInf(x.second)));
  }
  /// Kahan's inverse cosine: acos z = 2 atan2(Re s, Re t) +
  /// i asinh(Im(conj(t) s)), s and t as for asin.
  Parts acos(Parts x) {
    auto [s, t] = kahanRoots(x);
    Value ratio = atan2(s.first, t.first);
    Value imConjTS = Real::sub(Real::mul(t.first, s.second),
                               Real::mul(t.second, s.first));
    Value re = Real::add(ratio, ratio), im = un<chlo::AsinhOp>(imConjTS);
    auto [reHuge, imHuge] = asinHuge(x);
    Value huge = isHuge(x);
    return {select(huge, Real::sub(constant(x.first, M_PI_2), reHuge), re),
            select(huge, neg(imHuge), im)};
  }
  /// asinh z = -i asin(iz).
  Parts asinh(Parts x) { return timesMinusI(asin(timesI(x))); }
  /// Kahan's inverse hyperbolic cosine: with s = sqrt(z - 1) and
  /// t = sqrt(z + 1), acosh z = asinh(Re(conj(s) t)) + 2i atan2(Im s, Re t);
  /// beyond 1e150 and at infinity, log|z| + log 2 + i atan2(b, a).
  Parts acosh(Parts x) {
    auto [a, b] = x;
    Value one = constant(a, 1.0);
    Parts s = sqrt({Real::sub(a, one), b});
    Parts t = sqrt({Real::add(a, one), b});
    Value reConjST = Real::add(Real::mul(s.first, t.first),
                               Real::mul(s.second, t.second));
    Value angle = atan2(s.second, t.first);
    Value re = un<chlo::AsinhOp>(reConjST), im = Real::add(angle, angle);
    Value huge = isHuge(x);
    Value reHuge = Real::add(log(x).first, constant(a, M_LN2));
    return {select(huge, reHuge, re), select(huge, atan2(b, a), im)};
  }
  /// atanh(a + bi) = log1p(4a / ((1 - a)^2 + b^2)) / 4 +
  /// i atan2(2b, (1 - a)(1 + a) - b^2) / 2: the real part without the
  /// cancellation of log|1 + z| - log|1 - z|.
  Parts atanh(Parts x) {
    auto [a, b] = x;
    Value one = constant(a, 1.0);
    Value oneMinus = Real::sub(one, a);
    Value den = Real::add(Real::mul(oneMinus, oneMinus), Real::mul(b, b));
    Value four = constant(a, 4.0), quarter = constant(a, 0.25);
    // log1p near its argument's -1 (z near -1, or beyond it on the real
    // axis) cancels: there the difference of the two logs does not.
    Value ratio = Real::div(Real::mul(four, a), den);
    Value onePlus = Real::add(one, a);
    Value denPlus = Real::add(Real::mul(onePlus, onePlus), Real::mul(b, b));
    Value re = select(
        compare(stablehlo::ComparisonDirection::LT, abs(ratio),
                constant(a, 0.5)),
        Real::mul(quarter, Real::log1p(ratio)),
        Real::mul(quarter, Real::sub(Real::log(denPlus), Real::log(den))));
    Value half = constant(a, 0.5);
    Value im = Real::mul(
        half, atan2(Real::add(b, b),
                    Real::sub(Real::mul(oneMinus, Real::add(one, a)),
                              Real::mul(b, b))));
    // Beyond 1e150 and at infinity, the same with z scaled by its largest
    // part s (an infinite part scaled to +-1): re = Re(1/z), and im from
    // the scaled atan2 arguments, which keeps b's sign on zeros.
    Value scale = max(abs(a), abs(b));
    Value ap = select(isInf(a), un<stablehlo::SignOp>(a), Real::div(a, scale));
    Value bp = select(isInf(b), un<stablehlo::SignOp>(b), Real::div(b, scale));
    Value norm = Real::add(Real::mul(ap, ap), Real::mul(bp, bp));
    Value reHuge = Real::div(Real::div(ap, norm), scale);
    Value inverse = Real::div(one, scale);
    Value imHuge = Real::mul(
        half, atan2(Real::div(Real::add(bp, bp), scale),
                    Real::sub(Real::mul(Real::sub(inverse, ap),
                                        Real::add(inverse, ap)),
                              Real::mul(bp, bp))));
    Value huge = isHuge(x);
    re = select(huge, reHuge, re);
    im = select(huge, imHuge, im);
    // An infinite part: +-0 + i sign(b) pi/2, whatever the other part is.
    Value infinite = orOp(isInf(a), isInf(b));
    Value halfPi = constant(a, M_PI_2);
    re = select(infinite,
                select(signBit(a), constant(a, -0.0), constant(a, 0.0)), re);
    im = select(infinite, select(signBit(b), neg(halfPi), halfPi), im);
    return {re, im};
  }
  Parts atan(Parts x) { return timesMinusI(atanh(timesI(x))); }
  /// atan2(y, x) = -i log((x + iy) / sqrt(x^2 + y^2)): with u = x + iy and
  /// v = x - iy, x^2 + y^2 = uv, so the result is Arg(w) + i (ln|v| - ln|u|)/2
  /// for w = u / sqrt(uv). Evaluated that way, the log of a number near 1
  /// (the formula's cancellation, 1e-11 relative error) is not formed:
  ///   Im = log1p(4 (ad - bc) / |u|^2) / 4   (x = a + bi, y = c + di),
  ///   Re = Arg(u conj(v)) / 2 = atan2(2(ac + bd), |x|^2 - |y|^2) / 2,
  /// up to pi, which coarse angles of u and v settle. The parts are first
  /// divided by the largest, so no square overflows; infinite or NaN parts
  /// take the formula as written.
  Parts complexAtan2(Parts y, Parts x) {
    using stablehlo::ComparisonDirection;
    Value one = constant(x.first, 1.0), pi = constant(x.first, M_PI);
    Value scale = max(max(abs(x.first), abs(x.second)),
                      max(abs(y.first), abs(y.second)));
    Value finite = andOp(compare(ComparisonDirection::LT, scale,
                                 constant(scale, INFINITY)),
                         compare(ComparisonDirection::GT, scale,
                                 constant(scale, 0.0)));
    Value safeScale = select(finite, scale, one);
    Value a = Real::div(x.first, safeScale), b = Real::div(x.second, safeScale);
    Value c = Real::div(y.first, safeScale), d = Real::div(y.second, safeScale);
    Parts u = {Real::sub(a, d), Real::add(b, c)};
    Parts v = {Real::add(a, d), Real::sub(b, c)};
    Value normX = Real::add(Real::mul(a, a), Real::mul(b, b));
    Value normY = Real::add(Real::mul(c, c), Real::mul(d, d));
    Value cross = Real::add(Real::mul(a, c), Real::mul(b, d));
    Value half = Real::mul(
        constant(a, 0.5),
        atan2(Real::add(cross, cross), Real::sub(normX, normY)));
    // Which of half and half -+ pi: the one nearest Arg(u) - Arg(uv) / 2,
    // with Arg(uv) from uv's parts (the sign of a tiny imaginary part picks
    // the side of the square root's cut; Arg u + Arg v would round it away).
    Value argU = atan2(u.second, u.first);
    Value imUV = Real::add(Real::mul(a, b), Real::mul(c, d));
    Value reUV = Real::sub(Real::add(Real::mul(a, a), Real::mul(c, c)),
                           Real::add(Real::mul(b, b), Real::mul(d, d)));
    Value coarse = wrapAngle(Real::sub(
        argU, Real::mul(constant(a, 0.5),
                        atan2(Real::add(imUV, imUV), reUV))));
    Value alternative =
        select(compare(ComparisonDirection::GT, half, constant(a, 0.0)),
               Real::sub(half, pi), Real::add(half, pi));
    // Nearest around the circle: coarse may be pi where the value is -pi.
    Value re = select(
        compare(ComparisonDirection::LE, abs(wrapAngle(Real::sub(coarse, half))),
                abs(wrapAngle(Real::sub(coarse, alternative)))),
        half, alternative);
    Value normU = Real::add(Real::mul(u.first, u.first),
                            Real::mul(u.second, u.second));
    Value determinant = Real::sub(Real::mul(a, d), Real::mul(b, c));
    Value ratio = Real::div(Real::mul(constant(a, 4.0), determinant), normU);
    Value quarter = constant(a, 0.25);
    Value nearOne = compare(ComparisonDirection::LT, abs(ratio),
                            constant(a, 0.5));
    Value im = select(nearOne, Real::mul(quarter, Real::log1p(ratio)),
                      Real::mul(constant(a, 0.5),
                                Real::sub(log(v).first, log(u).first)));
    Parts formula = timesMinusI(
        log(div(add(x, timesI(y)), sqrt(add(mul(x, x), mul(y, y))))));
    return {select(finite, re, formula.first),
            select(finite, im, formula.second)};
  }
  /// t moved into (-pi, pi] by a turn (t within two turns of it).
  Value wrapAngle(Value t) {
    using stablehlo::ComparisonDirection;
    Value pi = constant(t, M_PI), turn = constant(t, 2 * M_PI);
    Value wrapped = select(compare(ComparisonDirection::GT, t, pi),
                           Real::sub(t, turn), t);
    return select(compare(ComparisonDirection::LE, wrapped, neg(pi)),
                  Real::add(wrapped, turn), wrapped);
  }
  /// x^y = exp(y log x) for x = a + bi, y = c + di, as
  /// |x|^c e^(-d arg x) (cos t, sin t) with t = c arg x + d log|x|: the
  /// modulus from a real power rounds once, where e^(Re(y log x)) carries
  /// the rounding of c log|x| (|c log|x|| ULPs). Zero, infinite and NaN
  /// parts, and a modulus the two factors cannot represent apart, take
  /// exp(y log x) as written.
  Parts power(Parts x, Parts y) {
    using stablehlo::ComparisonDirection;
    auto [c, d] = y;
    Parts logX = log(x);
    Value modulus = hypot(x.first, x.second);
    Value angle = logX.second;
    Value scale = Real::exp(neg(Real::mul(d, angle)));
    Value magnitude =
        Real::mul(bin<stablehlo::PowOp>(modulus, c), scale);
    Value turn = Real::add(Real::mul(c, angle), Real::mul(d, logX.first));
    Parts polar = {Real::mul(magnitude, Real::cos(turn)),
                   Real::mul(magnitude, Real::sin(turn))};
    Parts formula = exp(mul(y, logX));
    Value ordinary =
        andOp(andOp(andOp(isFinite(x.first), isFinite(x.second)),
                    andOp(isFinite(c), isFinite(d))),
              compare(ComparisonDirection::GT, modulus,
                      constant(modulus, 0.0)));
    // |x|^c and e^(-d arg x) may overflow or vanish apart where their
    // product would not.
    Value representable =
        andOp(isFinite(magnitude), compare(ComparisonDirection::GT, magnitude,
                                         constant(magnitude, 0.0)));
    ordinary = andOp(ordinary, representable);
    Value re = select(ordinary, polar.first, formula.first);
    Value im = select(ordinary, polar.second, formula.second);
    // Where log x or y log x is not finite, as XLA: x^0 = 1 and 1^y = 1
    // (NaN included), 0^y = 0 for real y > 0, x^1 = x.
    Value zero = constant(c, 0.0), one = constant(c, 1.0);
    auto is = [&](Value v, Value w) {
      return compare(ComparisonDirection::EQ, v, w);
    };
    Value zeroY = andOp(is(c, zero), is(d, zero));
    Value oneY = andOp(is(c, one), is(d, zero));
    Value oneX = andOp(is(x.first, one), is(x.second, zero));
    Value zeroX = andOp(is(x.first, zero), is(x.second, zero));
    Value vanishes = andOp(andOp(zeroX, compare(ComparisonDirection::GT, c,
                                                 zero)),
                           is(d, zero));
    Value unit = orOp(zeroY, oneX);
    re = select(unit, one, select(vanishes, zero, re));
    im = select(unit, zero, select(vanishes, zero, im));
    return {select(oneY, x.first, re), select(oneY, x.second, im)};
  }
  /// logistic(z) = 1 / (1 + exp(-z)).
  Parts logistic(Parts x) {
    Parts e = exp(negate(x));
    return reciprocal(add(real(x.first, 1.0, 0.0), e));
  }
  Parts sin(Parts x) {
    return {Real::mul(Real::sin(x.first), cosh(x.second)),
            Real::mul(Real::cos(x.first), sinh(x.second))};
  }
  Parts cos(Parts x) {
    return {Real::mul(Real::cos(x.first), cosh(x.second)),
            neg(Real::mul(Real::sin(x.first), sinh(x.second)))};
  }
  /// tanh(a + bi) by Kahan's formula: with t = tan b, s = sinh a,
  /// beta = 1 + t^2 and rho = sqrt(1 + s^2),
  /// tanh z = (beta rho s + i t) / (1 + beta s^2). It never doubles b (2b
  /// overflows near the largest float) and does not cancel near the poles,
  /// as (sinh 2a + i sin 2b) / (cosh 2a + cos 2b) does. For |a| > 20 and
  /// finite b it is sign(a) + 4 i sin b cos b e^-2|a| (a tiny imaginary
  /// part, not 0), and sign(a) + 0i for infinite a.
  Parts tanh(Parts x) {
    auto [a, b] = x;
    Value one = constant(a, 1.0), inf = constant(a, INFINITY);
    Value t = un<stablehlo::TanOp>(b);
    Value s = sinh(a);
    Value beta = add(one, Real::mul(t, t));
    Value s2 = Real::mul(s, s);
    Value rho = Real::sqrt(add(one, s2));
    Value den = add(one, Real::mul(beta, s2));
    Value re = Real::div(Real::mul(Real::mul(beta, rho), s), den);
    Value im = Real::div(t, den);
    Value absA = abs(a);
    Value infinite = compare(stablehlo::ComparisonDirection::EQ, absA, inf);
    Value large = andOp(
        compare(stablehlo::ComparisonDirection::GT, absA, constant(a, 20.0)),
        orOp(compare(stablehlo::ComparisonDirection::LT, abs(b), inf),
             infinite));
    Value sign = un<stablehlo::SignOp>(a);
    Value tail = Real::mul(
        Real::mul(constant(a, 4.0), Real::mul(Real::sin(b), Real::cos(b))),
        Real::exp(neg(add(absA, absA))));
    tail = select(infinite, constant(a, 0.0), tail);
    return {select(large, sign, re), select(large, tail, im)};
  }
  /// exp(z) - 1 without cancellation near 0:
  /// (expm1(a) cos b + (cos b - 1), e^a sin b), cos b - 1 = -2 sin^2(b/2).
  Parts expm1(Parts x) {
    auto [a, b2] = x;
    Value s = Real::sin(Real::mul(b2, constant(b2, 0.5)));
    Value cosMinusOne = Real::mul(constant(b2, -2.0), Real::mul(s, s));
    Value re = add(Real::mul(Real::expm1(a), Real::cos(b2)), cosMinusOne);
    Value im = Real::mul(Real::exp(a), Real::sin(b2));
    return {re, im};
  }
  /// log(1 + z) = (log1p(2a + a^2 + b^2) / 2, atan2(b, 1 + a)). Where
  /// |1 + z|^2 - 1 is below -1/2 (z near -1) log1p would amplify that sum's
  /// rounding 1 / |1 + z|^2 times, and beyond 1e10 the sum's squares may
  /// overflow: there the real part is log|1 + z| as log computes it (1 + a
  /// is exact near -1).
  Parts log1p(Parts x) {
    using stablehlo::ComparisonDirection;
    auto [a, b2] = x;
    Value one = constant(a, 1.0), half = constant(a, 0.5);
    Value inner = add(add(a, a), add(Real::mul(a, a), Real::mul(b2, b2)));
    Value moderate = andOp(
        compare(ComparisonDirection::GE, inner, constant(a, -0.5)),
        compare(ComparisonDirection::LT, inner, constant(a, 1e10)));
    Value viaLog1p = Real::mul(half, Real::log1p(inner));
    Parts onePlusZ = {add(one, a), b2};
    Value viaLog = log(onePlusZ).first;
    return {select(moderate, viaLog1p, viaLog), atan2(b2, onePlusZ.first)};
  }
};

/// Replaces `op` by `flat`: two values (real, imaginary) per complex result,
/// one per other result, in order.
void replaceWithParts(Operation *op, ValueRange flat,
                      ConversionPatternRewriter &rewriter) {
  SmallVector<SmallVector<Value>> grouped;
  size_t i = 0;
  for (Type type : op->getResultTypes()) {
    size_t n = isComplexTensor(type) ? 2 : 1;
    grouped.emplace_back(flat.begin() + i, flat.begin() + i + n);
    i += n;
  }
  rewriter.replaceOpWithMultiple(op, grouped);
}

/// The converted operands of an op, flattened (complex ones as two values).
SmallVector<Value> flattenOperands(ArrayRef<ValueRange> operands) {
  SmallVector<Value> flat;
  for (ValueRange operand : operands)
    llvm::append_range(flat, operand);
  return flat;
}

/// Base: patterns convert only ops that touch complex values.
template <typename Op>
struct ComplexPattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  using OneToNOpAdaptor = typename Op::template GenericAdaptor<ArrayRef<ValueRange>>;

  LogicalResult
  matchAndRewrite(Op op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    if (!hasComplex(op))
      return failure();
    Complex c{{rewriter, op.getLoc()}};
    // Math on parts narrower than f64 computes in f64: the formulas lose
    // several bits to cancellation, which f64 has to spare.
    Type narrow;
    auto widen = [&](Value v) -> Value {
      auto type = dyn_cast_or_null<RankedTensorType>(v ? v.getType() : Type());
      if (!computesInF64() || !type || !isa<FloatType>(type.getElementType()) ||
          type.getElementType().getIntOrFloatBitWidth() >= 64)
        return v;
      narrow = type.getElementType();
      return stablehlo::ConvertOp::create(
          rewriter, op.getLoc(), type.clone(rewriter.getF64Type()), v);
    };
    SmallVector<Parts> parts;
    for (ValueRange operand : adaptor.getOperands())
      parts.push_back(operand.size() == 2
                          ? Parts{widen(operand[0]), widen(operand[1])}
                          : Parts{widen(operand[0]), Value()});
    FailureOr<SmallVector<Value>> results = lower(op, parts, c);
    if (failed(results))
      return failure();
    if (narrow)
      for (Value &result : *results)
        result = stablehlo::ConvertOp::create(
            rewriter, op.getLoc(),
            cast<RankedTensorType>(result.getType()).clone(narrow), result);
    replaceWithParts(op, *results, rewriter);
    return success();
  }

  /// The replacement, flattened: two values per complex result, one per
  /// other result.
  virtual FailureOr<SmallVector<Value>> lower(Op op, ArrayRef<Parts> operands,
                                              Complex &c) const = 0;
  virtual bool computesInF64() const { return false; }

};

/// One pattern per op: BODY computes the parts from x (the operands'
/// parts). WIDEN: elementary functions compute in f64 for narrower parts
/// (arithmetic, which XLA computes in the parts' type, does not).
#define COMPLEX_LOWERING(NAME, OP, WIDEN, BODY)                                \
  struct NAME : ComplexPattern<OP> {                                           \
    using ComplexPattern::ComplexPattern;                                      \
    FailureOr<SmallVector<Value>> lower(OP op, ArrayRef<Parts> x,              \
                                        Complex &c) const override {           \
      Parts r = BODY;                                                          \
      return SmallVector<Value>{r.first, r.second};                            \
    }                                                                          \
    bool computesInF64() const override { return WIDEN; }                      \
  };
#define COMPLEX_UNARY(NAME, OP, BODY) COMPLEX_LOWERING(NAME, OP, false, BODY)
#define COMPLEX_MATH(NAME, OP, BODY) COMPLEX_LOWERING(NAME, OP, true, BODY)

COMPLEX_MATH(ExpLowering, stablehlo::ExpOp, c.exp(x[0]))
COMPLEX_MATH(Expm1Lowering, stablehlo::Expm1Op, c.expm1(x[0]))
COMPLEX_MATH(LogLowering, stablehlo::LogOp, c.log(x[0]))
COMPLEX_MATH(Log1pLowering, stablehlo::Log1pOp, c.log1p(x[0]))
COMPLEX_MATH(SqrtLowering, stablehlo::SqrtOp, c.sqrt(x[0]))
COMPLEX_MATH(RsqrtLowering, stablehlo::RsqrtOp, c.reciprocal(c.sqrt(x[0])))
COMPLEX_MATH(SinLowering, stablehlo::SineOp, c.sin(x[0]))
COMPLEX_MATH(CosLowering, stablehlo::CosineOp, c.cos(x[0]))
COMPLEX_MATH(TanhLowering, stablehlo::TanhOp, c.tanh(x[0]))
COMPLEX_MATH(SinhLowering, chlo::SinhOp, c.sinh(x[0]))
COMPLEX_MATH(CoshLowering, chlo::CoshOp, c.cosh(x[0]))
COMPLEX_MATH(TanLowering, chlo::TanOp, c.tan(x[0]))
COMPLEX_MATH(StableHLOTanLowering, stablehlo::TanOp, c.tan(x[0]))
COMPLEX_MATH(AsinhLowering, chlo::AsinhOp, c.asinh(x[0]))
COMPLEX_MATH(AcoshLowering, chlo::AcoshOp, c.acosh(x[0]))
COMPLEX_MATH(AtanhLowering, chlo::AtanhOp, c.atanh(x[0]))
COMPLEX_MATH(AsinLowering, chlo::AsinOp, c.asin(x[0]))
COMPLEX_MATH(AcosLowering, chlo::AcosOp, c.acos(x[0]))
COMPLEX_MATH(AtanLowering, chlo::AtanOp, c.atan(x[0]))
COMPLEX_MATH(Atan2Lowering, stablehlo::Atan2Op, c.complexAtan2(x[0], x[1]))
COMPLEX_MATH(LogisticLowering, stablehlo::LogisticOp, c.logistic(x[0]))
COMPLEX_UNARY(NegLowering, stablehlo::NegOp,
              (Parts{c.neg(x[0].first), c.neg(x[0].second)}))
COMPLEX_UNARY(ConjLowering, chlo::ConjOp,
              (Parts{x[0].first, c.neg(x[0].second)}))
COMPLEX_UNARY(MulLowering, stablehlo::MulOp, c.mul(x[0], x[1]))
COMPLEX_UNARY(SquareLowering, chlo::SquareOp, c.square(x[0]))
COMPLEX_UNARY(DivLowering, stablehlo::DivOp, c.div(x[0], x[1]))
COMPLEX_MATH(PowLowering, stablehlo::PowOp, c.power(x[0], x[1]))
COMPLEX_UNARY(ComplexLowering, stablehlo::ComplexOp,
              (Parts{x[0].first, x[1].first}))
#undef COMPLEX_UNARY
#undef COMPLEX_MATH
#undef COMPLEX_LOWERING

/// Library calls with complex operands or results take and give parts:
/// each complex operand and result becomes (real, imag), in place; the
/// library joins them (python/stablehlo_tvm/lapack.py, python/NativeFft.cpp).
struct LibraryCallLowering : ComplexPattern<stablehlo::CustomCallOp> {
  using ComplexPattern::ComplexPattern;
  FailureOr<SmallVector<Value>> lower(stablehlo::CustomCallOp op,
                                      ArrayRef<Parts> x,
                                      Complex &c) const override {
    // Complex LAPACK routines, real ones with complex results (geev's
    // eigenvalues and eigenvectors), and the Fourier transforms.
    StringRef target = op.getCallTargetName();
    if (!target.starts_with("lapack_") && target != kLibraryFft)
      return failure();
    SmallVector<Value> operands;
    for (Parts part : x) {
      operands.push_back(part.first);
      if (part.second)
        operands.push_back(part.second);
    }
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), types)))
      return failure();
    OperationState state(op.getLoc(), op->getName().getStringRef(), operands,
                         types, op->getAttrs());
    Operation *split = c.b.create(state);
    // Aliasing and layouts were stated per original operand and result.
    split->removeAttr("output_operand_aliases");
    split->removeAttr("operand_layouts");
    split->removeAttr("result_layouts");
    split->setAttr("stablehlo_tvm.complex_parts", c.b.getUnitAttr());
    return SmallVector<Value>(split->getResults());
  }
};

/// A complex triangular_solve is the LAPACK trsm JAX calls on the CPU
/// (lapack_{c,z}trsm_ffi, as LibraryCallLowering passes it on in parts): the
/// library solves any side, triangle, op(a) and diagonal.
struct TriangularSolveLowering : ComplexPattern<stablehlo::TriangularSolveOp> {
  using ComplexPattern::ComplexPattern;
  FailureOr<SmallVector<Value>> lower(stablehlo::TriangularSolveOp op,
                                      ArrayRef<Parts> x,
                                      Complex &c) const override {
    auto type = cast<RankedTensorType>(op.getType());
    auto element = cast<ComplexType>(type.getElementType()).getElementType();
    if (!element.isF32() && !element.isF64())
      return failure();
    if (!x[0].second || !x[1].second)
      return failure();
    auto part = type.clone(element);
    Builder &b = c.b;
    auto character = [&](char value) {
      return b.getIntegerAttr(b.getIntegerType(8, /*isSigned=*/false), value);
    };
    char trans = op.getTransposeA() == stablehlo::Transpose::NO_TRANSPOSE
                     ? 'N'
                     : op.getTransposeA() == stablehlo::Transpose::TRANSPOSE ? 'T'
                                                                            : 'C';
    NamedAttrList config;
    config.append("side", character(op.getLeftSide() ? 'L' : 'R'));
    config.append("uplo", character(op.getLower() ? 'L' : 'U'));
    config.append("trans_x", character(trans));
    config.append("diag", character(op.getUnitDiagonal() ? 'U' : 'N'));
    OperationState state(op.getLoc(), stablehlo::CustomCallOp::getOperationName(),
                         ValueRange{x[0].first, x[0].second, x[1].first, x[1].second},
                         TypeRange{part, part});
    state.addAttribute("call_target_name",
                       b.getStringAttr(element.isF32() ? "lapack_ctrsm_ffi"
                                                       : "lapack_ztrsm_ffi"));
    state.addAttribute("mhlo.backend_config", b.getDictionaryAttr(config));
    state.addAttribute("stablehlo_tvm.complex_parts", b.getUnitAttr());
    Operation *call = c.b.create(state);
    return SmallVector<Value>(call->getResults());
  }
};

/// bitcast_convert between identical complex types keeps the parts.
struct BitcastLowering : ComplexPattern<stablehlo::BitcastConvertOp> {
  using ComplexPattern::ComplexPattern;
  FailureOr<SmallVector<Value>> lower(stablehlo::BitcastConvertOp op,
                                      ArrayRef<Parts> x,
                                      Complex &) const override {
    if (op.getOperand().getType() != op.getType())
      return failure();
    return SmallVector<Value>{x[0].first, x[0].second};
  }
};

struct RealLowering : ComplexPattern<stablehlo::RealOp> {
  using ComplexPattern::ComplexPattern;
  FailureOr<SmallVector<Value>> lower(stablehlo::RealOp, ArrayRef<Parts> x,
                                      Complex &) const override {
    return SmallVector<Value>{x[0].first};
  }
};

struct ImagLowering : ComplexPattern<stablehlo::ImagOp> {
  using ComplexPattern::ComplexPattern;
  FailureOr<SmallVector<Value>> lower(stablehlo::ImagOp, ArrayRef<Parts> x,
                                      Complex &) const override {
    return SmallVector<Value>{x[0].second};
  }
};

struct AbsLowering : ComplexPattern<stablehlo::AbsOp> {
  using ComplexPattern::ComplexPattern;
  FailureOr<SmallVector<Value>> lower(stablehlo::AbsOp, ArrayRef<Parts> x,
                                      Complex &c) const override {
    return SmallVector<Value>{c.hypot(x[0].first, x[0].second)};
  }
};

/// EQ: both parts equal; NE: either differs.
struct CompareLowering : ComplexPattern<stablehlo::CompareOp> {
  using ComplexPattern::ComplexPattern;
  FailureOr<SmallVector<Value>> lower(stablehlo::CompareOp op,
                                      ArrayRef<Parts> x,
                                      Complex &c) const override {
    auto dir = op.getComparisonDirection();
    if (dir != stablehlo::ComparisonDirection::EQ &&
        dir != stablehlo::ComparisonDirection::NE)
      return failure();
    Value re = c.compare(dir, x[0].first, x[1].first);
    Value im = c.compare(dir, x[0].second, x[1].second);
    return SmallVector<Value>{dir == stablehlo::ComparisonDirection::EQ
                                  ? c.andOp(re, im)
                                  : c.orOp(re, im)};
  }
};

/// Between complex types part by part; from real, with a zero imaginary
/// part; to real, the real part.
struct ConvertLowering : ComplexPattern<stablehlo::ConvertOp> {
  using ComplexPattern::ComplexPattern;
  FailureOr<SmallVector<Value>> lower(stablehlo::ConvertOp op,
                                      ArrayRef<Parts> x,
                                      Complex &c) const override {
    auto convert = [&](Value v, RankedTensorType type) -> Value {
      if (v.getType() == type)
        return v;
      return stablehlo::ConvertOp::create(c.b, c.loc, type, v);
    };
    Type resultType = op.getType();
    if (isComplexTensor(resultType)) {
      RankedTensorType part = partType(resultType);
      Value re = convert(x[0].first, part);
      if (!x[0].second) {
        // A real (or integer) operand: the imaginary part is zero.
        Value zero = c.constant(re, 0.0);
        return SmallVector<Value>{re, zero};
      }
      return SmallVector<Value>{re, convert(x[0].second, part)};
    }
    return SmallVector<Value>{
        convert(x[0].first, cast<RankedTensorType>(resultType))};
  }
};

/// (A + Bi)(C + Di) = (AC - BD) + (AD + BC)i, each product the op itself
/// (dot_general or convolution, with its dimension numbers) on real parts; a
/// real operand has no B or D.
template <typename Op>
struct BilinearLowering : ComplexPattern<Op> {
  using ComplexPattern<Op>::ComplexPattern;
  FailureOr<SmallVector<Value>> lower(Op op, ArrayRef<Parts> x,
                                      Complex &c) const override {
    if (!isComplexTensor(op.getType()))
      return failure();
    RankedTensorType part = partType(op.getType());
    // XLA sums each part of a complex dot product by product, each rounded;
    // a DFT the import built has no such result to keep.
    bool roundedProducts =
        std::is_same_v<Op, stablehlo::DotGeneralOp> &&
        !op->hasAttr(tvm::TVMDialect::DftProductAttrHelper::getNameStr());
    auto dot = [&](Value lhs, Value rhs) -> Value {
      if (!lhs || !rhs)
        return Value();
      IRMapping map;
      map.map(op.getLhs(), lhs);
      map.map(op.getRhs(), rhs);
      Operation *clone = c.b.clone(*op, map);
      clone->getResult(0).setType(part);
      if (roundedProducts)
        clone->setAttr(tvm::TVMDialect::RoundedProductsAttrHelper::getNameStr(),
                       c.b.getUnitAttr());
      return clone->getResult(0);
    };
    auto [a, b] = x[0];
    auto [cc, d] = x[1];
    Value ac = dot(a, cc), bd = dot(b, d), ad = dot(a, d), bc = dot(b, cc);
    Value re = bd ? c.sub(ac, bd) : ac;
    Value im = ad && bc ? c.add(ad, bc) : (ad ? ad : bc);
    if (!im)
      return failure();
    return SmallVector<Value>{re, im};
  }
};

/// sign(z) = z / |z|, and 0 at 0; NaN parts give NaN.
struct SignLowering : ComplexPattern<stablehlo::SignOp> {
  using ComplexPattern::ComplexPattern;
  FailureOr<SmallVector<Value>> lower(stablehlo::SignOp, ArrayRef<Parts> x,
                                      Complex &c) const override {
    auto [a, b] = x[0];
    Value modulus = c.hypot(a, b);
    Value zero = c.constant(a, 0.0);
    Value atZero =
        c.compare(stablehlo::ComparisonDirection::EQ, modulus, zero);
    return SmallVector<Value>{c.select(atZero, zero, c.div(a, modulus)),
                              c.select(atZero, zero, c.div(b, modulus))};
  }
};

/// maximum/minimum order complex numbers lexicographically, by the real
/// parts and then the imaginary parts.
template <typename Op, stablehlo::ComparisonDirection Better>
struct ExtremumLowering : ComplexPattern<Op> {
  using ComplexPattern<Op>::ComplexPattern;
  FailureOr<SmallVector<Value>> lower(Op, ArrayRef<Parts> x,
                                      Complex &c) const override {
    auto [a, b] = x[0];
    auto [p, q] = x[1];
    // Named steps: the order of evaluating call arguments is unspecified.
    Value better = c.compare(Better, a, p);
    Value tie = c.compare(stablehlo::ComparisonDirection::EQ, a, p);
    Value betterImag = c.compare(Better, b, q);
    Value first = c.orOp(better, c.andOp(tie, betterImag));
    return SmallVector<Value>{c.select(first, a, p), c.select(first, b, q)};
  }
};

/// A complex iota counts in the real part.
struct IotaLowering : ComplexPattern<stablehlo::IotaOp> {
  using ComplexPattern::ComplexPattern;
  FailureOr<SmallVector<Value>> lower(stablehlo::IotaOp op, ArrayRef<Parts>,
                                      Complex &c) const override {
    Value re = stablehlo::IotaOp::create(c.b, c.loc, partType(op.getType()),
                                         op.getIotaDimensionAttr());
    return SmallVector<Value>{re, c.constant(re, 0.0)};
  }
};

/// Constants split into their parts.
struct ConstantLowering : ComplexPattern<stablehlo::ConstantOp> {
  using ComplexPattern::ComplexPattern;
  FailureOr<SmallVector<Value>> lower(stablehlo::ConstantOp op,
                                      ArrayRef<Parts>,
                                      Complex &c) const override {
    auto attr = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!attr)
      return failure();
    RankedTensorType part = partType(op.getType());
    SmallVector<APFloat> re, im;
    bool splat = attr.isSplat() && attr.getNumElements() > 0;
    if (splat) {
      auto value = attr.getSplatValue<std::complex<APFloat>>();
      re.push_back(value.real());
      im.push_back(value.imag());
    } else {
      for (std::complex<APFloat> value :
           attr.getValues<std::complex<APFloat>>()) {
        re.push_back(value.real());
        im.push_back(value.imag());
      }
    }
    auto make = [&](ArrayRef<APFloat> values) -> Value {
      DenseElementsAttr dense = splat
                                    ? DenseElementsAttr::get(part, values.front())
                                    : DenseElementsAttr::get(part, values);
      return stablehlo::ConstantOp::create(c.b, c.loc, part, dense);
    };
    return SmallVector<Value>{make(re), make(im)};
  }
};

/// Ops that act on each part alike (data movement, add, subtract, select):
/// the op twice, on the real parts and on the imaginary parts; operands that
/// are not complex (indices, predicates) are shared.
struct PartwiseLowering : ConversionPattern {
  PartwiseLowering(const TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1,
                          context) {}

  static bool isPartwise(Operation *op) {
    return isa<stablehlo::AddOp, stablehlo::SubtractOp, stablehlo::SelectOp,
               stablehlo::BroadcastInDimOp, stablehlo::ReshapeOp,
               stablehlo::TransposeOp, stablehlo::SliceOp,
               stablehlo::ConcatenateOp, stablehlo::PadOp,
               stablehlo::ReverseOp, stablehlo::DynamicSliceOp,
               stablehlo::DynamicUpdateSliceOp, stablehlo::GatherOp,
               stablehlo::OptimizationBarrierOp>(op);
  }

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<ValueRange> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isPartwise(op) || !hasComplex(op) || op->getNumRegions() != 0 ||
        !llvm::all_of(op->getResultTypes(), isComplexTensor))
      return failure();
    SmallVector<SmallVector<Value>> results(op->getNumResults());
    for (int part = 0; part < 2; ++part) {
      SmallVector<Value> newOperands;
      for (ValueRange operand : operands)
        newOperands.push_back(operand.size() == 2 ? operand[part]
                                                  : operand.front());
      SmallVector<Type> types;
      for (Type type : op->getResultTypes())
        types.push_back(partType(type));
      OperationState state(op->getLoc(), op->getName(), newOperands, types,
                           op->getAttrs());
      Operation *clone = rewriter.create(state);
      for (auto [i, result] : llvm::enumerate(clone->getResults()))
        results[i].push_back(result);
    }
    rewriter.replaceOpWithMultiple(op, results);
    return success();
  }
};

/// Ops with regions over complex values (reduce, reduce_window, scatter,
/// while, if, case): the same op over the parts. Each complex operand
/// becomes its two parts in place, which keeps the operand groups of
/// reduce/scatter equal in size and in the order their bodies take them;
/// each region is moved over with its complex arguments split the same
/// way, and the ops inside are lowered like any other.
template <typename Op>
struct RegionOpLowering : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  using OneToNOpAdaptor =
      typename OpConversionPattern<Op>::OneToNOpAdaptor;

  LogicalResult
  matchAndRewrite(Op op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!hasComplex(op) && llvm::none_of(op->getRegions(), [](Region &r) {
          return llvm::any_of(r.getArgumentTypes(), isComplexTensor);
        }))
      return failure();
    SmallVector<Value> operands = flattenOperands(adaptor.getOperands());
    SmallVector<Type> resultTypes;
    if (failed(this->getTypeConverter()->convertTypes(op->getResultTypes(),
                                                      resultTypes)))
      return failure();
    OperationState state(op.getLoc(), op->getName(), operands, resultTypes,
                         op->getAttrs());
    for (unsigned i = 0; i < op->getNumRegions(); ++i)
      state.addRegion();
    Operation *lowered = rewriter.create(state);
    for (auto [from, to] :
         llvm::zip(op->getRegions(), lowered->getRegions())) {
      rewriter.inlineRegionBefore(from, to, to.end());
      if (failed(rewriter.convertRegionTypes(&to, *this->getTypeConverter())))
        return failure();
    }
    replaceWithParts(op, lowered->getResults(), rewriter);
    return success();
  }
};

/// sort over complex operands: the same sort over their parts. The
/// comparator takes (lhs, rhs) per operand, so a complex operand's four
/// part arguments are not where a signature conversion would put them: the
/// new comparator block takes the parts in sort order and rebuilds each
/// complex argument with stablehlo.complex, which lowers like any other op.
struct SortLowering : OpConversionPattern<stablehlo::SortOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(stablehlo::SortOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!hasComplex(op))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> operands = flattenOperands(adaptor.getOperands());
    // Where each operand's first part lands among the sort's operands.
    SmallVector<int64_t> firstPart;
    int64_t position = 0;
    for (ValueRange operand : adaptor.getOperands()) {
      firstPart.push_back(position);
      position += operand.size();
    }
    SmallVector<Type> resultTypes;
    for (Value operand : operands)
      resultTypes.push_back(operand.getType());
    auto sort = stablehlo::SortOp::create(rewriter, loc, resultTypes, operands,
                                          op.getDimensionAttr(),
                                          op.getIsStableAttr());
    SmallVector<Type> argTypes;
    for (Value operand : operands) {
      auto scalar = RankedTensorType::get(
          {}, cast<RankedTensorType>(operand.getType()).getElementType());
      argTypes.append({scalar, scalar});
    }
    SmallVector<Location> locs(argTypes.size(), loc);
    Block *block =
        rewriter.createBlock(&sort.getComparator(), {}, argTypes, locs);
    SmallVector<Value> replacements;
    for (auto [j, input] : llvm::enumerate(op.getInputs())) {
      int64_t p = firstPart[j];
      for (int side = 0; side < 2; ++side) {
        if (!isComplexTensor(input.getType())) {
          replacements.push_back(block->getArgument(2 * p + side));
          continue;
        }
        auto complexScalar = RankedTensorType::get(
            {}, cast<RankedTensorType>(input.getType()).getElementType());
        replacements.push_back(stablehlo::ComplexOp::create(
            rewriter, loc, complexScalar, block->getArgument(2 * p + side),
            block->getArgument(2 * (p + 1) + side)));
      }
    }
    rewriter.mergeBlocks(&op.getComparator().front(), block, replacements);
    replaceWithParts(op, sort.getResults(), rewriter);
    return success();
  }
};

/// The terminator of a body: complex values returned as their parts.
struct ReturnLowering : OpConversionPattern<stablehlo::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(stablehlo::ReturnOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!hasComplex(op))
      return failure();
    rewriter.replaceOpWithNewOp<stablehlo::ReturnOp>(
        op, flattenOperands(adaptor.getOperands()));
    return success();
  }
};

/// When some complex op has no lowering, the others still lower: the ops
/// that cannot are found by an analysis conversion, kept as they are, and
/// fed from and read back into parts (stablehlo.complex / real / imag,
/// marked as boundaries). Only they are then left for the legality check,
/// each with the reason.
void lowerAroundBlockers(ModuleOp module, ConversionTarget &target,
                         ComplexTypeConverter &converter,
                         const FrozenRewritePatternSet &patterns) {
  llvm::DenseSet<Operation *> legalizable;
  ConversionConfig analysis;
  analysis.legalizableOps = &legalizable;
  // It reports failure when some op is not legalizable, which is expected
  // here; the set is filled either way.
  (void)applyAnalysisConversion(module, target, patterns, analysis);
  SmallVector<Operation *> blockers;
  module.walk([&](Operation *op) {
    if (!isa<func::FuncOp>(op) && hasComplex(op) && !legalizable.contains(op))
      blockers.push_back(op);
  });
  if (blockers.empty())
    return;
  Builder b(module.getContext());
  for (Operation *op : blockers)
    op->setAttr(kUnsupportedReasonAttr,
                b.getStringAttr("no lowering of this op on complex numbers"));
  // A blocker is kept whole, with the ops of its regions.
  auto kept = [](Operation *op) {
    for (; op; op = op->getParentOp())
      if (op->hasAttr(kUnsupportedReasonAttr))
        return true;
    return false;
  };
  target.markUnknownOpDynamicallyLegal([kept](Operation *op) {
    return !hasComplex(op) || op->hasAttr(kBoundaryAttr) || kept(op);
  });
  converter.addSourceMaterialization([](OpBuilder &builder, Type type,
                                        ValueRange parts,
                                        Location loc) -> Value {
    if (parts.size() != 2 || !isComplexTensor(type))
      return Value();
    auto op = stablehlo::ComplexOp::create(builder, loc, type, parts[0],
                                           parts[1]);
    op->setAttr(kBoundaryAttr, builder.getUnitAttr());
    return op;
  });
  converter.addTargetMaterialization(
      [](OpBuilder &builder, TypeRange types, ValueRange inputs, Location loc,
         Type) -> SmallVector<Value> {
        if (types.size() != 2 || inputs.size() != 1 ||
            !isComplexTensor(inputs[0].getType()))
          return {};
        Operation *re =
            stablehlo::RealOp::create(builder, loc, types[0], inputs[0]);
        Operation *im =
            stablehlo::ImagOp::create(builder, loc, types[1], inputs[0]);
        re->setAttr(kBoundaryAttr, builder.getUnitAttr());
        im->setAttr(kBoundaryAttr, builder.getUnitAttr());
        return {re->getResult(0), im->getResult(0)};
      });
  // Should this fail too, the blockers stay marked and the rest as written.
  (void)applyFullConversion(module, target, patterns);
}

struct LowerComplexPass : impl::LowerComplexBase<LowerComplexPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    ComplexTypeConverter converter;
    ConversionTarget target(*context);
    target.markUnknownOpDynamicallyLegal(
        [](Operation *op) { return !hasComplex(op); });
    target.addDynamicallyLegalOp<func::FuncOp>([](func::FuncOp func) {
      return !llvm::any_of(func.getFunctionType().getInputs(),
                           isComplexTensor) &&
             !llvm::any_of(func.getFunctionType().getResults(),
                           isComplexTensor);
    });
    RewritePatternSet patterns(context);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    patterns.add<ExpLowering, Expm1Lowering, LogLowering, Log1pLowering,
                 SqrtLowering, RsqrtLowering, SinLowering, CosLowering,
                 TanhLowering, NegLowering, MulLowering, DivLowering,
                 PowLowering, ComplexLowering, RealLowering, ImagLowering,
                 ConjLowering,
                 AbsLowering, CompareLowering, ConvertLowering,
                 BilinearLowering<stablehlo::DotGeneralOp>,
                 BilinearLowering<stablehlo::ConvolutionOp>, SignLowering,
                 ConstantLowering, SinhLowering,
                 CoshLowering, TanLowering, StableHLOTanLowering, AsinhLowering, AcoshLowering,
                 AtanhLowering, AsinLowering, AcosLowering, AtanLowering,
                 Atan2Lowering, LogisticLowering,
                 LibraryCallLowering, TriangularSolveLowering,
                 SquareLowering, SortLowering, BitcastLowering, IotaLowering,
                 ExtremumLowering<stablehlo::MaxOp,
                                  stablehlo::ComparisonDirection::GT>,
                 ExtremumLowering<stablehlo::MinOp,
                                  stablehlo::ComparisonDirection::LT>,
                 RegionOpLowering<stablehlo::ReduceOp>,
                 RegionOpLowering<stablehlo::ReduceWindowOp>,
                 RegionOpLowering<stablehlo::ScatterOp>,
                 RegionOpLowering<stablehlo::WhileOp>,
                 RegionOpLowering<stablehlo::IfOp>,
                 RegionOpLowering<stablehlo::CaseOp>, ReturnLowering>(
        converter, context);
    patterns.add<PartwiseLowering>(converter, context);
    FrozenRewritePatternSet frozen(std::move(patterns));

    // The signatures as written, to record which positions were complex.
    llvm::DenseMap<Operation *, FunctionType> originals;
    for (auto func : module.getOps<func::FuncOp>())
      originals[func.getOperation()] = func.getFunctionType();
    // A conversion that fails rolls back and leaves its complex ops for the
    // legality check to report; its diagnostics are not the user's.
    ScopedDiagnosticHandler quiet(context,
                                  [](Diagnostic &) { return success(); });
    if (failed(applyFullConversion(module, target, frozen)))
      lowerAroundBlockers(module, target, converter, frozen);
    Builder b(context);
    auto positions = [&](TypeRange types) {
      SmallVector<int64_t> indices;
      for (auto [i, type] : llvm::enumerate(types))
        if (isComplexTensor(type))
          indices.push_back(i);
      return b.getDenseI64ArrayAttr(indices);
    };
    for (auto func : module.getOps<func::FuncOp>()) {
      FunctionType original = originals.lookup(func.getOperation());
      if (!original || original == func.getFunctionType())
        continue;
      func->setAttr(tvm::TVMDialect::ComplexArgumentsAttrHelper::getNameStr(), positions(original.getInputs()));
      func->setAttr(tvm::TVMDialect::ComplexResultsAttrHelper::getNameStr(), positions(original.getResults()));
    }
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
