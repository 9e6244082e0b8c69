//===- SymbolicPad.cpp - dynamic_pad by symbolic amounts ------------------===//
//
// JAX pads by amounts computed from dimension sizes (jnp.pad of a
// polymorphic width) with dynamic_pad. Axis by axis, from ops that take
// sizes: interior padding puts the operand beside `interior` copies of the
// padding value along a new axis, flattens the two and drops the last gap;
// edge padding concatenates the padding value before and after. A negative
// amount (a crop) known only when the function runs is checked then: the
// call fails rather than computing something else.
//
//===----------------------------------------------------------------------===//

#include "SymbolicPad.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::stablehlo_tvm {
namespace {

class Padder {
public:
  Padder(OpBuilder &b, Location loc, Value padding)
      : b(b), loc(loc), padding(padding) {}

  Value constant(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  static int64_t staticOf(Value size) {
    return getConstantIntValue(size).value_or(ShapedType::kDynamic);
  }

  static bool isZero(Value size) { return staticOf(size) == 0; }

  /// Each dimension of `value` as an index value.
  SmallVector<Value> sizesOf(Value value) {
    auto type = cast<RankedTensorType>(value.getType());
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      sizes.push_back(type.isDynamicDim(d)
                          ? Value(tvm::DimOp::create(b, loc, value, d))
                          : constant(type.getDimSize(d)));
    return sizes;
  }

  RankedTensorType typeOf(ArrayRef<Value> sizes) {
    SmallVector<int64_t> shape;
    for (Value size : sizes)
      shape.push_back(staticOf(size));
    return RankedTensorType::get(shape, getElementTypeOrSelf(padding.getType()));
  }

  Value reshape(Value value, ArrayRef<Value> sizes) {
    RankedTensorType type = typeOf(sizes);
    if (type == value.getType())
      return value;
    return tvm::ReshapeOp::create(
        b, loc, type, value, b.getDenseI64ArrayAttr(tvm::shapeAttrOf(type.getShape())),
        tvm::dynamicSizesAmong(type, sizes));
  }

  /// The padding value in an array of `sizes`.
  Value filled(ArrayRef<Value> sizes) {
    SmallVector<Value> ones(sizes.size(), constant(1));
    Value unit = reshape(padding, ones);
    RankedTensorType type = typeOf(sizes);
    return tvm::BroadcastToOp::create(
        b, loc, type, unit, b.getDenseI64ArrayAttr(tvm::shapeAttrOf(type.getShape())),
        tvm::dynamicSizesAmong(type, sizes));
  }

  Value concatenate(ValueRange values, int64_t axis, ArrayRef<Value> sizes) {
    return stablehlo::ConcatenateOp::create(b, loc, typeOf(sizes), values, axis);
  }

  Value add(Value x, Value y) { return b.createOrFold<arith::AddIOp>(loc, x, y); }
  Value sub(Value x, Value y) { return b.createOrFold<arith::SubIOp>(loc, x, y); }
  Value mul(Value x, Value y) { return b.createOrFold<arith::MulIOp>(loc, x, y); }

  /// `value` with `interior` padding values between its elements along
  /// `axis`.
  Value interior(Value value, int64_t axis, Value gap) {
    SmallVector<Value> sizes = sizesOf(value);
    Value n = sizes[axis];
    SmallVector<Value> column(sizes), gaps(sizes), pairs(sizes);
    column.insert(column.begin() + axis + 1, constant(1));
    gaps.insert(gaps.begin() + axis + 1, gap);
    Value stride = add(constant(1), gap);
    pairs.insert(pairs.begin() + axis + 1, stride);
    Value joined = concatenate({reshape(value, column), filled(gaps)}, axis + 1, pairs);
    SmallVector<Value> flat(sizes);
    flat[axis] = mul(n, stride);
    Value spread = reshape(joined, flat);
    // The last element has no gap after it (and nothing is left of none).
    SmallVector<Value> kept(sizes);
    kept[axis] = b.createOrFold<arith::MaxSIOp>(loc, sub(flat[axis], gap), constant(0));
    RankedTensorType type = typeOf(kept);
    SmallVector<Value> operands(sizes.size(), constant(0));
    llvm::append_range(operands, tvm::dynamicSizesAmong(type, kept));
    return tvm::DynamicSliceOp::create(
        b, loc, type, spread, b.getDenseI64ArrayAttr(tvm::shapeAttrOf(type.getShape())),
        operands);
  }

  /// `value` with `low` padding values before it along `axis` and `high`
  /// after.
  Value edges(Value value, int64_t axis, Value low, Value high) {
    SmallVector<Value> sizes = sizesOf(value);
    SmallVector<Value> parts{value};
    SmallVector<Value> total(sizes);
    for (auto [amount, before] : {std::pair{low, true}, std::pair{high, false}}) {
      if (isZero(amount))
        continue;
      SmallVector<Value> side(sizes);
      side[axis] = amount;
      parts.insert(before ? parts.begin() : parts.end(), filled(side));
      total[axis] = add(total[axis], amount);
    }
    return parts.size() == 1 ? value : concatenate(parts, axis, total);
  }

private:
  OpBuilder &b;
  Location loc;
  Value padding;
};

} // namespace

Value symbolicDynamicPad(OpBuilder &b, stablehlo::DynamicPadOp op,
                         SymbolicElements &elements) {
  auto type = cast<RankedTensorType>(op.getType());
  int64_t rank = type.getRank();
  auto amounts = elements.ofEach({op.getEdgePaddingLow(), op.getEdgePaddingHigh(),
                                  op.getInteriorPadding()},
                                 rank);
  if (failed(amounts) || !isa<IntegerType, FloatType>(type.getElementType()))
    return {};
  ArrayRef<Value> low = (*amounts)[0], high = (*amounts)[1],
                  interior = (*amounts)[2];
  // Negative amounts: a crop when known now (left for a build per size),
  // an error when the function runs otherwise.
  llvm::SetVector<Value> unknown;
  for (ArrayRef<Value> side : {low, high, interior})
    for (Value amount : side) {
      int64_t known = Padder::staticOf(amount);
      if (!ShapedType::isDynamic(known) && known < 0)
        return {};
      if (ShapedType::isDynamic(known))
        unknown.insert(amount);
    }
  Location loc = op.getLoc();
  b.setInsertionPoint(op);
  Padder padder(b, loc, op.getPaddingValue());
  Value value = op.getOperand();
  if (!unknown.empty()) {
    Value zero = padder.constant(0);
    Value holds;
    for (Value amount : unknown) {
      Value nonNegative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, amount, zero);
      holds = holds ? arith::AndIOp::create(b, loc, holds, nonNegative).getResult() : nonNegative;
    }
    value = tvm::ShapeAssertionOp::create(
        b, loc, value.getType(), value, holds, ValueRange{},
        b.getStringAttr("dynamic_pad: a negative padding amount"));
  }
  for (int64_t axis = 0; axis < rank; ++axis) {
    if (!Padder::isZero(interior[axis]))
      value = padder.interior(value, axis, interior[axis]);
    value = padder.edges(value, axis, low[axis], high[axis]);
  }
  // The op's own type (a size this computed may be static where the op
  // says dynamic, or the other way).
  if (value.getType() != type) {
    value = tvm::ReshapeOp::create(
        b, loc, type, value, b.getDenseI64ArrayAttr(tvm::shapeAttrOf(type.getShape())),
        tvm::dynamicSizesAmong(type, padder.sizesOf(value)));
  }
  return value;
}

} // namespace mlir::stablehlo_tvm
