//===- Utils.cpp - Shape helpers shared by the conversion patterns --------===//

#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

namespace mlir::stablehlo_tvm {

bool isTVMElementType(Type type) {
  return isa<IntegerType, FloatType>(type);
}

bool hasTVMTypes(Operation *op, bool allowDynamic) {
  auto ok = [&](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && (allowDynamic || tensor.hasStaticShape()) &&
           isTVMElementType(tensor.getElementType());
  };
  return llvm::all_of(op->getOperandTypes(), ok) &&
         llvm::all_of(op->getResultTypes(), ok);
}

bool canReshape(RankedTensorType from, ArrayRef<int64_t> to) {
  SmallVector<int64_t> fromDims, toDims;
  return llvm::count_if(to, ShapedType::isDynamic) <= 1 ||
         from.getShape() == to ||
         tvm::keepsDynamicDims(from.getShape(), to, fromDims, toDims);
}

/// The sizes of `shape`'s dynamic dimensions when `value`'s dynamic
/// dimensions are the same ones (keepsDynamicDims); std::nullopt otherwise.
static std::optional<SmallVector<Value>>
carriedSizes(OpBuilder &builder, Location loc, Value value,
             ArrayRef<int64_t> shape) {
  ArrayRef<int64_t> from = cast<RankedTensorType>(value.getType()).getShape();
  SmallVector<int64_t> fromPositions, toPositions;
  if (!tvm::keepsDynamicDims(from, shape, fromPositions, toPositions))
    return std::nullopt;
  return tvm::dynamicSizesOf(builder, loc, value);
}

Value reshapeTo(OpBuilder &builder, Location loc, Value value,
                ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  SmallVector<Value> sizes;
  if (llvm::count_if(shape, ShapedType::isDynamic) > 1) {
    // More than Relax can infer: the sizes carried over from `value`
    // (the verifier reports a reshape that has none).
    if (auto carried = carriedSizes(builder, loc, value, shape))
      sizes = std::move(*carried);
  }
  return tvm::ReshapeOp::create(builder, loc, resultType, value,
                                builder.getDenseI64ArrayAttr(tvm::shapeAttrOf(shape)),
                                sizes);
}

Value reshapeWithSizes(OpBuilder &builder, Location loc, Value value,
                       ArrayRef<int64_t> shape, ArrayRef<Value> sizes) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape &&
      llvm::count_if(shape, ShapedType::isDynamic) <= 1)
    return value;
  if (llvm::count_if(shape, ShapedType::isDynamic) <= 1)
    return reshapeTo(builder, loc, value, shape);
  return tvm::ReshapeOp::create(
      builder, loc, RankedTensorType::get(shape, type.getElementType()), value,
      builder.getDenseI64ArrayAttr(tvm::shapeAttrOf(shape)), sizes);
}

SmallVector<int64_t> permutedShape(ArrayRef<int64_t> shape,
                                   ArrayRef<int64_t> perm) {
  SmallVector<int64_t> result;
  for (int64_t p : perm)
    result.push_back(shape[p]);
  return result;
}

Value permuteDims(OpBuilder &builder, Location loc, Value value,
                  ArrayRef<int64_t> axes) {
  auto type = cast<RankedTensorType>(value.getType());
  bool identity = llvm::all_of(llvm::enumerate(axes), [](auto pair) {
    return static_cast<int64_t>(pair.index()) == pair.value();
  });
  if (identity)
    return value;
  auto resultType = type.clone(permutedShape(type.getShape(), axes));
  return tvm::PermuteDimsOp::create(builder, loc, resultType, value,
                                    builder.getDenseI64ArrayAttr(axes));
}

Value broadcastTo(OpBuilder &builder, Location loc, Value value,
                  ArrayRef<int64_t> shape, Value like) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  // A dynamic dimension is the one numpy broadcasting aligns with it.
  SmallVector<Value> sizes;
  int64_t offset = static_cast<int64_t>(shape.size()) - type.getRank();
  for (auto [i, dim] : llvm::enumerate(shape)) {
    int64_t from = static_cast<int64_t>(i) - offset;
    if (!ShapedType::isDynamic(dim))
      continue;
    if (from >= 0 && type.isDynamicDim(from))
      sizes.push_back(tvm::DimOp::create(builder, loc, value, from));
    else if (like)
      sizes.push_back(tvm::DimOp::create(builder, loc, like, i));
  }
  return tvm::BroadcastToOp::create(builder, loc, resultType, value,
                                    builder.getDenseI64ArrayAttr(tvm::shapeAttrOf(shape)),
                                    sizes);
}

Value indexConstant(OpBuilder &builder, Location loc,
                    ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                    builder.getI64Type());
  return tvm::ConstantOp::create(builder, loc, type,
                                 DenseIntElementsAttr::get(type, values));
}

Value maskConstant(OpBuilder &builder, Location loc, ArrayRef<bool> values) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                    builder.getI1Type());
  return tvm::ConstantOp::create(builder, loc, type,
                                 DenseIntElementsAttr::get(type, values));
}

Value broadcastAlong(OpBuilder &builder, Location loc, Value vector,
                     int64_t axis, ArrayRef<int64_t> shape, Value like) {
  SmallVector<int64_t> unit(shape.size(), 1);
  unit[axis] = shape[axis];
  return broadcastTo(builder, loc, reshapeTo(builder, loc, vector, unit), shape,
                     like);
}

Value computeWidened(
    OpBuilder &builder, Location loc, ValueRange operands,
    RankedTensorType resultType, unsigned minWidth,
    llvm::function_ref<Value(ValueRange, RankedTensorType)> build) {
  Type element =
      cast<RankedTensorType>(operands.front().getType()).getElementType();
  if (!isa<FloatType>(element) || element.getIntOrFloatBitWidth() >= minWidth)
    return build(operands, resultType);
  Type wideType =
      minWidth > 32 ? Type(builder.getF64Type()) : Type(builder.getF32Type());
  SmallVector<Value> wide;
  for (Value operand : operands) {
    auto type = cast<RankedTensorType>(operand.getType()).clone(wideType);
    wide.push_back(tvm::AsTypeOp::create(builder, loc, type, operand,
                                         TypeAttr::get(wideType)));
  }
  if (resultType.getElementType() != element)
    return build(wide, resultType);
  Value result = build(wide, resultType.clone(wideType));
  return tvm::AsTypeOp::create(builder, loc, resultType, result,
                               TypeAttr::get(element));
}

Value computeHalfInF32(
    OpBuilder &builder, Location loc, ValueRange operands,
    RankedTensorType resultType,
    llvm::function_ref<Value(ValueRange, RankedTensorType)> build) {
  return computeWidened(builder, loc, operands, resultType, 32, build);
}

Value astype(OpBuilder &builder, Location loc, Value value,
             RankedTensorType type) {
  if (value.getType() == type)
    return value;
  return tvm::AsTypeOp::create(builder, loc, type, value,
                               TypeAttr::get(type.getElementType()));
}

SaturationBounds saturationBounds(FloatType from, IntegerType to) {
  const llvm::fltSemantics &semantics = from.getFloatSemantics();
  unsigned width = to.getWidth();
  bool isUnsigned = to.isUnsigned();
  // A power of two in `from`, or its infinity when beyond its range.
  auto powerOfTwo = [&](unsigned exponent, bool negative) {
    APFloat value(semantics);
    APInt bits = APInt::getOneBitSet(exponent + 2, exponent);
    (void)value.convertFromAPInt(bits, /*IsSigned=*/false,
                                 APFloat::rmNearestTiesToEven);
    if (negative)
      value.changeSign();
    return value;
  };
  APFloat low = isUnsigned ? APFloat::getZero(semantics)
                           : powerOfTwo(width - 1, /*negative=*/true);
  std::optional<APFloat> underflow;
  if (low.isInfinity()) {
    underflow = low;
    low = APFloat::getLargest(semantics, /*Negative=*/true);
  }
  APFloat top = powerOfTwo(isUnsigned ? width : width - 1, false);
  APFloat highBelow = top;
  if (top.isInfinity())
    highBelow = APFloat::getLargest(semantics);
  else
    highBelow.next(/*nextDown=*/true);
  return SaturationBounds{
      low, highBelow, top, underflow,
      isUnsigned ? APInt::getMinValue(width) : APInt::getSignedMinValue(width),
      isUnsigned ? APInt::getMaxValue(width) : APInt::getSignedMaxValue(width)};
}

Value isNaN(OpBuilder &builder, Location loc, Value value) {
  auto boolType =
      cast<RankedTensorType>(value.getType()).clone(builder.getI1Type());
  // TVM's isnan takes f32 and f64 only; narrower floats widen exactly.
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getElementType().getIntOrFloatBitWidth() < 32)
    value = astype(builder, loc, value, type.clone(builder.getF32Type()));
  return tvm::IsNaNOp::create(builder, loc, boolType, value);
}

DenseFPElementsAttr floatConstantOf(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    if (isa<tvm::BroadcastToOp, tvm::ReshapeOp>(op)) {
      value = op->getOperand(0);
      continue;
    }
    auto constant = dyn_cast<tvm::ConstantOp>(op);
    return constant ? dyn_cast<DenseFPElementsAttr>(constant.getValue())
                    : nullptr;
  }
  return nullptr;
}

/// Whether `value` is a constant (perhaps reshaped or broadcast) with no
/// NaN among its elements.
static bool isConstantWithoutNaN(Value value) {
  DenseFPElementsAttr elements = floatConstantOf(value);
  if (!elements)
    return false;
  if (elements.isSplat())
    return !elements.getSplatValue<APFloat>().isNaN();
  return llvm::none_of(elements.getValues<APFloat>(),
                       [](const APFloat &v) { return v.isNaN(); });
}

Value nanPropagating(OpBuilder &builder, Location loc, Value x, Value y,
                     Value value) {
  auto type = cast<RankedTensorType>(x.getType());
  if (!isa<FloatType>(type.getElementType()))
    return value;
  auto boolType = type.clone(builder.getI1Type());
  // A constant operand without NaN (a ReLU's 0) needs no test of its own: a
  // mask of it would be a tensor of its own for the kernel to read.
  bool xNaN = !isConstantWithoutNaN(x), yNaN = !isConstantWithoutNaN(y);
  if (!xNaN && !yNaN)
    return value;
  if (!xNaN || !yNaN) {
    Value maybeNaN = xNaN ? x : y;
    return tvm::WhereOp::create(builder, loc, type,
                                isNaN(builder, loc, maybeNaN), maybeNaN, value);
  }
  Value nanX = isNaN(builder, loc, x);
  Value nanY = isNaN(builder, loc, y);
  Value anyNaN = tvm::LogicalOrOp::create(builder, loc, boolType, nanX, nanY);
  Value nan = tvm::AddOp::create(builder, loc, type, x, y);
  return tvm::WhereOp::create(builder, loc, type, anyNaN, nan, value);
}

Value splatConstant(OpBuilder &builder, Location loc, RankedTensorType type,
                    TypedAttr scalar, Value like) {
  auto scalarType = RankedTensorType::get({}, type.getElementType());
  Value value = tvm::ConstantOp::create(
      builder, loc, scalarType, DenseElementsAttr::get(scalarType, scalar));
  return broadcastTo(builder, loc, value, type.getShape(), like);
}

} // namespace mlir::stablehlo_tvm
