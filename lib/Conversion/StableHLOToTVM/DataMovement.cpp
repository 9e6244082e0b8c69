//===- DataMovement.cpp - Constants, shapes and slices to Relax -----------===//

#include "DeclineReasons.h"
#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/CHLO/IR/CHLO.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/STLExtras.h"

#include <numeric>

namespace mlir::stablehlo_tvm {
namespace {

struct ConstantConversion : TVMTypedPattern<stablehlo::ConstantOp> {
  using TVMTypedPattern::TVMTypedPattern;
  LogicalResult rewrite(stablehlo::ConstantOp op, OpAdaptor,
                        ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tvm::ConstantOp>(op, op.getType(),
                                                 op.getValue());
    return success();
  }
};

/// A side-effect-free op whose results hold no elements is zeros of those
/// types: nothing is computed, and some Relax operators reject empty
/// shapes (a convolution with an empty output axis).
struct EmptyResultConversion : ConversionPattern {
  EmptyResultConversion(MLIRContext *context)
      : ConversionPattern(MatchAnyOpTypeTag(), /*benefit=*/10, context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value>,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa_and_nonnull<stablehlo::StableHLODialect>(op->getDialect()) ||
        op->getNumResults() == 0 || !isMemoryEffectFree(op) ||
        !hasTVMTypes(op))
      return failure();
    SmallVector<Value> results;
    for (Type type : op->getResultTypes()) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || !tensor.hasStaticShape() || tensor.getNumElements() != 0)
        return failure();
      // Not a constant: TVM cannot serialize an empty one.
      results.push_back(tvm::ZerosOp::create(
          rewriter, op->getLoc(), tensor,
          rewriter.getDenseI64ArrayAttr(tensor.getShape()),
          TypeAttr::get(tensor.getElementType())));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// iota: a 1-D arange along `iota_dimension`, reshaped and broadcast.
struct IotaConversion : TVMTypedPattern<stablehlo::IotaOp> {
  using TVMTypedPattern::TVMTypedPattern;
  LogicalResult rewrite(stablehlo::IotaOp op, OpAdaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto type = op.getType();
    Type element = type.getElementType();
    if (element.isInteger(1))
      return decline(rewriter, op, "iota of i1");
    int64_t dim = op.getIotaDimension();
    int64_t size = type.getDimSize(dim);
    Location loc = op.getLoc();
    Value range = tvm::ArangeOp::create(
        rewriter, loc, RankedTensorType::get({size}, element),
        rewriter.getI64IntegerAttr(0), rewriter.getI64IntegerAttr(size),
        rewriter.getI64IntegerAttr(1), TypeAttr::get(element), Value());
    SmallVector<int64_t> shape(type.getRank(), 1);
    shape[dim] = size;
    range = reshapeTo(rewriter, loc, range, shape);
    rewriter.replaceOp(op, broadcastTo(rewriter, loc, range, type.getShape()));
    return success();
  }
};

/// broadcast_in_dim: order the operand's dimensions like the result's, insert
/// the missing dimensions as 1s, then broadcast numpy-style.
struct BroadcastInDimConversion : TVMTypedPattern<stablehlo::BroadcastInDimOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }
  LogicalResult rewrite(stablehlo::BroadcastInDimOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto operandType = cast<RankedTensorType>(op.getOperand().getType());
    auto resultType = op.getType();
    ArrayRef<int64_t> dims = op.getBroadcastDimensions();
    SmallVector<int64_t> order(dims.size());
    std::iota(order.begin(), order.end(), 0);
    llvm::sort(order, [&](int64_t a, int64_t b) { return dims[a] < dims[b]; });
    Location loc = op.getLoc();
    Value value = permuteDims(rewriter, loc, adaptor.getOperand(), order);
    SmallVector<int64_t> shape(resultType.getRank(), 1);
    for (int64_t i : order)
      shape[dims[i]] = operandType.getDimSize(i);
    // Each dynamic result dimension is a dynamic operand dimension's.
    for (int64_t d = 0; d < resultType.getRank(); ++d)
      if (resultType.isDynamicDim(d) && !ShapedType::isDynamic(shape[d]))
        return decline(rewriter, op, "a dynamic size it cannot tell");
    value = reshapeTo(rewriter, loc, value, shape);
    rewriter.replaceOp(op, broadcastTo(rewriter, loc, value,
                                       resultType.getShape()));
    return success();
  }
};

struct ReshapeConversion : TVMTypedPattern<stablehlo::ReshapeOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }
  LogicalResult rewrite(stablehlo::ReshapeOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    if (!canReshape(cast<RankedTensorType>(op.getOperand().getType()),
                    op.getType().getShape()))
      return decline(rewriter, op, "dynamic sizes it cannot tell");
    rewriter.replaceOp(op, reshapeTo(rewriter, op.getLoc(), adaptor.getOperand(),
                                     op.getType().getShape()));
    return success();
  }
};

struct TransposeConversion : TVMTypedPattern<stablehlo::TransposeOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }
  LogicalResult rewrite(stablehlo::TransposeOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, permuteDims(rewriter, op.getLoc(),
                                       adaptor.getOperand(),
                                       op.getPermutation()));
    return success();
  }
};

struct SliceConversion : TVMTypedPattern<stablehlo::SliceOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }
  LogicalResult rewrite(stablehlo::SliceOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto type = op.getType();
    if (type == op.getOperand().getType() && type.hasStaticShape()) {
      rewriter.replaceOp(op, adaptor.getOperand());
      return success();
    }
    // A dynamic dimension is only ever kept whole: it is not sliced.
    SmallVector<int64_t> axes, begin, end, strides;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      int64_t start = op.getStartIndices()[d], stride = op.getStrides()[d];
      if (type.isDynamicDim(d)) {
        if (start != 0 || stride != 1)
          return decline(rewriter, op, "slices a dynamic dimension");
        continue;
      }
      axes.push_back(d);
      begin.push_back(start);
      end.push_back(op.getLimitIndices()[d]);
      strides.push_back(stride);
    }
    rewriter.replaceOpWithNewOp<tvm::StridedSliceOp>(
        op, type, adaptor.getOperand(), rewriter.getDenseI64ArrayAttr(axes),
        rewriter.getDenseI64ArrayAttr(begin), rewriter.getDenseI64ArrayAttr(end),
        rewriter.getDenseI64ArrayAttr(strides));
    return success();
  }
};

struct ConcatenateConversion : TVMTypedPattern<stablehlo::ConcatenateOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }
  LogicalResult rewrite(stablehlo::ConcatenateOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    if (adaptor.getInputs().size() == 1) {
      rewriter.replaceOp(op, adaptor.getInputs().front());
      return success();
    }
    rewriter.replaceOpWithNewOp<tvm::ConcatOp>(op, op.getType(),
                                               adaptor.getInputs(),
                                               op.getDimensionAttr());
    return success();
  }
};


struct ReverseConversion : TVMTypedPattern<stablehlo::ReverseOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }
  LogicalResult rewrite(stablehlo::ReverseOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    Value value = adaptor.getOperand();
    for (int64_t dim : op.getDimensions())
      value = tvm::FlipOp::create(rewriter, op.getLoc(), value.getType(), value,
                                  rewriter.getI64IntegerAttr(dim));
    rewriter.replaceOp(op, value);
    return success();
  }
};

/// A constant splat as the double Relax's pad takes, when it holds the
/// value exactly.
std::optional<double> exactDouble(Value value) {
  // A constant converted to a float type it fits (JAX's jnp.pad passes its
  // padding value as an integer, converted).
  Value converted;
  if (auto convert = value.getDefiningOp<stablehlo::ConvertOp>())
    converted = convert.getOperand();
  else if (auto astype = value.getDefiningOp<tvm::AsTypeOp>())
    converted = astype.getX();
  if (converted) {
    auto to = dyn_cast<FloatType>(getElementTypeOrSelf(value.getType()));
    std::optional<double> number = exactDouble(converted);
    if (!to || !number)
      return std::nullopt;
    APFloat narrowed(*number);
    bool lost = false;
    if (narrowed.convert(to.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                         &lost) != APFloat::opOK || lost)
      return std::nullopt;
    return number;
  }
  DenseElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) || !attr.isSplat())
    return std::nullopt;
  Type type = attr.getElementType();
  if (isa<FloatType>(type)) {
    APFloat number = attr.getSplatValue<APFloat>();
    bool lost = false;
    if (number.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                       &lost) != APFloat::opOK || lost)
      return std::nullopt;
    return number.convertToDouble();
  }
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType || intType.getWidth() == 1)
    return std::nullopt;
  APInt number = attr.getSplatValue<APInt>();
  if (intType.isUnsigned())
    return number.getActiveBits() <= 53
               ? std::optional<double>(number.getZExtValue())
               : std::nullopt;
  return number.getSignificantBits() <= 54
             ? std::optional<double>(number.getSExtValue())
             : std::nullopt;
}

/// pad. Edge padding with a constant is Relax's own pad: one element-wise
/// kernel that fuses into its consumer (a convolution's patches). Otherwise
/// one axis at a time: a take from precomputed source positions, then the
/// padding value where no source element lands, which covers negative edge
/// padding (a crop) and interior padding alike.
/// The longest axis PadConversion gives index and mask constants.
constexpr int64_t kMaxPaddedAxis = int64_t(1) << 24;

struct PadConversion : TVMTypedPattern<stablehlo::PadOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }
  LogicalResult rewrite(stablehlo::PadOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    auto resultType = op.getType();
    Location loc = op.getLoc();
    auto operandType = cast<RankedTensorType>(op.getOperand().getType());
    // Dynamic dimensions stay whole: the padding is along static ones.
    for (int64_t d = 0; d < resultType.getRank(); ++d)
      if (resultType.isDynamicDim(d) &&
          (op.getEdgePaddingLow()[d] != 0 || op.getEdgePaddingHigh()[d] != 0 ||
           op.getInteriorPadding()[d] != 0))
        return decline(rewriter, op, "pads a dynamic dimension");
    if (resultType.hasStaticShape() &&
        (resultType.getNumElements() == 0 ||
         (operandType.hasStaticShape() && operandType.getNumElements() == 0))) {
      // Nothing to take from (every element is padding); TVM cannot hold
      // an empty constant either.
      rewriter.replaceOp(op, broadcastTo(rewriter, loc,
                                         adaptor.getPaddingValue(),
                                         resultType.getShape()));
      return success();
    }
    std::optional<double> constant = exactDouble(op.getPaddingValue());
    if (constant && llvm::all_of(op.getInteriorPadding(),
                                 [](int64_t v) { return v == 0; }) &&
        llvm::all_of(op.getEdgePaddingLow(), [](int64_t v) { return v >= 0; }) &&
        llvm::all_of(op.getEdgePaddingHigh(), [](int64_t v) { return v >= 0; })) {
      SmallVector<int64_t> widths;
      for (auto [low, high] :
           llvm::zip(op.getEdgePaddingLow(), op.getEdgePaddingHigh()))
        widths.append({low, high});
      rewriter.replaceOpWithNewOp<tvm::PadOp>(
          op, resultType, adaptor.getOperand(),
          rewriter.getDenseI64ArrayAttr(widths),
          rewriter.getStringAttr("constant"), rewriter.getF64FloatAttr(*constant));
      return success();
    }
    // Interior or negative padding takes each axis through index and mask
    // constants of the padded length: decided before anything is built.
    for (int64_t axis = 0; axis < resultType.getRank(); ++axis)
      if (resultType.getDimSize(axis) > kMaxPaddedAxis)
        return decline(
            rewriter, op,
            "interior or negative padding of an axis longer than 2^24");
    Value value = adaptor.getOperand();
    for (int64_t axis = 0; axis < resultType.getRank(); ++axis) {
      int64_t low = op.getEdgePaddingLow()[axis];
      int64_t high = op.getEdgePaddingHigh()[axis];
      int64_t interior = op.getInteriorPadding()[axis];
      if (low == 0 && high == 0 && interior == 0)
        continue;
      auto type = cast<RankedTensorType>(value.getType());
      int64_t size = type.getDimSize(axis);
      int64_t outSize = resultType.getDimSize(axis);
      if (size == 0 || outSize == 0)
        return decline(rewriter, op, "padding of an empty axis");
      SmallVector<int64_t> source(outSize);
      SmallVector<bool> present(outSize);
      for (int64_t o = 0; o < outSize; ++o) {
        int64_t j = o - low;
        bool hit = j >= 0 && j % (interior + 1) == 0 && j / (interior + 1) < size;
        present[o] = hit;
        source[o] = hit ? j / (interior + 1) : 0;
      }
      SmallVector<int64_t> shape(type.getShape());
      shape[axis] = outSize;
      auto takenType = RankedTensorType::get(shape, type.getElementType());
      Value taken = tvm::TakeOp::create(rewriter, loc, takenType, value,
                                        indexConstant(rewriter, loc, source),
                                        rewriter.getI64IntegerAttr(axis));
      Value mask = broadcastAlong(rewriter, loc,
                                  maskConstant(rewriter, loc, present), axis,
                                  shape, taken);
      Value padding =
          broadcastTo(rewriter, loc, adaptor.getPaddingValue(), shape, taken);
      value = tvm::WhereOp::create(rewriter, loc, takenType, mask, taken, padding);
    }
    rewriter.replaceOp(op, value);
    return success();
  }
};

/// A start index clamped to [0, limit], as an i64 scalar tensor.
Value clampedStart(OpBuilder &builder, Location loc, Value start,
                   int64_t limit) {
  Type i64 = builder.getI64Type();
  auto scalar = RankedTensorType::get({}, i64);
  if (cast<RankedTensorType>(start.getType()).getElementType() != i64)
    start = tvm::AsTypeOp::create(builder, loc, scalar, start,
                                  TypeAttr::get(i64));
  Value zero = splatConstant(builder, loc, scalar, builder.getI64IntegerAttr(0));
  Value max = splatConstant(builder, loc, scalar,
                            builder.getI64IntegerAttr(limit));
  start = tvm::MaximumOp::create(builder, loc, scalar, start, zero);
  return tvm::MinimumOp::create(builder, loc, scalar, start, max);
}

/// `start + [0, 1, ..., count)`, an i64 vector.
Value rangeFrom(OpBuilder &builder, Location loc, Value start, int64_t count,
                int64_t offset = 0) {
  SmallVector<int64_t> values(count);
  std::iota(values.begin(), values.end(), offset);
  Value range = indexConstant(builder, loc, values);
  auto type = cast<RankedTensorType>(range.getType());
  return tvm::AddOp::create(builder, loc, type, range,
                            broadcastTo(builder, loc, start, type.getShape()));
}

/// dynamic_slice: per axis, a take of `clamp(start) + arange(size)`.
struct DynamicSliceConversion : TVMTypedPattern<stablehlo::DynamicSliceOp> {
  using TVMTypedPattern::TVMTypedPattern;
  LogicalResult rewrite(stablehlo::DynamicSliceOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value value = adaptor.getOperand();
    auto operandType = cast<RankedTensorType>(value.getType());
    for (auto [axis, size] : llvm::enumerate(op.getSliceSizes())) {
      int64_t dim = operandType.getDimSize(axis);
      if (size == dim)
        continue;
      Value start = clampedStart(rewriter, loc, adaptor.getStartIndices()[axis],
                                 dim - size);
      auto type = cast<RankedTensorType>(value.getType());
      SmallVector<int64_t> shape(type.getShape());
      shape[axis] = size;
      value = tvm::TakeOp::create(
          rewriter, loc, RankedTensorType::get(shape, type.getElementType()),
          value, rangeFrom(rewriter, loc, start, size),
          rewriter.getI64IntegerAttr(axis));
    }
    rewriter.replaceOp(op, value);
    return success();
  }
};

/// dynamic_update_slice: the update spread over the operand's shape by takes
/// of `clip(i - start, 0, size - 1)`, selected where `start <= i < start +
/// size` on every axis; marked `tvm.in_place`, tvm.update_slice_in_place.
struct DynamicUpdateSliceConversion
    : TVMTypedPattern<stablehlo::DynamicUpdateSliceOp> {
  using TVMTypedPattern::TVMTypedPattern;
  LogicalResult rewrite(stablehlo::DynamicUpdateSliceOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    auto updateType = cast<RankedTensorType>(op.getUpdate().getType());
    if (updateType.getNumElements() == 0) {
      rewriter.replaceOp(op, adaptor.getOperand());
      return success();
    }
    if (op->hasAttr(tvm::TVMDialect::InPlaceAttrHelper::getNameStr())) {
      // See stablehlo-update-loop-slices-in-place: nothing reads the
      // operand after this, only the window is written.
      SmallVector<Value> starts;
      for (int64_t axis = 0; axis < type.getRank(); ++axis)
        starts.push_back(clampedStart(
            rewriter, loc, adaptor.getStartIndices()[axis],
            type.getDimSize(axis) - updateType.getDimSize(axis)));
      rewriter.replaceOpWithNewOp<tvm::UpdateSliceInPlaceOp>(
          op, adaptor.getOperand().getType(), adaptor.getOperand(),
          adaptor.getUpdate(), starts);
      return success();
    }
    Value spread = adaptor.getUpdate();
    Value mask;
    auto boolType = type.clone(rewriter.getI1Type());
    for (int64_t axis = 0; axis < type.getRank(); ++axis) {
      int64_t dim = type.getDimSize(axis);
      int64_t size = updateType.getDimSize(axis);
      Value start = clampedStart(rewriter, loc, adaptor.getStartIndices()[axis],
                                 dim - size);
      auto negStart = tvm::NegativeOp::create(rewriter, loc, start.getType(), start);
      // i - start for every output position i.
      Value offset = rangeFrom(rewriter, loc, negStart, dim);
      auto vecType = cast<RankedTensorType>(offset.getType());
      auto bound = [&](int64_t v) {
        return splatConstant(rewriter, loc, vecType,
                             rewriter.getI64IntegerAttr(v));
      };
      auto vecBool = vecType.clone(rewriter.getI1Type());
      Value zero = bound(0);
      Value end = bound(size);
      Value last = bound(size - 1);
      Value afterStart =
          tvm::GreaterEqualOp::create(rewriter, loc, vecBool, offset, zero);
      Value beforeEnd = tvm::LessOp::create(rewriter, loc, vecBool, offset, end);
      Value inside = tvm::LogicalAndOp::create(rewriter, loc, vecBool,
                                               afterStart, beforeEnd);
      Value nonNegative =
          tvm::MaximumOp::create(rewriter, loc, vecType, offset, zero);
      Value source =
          tvm::MinimumOp::create(rewriter, loc, vecType, nonNegative, last);
      auto spreadType = cast<RankedTensorType>(spread.getType());
      SmallVector<int64_t> shape(spreadType.getShape());
      shape[axis] = dim;
      spread = tvm::TakeOp::create(
          rewriter, loc, RankedTensorType::get(shape, type.getElementType()),
          spread, source, rewriter.getI64IntegerAttr(axis));
      Value axisMask = broadcastAlong(rewriter, loc, inside, axis,
                                      type.getShape());
      mask = mask ? tvm::LogicalAndOp::create(rewriter, loc, boolType, mask,
                                              axisMask)
                  : axisMask;
    }
    if (!mask) {
      rewriter.replaceOp(op, spread);
      return success();
    }
    rewriter.replaceOpWithNewOp<tvm::WhereOp>(op, type, mask, spread,
                                              adaptor.getOperand());
    return success();
  }
};

/// chlo.top_k: the k largest along the last axis, ties by lower index.
/// TVM's topk sorts 32/64-bit signed integers; everything else is sorted
/// through an order-preserving integer key and mapped back: floats by their
/// totalOrder key (NaN above +inf, as chlo.top_k orders), uint64 with its
/// sign bit flipped, narrower integers (and booleans, true above false)
/// widened exactly.
struct TopKConversion : TVMTypedPattern<chlo::TopKOp> {
  using TVMTypedPattern::TVMTypedPattern;

  LogicalResult
  rewrite(chlo::TopKOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getOperand().getType());
    auto valuesType = cast<RankedTensorType>(op.getValues().getType());
    Type indexType = op.getIndices().getType().getElementType();
    Type element = type.getElementType();
    unsigned width = element.getIntOrFloatBitWidth();
    auto intType = dyn_cast<IntegerType>(element);
    bool flipSign = intType && intType.isUnsigned() && width == 64;
    Type keyType = rewriter.getIntegerType(
        intType && intType.isUnsigned() && width == 32 ? 64
                                                       : std::max(width, 32u));
    Value keys;
    if (intType && !flipSign) {
      keys = tvm::AsTypeOp::create(rewriter, loc, type.clone(keyType),
                                   adaptor.getOperand(), TypeAttr::get(keyType));
    } else {
      keys = buildElementwiseKernel(
          rewriter, loc, "top_k_keys", adaptor.getOperand(),
          type.clone(keyType),
          [&](OpBuilder &b, Location l, ValueRange x) -> SmallVector<Value> {
            Value key = flipSign ? flipSignBit(b, l, x[0])
                                 : totalOrderKey(b, l, x[0]);
            if (width < 32)
              key = arith::ExtSIOp::create(b, l, b.getI32Type(), key);
            return {key};
          })[0];
    }
    auto topk = tvm::TopKOp::create(
        rewriter, loc, valuesType.clone(keyType), op.getIndices().getType(),
        keys, rewriter.getI64IntegerAttr(op.getK()),
        rewriter.getI64IntegerAttr(type.getRank() - 1),
        rewriter.getStringAttr("both"), rewriter.getBoolAttr(true),
        TypeAttr::get(indexType));
    Value values = topk.getValues();
    if (intType && !flipSign) {
      values = tvm::AsTypeOp::create(rewriter, loc, valuesType, values,
                                     TypeAttr::get(element));
    } else {
      Type scalar = flipSign ? rewriter.getI64Type() : element;
      values = buildElementwiseKernel(
          rewriter, loc, "top_k_values", values, valuesType,
          [&](OpBuilder &b, Location l, ValueRange key) -> SmallVector<Value> {
            Value k = key[0];
            if (width < 32)
              k = arith::TruncIOp::create(b, l, b.getIntegerType(width), k);
            return {flipSign ? flipSignBit(b, l, k)
                             : fromTotalOrderKey(b, l, scalar, k)};
          })[0];
    }
    rewriter.replaceOp(op, {values, topk.getIndices()});
    return success();
  }

  static Value flipSignBit(OpBuilder &b, Location loc, Value x) {
    Value sign = arith::ConstantOp::create(
        b, loc, x.getType(), b.getIntegerAttr(x.getType(), APInt::getSignMask(64)));
    return arith::XOrIOp::create(b, loc, x, sign);
  }
};

} // namespace

void populateDataMovementPatterns(MLIRContext *context,
                                  RewritePatternSet &patterns) {
  patterns.add<ConstantConversion, IotaConversion, BroadcastInDimConversion,
               ReshapeConversion, TransposeConversion, SliceConversion,
               ConcatenateConversion, ReverseConversion, PadConversion,
               DynamicSliceConversion, DynamicUpdateSliceConversion,
               TopKConversion, EmptyResultConversion>(context);
}

} // namespace mlir::stablehlo_tvm
