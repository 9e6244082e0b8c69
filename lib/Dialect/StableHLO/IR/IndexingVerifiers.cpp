//===- IndexingVerifiers.cpp - Constraints of the indexing ops and fft ----===//
//
// The StableHLO specification's constraints on gather, scatter, the dynamic
// slices and fft: the dimension numbers index what they claim to, the ranks
// and sizes agree. Conversions index operands by these numbers, so an op
// that breaks them must never reach one (constraint numbers: the spec's).
//
//===----------------------------------------------------------------------===//

#include "VerifierUtils.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::stablehlo;

namespace {

LogicalResult checkDisjoint(Operation *op, StringRef a, ArrayRef<int64_t> x,
                            StringRef b, ArrayRef<int64_t> y) {
  for (int64_t d : x)
    if (llvm::is_contained(y, d))
      return op->emitOpError() << a << " and " << b << " share dimension "
                               << d;
  return success();
}

/// The size of one index vector of `indices` (the dimension
/// `indexVectorDim`, or 1 when it is the rank), after checking that dim.
FailureOr<int64_t> indexVectorSize(Operation *op, RankedTensorType indices,
                                   int64_t indexVectorDim) {
  if (indexVectorDim < 0 || indexVectorDim > indices.getRank())
    return op->emitOpError() << "index_vector_dim " << indexVectorDim
                             << " is out of range [0, " << indices.getRank()
                             << "]";
  return indexVectorDim == indices.getRank()
             ? 1
             : indices.getDimSize(indexVectorDim);
}

/// The sizes of `indices`' dimensions other than the index vector's.
SmallVector<int64_t> batchSizes(RankedTensorType indices,
                                int64_t indexVectorDim) {
  SmallVector<int64_t> sizes;
  for (int64_t d = 0; d < indices.getRank(); ++d)
    if (d != indexVectorDim)
      sizes.push_back(indices.getDimSize(d));
  return sizes;
}

LogicalResult verifyGather(Operation *op, RankedTensorType operand,
                           RankedTensorType indices, RankedTensorType result,
                           GatherDimensionNumbersAttr dims,
                           std::optional<ArrayRef<int64_t>> sliceSizes) {
  int64_t rank = operand.getRank();
  FailureOr<int64_t> vectorSize =
      indexVectorSize(op, indices, dims.getIndexVectorDim());
  if (failed(vectorSize))
    return failure();
  // (C1)
  if (static_cast<int64_t>(dims.getOffsetDims().size() +
                           dims.getCollapsedSliceDims().size() +
                           dims.getOperandBatchingDims().size()) != rank)
    return op->emitOpError()
           << "offset_dims, collapsed_slice_dims and operand_batching_dims "
              "must together have the operand's rank "
           << rank;
  if (failed(verifyDimensionList(op, "collapsed_slice_dims", dims.getCollapsedSliceDims(), rank, true)) ||
      failed(verifyDimensionList(op, "operand_batching_dims", dims.getOperandBatchingDims(), rank, true)) ||
      failed(checkDisjoint(op, "collapsed_slice_dims", dims.getCollapsedSliceDims(),
                           "operand_batching_dims", dims.getOperandBatchingDims())) ||
      failed(verifyDimensionList(op, "start_indices_batching_dims",
                       dims.getStartIndicesBatchingDims(), indices.getRank(), false)) ||
      failed(verifyDimensionList(op, "start_index_map", dims.getStartIndexMap(), rank, false)) ||
      failed(checkDisjoint(op, "start_index_map", dims.getStartIndexMap(),
                           "operand_batching_dims", dims.getOperandBatchingDims())))
    return failure();
  if (llvm::is_contained(dims.getStartIndicesBatchingDims(), dims.getIndexVectorDim()))
    return op->emitOpError("start_indices_batching_dims must not hold index_vector_dim");
  if (dims.getOperandBatchingDims().size() != dims.getStartIndicesBatchingDims().size())
    return op->emitOpError("operand_batching_dims and start_indices_batching_dims "
                           "must have the same size");
  if (!ShapedType::isDynamic(*vectorSize) &&
      static_cast<int64_t>(dims.getStartIndexMap().size()) != *vectorSize)
    return op->emitOpError() << "start_index_map has "
                             << dims.getStartIndexMap().size()
                             << " entries, the index vectors " << *vectorSize;
  int64_t batchRank = indices.getRank() -
                      (dims.getIndexVectorDim() < indices.getRank() ? 1 : 0);
  int64_t resultRank = static_cast<int64_t>(dims.getOffsetDims().size()) + batchRank;
  if (result.getRank() != resultRank)
    return op->emitOpError() << "result must have rank " << resultRank;
  if (failed(verifyDimensionList(op, "offset_dims", dims.getOffsetDims(), resultRank, true)))
    return failure();
  if (!sliceSizes)
    return success();
  // (C14, C15, C6, C8)
  if (static_cast<int64_t>(sliceSizes->size()) != rank)
    return op->emitOpError() << "slice_sizes must have " << rank << " entries";
  for (auto [d, size] : llvm::enumerate(*sliceSizes)) {
    int64_t n = operand.getDimSize(d);
    if (size < 0 || (!ShapedType::isDynamic(n) && size > n))
      return op->emitOpError() << "slice size " << size << " of dimension " << d
                               << " is outside [0, " << n << "]";
    if ((llvm::is_contained(dims.getCollapsedSliceDims(), d) ||
         llvm::is_contained(dims.getOperandBatchingDims(), d)) &&
        size > 1)
      return op->emitOpError() << "collapsed or batching dimension " << d
                               << " must have slice size 0 or 1";
  }
  return success();
}

} // namespace

LogicalResult GatherOp::verify() {
  return verifyGather(*this, cast<RankedTensorType>(getOperand().getType()),
                      cast<RankedTensorType>(getStartIndices().getType()),
                      cast<RankedTensorType>(getType()), getDimensionNumbers(),
                      getSliceSizes());
}

LogicalResult DynamicGatherOp::verify() {
  auto sizes = cast<RankedTensorType>(getSliceSizes().getType());
  auto operand = cast<RankedTensorType>(getOperand().getType());
  if (!sizes.isDynamicDim(0) && sizes.getDimSize(0) != operand.getRank())
    return emitOpError() << "slice_sizes must have " << operand.getRank()
                         << " entries";
  return verifyGather(*this, operand,
                      cast<RankedTensorType>(getStartIndices().getType()),
                      cast<RankedTensorType>(getType()), getDimensionNumbers(),
                      std::nullopt);
}

LogicalResult ScatterOp::verify() {
  size_t n = getInputs().size();
  if (n == 0 || getUpdates().size() != n)
    return emitOpError("needs as many updates as inputs, at least one");
  auto input = cast<RankedTensorType>(getInputs().front().getType());
  auto indices = cast<RankedTensorType>(getScatterIndices().getType());
  int64_t rank = input.getRank();
  for (Value other : getInputs())
    if (cast<RankedTensorType>(other.getType()).getShape() != input.getShape())
      return emitOpError("all inputs must have the same shape");
  if (getNumResults() != n)
    return emitOpError() << "must have " << n << " results";
  for (auto [result, in] : llvm::zip(getResults(), getInputs()))
    if (cast<RankedTensorType>(result.getType()).getShape() !=
        cast<RankedTensorType>(in.getType()).getShape())
      return emitOpError("results must have the inputs' shapes");
  auto dims = getScatterDimensionNumbers();
  FailureOr<int64_t> vectorSize =
      indexVectorSize(*this, indices, dims.getIndexVectorDim());
  if (failed(vectorSize))
    return failure();
  if (static_cast<int64_t>(dims.getUpdateWindowDims().size() +
                           dims.getInsertedWindowDims().size() +
                           dims.getInputBatchingDims().size()) != rank)
    return emitOpError() << "update_window_dims, inserted_window_dims and "
                            "input_batching_dims must together have the "
                            "inputs' rank "
                         << rank;
  if (failed(verifyDimensionList(*this, "inserted_window_dims", dims.getInsertedWindowDims(), rank, true)) ||
      failed(verifyDimensionList(*this, "input_batching_dims", dims.getInputBatchingDims(), rank, true)) ||
      failed(checkDisjoint(*this, "inserted_window_dims", dims.getInsertedWindowDims(),
                           "input_batching_dims", dims.getInputBatchingDims())) ||
      failed(verifyDimensionList(*this, "scatter_indices_batching_dims",
                       dims.getScatterIndicesBatchingDims(), indices.getRank(), false)) ||
      failed(verifyDimensionList(*this, "scatter_dims_to_operand_dims",
                       dims.getScatterDimsToOperandDims(), rank, false)) ||
      failed(checkDisjoint(*this, "scatter_dims_to_operand_dims",
                           dims.getScatterDimsToOperandDims(),
                           "input_batching_dims", dims.getInputBatchingDims())))
    return failure();
  if (llvm::is_contained(dims.getScatterIndicesBatchingDims(), dims.getIndexVectorDim()))
    return emitOpError("scatter_indices_batching_dims must not hold index_vector_dim");
  if (dims.getInputBatchingDims().size() != dims.getScatterIndicesBatchingDims().size())
    return emitOpError("input_batching_dims and scatter_indices_batching_dims "
                       "must have the same size");
  if (!ShapedType::isDynamic(*vectorSize) &&
      static_cast<int64_t>(dims.getScatterDimsToOperandDims().size()) != *vectorSize)
    return emitOpError() << "scatter_dims_to_operand_dims has "
                         << dims.getScatterDimsToOperandDims().size()
                         << " entries, the index vectors " << *vectorSize;
  SmallVector<int64_t> scatterSizes = batchSizes(indices, dims.getIndexVectorDim());
  int64_t updateRank = static_cast<int64_t>(dims.getUpdateWindowDims().size() +
                                            scatterSizes.size());
  // The input dimensions the update windows span, in order.
  SmallVector<int64_t> windowInputDims;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dims.getInsertedWindowDims(), d) &&
        !llvm::is_contained(dims.getInputBatchingDims(), d))
      windowInputDims.push_back(d);
  for (Value updateValue : getUpdates()) {
    auto update = cast<RankedTensorType>(updateValue.getType());
    if (update.getRank() != updateRank)
      return emitOpError() << "updates must have rank " << updateRank;
    if (failed(verifyDimensionList(*this, "update_window_dims", dims.getUpdateWindowDims(),
                         updateRank, true)))
      return failure();
    size_t window = 0, scatter = 0;
    for (int64_t d = 0; d < updateRank; ++d) {
      int64_t size = update.getDimSize(d);
      if (llvm::is_contained(dims.getUpdateWindowDims(), d)) {
        int64_t bound = input.getDimSize(windowInputDims[window++]);
        if (!ShapedType::isDynamic(size) && !ShapedType::isDynamic(bound) &&
            size > bound)
          return emitOpError() << "update window dimension " << d << " of size "
                               << size << " exceeds the input's " << bound;
      } else if (!compatibleDims(size, scatterSizes[scatter++])) {
        return emitOpError() << "update dimension " << d << " of size " << size
                             << " must match the scatter indices' "
                             << scatterSizes[scatter - 1];
      }
    }
  }
  Block &body = getUpdateComputation().front();
  if (body.getNumArguments() != 2 * n)
    return emitOpError() << "body must take " << 2 * n << " arguments";
  if (numReturned(body) != static_cast<int64_t>(n))
    return emitOpError() << "body must return " << n << " values";
  return success();
}

LogicalResult DynamicSliceOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  ArrayRef<int64_t> sizes = getSliceSizes();
  // (C2, C4, C5)
  if (static_cast<int64_t>(getStartIndices().size()) != operand.getRank())
    return emitOpError() << "needs " << operand.getRank() << " start indices";
  if (static_cast<int64_t>(sizes.size()) != operand.getRank())
    return emitOpError() << "slice_sizes must have " << operand.getRank()
                         << " entries";
  for (auto [d, size] : llvm::enumerate(sizes)) {
    int64_t n = operand.getDimSize(d);
    if (size < 0 || (!ShapedType::isDynamic(n) && size > n))
      return emitOpError() << "slice size " << size << " of dimension " << d
                           << " is outside [0, " << n << "]";
  }
  auto result = cast<RankedTensorType>(getType());
  if (result.getRank() != operand.getRank() ||
      !llvm::all_of(llvm::zip(result.getShape(), sizes),
                    [](auto p) { return compatibleDims(std::get<0>(p), std::get<1>(p)); }))
    return emitOpError("result shape must be slice_sizes");
  return success();
}

LogicalResult DynamicUpdateSliceOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  auto update = cast<RankedTensorType>(getUpdate().getType());
  if (static_cast<int64_t>(getStartIndices().size()) != operand.getRank())
    return emitOpError() << "needs " << operand.getRank() << " start indices";
  if (update.getRank() != operand.getRank())
    return emitOpError("update must have the operand's rank");
  for (int64_t d = 0; d < operand.getRank(); ++d) {
    int64_t u = update.getDimSize(d), n = operand.getDimSize(d);
    if (!ShapedType::isDynamic(u) && !ShapedType::isDynamic(n) && u > n)
      return emitOpError() << "update dimension " << d << " of size " << u
                           << " exceeds the operand's " << n;
  }
  return success();
}

LogicalResult FftOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  auto result = cast<RankedTensorType>(getType());
  ArrayRef<int64_t> length = getFftLength();
  int64_t k = length.size();
  // (C1)
  if (k < 1 || k > 3 || k > operand.getRank())
    return emitOpError() << "fft_length must have 1 to 3 entries, at most the "
                            "operand's rank";
  if (result.getRank() != operand.getRank())
    return emitOpError("result must have the operand's rank");
  bool complexIn = isa<ComplexType>(operand.getElementType());
  bool complexOut = isa<ComplexType>(result.getElementType());
  FftType type = getFftType();
  if ((type == FftType::RFFT) == complexIn || (type == FftType::IRFFT) == complexOut)
    return emitOpError("operand and result element types do not fit the fft_type");
  int64_t lead = operand.getRank() - k;
  for (int64_t d = 0; d < lead; ++d)
    if (!compatibleDims(operand.getDimSize(d), result.getDimSize(d)))
      return emitOpError() << "result dimension " << d
                           << " must be the operand's";
  for (int64_t i = 0; i < k; ++i) {
    int64_t n = length[i];
    if (n < 0)
      return emitOpError("fft_length must not be negative");
    bool last = i == k - 1;
    int64_t in = operand.getDimSize(lead + i), out = result.getDimSize(lead + i);
    int64_t expectIn = n, expectOut = n;
    if (last && type == FftType::RFFT)
      expectOut = n / 2 + 1;
    if (last && type == FftType::IRFFT)
      expectIn = n / 2 + 1;
    if (!compatibleDims(in, expectIn) || !compatibleDims(out, expectOut))
      return emitOpError() << "dimension " << lead + i
                           << " must be " << expectIn << " in the operand and "
                           << expectOut << " in the result for fft_length "
                           << n;
  }
  return success();
}

