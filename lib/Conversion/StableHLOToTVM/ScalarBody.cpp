//===- ScalarBody.cpp - StableHLO ops on scalars, in arith and math -------===//
//
// Region bodies (reduce, reduce_window, scatter, sort, select_and_scatter)
// are stablehlo ops on 0-d tensors; a kernel runs them on scalars. Each op
// keeps StableHLO's meaning: integer division by zero and signed overflow
// give the spec's results, max/min propagate NaN, booleans add as or and
// multiply as and, comparisons follow the element type (or TOTALORDER),
// rounding and expm1 are exact, clz(0) is the width.
//
//===----------------------------------------------------------------------===//

#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Support/IntegerComparison.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

namespace mlir::stablehlo_tvm {
namespace {

bool isUnsignedElement(Type element) {
  auto intType = dyn_cast<IntegerType>(element);
  return intType && (intType.isUnsigned() || intType.getWidth() == 1);
}

Value isNaNScalar(OpBuilder &b, Location loc, Value x) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
}

/// max/min: NaN-propagating on floats, by signedness on integers.
Value extremum(OpBuilder &b, Location loc, Type element, Value x, Value y,
               bool isMax) {
  if (isa<FloatType>(element)) {
    auto pred = isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT;
    Value better = arith::CmpFOp::create(b, loc, pred, x, y);
    Value pick = arith::SelectOp::create(b, loc, better, x, y);
    Value yIsNaN = isNaNScalar(b, loc, y);
    pick = arith::SelectOp::create(b, loc, yIsNaN, y, pick);
    Value xIsNaN = isNaNScalar(b, loc, x);
    pick = arith::SelectOp::create(b, loc, xIsNaN, x, pick);
    // -0 below +0 (IEEE-754's maximum and minimum): where both are zeros,
    // x + y is negative only if both are, (x + y) * (x * y) if either is.
    Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(x.getType(), 0.0));
    Value bothZero = arith::AndIOp::create(
        b, loc,
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, zero),
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, y, zero));
    Value signedZero = arith::AddFOp::create(b, loc, x, y);
    if (!isMax)
      signedZero = arith::MulFOp::create(
          b, loc, signedZero, arith::MulFOp::create(b, loc, x, y));
    return arith::SelectOp::create(b, loc, bothZero, signedZero, pick);
  }
  bool isUnsigned = isUnsignedElement(element);
  auto pred = isMax ? (isUnsigned ? arith::CmpIPredicate::ugt
                                  : arith::CmpIPredicate::sgt)
                    : (isUnsigned ? arith::CmpIPredicate::ult
                                  : arith::CmpIPredicate::slt);
  return arith::SelectOp::create(
      b, loc, arith::CmpIOp::create(b, loc, pred, x, y), x, y);
}

/// Integer division and remainder with the spec's results where C's are
/// undefined: x / 0 is all ones (-1), x % 0 is x; INT_MIN / -1 is INT_MIN
/// and INT_MIN % -1 is 0. All without selects around the division: TVM
/// simplifies a select's branches under its condition and then evaluates
/// both, which brings back the trapping division it guarded (SIGFPE on
/// x86). The divisor is nudged arithmetically instead: 0 becomes 1, and -1
/// becomes 1 where x is INT_MIN (x / 1 is the answer). No term overflows
/// (TVM's signed arithmetic is LLVM's nsw, from which LLVM reasons).
Value integerDivision(OpBuilder &b, Location loc, Type element, Value x,
                      Value y, bool remainder) {
  Type type = x.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  Value zero = intConstant(b, loc, type, 0);
  Value one = intConstant(b, loc, type, 1);
  auto asInt = [&](Value flag) -> Value {
    return arith::ExtUIOp::create(b, loc, type, flag);
  };
  Value isZero = asInt(
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, zero));
  Value divisor = arith::AddIOp::create(b, loc, y, isZero);
  if (!isUnsignedElement(element)) {
    // x == INT_MIN as "no bit but the sign": TVM's simplifier folds an
    // equality with INT_MIN itself to false.
    Value maxValue = arith::ConstantOp::create(
        b, loc, type,
        b.getIntegerAttr(type, APInt::getSignedMaxValue(width)));
    Value low = arith::AndIOp::create(b, loc, x, maxValue);
    Value xIsMin = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, low, zero),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero));
    Value yIsMinusOne = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, y, intConstant(b, loc, type, -1));
    Value overflow =
        asInt(arith::AndIOp::create(b, loc, xIsMin, yIsMinusOne));
    divisor = arith::AddIOp::create(
        b, loc, divisor, arith::AddIOp::create(b, loc, overflow, overflow));
  }
  if (remainder) {
    // x % 1 is 0: add x back where y was 0.
    Value r = isUnsignedElement(element)
                  ? Value(arith::RemUIOp::create(b, loc, x, divisor))
                  : Value(arith::RemSIOp::create(b, loc, x, divisor));
    return arith::AddIOp::create(b, loc, r,
                                 arith::MulIOp::create(b, loc, x, isZero));
  }
  Value q = isUnsignedElement(element)
                ? Value(arith::DivUIOp::create(b, loc, x, divisor))
                : Value(arith::DivSIOp::create(b, loc, x, divisor));
  // q (1 - z) - z: x / 0 is -1, without overflow in any term.
  Value keep = arith::SubIOp::create(b, loc, one, isZero);
  return arith::SubIOp::create(b, loc, arith::MulIOp::create(b, loc, q, keep),
                               isZero);
}

} // namespace

Value scalarCompare(OpBuilder &b, Location loc, stablehlo::CompareOp op,
                    Value x, Value y) {
  using Dir = stablehlo::ComparisonDirection;
  Type element = getElementTypeOrSelf(op.getLhs().getType());
  Dir dir = op.getComparisonDirection();
  auto compareType = op.getCompareType();
  bool totalOrder = compareType == stablehlo::ComparisonType::TOTALORDER;
  if (isa<FloatType>(element) && !totalOrder) {
    auto pred = arith::CmpFPredicate::OEQ;
    switch (dir) {
    case Dir::EQ: pred = arith::CmpFPredicate::OEQ; break;
    case Dir::NE: pred = arith::CmpFPredicate::UNE; break;
    case Dir::LT: pred = arith::CmpFPredicate::OLT; break;
    case Dir::LE: pred = arith::CmpFPredicate::OLE; break;
    case Dir::GT: pred = arith::CmpFPredicate::OGT; break;
    case Dir::GE: pred = arith::CmpFPredicate::OGE; break;
    }
    return arith::CmpFOp::create(b, loc, pred, x, y);
  }
  if (totalOrder && isa<FloatType>(element)) {
    x = totalOrderKey(b, loc, x);
    y = totalOrderKey(b, loc, y);
  }
  bool isUnsigned = !totalOrder && (isUnsignedElement(element) ||
                                    compareType ==
                                        stablehlo::ComparisonType::UNSIGNED);
  return arith::CmpIOp::create(b, loc, integerPredicate(dir, isUnsigned), x, y);
}

namespace {

/// stablehlo.convert on a scalar.
Value convert(OpBuilder &b, Location loc, Type from, Type to, Value x) {
  Type target = signlessType(to);
  if (from == to)
    return x;
  if (to.isInteger(1)) {
    if (isa<FloatType>(from)) {
      Value zero =
          arith::ConstantOp::create(b, loc, from, b.getFloatAttr(from, 0.0));
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, zero);
    }
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x,
                                 intConstant(b, loc, x.getType(), 0));
  }
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);
  if (fromFloat && toFloat) {
    if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, loc, target, x);
    return arith::TruncFOp::create(b, loc, target, x);
  }
  if (!fromFloat && toFloat) {
    if (isUnsignedElement(from))
      return arith::UIToFPOp::create(b, loc, target, x);
    return arith::SIToFPOp::create(b, loc, target, x);
  }
  if (fromFloat) {
    // Saturating, NaN to 0 (see saturationBounds): arith's casts are poison
    // out of range.
    auto floatType = cast<FloatType>(from);
    SaturationBounds bounds = saturationBounds(floatType, cast<IntegerType>(to));
    auto constant = [&](const APFloat &v) -> Value {
      return arith::ConstantOp::create(b, loc, from, b.getFloatAttr(from, v));
    };
    Value isNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
    Value safe = arith::SelectOp::create(
        b, loc, isNan, constant(APFloat::getZero(floatType.getFloatSemantics())), x);
    Value clipped = arith::MinNumFOp::create(
        b, loc, arith::MaxNumFOp::create(b, loc, safe, constant(bounds.low)),
        constant(bounds.highBelow));
    Value result = isUnsignedElement(to)
                       ? Value(arith::FPToUIOp::create(b, loc, target, clipped))
                       : Value(arith::FPToSIOp::create(b, loc, target, clipped));
    auto saturate = [&](arith::CmpFPredicate predicate, const APFloat &at,
                        const APInt &value) {
      Value beyond = arith::CmpFOp::create(b, loc, predicate, safe, constant(at));
      Value bound = arith::ConstantOp::create(b, loc, target,
                                              b.getIntegerAttr(target, value));
      result = arith::SelectOp::create(b, loc, beyond, bound, result);
    };
    saturate(arith::CmpFPredicate::OGE, bounds.overflow, bounds.max);
    if (bounds.underflow)
      saturate(arith::CmpFPredicate::OLE, *bounds.underflow, bounds.min);
    return result;
  }
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (fromWidth == toWidth)
    return x;
  if (fromWidth > toWidth)
    return arith::TruncIOp::create(b, loc, target, x);
  if (isUnsignedElement(from))
    return arith::ExtUIOp::create(b, loc, target, x);
  return arith::ExtSIOp::create(b, loc, target, x);
}

/// Shifts with StableHLO's meaning where arith's is poison: an amount of
/// the width or more (unsigned, so negative amounts too) shifts every bit
/// out, leaving 0, or copies of the sign for an arithmetic right shift.
Value shift(OpBuilder &b, Location loc, Operation *op, Value x, Value amount) {
  Type type = x.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  bool arithmetic = isa<stablehlo::ShiftRightArithmeticOp>(op);
  // Whether the amount is below the width, where that is known only at run
  // time. A constant amount is decided here: TVM's folder rejects some of
  // the unsigned constant expressions the general form would leave.
  Value inRange, zero;
  if (std::optional<int64_t> constant = getConstantIntValue(amount)) {
    uint64_t bits = APInt(width, *constant, /*isSigned=*/true).getZExtValue();
    if (bits == 0)
      return x;
    if (bits >= width && !arithmetic)
      return intConstant(b, loc, type, 0);
    amount = intConstant(b, loc, type, std::min<uint64_t>(bits, width - 1));
  } else {
    inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, amount,
                                    intConstant(b, loc, type, width));
    zero = intConstant(b, loc, type, 0);
    // An arithmetic shift by width - 1 already gives copies of the sign.
    Value outOfRange =
        arithmetic ? intConstant(b, loc, type, width - 1) : zero;
    amount = arith::SelectOp::create(b, loc, inRange, amount, outOfRange);
  }
  if (arithmetic)
    return arith::ShRSIOp::create(b, loc, x, amount);
  Value shifted = isa<stablehlo::ShiftLeftOp>(op)
                      ? Value(arith::ShLIOp::create(b, loc, x, amount))
                      : Value(arith::ShRUIOp::create(b, loc, x, amount));
  if (!inRange)
    return shifted;
  return arith::SelectOp::create(b, loc, inRange, shifted, zero);
}

Value floatConstant(OpBuilder &b, Location loc, Type type, double value) {
  return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, value));
}

/// expm1(x) = (u - 1) x / log(u), u = exp(x): exact where u rounds to 1
/// (then x itself), and -1 / +inf where u - 1 is -1 / u overflows.
Value expm1(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  Value one = floatConstant(b, loc, type, 1.0);
  Value u = math::ExpOp::create(b, loc, x);
  Value um1 = arith::SubFOp::create(b, loc, u, one);
  Value ratio = arith::DivFOp::create(
      b, loc, arith::MulFOp::create(b, loc, um1, x),
      math::LogOp::create(b, loc, u));
  Value uIsOne =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, u, one);
  Value minusOne = floatConstant(b, loc, type, -1.0);
  Value saturated =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, um1, minusOne);
  Value inf = floatConstant(b, loc, type, INFINITY);
  Value overflow =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, u, inf);
  Value result = arith::SelectOp::create(b, loc, uIsOne, x, ratio);
  result = arith::SelectOp::create(b, loc, saturated, minusOne, result);
  return arith::SelectOp::create(b, loc, overflow, inf, result);
}

/// Rounding half away from zero: trunc(x), one further out at or past .5.
Value roundHalfAway(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  Value t = math::TruncOp::create(b, loc, x);
  Value frac = math::AbsFOp::create(b, loc, arith::SubFOp::create(b, loc, x, t));
  Value half = floatConstant(b, loc, type, 0.5);
  Value away =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, frac, half);
  Value step = math::CopySignOp::create(b, loc, floatConstant(b, loc, type, 1.0), x);
  return arith::SelectOp::create(b, loc, away,
                                 arith::AddFOp::create(b, loc, t, step), t);
}

/// -1, 0 or 1; floats keep zeros (with their sign) and NaN as they are.
Value sign(OpBuilder &b, Location loc, Type element, Value x) {
  Type type = x.getType();
  if (isa<FloatType>(element)) {
    Value zero = floatConstant(b, loc, type, 0.0);
    Value pos = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, zero);
    Value neg = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero);
    Value r = arith::SelectOp::create(b, loc, neg, floatConstant(b, loc, type, -1.0), x);
    return arith::SelectOp::create(b, loc, pos, floatConstant(b, loc, type, 1.0), r);
  }
  Value zero = intConstant(b, loc, type, 0);
  Value pos = arith::CmpIOp::create(
      b, loc,
      isUnsignedElement(element) ? arith::CmpIPredicate::ugt
                                 : arith::CmpIPredicate::sgt,
      x, zero);
  Value r = zero;
  if (!isUnsignedElement(element)) {
    Value neg =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero);
    r = arith::SelectOp::create(b, loc, neg, intConstant(b, loc, type, -1), zero);
  }
  return arith::SelectOp::create(b, loc, pos, intConstant(b, loc, type, 1), r);
}

/// A float op that is one `math` op on scalars; null on other types.
template <typename MathOp, typename... Operands>
Value floatMath(bool isFloat, OpBuilder &b, Location loc, Operands... operands) {
  return isFloat ? Value(MathOp::create(b, loc, operands...)) : Value();
}

/// One stablehlo op on scalars, or null when it has no scalar form here.
Value scalarize(OpBuilder &b, Operation *op, ArrayRef<Value> args) {
  Location loc = op->getLoc();
  if (auto constant = dyn_cast<stablehlo::ConstantOp>(op)) {
    auto value = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!value)
      return nullptr;
    Type element = value.getElementType();
    if (isa<FloatType>(element))
      return arith::ConstantOp::create(
          b, loc, element,
          b.getFloatAttr(element, value.getSplatValue<APFloat>()));
    if (isa<IntegerType>(element))
      return scalarConstant(b, loc, element, value.getSplatValue<APInt>());
    return nullptr;
  }
  if (op->getNumResults() != 1)
    return nullptr;
  Type element = getElementTypeOrSelf(op->getResult(0).getType());
  Type operandElement = op->getNumOperands()
                            ? getElementTypeOrSelf(op->getOperand(0).getType())
                            : element;
  bool isFloat = isa<FloatType>(element);
  bool isBool = element.isInteger(1);
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](stablehlo::AddOp) -> Value {
        if (isFloat)
          return arith::AddFOp::create(b, loc, args[0], args[1]);
        if (isBool)
          return arith::OrIOp::create(b, loc, args[0], args[1]);
        return arith::AddIOp::create(b, loc, args[0], args[1]);
      })
      .Case([&](stablehlo::SubtractOp) -> Value {
        if (isFloat)
          return arith::SubFOp::create(b, loc, args[0], args[1]);
        return arith::SubIOp::create(b, loc, args[0], args[1]);
      })
      .Case([&](stablehlo::MulOp) -> Value {
        if (isFloat)
          return arith::MulFOp::create(b, loc, args[0], args[1]);
        if (isBool)
          return arith::AndIOp::create(b, loc, args[0], args[1]);
        return arith::MulIOp::create(b, loc, args[0], args[1]);
      })
      .Case([&](stablehlo::DivOp) -> Value {
        if (isFloat)
          return arith::DivFOp::create(b, loc, args[0], args[1]);
        return integerDivision(b, loc, element, args[0], args[1], false);
      })
      .Case([&](stablehlo::RemOp) -> Value {
        if (isFloat)
          return arith::RemFOp::create(b, loc, args[0], args[1]);
        return integerDivision(b, loc, element, args[0], args[1], true);
      })
      .Case([&](stablehlo::MaxOp) {
        return extremum(b, loc, element, args[0], args[1], true);
      })
      .Case([&](stablehlo::MinOp) {
        return extremum(b, loc, element, args[0], args[1], false);
      })
      .Case([&](stablehlo::AndOp) -> Value {
        return arith::AndIOp::create(b, loc, args[0], args[1]);
      })
      .Case([&](stablehlo::OrOp) -> Value {
        return arith::OrIOp::create(b, loc, args[0], args[1]);
      })
      .Case([&](stablehlo::XorOp) -> Value {
        return arith::XOrIOp::create(b, loc, args[0], args[1]);
      })
      .Case([&](stablehlo::NotOp) -> Value {
        Value ones = intConstant(b, loc, args[0].getType(), -1);
        return arith::XOrIOp::create(b, loc, args[0], ones);
      })
      .Case<stablehlo::ShiftLeftOp, stablehlo::ShiftRightLogicalOp,
            stablehlo::ShiftRightArithmeticOp>([&](Operation *shiftOp) {
        return isFloat ? nullptr : shift(b, loc, shiftOp, args[0], args[1]);
      })
      .Case([&](stablehlo::NegOp) -> Value {
        if (isFloat)
          return arith::NegFOp::create(b, loc, args[0]);
        Value zero = intConstant(b, loc, args[0].getType(), 0);
        return arith::SubIOp::create(b, loc, zero, args[0]);
      })
      .Case([&](stablehlo::AbsOp) -> Value {
        if (isa<FloatType>(operandElement))
          return math::AbsFOp::create(b, loc, args[0]);
        return math::AbsIOp::create(b, loc, args[0]);
      })
      .Case([&](stablehlo::CompareOp compareOp) {
        return scalarCompare(b, loc, compareOp, args[0], args[1]);
      })
      .Case([&](stablehlo::SelectOp) -> Value {
        return arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
      })
      .Case([&](stablehlo::ConvertOp) -> Value {
        if (!isa<FloatType, IntegerType>(operandElement) ||
            !isa<FloatType, IntegerType>(element))
          return nullptr;
        return convert(b, loc, operandElement, element, args[0]);
      })
      .Case([&](stablehlo::PowOp) -> Value {
        if (isFloat)
          return math::PowFOp::create(b, loc, args[0], args[1]);
        if (isBool)
          return nullptr;
        return integerPower(b, loc, element, args[0], args[1]);
      })
      .Case([&](stablehlo::ExpOp) {
        return floatMath<math::ExpOp>(isFloat, b, loc, args[0]);
      })
      .Case([&](stablehlo::LogOp) {
        return floatMath<math::LogOp>(isFloat, b, loc, args[0]);
      })
      .Case([&](stablehlo::SqrtOp) {
        return floatMath<math::SqrtOp>(isFloat, b, loc, args[0]);
      })
      .Case([&](stablehlo::TanhOp) {
        return floatMath<math::TanhOp>(isFloat, b, loc, args[0]);
      })
      // Data movement on 0-d tensors moves nothing.
      .Case<stablehlo::BroadcastInDimOp, stablehlo::ReshapeOp,
            stablehlo::TransposeOp>([&](Operation *) { return args[0]; })
      .Case([&](stablehlo::BitcastConvertOp) -> Value {
        if (operandElement.getIntOrFloatBitWidth() !=
                element.getIntOrFloatBitWidth() ||
            isBool)
          return nullptr;
        return arith::BitcastOp::create(b, loc, signlessType(element), args[0]);
      })
      .Case([&](stablehlo::Log1pOp) {
        return floatMath<math::Log1pOp>(isFloat, b, loc, args[0]);
      })
      .Case([&](stablehlo::Expm1Op) -> Value {
        return isFloat ? expm1(b, loc, args[0]) : nullptr;
      })
      .Case([&](stablehlo::SineOp) {
        return floatMath<math::SinOp>(isFloat, b, loc, args[0]);
      })
      .Case([&](stablehlo::CosineOp) {
        return floatMath<math::CosOp>(isFloat, b, loc, args[0]);
      })
      .Case([&](stablehlo::TanOp) {
        return floatMath<math::TanOp>(isFloat, b, loc, args[0]);
      })
      .Case([&](stablehlo::Atan2Op) {
        return floatMath<math::Atan2Op>(isFloat, b, loc, args[0], args[1]);
      })
      .Case([&](stablehlo::RsqrtOp) {
        return floatMath<math::RsqrtOp>(isFloat, b, loc, args[0]);
      })
      .Case([&](stablehlo::FloorOp) {
        return floatMath<math::FloorOp>(isFloat, b, loc, args[0]);
      })
      .Case([&](stablehlo::CeilOp) {
        return floatMath<math::CeilOp>(isFloat, b, loc, args[0]);
      })
      .Case([&](stablehlo::RoundNearestEvenOp) {
        return floatMath<math::RoundEvenOp>(isFloat, b, loc, args[0]);
      })
      .Case([&](stablehlo::RoundOp) -> Value {
        return isFloat ? roundHalfAway(b, loc, args[0]) : nullptr;
      })
      .Case([&](stablehlo::LogisticOp) -> Value {
        if (!isFloat)
          return nullptr;
        Value one = floatConstant(b, loc, element, 1.0);
        Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, args[0]));
        return arith::DivFOp::create(b, loc, one,
                                     arith::AddFOp::create(b, loc, one, e));
      })
      .Case([&](stablehlo::SignOp) -> Value {
        return isBool ? nullptr : sign(b, loc, element, args[0]);
      })
      .Case([&](stablehlo::IsFiniteOp) -> Value {
        if (!isa<FloatType>(operandElement))
          return nullptr;
        Value inf = floatConstant(b, loc, operandElement, INFINITY);
        return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                     math::AbsFOp::create(b, loc, args[0]),
                                     inf);
      })
      .Case([&](stablehlo::ClampOp) -> Value {
        if (isBool)
          return nullptr;
        Value low = extremum(b, loc, element, args[1], args[0], true);
        return extremum(b, loc, element, low, args[2], false);
      })
      .Case([&](stablehlo::PopulationCountOp) -> Value {
        return isFloat || isBool ? nullptr
                                 : math::CtPopOp::create(b, loc, args[0]);
      })
      .Case([&](stablehlo::ClzOp) -> Value {
        if (isFloat || isBool)
          return nullptr;
        // TVM counts in 32 or 64 bits (narrower values count zero-extended)
        // and leaves clz(0) to the target: it is the width.
        Type type = args[0].getType();
        unsigned width = type.getIntOrFloatBitWidth();
        Value count;
        if (width >= 32) {
          count = math::CountLeadingZerosOp::create(b, loc, args[0]);
        } else {
          Type i32 = b.getI32Type();
          Value wide = arith::ExtUIOp::create(b, loc, i32, args[0]);
          count = arith::TruncIOp::create(
              b, loc, type,
              arith::SubIOp::create(
                  b, loc, math::CountLeadingZerosOp::create(b, loc, wide),
                  intConstant(b, loc, i32, 32 - width)));
        }
        Value isZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             args[0], intConstant(b, loc, type, 0));
        return arith::SelectOp::create(b, loc, isZero,
                                       intConstant(b, loc, type, width), count);
      })
      .Default([](Operation *) -> Value { return nullptr; });
}

} // namespace

/// Integer bits with every bit but the sign flipped when the sign is set:
/// the map between a float's bits and its totalOrder key, either way.
static Value flipMagnitudeIfNegative(OpBuilder &b, Location loc, Value bits) {
  Type intType = bits.getType();
  unsigned width = intType.getIntOrFloatBitWidth();
  Value zero = intConstant(b, loc, intType, 0);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, bits, zero);
  Value maxValue = arith::ConstantOp::create(
      b, loc, intType,
      b.getIntegerAttr(intType, APInt::getSignedMaxValue(width)));
  Value flipped = arith::XOrIOp::create(b, loc, bits, maxValue);
  return arith::SelectOp::create(b, loc, negative, flipped, bits);
}

Value totalOrderKey(OpBuilder &b, Location loc, Value x) {
  Type intType = b.getIntegerType(x.getType().getIntOrFloatBitWidth());
  Value bits = arith::BitcastOp::create(b, loc, intType, x);
  return flipMagnitudeIfNegative(b, loc, bits);
}

Value fromTotalOrderKey(OpBuilder &b, Location loc, Type floatType,
                        Value key) {
  Value bits = flipMagnitudeIfNegative(b, loc, key);
  return arith::BitcastOp::create(b, loc, floatType, bits);
}

Value intConstant(OpBuilder &b, Location loc, Type type, int64_t value) {
  return arith::ConstantOp::create(b, loc, type,
                                   b.getIntegerAttr(type, value));
}

Value scalarConstant(OpBuilder &builder, Location loc, Type type,
                     const APInt &bits) {
  Type signless = signlessType(type);
  return arith::ConstantOp::create(builder, loc, signless,
                                   builder.getIntegerAttr(signless, bits));
}

FailureOr<SmallVector<Value>> scalarizeBody(OpBuilder &builder, Block &body,
                                            ValueRange args) {
  IRMapping map;
  for (auto [arg, value] : llvm::zip(body.getArguments(), args))
    map.map(arg, value);
  for (Operation &op : body) {
    if (auto ret = dyn_cast<stablehlo::ReturnOp>(op)) {
      SmallVector<Value> results;
      for (Value v : ret.getOperands())
        results.push_back(map.lookup(v));
      return results;
    }
    // Every value in a body is a 0-d tensor.
    for (Type type : llvm::concat<const Type>(op.getOperandTypes(),
                                              op.getResultTypes())) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || tensor.getRank() != 0 ||
          !isa<FloatType, IntegerType>(tensor.getElementType()))
        return failure();
    }
    SmallVector<Value> operands;
    for (Value v : op.getOperands()) {
      Value mapped = map.lookupOrNull(v);
      if (!mapped)
        return failure(); // defined outside the body
      operands.push_back(mapped);
    }
    Value result = scalarize(builder, &op, operands);
    if (!result)
      return failure();
    map.map(op.getResult(0), result);
  }
  return failure();
}

LogicalResult checkScalarizable(Block &body) {
  MLIRContext *context = body.getParentOp()->getContext();
  Block scratch;
  OpBuilder builder(context);
  builder.setInsertionPointToStart(&scratch);
  SmallVector<Value> args;
  for (BlockArgument arg : body.getArguments()) {
    auto tensor = dyn_cast<RankedTensorType>(arg.getType());
    if (!tensor || tensor.getRank() != 0 ||
        !isa<FloatType, IntegerType>(tensor.getElementType()))
      return failure();
    args.push_back(
        scratch.addArgument(signlessType(tensor.getElementType()), arg.getLoc()));
  }
  bool translated = succeeded(scalarizeBody(builder, body, args));
  scratch.dropAllDefinedValueUses();
  scratch.clear();
  return success(translated);
}

} // namespace mlir::stablehlo_tvm
