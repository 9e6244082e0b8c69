//===- ReduceKernel.cpp - reduce with any body, as a kernel ---------------===//
//
// A reduce Relax has no operator for (several inputs, as argmax's value/index
// pairs, or a body that is not one known binary op) becomes a kernel: for each
// result index, accumulators start at the init values and take in the
// reduced elements one by one, in row-major order, through the scalar body.
//
//===----------------------------------------------------------------------===//

#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

namespace mlir::stablehlo_tvm {
namespace {

struct ReduceToKernel : TVMTypedPattern<stablehlo::ReduceOp> {
  using TVMTypedPattern::TVMTypedPattern;

  LogicalResult
  rewrite(stablehlo::ReduceOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    size_t count = op.getInputs().size();
    auto inputType = cast<RankedTensorType>(op.getInputs().front().getType());
    auto resultShape =
        cast<RankedTensorType>(op.getResult(0).getType()).getShape();
    ArrayRef<int64_t> dims = op.getDimensions();
    SmallVector<int64_t> reducedShape;
    for (int64_t dim : dims)
      reducedShape.push_back(inputType.getDimSize(dim));
    Block &body = op.getBody().front();
    if (failed(checkScalarizable(body)))
      return rewriter.notifyMatchFailure(op, "body has no scalar form");

    SmallVector<Value> inputs(adaptor.getInputs());
    llvm::append_range(inputs, adaptor.getInitValues());
    bool scalarized = true;
    SmallVector<Value> results = buildKernel(
        rewriter, op.getLoc(), "reduce", inputs, op.getResultTypes(),
        [&](OpBuilder &b, Location loc, ValueRange in, ValueRange out) {
          ValueRange operands = in.take_front(count);
          ValueRange inits = in.drop_front(count);
          buildLoopNest(b, loc, resultShape, /*parallel=*/true,
                        [&](OpBuilder &b, Location loc, ValueRange kept) {
            SmallVector<Value> accumulators = initAccumulators(b, loc, inits);
            buildLoopNest(b, loc, reducedShape, /*parallel=*/false,
                          [&](OpBuilder &b, Location loc, ValueRange reduced) {
              // The input index: reduced dimensions from the inner loops,
              // the others from the result index, in order.
              SmallVector<Value> index;
              for (int64_t d = 0, k = 0, r = 0; d < inputType.getRank(); ++d) {
                if (r < static_cast<int64_t>(dims.size()) && dims[r] == d)
                  index.push_back(reduced[r++]);
                else
                  index.push_back(kept[k++]);
              }
              if (failed(accumulate(b, loc, body, accumulators, operands,
                                    index)))
                scalarized = false;
            });
            storeAccumulators(b, loc, accumulators, out, kept);
          });
        });
    if (!scalarized)
      return rewriter.notifyMatchFailure(op, "body has no scalar form");
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void populateReduceKernelPatterns(MLIRContext *context,
                                  RewritePatternSet &patterns) {
  patterns.add<ReduceToKernel>(context, /*benefit=*/1);
}

} // namespace mlir::stablehlo_tvm
