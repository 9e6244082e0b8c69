//===- SymbolizeShapes.cpp - Dynamic shapes as symbolic sizes -------------===//
//
// What stablehlo-refine-shapes leaves dynamic stays dynamic here: one build
// runs at every size. JAX computes each dynamic shape from
// `get_dimension_size` of an argument through small integer tensors; those
// become `index` values (`tvm.dim` and `arith` ops, which the emitter writes
// as Relax's symbolic expressions), and the dynamic ops become the tvm ops
// that take sizes (`tvm.broadcast_to`, `tvm.reshape`, `tvm.arange` with
// `sizes`/`count` operands). Shape assertions become `tvm.shape_assertion`,
// checked when the function runs. Argument dimensions an assertion says are
// equal are one symbol (`tvm.dim_symbols` on the function), as JAX's one
// dimension variable.
//
//===----------------------------------------------------------------------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"
#include "llvm/ADT/EquivalenceClasses.h"

#include <map>
#include <set>
#include <string>

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_SYMBOLIZESHAPES
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

constexpr llvm::StringLiteral kShapeAssertion = "shape_assertion";
constexpr llvm::StringLiteral kDimSymbolsAttr = "tvm.dim_symbols";
constexpr llvm::StringLiteral kDimChecksAttr = "tvm.dim_checks";
/// Shape values are this small (shapes, never data).
constexpr int64_t kMaxElements = 64;

bool isDynamic(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && !tensor.hasStaticShape();
}

/// The elements of small integer tensors as scalar SSA values: `index` for
/// integers, `i1` for booleans, built right after the op that defines the
/// tensor (so they dominate wherever the tensor does).
class SymbolicElements {
public:
  explicit SymbolicElements(MLIRContext *context) : builder(context) {}

  /// The elements of `value` in row-major order, or failure when they are
  /// not computed from sizes and constants by ops this knows.
  FailureOr<SmallVector<Value>> of(Value value) {
    auto found = cache.find(value);
    if (found != cache.end())
      return found->second;
    FailureOr<SmallVector<Value>> elements = compute(value);
    if (succeeded(elements))
      cache[value] = *elements;
    return elements;
  }

private:
  Value indexConstant(Location loc, int64_t n) {
    return arith::ConstantIndexOp::create(builder, loc, n);
  }

  FailureOr<SmallVector<Value>> compute(Value value) {
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

  FailureOr<SmallVector<Value>> broadcastElements(stablehlo::BroadcastInDimOp op,
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

  FailureOr<SmallVector<Value>> elementwise(Operation *op, RankedTensorType type,
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
        result = isUnsigned ? Value(arith::DivUIOp::create(builder, loc, x, y))
                            : Value(arith::DivSIOp::create(builder, loc, x, y));
      else if (isa<stablehlo::RemOp>(op) && !isBool)
        result = isUnsigned ? Value(arith::RemUIOp::create(builder, loc, x, y))
                            : Value(arith::RemSIOp::create(builder, loc, x, y));
      else if (isa<stablehlo::MaxOp>(op) && !isBool)
        result = isUnsigned ? Value(arith::MaxUIOp::create(builder, loc, x, y))
                            : Value(arith::MaxSIOp::create(builder, loc, x, y));
      else if (isa<stablehlo::MinOp>(op) && !isBool)
        result = isUnsigned ? Value(arith::MinUIOp::create(builder, loc, x, y))
                            : Value(arith::MinSIOp::create(builder, loc, x, y));
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

  Value compareElements(stablehlo::CompareOp op, Value x, Value y) {
    using Dir = stablehlo::ComparisonDirection;
    if (x.getType().isInteger(1)) // booleans compare as 0 < 1
      return {};
    bool isUnsigned =
        getElementTypeOrSelf(op.getLhs().getType()).isUnsignedInteger() ||
        op.getCompareType() == stablehlo::ComparisonType::UNSIGNED;
    arith::CmpIPredicate predicate = arith::CmpIPredicate::eq;
    switch (op.getComparisonDirection()) {
    case Dir::EQ: predicate = arith::CmpIPredicate::eq; break;
    case Dir::NE: predicate = arith::CmpIPredicate::ne; break;
    case Dir::LT: predicate = isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt; break;
    case Dir::LE: predicate = isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle; break;
    case Dir::GT: predicate = isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt; break;
    case Dir::GE: predicate = isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge; break;
    }
    return arith::CmpIOp::create(builder, op.getLoc(), predicate, x, y);
  }

public:
  /// Gives `value` these elements (a dimension argument's placeholder).
  void set(Value value, SmallVector<Value> values) { cache[value] = values; }

  /// Forgets every tensor whose elements include `element` (not known).
  void forget(Value element) {
    SmallVector<Value> stale;
    for (auto &entry : cache)
      if (llvm::is_contained(entry.second, element))
        stale.push_back(entry.first);
    for (Value value : stale)
      cache.erase(value);
  }

  /// `from` replaced by `to` in every computed element.
  void replace(Value from, Value to) {
    for (auto &entry : cache)
      for (Value &element : entry.second)
        if (element == from)
          element = to;
  }

  /// JAX's names of argument dimensions (argument, dimension), where known.
  std::map<std::pair<unsigned, int64_t>, std::string> names;

private:
  OpBuilder builder;
  llvm::DenseMap<Value, SmallVector<Value>> cache;
};

/// `sizes`' elements for the dynamic dimensions of `type`.
SmallVector<Value> dynamicSizes(RankedTensorType type, ArrayRef<Value> sizes) {
  SmallVector<Value> result;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      result.push_back(sizes[d]);
  return result;
}

/// `value` reshaped to `shape`, whose dynamic dimensions `value`'s own
/// dynamic dimensions give in order.
Value reshapeKeepingDims(OpBuilder &b, Location loc, Value value,
                         ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      sizes.push_back(tvm::DimOp::create(b, loc, value, d));
  return tvm::ReshapeOp::create(b, loc, type.clone(shape), value,
                                b.getDenseI64ArrayAttr(tvm::shapeAttrOf(shape)),
                                sizes);
}

/// `operand` (its dimension i at result dimension dims[i]) broadcast to
/// `type`, whose dimensions are `sizes`.
Value broadcastInDims(OpBuilder &b, Location loc, Value operand,
                      ArrayRef<int64_t> dims, RankedTensorType type,
                      ArrayRef<Value> sizes) {
  auto operandType = cast<RankedTensorType>(operand.getType());
  SmallVector<int64_t> order(dims.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::sort(order, [&](int64_t x, int64_t y) { return dims[x] < dims[y]; });
  if (!llvm::is_sorted(order) || order.size() != dims.size()) {
    SmallVector<int64_t> permuted;
    for (int64_t i : order)
      permuted.push_back(operandType.getDimSize(i));
    operand = tvm::PermuteDimsOp::create(b, loc, operandType.clone(permuted),
                                         operand, b.getDenseI64ArrayAttr(order));
  }
  SmallVector<int64_t> shape(type.getRank(), 1);
  for (int64_t i : order)
    shape[dims[i]] = operandType.getDimSize(i);
  operand = reshapeKeepingDims(b, loc, operand, shape);
  if (cast<RankedTensorType>(operand.getType()) == type)
    return operand;
  return tvm::BroadcastToOp::create(b, loc, type, operand,
                                    b.getDenseI64ArrayAttr(tvm::shapeAttrOf(type.getShape())),
                                    dynamicSizes(type, sizes));
}

struct SymbolizeShapesPass
    : impl::SymbolizeShapesBase<SymbolizeShapesPass> {
  void runOnOperation() override {
    for (auto function : getOperation().getOps<func::FuncOp>())
      if (!function.isExternal() && hasDynamicTypes(function))
        symbolize(function);
  }

  static bool hasDynamicTypes(func::FuncOp function) {
    bool dynamic = llvm::any_of(function.getArgumentTypes(), isDynamic);
    function.walk([&](Operation *op) {
      if (llvm::any_of(op->getResultTypes(), isDynamic))
        dynamic = true;
    });
    return dynamic;
  }

  void symbolize(func::FuncOp function) {
    SymbolicElements elements(&getContext());
    OpBuilder b(&getContext());
    Block &body = function.getBody().front();
    SmallVector<Operation *> placeholders;
    if (failed(resolveDimensionArguments(function, elements, placeholders))) {
      // The placeholders die with the sizes computed from them.
      eraseDeadOps(body);
      return;
    }
    for (Operation &op : llvm::make_early_inc_range(body)) {
      b.setInsertionPoint(&op);
      Location loc = op.getLoc();
      auto sizesOf = [&](Value shape) { return elements.of(shape); };
      if (auto broadcast = dyn_cast<stablehlo::DynamicBroadcastInDimOp>(op)) {
        auto sizes = sizesOf(broadcast.getOutputDimensions());
        if (failed(sizes) || !isTVMTensor(broadcast.getType()))
          continue;
        b.setInsertionPoint(&op);
        op.getResult(0).replaceAllUsesWith(broadcastInDims(
            b, loc, broadcast.getOperand(), broadcast.getBroadcastDimensions(),
            broadcast.getType(), *sizes));
        op.erase();
      } else if (auto reshape = dyn_cast<stablehlo::DynamicReshapeOp>(op)) {
        auto sizes = sizesOf(reshape.getOutputShape());
        if (failed(sizes) || !isTVMTensor(reshape.getType()))
          continue;
        b.setInsertionPoint(&op);
        auto type = cast<RankedTensorType>(reshape.getType());
        op.getResult(0).replaceAllUsesWith(tvm::ReshapeOp::create(
            b, loc, type, reshape.getOperand(),
            b.getDenseI64ArrayAttr(tvm::shapeAttrOf(type.getShape())),
            dynamicSizes(type, *sizes)));
        op.erase();
      } else if (auto iota = dyn_cast<stablehlo::DynamicIotaOp>(op)) {
        auto sizes = sizesOf(iota.getOutputShape());
        auto type = cast<RankedTensorType>(iota.getType());
        if (failed(sizes) || !isTVMTensor(type) ||
            type.getElementType().isInteger(1))
          continue;
        b.setInsertionPoint(&op);
        op.getResult(0).replaceAllUsesWith(
            iotaOf(b, loc, type, iota.getIotaDimension(), *sizes));
        op.erase();
      } else if (auto slice = dyn_cast<stablehlo::RealDynamicSliceOp>(op)) {
        if (Value window = realDynamicSlice(b, slice, elements)) {
          op.getResult(0).replaceAllUsesWith(window);
          op.erase();
        }
      } else if (auto gather = dyn_cast<stablehlo::DynamicGatherOp>(op)) {
        if (Value slice = gatherAsSlice(b, gather, elements)) {
          op.getResult(0).replaceAllUsesWith(slice);
          op.erase();
        }
      } else if (auto call = dyn_cast<stablehlo::CustomCallOp>(op);
                 call && call.getCallTargetName() == kShapeAssertion) {
        assertion(b, function, call, elements);
      }
    }
    // Sizes used as data (a mean divides by one).
    for (Operation &op : llvm::make_early_inc_range(body)) {
      auto dim = dyn_cast<stablehlo::GetDimensionSizeOp>(op);
      if (!dim || dim.use_empty())
        continue;
      auto operandType = cast<RankedTensorType>(dim.getOperand().getType());
      if (!operandType.isDynamicDim(dim.getDimension()))
        continue;
      b.setInsertionPoint(dim);
      Value size = tvm::DimOp::create(b, dim.getLoc(), dim.getOperand(),
                                      dim.getDimension());
      dim.getResult().replaceAllUsesWith(
          tvm::SizeTensorOp::create(b, dim.getLoc(), dim.getType(), size)
              .getResult());
      dim.erase();
    }
    eraseDeadOps(body);
    nameSymbols(function, elements.names);
  }

  /// A dynamic_gather of one window (what JAX writes for a slice whose
  /// bounds are symbolic): a tvm.dynamic_slice; null for any other.
  static Value gatherAsSlice(OpBuilder &b, stablehlo::DynamicGatherOp op,
                             SymbolicElements &elements) {
    auto dims = op.getDimensionNumbers();
    auto type = cast<RankedTensorType>(op.getType());
    auto indicesType = cast<RankedTensorType>(op.getStartIndices().getType());
    int64_t rank = type.getRank();
    if (!isTVMTensor(type) || indicesType.getRank() != 1 ||
        dims.getIndexVectorDim() != 0 || !dims.getCollapsedSliceDims().empty() ||
        !dims.getOperandBatchingDims().empty() ||
        static_cast<int64_t>(dims.getOffsetDims().size()) != rank ||
        cast<RankedTensorType>(op.getOperand().getType()).getRank() != rank)
      return {};
    for (auto [i, d] : llvm::enumerate(dims.getOffsetDims()))
      if (d != static_cast<int64_t>(i))
        return {};
    auto starts = elements.of(op.getStartIndices());
    auto sizes = elements.of(op.getSliceSizes());
    if (failed(starts) || failed(sizes) ||
        static_cast<int64_t>(sizes->size()) != rank)
      return {};
    b.setInsertionPoint(op);
    Value zero = arith::ConstantIndexOp::create(b, op.getLoc(), 0);
    SmallVector<Value> operands(rank, zero);
    for (auto [k, d] : llvm::enumerate(dims.getStartIndexMap()))
      operands[d] = (*starts)[k];
    llvm::append_range(operands, dynamicSizes(type, *sizes));
    return tvm::DynamicSliceOp::create(
        b, op.getLoc(), type, op.getOperand(),
        b.getDenseI64ArrayAttr(tvm::shapeAttrOf(type.getShape())), operands);
  }

  /// Older exports pass each dimension variable's value as a leading
  /// scalar argument. Its elements are a placeholder until a broadcast of
  /// an argument says which argument dimension it is (the operand's
  /// dynamic dimension lands where the placeholder sizes the result); then
  /// they are that dimension. Failure when a placeholder that sizes
  /// something stays unresolved (the function then stays as it is).
  LogicalResult resolveDimensionArguments(func::FuncOp function,
                                          SymbolicElements &elements,
                                          SmallVector<Operation *> &unresolved) {
    Block &body = function.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&body);
    Type index = b.getIndexType();
    DenseMap<Value, BlockArgument> argOf;
    for (BlockArgument arg : function.getArguments()) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type || type.getRank() != 0 || !isa<IntegerType>(type.getElementType()) ||
          type.getElementType().isInteger(1) || arg.use_empty())
        continue;
      Value placeholder =
          UnrealizedConversionCastOp::create(b, arg.getLoc(), index, arg).getResult(0);
      elements.set(arg, {placeholder});
      argOf[placeholder] = arg;
    }
    if (argOf.empty())
      return success();
    // A placeholder in one class with an argument's dimension is that
    // dimension (the first argument's, in order).
    DenseMap<Value, std::pair<BlockArgument, int64_t>> resolved;
    llvm::EquivalenceClasses<DimKey> classes = dimClasses(function, &elements);
    for (BlockArgument arg : function.getArguments()) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type)
        continue;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        if (!type.isDynamicDim(d) || !classes.contains(dimKey(arg, d)))
          continue;
        for (auto [placeholder, _] : argOf)
          if (classes.contains(dimKey(placeholder, -1)) &&
              classes.isEquivalent(dimKey(placeholder, -1), dimKey(arg, d)))
            resolved.try_emplace(placeholder, arg, d);
      }
    }
    bool stuck = false;
    for (auto [placeholder, arg] : argOf) {
      auto found = resolved.find(placeholder);
      if (found == resolved.end()) {
        unresolved.push_back(placeholder.getDefiningOp());
        elements.forget(placeholder);
        if (!placeholder.use_empty())
          stuck = true;
        continue;
      }
      auto [operand, dim] = found->second;
      // Anew each time: the block's first op may be a placeholder erased.
      b.setInsertionPointToStart(&body);
      Value size = tvm::DimOp::create(b, arg.getLoc(), operand, dim);
      placeholder.replaceAllUsesWith(size);
      elements.replace(placeholder, size);
      placeholder.getDefiningOp()->erase();
    }
    if (stuck)
      return failure();
    for (Operation *placeholder : unresolved)
      placeholder->erase();
    unresolved.clear();
    return success();
  }

  /// real_dynamic_slice with unit strides: the window [start, limit) of
  /// each dimension (a valid program's windows are in bounds, so the
  /// dynamic slice's clamp changes nothing); null otherwise.
  static Value realDynamicSlice(OpBuilder &b, stablehlo::RealDynamicSliceOp op,
                                SymbolicElements &elements) {
    auto type = cast<RankedTensorType>(op.getType());
    auto starts = elements.of(op.getStartIndices());
    auto limits = elements.of(op.getLimitIndices());
    auto strides = elements.of(op.getStrides());
    int64_t rank = type.getRank();
    if (!isTVMTensor(type) || failed(starts) || failed(limits) ||
        failed(strides) || static_cast<int64_t>(starts->size()) != rank ||
        static_cast<int64_t>(limits->size()) != rank ||
        static_cast<int64_t>(strides->size()) != rank ||
        !llvm::all_of(*strides, [](Value v) { return matchPattern(v, m_One()); }))
      return {};
    b.setInsertionPoint(op);
    SmallVector<Value> operands(*starts);
    for (int64_t d = 0; d < rank; ++d)
      if (type.isDynamicDim(d))
        operands.push_back(
            arith::SubIOp::create(b, op.getLoc(), (*limits)[d], (*starts)[d]));
    return tvm::DynamicSliceOp::create(
        b, op.getLoc(), type, op.getOperand(),
        b.getDenseI64ArrayAttr(tvm::shapeAttrOf(type.getShape())), operands);
  }

  static bool isTVMTensor(Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && isa<IntegerType, FloatType>(tensor.getElementType());
  }

  static Value iotaOf(OpBuilder &b, Location loc, RankedTensorType type,
                      int64_t dim, ArrayRef<Value> sizes) {
    Type element = type.getElementType();
    int64_t n = type.getDimSize(dim);
    Value range;
    if (ShapedType::isDynamic(n))
      range = tvm::ArangeOp::create(b, loc, RankedTensorType::get({n}, element),
                                    b.getI64IntegerAttr(0), b.getI64IntegerAttr(0),
                                    b.getI64IntegerAttr(1), TypeAttr::get(element),
                                    sizes[dim]);
    else
      range = tvm::ArangeOp::create(b, loc, RankedTensorType::get({n}, element),
                                    b.getI64IntegerAttr(0), b.getI64IntegerAttr(n),
                                    b.getI64IntegerAttr(1), TypeAttr::get(element),
                                    Value());
    SmallVector<int64_t> dims{dim};
    return broadcastInDims(b, loc, range, dims, type, sizes);
  }

  /// A shape assertion: dropped when it folds to true; otherwise a
  /// tvm.shape_assertion threaded through the first dynamic argument.
  void assertion(OpBuilder &b, func::FuncOp function, stablehlo::CustomCallOp call,
                 SymbolicElements &elements) {
    if (call->getNumOperands() == 0)
      return;
    auto predicate = elements.of(call->getOperand(0));
    if (failed(predicate) || predicate->size() != 1)
      return;
    SmallVector<Value> args;
    for (Value operand : call->getOperands().drop_front()) {
      auto values = elements.of(operand);
      if (failed(values) || values->size() != 1 ||
          !values->front().getType().isIndex())
        return;
      args.push_back(values->front());
    }
    auto message = call->getAttrOfType<StringAttr>("error_message");
    // The first dynamic argument, as the checks before this one return it.
    Value carrier;
    for (BlockArgument arg : function.getArguments())
      if (isDynamic(arg.getType())) {
        carrier = arg;
        break;
      }
    if (!carrier)
      return;
    while (Operation *user = singleCheckOf(carrier))
      carrier = user->getResult(0);
    if (matchPattern(predicate->front(), m_One())) {
      call->erase();
      return;
    }
    b.setInsertionPoint(call);
    auto checked = tvm::ShapeAssertionOp::create(
        b, call.getLoc(), carrier.getType(), carrier, predicate->front(), args,
        message ? message : b.getStringAttr("shape assertion failed"));
    carrier.replaceUsesWithIf(checked.getResult(), [&](OpOperand &use) {
      Operation *user = use.getOwner();
      // Later uses only: the sizes the predicate reads come first.
      while (user->getBlock() != checked->getBlock())
        user = user->getParentOp();
      return user != checked && checked->isBeforeInBlock(user);
    });
    call->erase();
  }

  /// The tvm.shape_assertion that threads `value`, if one does.
  static Operation *singleCheckOf(Value value) {
    for (Operation *user : value.getUsers())
      if (auto check = dyn_cast<tvm::ShapeAssertionOp>(user);
          check && check.getX() == value)
        return check;
    return nullptr;
  }

  static void eraseDeadOps(Block &body) {
    bool erased = true;
    while (erased) {
      erased = false;
      for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
        if (isOpTriviallyDead(&op)) {
          op.erase();
          erased = true;
        }
    }
  }

  using DimKey = std::pair<void *, int64_t>;
  static DimKey dimKey(Value v, int64_t d) {
    return DimKey{v.getAsOpaquePointer(), d};
  }

  /// Dimensions the program's ops say are equal (StableHLO requires it: an
  /// elementwise op's operands, a product's batch and contracting
  /// dimensions, ...), in classes of (value, dimension). With `sizes`, a
  /// dynamic op's result dimension also joins the size value that gives
  /// it ((size, -1)).
  static llvm::EquivalenceClasses<DimKey>
  dimClasses(func::FuncOp function, SymbolicElements *sizes = nullptr) {
    llvm::EquivalenceClasses<DimKey> classes;
    auto same = [&](Value x, int64_t dx, Value y, int64_t dy) {
      auto tx = dyn_cast<RankedTensorType>(x.getType());
      auto ty = dyn_cast<RankedTensorType>(y.getType());
      if (tx && ty && dx < tx.getRank() && dy < ty.getRank() &&
          tx.isDynamicDim(dx) && ty.isDynamicDim(dy))
        classes.unionSets(dimKey(x, dx), dimKey(y, dy));
    };
    auto sameShapes = [&](ValueRange values, Value result) {
      auto type = cast<RankedTensorType>(result.getType());
      for (Value v : values)
        if (cast<RankedTensorType>(v.getType()).getRank() == type.getRank())
          for (int64_t d = 0; d < type.getRank(); ++d)
            same(v, d, result, d);
    };
    auto sameSegments = [&](Value from, Value result) {
      SmallVector<int64_t> in, out;
      if (tvm::keepsDynamicDims(cast<RankedTensorType>(from.getType()).getShape(),
                                cast<RankedTensorType>(result.getType()).getShape(),
                                in, out))
        for (auto [a, z] : llvm::zip(in, out))
          same(from, a, result, z);
    };
    auto sizedBy = [&](Value result, Value shape) {
      if (!sizes)
        return;
      auto elements = sizes->of(shape);
      auto type = cast<RankedTensorType>(result.getType());
      if (failed(elements) || static_cast<int64_t>(elements->size()) != type.getRank())
        return;
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (type.isDynamicDim(d))
          classes.unionSets(dimKey((*elements)[d], -1), dimKey(result, d));
    };
    for (Operation &op : function.getBody().front()) {
      if (op.getNumResults() == 0 || !isa<RankedTensorType>(op.getResult(0).getType()))
        continue;
      Value result = op.getResult(0);
      if (op.hasTrait<OpTrait::Elementwise>() ||
          isa<stablehlo::SelectOp, stablehlo::ClampOp, tvm::ShapeAssertionOp>(op)) {
        SmallVector<Value> tensors;
        for (Value v : op.getOperands())
          if (isa<RankedTensorType>(v.getType()))
            tensors.push_back(v);
        sameShapes(tensors, result);
      } else if (auto concat = dyn_cast<stablehlo::ConcatenateOp>(op)) {
        for (Value v : concat.getInputs())
          for (int64_t d = 0; d < cast<RankedTensorType>(v.getType()).getRank(); ++d)
            if (d != static_cast<int64_t>(concat.getDimension()))
              same(v, d, result, d);
      } else if (auto transpose = dyn_cast<stablehlo::TransposeOp>(op)) {
        for (auto [d, from] : llvm::enumerate(transpose.getPermutation()))
          same(transpose.getOperand(), from, result, d);
      } else if (auto broadcast = dyn_cast<stablehlo::BroadcastInDimOp>(op)) {
        for (auto [i, d] : llvm::enumerate(broadcast.getBroadcastDimensions()))
          same(broadcast.getOperand(), i, result, d);
      } else if (auto broadcast = dyn_cast<stablehlo::DynamicBroadcastInDimOp>(op)) {
        for (auto [i, d] : llvm::enumerate(broadcast.getBroadcastDimensions()))
          same(broadcast.getOperand(), i, result, d);
        sizedBy(result, broadcast.getOutputDimensions());
      } else if (auto reshape = dyn_cast<stablehlo::DynamicReshapeOp>(op)) {
        sameSegments(reshape.getOperand(), result);
        sizedBy(result, reshape.getOutputShape());
      } else if (auto iota = dyn_cast<stablehlo::DynamicIotaOp>(op)) {
        sizedBy(result, iota.getOutputShape());
      } else if (auto reduce = dyn_cast<stablehlo::ReduceOp>(op)) {
        // Its inputs have one shape (argmax's values and indices).
        sameShapes(reduce.getInputs().drop_front(), reduce.getInputs().front());
        for (Value input : reduce.getInputs()) {
          int64_t out = 0;
          auto rank = cast<RankedTensorType>(input.getType()).getRank();
          for (int64_t d = 0; d < rank; ++d)
            if (!llvm::is_contained(reduce.getDimensions(), d))
              same(input, d, result, out++);
        }
      } else if (auto dot = dyn_cast<stablehlo::DotGeneralOp>(op)) {
        auto dims = dot.getDotDimensionNumbers();
        int64_t out = 0;
        for (auto [l, r] : llvm::zip(dims.getLhsBatchingDimensions(),
                                     dims.getRhsBatchingDimensions())) {
          same(dot.getLhs(), l, dot.getRhs(), r);
          same(dot.getLhs(), l, result, out++);
        }
        for (auto [l, r] : llvm::zip(dims.getLhsContractingDimensions(),
                                     dims.getRhsContractingDimensions()))
          same(dot.getLhs(), l, dot.getRhs(), r);
        for (Value side : {dot.getLhs(), dot.getRhs()}) {
          bool lhs = side == dot.getLhs();
          auto batch = lhs ? dims.getLhsBatchingDimensions() : dims.getRhsBatchingDimensions();
          auto contract = lhs ? dims.getLhsContractingDimensions() : dims.getRhsContractingDimensions();
          for (int64_t d = 0; d < cast<RankedTensorType>(side.getType()).getRank(); ++d)
            if (!llvm::is_contained(batch, d) && !llvm::is_contained(contract, d))
              same(side, d, result, out++);
        }
      } else if (isa<tvm::BroadcastToOp, tvm::ReshapeOp>(op)) {
        auto type = cast<RankedTensorType>(result.getType());
        // A reshape keeping its dynamic dimensions in order keeps them.
        if (isa<tvm::ReshapeOp>(op))
          sameSegments(op.getOperand(0), result);
        // A size read off another value's dimension is that dimension.
        auto given = op.getOperands().drop_front();
        for (int64_t d = 0, k = 0; d < type.getRank(); ++d) {
          if (!type.isDynamicDim(d) || k >= static_cast<int64_t>(given.size()))
            continue;
          if (auto dim = given[k++].getDefiningOp<tvm::DimOp>())
            same(dim.getX(), dim.getDim(), result, d);
        }
      }
    }
    return classes;
  }

  /// Argument dimensions in one class of dimClasses are one symbol: Relax,
  /// which cannot know two symbols are equal, would lose the shape where
  /// they meet.
  static void unifyByShapeRules(
      func::FuncOp function,
      llvm::EquivalenceClasses<std::pair<unsigned, int64_t>> &argClasses) {
    llvm::EquivalenceClasses<DimKey> classes = dimClasses(function);
    SmallVector<std::pair<DimKey, std::pair<unsigned, int64_t>>> argDims;
    for (BlockArgument arg : function.getArguments())
      if (auto type = dyn_cast<RankedTensorType>(arg.getType()))
        for (int64_t d = 0; d < type.getRank(); ++d)
          if (type.isDynamicDim(d) && classes.contains(dimKey(arg, d)))
            argDims.push_back({dimKey(arg, d), {arg.getArgNumber(), d}});
    for (auto &[x, xArg] : argDims)
      for (auto &[y, yArg] : argDims)
        if (xArg < yArg && classes.isEquivalent(x, y))
          argClasses.unionSets(xArg, yArg);
  }

  /// One symbol per argument dimension, one for dimensions a surviving
  /// assertion equates; `tvm.dim_symbols` lists them per argument (static
  /// sizes as integers).
  void nameSymbols(func::FuncOp function,
                   const std::map<std::pair<unsigned, int64_t>, std::string> &jaxNames) {
    using Key = std::pair<unsigned, int64_t>;
    llvm::EquivalenceClasses<Key> classes;
    auto argDim = [](Value v) -> std::optional<Key> {
      auto dim = v.getDefiningOp<tvm::DimOp>();
      if (!dim)
        return std::nullopt;
      auto arg = dyn_cast<BlockArgument>(dim.getX());
      if (!arg) {
        // Through the checks threaded through an argument.
        Value x = dim.getX();
        while (auto check = x.getDefiningOp<tvm::ShapeAssertionOp>())
          x = check.getX();
        arg = dyn_cast<BlockArgument>(x);
      }
      if (!arg || !isa<func::FuncOp>(arg.getOwner()->getParentOp()))
        return std::nullopt;
      return Key{arg.getArgNumber(), dim.getDim()};
    };
    // Relax checks one symbol's sizes for equality on entry, before any
    // assertion runs: each equality is listed for the caller to check
    // first, with JAX's message and the dimensions its {i} name.
    Builder b(&getContext());
    SmallVector<Attribute> checks;
    auto pair = [&](Key key) {
      return b.getDenseI64ArrayAttr({int64_t(key.first), key.second});
    };
    function.walk([&](tvm::ShapeAssertionOp check) {
      auto compare = check.getPredicate().getDefiningOp<arith::CmpIOp>();
      if (!compare || compare.getPredicate() != arith::CmpIPredicate::eq)
        return;
      auto lhs = argDim(compare.getLhs()), rhs = argDim(compare.getRhs());
      if (!lhs || !rhs)
        return;
      classes.unionSets(*lhs, *rhs);
      SmallVector<Attribute> args;
      for (Value arg : check.getArgs()) {
        auto key = argDim(arg);
        if (!key)
          return;
        args.push_back(pair(*key));
      }
      checks.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("dims", b.getArrayAttr({pair(*lhs), pair(*rhs)})),
           b.getNamedAttr("args", b.getArrayAttr(args)),
           b.getNamedAttr("message", check.getMessageAttr())}));
    });
    if (!checks.empty())
      function->setAttr(kDimChecksAttr, b.getArrayAttr(checks));
    unifyByShapeRules(function, classes);
    // A class takes JAX's name for one of its dimensions, else one of its
    // own; names stay distinct.
    std::map<Key, std::string> classNames;
    std::set<std::string> taken;
    auto nameOf = [&](Key leader) {
      auto found = classNames.find(leader);
      if (found != classNames.end())
        return found->second;
      std::string name;
      for (const Key &member : classes.members(leader))
        if (auto jax = jaxNames.find(member);
            name.empty() && jax != jaxNames.end())
          name = jax->second;
      if (name.empty() || taken.count(name)) {
        // After the class's first dimension.
        Key first = leader;
        for (const Key &member : classes.members(leader))
          first = std::min(first, member);
        name = "d" + std::to_string(first.first) + "_" +
               std::to_string(first.second);
      }
      taken.insert(name);
      return classNames[leader] = name;
    };
    SmallVector<Attribute> perArg;
    for (auto [i, type] : llvm::enumerate(function.getArgumentTypes())) {
      SmallVector<Attribute> dims;
      if (auto tensor = dyn_cast<RankedTensorType>(type)) {
        for (int64_t d = 0; d < tensor.getRank(); ++d) {
          if (!tensor.isDynamicDim(d)) {
            dims.push_back(b.getI64IntegerAttr(tensor.getDimSize(d)));
            continue;
          }
          Key leader = classes.getOrInsertLeaderValue(Key{unsigned(i), d});
          dims.push_back(b.getStringAttr(nameOf(leader)));
        }
      }
      perArg.push_back(b.getArrayAttr(dims));
    }
    function->setAttr(kDimSymbolsAttr, b.getArrayAttr(perArg));
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
