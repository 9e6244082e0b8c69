//===- Elementwise.cpp - Elementwise stablehlo ops to Relax operators -----===//
//
// Adding an elementwise op is one line in populateElementwisePatterns: the
// stablehlo op, the Relax operator for numbers and, where it differs, the one
// for booleans (i1).
//
//===----------------------------------------------------------------------===//

#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

namespace mlir::stablehlo_tvm {
namespace {

bool isBoolTensor(Type type) {
  return cast<RankedTensorType>(type).getElementType().isInteger(1);
}

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
      rewriter.replaceOpWithNewOp<tvm::NotEqualOp>(op, type, lhs, rhs);
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
      auto zero = rewriter.getZeroAttr(operandType);
      Value zeros = tvm::ConstantOp::create(rewriter, op.getLoc(), operandType,
                                            cast<ElementsAttr>(zero));
      rewriter.replaceOpWithNewOp<tvm::NotEqualOp>(op, resultType,
                                                   adaptor.getOperand(), zeros);
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
      ElementwiseConversion<ExpOp, tvm::ExpOp>,
      ElementwiseConversion<LogOp, tvm::LogOp>,
      ElementwiseConversion<TanhOp, tvm::TanhOp>,
      ElementwiseConversion<SqrtOp, tvm::SqrtOp>,
      ElementwiseConversion<RsqrtOp, tvm::RsqrtOp>,
      ElementwiseConversion<LogisticOp, tvm::SigmoidOp>,
      ElementwiseConversion<NotOp, tvm::BitwiseNotOp, tvm::LogicalNotOp>,
      // Binary.
      ElementwiseConversion<AddOp, tvm::AddOp, tvm::LogicalOrOp>,
      ElementwiseConversion<SubtractOp, tvm::SubtractOp>,
      ElementwiseConversion<MulOp, tvm::MultiplyOp, tvm::LogicalAndOp>,
      ElementwiseConversion<DivOp, tvm::DivideOp>,
      ElementwiseConversion<MaxOp, tvm::MaximumOp, tvm::LogicalOrOp>,
      ElementwiseConversion<MinOp, tvm::MinimumOp, tvm::LogicalAndOp>,
      ElementwiseConversion<AndOp, tvm::BitwiseAndOp, tvm::LogicalAndOp>,
      ElementwiseConversion<OrOp, tvm::BitwiseOrOp, tvm::LogicalOrOp>,
      ElementwiseConversion<XorOp, tvm::BitwiseXorOp, tvm::LogicalXorOp>,
      // The rest of the family.
      CompareConversion, SelectConversion, ConvertConversion>(context);
}

} // namespace mlir::stablehlo_tvm
