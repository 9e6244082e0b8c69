//===- ControlFlow.cpp - while, if and case to tvm.while/tvm.case ---------===//
//
// A while loop whose regions use nothing from outside (see
// stablehlo-isolate-loops) keeps its regions: they move into tvm.while and
// their ops are converted like any other; the regions' stablehlo.return
// becomes tvm.yield. if and case become tvm.case, whose branches may use
// values from outside (the emitter passes them in).
//
//===----------------------------------------------------------------------===//

#include "DeclineReasons.h"
#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
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
      return decline(rewriter, op, "uses values from outside");
    auto copied = op->getAttrOfType<DenseI64ArrayAttr>(tvm::TVMDialect::CopiedInitsAttrHelper::getNameStr());
    auto loop = tvm::WhileOp::create(rewriter, op.getLoc(), op.getResultTypes(),
                                     adaptor.getOperands(), copied);
    rewriter.inlineRegionBefore(op.getCond(), loop.getCond(),
                                loop.getCond().end());
    rewriter.inlineRegionBefore(op.getBody(), loop.getBody(),
                                loop.getBody().end());
    rewriter.replaceOp(op, loop.getResults());
    return success();
  }
};

/// Branches move into tvm.case; the index is the case's, or 0 for a true
/// predicate and 1 for a false one.
template <typename Op>
struct BranchConversion : TVMTypedPattern<Op> {
  using TVMTypedPattern<Op>::TVMTypedPattern;

  LogicalResult
  rewrite(Op op, typename Op::Adaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value index;
    if constexpr (std::is_same_v<Op, stablehlo::IfOp>) {
      auto predType = cast<RankedTensorType>(adaptor.getPred().getType());
      Value isFalse = tvm::LogicalNotOp::create(rewriter, loc, predType,
                                                adaptor.getPred());
      Type i32 = rewriter.getI32Type();
      index = tvm::AsTypeOp::create(rewriter, loc, predType.clone(i32),
                                    isFalse, TypeAttr::get(i32));
    } else {
      index = adaptor.getIndex();
    }
    auto branch = tvm::CaseOp::create(rewriter, loc, op->getResultTypes(),
                                      index, op->getNumRegions());
    for (auto [from, to] : llvm::zip(op->getRegions(), branch.getBranches()))
      rewriter.inlineRegionBefore(from, to, to.end());
    rewriter.replaceOp(op, branch.getResults());
    return success();
  }
};

/// A call left after inlining (its callee is public) stays a call.
struct CallConversion : TVMTypedPattern<func::CallOp> {
  using TVMTypedPattern::TVMTypedPattern;

  LogicalResult
  rewrite(func::CallOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tvm::CallOp>(op, op.getResultTypes(),
                                             op.getCalleeAttr(),
                                             adaptor.getOperands());
    return success();
  }
};

/// The terminator of a tvm.while region.
struct ReturnToYield : OpConversionPattern<stablehlo::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(stablehlo::ReturnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<tvm::WhileOp, tvm::CaseOp>(op->getParentOp()))
      return failure();
    rewriter.replaceOpWithNewOp<tvm::YieldOp>(op, adaptor.getOperands());
    return success();
  }
};

} // namespace

void populateControlFlowPatterns(MLIRContext *context,
                                 RewritePatternSet &patterns) {
  patterns.add<WhileConversion, BranchConversion<stablehlo::IfOp>,
               BranchConversion<stablehlo::CaseOp>, CallConversion,
               ReturnToYield>(context);
}

} // namespace mlir::stablehlo_tvm
