//===- RegionOpVerifiers.cpp - Constraints of the ops with scalar bodies --===//
//
// The StableHLO specification's constraints on reduce_window,
// select_and_scatter, sort and map: window attributes with an entry per
// dimension (a reduce_window whose padding was too short used to import, the
// missing padding taken as zero), dimensions in range, bodies taking and
// returning what the op passes them.
//
//===----------------------------------------------------------------------===//

#include "VerifierUtils.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::stablehlo;


namespace {

/// The window attributes of reduce_window and select_and_scatter: one entry
/// per operand dimension, positive sizes, strides and dilations, padding
/// [rank, 2].
LogicalResult verifyWindow(Operation *op, int64_t rank,
                           std::optional<ArrayRef<int64_t>> dimensions,
                           std::optional<ArrayRef<int64_t>> strides,
                           std::optional<ArrayRef<int64_t>> baseDilations,
                           std::optional<ArrayRef<int64_t>> windowDilations,
                           std::optional<DenseIntElementsAttr> padding) {
  auto positive = [&](StringRef what, std::optional<ArrayRef<int64_t>> values,
                      bool required) -> LogicalResult {
    if (!values) {
      if (required)
        return op->emitOpError() << "needs " << what;
      return success();
    }
    if (static_cast<int64_t>(values->size()) != rank)
      return op->emitOpError() << what << " must have " << rank << " entries";
    for (int64_t v : *values)
      if (v <= 0)
        return op->emitOpError() << what << " must be positive";
    return success();
  };
  if (failed(positive("window_dimensions", dimensions, true)) ||
      failed(positive("window_strides", strides, false)) ||
      failed(positive("base_dilations", baseDilations, false)) ||
      failed(positive("window_dilations", windowDilations, false)))
    return failure();
  if (padding) {
    auto type = padding->getType();
    if (type.getRank() != 2 || type.getDimSize(0) != rank ||
        type.getDimSize(1) != 2)
      return op->emitOpError() << "padding must have shape [" << rank
                               << ", 2]";
  }
  return success();
}

} // namespace

LogicalResult ReduceWindowOp::verify() {
  size_t n = getInputs().size();
  if (n == 0 || getInitValues().size() != n || getNumResults() != n)
    return emitOpError("needs as many init values and results as inputs, at least one");
  auto input = cast<RankedTensorType>(getInputs().front().getType());
  for (Value other : getInputs())
    if (cast<RankedTensorType>(other.getType()).getShape() != input.getShape())
      return emitOpError("all inputs must have the same shape");
  if (failed(verifyWindow(*this, input.getRank(), getWindowDimensions(),
                          getWindowStrides(), getBaseDilations(),
                          getWindowDilations(), getPadding())))
    return failure();
  Block &body = getBody().front();
  if (body.getNumArguments() != 2 * n ||
      numReturned(body) != static_cast<int64_t>(n))
    return emitOpError() << "body must take " << 2 * n << " arguments and return "
                         << n << " values";
  return success();
}

LogicalResult SelectAndScatterOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  if (failed(verifyWindow(*this, operand.getRank(), getWindowDimensions()
                              ? getWindowDimensions()
                              : std::optional<ArrayRef<int64_t>>(
                                    SmallVector<int64_t>(operand.getRank(), 1)),
                          getWindowStrides(), std::nullopt, std::nullopt,
                          getPadding())))
    return failure();
  auto source = cast<RankedTensorType>(getSource().getType());
  if (source.getRank() != operand.getRank())
    return emitOpError("source must have the operand's rank");
  Block &select = getSelect().front();
  Block &scatter = getScatter().front();
  if (select.getNumArguments() != 2 || numReturned(select) != 1)
    return emitOpError("select must take 2 arguments and return 1 value");
  if (scatter.getNumArguments() != 2 || numReturned(scatter) != 1)
    return emitOpError("scatter must take 2 arguments and return 1 value");
  return success();
}

LogicalResult SortOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  auto input = cast<RankedTensorType>(getInputs().front().getType());
  for (Value other : getInputs())
    if (cast<RankedTensorType>(other.getType()).getShape() != input.getShape())
      return emitOpError("all inputs must have the same shape");
  int64_t rank = input.getRank(), dim = getDimension();
  // (C4) dimension in [-rank, rank)
  if (dim < -rank || dim >= rank || (rank == 0 && dim != 0 && dim != -1))
    return emitOpError() << "dimension " << dim << " is out of range for rank "
                         << rank;
  Block &comparator = getComparator().front();
  if (comparator.getNumArguments() != 2 * getInputs().size() ||
      numReturned(comparator) != 1)
    return emitOpError() << "comparator must take " << 2 * getInputs().size()
                         << " arguments and return 1 value";
  return success();
}

LogicalResult MapOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  auto input = cast<RankedTensorType>(getInputs().front().getType());
  // (C5) dimensions = [0, ..., rank - 1]
  ArrayRef<int64_t> dims = getDimensions();
  for (auto [i, d] : llvm::enumerate(dims))
    if (d != static_cast<int64_t>(i))
      return emitOpError("dimensions must be 0, 1, ..., rank - 1");
  if (static_cast<int64_t>(dims.size()) != input.getRank())
    return emitOpError() << "dimensions must have " << input.getRank()
                         << " entries";
  Block &body = getComputation().front();
  if (body.getNumArguments() != getInputs().size() ||
      numReturned(body) != 1)
    return emitOpError() << "computation must take " << getInputs().size()
                         << " arguments and return 1 value";
  return success();
}
