//===- Elementwise.cpp - Elementwise stablehlo ops to Relax operators -----===//
//
// Adding an elementwise op is one line in populateElementwisePatterns: the
// stablehlo op, the Relax operator for numbers and, where it differs, the one
// for booleans (i1).
//
//===----------------------------------------------------------------------===//

#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/CHLO/IR/CHLO.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

#include "mlir/IR/TypeUtilities.h"

namespace mlir::stablehlo_tvm {
namespace {

bool isBoolTensor(Type type) {
  return cast<RankedTensorType>(type).getElementType().isInteger(1);
}

/// Integer division as XLA defines the cases StableHLO leaves open: x / 0 is
/// -1 (all bits set) and INT_MIN / -1 is INT_MIN. Neither may reach the
/// hardware divide, which traps on both.
struct IntegerDivideConversion : OpConversionPattern<stablehlo::DivOp> {
  IntegerDivideConversion(MLIRContext *context)
      : OpConversionPattern(context, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(stablehlo::DivOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = op.getType();
    auto intType = dyn_cast<IntegerType>(type.getElementType());
    if (!intType || intType.getWidth() == 1 || !hasTVMTypes(op))
      return rewriter.notifyMatchFailure(op, "not an integer division");
    Location loc = op.getLoc();
    unsigned width = intType.getWidth();
    auto boolType = type.clone(rewriter.getI1Type());
    auto splat = [&](const APInt &value) {
      return splatConstant(rewriter, loc, type,
                           rewriter.getIntegerAttr(intType, value));
    };
    Value x = adaptor.getLhs(), y = adaptor.getRhs();
    Value allOnes = splat(APInt::getAllOnes(width));
    Value isZero = tvm::EqualOp::create(rewriter, loc, boolType, y,
                                        splat(APInt::getZero(width)));
    Value unsafe = isZero;
    if (!intType.isUnsigned()) {
      Value isMin = tvm::EqualOp::create(rewriter, loc, boolType, x,
                                         splat(APInt::getSignedMinValue(width)));
      Value isMinusOne =
          tvm::EqualOp::create(rewriter, loc, boolType, y, allOnes);
      Value overflow = tvm::LogicalAndOp::create(rewriter, loc, boolType, isMin,
                                                 isMinusOne);
      unsafe = tvm::LogicalOrOp::create(rewriter, loc, boolType, isZero,
                                        overflow);
    }
    // Dividing by 1 instead keeps INT_MIN / -1 at INT_MIN.
    Value safeY = tvm::WhereOp::create(rewriter, loc, type, unsafe,
                                       splat(APInt(width, 1)), y);
    Value quotient = tvm::DivideOp::create(rewriter, loc, type, x, safeY);
    rewriter.replaceOpWithNewOp<tvm::WhereOp>(op, type, isZero, allOnes,
                                              quotient);
    return success();
  }
};

/// Transcendental functions on f16/bf16 compute in f32 and round back, as
/// XLA does: TVM has no half-precision versions of most of them, and f32
/// rounds the result correctly more often.
template <typename SrcOp, typename DstOp>
struct TranscendentalConversion : OpConversionPattern<SrcOp> {
  using OpConversionPattern<SrcOp>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SrcOp op, typename SrcOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!hasTVMTypes(op))
      return rewriter.notifyMatchFailure(op, "element type unsupported by TVM");
    auto operandType = cast<RankedTensorType>(op->getOperand(0).getType());
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Type element = operandType.getElementType();
    if (!element.isF16() && !element.isBF16()) {
      rewriter.replaceOpWithNewOp<DstOp>(op, resultType, adaptor.getOperands());
      return success();
    }
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    SmallVector<Value> wide;
    for (Value operand : adaptor.getOperands())
      wide.push_back(tvm::AsTypeOp::create(rewriter, loc,
                                           operandType.clone(f32), operand,
                                           TypeAttr::get(f32)));
    Type wideResultElement =
        resultType.getElementType() == element ? f32 : resultType.getElementType();
    Value result = DstOp::create(rewriter, loc,
                                 resultType.clone(wideResultElement), wide);
    if (wideResultElement != resultType.getElementType())
      result = tvm::AsTypeOp::create(rewriter, loc, resultType, result,
                                     TypeAttr::get(resultType.getElementType()));
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// maximum/minimum on floats propagate NaN, which Relax's do not: where
/// either operand is NaN the result is x + y (a NaN).
template <typename SrcOp, typename DstOp>
struct FloatMinMaxConversion : OpConversionPattern<SrcOp> {
  FloatMinMaxConversion(MLIRContext *context)
      : OpConversionPattern<SrcOp>(context, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(SrcOp op, typename SrcOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    if (!isa<FloatType>(type.getElementType()) || !hasTVMTypes(op))
      return rewriter.notifyMatchFailure(op, "not a float min/max");
    Location loc = op.getLoc();
    auto boolType = type.clone(rewriter.getI1Type());
    Value x = adaptor.getLhs(), y = adaptor.getRhs();
    Value nanX = isNaN(rewriter, loc, x);
    Value nanY = isNaN(rewriter, loc, y);
    Value anyNaN = tvm::LogicalOrOp::create(rewriter, loc, boolType, nanX, nanY);
    Value nan = tvm::AddOp::create(rewriter, loc, type, x, y);
    Value value = DstOp::create(rewriter, loc, type, x, y);
    rewriter.replaceOpWithNewOp<tvm::WhereOp>(op, type, anyNaN, nan, value);
    return success();
  }
};

/// `SrcOp` becomes `NumberOp` on numbers and `BoolOp` on i1 (StableHLO's add
/// on i1 is a logical or, for example). `void` means: not defined there.
template <typename SrcOp, typename NumberOp, typename BoolOp = void>
struct ElementwiseConversion : OpConversionPattern<SrcOp> {
  using OpConversionPattern<SrcOp>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SrcOp op, typename SrcOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!hasTVMTypes(op))
      return rewriter.notifyMatchFailure(op, "element type unsupported by TVM");
    Type type = op->getResult(0).getType();
    if (isBoolTensor(op->getOperand(0).getType())) {
      if constexpr (std::is_void_v<BoolOp>)
        return rewriter.notifyMatchFailure(op, "not defined on i1");
      else
        rewriter.replaceOpWithNewOp<BoolOp>(op, type, adaptor.getOperands());
    } else {
      rewriter.replaceOpWithNewOp<NumberOp>(op, type, adaptor.getOperands());
    }
    return success();
  }
};

/// IEEE inequality: Relax's not_equal is an ordered comparison on floats
/// (false for NaN), so floats use the negation of equality.
Value notEqual(OpBuilder &builder, Location loc, Type type, Value lhs,
               Value rhs) {
  if (!isa<FloatType>(getElementTypeOrSelf(lhs.getType())))
    return tvm::NotEqualOp::create(builder, loc, type, lhs, rhs);
  Value equal = tvm::EqualOp::create(builder, loc, type, lhs, rhs);
  return tvm::LogicalNotOp::create(builder, loc, type, equal);
}

/// The Relax comparison for a direction; comparisons on tensors of the same
/// element type follow that type's ordering (signed, unsigned or IEEE).
struct CompareConversion : OpConversionPattern<stablehlo::CompareOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(stablehlo::CompareOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!hasTVMTypes(op))
      return rewriter.notifyMatchFailure(op, "element type unsupported by TVM");
    auto compareType = op.getCompareType();
    if (compareType == stablehlo::ComparisonType::TOTALORDER)
      return rewriter.notifyMatchFailure(op, "TOTALORDER is not supported yet");
    Type type = op.getType();
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
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

struct SelectConversion : OpConversionPattern<stablehlo::SelectOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(stablehlo::SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!hasTVMTypes(op))
      return rewriter.notifyMatchFailure(op, "element type unsupported by TVM");
    rewriter.replaceOpWithNewOp<tvm::WhereOp>(op, op.getType(), adaptor.getPred(),
                                              adaptor.getOnTrue(),
                                              adaptor.getOnFalse());
    return success();
  }
};

/// convert: a cast, except to i1, which StableHLO defines as `x != 0`.
struct ConvertConversion : OpConversionPattern<stablehlo::ConvertOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(stablehlo::ConvertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!hasTVMTypes(op))
      return rewriter.notifyMatchFailure(op, "element type unsupported by TVM");
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
          cast<TypedAttr>(rewriter.getZeroAttr(operandType.getElementType())));
      rewriter.replaceOp(op, notEqual(rewriter, op.getLoc(), resultType,
                                      adaptor.getOperand(), zeros));
      return success();
    }
    rewriter.replaceOpWithNewOp<tvm::AsTypeOp>(op, resultType,
                                               adaptor.getOperand(),
                                               TypeAttr::get(resultElement));
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
      TranscendentalConversion<TanhOp, tvm::TanhOp>,
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
      TranscendentalConversion<chlo::CoshOp, tvm::CoshOp>,
      TranscendentalConversion<chlo::SinhOp, tvm::SinhOp>,
      TranscendentalConversion<chlo::AcosOp, tvm::AcosOp>,
      TranscendentalConversion<chlo::AsinOp, tvm::AsinOp>,
      TranscendentalConversion<chlo::AtanOp, tvm::AtanOp>,
      TranscendentalConversion<chlo::AcoshOp, tvm::AcoshOp>,
      TranscendentalConversion<chlo::AsinhOp, tvm::AsinhOp>,
      TranscendentalConversion<chlo::AtanhOp, tvm::AtanhOp>,
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
      FloatMinMaxConversion<MinOp, tvm::MinimumOp>>(context);
}

} // namespace mlir::stablehlo_tvm
