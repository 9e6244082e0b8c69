//===- Simplify.cpp - Equivalent forms the conversion handles -------------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_SIMPLIFY
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

/// The values of a constant 1-D integer tensor, if `value` is one.
std::optional<SmallVector<int64_t>> constantIntegers(Value value) {
  DenseIntElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  SmallVector<int64_t> values;
  for (const APInt &v : attr.getValues<APInt>())
    values.push_back(v.getSExtValue());
  return values;
}

bool isStatic(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape();
}

struct CompositeToCall : OpRewritePattern<stablehlo::CompositeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::CompositeOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<func::CallOp>(op, op.getDecomposition(),
                                              op.getResultTypes(),
                                              op.getInputs());
    return success();
  }
};

struct TupleElementOfTuple : OpRewritePattern<stablehlo::GetTupleElementOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::GetTupleElementOp op,
                                PatternRewriter &rewriter) const override {
    auto tuple = op.getOperand().getDefiningOp<stablehlo::TupleOp>();
    if (!tuple)
      return failure();
    rewriter.replaceOp(op, tuple.getVal()[op.getIndex()]);
    return success();
  }
};

struct StaticBroadcastInDim
    : OpRewritePattern<stablehlo::DynamicBroadcastInDimOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::DynamicBroadcastInDimOp op,
                                PatternRewriter &rewriter) const override {
    if (!isStatic(op.getType()) || !constantIntegers(op.getOutputDimensions()))
      return failure();
    rewriter.replaceOpWithNewOp<stablehlo::BroadcastInDimOp>(
        op, op.getType(), op.getOperand(), op.getBroadcastDimensionsAttr());
    return success();
  }
};

struct StaticReshape : OpRewritePattern<stablehlo::DynamicReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::DynamicReshapeOp op,
                                PatternRewriter &rewriter) const override {
    if (!isStatic(op.getType()) || !constantIntegers(op.getOutputShape()))
      return failure();
    rewriter.replaceOpWithNewOp<stablehlo::ReshapeOp>(op, op.getType(),
                                                      op.getOperand());
    return success();
  }
};

struct StaticPad : OpRewritePattern<stablehlo::DynamicPadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::DynamicPadOp op,
                                PatternRewriter &rewriter) const override {
    auto low = constantIntegers(op.getEdgePaddingLow());
    auto high = constantIntegers(op.getEdgePaddingHigh());
    auto interior = constantIntegers(op.getInteriorPadding());
    if (!isStatic(op.getType()) || !low || !high || !interior)
      return failure();
    rewriter.replaceOpWithNewOp<stablehlo::PadOp>(
        op, op.getType(), op.getOperand(), op.getPaddingValue(),
        rewriter.getDenseI64ArrayAttr(*low),
        rewriter.getDenseI64ArrayAttr(*high),
        rewriter.getDenseI64ArrayAttr(*interior));
    return success();
  }
};

struct StaticIota : OpRewritePattern<stablehlo::DynamicIotaOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::DynamicIotaOp op,
                                PatternRewriter &rewriter) const override {
    if (!isStatic(op.getType()) || !constantIntegers(op.getOutputShape()))
      return failure();
    rewriter.replaceOpWithNewOp<stablehlo::IotaOp>(op, op.getType(),
                                                   op.getIotaDimension());
    return success();
  }
};

/// real/imag of a real tensor: the tensor itself, and zeros.
template <typename PartOp, bool isImag>
struct PartOfReal : OpRewritePattern<PartOp> {
  using OpRewritePattern<PartOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(PartOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<ShapedType>(op.getOperand().getType());
    if (isa<ComplexType>(type.getElementType()))
      return failure();
    if (!isImag) {
      rewriter.replaceOp(op, op.getOperand());
      return success();
    }
    if (!isStatic(type))
      return failure();
    Attribute zero = rewriter.getZeroAttr(type.getElementType());
    rewriter.replaceOpWithNewOp<stablehlo::ConstantOp>(
        op, DenseElementsAttr::get(type, zero));
    return success();
  }
};

struct SimplifyPass : impl::SimplifyBase<SimplifyPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<CompositeToCall, TupleElementOfTuple, StaticBroadcastInDim,
                 StaticReshape, StaticPad, StaticIota,
                 PartOfReal<stablehlo::RealOp, false>,
                 PartOfReal<stablehlo::ImagOp, true>>(&getContext());
    // Only these rewrites: folding and region simplification are left to
    // the passes that own them.
    GreedyRewriteConfig config;
    config.enableFolding(false).enableConstantCSE(false).setRegionSimplificationLevel(
        GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config)))
      return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
