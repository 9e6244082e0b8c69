//===- LowerQuantized.cpp - Quantized tensors as integer code --------------===//
//
// A tensor of `!quant.uniform<storage:expressed, scale:zero_point>` holds
// storage integers q standing for expressed values (q - zero_point) * scale.
// This pass gives every op on such tensors its meaning in ops on storage
// integers and floats, then lets the storage type stand in for the quantized
// one everywhere:
// - uniform_quantize / uniform_dequantize become their arithmetic;
// - dot_general and convolution of two quantized operands multiply storage
//   values minus zero points in i32 and requantize the sums once;
// - other computing ops (add, tanh, compare, ...) follow the spec's
//   dequantize-op-quantize definition;
// - data movement ops (reshape, gather, pad, select, ...) and ops with regions
//   keep their operands' storage values untouched; the ops in their regions
//   are lowered like any other.
//
//===----------------------------------------------------------------------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "stablehlo-tvm/Dialect/CHLO/IR/CHLO.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_LOWERQUANTIZED
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

using quant::QuantizedType;
using quant::UniformQuantizedPerAxisType;
using quant::UniformQuantizedType;

/// Scales and zero points of a uniform quantized type; `axis` is the
/// quantized dimension of a per-axis type, -1 for a per-tensor one.
struct Quantization {
  QuantizedType type;
  SmallVector<double> scales;
  SmallVector<int64_t> zeroPoints;
  int64_t axis = -1;

  static std::optional<Quantization> of(Type element) {
    Quantization q;
    if (auto uniform = dyn_cast<UniformQuantizedType>(element)) {
      q.type = uniform;
      q.scales = {uniform.getScale()};
      q.zeroPoints = {uniform.getZeroPoint()};
      return q;
    }
    if (auto perAxis = dyn_cast<UniformQuantizedPerAxisType>(element)) {
      q.type = perAxis;
      q.scales.assign(perAxis.getScales().begin(), perAxis.getScales().end());
      q.zeroPoints.assign(perAxis.getZeroPoints().begin(),
                          perAxis.getZeroPoints().end());
      q.axis = perAxis.getQuantizedDimension();
      return q;
    }
    return std::nullopt;
  }

  bool zeroPointsAreZero() const {
    return llvm::all_of(zeroPoints, [](int64_t z) { return z == 0; });
  }
};

bool isQuantized(Type type) {
  return isa<QuantizedType>(getElementTypeOrSelf(type));
}

/// The storage type as the stablehlo dialect spells integers: signless for
/// signed storage, `ui` for unsigned.
Type storageElementType(QuantizedType type) {
  return IntegerType::get(type.getContext(),
                          type.getStorageTypeIntegralWidth(),
                          type.isSigned() ? IntegerType::Signless
                                          : IntegerType::Unsigned);
}

Type stripQuantization(Type type) {
  if (auto quantized = dyn_cast<QuantizedType>(type))
    return storageElementType(quantized);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    if (auto quantized = dyn_cast<QuantizedType>(tensor.getElementType()))
      return tensor.clone(storageElementType(quantized));
  return type;
}

RankedTensorType withElement(Value value, Type element) {
  return cast<RankedTensorType>(value.getType()).clone(element);
}

/// `values` (one, or one per index of dimension `axis`) as a tensor of
/// `type`, broadcast along `axis`.
Value parameters(OpBuilder &b, Location loc, RankedTensorType type,
                 ArrayRef<double> values, int64_t axis) {
  Type element = type.getElementType();
  auto attr = [&](double v) -> Attribute {
    if (isa<FloatType>(element))
      return FloatAttr::get(element, v);
    return IntegerAttr::get(element, static_cast<int64_t>(v));
  };
  if (values.size() == 1 ||
      llvm::all_of(values, [&](double v) { return v == values.front(); }))
    return stablehlo::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, attr(values.front())));
  SmallVector<Attribute> attrs = llvm::map_to_vector(values, attr);
  auto vectorType = RankedTensorType::get({int64_t(values.size())}, element);
  Value vector = stablehlo::ConstantOp::create(
      b, loc, DenseElementsAttr::get(vectorType, attrs));
  return stablehlo::BroadcastInDimOp::create(b, loc, type, vector,
                                             b.getDenseI64ArrayAttr({axis}));
}

Value scalar(OpBuilder &b, Location loc, Type element, double value) {
  return parameters(b, loc, RankedTensorType::get({}, element), {value}, -1);
}

SmallVector<double> asDoubles(ArrayRef<int64_t> values) {
  return llvm::map_to_vector(values, [](int64_t v) { return double(v); });
}

/// The storage integers of quantized `value`.
Value storage(OpBuilder &b, Location loc, Value value) {
  auto type = cast<QuantizedType>(getElementTypeOrSelf(value));
  return stablehlo::BitcastConvertOp::create(
      b, loc, withElement(value, storageElementType(type)), value);
}

/// Storage values minus zero points, as `wide` integers.
Value centered(OpBuilder &b, Location loc, Value value, Type wide) {
  auto q = *Quantization::of(getElementTypeOrSelf(value));
  Value x = stablehlo::ConvertOp::create(b, loc, withElement(value, wide),
                                         storage(b, loc, value));
  if (q.zeroPointsAreZero())
    return x;
  return stablehlo::SubtractOp::create(
      b, loc, x,
      parameters(b, loc, withElement(value, wide), asDoubles(q.zeroPoints),
                 q.axis));
}

/// The spec's dequantize: (storage - zero_point) * scale, in the expressed
/// type. The difference must not wrap: storage of 16 bits or fewer is
/// converted first and the difference taken in f32, where it is exact (and
/// no integer arithmetic reaches kernel bodies); wider storage subtracts in
/// i64.
Value dequantize(OpBuilder &b, Location loc, Value value) {
  auto q = *Quantization::of(getElementTypeOrSelf(value));
  Type expressed = q.type.getExpressedType();
  Value x;
  if (q.type.getStorageTypeIntegralWidth() <= 16) {
    Type f32 = b.getF32Type();
    x = stablehlo::ConvertOp::create(b, loc, withElement(value, f32),
                                     storage(b, loc, value));
    if (!q.zeroPointsAreZero())
      x = stablehlo::SubtractOp::create(
          b, loc, x,
          parameters(b, loc, withElement(value, f32), asDoubles(q.zeroPoints),
                     q.axis));
    if (expressed != f32)
      x = stablehlo::ConvertOp::create(b, loc, withElement(value, expressed), x);
  } else {
    x = stablehlo::ConvertOp::create(
        b, loc, withElement(value, expressed),
        centered(b, loc, value, b.getIntegerType(64)));
  }
  return stablehlo::MulOp::create(
      b, loc, x,
      parameters(b, loc, withElement(value, expressed), q.scales, q.axis));
}

/// Round `x` (expressed values already divided by the scale) to storage
/// integers of `type`: add zero points, round half to even, clamp to the
/// storage range.
Value toStorage(OpBuilder &b, Location loc, Value x, const Quantization &q,
                RankedTensorType type) {
  Type element = getElementTypeOrSelf(x);
  if (!q.zeroPointsAreZero())
    x = stablehlo::AddOp::create(
        b, loc, x,
        parameters(b, loc, withElement(x, element), asDoubles(q.zeroPoints),
                   q.axis));
  x = stablehlo::RoundNearestEvenOp::create(b, loc, x.getType(), x);
  Value low = scalar(b, loc, element, double(q.type.getStorageTypeMin()));
  Value high = scalar(b, loc, element, double(q.type.getStorageTypeMax()));
  x = stablehlo::ClampOp::create(b, loc, x.getType(), low, x, high);
  Value stored = stablehlo::ConvertOp::create(
      b, loc, type.clone(storageElementType(q.type)), x);
  return stablehlo::BitcastConvertOp::create(b, loc, type, stored);
}

/// The spec's quantize of float `x` to quantized tensor type `type`:
/// round(x / scale + zero_point), clamped, in the expressed type.
Value quantize(OpBuilder &b, Location loc, Value x, RankedTensorType type) {
  auto q = *Quantization::of(type.getElementType());
  Type expressed = q.type.getExpressedType();
  if (getElementTypeOrSelf(x) != expressed)
    x = stablehlo::ConvertOp::create(b, loc, withElement(x, expressed), x);
  x = stablehlo::DivOp::create(
      b, loc, x,
      parameters(b, loc, withElement(x, expressed), q.scales, q.axis));
  return toStorage(b, loc, x, q, type);
}

//===----------------------------------------------------------------------===//
// Op by op
//===----------------------------------------------------------------------===//

void lowerQuantize(stablehlo::UniformQuantizeOp op) {
  OpBuilder b(op);
  Value operand = op.getOperand();
  if (operand.getType() == op.getType()) {
    op.replaceAllUsesWith(operand);
    op.erase();
    return;
  }
  if (isQuantized(operand.getType()))
    operand = dequantize(b, op.getLoc(), operand);
  op.replaceAllUsesWith(quantize(b, op.getLoc(), operand, op.getType()));
  op.erase();
}

void lowerDequantize(stablehlo::UniformDequantizeOp op) {
  OpBuilder b(op);
  op.replaceAllUsesWith(dequantize(b, op.getLoc(), op.getOperand()));
  op.erase();
}

/// The result dimension that dimension `rhsDim` of a product's rhs becomes,
/// if it becomes one (the products below scale rhs's quantized dimension).
std::optional<int64_t> resultDimOfRhs(Operation *op, int64_t rhsDim) {
  if (auto conv = dyn_cast<stablehlo::ConvolutionOp>(op)) {
    auto dims = conv.getDimensionNumbers();
    if (rhsDim != dims.getKernelOutputFeatureDimension())
      return std::nullopt;
    return dims.getOutputFeatureDimension();
  }
  auto dot = cast<stablehlo::DotGeneralOp>(op);
  auto dims = dot.getDotDimensionNumbers();
  ArrayRef<int64_t> batch = dims.getRhsBatchingDimensions();
  if (auto *it = llvm::find(batch, rhsDim); it != batch.end())
    return it - batch.begin();
  if (llvm::is_contained(dims.getRhsContractingDimensions(), rhsDim))
    return std::nullopt;
  // Result dimensions: batch, then lhs's free ones, then rhs's free ones.
  int64_t lhsRank = cast<RankedTensorType>(dot.getLhs().getType()).getRank();
  int64_t position = lhsRank - dims.getLhsContractingDimensions().size();
  for (int64_t d = 0; d < rhsDim; ++d)
    if (!llvm::is_contained(batch, d) &&
        !llvm::is_contained(dims.getRhsContractingDimensions(), d))
      ++position;
  return position;
}

/// Per-channel factors of a product's result: `values` along `axis`, where
/// `values` may hold one value (no axis) or one per channel.
struct Channels {
  SmallVector<double> values;
  int64_t axis = -1;
};

/// a[i] * b[i] (or / b[i]) over channels that must share one axis.
std::optional<Channels> combine(const Channels &a, const Channels &b,
                                bool divide) {
  if (a.axis >= 0 && b.axis >= 0 &&
      (a.axis != b.axis || a.values.size() != b.values.size()))
    return std::nullopt;
  Channels c;
  c.axis = a.axis >= 0 ? a.axis : b.axis;
  size_t n = std::max(a.values.size(), b.values.size());
  for (size_t i = 0; i < n; ++i) {
    double x = a.values[a.values.size() == 1 ? 0 : i];
    double y = b.values[b.values.size() == 1 ? 0 : i];
    c.values.push_back(divide ? x / y : x * y);
  }
  return c;
}

/// x summed over `dims` (i32), the others kept in order.
Value sumOver(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> dims) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (!llvm::is_contained(dims, d))
      kept.push_back(type.getDimSize(d));
  Type i32 = b.getI32Type();
  auto scalarType = RankedTensorType::get({}, i32);
  Value zero = stablehlo::ConstantOp::create(
      b, loc, DenseElementsAttr::get(scalarType, b.getI32IntegerAttr(0)));
  auto reduce = stablehlo::ReduceOp::create(
      b, loc, TypeRange{RankedTensorType::get(kept, i32)}, ValueRange{x},
      ValueRange{zero}, b.getDenseI64ArrayAttr(dims));
  Block *body = b.createBlock(&reduce.getBody(), {}, {scalarType, scalarType},
                              {loc, loc});
  Value sum = stablehlo::AddOp::create(b, loc, body->getArgument(0),
                                       body->getArgument(1));
  stablehlo::ReturnOp::create(b, loc, ValueRange{sum});
  b.setInsertionPointAfter(reduce);
  return reduce.getResult(0);
}

/// The product's sums of (lhs - lhs zero point) * (rhs - rhs zero point),
/// in i32. Storage integers of 8 bits or fewer feed the product as they are
/// (an int8 x int8 product summing in i32 has fast kernels) when the zero
/// points are 0, or for dot_general when only lhs's is not: its share,
/// lhs_zero_point * (rhs summed over the contracting dimensions), is then
/// subtracted. Otherwise both operands are centered in i32 first.
Value integerSums(OpBuilder &b, Operation *op, const Quantization &ql,
                  const Quantization &qr, RankedTensorType type) {
  Location loc = op->getLoc();
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  Type i32 = b.getI32Type();
  auto product = [&](Value l, Value r) {
    OperationState state(loc, op->getName().getStringRef(), ValueRange{l, r},
                         TypeRange{type}, op->getAttrs());
    return b.create(state)->getResult(0);
  };
  bool narrow = ql.type.getStorageTypeIntegralWidth() <= 8 &&
                qr.type.getStorageTypeIntegralWidth() <= 8 &&
                storageElementType(ql.type) == storageElementType(qr.type);
  auto dot = dyn_cast<stablehlo::DotGeneralOp>(op);
  // (Operands are built in order: arguments of one call would not be.)
  if (!narrow || !qr.zeroPointsAreZero() ||
      (!ql.zeroPointsAreZero() && !dot)) {
    Value l = centered(b, loc, lhs, i32);
    Value r = centered(b, loc, rhs, i32);
    return product(l, r);
  }
  Value l = storage(b, loc, lhs);
  Value r = storage(b, loc, rhs);
  Value sums = product(l, r);
  if (ql.zeroPointsAreZero())
    return sums;
  auto dims = dot.getDotDimensionNumbers();
  Value rhsWide = stablehlo::ConvertOp::create(b, loc, withElement(rhs, i32), r);
  // Kept rhs dimensions: batch first, then free (the result's order), as
  // sumOver keeps them in rhs's order; a transpose puts batch first.
  SmallVector<int64_t> order(dims.getRhsBatchingDimensions());
  int64_t rhsRank = cast<RankedTensorType>(rhs.getType()).getRank();
  for (int64_t d = 0; d < rhsRank; ++d)
    if (!llvm::is_contained(dims.getRhsBatchingDimensions(), d) &&
        !llvm::is_contained(dims.getRhsContractingDimensions(), d))
      order.push_back(d);
  SmallVector<int64_t> kept = llvm::to_vector(order);
  llvm::sort(kept);
  SmallVector<int64_t> permutation = llvm::map_to_vector(order, [&](int64_t d) {
    return int64_t(llvm::find(kept, d) - kept.begin());
  });
  Value rhsSums = sumOver(b, loc, rhsWide, dims.getRhsContractingDimensions());
  if (!llvm::is_sorted(order)) {
    auto sumsType = cast<RankedTensorType>(rhsSums.getType());
    SmallVector<int64_t> shape = llvm::map_to_vector(
        permutation, [&](int64_t p) { return sumsType.getDimSize(p); });
    rhsSums = stablehlo::TransposeOp::create(
        b, loc, RankedTensorType::get(shape, i32), rhsSums,
        b.getDenseI64ArrayAttr(permutation));
  }
  // Into the result's shape: batch dims lead, rhs's free dims end it.
  int64_t batch = dims.getRhsBatchingDimensions().size();
  int64_t free = order.size() - batch;
  SmallVector<int64_t> into;
  for (int64_t d = 0; d < batch; ++d)
    into.push_back(d);
  for (int64_t d = 0; d < free; ++d)
    into.push_back(type.getRank() - free + d);
  Value spread = stablehlo::BroadcastInDimOp::create(
      b, loc, type, rhsSums, b.getDenseI64ArrayAttr(into));
  Value zeroPoint =
      parameters(b, loc, type, {double(ql.zeroPoints.front())}, -1);
  Value shares = stablehlo::MulOp::create(b, loc, spread, zeroPoint);
  return stablehlo::SubtractOp::create(b, loc, sums, shares);
}

/// dot_general or convolution of two quantized operands: the products of
/// storage values minus zero points, summed in i32 (exact), then scaled once
/// by lhs_scale * rhs_scale / result_scale into the result's storage type
/// (or by lhs_scale * rhs_scale into a float result).
LogicalResult lowerIntegerProduct(Operation *op) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  auto ql = Quantization::of(getElementTypeOrSelf(lhs));
  auto qr = Quantization::of(getElementTypeOrSelf(rhs));
  if (!ql || !qr || ql->axis >= 0 ||
      ql->type.getStorageTypeIntegralWidth() > 16 ||
      qr->type.getStorageTypeIntegralWidth() > 16)
    return failure();
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  Channels scale{{ql->scales.front() * qr->scales.front()}, -1};
  if (qr->axis >= 0) {
    std::optional<int64_t> dim = resultDimOfRhs(op, qr->axis);
    if (!dim)
      return failure();
    Channels rhsScales{qr->scales, *dim};
    scale = *combine({{ql->scales.front()}, -1}, rhsScales, false);
  }
  auto qo = Quantization::of(resultType.getElementType());
  std::optional<Channels> multiplier = scale;
  if (qo) {
    multiplier = combine(scale, {qo->scales, qo->axis}, true);
    if (!multiplier)
      return failure();
  }

  OpBuilder b(op);
  Location loc = op->getLoc();
  Type i32 = b.getI32Type();
  Value sums = integerSums(b, op, *ql, *qr, resultType.clone(i32));

  Value result;
  bool unitMultiplier = llvm::all_of(multiplier->values, [](double m) {
    return static_cast<float>(m) == 1.0f;
  });
  if (qo && unitMultiplier && qo->zeroPointsAreZero() &&
      storageElementType(qo->type) == i32 &&
      qo->type.getStorageTypeMin() <= INT32_MIN &&
      qo->type.getStorageTypeMax() >= INT32_MAX) {
    result = stablehlo::BitcastConvertOp::create(b, loc, resultType, sums);
  } else {
    // Sums of i8 x i8 products fit a float's 24 bits for up to 1024 terms;
    // past that, f32 rounds them as the spec's float computation would.
    Type f32 = b.getF32Type();
    Value x = stablehlo::ConvertOp::create(b, loc, resultType.clone(f32), sums);
    x = stablehlo::MulOp::create(
        b, loc, x,
        parameters(b, loc, resultType.clone(f32), multiplier->values,
                   multiplier->axis));
    if (qo)
      result = toStorage(b, loc, x, *qo, resultType);
    else if (resultType.getElementType() != f32)
      result = stablehlo::ConvertOp::create(b, loc, resultType, x);
    else
      result = x;
  }
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
  return success();
}

/// The spec's definition of a computing op on quantized tensors:
/// dequantize the operands, compute in the expressed type, quantize the
/// results.
void dequantizeOpQuantize(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  SmallVector<Value> operands = llvm::map_to_vector(
      op->getOperands(), [&](Value v) {
        return isQuantized(v.getType()) ? dequantize(b, loc, v) : v;
      });
  SmallVector<Type> types = llvm::map_to_vector(op->getResultTypes(),
                                                [](Type t) -> Type {
    if (auto q = dyn_cast<QuantizedType>(getElementTypeOrSelf(t)))
      return cast<RankedTensorType>(t).clone(q.getExpressedType());
    return t;
  });
  OperationState state(loc, op->getName().getStringRef(), operands, types,
                       op->getAttrs());
  Operation *computed = b.create(state);
  for (auto [old, now] : llvm::zip(op->getResults(), computed->getResults()))
    old.replaceAllUsesWith(isQuantized(old.getType())
                               ? quantize(b, loc, now,
                                          cast<RankedTensorType>(old.getType()))
                               : now);
  op->erase();
}

/// Ops whose results are their operands' values rearranged (or selected):
/// on quantized tensors they move storage values.
bool movesData(Operation *op) {
  return op->getNumRegions() > 0 ||
         isa<stablehlo::ConstantOp, stablehlo::BroadcastInDimOp,
             stablehlo::ConcatenateOp, stablehlo::DynamicSliceOp,
             stablehlo::DynamicUpdateSliceOp, stablehlo::GatherOp,
             stablehlo::PadOp, stablehlo::ReshapeOp, stablehlo::ReverseOp,
             stablehlo::SelectOp, stablehlo::SliceOp, stablehlo::TransposeOp,
             stablehlo::TupleOp, stablehlo::GetTupleElementOp,
             stablehlo::OptimizationBarrierOp, stablehlo::BitcastConvertOp,
             stablehlo::ReturnOp, stablehlo::CustomCallOp, func::ReturnOp,
             func::CallOp>(op) ||
         !isa_and_nonnull<stablehlo::StableHLODialect, chlo::CHLODialect>(
             op->getDialect());
}

bool touchesQuantized(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isQuantized) ||
         llvm::any_of(op->getResultTypes(), isQuantized);
}

/// Every quantized type in `module` (values, block arguments, function
/// signatures) becomes its storage type; bitcasts between the two vanish.
void stripQuantizedTypes(ModuleOp module) {
  module.walk([](Operation *op) {
    for (Value result : op->getResults())
      result.setType(stripQuantization(result.getType()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(stripQuantization(arg.getType()));
    if (auto func = dyn_cast<func::FuncOp>(op)) {
      auto strip = [](TypeRange types) {
        return llvm::map_to_vector(types, stripQuantization);
      };
      FunctionType type = func.getFunctionType();
      func.setFunctionType(FunctionType::get(
          op->getContext(), strip(type.getInputs()), strip(type.getResults())));
    }
  });
  module.walk([](stablehlo::BitcastConvertOp op) {
    if (op.getOperand().getType() == op.getType()) {
      op.replaceAllUsesWith(op.getOperand());
      op.erase();
    }
  });
}

struct LowerQuantizedPass : impl::LowerQuantizedBase<LowerQuantizedPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (touchesQuantized(op))
        ops.push_back(op);
    });
    if (ops.empty())
      return;
    for (Operation *op : ops) {
      if (auto quantize = dyn_cast<stablehlo::UniformQuantizeOp>(op))
        lowerQuantize(quantize);
      else if (auto dequantize = dyn_cast<stablehlo::UniformDequantizeOp>(op))
        lowerDequantize(dequantize);
      else if (isa<stablehlo::DotGeneralOp, stablehlo::ConvolutionOp>(op) &&
               succeeded(lowerIntegerProduct(op)))
        continue;
      else if (!movesData(op))
        dequantizeOpQuantize(op);
    }
    stripQuantizedTypes(module);
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
