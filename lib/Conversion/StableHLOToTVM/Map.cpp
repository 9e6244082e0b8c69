//===- Map.cpp - map as an elementwise kernel -----------------------------===//
//
// map applies its scalar computation at every index of its (same-shaped)
// inputs; `dimensions` names all of them, so the map is elementwise.
//
//===----------------------------------------------------------------------===//

#include "DeclineReasons.h"
#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

namespace mlir::stablehlo_tvm {
namespace {

struct MapToKernel : TVMTypedPattern<stablehlo::MapOp> {
  using TVMTypedPattern::TVMTypedPattern;

  LogicalResult
  rewrite(stablehlo::MapOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    if (!type.hasStaticShape() ||
        static_cast<int64_t>(op.getDimensions().size()) != type.getRank())
      return decline(rewriter, op, "not a map over every dimension");
    Block &body = op.getComputation().front();
    if (failed(checkScalarizable(body)))
      return decline(rewriter, op, "computation has no scalar form");
    bool scalarized = true;
    SmallVector<Value> results = buildElementwiseKernel(
        rewriter, op.getLoc(), "map", adaptor.getInputs(), op->getResultTypes(),
        [&](OpBuilder &b, Location, ValueRange scalars) -> SmallVector<Value> {
          FailureOr<SmallVector<Value>> mapped = scalarizeBody(b, body, scalars);
          if (succeeded(mapped))
            return *mapped;
          scalarized = false;
          return {};
        });
    if (!scalarized)
      return decline(rewriter, op, "computation has no scalar form");
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// optimization_barrier only orders computations for XLA: its operands pass
/// through.
struct OptimizationBarrierConversion
    : TVMTypedPattern<stablehlo::OptimizationBarrierOp> {
  using TVMTypedPattern::TVMTypedPattern;

  LogicalResult
  rewrite(stablehlo::OptimizationBarrierOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getOperands());
    return success();
  }
};

} // namespace

void populateMapPatterns(MLIRContext *context, RewritePatternSet &patterns) {
  patterns.add<MapToKernel, OptimizationBarrierConversion>(context);
}

} // namespace mlir::stablehlo_tvm
