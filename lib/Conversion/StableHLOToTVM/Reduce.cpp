//===- Reduce.cpp - reduce with a known body to Relax reductions ----------===//
//
// A single-input reduce whose body is one of add, multiply, maximum, minimum
// applied to its two arguments is a Relax sum/prod/max/min. StableHLO folds
// the init value into the reduction, so unless it is a constant equal to the
// operation's identity it is combined with the reduced value afterwards.
//
//===----------------------------------------------------------------------===//

#include "DeclineReasons.h"
#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::stablehlo_tvm {
namespace {

enum class ReductionKind { Sum, Prod, Max, Min };

/// The reduction a body computes, if it is a single known binary op.
std::optional<ReductionKind> matchReductionBody(Block &body) {
  if (body.getNumArguments() != 2 || !llvm::hasNItems(body, 2))
    return std::nullopt;
  Operation &inner = body.front();
  auto ret = dyn_cast<stablehlo::ReturnOp>(body.back());
  if (!ret || ret.getNumOperands() != 1 ||
      ret.getOperand(0) != inner.getResult(0) || inner.getNumOperands() != 2)
    return std::nullopt;
  Value a = inner.getOperand(0), b = inner.getOperand(1);
  if (!((a == body.getArgument(0) && b == body.getArgument(1)) ||
        (a == body.getArgument(1) && b == body.getArgument(0))))
    return std::nullopt;
  if (isa<stablehlo::AddOp>(inner))
    return ReductionKind::Sum;
  if (isa<stablehlo::MulOp>(inner))
    return ReductionKind::Prod;
  if (isa<stablehlo::MaxOp>(inner))
    return ReductionKind::Max;
  if (isa<stablehlo::MinOp>(inner))
    return ReductionKind::Min;
  // On i1, or/and are max/min (and so are add/multiply, see below).
  if (isa<stablehlo::OrOp>(inner) &&
      getElementTypeOrSelf(inner.getResult(0).getType()).isInteger(1))
    return ReductionKind::Max;
  if (isa<stablehlo::AndOp>(inner) &&
      getElementTypeOrSelf(inner.getResult(0).getType()).isInteger(1))
    return ReductionKind::Min;
  return std::nullopt;
}

/// True when `init` is a constant that leaves the reduction unchanged.
bool isIdentity(ReductionKind kind, Value init) {
  DenseElementsAttr attr;
  if (!matchPattern(init, m_Constant(&attr)) || !attr.isSplat())
    return false;
  Type type = attr.getElementType();
  if (auto floatType = dyn_cast<FloatType>(type)) {
    APFloat value = attr.getSplatValue<APFloat>();
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    switch (kind) {
    case ReductionKind::Sum:
      return value.isZero();
    case ReductionKind::Prod:
      return value.compare(APFloat::getOne(sem)) == APFloat::cmpEqual;
    case ReductionKind::Max:
      return value.isInfinity() && value.isNegative();
    case ReductionKind::Min:
      return value.isInfinity() && !value.isNegative();
    }
  }
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType || intType.getWidth() == 1)
    return false;
  APInt value = attr.getSplatValue<APInt>();
  unsigned width = intType.getWidth();
  bool isUnsigned = intType.isUnsigned();
  switch (kind) {
  case ReductionKind::Sum:
    return value.isZero();
  case ReductionKind::Prod:
    return value.isOne();
  case ReductionKind::Max:
    return value == (isUnsigned ? APInt::getMinValue(width)
                                : APInt::getSignedMinValue(width));
  case ReductionKind::Min:
    return value == (isUnsigned ? APInt::getMaxValue(width)
                                : APInt::getSignedMaxValue(width));
  }
  return false;
}

/// Relax's max/min reductions skip NaN; StableHLO's maximum/minimum bodies
/// propagate it. Where the reduced slice holds a NaN, the result is NaN.
Value propagateNaN(OpBuilder &builder, Location loc, RankedTensorType type,
                   Value input, ArrayRef<int64_t> dims, Value reduced) {
  auto inputType = cast<RankedTensorType>(input.getType());
  Type i8 = builder.getIntegerType(8);
  Value nanCount = tvm::AsTypeOp::create(builder, loc, inputType.clone(i8),
                                         isNaN(builder, loc, input),
                                         TypeAttr::get(i8));
  Value anyNaN = tvm::MaxOp::create(builder, loc, type.clone(i8), nanCount,
                                    builder.getDenseI64ArrayAttr(dims),
                                    builder.getBoolAttr(false));
  Value zero = splatConstant(builder, loc, type.clone(i8),
                             builder.getIntegerAttr(i8, 0), reduced);
  anyNaN = tvm::GreaterOp::create(builder, loc, type.clone(builder.getI1Type()),
                                  anyNaN, zero);
  auto floatType = cast<FloatType>(type.getElementType());
  Value nan = splatConstant(
      builder, loc, type,
      builder.getFloatAttr(floatType,
                           APFloat::getNaN(floatType.getFloatSemantics())),
      reduced);
  return tvm::WhereOp::create(builder, loc, type, anyNaN, nan, reduced);
}

/// Whether every reduced dimension has size 1: each result is then one
/// element (combined with the init value unless it is the identity, where
/// XLA keeps a sum's -0 too), a reshape; Relax's reduction of it was a
/// scalar loop.
bool isUnitReduction(RankedTensorType type, RankedTensorType inputType,
                     ArrayRef<int64_t> dims) {
  return !dims.empty() && type.hasStaticShape() && inputType.hasStaticShape() &&
         llvm::all_of(dims,
                      [&](int64_t d) { return inputType.getDimSize(d) == 1; });
}

template <typename ReduceOp, typename CombineOp>
Value emitReduction(OpBuilder &builder, Location loc, RankedTensorType type,
                    Value input, Value init, ArrayRef<int64_t> dims,
                    bool initIsIdentity, bool nanPropagates = false) {
  Value result = input;
  // Nothing to reduce: every result is the init value (Relax's reduction
  // of an empty bf16 tensor is not its identity).
  auto inputType = cast<RankedTensorType>(input.getType());
  if (type.hasStaticShape() &&
      llvm::any_of(dims, [&](int64_t d) { return inputType.getDimSize(d) == 0; }))
    return broadcastTo(builder, loc, init, type.getShape());
  if (isUnitReduction(type, inputType, dims)) {
    result = reshapeTo(builder, loc, input, type.getShape());
  } else if (!dims.empty()) {
    result = ReduceOp::create(builder, loc, type, input,
                              builder.getDenseI64ArrayAttr(dims),
                              builder.getBoolAttr(false));
    if (nanPropagates && isa<FloatType>(type.getElementType()))
      result = propagateNaN(builder, loc, type, input, dims, result);
  }
  if (initIsIdentity)
    return result;
  Value initTensor = broadcastTo(builder, loc, init, type.getShape(), result);
  Value combined = CombineOp::create(builder, loc, type, result, initTensor);
  if (nanPropagates)
    combined = nanPropagating(builder, loc, result, initTensor, combined);
  return combined;
}

/// A reduction of booleans: "any" (or, add, maximum) or "all" (and,
/// multiply, minimum), as a max/min over i8 compared with 0, then combined
/// with the init value unless it is the identity (false for any, true for
/// all).
Value emitBoolReduction(OpBuilder &builder, Location loc, RankedTensorType type,
                        Value input, Value init, ArrayRef<int64_t> dims,
                        bool any, Value originalInit) {
  Type i8 = builder.getIntegerType(8);
  auto inputType = cast<RankedTensorType>(input.getType());
  Value result = input;
  if (isUnitReduction(type, inputType, dims)) {
    result = reshapeTo(builder, loc, input, type.getShape());
  } else if (!dims.empty()) {
    Value bytes = tvm::AsTypeOp::create(builder, loc, inputType.clone(i8), input,
                                        TypeAttr::get(i8));
    Value reduced =
        any ? Value(tvm::MaxOp::create(builder, loc, type.clone(i8), bytes,
                                       builder.getDenseI64ArrayAttr(dims),
                                       builder.getBoolAttr(false)))
            : Value(tvm::MinOp::create(builder, loc, type.clone(i8), bytes,
                                       builder.getDenseI64ArrayAttr(dims),
                                       builder.getBoolAttr(false)));
    Value zero = splatConstant(builder, loc, type.clone(i8),
                               builder.getIntegerAttr(i8, 0), reduced);
    result = tvm::NotEqualOp::create(builder, loc, type, reduced, zero);
  }
  DenseElementsAttr attr;
  if (matchPattern(originalInit, m_Constant(&attr)) && attr.isSplat() &&
      attr.getSplatValue<bool>() == !any && !dims.empty())
    return result;
  Value initTensor = broadcastTo(builder, loc, init, type.getShape(), result);
  if (any)
    return tvm::LogicalOrOp::create(builder, loc, type, result, initTensor);
  return tvm::LogicalAndOp::create(builder, loc, type, result, initTensor);
}

struct ReduceConversion : TVMTypedPattern<stablehlo::ReduceOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(stablehlo::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getInputs().size() != 1)
      return decline(rewriter, op, "reduce of several inputs");
    auto type = cast<RankedTensorType>(op.getResult(0).getType());
    std::optional<ReductionKind> kind = matchReductionBody(op.getBody().front());
    if (!kind)
      return decline(rewriter, op, "reduction body not recognized");
    Value input = adaptor.getInputs().front();
    Value init = adaptor.getInitValues().front();
    // Nothing to reduce: each result is the init value. TVM's reductions
    // over no element are not (an i1 `and` of nothing came out false).
    auto inputType = cast<RankedTensorType>(input.getType());
    if (inputType.hasStaticShape() && inputType.getNumElements() == 0 &&
        type.hasStaticShape()) {
      rewriter.replaceOp(op, broadcastTo(rewriter, op.getLoc(), init,
                                         type.getShape(), init));
      return success();
    }
    if (type.getElementType().isInteger(1)) {
      bool any = *kind == ReductionKind::Sum || *kind == ReductionKind::Max;
      rewriter.replaceOp(op, emitBoolReduction(rewriter, op.getLoc(), type,
                                               input, init, op.getDimensions(),
                                               any, op.getInitValues().front()));
      return success();
    }
    // Relax sums f16 and bf16 in f32, rounding once; XLA rounds after each
    // addition (and multiplication), in the order the kernel folds
    // (stablehlo-tree-reduce-half-floats).
    Type element = type.getElementType();
    if ((element.isF16() || element.isBF16()) &&
        (*kind == ReductionKind::Sum || *kind == ReductionKind::Prod))
      return decline(rewriter, op, "f16/bf16 sum folded in order by the kernel");
    bool identity = isIdentity(*kind, op.getInitValues().front());
    Location loc = op.getLoc();
    ArrayRef<int64_t> dims = op.getDimensions();
    Value result;
    switch (*kind) {
    case ReductionKind::Sum:
      result = emitReduction<tvm::SumOp, tvm::AddOp>(rewriter, loc, type, input,
                                                     init, dims, identity);
      break;
    case ReductionKind::Prod:
      result = emitReduction<tvm::ProdOp, tvm::MultiplyOp>(
          rewriter, loc, type, input, init, dims, identity);
      break;
    case ReductionKind::Max:
      result = emitReduction<tvm::MaxOp, tvm::MaximumOp>(
          rewriter, loc, type, input, init, dims, identity,
          /*nanPropagates=*/true);
      break;
    case ReductionKind::Min:
      result = emitReduction<tvm::MinOp, tvm::MinimumOp>(
          rewriter, loc, type, input, init, dims, identity,
          /*nanPropagates=*/true);
      break;
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateReducePatterns(MLIRContext *context,
                            RewritePatternSet &patterns) {
  // Preferred over the kernel for any body (ReduceKernel.cpp).
  patterns.add<ReduceConversion>(context, /*benefit=*/2);
}

} // namespace mlir::stablehlo_tvm
