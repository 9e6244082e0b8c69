//===- ShapeArithmetic.cpp - Evaluate the integer ops that compute shapes -===//
//
// Shape-polymorphic programs compute shapes with a few elementwise and data
// movement ops on small integer tensors. Each is evaluated here with the
// spec's integer semantics (wrap-around, signedness from the element type);
// where the spec gives a result this code would have to special-case
// (division by zero, overflowing division) it gives up instead, and the
// shape stays dynamic.
//
//===----------------------------------------------------------------------===//

#include "ShapeRefinement.h"

#include "mlir/IR/BuiltinTypes.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::stablehlo_tvm {

DenseIntElementsAttr KnownValues::lookup(Value value) const {
  if (auto it = values.find(value); it != values.end())
    return it->second;
  auto constant = value.getDefiningOp<stablehlo::ConstantOp>();
  if (!constant)
    return {};
  auto attr = dyn_cast<DenseIntElementsAttr>(constant.getValue());
  if (!attr || attr.getNumElements() > kMaxShapeValueElements)
    return {};
  return attr;
}

namespace {

using Values = SmallVector<APInt>;

Values elements(DenseIntElementsAttr attr) {
  Values out;
  for (const APInt &v : attr.getValues<APInt>())
    out.push_back(v);
  return out;
}

bool isUnsigned(Type type) {
  auto element = cast<ShapedType>(type).getElementType();
  auto integer = dyn_cast<IntegerType>(element);
  return integer && (integer.isUnsigned() || integer.getWidth() == 1);
}

/// The row-major index of each position of `shape`, one after the other.
SmallVector<int64_t> unflatten(int64_t linear, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> index(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    index[d] = shape[d] ? linear % shape[d] : 0;
    linear = shape[d] ? linear / shape[d] : 0;
  }
  return index;
}

int64_t flatten(ArrayRef<int64_t> index, ArrayRef<int64_t> shape) {
  int64_t linear = 0;
  for (auto [i, n] : llvm::zip(index, shape))
    linear = linear * n + i;
  return linear;
}

/// A static integer result type small enough to evaluate into.
RankedTensorType evaluable(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() ||
      !isa<IntegerType>(tensor.getElementType()) ||
      tensor.getNumElements() > kMaxShapeValueElements)
    return {};
  return tensor;
}

DenseIntElementsAttr make(RankedTensorType type, ArrayRef<APInt> values) {
  return DenseIntElementsAttr::get(type, values);
}

/// Elementwise over operands of the result's shape (a scalar operand is
/// broadcast, as select's and clamp's may be).
template <typename Fn>
DenseIntElementsAttr elementwise(RankedTensorType type,
                                 ArrayRef<DenseIntElementsAttr> operands,
                                 Fn fn) {
  SmallVector<Values> in;
  for (DenseIntElementsAttr attr : operands) {
    Values v = elements(attr);
    if (v.size() == 1 && type.getNumElements() != 1)
      v.assign(type.getNumElements(), v.front());
    if (static_cast<int64_t>(v.size()) != type.getNumElements())
      return {};
    in.push_back(std::move(v));
  }
  Values out;
  for (int64_t i = 0; i < type.getNumElements(); ++i) {
    SmallVector<APInt> args;
    for (const Values &v : in)
      args.push_back(v[i]);
    std::optional<APInt> r = fn(ArrayRef<APInt>(args));
    if (!r)
      return {};
    out.push_back(*r);
  }
  return make(type, out);
}

std::optional<APInt> binary(Operation *op, const APInt &a, const APInt &b,
                            bool isUnsignedType) {
  unsigned width = a.getBitWidth();
  bool boolean = width == 1;
  return TypeSwitch<Operation *, std::optional<APInt>>(op)
      .Case([&](stablehlo::AddOp) -> std::optional<APInt> {
        return boolean ? (a | b) : a + b;
      })
      .Case([&](stablehlo::SubtractOp) -> std::optional<APInt> {
        if (boolean)
          return std::nullopt;
        return a - b;
      })
      .Case([&](stablehlo::MulOp) -> std::optional<APInt> {
        return boolean ? (a & b) : a * b;
      })
      .Case([&](stablehlo::DivOp) -> std::optional<APInt> {
        if (b.isZero() || boolean)
          return std::nullopt;
        if (isUnsignedType)
          return a.udiv(b);
        if (a.isMinSignedValue() && b.isAllOnes())
          return std::nullopt;
        return a.sdiv(b);
      })
      .Case([&](stablehlo::RemOp) -> std::optional<APInt> {
        if (b.isZero() || boolean)
          return std::nullopt;
        if (isUnsignedType)
          return a.urem(b);
        if (a.isMinSignedValue() && b.isAllOnes())
          return std::nullopt;
        return a.srem(b);
      })
      .Case([&](stablehlo::MaxOp) -> std::optional<APInt> {
        return isUnsignedType ? llvm::APIntOps::umax(a, b) : llvm::APIntOps::smax(a, b);
      })
      .Case([&](stablehlo::MinOp) -> std::optional<APInt> {
        return isUnsignedType ? llvm::APIntOps::umin(a, b) : llvm::APIntOps::smin(a, b);
      })
      .Case([&](stablehlo::AndOp) -> std::optional<APInt> { return a & b; })
      .Case([&](stablehlo::OrOp) -> std::optional<APInt> { return a | b; })
      .Case([&](stablehlo::XorOp) -> std::optional<APInt> { return a ^ b; })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<APInt> compare(stablehlo::CompareOp op, const APInt &a,
                             const APInt &b, bool isUnsignedType) {
  bool unsignedCompare = isUnsignedType;
  if (auto type = op.getCompareType())
    unsignedCompare = *type == stablehlo::ComparisonType::UNSIGNED ||
                      a.getBitWidth() == 1;
  bool r = false;
  switch (op.getComparisonDirection()) {
  case stablehlo::ComparisonDirection::EQ:
    r = a == b;
    break;
  case stablehlo::ComparisonDirection::NE:
    r = a != b;
    break;
  case stablehlo::ComparisonDirection::GE:
    r = unsignedCompare ? a.uge(b) : a.sge(b);
    break;
  case stablehlo::ComparisonDirection::GT:
    r = unsignedCompare ? a.ugt(b) : a.sgt(b);
    break;
  case stablehlo::ComparisonDirection::LE:
    r = unsignedCompare ? a.ule(b) : a.sle(b);
    break;
  case stablehlo::ComparisonDirection::LT:
    r = unsignedCompare ? a.ult(b) : a.slt(b);
    break;
  }
  return APInt(1, r);
}

/// Data movement: each result position reads the operand position `source`
/// gives (or the op gives up when `source` returns a negative index).
template <typename Fn>
DenseIntElementsAttr move(RankedTensorType type, DenseIntElementsAttr operand,
                          Fn source) {
  Values in = elements(operand);
  Values out;
  for (int64_t i = 0; i < type.getNumElements(); ++i) {
    int64_t from = source(unflatten(i, type.getShape()));
    if (from < 0 || from >= static_cast<int64_t>(in.size()))
      return {};
    out.push_back(in[from]);
  }
  return make(type, out);
}

} // namespace

DenseIntElementsAttr evaluateShapeArithmetic(Operation *op,
                                             const KnownValues &known) {
  if (op->getNumResults() != 1 || isa<stablehlo::ConstantOp>(op))
    return {};
  RankedTensorType type = evaluable(op->getResult(0).getType());
  if (!type)
    return {};

  if (auto size = dyn_cast<stablehlo::GetDimensionSizeOp>(op)) {
    auto operandType = cast<RankedTensorType>(size.getOperand().getType());
    int64_t dim = size.getDimension();
    if (dim < 0 || dim >= operandType.getRank() ||
        operandType.isDynamicDim(dim))
      return {};
    return make(type, {APInt(32, operandType.getDimSize(dim))});
  }

  SmallVector<DenseIntElementsAttr> operands;
  for (Value operand : op->getOperands()) {
    DenseIntElementsAttr attr = known.lookup(operand);
    if (!attr)
      return {};
    operands.push_back(attr);
  }
  if (operands.empty())
    return {};
  unsigned width = type.getElementType().getIntOrFloatBitWidth();

  if (op->hasTrait<OpTrait::Elementwise>() && op->getNumOperands() == 2 &&
      !isa<stablehlo::CompareOp>(op)) {
    bool isUnsignedType = isUnsigned(op->getOperand(0).getType());
    return elementwise(type, operands, [&](ArrayRef<APInt> v) {
      return binary(op, v[0], v[1], isUnsignedType);
    });
  }
  return TypeSwitch<Operation *, DenseIntElementsAttr>(op)
      .Case([&](stablehlo::CompareOp compareOp) {
        bool isUnsignedType = isUnsigned(compareOp.getLhs().getType());
        return elementwise(type, operands, [&](ArrayRef<APInt> v) {
          return compare(compareOp, v[0], v[1], isUnsignedType);
        });
      })
      .Case([&](stablehlo::ConvertOp convert) {
        bool fromUnsigned = isUnsigned(convert.getOperand().getType());
        return elementwise(type, operands,
                           [&](ArrayRef<APInt> v) -> std::optional<APInt> {
                             if (width == 1)
                               return APInt(1, !v[0].isZero());
                             return fromUnsigned ? v[0].zextOrTrunc(width)
                                                 : v[0].sextOrTrunc(width);
                           });
      })
      .Case([&](stablehlo::NegOp) {
        return elementwise(type, operands,
                           [&](ArrayRef<APInt> v) -> std::optional<APInt> {
                             return -v[0];
                           });
      })
      .Case([&](stablehlo::NotOp) {
        return elementwise(type, operands,
                           [&](ArrayRef<APInt> v) -> std::optional<APInt> {
                             return ~v[0];
                           });
      })
      .Case([&](stablehlo::AbsOp) {
        return elementwise(type, operands,
                           [&](ArrayRef<APInt> v) -> std::optional<APInt> {
                             return v[0].isNegative() ? -v[0] : v[0];
                           });
      })
      .Case([&](stablehlo::SignOp) {
        bool unsignedType = isUnsigned(type);
        return elementwise(type, operands,
                           [&](ArrayRef<APInt> v) -> std::optional<APInt> {
                             if (v[0].isZero())
                               return v[0];
                             if (!unsignedType && v[0].isNegative())
                               return APInt::getAllOnes(width);
                             return APInt(width, 1);
                           });
      })
      .Case([&](stablehlo::SelectOp) {
        return elementwise(type, operands,
                           [&](ArrayRef<APInt> v) -> std::optional<APInt> {
                             return v[0].isZero() ? v[2] : v[1];
                           });
      })
      .Case([&](stablehlo::ClampOp) {
        bool unsignedType = isUnsigned(type);
        return elementwise(type, operands,
                           [&](ArrayRef<APInt> v) -> std::optional<APInt> {
                             const APInt &lo = v[0], &x = v[1], &hi = v[2];
                             APInt r = unsignedType ? llvm::APIntOps::umax(x, lo)
                                                    : llvm::APIntOps::smax(x, lo);
                             return unsignedType ? llvm::APIntOps::umin(r, hi)
                                                 : llvm::APIntOps::smin(r, hi);
                           });
      })
      .Case([&](stablehlo::ReshapeOp) {
        Values in = elements(operands[0]);
        if (static_cast<int64_t>(in.size()) != type.getNumElements())
          return DenseIntElementsAttr();
        return make(type, in);
      })
      .Case([&](stablehlo::BroadcastInDimOp broadcast) {
        auto operandType = cast<RankedTensorType>(operands[0].getType());
        ArrayRef<int64_t> dims = broadcast.getBroadcastDimensions();
        return move(type, operands[0], [&](ArrayRef<int64_t> index) {
          SmallVector<int64_t> from;
          for (auto [i, d] : llvm::enumerate(dims))
            from.push_back(operandType.getDimSize(i) == 1 ? 0 : index[d]);
          return flatten(from, operandType.getShape());
        });
      })
      .Case([&](stablehlo::TransposeOp transpose) {
        auto operandType = cast<RankedTensorType>(operands[0].getType());
        ArrayRef<int64_t> permutation = transpose.getPermutation();
        return move(type, operands[0], [&](ArrayRef<int64_t> index) {
          SmallVector<int64_t> from(index.size());
          for (auto [i, p] : llvm::enumerate(permutation))
            from[p] = index[i];
          return flatten(from, operandType.getShape());
        });
      })
      .Case([&](stablehlo::SliceOp slice) {
        auto operandType = cast<RankedTensorType>(operands[0].getType());
        return move(type, operands[0], [&](ArrayRef<int64_t> index) {
          SmallVector<int64_t> from;
          for (auto [i, start, stride] :
               llvm::zip(index, slice.getStartIndices(), slice.getStrides()))
            from.push_back(start + i * stride);
          return flatten(from, operandType.getShape());
        });
      })
      .Case([&](stablehlo::ConcatenateOp concat) {
        int64_t dim = concat.getDimension();
        Values out;
        for (int64_t i = 0; i < type.getNumElements(); ++i) {
          SmallVector<int64_t> index = unflatten(i, type.getShape());
          int64_t at = index[dim];
          bool found = false;
          for (DenseIntElementsAttr part : operands) {
            auto partType = cast<RankedTensorType>(part.getType());
            int64_t n = partType.getDimSize(dim);
            if (at < n) {
              index[dim] = at;
              out.push_back(elements(part)[flatten(index, partType.getShape())]);
              found = true;
              break;
            }
            at -= n;
          }
          if (!found)
            return DenseIntElementsAttr();
        }
        return make(type, out);
      })
      .Default([](Operation *) { return DenseIntElementsAttr(); });
}

} // namespace mlir::stablehlo_tvm
