//===- ControlFlow.cpp - while to tvm.while -------------------------------===//
//
// A while loop whose regions use nothing from outside (see
// stablehlo-isolate-loops) keeps its regions: they move into tvm.while and
// their ops are converted like any other; the regions' stablehlo.return
// becomes tvm.yield.
//
//===----------------------------------------------------------------------===//

#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

#include "mlir/Transforms/RegionUtils.h"

namespace mlir::stablehlo_tvm {
namespace {

struct WhileConversion : TVMTypedPattern<stablehlo::WhileOp> {
  using TVMTypedPattern::TVMTypedPattern;

  LogicalResult
  rewrite(stablehlo::WhileOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    llvm::SetVector<Value> captures;
    getUsedValuesDefinedAbove(op->getRegions(), captures);
    if (!captures.empty())
      return rewriter.notifyMatchFailure(op, "uses values from outside");
    auto loop = tvm::WhileOp::create(rewriter, op.getLoc(),
                                     op.getResultTypes(), adaptor.getOperands());
    rewriter.inlineRegionBefore(op.getCond(), loop.getCond(),
                                loop.getCond().end());
    rewriter.inlineRegionBefore(op.getBody(), loop.getBody(),
                                loop.getBody().end());
    rewriter.replaceOp(op, loop.getResults());
    return success();
  }
};

/// The terminator of a tvm.while region.
struct ReturnToYield : OpConversionPattern<stablehlo::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(stablehlo::ReturnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<tvm::WhileOp>(op->getParentOp()))
      return failure();
    rewriter.replaceOpWithNewOp<tvm::YieldOp>(op, adaptor.getOperands());
    return success();
  }
};

} // namespace

void populateControlFlowPatterns(MLIRContext *context,
                                 RewritePatternSet &patterns) {
  patterns.add<WhileConversion, ReturnToYield>(context);
}

} // namespace mlir::stablehlo_tvm
