//===- ReduceKernel.cpp - reduce with any body, as a kernel ---------------===//
//
// A reduce Relax has no operator for (several inputs, as argmax's value/index
// pairs, or a body that is not one known binary op) becomes a kernel: for each
// result index, accumulators start at the init values and take in the
// reduced elements one by one, in row-major order, through the scalar body.
//
//===----------------------------------------------------------------------===//

#include "DeclineReasons.h"
#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

namespace mlir::stablehlo_tvm {
namespace {

struct ReduceToKernel : TVMTypedPattern<stablehlo::ReduceOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(stablehlo::ReduceOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    size_t count = op.getInputs().size();
    auto inputType = cast<RankedTensorType>(op.getInputs().front().getType());
    ArrayRef<int64_t> dims = op.getDimensions();
    Block &body = op.getBody().front();
    if (failed(checkScalarizable(body)))
      return decline(rewriter, op, "body has no scalar form");
    // The results' dynamic dimensions are the input's it keeps.
    SmallVector<int64_t> kept = complementDims(inputType.getRank(), {dims});
    SmallVector<Value> resultSizes;
    for (size_t i = 0; i < op.getNumResults(); ++i)
      llvm::append_range(resultSizes, tvm::dynamicSizesOf(rewriter, op.getLoc(),
                                                     adaptor.getInputs()[i], kept));

    SmallVector<Value> inputs(adaptor.getInputs());
    llvm::append_range(inputs, adaptor.getInitValues());
    bool scalarized = true;
    SmallVector<Value> results = buildKernel(
        rewriter, op.getLoc(), "reduce", inputs, op.getResultTypes(),
        [&](OpBuilder &b, Location loc, ValueRange in, ValueRange out) {
          ValueRange operands = in.take_front(count);
          ValueRange inits = in.drop_front(count);
          SmallVector<Value> resultBounds = bufferSizes(b, loc, out.front());
          buildLoopNest(b, loc, resultBounds, /*parallel=*/true,
                        [&](OpBuilder &b, Location loc, ValueRange kept) {
            SmallVector<Value> accumulators = initAccumulators(b, loc, inits);
            SmallVector<Value> reducedBounds =
                bufferSizes(b, loc, operands.front(), dims);
            buildLoopNest(b, loc, reducedBounds, /*parallel=*/false,
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
        },
        /*inPlace=*/{}, resultSizes);
    if (!scalarized)
      return decline(rewriter, op, "body has no scalar form");
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
