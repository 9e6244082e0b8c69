//===- CHLOVerifiers.cpp - Constraints of the chlo ops with regions -------===//
//
// chlo.scan's dimension, lengths and body agree with its operands and
// results; stablehlo-simplify's lowering to a while loop indexes the
// operands by them, so an op that breaks them must never reach it.
//
//===----------------------------------------------------------------------===//

#include "stablehlo-tvm/Dialect/CHLO/IR/CHLO.h"

using namespace mlir;
using namespace mlir::chlo;

LogicalResult ScanOp::verify() {
  size_t numInputs = getInputs().size(), numInits = getInits().size();
  if (getNumResults() < numInits)
    return emitOpError() << "has " << getNumResults()
                         << " results, fewer than its " << numInits
                         << " carried values";
  size_t numOutputs = getNumResults() - numInits;
  int64_t dim = getDimension();
  std::optional<int64_t> length;
  // Inputs and outputs: `dimension` in range, the same length along it.
  auto scanned = [&](Type type, StringRef what,
                     size_t index) -> FailureOr<RankedTensorType> {
    auto ranked = dyn_cast<RankedTensorType>(type);
    if (!ranked)
      return RankedTensorType();
    if (dim < 0 || dim >= ranked.getRank())
      return emitOpError() << "dimension " << dim << " is out of range for "
                           << what << " " << index << " of rank "
                           << ranked.getRank();
    int64_t size = ranked.getDimSize(dim);
    if (!ShapedType::isDynamic(size)) {
      if (length && *length != size)
        return emitOpError() << what << " " << index << " has " << size
                             << " positions along dimension " << dim
                             << ", the scan " << *length;
      length = size;
    }
    return ranked;
  };
  Block &body = getBody().front();
  if (body.getNumArguments() != numInputs + numInits)
    return emitOpError() << "body takes " << body.getNumArguments()
                         << " arguments, not one per input and carried value ("
                         << numInputs + numInits << ")";
  if (body.empty() || body.back().getName().getStringRef() != "stablehlo.return" ||
      body.back().getNumOperands() != numOutputs + numInits)
    return emitOpError() << "body must end in stablehlo.return of one slice "
                            "per output and the carried values ("
                         << numOutputs + numInits << " values)";
  Operation *yield = &body.back();
  // A slice is its tensor without the dimension: one rank less.
  auto slice = [&](RankedTensorType whole, Type part, StringRef what,
                   size_t index) -> LogicalResult {
    auto ranked = dyn_cast<RankedTensorType>(part);
    if (whole && ranked && ranked.getRank() != whole.getRank() - 1)
      return emitOpError() << what << " " << index << " has rank "
                           << ranked.getRank() << ", not "
                           << whole.getRank() - 1;
    return success();
  };
  for (auto [k, input] : llvm::enumerate(getInputs())) {
    FailureOr<RankedTensorType> type = scanned(input.getType(), "input", k);
    if (failed(type) ||
        failed(slice(*type, body.getArgument(k).getType(),
                     "body argument for input", k)))
      return failure();
  }
  for (size_t k = 0; k < numOutputs; ++k) {
    FailureOr<RankedTensorType> type = scanned(getResult(k).getType(), "output", k);
    if (failed(type) ||
        failed(slice(*type, yield->getOperand(k).getType(), "body slice of output", k)))
      return failure();
  }
  for (auto [m, init] : llvm::enumerate(getInits())) {
    Type type = init.getType();
    if (getResult(numOutputs + m).getType() != type ||
        body.getArgument(numInputs + m).getType() != type ||
        yield->getOperand(numOutputs + m).getType() != type)
      return emitOpError() << "carried value " << m
                           << " must have its init's type " << type
                           << " as result, body argument and body result";
  }
  return success();
}
