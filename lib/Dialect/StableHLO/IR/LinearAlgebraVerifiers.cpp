//===- LinearAlgebraVerifiers.cpp - Constraints of the batch-norm and ----===//
//                                   matrix ops
//
// The StableHLO specification's constraints on batch_norm_inference,
// batch_norm_training, batch_norm_grad, cholesky and triangular_solve: a
// feature dimension the operand has, per-feature operands of its size,
// square matrices and batch dimensions that agree.
//
//===----------------------------------------------------------------------===//

#include "VerifierUtils.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::stablehlo;

namespace {

/// The batch-norm constraints: feature_index names a dimension of the
/// operand (C1); every per-feature value is 1-D of that dimension's size
/// (C2..C4); the operand-shaped values have the operand's type; every
/// element type is the operand's.
LogicalResult verifyBatchNorm(Operation *op, Value operand,
                              uint64_t featureIndex, ValueRange perFeature,
                              ValueRange operandShaped) {
  auto type = cast<RankedTensorType>(operand.getType());
  if (failed(verifyDimensionIndex(op, "(C1) feature_index", featureIndex,
                                  type.getRank())))
    return failure();
  int64_t features = type.getDimSize(featureIndex);
  for (Value value : perFeature) {
    auto t = cast<RankedTensorType>(value.getType());
    if (t.getElementType() != type.getElementType())
      return op->emitOpError("(C2) all operands and results must have the "
                             "operand's element type");
    if (t.getRank() != 1 || !compatibleDims(t.getDimSize(0), features))
      return op->emitOpError() << "per-feature operands and results must be "
                                  "1-D of size "
                               << features;
  }
  for (Value value : operandShaped)
    if (failed(verifyCompatibleShape(value.getType(), type)) ||
        getElementTypeOrSelf(value.getType()) != type.getElementType())
      return op->emitOpError(
          "operand-shaped values must have the operand's type");
  return success();
}

/// (C2, C3) of cholesky and triangular_solve: rank >= 2 and square in its
/// two minor dimensions.
LogicalResult verifySquare(Operation *op, StringRef what,
                           RankedTensorType type) {
  if (type.getRank() < 2)
    return op->emitOpError() << "(C2) " << what << " must have rank >= 2";
  if (!compatibleDims(type.getDimSize(type.getRank() - 1),
                      type.getDimSize(type.getRank() - 2)))
    return op->emitOpError() << "(C3) " << what << " must be square in its last two "
                                        "dimensions";
  return success();
}

} // namespace

LogicalResult BatchNormInferenceOp::verify() {
  return verifyBatchNorm(*this, getOperand(), getFeatureIndex(),
                         {getScale(), getOffset(), getMean(), getVariance()},
                         {getResult()});
}

LogicalResult BatchNormTrainingOp::verify() {
  return verifyBatchNorm(*this, getOperand(), getFeatureIndex(),
                         {getScale(), getOffset(), getBatchMean(),
                          getBatchVar()},
                         {getOutput()});
}

LogicalResult BatchNormGradOp::verify() {
  return verifyBatchNorm(*this, getOperand(), getFeatureIndex(),
                         {getScale(), getMean(), getVariance(),
                          getGradScale(), getGradOffset()},
                         {getGradOutput(), getGradOperand()});
}

LogicalResult CholeskyOp::verify() {
  return verifySquare(*this, "a", cast<RankedTensorType>(getA().getType()));
}

LogicalResult TriangularSolveOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  if (failed(verifySquare(*this, "a", a)))
    return failure();
  // (C2, C3): b has a's rank and batch dimensions; the dimension a solves
  // along is b's rows on the left side, its columns on the right.
  int64_t rank = a.getRank();
  if (b.getRank() != rank)
    return emitOpError("(C2) a and b must have one rank");
  for (int64_t d = 0; d < rank - 2; ++d)
    if (!compatibleDims(a.getDimSize(d), b.getDimSize(d)))
      return emitOpError() << "(C3) batch dimension " << d
                           << " of a and b must agree";
  int64_t solved = b.getDimSize(getLeftSide() ? rank - 2 : rank - 1);
  if (!compatibleDims(a.getDimSize(rank - 1), solved))
    return emitOpError() << "(C3) a's size " << a.getDimSize(rank - 1)
                         << " must match b's dimension "
                         << (getLeftSide() ? rank - 2 : rank - 1);
  if (getTransposeA() == Transpose::TRANSPOSE_INVALID)
    return emitOpError("transpose_a must not be TRANSPOSE_INVALID");
  // (C4)
  if (failed(verifyCompatibleShape(getType(), b)))
    return emitOpError("(C4) result must have b's type");
  return success();
}
