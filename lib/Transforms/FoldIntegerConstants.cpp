//===- FoldIntegerConstants.cpp - Small integer arithmetic on constants ---===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

#include <functional>

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_FOLDINTEGERCONSTANTS
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

// Results up to this many elements are folded: index and shift-amount
// arithmetic, not data (a folded tensor becomes a constant of the program).
constexpr int64_t kMaxFoldedElements = 16;

using Values = SmallVector<APInt>;

/// The values of an integer (not i1) constant of a static type, or none.
std::optional<Values> integerValues(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape() || !type.getElementType().isInteger() ||
      type.getElementType().isInteger(1) ||
      type.getNumElements() > kMaxFoldedElements)
    return std::nullopt;
  DenseIntElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) || attr.getType() != type)
    return std::nullopt;
  return Values(attr.value_begin<APInt>(), attr.value_end<APInt>());
}

std::optional<Values> elementwise(Operation *op, const Values &lhs,
                                  const Values &rhs) {
  std::function<APInt(const APInt &, const APInt &)> apply;
  if (isa<stablehlo::AddOp>(op))
    apply = [](const APInt &a, const APInt &b) { return a + b; };
  else if (isa<stablehlo::SubtractOp>(op))
    apply = [](const APInt &a, const APInt &b) { return a - b; };
  else if (isa<stablehlo::MulOp>(op))
    apply = [](const APInt &a, const APInt &b) { return a * b; };
  else if (isa<stablehlo::AndOp>(op))
    apply = [](const APInt &a, const APInt &b) { return a & b; };
  else if (isa<stablehlo::OrOp>(op))
    apply = [](const APInt &a, const APInt &b) { return a | b; };
  else if (isa<stablehlo::XorOp>(op))
    apply = [](const APInt &a, const APInt &b) { return a ^ b; };
  else
    return std::nullopt;
  Values result;
  for (auto [a, b] : llvm::zip(lhs, rhs))
    result.push_back(apply(a, b));
  return result;
}

/// The row-major elements of `slice` of `values` (of shape `shape`).
Values sliced(stablehlo::SliceOp slice, ArrayRef<int64_t> shape,
              const Values &values) {
  auto resultShape = slice.getType().getShape();
  ArrayRef<int64_t> start = slice.getStartIndices(), step = slice.getStrides();
  Values result;
  SmallVector<int64_t> index(resultShape.size(), 0);
  int64_t count = slice.getType().getNumElements();
  for (int64_t n = 0; n < count; ++n) {
    int64_t flat = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      flat = flat * shape[d] + start[d] + index[d] * step[d];
    result.push_back(values[flat]);
    for (int64_t d = static_cast<int64_t>(index.size()) - 1; d >= 0; --d) {
      if (++index[d] < resultShape[d])
        break;
      index[d] = 0;
    }
  }
  return result;
}

/// The values of `op`'s result when its operands are small integer
/// constants and it is one of the ops folded, else none.
std::optional<Values> folded(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape() || !type.getElementType().isInteger() ||
      type.getElementType().isInteger(1) ||
      type.getNumElements() > kMaxFoldedElements)
    return std::nullopt;
  SmallVector<Values> operands;
  for (Value operand : op->getOperands()) {
    std::optional<Values> values = integerValues(operand);
    if (!values)
      return std::nullopt;
    operands.push_back(std::move(*values));
  }
  if (isa<stablehlo::ReshapeOp>(op))
    return operands[0];
  if (auto slice = dyn_cast<stablehlo::SliceOp>(op))
    return sliced(slice, cast<RankedTensorType>(slice.getOperand().getType()).getShape(),
                  operands[0]);
  if (auto convert = dyn_cast<stablehlo::ConvertOp>(op)) {
    bool isSigned = !getElementTypeOrSelf(convert.getOperand().getType())
                         .isUnsignedInteger();
    unsigned width = type.getElementType().getIntOrFloatBitWidth();
    Values result;
    for (const APInt &value : operands[0])
      result.push_back(isSigned ? value.sextOrTrunc(width)
                                : value.zextOrTrunc(width));
    return result;
  }
  if (auto broadcast = dyn_cast<stablehlo::BroadcastInDimOp>(op)) {
    if (operands[0].size() != 1)
      return std::nullopt;
    return Values(type.getNumElements(), operands[0].front());
  }
  if (operands.size() == 2 && operands[0].size() == operands[1].size())
    return elementwise(op, operands[0], operands[1]);
  return std::nullopt;
}

struct FoldIntegerConstantsPass
    : impl::FoldIntegerConstantsBase<FoldIntegerConstantsPass> {
  void runOnOperation() override {
    // In order: an op's constant operands were folded before it.
    SmallVector<Operation *> done;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      std::optional<Values> values = folded(op);
      if (!values)
        return;
      auto type = cast<RankedTensorType>(op->getResult(0).getType());
      OpBuilder builder(op);
      auto constant = stablehlo::ConstantOp::create(
          builder, op->getLoc(), DenseElementsAttr::get(type, *values));
      op->getResult(0).replaceAllUsesWith(constant.getResult());
      done.push_back(op);
    });
    for (Operation *op : llvm::reverse(done))
      if (op->use_empty())
        op->erase();
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
