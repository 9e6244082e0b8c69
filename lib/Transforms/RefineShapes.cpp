//===- RefineShapes.cpp - Dynamic shapes made static where determined -----===//

#include "ShapeRefinement.h"
#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_REFINESHAPES
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

constexpr llvm::StringLiteral kShapeAssertion = "shape_assertion";

/// The operands of a dynamic op that give its result's shape.
SmallVector<Value> shapeOperands(Operation *op) {
  if (auto o = dyn_cast<stablehlo::DynamicBroadcastInDimOp>(op))
    return {o.getOutputDimensions()};
  if (auto o = dyn_cast<stablehlo::DynamicReshapeOp>(op))
    return {o.getOutputShape()};
  if (auto o = dyn_cast<stablehlo::DynamicIotaOp>(op))
    return {o.getOutputShape()};
  if (auto o = dyn_cast<stablehlo::RealDynamicSliceOp>(op))
    return {o.getStartIndices(), o.getLimitIndices(), o.getStrides()};
  if (auto o = dyn_cast<stablehlo::DynamicPadOp>(op))
    return {o.getEdgePaddingLow(), o.getEdgePaddingHigh(),
            o.getInteriorPadding()};
  if (auto o = dyn_cast<stablehlo::DynamicGatherOp>(op))
    return {o.getSliceSizes()};
  if (auto o = dyn_cast<stablehlo::DynamicConvOp>(op))
    return {o.getPadding()};
  if (auto o = dyn_cast<stablehlo::RngOp>(op))
    return {o.getShape()};
  return {};
}

bool isScalarInteger(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() == 0 &&
         isa<IntegerType>(tensor.getElementType()) &&
         tensor.getElementType().getIntOrFloatBitWidth() > 1;
}

/// `type` with the static sizes of `shape` in its dynamic dimensions, or an
/// error when a static size disagrees.
FailureOr<Type> refined(Operation *op, Type type, ArrayRef<int64_t> shape) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || tensor.getRank() != static_cast<int64_t>(shape.size()))
    return type;
  SmallVector<int64_t> dims(tensor.getShape());
  bool changed = false;
  for (auto [d, n] : llvm::zip(dims, shape)) {
    if (n == ShapedType::kDynamic)
      continue;
    if (n < 0)
      return op->emitOpError("has a result of negative size ") << n
             << " once its operands' shapes are known";
    if (d == ShapedType::kDynamic) {
      d = n;
      changed = true;
    } else if (d != n) {
      return op->emitOpError("result type ")
             << type << " disagrees with its operands' shapes, which give "
             << "dimension size " << n << " for " << d;
    }
  }
  if (!changed)
    return type;
  RankedTensorType result = RankedTensorType::get(dims, tensor.getElementType());
  if (!result.hasStaticShape())
    result = RankedTensorType::get(dims, tensor.getElementType(),
                                   tensor.getEncoding());
  return Type(result);
}

/// JAX's message for a failed shape assertion: `{i}` is the i-th value after
/// the predicate.
std::string assertionMessage(stablehlo::CustomCallOp op,
                             const KnownValues &known) {
  auto message = op->getAttrOfType<StringAttr>("error_message");
  std::string text = message ? message.str() : "shape assertion failed";
  for (unsigned i = 1; i < op->getNumOperands(); ++i) {
    std::string value = "?";
    if (DenseIntElementsAttr attr = known.lookup(op->getOperand(i)))
      if (attr.getNumElements() == 1)
        value = std::to_string((*attr.getValues<APInt>().begin()).getSExtValue());
    std::string placeholder = "{" + std::to_string(i - 1) + "}";
    for (size_t at = text.find(placeholder); at != std::string::npos;
         at = text.find(placeholder, at + value.size()))
      text.replace(at, placeholder.size(), value);
  }
  return text;
}

class Refiner {
public:
  LogicalResult refineBlock(Block &block);
  KnownValues known;

private:
  LogicalResult setResultShapes(Operation *op, ArrayRef<SmallVector<int64_t>> shapes);
  LogicalResult refineOp(Operation *op);
};

LogicalResult Refiner::setResultShapes(Operation *op,
                                       ArrayRef<SmallVector<int64_t>> shapes) {
  for (auto [result, shape] : llvm::zip(op->getResults(), shapes)) {
    FailureOr<Type> type = refined(op, result.getType(), shape);
    if (failed(type))
      return failure();
    result.setType(*type);
  }
  return success();
}

SmallVector<SmallVector<int64_t>> shapesOf(TypeRange types) {
  SmallVector<SmallVector<int64_t>> out;
  for (Type type : types) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    out.push_back(tensor ? SmallVector<int64_t>(tensor.getShape())
                         : SmallVector<int64_t>());
  }
  return out;
}

LogicalResult Refiner::refineOp(Operation *op) {
  if (auto loop = dyn_cast<stablehlo::WhileOp>(op)) {
    // The loop carries its operands' types through both regions.
    for (Region &region : loop->getRegions())
      for (auto [arg, operand] :
           llvm::zip(region.front().getArguments(), loop.getOperands()))
        arg.setType(operand.getType());
    for (Region &region : loop->getRegions())
      if (failed(refineBlock(region.front())))
        return failure();
    return setResultShapes(op, shapesOf(loop.getOperandTypes()));
  }

  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (failed(refineBlock(block)))
        return failure();

  if (isa<stablehlo::IfOp, stablehlo::CaseOp>(op)) {
    for (Region &region : op->getRegions())
      if (failed(setResultShapes(
              op, shapesOf(region.front().getTerminator()->getOperandTypes()))))
        return failure();
    return success();
  }

  if (auto shapes = inferResultShapes(op, known))
    if (failed(setResultShapes(op, *shapes)))
      return failure();
  if (DenseIntElementsAttr value = evaluateShapeArithmetic(op, known))
    known.set(op->getResult(0), value);
  return success();
}

LogicalResult Refiner::refineBlock(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (failed(refineOp(&op)))
      return failure();
    auto call = dyn_cast<stablehlo::CustomCallOp>(&op);
    if (!call || call.getCallTargetName() != kShapeAssertion ||
        call->getNumOperands() == 0)
      continue;
    DenseIntElementsAttr holds = known.lookup(call->getOperand(0));
    if (!holds || holds.getNumElements() != 1)
      continue;
    if ((*holds.getValues<APInt>().begin()).isZero())
      return call.emitError(assertionMessage(call, known));
    call->erase();
  }
  return success();
}

FailureOr<SmallVector<int64_t>> parseShape(StringRef text) {
  SmallVector<int64_t> shape;
  if (text == "scalar")
    return shape;
  SmallVector<StringRef> parts;
  text.split(parts, 'x');
  for (StringRef part : parts) {
    int64_t n;
    if (part.getAsInteger(10, n) || n < 0)
      return failure();
    shape.push_back(n);
  }
  return shape;
}

struct RefineShapesPass : impl::RefineShapesBase<RefineShapesPass> {
  using Base::Base;

  func::FuncOp findEntry() {
    ModuleOp module = getOperation();
    if (!entry.empty())
      return module.lookupSymbol<func::FuncOp>(entry);
    if (auto main = module.lookupSymbol<func::FuncOp>("main"))
      return main;
    func::FuncOp only;
    for (auto f : module.getOps<func::FuncOp>()) {
      if (!f.isPublic())
        continue;
      if (only)
        return {};
      only = f;
    }
    return only;
  }

  /// Gives the entry the argument shapes and values the options name.
  LogicalResult specialize(func::FuncOp function, Refiner &refiner) {
    Block &body = function.front();
    if (!argShapes.empty()) {
      if (argShapes.size() != body.getNumArguments())
        return function.emitError("specializing to ")
               << argShapes.size() << " argument shapes, but the function has "
               << body.getNumArguments() << " arguments";
      for (auto [i, text] : llvm::enumerate(argShapes)) {
        BlockArgument arg = body.getArgument(i);
        FailureOr<SmallVector<int64_t>> shape = parseShape(text);
        if (failed(shape))
          return function.emitError("argument shape '")
                 << text << "' is not sizes joined by 'x' nor 'scalar'";
        auto tensor = dyn_cast<RankedTensorType>(arg.getType());
        if (!tensor || tensor.getRank() != static_cast<int64_t>(shape->size()) ||
            llvm::any_of(llvm::zip(tensor.getShape(), *shape), [](auto dims) {
              auto [declared, given] = dims;
              return declared != ShapedType::kDynamic && declared != given;
            }))
          return function.emitError("argument ")
                 << i << " of type " << arg.getType() << " cannot have shape "
                 << text;
        arg.setType(RankedTensorType::get(*shape, tensor.getElementType()));
      }
    }
    OpBuilder builder = OpBuilder::atBlockBegin(&body);
    for (StringRef text : argValues) {
      auto [index, value] = text.split('=');
      unsigned i;
      int64_t v;
      if (index.getAsInteger(10, i) || value.getAsInteger(10, v))
        return function.emitError("argument value '")
               << text << "' is not index=value";
      if (i >= body.getNumArguments() ||
          !isScalarInteger(body.getArgument(i).getType()))
        return function.emitError("argument ")
               << i << " is not a scalar integer argument to give a value";
      BlockArgument arg = body.getArgument(i);
      auto type = cast<RankedTensorType>(arg.getType());
      unsigned width = type.getElementType().getIntOrFloatBitWidth();
      auto constant = stablehlo::ConstantOp::create(
          builder, arg.getLoc(),
          DenseIntElementsAttr::get(type, APInt(width, v, true)));
      arg.replaceAllUsesWith(constant);
    }
    function.setType(FunctionType::get(&getContext(), body.getArgumentTypes(),
                                       function.getResultTypes()));
    (void)refiner;
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool specializing = !argShapes.empty() || !argValues.empty();
    Refiner refiner;
    func::FuncOp entryFunction = findEntry();
    if (specializing) {
      if (!entryFunction) {
        module.emitError("no entry function to specialize")
            << (entry.empty() ? std::string() : " named '" + entry + "'");
        return signalPassFailure();
      }
      if (failed(specialize(entryFunction, refiner)))
        return signalPassFailure();
    }

    for (auto function : module.getOps<func::FuncOp>()) {
      if (function.isExternal())
        continue;
      if (failed(refiner.refineBlock(function.front())))
        return signalPassFailure();
      // Callers of a private function would see its types change: only
      // public functions take the refined result types.
      if (function.isPublic())
        function.setType(FunctionType::get(
            &getContext(), function.getArgumentTypes(),
            function.front().getTerminator()->getOperandTypes()));
    }

    // What was evaluated becomes constants, so the dynamic ops that read
    // them become static and the arithmetic dies.
    for (auto [known, attr] : refiner.known.all()) {
      Value value = known;
      Operation *def = value.getDefiningOp();
      if (!def || isa<stablehlo::ConstantOp>(def) || value.use_empty())
        continue;
      OpBuilder builder(def->getContext());
      builder.setInsertionPointAfter(def);
      auto constant = stablehlo::ConstantOp::create(builder, def->getLoc(), attr);
      value.replaceAllUsesWith(constant.getResult());
    }
    RewritePatternSet patterns(&getContext());
    populateStaticShapePatterns(patterns);
    if (failed(applyRewritesOnly(module, std::move(patterns))))
      return signalPassFailure();

    if (!specializing)
      return;
    // A specialized entry is static throughout, or says where it is not.
    bool dynamic = false;
    entryFunction.walk([&](Operation *op) {
      for (Type type : op->getResultTypes()) {
        auto tensor = dyn_cast<RankedTensorType>(type);
        if (tensor && !tensor.hasStaticShape()) {
          op->emitError("the shape of this result, ")
              << type << ", is still dynamic with the arguments specialized: "
              << "the op's shape operands are not computed from argument "
                 "shapes and dimension arguments alone";
          dynamic = true;
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (dynamic)
      signalPassFailure();
  }
};

} // namespace

SmallVector<unsigned> getDimensionArguments(func::FuncOp function) {
  SmallVector<unsigned> found;
  if (function.isExternal())
    return found;
  for (BlockArgument arg : function.front().getArguments()) {
    if (!isScalarInteger(arg.getType()))
      continue;
    llvm::DenseSet<Value> tainted{arg};
    bool determinesShape = false;
    function.walk<WalkOrder::PreOrder>([&](Operation *op) {
      bool reads = llvm::any_of(op->getOperands(),
                                [&](Value v) { return tainted.contains(v); });
      if (!reads)
        return WalkResult::advance();
      for (Value v : shapeOperands(op))
        if (tainted.contains(v))
          determinesShape = true;
      if (determinesShape)
        return WalkResult::interrupt();
      for (Value result : op->getResults())
        tainted.insert(result);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument blockArg : block.getArguments())
            tainted.insert(blockArg);
      return WalkResult::advance();
    });
    if (determinesShape)
      found.push_back(arg.getArgNumber());
  }
  return found;
}

} // namespace mlir::stablehlo_tvm
