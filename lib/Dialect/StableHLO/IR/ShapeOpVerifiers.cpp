//===- ShapeOpVerifiers.cpp - Constraints of the shape-taking ops ---------===//
//
// The StableHLO specification's constraints on the ops whose attributes or
// shape operands name dimensions: get_dimension_size, the dynamic ops that
// take a shape tensor, reverse, broadcast, clamp, bitcast_convert, dot, rng,
// rng_bit_generator, tuple and the collectives that split or gather along a
// dimension. Each is checked here so that no pattern or shape rule indexes a
// shape with a dimension the op does not have.
//
//===----------------------------------------------------------------------===//

#include "VerifierUtils.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::stablehlo;

namespace {

/// Fails unless the 1-D shape operand `shape` (when its size is known) has
/// `expected` elements.
LogicalResult verifyShapeOperandSize(Operation *op, StringRef what,
                                     Value shape, int64_t expected,
                                     StringRef against) {
  int64_t size = cast<RankedTensorType>(shape.getType()).getDimSize(0);
  if (!ShapedType::isDynamic(size) && size != expected)
    return op->emitOpError() << what << " has " << size << " elements, "
                             << against << " has rank " << expected;
  return success();
}

/// dynamic_pad's and real_dynamic_slice's shape: the result keeps the
/// operand's rank, and each 1-D operand in `perDimension` has an entry per
/// dimension.
LogicalResult verifyPerDimensionOperands(
    Operation *op, RankedTensorType operand, RankedTensorType result,
    std::initializer_list<std::pair<StringRef, Value>> perDimension) {
  if (result.getRank() != operand.getRank())
    return op->emitOpError("result must have the operand's rank");
  for (auto [what, value] : perDimension)
    if (failed(verifyShapeOperandSize(op, what, value, operand.getRank(),
                                      "the operand")))
      return failure();
  return success();
}

/// The width in bits of an element for bitcast_convert: a complex number
/// counts both parts, a quantized value its storage.
std::optional<int64_t> bitWidth(Type element) {
  if (auto quantized = dyn_cast<quant::QuantizedType>(element))
    element = quantized.getStorageType();
  if (auto complex = dyn_cast<ComplexType>(element)) {
    std::optional<int64_t> part = bitWidth(complex.getElementType());
    return part ? std::optional<int64_t>(2 * *part) : std::nullopt;
  }
  if (element.isIntOrFloat())
    return element.getIntOrFloatBitWidth();
  return std::nullopt;
}

} // namespace

LogicalResult GetDimensionSizeOp::verify() {
  // (C1)
  return verifyDimensionIndex(
      *this, "(C1) dimension", getDimension(),
      cast<RankedTensorType>(getOperand().getType()).getRank());
}

LogicalResult DynamicIotaOp::verify() {
  auto type = cast<RankedTensorType>(getType());
  // (C1, C2)
  if (type.getRank() == 0)
    return emitOpError("(C2) result must have rank >= 1");
  if (failed(verifyDimensionIndex(*this, "(C1) iota_dimension",
                                  getIotaDimension(), type.getRank())))
    return failure();
  return verifyShapeOperandSize(*this, "(C2) output_shape", getOutputShape(),
                                type.getRank(), "the result");
}

LogicalResult DynamicReshapeOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  auto result = cast<RankedTensorType>(getType());
  // (C1)
  if (!haveSameBaselineElementType(operand.getElementType(),
                                   result.getElementType()))
    return emitOpError("(C1) operand and result must have one element type");
  // (C2)
  if (operand.hasStaticShape() && result.hasStaticShape() &&
      operand.getNumElements() != result.getNumElements())
    return emitOpError() << "(C2) operand has " << operand.getNumElements()
                         << " elements, result has "
                         << result.getNumElements();
  // (C3)
  return verifyShapeOperandSize(*this, "(C3) output_shape", getOutputShape(),
                                result.getRank(), "the result");
}

LogicalResult DynamicPadOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  auto result = cast<RankedTensorType>(getType());
  // (C1)
  if (operand.getElementType() != result.getElementType() ||
      getPaddingValue().getType().getElementType() !=
          operand.getElementType())
    return emitOpError(
        "(C1) operand, padding_value and result must have one element type");
  // (C2)
  return verifyPerDimensionOperands(
      *this, operand, result,
      {{"(C2) edge_padding_low", getEdgePaddingLow()},
       {"(C2) edge_padding_high", getEdgePaddingHigh()},
       {"(C2) interior_padding", getInteriorPadding()}});
}

LogicalResult RealDynamicSliceOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  auto result = cast<RankedTensorType>(getType());
  // (C1)
  if (operand.getElementType() != result.getElementType())
    return emitOpError("(C1) operand and result must have one element type");
  // (C2)
  return verifyPerDimensionOperands(
      *this, operand, result,
      {{"(C2) start_indices", getStartIndices()},
       {"(C2) limit_indices", getLimitIndices()},
       {"(C2) strides", getStrides()}});
}

LogicalResult ReverseOp::verify() {
  // (C2, C3)
  return verifyDimensionList(*this, "(C2, C3) dimension", getDimensions(),
                             getOperand().getType().getRank());
}

LogicalResult BroadcastOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  auto result = cast<RankedTensorType>(getType());
  ArrayRef<int64_t> sizes = getBroadcastSizes();
  // (C2): the result's shape is broadcast_sizes followed by the operand's.
  if (result.getRank() != static_cast<int64_t>(sizes.size()) + operand.getRank())
    return emitOpError() << "result must have rank "
                         << sizes.size() + operand.getRank();
  for (auto [d, size] : llvm::enumerate(sizes)) {
    if (size < 0)
      return emitOpError("broadcast_sizes must not be negative");
    if (!compatibleDims(result.getDimSize(d), size))
      return emitOpError() << "result dimension " << d << " must have size "
                           << size;
  }
  for (int64_t d = 0; d < operand.getRank(); ++d)
    if (!compatibleDims(result.getDimSize(sizes.size() + d),
                        operand.getDimSize(d)))
      return emitOpError() << "result dimension " << sizes.size() + d
                           << " must have the size of operand dimension " << d;
  return success();
}

LogicalResult ClampOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  auto result = cast<RankedTensorType>(getType());
  // (C1, C2): a bound is a scalar or has the operand's shape.
  for (auto [what, bound] : {std::pair<StringRef, Value>{"min", getMin()},
                             {"max", getMax()}}) {
    auto type = cast<RankedTensorType>(bound.getType());
    if (!haveSameBaselineElementType(type.getElementType(),
                                     operand.getElementType()))
      return emitOpError() << "(C3) " << what
                           << " must have the operand's element type";
    if (type.getRank() != 0 &&
        failed(verifyCompatibleShape(type.getShape(), operand.getShape())))
      return emitOpError() << "(C1, C2) " << what
                           << " must be a scalar or have the operand's shape";
  }
  // (C4)
  if (!haveSameBaselineElementType(result.getElementType(),
                                   operand.getElementType()) ||
      failed(verifyCompatibleShape(result.getShape(), operand.getShape())))
    return emitOpError("(C4) result must have the operand's type");
  return success();
}

LogicalResult BitcastConvertOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  auto result = cast<RankedTensorType>(getType());
  std::optional<int64_t> in = bitWidth(operand.getElementType());
  std::optional<int64_t> out = bitWidth(result.getElementType());
  if (!in || !out)
    return emitOpError("element types must have a bit width");
  // (C1): equal widths keep the shape; a narrower result adds a last
  // dimension of in/out elements, a wider one removes it.
  ArrayRef<int64_t> kept = operand.getShape();
  ArrayRef<int64_t> other = result.getShape();
  int64_t narrow = *out, wide = *in;
  if (*out > *in) {
    std::swap(kept, other);
    std::swap(narrow, wide);
  }
  int64_t extra = *in == *out ? 0 : 1;
  if (static_cast<int64_t>(other.size()) != static_cast<int64_t>(kept.size()) + extra)
    return emitOpError() << "(C1) result must have rank "
                         << (*out < *in   ? operand.getRank() + 1
                             : *out > *in ? operand.getRank() - 1
                                          : operand.getRank())
                         << " for a bitcast from " << *in << " to " << *out
                         << " bits";
  if (failed(verifyCompatibleShape(kept, other.take_front(kept.size()))))
    return emitOpError("(C1) operand and result shapes must agree outside the last "
                       "dimension");
  if (extra && wide % narrow != 0)
    return emitOpError() << "(C1) a bitcast between " << *in << " and " << *out
                         << " bits needs one width to divide the other";
  if (extra && !compatibleDims(other.back(), wide / narrow))
    return emitOpError() << "(C1) the last dimension must have size "
                         << wide / narrow;
  return success();
}

LogicalResult DotOp::verify() {
  auto lhs = cast<RankedTensorType>(getLhs().getType());
  auto rhs = cast<RankedTensorType>(getRhs().getType());
  auto result = cast<RankedTensorType>(getType());
  // (C1)
  for (auto type : {lhs, rhs})
    if (type.getRank() != 1 && type.getRank() != 2)
      return emitOpError("operands must have rank 1 or 2");
  // (C2)
  if (!compatibleDims(lhs.getShape().back(), rhs.getDimSize(0)))
    return emitOpError() << "contracting dimensions must agree: "
                         << lhs.getShape().back() << " and "
                         << rhs.getDimSize(0);
  // (C3)
  SmallVector<int64_t> expected(lhs.getShape().drop_back());
  llvm::append_range(expected, rhs.getShape().drop_front());
  if (failed(verifyCompatibleShape(result.getShape(), expected)))
    return emitOpError("result shape must be lhs's without its last "
                       "dimension followed by rhs's without its first");
  return success();
}

LogicalResult RngOp::verify() {
  auto result = cast<RankedTensorType>(getType());
  // (C1)
  for (Value bound : {getA(), getB()})
    if (cast<ShapedType>(bound.getType()).getElementType() !=
        result.getElementType())
      return emitOpError("(C1) a, b and result must have one element type");
  // (C2)
  if (getRngDistribution() == RngDistribution::NORMAL &&
      !isa<FloatType>(result.getElementType()))
    return emitOpError("(C2) a NORMAL distribution needs a floating-point result");
  // (C3)
  return verifyShapeOperandSize(*this, "(C3) shape", getShape(), result.getRank(),
                                "the result");
}

LogicalResult RngBitGeneratorOp::verify() {
  // (C1)
  if (getInitialState().getType() != getOutputState().getType())
    return emitOpError("(C1) output_state must have the type of initial_state");
  auto state = cast<RankedTensorType>(getInitialState().getType());
  if (state.getRank() != 1)
    return emitOpError("initial_state must be 1-dimensional");
  // (C2)
  int64_t size = state.getDimSize(0);
  if (!ShapedType::isDynamic(size)) {
    RngAlgorithm algorithm = getRngAlgorithm();
    if (algorithm == RngAlgorithm::THREE_FRY && size != 2)
      return emitOpError("(C2) a THREE_FRY state has 2 elements");
    if (algorithm == RngAlgorithm::PHILOX && size != 2 && size != 3)
      return emitOpError("(C2) a PHILOX state has 2 or 3 elements");
  }
  return success();
}

LogicalResult TupleOp::verify() {
  // (C1)
  if (!llvm::equal(cast<TupleType>(getType()).getTypes(), getVal().getTypes()))
    return emitOpError("(C1) result must be the tuple of the operand types");
  return success();
}

LogicalResult AllGatherOp::verify() {
  for (Value operand : getOperands())
    if (failed(verifyDimensionIndex(
            *this, "(C1) all_gather_dim", getAllGatherDim(),
            cast<RankedTensorType>(operand.getType()).getRank())))
      return failure();
  if (getNumResults() != getOperands().size())
    return emitOpError("needs one result per operand");
  return success();
}

LogicalResult AllToAllOp::verify() {
  if (static_cast<int64_t>(getSplitCount()) <= 0)
    return emitOpError("(C4) split_count must be positive");
  for (Value operand : getOperands()) {
    auto type = cast<RankedTensorType>(operand.getType());
    if (failed(verifyDimensionIndex(*this, "(C1) split_dimension",
                                    getSplitDimension(), type.getRank())) ||
        failed(verifyDimensionIndex(*this, "(C3) concat_dimension",
                                    getConcatDimension(), type.getRank())))
      return failure();
    int64_t size = type.getDimSize(getSplitDimension());
    if (!ShapedType::isDynamic(size) &&
        size % static_cast<int64_t>(getSplitCount()) != 0)
      return emitOpError("(C2) split_count must divide the split dimension");
  }
  if (getNumResults() != getOperands().size())
    return emitOpError("needs one result per operand");
  return success();
}

LogicalResult ReduceScatterOp::verify() {
  return verifyDimensionIndex(
      *this, "(C2) scatter_dimension", getScatterDimension(),
      cast<RankedTensorType>(getOperand().getType()).getRank());
}
