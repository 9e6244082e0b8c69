//===- TVMDialect.cpp - The tvm dialect -----------------------------------===//

#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::tvm;

#include "stablehlo-tvm/Dialect/TVM/IR/TVMDialect.cpp.inc"

void TVMDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "stablehlo-tvm/Dialect/TVM/IR/TVMOps.cpp.inc"
      >();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

LogicalResult AsTypeOp::verify() {
  if (getDtype() != getResult().getType().getElementType())
    return emitOpError() << "dtype " << getDtype()
                         << " must be the result element type";
  return success();
}

LogicalResult ArangeOp::verify() {
  if (getStep() == 0)
    return emitOpError("step must not be 0");
  if (getDtype() != getResult().getType().getElementType())
    return emitOpError("dtype must be the result element type");
  int64_t count = (getEnd() - getStart() + getStep() + (getStep() > 0 ? -1 : 1)) /
                  getStep();
  if (getResult().getType().getDimSize(0) != std::max<int64_t>(count, 0))
    return emitOpError() << "result must have " << count << " elements";
  return success();
}

LogicalResult ReshapeOp::verify() {
  if (getShape() != getResult().getType().getShape())
    return emitOpError("shape must be the result shape");
  return success();
}

LogicalResult BroadcastToOp::verify() {
  if (getShape() != getResult().getType().getShape())
    return emitOpError("shape must be the result shape");
  return success();
}

LogicalResult PermuteDimsOp::verify() {
  auto inType = cast<RankedTensorType>(getX().getType());
  auto outType = getResult().getType();
  if (static_cast<int64_t>(getAxes().size()) != inType.getRank())
    return emitOpError("axes must name every dimension once");
  for (auto [i, axis] : llvm::enumerate(getAxes()))
    if (axis < 0 || axis >= inType.getRank() ||
        outType.getDimSize(i) != inType.getDimSize(axis))
      return emitOpError() << "result dimension " << i
                           << " does not match input dimension " << axis;
  return success();
}

#define GET_OP_CLASSES
#include "stablehlo-tvm/Dialect/TVM/IR/TVMOps.cpp.inc"
