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

#include "DimensionClasses.h"
#include "SymbolicElements.h"
#include "SymbolicPad.h"
#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
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
constexpr llvm::StringLiteral kDimSymbolsAttr = tvm::TVMDialect::DimSymbolsAttrHelper::getNameStr();
constexpr llvm::StringLiteral kDimChecksAttr = tvm::TVMDialect::DimChecksAttrHelper::getNameStr();

bool isDynamic(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && !tensor.hasStaticShape();
}

/// `value` reshaped to `shape`, whose dynamic dimensions `value`'s own
/// dynamic dimensions give in order.
Value reshapeKeepingDims(OpBuilder &b, Location loc, Value value,
                         ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  SmallVector<Value> sizes = tvm::dynamicSizesOf(b, loc, value);
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
  if (!llvm::is_sorted(order)) {
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
                                    tvm::dynamicSizesAmong(type, sizes));
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
    resolveDimensionArguments(function, elements);
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
            tvm::dynamicSizesAmong(type, *sizes)));
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
      } else if (auto pad = dyn_cast<stablehlo::DynamicPadOp>(op)) {
        if (Value padded = symbolicDynamicPad(b, pad, elements)) {
          op.getResult(0).replaceAllUsesWith(padded);
          op.erase();
        }
      } else if (auto gather = dyn_cast<stablehlo::DynamicGatherOp>(op)) {
        if (Value slice = gatherAsSlice(b, gather, elements)) {
          op.getResult(0).replaceAllUsesWith(slice);
          op.erase();
        } else if (Value taken = gatherAsTake(b, gather, elements)) {
          op.getResult(0).replaceAllUsesWith(taken);
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
    llvm::append_range(operands, tvm::dynamicSizesAmong(type, *sizes));
    return tvm::DynamicSliceOp::create(
        b, op.getLoc(), type, op.getOperand(),
        b.getDenseI64ArrayAttr(tvm::shapeAttrOf(type.getShape())), operands);
  }

  /// A dynamic_gather of one element along one axis and slices of the
  /// others (jnp.take, nearest-neighbour resizing): the operand cut to the
  /// slice sizes, then a tvm.take along the axis (its "clip" clamps an
  /// index as the gather clamps a start). Null for any other gather.
  static Value gatherAsTake(OpBuilder &b, stablehlo::DynamicGatherOp op,
                            SymbolicElements &elements) {
    auto dims = op.getDimensionNumbers();
    auto type = cast<RankedTensorType>(op.getType());
    auto operandType = cast<RankedTensorType>(op.getOperand().getType());
    auto indicesType = cast<RankedTensorType>(op.getStartIndices().getType());
    int64_t rank = operandType.getRank();
    if (!isTVMTensor(type) || dims.getStartIndexMap().size() != 1 ||
        dims.getCollapsedSliceDims() != dims.getStartIndexMap() ||
        !dims.getOperandBatchingDims().empty())
      return {};
    int64_t axis = dims.getStartIndexMap().front();
    // The index vector: the indices' last dimension, of size 1, or implicit.
    int64_t vectorDim = dims.getIndexVectorDim();
    int64_t batchRank = indicesType.getRank();
    if (vectorDim == indicesType.getRank() - 1 && indicesType.getDimSize(vectorDim) == 1)
      --batchRank;
    else if (vectorDim != indicesType.getRank())
      return {};
    // The result is take's: the operand's dimensions with the axis
    // replaced by the indices' batch dimensions.
    SmallVector<int64_t> offsets;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (d < axis || d >= axis + batchRank)
        offsets.push_back(d);
    if (axis >= rank || type.getRank() != rank - 1 + batchRank ||
        ArrayRef<int64_t>(offsets) != dims.getOffsetDims())
      return {};
    auto sizes = elements.of(op.getSliceSizes());
    if (failed(sizes) || static_cast<int64_t>(sizes->size()) != rank ||
        !matchPattern((*sizes)[axis], m_One()))
      return {};
    b.setInsertionPoint(op);
    Location loc = op.getLoc();
    // The operand cut to the slice sizes where they are not its own.
    Value operand = op.getOperand();
    SmallVector<Value> window;
    SmallVector<int64_t> windowShape;
    bool cut = false;
    for (int64_t d = 0; d < rank; ++d) {
      Value size = (*sizes)[d];
      auto dim = size.getDefiningOp<tvm::DimOp>();
      bool whole = d == axis ||
                   getConstantIntValue(size) == operandType.getDimSize(d) ||
                   (dim && dim.getX() == operand && dim.getDim() == static_cast<uint64_t>(d));
      if (d == axis)
        size = operandType.isDynamicDim(d) ? Value(tvm::DimOp::create(b, loc, operand, d))
                                           : arith::ConstantIndexOp::create(b, loc, operandType.getDimSize(d));
      cut |= !whole;
      window.push_back(size);
      windowShape.push_back(getConstantIntValue(size).value_or(ShapedType::kDynamic));
    }
    if (cut) {
      auto windowType = operandType.clone(windowShape);
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      SmallVector<Value> operands(rank, zero);
      llvm::append_range(operands, tvm::dynamicSizesAmong(windowType, window));
      operand = tvm::DynamicSliceOp::create(
          b, loc, windowType, operand,
          b.getDenseI64ArrayAttr(tvm::shapeAttrOf(windowShape)), operands);
    }
    Value indices = op.getStartIndices();
    if (batchRank != indicesType.getRank())
      indices = reshapeKeepingDims(b, loc, indices, indicesType.getShape().drop_back());
    return tvm::TakeOp::create(b, loc, type, operand, indices,
                               b.getI64IntegerAttr(axis));
  }

  /// Older exports pass each dimension variable's value as a leading
  /// scalar argument. Its elements are a placeholder until the shape rules
  /// put it in one class with an argument's dimension (a broadcast of an
  /// argument sized by it, an elementwise op on both); then they are that
  /// dimension. One no rule ties to an argument is a size read from the
  /// argument's value when the function runs.
  void resolveDimensionArguments(func::FuncOp function,
                                 SymbolicElements &elements) {
    Block &body = function.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&body);
    Type index = b.getIndexType();
    SmallVector<std::pair<Value, BlockArgument>> argOf;
    for (BlockArgument arg : function.getArguments()) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type || type.getRank() != 0 || !isa<IntegerType>(type.getElementType()) ||
          type.getElementType().isInteger(1) || arg.use_empty())
        continue;
      Value placeholder =
          UnrealizedConversionCastOp::create(b, arg.getLoc(), index, arg).getResult(0);
      elements.set(arg, {placeholder});
      argOf.emplace_back(placeholder, arg);
    }
    if (argOf.empty())
      return;
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
    for (auto [placeholder, arg] : argOf) {
      // Anew each time: the block's first op may be a placeholder erased.
      b.setInsertionPointToStart(&body);
      Value size;
      if (auto found = resolved.find(placeholder); found != resolved.end())
        size = tvm::DimOp::create(b, arg.getLoc(), found->second.first,
                                  found->second.second);
      else
        size = tvm::TensorToSizeOp::create(b, arg.getLoc(), signless(b, arg));
      placeholder.replaceAllUsesWith(size);
      elements.replace(placeholder, size);
      placeholder.getDefiningOp()->erase();
    }
  }

  /// `scalar`, an integer tensor, as a signless one (a ui32 dimension
  /// argument converted to i64).
  static Value signless(OpBuilder &b, Value scalar) {
    auto type = cast<RankedTensorType>(scalar.getType());
    if (type.getElementType().isSignlessInteger())
      return scalar;
    return stablehlo::ConvertOp::create(b, scalar.getLoc(),
                                        type.clone(b.getI64Type()), scalar);
  }

  /// real_dynamic_slice: the window [start, limit) of each dimension (a
  /// valid program's windows are in bounds, so the dynamic slice's clamp
  /// changes nothing), then the static strides of dimensions whose window
  /// is static; null for any other.
  static Value realDynamicSlice(OpBuilder &b, stablehlo::RealDynamicSliceOp op,
                                SymbolicElements &elements) {
    auto type = cast<RankedTensorType>(op.getType());
    int64_t rank = type.getRank();
    auto vectors = elements.ofEach(
        {op.getStartIndices(), op.getLimitIndices(), op.getStrides()}, rank);
    if (!isTVMTensor(type) || failed(vectors))
      return {};
    ArrayRef<Value> starts = (*vectors)[0], limits = (*vectors)[1],
                    strides = (*vectors)[2];
    SmallVector<int64_t> window(type.getShape());
    SmallVector<int64_t> axes, ends, steps;
    for (int64_t d = 0; d < rank; ++d) {
      if (matchPattern(strides[d], m_One()))
        continue;
      auto step = getConstantIntValue(strides[d]);
      auto start = getConstantIntValue(starts[d]),
           limit = getConstantIntValue(limits[d]);
      if (!step || *step <= 0 || !start || !limit)
        return {};
      window[d] = std::max<int64_t>(*limit - *start, 0);
      axes.push_back(d);
      ends.push_back(window[d]);
      steps.push_back(*step);
    }
    b.setInsertionPoint(op);
    auto windowType = type.clone(window);
    SmallVector<Value> operands(starts);
    for (int64_t d = 0; d < rank; ++d)
      if (windowType.isDynamicDim(d))
        operands.push_back(
            arith::SubIOp::create(b, op.getLoc(), limits[d], starts[d]));
    Value slice = tvm::DynamicSliceOp::create(
        b, op.getLoc(), windowType, op.getOperand(),
        b.getDenseI64ArrayAttr(tvm::shapeAttrOf(window)), operands);
    if (axes.empty())
      return slice;
    return tvm::StridedSliceOp::create(
        b, op.getLoc(), type, slice, b.getDenseI64ArrayAttr(axes),
        b.getDenseI64ArrayAttr(SmallVector<int64_t>(axes.size(), 0)),
        b.getDenseI64ArrayAttr(ends), b.getDenseI64ArrayAttr(steps));
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
