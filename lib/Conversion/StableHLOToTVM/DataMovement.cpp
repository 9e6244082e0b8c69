//===- DataMovement.cpp - Constants, shapes and slices to Relax -----------===//

#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

#include "llvm/ADT/STLExtras.h"

namespace mlir::stablehlo_tvm {
namespace {

/// A shorthand for patterns that only accept TVM-representable types.
template <typename Op>
struct TVMTypedPattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  using OpAdaptor = typename Op::Adaptor;

  LogicalResult
  matchAndRewrite(Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    if (!hasTVMTypes(op))
      return rewriter.notifyMatchFailure(op, "element type unsupported by TVM");
    return rewrite(op, adaptor, rewriter);
  }

  virtual LogicalResult rewrite(Op op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const = 0;
};

struct ConstantConversion : TVMTypedPattern<stablehlo::ConstantOp> {
  using TVMTypedPattern::TVMTypedPattern;
  LogicalResult rewrite(stablehlo::ConstantOp op, OpAdaptor,
                        ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tvm::ConstantOp>(op, op.getType(),
                                                 op.getValue());
    return success();
  }
};

/// iota: a 1-D arange along `iota_dimension`, reshaped and broadcast.
struct IotaConversion : TVMTypedPattern<stablehlo::IotaOp> {
  using TVMTypedPattern::TVMTypedPattern;
  LogicalResult rewrite(stablehlo::IotaOp op, OpAdaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto type = op.getType();
    Type element = type.getElementType();
    if (element.isInteger(1))
      return rewriter.notifyMatchFailure(op, "iota of i1");
    int64_t dim = op.getIotaDimension();
    int64_t size = type.getDimSize(dim);
    Location loc = op.getLoc();
    Value range = tvm::ArangeOp::create(
        rewriter, loc, RankedTensorType::get({size}, element),
        rewriter.getI64IntegerAttr(0), rewriter.getI64IntegerAttr(size),
        rewriter.getI64IntegerAttr(1), TypeAttr::get(element));
    SmallVector<int64_t> shape(type.getRank(), 1);
    shape[dim] = size;
    range = reshapeTo(rewriter, loc, range, shape);
    rewriter.replaceOp(op, broadcastTo(rewriter, loc, range, type.getShape()));
    return success();
  }
};

/// broadcast_in_dim: order the operand's dimensions like the result's, insert
/// the missing dimensions as 1s, then broadcast numpy-style.
struct BroadcastInDimConversion : TVMTypedPattern<stablehlo::BroadcastInDimOp> {
  using TVMTypedPattern::TVMTypedPattern;
  LogicalResult rewrite(stablehlo::BroadcastInDimOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto operandType = cast<RankedTensorType>(op.getOperand().getType());
    auto resultType = op.getType();
    ArrayRef<int64_t> dims = op.getBroadcastDimensions();
    SmallVector<int64_t> order(dims.size());
    std::iota(order.begin(), order.end(), 0);
    llvm::sort(order, [&](int64_t a, int64_t b) { return dims[a] < dims[b]; });
    Location loc = op.getLoc();
    Value value = permuteDims(rewriter, loc, adaptor.getOperand(), order);
    SmallVector<int64_t> shape(resultType.getRank(), 1);
    for (int64_t i : order)
      shape[dims[i]] = operandType.getDimSize(i);
    value = reshapeTo(rewriter, loc, value, shape);
    rewriter.replaceOp(op, broadcastTo(rewriter, loc, value,
                                       resultType.getShape()));
    return success();
  }
};

struct ReshapeConversion : TVMTypedPattern<stablehlo::ReshapeOp> {
  using TVMTypedPattern::TVMTypedPattern;
  LogicalResult rewrite(stablehlo::ReshapeOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, reshapeTo(rewriter, op.getLoc(), adaptor.getOperand(),
                                     op.getType().getShape()));
    return success();
  }
};

struct TransposeConversion : TVMTypedPattern<stablehlo::TransposeOp> {
  using TVMTypedPattern::TVMTypedPattern;
  LogicalResult rewrite(stablehlo::TransposeOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, permuteDims(rewriter, op.getLoc(),
                                       adaptor.getOperand(),
                                       op.getPermutation()));
    return success();
  }
};

struct SliceConversion : TVMTypedPattern<stablehlo::SliceOp> {
  using TVMTypedPattern::TVMTypedPattern;
  LogicalResult rewrite(stablehlo::SliceOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto type = op.getType();
    if (type == op.getOperand().getType()) {
      rewriter.replaceOp(op, adaptor.getOperand());
      return success();
    }
    SmallVector<int64_t> axes(type.getRank());
    std::iota(axes.begin(), axes.end(), 0);
    rewriter.replaceOpWithNewOp<tvm::StridedSliceOp>(
        op, type, adaptor.getOperand(), rewriter.getDenseI64ArrayAttr(axes),
        op.getStartIndicesAttr(), op.getLimitIndicesAttr(),
        op.getStridesAttr());
    return success();
  }
};

struct ConcatenateConversion : TVMTypedPattern<stablehlo::ConcatenateOp> {
  using TVMTypedPattern::TVMTypedPattern;
  LogicalResult rewrite(stablehlo::ConcatenateOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    if (adaptor.getInputs().size() == 1) {
      rewriter.replaceOp(op, adaptor.getInputs().front());
      return success();
    }
    rewriter.replaceOpWithNewOp<tvm::ConcatOp>(op, op.getType(),
                                               adaptor.getInputs(),
                                               op.getDimensionAttr());
    return success();
  }
};

} // namespace

void populateDataMovementPatterns(MLIRContext *context,
                                  RewritePatternSet &patterns) {
  patterns.add<ConstantConversion, IotaConversion, BroadcastInDimConversion,
               ReshapeConversion, TransposeConversion, SliceConversion,
               ConcatenateConversion>(context);
}

} // namespace mlir::stablehlo_tvm
