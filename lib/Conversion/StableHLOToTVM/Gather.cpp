//===- Gather.cpp - gather as a kernel ------------------------------------===//
//
// Each result element reads one operand element: the result's batch
// dimensions (those not in offset_dims) pick a start index vector from
// start_indices (through index_vector_dim and start_index_map), clamped so
// that the slice fits in the operand; operand batching dimensions take the
// batch position itself; the offset dimensions give the position inside the
// slice (collapsed and batching dimensions have size 1).
//
//===----------------------------------------------------------------------===//

#include "DeclineReasons.h"
#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

#include "mlir/IR/Matchers.h"

namespace mlir::stablehlo_tvm {
namespace {

LogicalResult rewriteGather(Operation *op, Value operand, Value startIndices,
                            stablehlo::GatherDimensionNumbersAttr dims,
                            ArrayRef<int64_t> sliceSizes,
                            ConversionPatternRewriter &rewriter) {
  auto operandType = cast<RankedTensorType>(operand.getType());
  auto indicesType = cast<RankedTensorType>(startIndices.getType());
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  // Sizes may be dynamic (read from the buffers); the index vector's
  // length may not.
  if (dims.getIndexVectorDim() < indicesType.getRank() &&
      indicesType.isDynamicDim(dims.getIndexVectorDim()))
    return decline(rewriter, op, "a dynamic index vector length");
  ArrayRef<int64_t> offsetDims = dims.getOffsetDims();
  ArrayRef<int64_t> collapsedDims = dims.getCollapsedSliceDims();
  ArrayRef<int64_t> operandBatchingDims = dims.getOperandBatchingDims();
  ArrayRef<int64_t> indicesBatchingDims = dims.getStartIndicesBatchingDims();
  ArrayRef<int64_t> startIndexMap = dims.getStartIndexMap();
  int64_t indexVectorDim = dims.getIndexVectorDim();
  int64_t operandRank = operandType.getRank();

  SmallVector<int64_t> batchDims =
      complementDims(resultType.getRank(), {offsetDims});
  SmallVector<int64_t> operandOffsetDims =
      complementDims(operandRank, {collapsedDims, operandBatchingDims});
  if (operandOffsetDims.size() != offsetDims.size() ||
      static_cast<int64_t>(sliceSizes.size()) != operandRank)
    return decline(rewriter, op, "inconsistent dimension numbers");
  auto batchDimOfIndicesDim = [&](int64_t j) {
    return batchDims[j - (indexVectorDim < j ? 1 : 0)];
  };

  // A dynamic result dimension is a batch dimension: the indices' one
  // (checked before anything is built).
  for (int64_t d : offsetDims)
    if (resultType.isDynamicDim(d))
      return decline(rewriter, op, "a dynamic slice size");
  SmallVector<int64_t> sizeDims;
  for (auto [position, d] : llvm::enumerate(batchDims)) {
    int64_t j = static_cast<int64_t>(position);
    if (j >= indexVectorDim)
      ++j;
    if (resultType.isDynamicDim(d)) {
      if (j >= indicesType.getRank())
        return decline(rewriter, op, "inconsistent dimension numbers");
      sizeDims.push_back(j);
    }
  }
  SmallVector<Value> resultSizes;
  for (int64_t j : sizeDims)
    resultSizes.push_back(
        tvm::DimOp::create(rewriter, op->getLoc(), startIndices, j));
  SmallVector<Value> results = buildKernel(
      rewriter, op->getLoc(), "gather", ValueRange{operand, startIndices},
      resultType,
      [&](OpBuilder &b, Location loc, ValueRange in, ValueRange out) {
        SmallVector<Value> operandSizes = bufferSizes(b, loc, in[0]);
        buildLoopNest(b, loc, bufferSizes(b, loc, out[0]), /*parallel=*/true,
                      [&](OpBuilder &b, Location loc, ValueRange ivs) {
          Value zero = indexValue(b, loc, 0);
          SmallVector<Value> index(operandRank, zero);
          SmallVector<Value> vector = loadIndexVector(
              b, loc, in[1], indicesType, indexVectorDim,
              [&](int64_t j) { return ivs[batchDimOfIndicesDim(j)]; });
          for (auto [k, start] : llvm::enumerate(vector)) {
            // Clamped so that the slice fits: [0, size - slice size].
            int64_t d = startIndexMap[k];
            Value limit = arith::SubIOp::create(
                b, loc, operandSizes[d], indexValue(b, loc, sliceSizes[d]));
            Value low = arith::MaxSIOp::create(b, loc, start, zero);
            index[d] = arith::MinSIOp::create(b, loc, low, limit);
          }
          for (auto [operandDim, indicesDim] :
               llvm::zip(operandBatchingDims, indicesBatchingDims))
            index[operandDim] = ivs[batchDimOfIndicesDim(indicesDim)];
          for (auto [operandDim, resultDim] :
               llvm::zip(operandOffsetDims, offsetDims))
            index[operandDim] = arith::AddIOp::create(b, loc, index[operandDim],
                                                      ivs[resultDim]);
          Value value = memref::LoadOp::create(b, loc, in[0], index);
          memref::StoreOp::create(b, loc, value, out[0], ivs);
        });
      },
      /*inPlace=*/{}, resultSizes);
  rewriter.replaceOp(op, results);
  return success();
}

struct GatherToKernel : TVMTypedPattern<stablehlo::GatherOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(stablehlo::GatherOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    return rewriteGather(op, adaptor.getOperand(), adaptor.getStartIndices(),
                         op.getDimensionNumbers(), op.getSliceSizes(),
                         rewriter);
  }
};

/// dynamic_gather whose slice sizes are constants.
struct DynamicGatherToKernel : TVMTypedPattern<stablehlo::DynamicGatherOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(stablehlo::DynamicGatherOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    DenseIntElementsAttr sizes;
    if (!matchPattern(op.getSliceSizes(), m_Constant(&sizes)))
      return decline(rewriter, op, "slice sizes are not constant");
    SmallVector<int64_t> sliceSizes;
    for (const APInt &size : sizes.getValues<APInt>())
      sliceSizes.push_back(size.getSExtValue());
    return rewriteGather(op, adaptor.getOperand(), adaptor.getStartIndices(),
                         op.getDimensionNumbers(), sliceSizes, rewriter);
  }
};

} // namespace

void populateGatherPatterns(MLIRContext *context,
                            RewritePatternSet &patterns) {
  patterns.add<GatherToKernel, DynamicGatherToKernel>(context);
}

} // namespace mlir::stablehlo_tvm
