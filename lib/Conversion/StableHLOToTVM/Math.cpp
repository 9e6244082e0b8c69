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

#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/CHLO/IR/CHLO.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

#include <limits>

namespace mlir::stablehlo_tvm {
namespace {

/// Builds tvm ops on tensors of one type, with constants splatted to it.
struct MathBuilder {
  OpBuilder &b;
  Location loc;
  RankedTensorType type;

  RankedTensorType boolType() { return type.clone(b.getI1Type()); }
  Value constant(double value) {
    Type element = type.getElementType();
    if (isa<FloatType>(element))
      return splatConstant(b, loc, type, b.getFloatAttr(element, value));
    return splatConstant(b, loc, type,
                         b.getIntegerAttr(element, static_cast<int64_t>(value)));
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

/// expm1(x) = (u - 1) * x / log(u) with u = exp(x), exact where u rounds to 1.
Value emitExpm1(MathBuilder &m, Value x) {
  Value u = m.unary<tvm::ExpOp>(x);
  Value one = m.constant(1);
  Value uMinusOne = m.binary<tvm::SubtractOp>(u, one);
  Value product = m.binary<tvm::MultiplyOp>(uMinusOne, x);
  Value logU = m.unary<tvm::LogOp>(u);
  Value corrected = m.binary<tvm::DivideOp>(product, logU);
  Value minusOne = m.constant(-1);
  Value saturated = m.compare<tvm::EqualOp>(uMinusOne, minusOne);
  Value result = m.select(saturated, minusOne, corrected);
  Value exact = m.compare<tvm::EqualOp>(u, one);
  result = m.select(exact, x, result);
  Value inf = m.constant(std::numeric_limits<double>::infinity());
  Value overflow = m.compare<tvm::EqualOp>(u, inf);
  return m.select(overflow, u, result);
}

/// log1p(x) = log(u) * x / (u - 1) with u = 1 + x, exact where u rounds to 1.
Value emitLog1p(MathBuilder &m, Value x) {
  Value one = m.constant(1);
  Value u = m.binary<tvm::AddOp>(one, x);
  Value logU = m.unary<tvm::LogOp>(u);
  Value product = m.binary<tvm::MultiplyOp>(logU, x);
  Value uMinusOne = m.binary<tvm::SubtractOp>(u, one);
  Value corrected = m.binary<tvm::DivideOp>(product, uMinusOne);
  Value exact = m.compare<tvm::EqualOp>(u, one);
  Value result = m.select(exact, x, corrected);
  Value inf = m.constant(std::numeric_limits<double>::infinity());
  Value overflow = m.compare<tvm::EqualOp>(u, inf);
  return m.select(overflow, u, result);
}

/// tanh(x) = t / (t + 2) with t = expm1(2|x|), the sign put back; 1 where t
/// overflows. TVM's own tanh is a fast approximation (tens of ULP off).
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
  Value zero = m.constant(0);
  Value negative = m.compare<tvm::LessOp>(x, zero);
  Value negated = m.unary<tvm::NegativeOp>(magnitude);
  Value result = m.select(negative, negated, magnitude);
  // tanh(+-0) keeps the zero's sign.
  Value isZero = m.compare<tvm::EqualOp>(x, zero);
  return m.select(isZero, x, result);
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
  Value zero = m.constant(0);
  Value isZero = m.compare<tvm::EqualOp>(x, zero);
  return m.select(isZero, x, result);
}

Value emitCbrt(MathBuilder &m, Value x) {
  Value absolute = m.unary<tvm::AbsOp>(x);
  Value third = m.constant(1.0 / 3.0);
  Value magnitude = m.binary<tvm::PowerOp>(absolute, third);
  Value zero = m.constant(0);
  Value negative = m.compare<tvm::LessOp>(x, zero);
  Value negated = m.unary<tvm::NegativeOp>(magnitude);
  Value result = m.select(negative, negated, magnitude);
  // cbrt(+-0) keeps the zero's sign; NaN stays NaN.
  Value isZero = m.compare<tvm::EqualOp>(x, zero);
  return m.select(isZero, x, result);
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
      return rewriter.notifyMatchFailure(op, "not an integer tensor");
    Location loc = op.getLoc();
    unsigned width = intType.getWidth();
    auto unsignedType = type.clone(
        IntegerType::get(rewriter.getContext(), width, IntegerType::Unsigned));
    Value x = adaptor.getOperand();
    if (!intType.isUnsigned())
      x = tvm::AsTypeOp::create(rewriter, loc, unsignedType, x,
                                TypeAttr::get(unsignedType.getElementType()));
    MathBuilder m{rewriter, loc, unsignedType};
    Value result;
    if constexpr (std::is_same_v<SrcOp, stablehlo::PopulationCountOp>)
      result = emitPopcount(m, x, width);
    else
      result = emitLeadingZeros(m, x, width);
    if (!intType.isUnsigned())
      result = tvm::AsTypeOp::create(rewriter, loc, type, result,
                                     TypeAttr::get(intType));
    rewriter.replaceOp(op, result);
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

/// A float function of one operand, computed in f32 for f16/bf16.
/// Floats narrower than `MinWidth` bits compute widened (see computeWidened).
template <typename SrcOp, Value (*Emit)(MathBuilder &, Value),
          unsigned MinWidth = 32>
struct FloatMathConversion : TVMTypedPattern<SrcOp> {
  using TVMTypedPattern<SrcOp>::TVMTypedPattern;

  LogicalResult
  rewrite(SrcOp op, typename SrcOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    Type element = type.getElementType();
    if (!isa<FloatType>(element))
      return rewriter.notifyMatchFailure(op, "not a float tensor");
    Location loc = op.getLoc();
    Value result = computeWidened(
        rewriter, loc, adaptor.getOperands(), type, MinWidth,
        [&](ValueRange operands, RankedTensorType computeType) {
          MathBuilder m{rewriter, loc, computeType};
          return Emit(m, operands.front());
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SignConversion : TVMTypedPattern<stablehlo::SignOp> {
  using TVMTypedPattern::TVMTypedPattern;

  LogicalResult
  rewrite(stablehlo::SignOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getType().getElementType().isInteger(1))
      return rewriter.notifyMatchFailure(op, "element type unsupported");
    MathBuilder m{rewriter, op.getLoc(), op.getType()};
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

  LogicalResult
  rewrite(stablehlo::PowOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = op.getType();
    Type element = type.getElementType();
    if (!isa<FloatType>(element))
      return rewriter.notifyMatchFailure(op, "not a float power");
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
               FloatMathConversion<CbrtOp, emitCbrt>,
               // f32 and narrower in f64: rounding a wider result keeps the
               // error within 1 ULP.
               FloatMathConversion<TanhOp, emitTanh, 64>,
               FloatMathConversion<chlo::AtanhOp, emitAtanh, 64>,
               SignConversion,
               FloatPowerConversion,
               IsInfConversion<chlo::IsInfOp, InfKind::Any>,
               IsInfConversion<chlo::IsPosInfOp, InfKind::Positive>,
               IsInfConversion<chlo::IsNegInfOp, InfKind::Negative>,
               BitCountConversion<PopulationCountOp>,
               BitCountConversion<ClzOp>>(context);
}

} // namespace mlir::stablehlo_tvm
