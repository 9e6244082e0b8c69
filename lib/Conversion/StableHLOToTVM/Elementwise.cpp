//===- Elementwise.cpp - Elementwise stablehlo ops to Relax operators -----===//
//
// Adding an elementwise op is one line in populateElementwisePatterns: the
// stablehlo op, the Relax operator for numbers and, where it differs, the one
// for booleans (i1).
//
//===----------------------------------------------------------------------===//

#include "DeclineReasons.h"
#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/CHLO/IR/CHLO.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::stablehlo_tvm {
namespace {

bool isBoolTensor(Type type) {
  return cast<RankedTensorType>(type).getElementType().isInteger(1);
}

/// Integer x / y or x % y with the results XLA gives where StableHLO leaves
/// them open: x / 0 is -1 (all bits set), x % 0 is x, INT_MIN / -1 is
/// INT_MIN and INT_MIN % -1 is 0; nothing the hardware traps on.
/// - The divisor is nudged arithmetically (y plus y == 0), not selected: TVM
///   simplifies a select's branches under its condition, and where y is
///   provably 0 (x - x) the branch that assumes y != 0 folds the division
///   by 0 itself, which TVM's constant folder refuses.
/// - Signed operands divide as unsigned magnitudes (|x| / |y|, the sign put
///   back by unsigned negation), so INT_MIN / -1 is 2^(n-1) / 1, no trap. A
///   guard on x == INT_MIN does not hold: TVM marks signed arithmetic
///   no-wrap (LLVM's nsw), so where x came from an overflowing product LLVM
///   took x != INT_MIN and dropped the guard (SIGFPE). Negation is ~v + 1:
///   TVM's bounds would make an unsigned 0 - v zero.
Value integerDivision(OpBuilder &builder, Location loc, Value x, Value y,
                      bool remainder) {
  auto type = cast<RankedTensorType>(y.getType());
  auto intType = cast<IntegerType>(type.getElementType());
  unsigned width = intType.getWidth();
  auto boolType = type.clone(builder.getI1Type());
  auto unsignedInt = IntegerType::get(builder.getContext(), width,
                                      IntegerType::Unsigned);
  auto unsignedType = type.clone(unsignedInt);
  auto splat = [&](RankedTensorType t, const APInt &value) {
    return splatConstant(builder, loc, t,
                         builder.getIntegerAttr(t.getElementType(), value), y);
  };
  auto cast = [&](Value v, RankedTensorType t) -> Value {
    return tvm::AsTypeOp::create(builder, loc, t, v,
                                 TypeAttr::get(t.getElementType()));
  };
  Value zero = splat(type, APInt::getZero(width));
  Value isZero = tvm::EqualOp::create(builder, loc, boolType, y, zero);
  auto nudged = [&](Value divisor, RankedTensorType t) -> Value {
    Value isZeroHere = tvm::EqualOp::create(
        builder, loc, boolType, divisor, splat(t, APInt::getZero(width)));
    return tvm::AddOp::create(builder, loc, t, divisor, cast(isZeroHere, t));
  };
  Value result;
  if (intType.isUnsigned()) {
    Value divisor = nudged(y, type);
    result = remainder
                 ? Value(tvm::ModOp::create(builder, loc, type, x, divisor))
                 : Value(tvm::DivideOp::create(builder, loc, type, x, divisor));
  } else {
    Value one = splat(unsignedType, APInt(width, 1));
    auto negated = [&](Value v) -> Value {
      return tvm::AddOp::create(
          builder, loc, unsignedType,
          tvm::BitwiseNotOp::create(builder, loc, unsignedType, v), one);
    };
    auto magnitude = [&](Value v, Value negative) -> Value {
      Value bits = cast(v, unsignedType);
      return tvm::WhereOp::create(builder, loc, unsignedType, negative,
                                  negated(bits), bits);
    };
    Value xNegative = tvm::LessOp::create(builder, loc, boolType, x, zero);
    Value yNegative = tvm::LessOp::create(builder, loc, boolType, y, zero);
    Value xMagnitude = magnitude(x, xNegative);
    Value yMagnitude = nudged(magnitude(y, yNegative), unsignedType);
    Value unsignedResult =
        remainder ? Value(tvm::ModOp::create(builder, loc, unsignedType,
                                             xMagnitude, yMagnitude))
                  : Value(tvm::DivideOp::create(builder, loc, unsignedType,
                                                xMagnitude, yMagnitude));
    // The remainder takes the dividend's sign, the quotient the product's.
    Value negative =
        remainder ? xNegative
                  : Value(tvm::LogicalXorOp::create(builder, loc, boolType,
                                                    xNegative, yNegative));
    result = cast(tvm::WhereOp::create(builder, loc, unsignedType, negative,
                                       negated(unsignedResult), unsignedResult),
                  type);
  }
  Value atZero = remainder ? x
                           : splat(type, APInt::getAllOnes(width));
  return tvm::WhereOp::create(builder, loc, type, isZero, atZero, result);
}

/// Integer division as XLA defines the cases StableHLO leaves open: x / 0 is
/// -1 (all bits set) and INT_MIN / -1 is INT_MIN.
struct IntegerDivideConversion : TVMTypedPattern<stablehlo::DivOp> {
  IntegerDivideConversion(MLIRContext *context)
      : TVMTypedPattern(context, /*benefit=*/2) {}
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(stablehlo::DivOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = op.getType();
    auto intType = dyn_cast<IntegerType>(type.getElementType());
    if (!intType || intType.getWidth() == 1)
      return decline(rewriter, op, "not an integer division");
    rewriter.replaceOp(op, integerDivision(rewriter, op.getLoc(),
                                           adaptor.getLhs(), adaptor.getRhs(),
                                           /*remainder=*/false));
    return success();
  }
};

/// Transcendental functions: on f16/bf16 they compute in f32 and round back
/// (computeHalfInF32).
template <typename SrcOp, typename DstOp>
struct TranscendentalConversion : TVMTypedPattern<SrcOp> {
  using TVMTypedPattern<SrcOp>::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(SrcOp op, typename SrcOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    rewriter.replaceOp(
        op, computeHalfInF32(rewriter, op.getLoc(), adaptor.getOperands(),
                             resultType,
                             [&](ValueRange operands, RankedTensorType type) {
                               return DstOp::create(rewriter, op.getLoc(), type,
                                                    operands);
                             }));
    return success();
  }
};

/// StableHLO's maximum and minimum are IEEE-754's, which order -0 below +0;
/// TVM's max and min may return either zero. Where both operands are zeros
/// the sign comes from arithmetic that keeps it under any association: x + y
/// is negative only if both are (maximum), (x + y) * (x * y) if either is
/// (minimum: the sum's sign exclusive-or'ed with the product's). A constant
/// operand without zeros needs nothing; one of zeros only needs no test.
template <typename DstOp>
Value withOrderedZeros(OpBuilder &builder, Location loc, Value x, Value y,
                       Value value) {
  auto type = cast<RankedTensorType>(x.getType());
  auto boolType = type.clone(builder.getI1Type());
  auto zeroness = [](Value v) -> std::optional<bool> {
    DenseFPElementsAttr elements = floatConstantOf(v);
    if (!elements)
      return std::nullopt;
    auto isZero = [](const APFloat &f) { return f.isZero(); };
    if (llvm::none_of(elements.getValues<APFloat>(), isZero))
      return false;
    if (llvm::all_of(elements.getValues<APFloat>(), isZero))
      return true;
    return std::nullopt;
  };
  std::optional<bool> xZero = zeroness(x), yZero = zeroness(y);
  if (xZero == false || yZero == false)
    return value;
  Value zero = splatConstant(builder, loc, type,
                             builder.getFloatAttr(type.getElementType(), 0.0),
                             x);
  auto isZero = [&](Value v) -> Value {
    return tvm::EqualOp::create(builder, loc, boolType, v, zero);
  };
  Value bothZero;
  if (xZero)
    bothZero = isZero(y);
  else if (yZero)
    bothZero = isZero(x);
  else {
    Value xIsZero = isZero(x);
    bothZero = tvm::LogicalAndOp::create(builder, loc, boolType, xIsZero,
                                         isZero(y));
  }
  Value sum = tvm::AddOp::create(builder, loc, type, x, y);
  Value signedZero = sum;
  if (std::is_same_v<DstOp, tvm::MinimumOp>)
    signedZero = tvm::MultiplyOp::create(
        builder, loc, type, sum,
        tvm::MultiplyOp::create(builder, loc, type, x, y));
  return tvm::WhereOp::create(builder, loc, type, bothZero, signedZero, value);
}

template <typename DstOp>
Value emitMinMax(OpBuilder &builder, Location loc, Value x, Value y) {
  Value value = nanPropagating(builder, loc, x, y,
                               DstOp::create(builder, loc, x.getType(), x, y));
  return withOrderedZeros<DstOp>(builder, loc, x, y, value);
}

template <typename SrcOp, typename DstOp>
struct FloatMinMaxConversion : TVMTypedPattern<SrcOp> {
  FloatMinMaxConversion(MLIRContext *context)
      : TVMTypedPattern<SrcOp>(context, /*benefit=*/2) {}
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(SrcOp op, typename SrcOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    if (!isa<FloatType>(type.getElementType()))
      return decline(rewriter, op, "not a float min/max");
    rewriter.replaceOp(op, emitMinMax<DstOp>(rewriter, op.getLoc(),
                                             adaptor.getLhs(), adaptor.getRhs()));
    return success();
  }
};

/// clamp(min, x, max) = minimum(maximum(x, min), max); scalar bounds
/// broadcast.
struct ClampConversion : TVMTypedPattern<stablehlo::ClampOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(stablehlo::ClampOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getType().getElementType().isInteger(1))
      return decline(rewriter, op, "element type unsupported");
    Location loc = op.getLoc();
    ArrayRef<int64_t> shape = op.getType().getShape();
    Value lo = broadcastTo(rewriter, loc, adaptor.getMin(), shape, adaptor.getOperand());
    Value hi = broadcastTo(rewriter, loc, adaptor.getMax(), shape, adaptor.getOperand());
    Value value = emitMinMax<tvm::MaximumOp>(rewriter, loc, adaptor.getOperand(), lo);
    rewriter.replaceOp(op, emitMinMax<tvm::MinimumOp>(rewriter, loc, value, hi));
    return success();
  }
};

/// Whether `amount` (converted) is a constant, or a reshaped or broadcast
/// one, whose every value, read unsigned, is below `width`: a shift the
/// hardware does as specified.
bool isShiftInRange(Value amount, unsigned width) {
  while (Operation *op = amount.getDefiningOp()) {
    if (!isa<tvm::BroadcastToOp, tvm::ReshapeOp>(op))
      break;
    amount = op->getOperand(0);
  }
  DenseIntElementsAttr values;
  if (!matchPattern(amount, m_Constant(&values)))
    return false;
  return llvm::all_of(values.getValues<APInt>(),
                      [&](const APInt &v) { return v.ult(width); });
}

/// Shifts by an amount outside [0, bit width) give 0 (left, logical right)
/// or the sign fill (arithmetic right); the hardware shifts would wrap the
/// amount instead, so amounts not known to be in range are tested per
/// element. Logical shifts of signed integers shift the unsigned bits.
template <typename SrcOp>
struct ShiftConversion : TVMTypedPattern<SrcOp> {
  using TVMTypedPattern<SrcOp>::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(SrcOp op, typename SrcOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    auto intType = dyn_cast<IntegerType>(type.getElementType());
    if (!intType || intType.getWidth() == 1)
      return decline(rewriter, op, "not an integer shift");
    Location loc = op.getLoc();
    unsigned width = intType.getWidth();
    auto unsignedType = type.clone(
        IntegerType::get(rewriter.getContext(), width, IntegerType::Unsigned));
    auto signedType = type.clone(IntegerType::get(rewriter.getContext(), width));
    auto cast = [&](Value v, RankedTensorType to) {
      return astype(rewriter, loc, v, to);
    };
    Value x = adaptor.getLhs(), amount = adaptor.getRhs();
    auto splat = [&](RankedTensorType t, int64_t v) {
      return splatConstant(rewriter, loc, t,
                           rewriter.getIntegerAttr(t.getElementType(), v), x);
    };
    if (isShiftInRange(amount, width)) {
      Value result;
      if constexpr (std::is_same_v<SrcOp, stablehlo::ShiftLeftOp>) {
        result = tvm::LeftShiftOp::create(rewriter, loc, type, x, amount);
      } else {
        RankedTensorType as =
            std::is_same_v<SrcOp, stablehlo::ShiftRightArithmeticOp> ? signedType
                                                                     : unsignedType;
        result = cast(tvm::RightShiftOp::create(rewriter, loc, as, cast(x, as),
                                                cast(amount, as)),
                      type);
      }
      rewriter.replaceOp(op, result);
      return success();
    }
    auto boolType = type.clone(rewriter.getI1Type());
    // Named statements: the emitted op order must not depend on the order in
    // which C++ evaluates call arguments.
    Value unsignedAmount = cast(amount, unsignedType);
    Value widthValue = splat(unsignedType, width);
    Value outOfRange = tvm::GreaterEqualOp::create(rewriter, loc, boolType,
                                                   unsignedAmount, widthValue);
    if constexpr (std::is_same_v<SrcOp, stablehlo::ShiftRightArithmeticOp>) {
      // Shifting by width - 1 gives the sign fill.
      Value signFill = splat(type, width - 1);
      Value safe =
          tvm::WhereOp::create(rewriter, loc, type, outOfRange, signFill, amount);
      Value signedX = cast(x, signedType);
      Value signedSafe = cast(safe, signedType);
      Value shifted = tvm::RightShiftOp::create(rewriter, loc, signedType,
                                                signedX, signedSafe);
      rewriter.replaceOp(op, cast(shifted, type));
      return success();
    }
    Value zero = splat(type, 0);
    Value safe = tvm::WhereOp::create(rewriter, loc, type, outOfRange, zero, amount);
    Value result;
    if constexpr (std::is_same_v<SrcOp, stablehlo::ShiftLeftOp>) {
      result = tvm::LeftShiftOp::create(rewriter, loc, type, x, safe);
    } else {
      Value unsignedX = cast(x, unsignedType);
      Value unsignedSafe = cast(safe, unsignedType);
      result = cast(tvm::RightShiftOp::create(rewriter, loc, unsignedType,
                                              unsignedX, unsignedSafe),
                    type);
    }
    rewriter.replaceOpWithNewOp<tvm::WhereOp>(op, type, outOfRange, zero, result);
    return success();
  }
};

/// remainder takes the sign of the dividend (C's % and fmod). On integers
/// x % 0 is x and INT_MIN % -1 is 0, as in XLA, without trapping.
struct RemainderConversion : TVMTypedPattern<stablehlo::RemOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(stablehlo::RemOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = op.getType();
    if (type.getElementType().isInteger(1))
      return decline(rewriter, op, "element type unsupported");
    Value x = adaptor.getLhs(), y = adaptor.getRhs();
    auto intType = dyn_cast<IntegerType>(type.getElementType());
    if (!intType) {
      rewriter.replaceOp(
          op, computeHalfInF32(rewriter, op.getLoc(), adaptor.getOperands(),
                               type, [&](ValueRange operands,
                                         RankedTensorType wideType) {
                                 return tvm::ModOp::create(rewriter, op.getLoc(),
                                                           wideType, operands);
                               }));
      return success();
    }
    rewriter.replaceOp(op, integerDivision(rewriter, op.getLoc(), x, y,
                                           /*remainder=*/true));
    return success();
  }
};

/// `SrcOp` becomes `NumberOp` on numbers and `BoolOp` on i1 (StableHLO's add
/// on i1 is a logical or, for example). `void` means: not defined there.
template <typename SrcOp, typename NumberOp, typename BoolOp = void>
struct ElementwiseConversion : TVMTypedPattern<SrcOp> {
  using TVMTypedPattern<SrcOp>::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(SrcOp op, typename SrcOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op->getResult(0).getType();
    if (isBoolTensor(op->getOperand(0).getType())) {
      if constexpr (std::is_void_v<BoolOp>)
        return decline(rewriter, op, "not defined on i1");
      else
        rewriter.replaceOpWithNewOp<BoolOp>(op, type, adaptor.getOperands());
    } else {
      rewriter.replaceOpWithNewOp<NumberOp>(op, type, adaptor.getOperands());
    }
    return success();
  }
};

/// IEEE inequality: Relax's not_equal is an ordered comparison on floats
/// (false for NaN), so floats add "either is NaN". (The negation of
/// equality would not do: TVM's simplifier rewrites it to not_equal.)
Value notEqual(OpBuilder &builder, Location loc, Type type, Value lhs,
               Value rhs) {
  Value ordered = tvm::NotEqualOp::create(builder, loc, type, lhs, rhs);
  if (!isa<FloatType>(getElementTypeOrSelf(lhs.getType())))
    return ordered;
  Value lhsNaN = isNaN(builder, loc, lhs);
  Value rhsNaN = isNaN(builder, loc, rhs);
  Value eitherNaN = tvm::LogicalOrOp::create(builder, loc, type, lhsNaN, rhsNaN);
  return tvm::LogicalOrOp::create(builder, loc, type, ordered, eitherNaN);
}

/// Whether x and y are one value: the same SSA value or equal constants.
bool sameValue(Value x, Value y) {
  if (x == y)
    return true;
  auto cx = x.getDefiningOp<tvm::ConstantOp>();
  auto cy = y.getDefiningOp<tvm::ConstantOp>();
  return cx && cy && cx.getValue() == cy.getValue();
}

/// A float comparison in IEEE totalOrder (-NaN < -inf < ... < -0 < +0 < ...
/// < +inf < +NaN), which Relax lacks: a kernel of the scalar comparison.
Value totalOrderCompare(OpBuilder &builder, stablehlo::CompareOp op, Value lhs,
                        Value rhs) {
  return buildElementwiseKernel(
      builder, op.getLoc(), "compare_total_order", ValueRange{lhs, rhs},
      TypeRange{op.getType()},
      [&](OpBuilder &b, Location loc, ValueRange x) -> SmallVector<Value> {
        return {scalarCompare(b, loc, op, x[0], x[1])};
      })[0];
}

/// The Relax comparison for a direction; comparisons on tensors of the same
/// element type follow that type's ordering (signed, unsigned or IEEE).
struct CompareConversion : TVMTypedPattern<stablehlo::CompareOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(stablehlo::CompareOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto compareType = op.getCompareType();
    Type type = op.getType();
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    if (compareType == stablehlo::ComparisonType::TOTALORDER &&
        isa<FloatType>(getElementTypeOrSelf(lhs.getType()))) {
      if (!cast<RankedTensorType>(type).hasStaticShape())
        return decline(rewriter, op, "total order on a dynamic shape");
      rewriter.replaceOp(op, totalOrderCompare(rewriter, op, lhs, rhs));
      return success();
    }
    // A float compared with itself (or with an equal constant, which CSE
    // merges): TVM folds x == x, x <= x and x >= x to true, which NaN is
    // not. They are "not NaN" (and LT/GT false, NE isNaN, as folded).
    auto operandType = cast<RankedTensorType>(lhs.getType());
    auto dir = op.getComparisonDirection();
    using Dir = stablehlo::ComparisonDirection;
    if (isa<FloatType>(operandType.getElementType()) &&
        (dir == Dir::EQ || dir == Dir::LE || dir == Dir::GE) &&
        sameValue(lhs, rhs)) {
      Value nan = isNaN(rewriter, op.getLoc(), lhs);
      rewriter.replaceOpWithNewOp<tvm::LogicalNotOp>(op, type, nan);
      return success();
    }
    // TVM cannot compare booleans: compare them as bytes (false < true).
    if (operandType.getElementType().isInteger(1)) {
      Type u8 = IntegerType::get(getContext(), 8, IntegerType::Unsigned);
      lhs = tvm::AsTypeOp::create(rewriter, op.getLoc(), operandType.clone(u8),
                                  lhs, TypeAttr::get(u8));
      rhs = tvm::AsTypeOp::create(rewriter, op.getLoc(), operandType.clone(u8),
                                  rhs, TypeAttr::get(u8));
    }
    switch (op.getComparisonDirection()) {
    case stablehlo::ComparisonDirection::EQ:
      rewriter.replaceOpWithNewOp<tvm::EqualOp>(op, type, lhs, rhs);
      break;
    case stablehlo::ComparisonDirection::NE:
      rewriter.replaceOp(op, notEqual(rewriter, op.getLoc(), type, lhs, rhs));
      break;
    case stablehlo::ComparisonDirection::LT:
      rewriter.replaceOpWithNewOp<tvm::LessOp>(op, type, lhs, rhs);
      break;
    case stablehlo::ComparisonDirection::LE:
      rewriter.replaceOpWithNewOp<tvm::LessEqualOp>(op, type, lhs, rhs);
      break;
    case stablehlo::ComparisonDirection::GT:
      rewriter.replaceOpWithNewOp<tvm::GreaterOp>(op, type, lhs, rhs);
      break;
    case stablehlo::ComparisonDirection::GE:
      rewriter.replaceOpWithNewOp<tvm::GreaterEqualOp>(op, type, lhs, rhs);
      break;
    }
    return success();
  }
};

struct SelectConversion : TVMTypedPattern<stablehlo::SelectOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(stablehlo::SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tvm::WhereOp>(op, op.getType(), adaptor.getPred(),
                                              adaptor.getOnTrue(),
                                              adaptor.getOnFalse());
    return success();
  }
};

/// convert: a cast, except to i1, which StableHLO defines as `x != 0`, and
/// from floats to integers, which saturates.
struct ConvertConversion : TVMTypedPattern<stablehlo::ConvertOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(stablehlo::ConvertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto operandType = cast<RankedTensorType>(op.getOperand().getType());
    auto resultType = op.getType();
    Type resultElement = resultType.getElementType();
    if (operandType == resultType) {
      rewriter.replaceOp(op, adaptor.getOperand());
      return success();
    }
    if (resultElement.isInteger(1)) {
      Value zeros = splatConstant(
          rewriter, op.getLoc(), operandType,
          cast<TypedAttr>(rewriter.getZeroAttr(operandType.getElementType())),
          adaptor.getOperand());
      rewriter.replaceOp(op, notEqual(rewriter, op.getLoc(), resultType,
                                      adaptor.getOperand(), zeros));
      return success();
    }
    auto from = dyn_cast<FloatType>(operandType.getElementType());
    auto to = dyn_cast<IntegerType>(resultElement);
    if (!from || !to) {
      rewriter.replaceOpWithNewOp<tvm::AsTypeOp>(op, resultType,
                                                 adaptor.getOperand(),
                                                 TypeAttr::get(resultElement));
      return success();
    }
    // A float cast to an integer it does not fit is undefined in TVM (LLVM's
    // fptosi): NaN becomes 0 and the rest saturates first.
    Location loc = op.getLoc();
    SaturationBounds bounds = saturationBounds(from, to);
    auto floats = [&](const APFloat &v) {
      return splatConstant(rewriter, loc, operandType, FloatAttr::get(from, v),
                           adaptor.getOperand());
    };
    auto boolType = operandType.clone(rewriter.getI1Type());
    Value x = adaptor.getOperand();
    Value safe = tvm::WhereOp::create(rewriter, loc, operandType,
                                      isNaN(rewriter, loc, x),
                                      floats(APFloat::getZero(from.getFloatSemantics())), x);
    Value clipped = tvm::MinimumOp::create(
        rewriter, loc, operandType,
        tvm::MaximumOp::create(rewriter, loc, operandType, safe, floats(bounds.low)),
        floats(bounds.highBelow));
    Value result = tvm::AsTypeOp::create(rewriter, loc, resultType, clipped,
                                         TypeAttr::get(resultElement));
    auto saturate = [&](Value where, const APInt &value) {
      Value bound = splatConstant(rewriter, loc, resultType,
                                  IntegerAttr::get(resultElement, value), result);
      result = tvm::WhereOp::create(rewriter, loc, resultType, where, bound, result);
    };
    saturate(tvm::GreaterEqualOp::create(rewriter, loc, boolType, safe,
                                         floats(bounds.overflow)),
             bounds.max);
    if (bounds.underflow)
      saturate(tvm::LessEqualOp::create(rewriter, loc, boolType, safe,
                                        floats(*bounds.underflow)),
               bounds.min);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// chlo.square: x * x.
struct SquareConversion : TVMTypedPattern<chlo::SquareOp> {
  using TVMTypedPattern::TVMTypedPattern;

  LogicalResult
  rewrite(chlo::SquareOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tvm::MultiplyOp>(
        op, op.getType(), adaptor.getOperand(), adaptor.getOperand());
    return success();
  }
};

/// Negation of unsigned integers wraps (0 - x); Relax's negative would
/// build a -1 of the unsigned type.
struct UnsignedNegateConversion : TVMTypedPattern<stablehlo::NegOp> {
  using TVMTypedPattern::TVMTypedPattern;

  LogicalResult
  rewrite(stablehlo::NegOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    if (!type.getElementType().isUnsignedInteger())
      return decline(rewriter, op, "not unsigned");
    Value zeros = splatConstant(
        rewriter, op.getLoc(), type,
        cast<TypedAttr>(rewriter.getZeroAttr(type.getElementType())));
    rewriter.replaceOpWithNewOp<tvm::SubtractOp>(op, type, zeros,
                                                 adaptor.getOperand());
    return success();
  }
};

} // namespace

void populateElementwisePatterns(MLIRContext *context,
                                 RewritePatternSet &patterns) {
  using namespace stablehlo;
  patterns.add<
      // Unary.
      ElementwiseConversion<AbsOp, tvm::AbsOp>,
      ElementwiseConversion<NegOp, tvm::NegativeOp>,
      TranscendentalConversion<ExpOp, tvm::ExpOp>,
      TranscendentalConversion<LogOp, tvm::LogOp>,
      TranscendentalConversion<SqrtOp, tvm::SqrtOp>,
      TranscendentalConversion<RsqrtOp, tvm::RsqrtOp>,
      TranscendentalConversion<LogisticOp, tvm::SigmoidOp>,
      ElementwiseConversion<NotOp, tvm::BitwiseNotOp, tvm::LogicalNotOp>,
      TranscendentalConversion<CosineOp, tvm::CosOp>,
      TranscendentalConversion<SineOp, tvm::SinOp>,
      TranscendentalConversion<TanOp, tvm::TanOp>,
      ElementwiseConversion<FloorOp, tvm::FloorOp>,
      ElementwiseConversion<CeilOp, tvm::CeilOp>,
      ElementwiseConversion<RoundNearestEvenOp, tvm::RoundOp>,
      TranscendentalConversion<IsFiniteOp, tvm::IsFiniteOp>,
      TranscendentalConversion<Atan2Op, tvm::Atan2Op>,
      // CHLO math that Relax has an operator for.
      TranscendentalConversion<chlo::TanOp, tvm::TanOp>,
      TranscendentalConversion<chlo::AcosOp, tvm::AcosOp>,
      TranscendentalConversion<chlo::AsinOp, tvm::AsinOp>,
      TranscendentalConversion<chlo::AtanOp, tvm::AtanOp>,
      TranscendentalConversion<chlo::AcoshOp, tvm::AcoshOp>,
      TranscendentalConversion<chlo::AsinhOp, tvm::AsinhOp>,
      TranscendentalConversion<chlo::ErfOp, tvm::ErfOp>,
      // Binary.
      ElementwiseConversion<AddOp, tvm::AddOp, tvm::LogicalOrOp>,
      ElementwiseConversion<SubtractOp, tvm::SubtractOp>,
      ElementwiseConversion<MulOp, tvm::MultiplyOp, tvm::LogicalAndOp>,
      ElementwiseConversion<DivOp, tvm::DivideOp>, // floats; see above for ints
      ElementwiseConversion<MaxOp, tvm::MaximumOp, tvm::LogicalOrOp>,
      ElementwiseConversion<MinOp, tvm::MinimumOp, tvm::LogicalAndOp>,
      ElementwiseConversion<AndOp, tvm::BitwiseAndOp, tvm::LogicalAndOp>,
      ElementwiseConversion<OrOp, tvm::BitwiseOrOp, tvm::LogicalOrOp>,
      ElementwiseConversion<XorOp, tvm::BitwiseXorOp, tvm::LogicalXorOp>,
      // The rest of the family.
      CompareConversion, SelectConversion, ConvertConversion,
      IntegerDivideConversion, FloatMinMaxConversion<MaxOp, tvm::MaximumOp>,
      FloatMinMaxConversion<MinOp, tvm::MinimumOp>, ClampConversion,
      ShiftConversion<ShiftLeftOp>, ShiftConversion<ShiftRightLogicalOp>,
      ShiftConversion<ShiftRightArithmeticOp>, RemainderConversion>(context);
  patterns.add<UnsignedNegateConversion>(context, /*benefit=*/2);
  patterns.add<SquareConversion>(context);
}

} // namespace mlir::stablehlo_tvm
