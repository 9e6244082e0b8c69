//===- FoldSmallConstants.cpp - Small ops on constants at import time -----===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

#include <functional>

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_FOLDSMALLCONSTANTS
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

// Results up to this many elements are folded: coefficients, index and
// shift-amount arithmetic, not data (a folded tensor becomes a constant of
// the program).
constexpr int64_t kMaxFoldedElements = 16;
// A slice may read a larger constant (one coefficient of a table).
constexpr int64_t kMaxSlicedElements = 4096;

using Elements = SmallVector<Attribute>;

bool isFoldedType(Type type, int64_t limit) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() || tensor.getNumElements() > limit)
    return false;
  Type element = tensor.getElementType();
  return isa<IntegerType, FloatType, IndexType>(element);
}

/// The elements of a constant of a static integer or float type with at
/// most `limit` elements, or none.
std::optional<Elements> constantElements(Value value, int64_t limit) {
  if (!isFoldedType(value.getType(), limit))
    return std::nullopt;
  DenseElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) || attr.getType() != value.getType())
    return std::nullopt;
  auto values = attr.getValues<Attribute>();
  return Elements(values.begin(), values.end());
}

/// Whether the elements are integers that arithmetic folds (not i1).
bool isArithmeticInteger(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isInteger() && !element.isInteger(1);
}

std::optional<Elements> integerArithmetic(Operation *op, IntegerType type,
                                          const Elements &lhs,
                                          const Elements &rhs) {
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
  Elements result;
  for (auto [a, b] : llvm::zip(lhs, rhs))
    result.push_back(IntegerAttr::get(
        type, apply(cast<IntegerAttr>(a).getValue(), cast<IntegerAttr>(b).getValue())));
  return result;
}

/// The row-major elements of `slice` of `values` (of shape `shape`).
Elements sliced(stablehlo::SliceOp slice, ArrayRef<int64_t> shape,
                const Elements &values) {
  auto resultShape = slice.getType().getShape();
  ArrayRef<int64_t> start = slice.getStartIndices(), step = slice.getStrides();
  Elements result;
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

/// The elements of `op`'s result when its operands are small constants
/// and it is one of the ops folded, else none.
std::optional<Elements> folded(Operation *op) {
  // The kinds folded, checked before any constant's elements are read.
  if (!isa<stablehlo::ReshapeOp, stablehlo::SliceOp, stablehlo::BroadcastInDimOp,
           stablehlo::ConvertOp, stablehlo::AddOp, stablehlo::SubtractOp,
           stablehlo::MulOp, stablehlo::AndOp, stablehlo::OrOp,
           stablehlo::XorOp>(op) ||
      !isFoldedType(op->getResult(0).getType(), kMaxFoldedElements))
    return std::nullopt;
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t limit = isa<stablehlo::SliceOp>(op) ? kMaxSlicedElements : kMaxFoldedElements;
  SmallVector<Elements> operands;
  for (Value operand : op->getOperands()) {
    std::optional<Elements> elements = constantElements(operand, limit);
    if (!elements)
      return std::nullopt;
    operands.push_back(std::move(*elements));
  }
  // Reshapes and slices, any element type.
  if (isa<stablehlo::ReshapeOp>(op))
    return operands[0];
  if (auto slice = dyn_cast<stablehlo::SliceOp>(op))
    return sliced(slice, cast<RankedTensorType>(slice.getOperand().getType()).getShape(),
                  operands[0]);
  // Integer broadcasts and arithmetic, wrapping as the ops do. (A float
  // scalar's broadcast stays: it is a scalar of the build, where a folded
  // tensor would be a weight.)
  if (!isArithmeticInteger(type) ||
      !llvm::all_of(op->getOperandTypes(), isArithmeticInteger))
    return std::nullopt;
  if (isa<stablehlo::BroadcastInDimOp>(op)) {
    if (operands[0].size() != 1)
      return std::nullopt;
    return Elements(type.getNumElements(), operands[0].front());
  }
  auto element = cast<IntegerType>(type.getElementType());
  if (auto convert = dyn_cast<stablehlo::ConvertOp>(op)) {
    bool isSigned = !getElementTypeOrSelf(convert.getOperand().getType())
                         .isUnsignedInteger();
    unsigned width = element.getWidth();
    Elements result;
    for (Attribute value : operands[0]) {
      const APInt &v = cast<IntegerAttr>(value).getValue();
      result.push_back(IntegerAttr::get(
          element, isSigned ? v.sextOrTrunc(width) : v.zextOrTrunc(width)));
    }
    return result;
  }
  if (operands.size() == 2 && operands[0].size() == operands[1].size())
    return integerArithmetic(op, element, operands[0], operands[1]);
  return std::nullopt;
}

struct FoldSmallConstantsPass
    : impl::FoldSmallConstantsBase<FoldSmallConstantsPass> {
  void runOnOperation() override {
    // In order: an op's constant operands were folded before it.
    SmallVector<Operation *> done;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      std::optional<Elements> elements = folded(op);
      if (!elements)
        return;
      auto type = cast<RankedTensorType>(op->getResult(0).getType());
      OpBuilder builder(op);
      auto constant = stablehlo::ConstantOp::create(
          builder, op->getLoc(), DenseElementsAttr::get(type, *elements));
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
