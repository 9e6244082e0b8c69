//===- SymbolicElements.cpp - Shape tensors as scalar SSA sizes -----------===//

#include "SymbolicElements.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"
#include "stablehlo-tvm/Support/IntegerComparison.h"

namespace mlir::stablehlo_tvm {
namespace {
/// Shape values are this small (shapes, never data).
constexpr int64_t kMaxElements = 64;
} // namespace

Value SymbolicElements::indexConstant(Location loc, int64_t n) {
  return arith::ConstantIndexOp::create(builder, loc, n);
}

FailureOr<SmallVector<Value>> SymbolicElements::compute(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape() ||
      type.getNumElements() > kMaxElements ||
      !isa<IntegerType>(type.getElementType()))
    return failure();
  Operation *op = value.getDefiningOp();
  if (!op || op->getNumResults() != 1 || op->getNumRegions() != 0)
    return failure();
  bool isBool = type.getElementType().isInteger(1);
  bool isUnsigned = type.getElementType().isUnsignedInteger();
  Location loc = op->getLoc();
  builder.setInsertionPointAfter(op);

  DenseIntElementsAttr constant;
  if (matchPattern(value, m_Constant(&constant))) {
    SmallVector<Value> elements;
    for (const APInt &n : constant.getValues<APInt>())
      elements.push_back(
          isBool ? Value(arith::ConstantIntOp::create(builder, loc, n.getBoolValue(), 1))
                 : indexConstant(loc, isUnsigned ? int64_t(n.getZExtValue())
                                                 : n.getSExtValue()));
    return elements;
  }
  if (auto dim = dyn_cast<stablehlo::GetDimensionSizeOp>(op)) {
    auto operandType = cast<RankedTensorType>(dim.getOperand().getType());
    int64_t d = dim.getDimension();
    if (d < 0 || d >= operandType.getRank())
      return failure();
    if (!operandType.isDynamicDim(d))
      return SmallVector<Value>{indexConstant(loc, operandType.getDimSize(d))};
    if (auto name = dim->getAttrOfType<StringAttr>("jax.global_constant"))
      if (auto arg = dyn_cast<BlockArgument>(dim.getOperand()))
        names.try_emplace({arg.getArgNumber(), d}, name.str());
    return SmallVector<Value>{
        tvm::DimOp::create(builder, loc, dim.getOperand(), d)};
  }
  if (isa<stablehlo::ReshapeOp>(op))
    return of(op->getOperand(0));
  if (isa<stablehlo::ConvertOp>(op)) {
    FailureOr<SmallVector<Value>> from = of(op->getOperand(0));
    if (failed(from))
      return failure();
    builder.setInsertionPointAfter(op);
    bool fromBool = getElementTypeOrSelf(op->getOperand(0).getType()).isInteger(1);
    SmallVector<Value> elements;
    for (Value x : *from) {
      if (fromBool == isBool)
        elements.push_back(x);
      else if (isBool)
        elements.push_back(arith::CmpIOp::create(
            builder, loc, arith::CmpIPredicate::ne, x, indexConstant(loc, 0)));
      else
        elements.push_back(arith::SelectOp::create(
            builder, loc, x, indexConstant(loc, 1), indexConstant(loc, 0)));
    }
    return elements;
  }
  if (auto broadcast = dyn_cast<stablehlo::BroadcastInDimOp>(op))
    return broadcastElements(broadcast, type);
  if (auto concat = dyn_cast<stablehlo::ConcatenateOp>(op)) {
    if (type.getRank() != 1)
      return failure();
    SmallVector<Value> elements;
    for (Value input : concat.getInputs()) {
      FailureOr<SmallVector<Value>> part = of(input);
      if (failed(part))
        return failure();
      llvm::append_range(elements, *part);
    }
    return elements;
  }
  if (auto slice = dyn_cast<stablehlo::SliceOp>(op)) {
    if (type.getRank() != 1)
      return failure();
    FailureOr<SmallVector<Value>> from = of(slice.getOperand());
    if (failed(from))
      return failure();
    SmallVector<Value> elements;
    for (int64_t i = slice.getStartIndices()[0]; i < slice.getLimitIndices()[0];
         i += slice.getStrides()[0])
      elements.push_back((*from)[i]);
    return elements;
  }
  return elementwise(op, type, isBool, isUnsigned);
}

FailureOr<SmallVector<Value>>
SymbolicElements::broadcastElements(stablehlo::BroadcastInDimOp op,
                                                RankedTensorType type) {
  FailureOr<SmallVector<Value>> from = of(op.getOperand());
  if (failed(from))
    return failure();
  auto operandType = cast<RankedTensorType>(op.getOperand().getType());
  ArrayRef<int64_t> dims = op.getBroadcastDimensions();
  SmallVector<Value> elements;
  SmallVector<int64_t> index(type.getRank(), 0);
  for (int64_t n = 0; n < type.getNumElements(); ++n) {
    int64_t rest = n;
    for (int64_t d = type.getRank() - 1; d >= 0; --d) {
      index[d] = rest % type.getDimSize(d);
      rest /= type.getDimSize(d);
    }
    int64_t flat = 0;
    for (int64_t d = 0; d < operandType.getRank(); ++d) {
      int64_t size = operandType.getDimSize(d);
      flat = flat * size + (size == 1 ? 0 : index[dims[d]]);
    }
    elements.push_back((*from)[flat]);
  }
  return elements;
}

FailureOr<SmallVector<Value>>
SymbolicElements::elementwise(Operation *op, RankedTensorType type,
                                          bool isBool, bool isUnsigned) {
  if (!isa<stablehlo::AddOp, stablehlo::SubtractOp, stablehlo::MulOp,
           stablehlo::DivOp, stablehlo::RemOp, stablehlo::MaxOp,
           stablehlo::MinOp, stablehlo::AndOp, stablehlo::OrOp,
           stablehlo::XorOp, stablehlo::NotOp, stablehlo::NegOp,
           stablehlo::CompareOp, stablehlo::SelectOp>(op))
    return failure();
  SmallVector<SmallVector<Value>> operands;
  for (Value operand : op->getOperands()) {
    FailureOr<SmallVector<Value>> elements = of(operand);
    if (failed(elements))
      return failure();
    operands.push_back(*elements);
  }
  builder.setInsertionPointAfter(op);
  Location loc = op->getLoc();
  int64_t count = type.getNumElements();
  // A scalar operand (select's predicate) applies to every element.
  auto at = [&](size_t k, int64_t i) {
    return operands[k].size() == 1 ? operands[k][0] : operands[k][i];
  };
  SmallVector<Value> elements;
  for (int64_t i = 0; i < count; ++i) {
    Value x = at(0, i);
    Value y = operands.size() > 1 ? at(1, i) : Value();
    Value result;
    if (isa<stablehlo::AddOp>(op))
      result = isBool ? Value(arith::OrIOp::create(builder, loc, x, y))
                      : Value(arith::AddIOp::create(builder, loc, x, y));
    else if (isa<stablehlo::SubtractOp>(op) && !isBool)
      result = arith::SubIOp::create(builder, loc, x, y);
    else if (isa<stablehlo::MulOp>(op))
      result = isBool ? Value(arith::AndIOp::create(builder, loc, x, y))
                      : Value(arith::MulIOp::create(builder, loc, x, y));
    else if (isa<stablehlo::DivOp>(op) && !isBool)
      result = bySign<arith::DivSIOp, arith::DivUIOp>(loc, isUnsigned, x, y);
    else if (isa<stablehlo::RemOp>(op) && !isBool)
      result = bySign<arith::RemSIOp, arith::RemUIOp>(loc, isUnsigned, x, y);
    else if (isa<stablehlo::MaxOp>(op) && !isBool)
      result = bySign<arith::MaxSIOp, arith::MaxUIOp>(loc, isUnsigned, x, y);
    else if (isa<stablehlo::MinOp>(op) && !isBool)
      result = bySign<arith::MinSIOp, arith::MinUIOp>(loc, isUnsigned, x, y);
    else if (isa<stablehlo::AndOp>(op))
      result = arith::AndIOp::create(builder, loc, x, y);
    else if (isa<stablehlo::OrOp>(op))
      result = arith::OrIOp::create(builder, loc, x, y);
    else if (isa<stablehlo::XorOp>(op))
      result = arith::XOrIOp::create(builder, loc, x, y);
    else if (isa<stablehlo::NotOp>(op) && isBool)
      result = arith::XOrIOp::create(
          builder, loc, x, arith::ConstantIntOp::create(builder, loc, 1, 1));
    else if (isa<stablehlo::NegOp>(op) && !isBool)
      result = arith::SubIOp::create(builder, loc, indexConstant(loc, 0), x);
    else if (auto compare = dyn_cast<stablehlo::CompareOp>(op))
      result = compareElements(compare, x, y);
    else if (isa<stablehlo::SelectOp>(op))
      result = arith::SelectOp::create(builder, loc, x, y, at(2, i));
    if (!result)
      return failure();
    elements.push_back(result);
  }
  return elements;
}

Value SymbolicElements::compareElements(stablehlo::CompareOp op, Value x,
                                        Value y) {
  if (x.getType().isInteger(1)) // booleans compare as 0 < 1
    return {};
  bool isUnsigned =
      getElementTypeOrSelf(op.getLhs().getType()).isUnsignedInteger() ||
      op.getCompareType() == stablehlo::ComparisonType::UNSIGNED;
  return arith::CmpIOp::create(
      builder, op.getLoc(),
      integerPredicate(op.getComparisonDirection(), isUnsigned), x, y);
}

} // namespace mlir::stablehlo_tvm
