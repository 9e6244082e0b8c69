//===- SinkBroadcasts.cpp - Elementwise ops before broadcasts -------------===//
//
// An elementwise op whose operands are all broadcasts of equally shaped
// values (with the same dimension mapping) or splat constants computes each
// element of the small value many times. JAX writes this everywhere a loop
// counter or a scalar meets a tensor (`broadcast(i) % broadcast(2)`, a
// converted broadcast, ...): in a loop body each such op is a kernel over
// the whole tensor per iteration. Computed on the small values and
// broadcast once, the result is the same, element for element.
//
//===----------------------------------------------------------------------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "stablehlo-tvm/Dialect/CHLO/IR/CHLO.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_SINKBROADCASTS
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

bool hasPlainElements(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() &&
         (isa<FloatType, IntegerType, ComplexType>(tensor.getElementType()));
}

struct ElementwiseOfBroadcasts : RewritePattern {
  ElementwiseOfBroadcasts(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    // select and clamp also take rank-0 operands (not Elementwise ops);
    // with every operand of the result's shape they are elementwise.
    bool elementwise = op->hasTrait<OpTrait::Elementwise>() ||
                       isa<stablehlo::SelectOp, stablehlo::ClampOp>(op);
    if (!elementwise || op->getNumRegions() != 0 ||
        op->getNumResults() != 1 || op->getNumOperands() == 0 ||
        !isa_and_nonnull<stablehlo::StableHLODialect, chlo::CHLODialect>(
            op->getDialect()))
      return failure();
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType || !hasPlainElements(resultType))
      return failure();

    // The broadcasts' common source type and dimension mapping.
    RankedTensorType sourceType;
    ArrayRef<int64_t> dims;
    for (Value operand : op->getOperands()) {
      if (!hasPlainElements(operand.getType()) ||
          cast<RankedTensorType>(operand.getType()).getShape() !=
              resultType.getShape())
        return failure();
      auto broadcast = operand.getDefiningOp<stablehlo::BroadcastInDimOp>();
      if (!broadcast) {
        DenseElementsAttr constant;
        if (!matchPattern(operand, m_Constant(&constant)) ||
            !constant.isSplat())
          return failure();
        continue;
      }
      auto type = dyn_cast<RankedTensorType>(broadcast.getOperand().getType());
      if (!type || !hasPlainElements(type))
        return failure();
      if (!sourceType) {
        sourceType = type;
        dims = broadcast.getBroadcastDimensions();
      } else if (type.getShape() != sourceType.getShape() ||
                 broadcast.getBroadcastDimensions() != dims) {
        return failure();
      }
    }
    if (!sourceType ||
        sourceType.getNumElements() >= resultType.getNumElements())
      return failure();

    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      if (auto broadcast = operand.getDefiningOp<stablehlo::BroadcastInDimOp>()) {
        operands.push_back(broadcast.getOperand());
        continue;
      }
      DenseElementsAttr constant;
      matchPattern(operand, m_Constant(&constant));
      operands.push_back(stablehlo::ConstantOp::create(
          rewriter, op->getLoc(),
          constant.resizeSplat(RankedTensorType::get(
              sourceType.getShape(), constant.getElementType()))));
    }
    OperationState state(op->getLoc(), op->getName());
    state.addOperands(operands);
    state.addTypes(
        RankedTensorType::get(sourceType.getShape(), resultType.getElementType()));
    state.addAttributes(op->getAttrs());
    Operation *small = rewriter.create(state);
    rewriter.replaceOpWithNewOp<stablehlo::BroadcastInDimOp>(
        op, resultType, small->getResult(0), dims);
    return success();
  }
};

struct SinkBroadcastsPass : impl::SinkBroadcastsBase<SinkBroadcastsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ElementwiseOfBroadcasts>(&getContext());
    if (failed(applyRewritesOnly(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

} // namespace mlir::stablehlo_tvm
