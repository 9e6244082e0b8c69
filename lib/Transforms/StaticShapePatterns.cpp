//===- StaticShapePatterns.cpp - Dynamic ops whose shapes are known -------===//
//
// A dynamic op whose shape operands are constants and whose result type is
// static is its static counterpart. Shared by stablehlo-simplify and
// stablehlo-refine-shapes (which makes those operands constants).
//
//===----------------------------------------------------------------------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

namespace mlir::stablehlo_tvm {
namespace {

/// The values of a constant integer tensor, if `value` is one.
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

struct StaticSlice : OpRewritePattern<stablehlo::RealDynamicSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::RealDynamicSliceOp op,
                                PatternRewriter &rewriter) const override {
    auto start = constantIntegers(op.getStartIndices());
    auto limit = constantIntegers(op.getLimitIndices());
    auto strides = constantIntegers(op.getStrides());
    if (!isStatic(op.getType()) || !start || !limit || !strides)
      return failure();
    rewriter.replaceOpWithNewOp<stablehlo::SliceOp>(
        op, op.getType(), op.getOperand(),
        rewriter.getDenseI64ArrayAttr(*start),
        rewriter.getDenseI64ArrayAttr(*limit),
        rewriter.getDenseI64ArrayAttr(*strides));
    return success();
  }
};

struct StaticGather : OpRewritePattern<stablehlo::DynamicGatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::DynamicGatherOp op,
                                PatternRewriter &rewriter) const override {
    auto sizes = constantIntegers(op.getSliceSizes());
    if (!isStatic(op.getType()) || !sizes)
      return failure();
    rewriter.replaceOpWithNewOp<stablehlo::GatherOp>(
        op, op.getType(), op.getOperand(), op.getStartIndices(),
        op.getDimensionNumbersAttr(), rewriter.getDenseI64ArrayAttr(*sizes),
        op.getIndicesAreSortedAttr());
    return success();
  }
};

struct StaticConvolution : OpRewritePattern<stablehlo::DynamicConvOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::DynamicConvOp op,
                                PatternRewriter &rewriter) const override {
    DenseIntElementsAttr padding;
    if (!isStatic(op.getType()) ||
        !matchPattern(op.getPadding(), m_Constant(&padding)))
      return failure();
    auto padType = RankedTensorType::get(padding.getType().getShape(),
                                         rewriter.getI64Type());
    SmallVector<int64_t> pads;
    for (const APInt &v : padding.getValues<APInt>())
      pads.push_back(v.getSExtValue());
    rewriter.replaceOpWithNewOp<stablehlo::ConvolutionOp>(
        op, op.getType(), op.getLhs(), op.getRhs(), op.getWindowStridesAttr(),
        DenseIntElementsAttr::get(padType, ArrayRef<int64_t>(pads)),
        op.getLhsDilationAttr(), op.getRhsDilationAttr(),
        op.getWindowReversalAttr(), op.getDimensionNumbersAttr(),
        op.getFeatureGroupCountAttr(), op.getBatchGroupCountAttr(),
        op.getPrecisionConfigAttr());
    return success();
  }
};

/// JAX's `custom_call @stablehlo.dynamic_reduce_window` (reduce_window over
/// symbolic shapes) with constant window operands is a reduce_window whose
/// body is the called function's.
struct StaticReduceWindow : OpRewritePattern<stablehlo::CustomCallOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::CustomCallOp op,
                                PatternRewriter &rewriter) const override {
    unsigned count = op->getNumOperands();
    if (op.getCallTargetName() != "stablehlo.dynamic_reduce_window" ||
        count < 7 || (count - 5) % 2 ||
        op->getNumResults() != (count - 5) / 2 ||
        !llvm::all_of(op->getResultTypes(), isStatic))
      return failure();
    auto called = op.getCalledComputations();
    if (!called || called->size() != 1)
      return failure();
    auto body = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        op, cast<FlatSymbolRefAttr>((*called)[0]));
    unsigned n = (count - 5) / 2;
    auto sizes = constantIntegers(op->getOperand(2 * n));
    auto strides = constantIntegers(op->getOperand(2 * n + 1));
    auto base = constantIntegers(op->getOperand(2 * n + 2));
    auto dilations = constantIntegers(op->getOperand(2 * n + 3));
    auto padding = constantIntegers(op->getOperand(2 * n + 4));
    if (!body || body.isExternal() || body.getNumArguments() != 2 * n ||
        !sizes || !strides || !base || !dilations || !padding)
      return failure();
    auto padType = RankedTensorType::get(
        {static_cast<int64_t>(padding->size() / 2), 2}, rewriter.getI64Type());
    auto window = stablehlo::ReduceWindowOp::create(
        rewriter, op.getLoc(), op->getResultTypes(),
        op->getOperands().take_front(n), op->getOperands().slice(n, n),
        rewriter.getDenseI64ArrayAttr(*sizes),
        rewriter.getDenseI64ArrayAttr(*strides),
        rewriter.getDenseI64ArrayAttr(*base),
        rewriter.getDenseI64ArrayAttr(*dilations),
        DenseIntElementsAttr::get(padType, ArrayRef<int64_t>(*padding)));
    IRMapping mapping;
    body.getBody().cloneInto(&window.getBody(), mapping);
    Operation *terminator = window.getBody().front().getTerminator();
    rewriter.setInsertionPoint(terminator);
    stablehlo::ReturnOp::create(rewriter, terminator->getLoc(),
                                terminator->getOperands());
    rewriter.eraseOp(terminator);
    rewriter.replaceOp(op, window->getResults());
    return success();
  }
};

/// The size of a static dimension is a constant.
struct StaticDimensionSize : OpRewritePattern<stablehlo::GetDimensionSizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::GetDimensionSizeOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getOperand().getType());
    int64_t dim = op.getDimension();
    if (dim < 0 || dim >= type.getRank() || type.isDynamicDim(dim))
      return failure();
    auto resultType = cast<RankedTensorType>(op.getType());
    rewriter.replaceOpWithNewOp<stablehlo::ConstantOp>(
        op, DenseIntElementsAttr::get(
                resultType, APInt(32, static_cast<uint64_t>(type.getDimSize(dim)))));
    return success();
  }
};

} // namespace

void populateStaticShapePatterns(RewritePatternSet &patterns) {
  patterns.add<StaticBroadcastInDim, StaticReshape, StaticPad, StaticIota,
               StaticSlice, StaticGather, StaticConvolution,
               StaticDimensionSize, StaticReduceWindow>(patterns.getContext());
}

} // namespace mlir::stablehlo_tvm
