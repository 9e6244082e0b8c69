//===- Simplify.cpp - Equivalent forms the conversion handles -------------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "stablehlo-tvm/Dialect/CHLO/IR/CHLO.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_SIMPLIFY
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

bool isStatic(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape();
}

struct CompositeToCall : OpRewritePattern<stablehlo::CompositeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::CompositeOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<func::CallOp>(op, op.getDecomposition(),
                                              op.getResultTypes(),
                                              op.getInputs());
    return success();
  }
};

struct TupleElementOfTuple : OpRewritePattern<stablehlo::GetTupleElementOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::GetTupleElementOp op,
                                PatternRewriter &rewriter) const override {
    auto tuple = op.getOperand().getDefiningOp<stablehlo::TupleOp>();
    if (!tuple)
      return failure();
    rewriter.replaceOp(op, tuple.getVal()[op.getIndex()]);
    return success();
  }
};

/// batch_group_count G: the lhs batch split into G slices, slice g convolved
/// with output-feature group g. That is a feature-group convolution over the
/// lhs with its batch slices moved beside its features: [B, F, ...] ->
/// [G, B/G, F, ...] -> [B/G, G, F, ...] -> [B/G, G*F, ...].
struct BatchGroupsAsFeatureGroups : OpRewritePattern<stablehlo::ConvolutionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::ConvolutionOp op,
                                PatternRewriter &rewriter) const override {
    int64_t groups = op.getBatchGroupCount();
    auto lhsType = dyn_cast<RankedTensorType>(op.getLhs().getType());
    if (groups == 1 || op.getFeatureGroupCount() != 1 || !lhsType ||
        !lhsType.hasStaticShape())
      return failure();
    auto dims = op.getDimensionNumbers();
    ArrayRef<int64_t> shape = lhsType.getShape();
    int64_t batch = shape[dims.getInputBatchDimension()];
    int64_t features = shape[dims.getInputFeatureDimension()];
    SmallVector<int64_t> perm{dims.getInputBatchDimension(),
                              dims.getInputFeatureDimension()};
    llvm::append_range(perm, dims.getInputSpatialDimensions());
    SmallVector<int64_t> spatial;
    for (int64_t d : dims.getInputSpatialDimensions())
      spatial.push_back(shape[d]);
    Location loc = op.getLoc();
    auto shaped = [&](ArrayRef<int64_t> lead) {
      SmallVector<int64_t> full(lead);
      llvm::append_range(full, spatial);
      return lhsType.clone(full);
    };
    Value x = stablehlo::TransposeOp::create(rewriter, loc,
                                             shaped({batch, features}),
                                             op.getLhs(),
                                             rewriter.getDenseI64ArrayAttr(perm));
    x = stablehlo::ReshapeOp::create(
        rewriter, loc, shaped({groups, batch / groups, features}), x);
    SmallVector<int64_t> swap{1, 0};
    for (size_t d = 0; d <= spatial.size(); ++d)
      swap.push_back(2 + d);
    x = stablehlo::TransposeOp::create(
        rewriter, loc, shaped({batch / groups, groups, features}), x,
        rewriter.getDenseI64ArrayAttr(swap));
    x = stablehlo::ReshapeOp::create(
        rewriter, loc, shaped({batch / groups, groups * features}), x);
    SmallVector<int64_t> newSpatial;
    for (size_t d = 0; d < spatial.size(); ++d)
      newSpatial.push_back(2 + d);
    auto newDims = stablehlo::ConvDimensionNumbersAttr::get(
        rewriter.getContext(), 0, 1, newSpatial,
        dims.getKernelInputFeatureDimension(),
        dims.getKernelOutputFeatureDimension(),
        dims.getKernelSpatialDimensions(), dims.getOutputBatchDimension(),
        dims.getOutputFeatureDimension(), dims.getOutputSpatialDimensions());
    auto conv = cast<stablehlo::ConvolutionOp>(rewriter.clone(*op));
    rewriter.modifyOpInPlace(conv, [&] {
      conv.getLhsMutable().assign(x);
      conv.setDimensionNumbersAttr(newDims);
      conv.setFeatureGroupCount(groups);
      conv.setBatchGroupCount(1);
    });
    rewriter.replaceOp(op, conv.getResult());
    return success();
  }
};

/// chlo.scan as a while loop over positions: the carried values are the
/// counter, the scan's carries and one accumulator per output; each step
/// slices the inputs at the position, runs the body and writes the output
/// slices back with dynamic_update_slice.
struct ScanToWhile : OpRewritePattern<chlo::ScanOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(chlo::ScanOp op,
                                PatternRewriter &rewriter) const override {
    int64_t dim = op.getDimension();
    size_t numInputs = op.getInputs().size(), numCarries = op.getInits().size();
    size_t numOutputs = op.getNumResults() - numCarries;
    if (numInputs == 0)
      return rewriter.notifyMatchFailure(op, "nothing to scan");
    auto firstInput = cast<RankedTensorType>(op.getInputs()[0].getType());
    if (!firstInput.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    int64_t length = firstInput.getDimSize(dim);
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    auto scalarType = RankedTensorType::get({}, i64);
    auto scalar = [&](OpBuilder &b, int64_t v) -> Value {
      return stablehlo::ConstantOp::create(
          b, loc, DenseElementsAttr::get(scalarType, b.getI64IntegerAttr(v)));
    };
    // counter, carries, output accumulators (zeros).
    SmallVector<Value> initial{scalar(rewriter, 0)};
    llvm::append_range(initial, op.getInits());
    for (Value result : op.getResults().take_front(numOutputs)) {
      auto type = cast<RankedTensorType>(result.getType());
      initial.push_back(stablehlo::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(type,
                                 rewriter.getZeroAttr(type.getElementType()))));
    }
    SmallVector<Type> types = llvm::to_vector(ValueRange(initial).getTypes());
    auto loop = stablehlo::WhileOp::create(rewriter, loc, types, initial);
    SmallVector<Location> locs(types.size(), loc);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      Block *cond = rewriter.createBlock(&loop.getCond(), {}, types, locs);
      auto predType = RankedTensorType::get({}, rewriter.getI1Type());
      Value more = stablehlo::CompareOp::create(
          rewriter, loc, predType, cond->getArgument(0), scalar(rewriter, length),
          stablehlo::ComparisonDirectionAttr::get(
              rewriter.getContext(), stablehlo::ComparisonDirection::LT),
          stablehlo::ComparisonTypeAttr{});
      stablehlo::ReturnOp::create(rewriter, loc, more);

      Block *body = rewriter.createBlock(&loop.getBody(), {}, types, locs);
      Value counter = body->getArgument(0);
      Value position = counter;
      if (op.getIsReverse())
        position = stablehlo::SubtractOp::create(
            rewriter, loc, scalarType, scalar(rewriter, length - 1), counter);
      Value zero = scalar(rewriter, 0);
      auto starts = [&](int64_t rank) {
        SmallVector<Value> s(rank, zero);
        s[dim] = position;
        return s;
      };
      IRMapping map;
      Block &scanBody = op.getBody().front();
      for (auto [input, arg] :
           llvm::zip(op.getInputs(), scanBody.getArguments().take_front(numInputs))) {
        auto type = cast<RankedTensorType>(input.getType());
        SmallVector<int64_t> sizes(type.getShape());
        sizes[dim] = 1;
        Value slice = stablehlo::DynamicSliceOp::create(
            rewriter, loc, type.clone(sizes), input, starts(type.getRank()),
            rewriter.getDenseI64ArrayAttr(sizes));
        map.map(arg, stablehlo::ReshapeOp::create(rewriter, loc, arg.getType(),
                                                  slice));
      }
      for (auto [carried, arg] :
           llvm::zip(body->getArguments().slice(1, numCarries),
                     scanBody.getArguments().drop_front(numInputs)))
        map.map(arg, carried);
      for (Operation &inner : scanBody.without_terminator())
        rewriter.clone(inner, map);
      auto yield = cast<stablehlo::ReturnOp>(scanBody.getTerminator());
      SmallVector<Value> yielded;
      for (Value v : yield.getOperands())
        yielded.push_back(map.lookupOrDefault(v));
      SmallVector<Value> next{stablehlo::AddOp::create(
          rewriter, loc, scalarType, counter, scalar(rewriter, 1))};
      llvm::append_range(next, ArrayRef<Value>(yielded).drop_front(numOutputs));
      for (size_t k = 0; k < numOutputs; ++k) {
        Value acc = body->getArgument(1 + numCarries + k);
        auto type = cast<RankedTensorType>(acc.getType());
        SmallVector<int64_t> sizes(type.getShape());
        sizes[dim] = 1;
        Value update = stablehlo::ReshapeOp::create(rewriter, loc,
                                                    type.clone(sizes), yielded[k]);
        next.push_back(stablehlo::DynamicUpdateSliceOp::create(
            rewriter, loc, type, acc, update, starts(type.getRank())));
      }
      stablehlo::ReturnOp::create(rewriter, loc, next);
    }
    SmallVector<Value> results;
    for (size_t k = 0; k < numOutputs; ++k)
      results.push_back(loop.getResult(1 + numCarries + k));
    for (size_t m = 0; m < numCarries; ++m)
      results.push_back(loop.getResult(1 + m));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// real/imag of a real tensor: the tensor itself, and zeros.
template <typename PartOp, bool isImag>
struct PartOfReal : OpRewritePattern<PartOp> {
  using OpRewritePattern<PartOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(PartOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<ShapedType>(op.getOperand().getType());
    if (isa<ComplexType>(type.getElementType()))
      return failure();
    if (!isImag) {
      rewriter.replaceOp(op, op.getOperand());
      return success();
    }
    if (!isStatic(type))
      return failure();
    Attribute zero = rewriter.getZeroAttr(type.getElementType());
    rewriter.replaceOpWithNewOp<stablehlo::ConstantOp>(
        op, DenseElementsAttr::get(type, zero));
    return success();
  }
};

/// The float every element of `value` is, when it is a splat constant, a
/// broadcast of one, or a sum, difference, product or negation of such
/// (autodiff writes pow(x, p)'s derivative with exponent p - 1), computed
/// as the program would (IEEE, round to nearest even).
std::optional<APFloat> splatFloat(Value value, int depth = 0) {
  if (depth > 8)
    return std::nullopt;
  while (auto broadcast = value.getDefiningOp<stablehlo::BroadcastInDimOp>())
    value = broadcast.getOperand();
  DenseFPElementsAttr constant;
  if (matchPattern(value, m_Constant(&constant)))
    return constant.isSplat()
               ? std::optional<APFloat>(constant.getSplatValue<APFloat>())
               : std::nullopt;
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  // Keras writes ops.power(x, 2) as a float power of a converted integer.
  if (auto convert = dyn_cast<stablehlo::ConvertOp>(op)) {
    auto target = dyn_cast<FloatType>(getElementTypeOrSelf(convert.getType()));
    if (!target)
      return std::nullopt;
    const llvm::fltSemantics &semantics = target.getFloatSemantics();
    DenseIntElementsAttr integers;
    if (matchPattern(convert.getOperand(), m_Constant(&integers))) {
      if (!integers.isSplat() || integers.getElementType().isInteger(1))
        return std::nullopt;
      APFloat result(semantics);
      result.convertFromAPInt(integers.getSplatValue<APInt>(),
                              !integers.getElementType().isUnsignedInteger(),
                              APFloat::rmNearestTiesToEven);
      return result;
    }
    std::optional<APFloat> operand = splatFloat(convert.getOperand(), depth + 1);
    bool lost = false;
    if (operand)
      operand->convert(semantics, APFloat::rmNearestTiesToEven, &lost);
    return operand;
  }
  if (auto negate = dyn_cast<stablehlo::NegOp>(op)) {
    std::optional<APFloat> operand = splatFloat(negate.getOperand(), depth + 1);
    if (operand)
      operand->changeSign();
    return operand;
  }
  if (!isa<stablehlo::AddOp, stablehlo::SubtractOp, stablehlo::MulOp>(op))
    return std::nullopt;
  std::optional<APFloat> lhs = splatFloat(op->getOperand(0), depth + 1);
  std::optional<APFloat> rhs = splatFloat(op->getOperand(1), depth + 1);
  if (!lhs || !rhs)
    return std::nullopt;
  constexpr auto rounding = APFloat::rmNearestTiesToEven;
  if (isa<stablehlo::AddOp>(op))
    lhs->add(*rhs, rounding);
  else if (isa<stablehlo::SubtractOp>(op))
    lhs->subtract(*rhs, rounding);
  else
    lhs->multiply(*rhs, rounding);
  return lhs;
}

/// Float power by a constant 0, 1, 2, 3 or -1 (see splatFloat): 1, x, x * x,
/// (x * x) * x, 1 / x. Exact but for 3 (pow is correctly rounded there,
/// and pow(x, 0) is 1 even for NaN); XLA rewrites pow(x, 3) but in bf16 to
/// the same two products, measured bit for bit. C's pow is a scalar libm
/// call per element where these vectorize.
struct PowerByConstant : OpRewritePattern<stablehlo::PowOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::PowOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<ShapedType>(op.getType());
    if (!isa<FloatType>(type.getElementType()))
      return failure();
    std::optional<APFloat> exponent = splatFloat(op.getRhs());
    if (!exponent)
      return failure();
    Value x = op.getLhs();
    if (exponent->isExactlyValue(1.0)) {
      rewriter.replaceOp(op, x);
      return success();
    }
    if (exponent->isExactlyValue(2.0)) {
      rewriter.replaceOpWithNewOp<stablehlo::MulOp>(op, x, x);
      return success();
    }
    // XLA keeps bf16's product in f32 for the second multiply (f16's it
    // rounds): there pow, computed in f32, is what matches.
    if (exponent->isExactlyValue(3.0) && !type.getElementType().isBF16()) {
      Value square = stablehlo::MulOp::create(rewriter, op.getLoc(), x, x);
      rewriter.replaceOpWithNewOp<stablehlo::MulOp>(op, square, x);
      return success();
    }
    bool zero = exponent->isZero();
    if (!(zero || exponent->isExactlyValue(-1.0)) || !isStatic(type))
      return failure();
    Value one = stablehlo::ConstantOp::create(
        rewriter, op.getLoc(),
        DenseElementsAttr::get(
            type, rewriter.getFloatAttr(type.getElementType(), 1.0)));
    if (zero)
      rewriter.replaceOp(op, one);
    else
      rewriter.replaceOpWithNewOp<stablehlo::DivOp>(op, one, x);
    return success();
  }
};

/// The reciprocal of a float, if it and the float are finite, nonzero and
/// normal (1 / x of a subnormal x overflows where x / y did not).
std::optional<APFloat> reciprocal(const APFloat &value) {
  if (!value.isFiniteNonZero() || value.isDenormal())
    return std::nullopt;
  APFloat result(value.getSemantics(), 1);
  result.divide(value, APFloat::rmNearestTiesToEven);
  if (!result.isFiniteNonZero() || result.isDenormal())
    return std::nullopt;
  return result;
}

/// x / c for a constant c (a splat, possibly broadcast, or any constant
/// tensor) in f16, f32 or f64 as x * (1 / c), the reciprocal rounded to the
/// element type: XLA's algebraic simplifier makes this rewrite, and x / 3
/// and x * (1/3) differ in the last bit for a third of the x (a mean's
/// division by its count, everywhere). bf16 XLA divides.
struct DivisionByConstant : OpRewritePattern<stablehlo::DivOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::DivOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<ShapedType>(op.getType());
    Type element = type.getElementType();
    if (!(element.isF16() || element.isF32() || element.isF64()) ||
        matchPattern(op.getLhs(), m_Constant()))
      return failure();
    Location loc = op.getLoc();
    // A constant, possibly broadcast: its reciprocals, broadcast the same
    // way (a splat stays the small constant it was).
    SmallVector<stablehlo::BroadcastInDimOp> broadcasts;
    Value source = op.getRhs();
    while (auto broadcast = source.getDefiningOp<stablehlo::BroadcastInDimOp>()) {
      broadcasts.push_back(broadcast);
      source = broadcast.getOperand();
    }
    Value inverse;
    DenseFPElementsAttr constant;
    if (matchPattern(source, m_Constant(&constant))) {
      SmallVector<APFloat> inverted;
      for (APFloat value : constant.getValues<APFloat>()) {
        std::optional<APFloat> one = reciprocal(value);
        if (!one)
          return failure();
        inverted.push_back(*one);
      }
      inverse = stablehlo::ConstantOp::create(
          rewriter, loc, DenseElementsAttr::get(constant.getType(), inverted));
      for (stablehlo::BroadcastInDimOp broadcast : llvm::reverse(broadcasts))
        inverse = stablehlo::BroadcastInDimOp::create(
            rewriter, loc, broadcast.getType(), inverse,
            broadcast.getBroadcastDimensionsAttr());
    } else {
      // A constant computed from constants (splatFloat): its reciprocal
      // as a scalar, broadcast.
      std::optional<APFloat> divisor = splatFloat(op.getRhs());
      std::optional<APFloat> inverted =
          divisor ? reciprocal(*divisor) : std::nullopt;
      if (!inverted || !isStatic(type))
        return failure();
      auto scalar = RankedTensorType::get({}, element);
      inverse = stablehlo::ConstantOp::create(
          rewriter, loc, DenseElementsAttr::get(scalar, *inverted));
      inverse = stablehlo::BroadcastInDimOp::create(
          rewriter, loc, type, inverse, rewriter.getDenseI64ArrayAttr({}));
    }
    rewriter.replaceOpWithNewOp<stablehlo::MulOp>(op, op.getLhs(), inverse);
    return success();
  }
};

/// Whether `a` and `b` are one value: the same SSA value, or the same
/// result of two side-effect-free ops of one kind, attributes and types on
/// operands that are one value themselves (up to `depth` ops down), as
/// (a * b) - (a * b) computed twice. TVM's simplifier folds such an x - x
/// to 0 after this pass; a module-wide CSE, which would show it here, also
/// moved values a loop body recomputes out of it (blackjax's HMC steps ran
/// at half speed as loops reading captured values).
static bool oneValue(Value a, Value b, unsigned depth = 8) {
  if (a == b)
    return true;
  auto ra = dyn_cast<OpResult>(a), rb = dyn_cast<OpResult>(b);
  if (!ra || !rb || depth == 0 ||
      ra.getResultNumber() != rb.getResultNumber())
    return false;
  Operation *x = ra.getOwner(), *y = rb.getOwner();
  if (x->getNumRegions() || !isMemoryEffectFree(x) || !isMemoryEffectFree(y))
    return false;
  return OperationEquivalence::isEquivalentTo(
      x, y,
      [&](Value l, Value r) {
        return success(oneValue(l, r, depth - 1));
      },
      /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
}

/// Float (and complex) x - x as x * 0 + 0: 0 for finite x and NaN for NaN
/// and infinities, as the subtraction. TVM's arithmetic simplifier folds
/// x - x to 0 outright (it does not fold x * 0), which loses the NaN; JAX
/// writes it wherever stop_gradient(x) meets x (x - stop_gradient(x)).
/// A complex x takes it part by part: a complex product by 0 would mix an
/// infinite part's NaN into the other part (x - x is 0 + NaN i for
/// x = 1 + inf i).
struct SelfSubtraction : OpRewritePattern<stablehlo::SubtractOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::SubtractOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!oneValue(op.getLhs(), op.getRhs()) || !type ||
        !type.hasStaticShape() ||
        !isa<FloatType, ComplexType>(type.getElementType()))
      return failure();
    Location loc = op.getLoc();
    auto timesZeroPlusZero = [&](Value x) -> Value {
      auto real = cast<RankedTensorType>(x.getType());
      auto zero = DenseElementsAttr::get(
          real, rewriter.getFloatAttr(real.getElementType(), 0.0));
      Value zeros = stablehlo::ConstantOp::create(rewriter, loc,
                                                  cast<ElementsAttr>(zero));
      Value product = stablehlo::MulOp::create(rewriter, loc, x, zeros);
      return stablehlo::AddOp::create(rewriter, loc, product, zeros);
    };
    Value x = op.getLhs();
    if (!isa<ComplexType>(type.getElementType())) {
      rewriter.replaceOp(op, timesZeroPlusZero(x));
      return success();
    }
    auto part = type.clone(cast<ComplexType>(type.getElementType())
                               .getElementType());
    Value re = timesZeroPlusZero(
        stablehlo::RealOp::create(rewriter, loc, part, x));
    Value im = timesZeroPlusZero(
        stablehlo::ImagOp::create(rewriter, loc, part, x));
    rewriter.replaceOpWithNewOp<stablehlo::ComplexOp>(op, type, re, im);
    return success();
  }
};

/// select(c, x, x) is x. TVM's simplifier makes the same fold, but only
/// after this pass, so an x - x it then exposes (select(c, x, x) - x in a
/// map body) became 0 where x is infinite: folded here first, the
/// subtraction is SelfSubtraction's.
struct SelectOfOneValue : OpRewritePattern<stablehlo::SelectOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::SelectOp op,
                                PatternRewriter &rewriter) const override {
    if (!oneValue(op.getOnTrue(), op.getOnFalse()) ||
        op.getOnTrue().getType() != op.getType())
      return failure();
    rewriter.replaceOp(op, op.getOnTrue());
    return success();
  }
};

/// Float (and complex) select(c, a, b) - b as select(c, a - b, b - b), and
/// select(c, a, b) - a as select(c, a - a, b - a): TVM's simplifier makes
/// the same move with b - b as 0, which loses the NaN of an infinite b;
/// here the self-subtraction is SelfSubtraction's, which keeps it.
struct SubtractionOfSelectArm : OpRewritePattern<stablehlo::SubtractOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::SubtractOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    auto select = op.getLhs().getDefiningOp<stablehlo::SelectOp>();
    if (!type || !isa<FloatType, ComplexType>(type.getElementType()) ||
        !select || select.getType() != type ||
        select.getOnTrue() == select.getOnFalse()) // SelectOfOneValue's
      return failure();
    Value arm = op.getRhs();
    if (arm != select.getOnTrue() && arm != select.getOnFalse())
      return failure();
    Location loc = op.getLoc();
    Value onTrue = stablehlo::SubtractOp::create(rewriter, loc,
                                                 select.getOnTrue(), arm);
    Value onFalse = stablehlo::SubtractOp::create(rewriter, loc,
                                                  select.getOnFalse(), arm);
    rewriter.replaceOpWithNewOp<stablehlo::SelectOp>(
        op, type, select.getPred(), onTrue, onFalse);
    return success();
  }
};

/// minimum(x, x) and maximum(x, x) are x (NaN included). Left for later,
/// a complex one becomes selects between a part and itself, which TVM folds
/// after this pass, so the x - min(x, x) behind it became 0 where x has an
/// infinite part.
template <typename OpTy>
struct ExtremumOfOneValue : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!oneValue(op.getLhs(), op.getRhs()) ||
        op.getLhs().getType() != op.getType())
      return failure();
    rewriter.replaceOp(op, op.getLhs());
    return success();
  }
};

/// A map whose body is elementwise ops (and scalar constants) as those ops
/// on the whole tensors: every op any conversion handles works in a body
/// (the scalar kernel translator lacks CHLO's math, for one), complex
/// values included, which stablehlo-lower-complex splits in tensors, not in
/// map bodies. Bodies with other ops stay maps.
struct ElementwiseMapAsOps : OpRewritePattern<stablehlo::MapOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::MapOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    Block &body = op.getComputation().front();
    if (!type || !type.hasStaticShape() ||
        static_cast<int64_t>(op.getDimensions().size()) != type.getRank())
      return failure();
    for (Operation &inner : body.without_terminator()) {
      // select and clamp take scalar operands too (no Elementwise trait);
      // on a body's 0-d values they are elementwise, as is a bitcast that
      // keeps the width.
      bool elementwise =
          (inner.hasTrait<OpTrait::Elementwise>() ||
           isa<stablehlo::SelectOp, stablehlo::ClampOp>(inner) ||
           (isa<stablehlo::BitcastConvertOp>(inner) &&
            cast<ShapedType>(inner.getResult(0).getType()).getRank() == 0)) &&
          inner.getNumRegions() == 0;
      if (!elementwise && !isa<stablehlo::ConstantOp>(inner))
        return rewriter.notifyMatchFailure(op, "body is not elementwise");
    }
    IRMapping mapping;
    for (auto [arg, input] : llvm::zip(body.getArguments(), op.getInputs()))
      mapping.map(arg, input);
    auto whole = [&](Type scalar) {
      return type.clone(getElementTypeOrSelf(scalar));
    };
    for (Operation &inner : body.without_terminator()) {
      if (auto constant = dyn_cast<stablehlo::ConstantOp>(inner)) {
        auto value = cast<DenseElementsAttr>(constant.getValue());
        Value splat = stablehlo::ConstantOp::create(
            rewriter, constant.getLoc(),
            value.resizeSplat(whole(constant.getType())));
        mapping.map(constant.getResult(), splat);
        continue;
      }
      SmallVector<Value> operands;
      for (Value operand : inner.getOperands())
        operands.push_back(mapping.lookup(operand));
      SmallVector<Type> types;
      for (Type t : inner.getResultTypes())
        types.push_back(whole(t));
      OperationState state(inner.getLoc(), inner.getName(), operands, types,
                           inner.getAttrs());
      Operation *clone = rewriter.create(state);
      for (auto [from, to] : llvm::zip(inner.getResults(), clone->getResults()))
        mapping.map(from, to);
    }
    rewriter.replaceOp(op, mapping.lookup(body.getTerminator()->getOperand(0)));
    return success();
  }
};

/// A constant the body of a sort, reduce, scatter, window or map op uses
/// from outside (jax.export hoists them: jnp.sort's NaN-ordering
/// comparator) is cloned into the body, which the kernels translate as a
/// scalar function of its arguments alone. Loops and branches keep theirs
/// (stablehlo-isolate-loops carries what they use).
struct ConstantsIntoBodies : RewritePattern {
  ConstantsIntoBodies(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (op->getNumRegions() == 0 ||
        !isa_and_nonnull<stablehlo::StableHLODialect>(op->getDialect()) ||
        isa<stablehlo::WhileOp, stablehlo::IfOp, stablehlo::CaseOp>(op))
      return failure();
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    bool changed = false;
    for (Value value : captured) {
      auto constant = value.getDefiningOp<stablehlo::ConstantOp>();
      if (!constant)
        continue;
      for (Region &region : op->getRegions()) {
        if (region.empty())
          continue;
        rewriter.setInsertionPointToStart(&region.front());
        Operation *copy = rewriter.clone(*constant);
        rewriter.replaceUsesWithIf(value, copy->getResult(0), [&](OpOperand &use) {
          return region.isAncestor(use.getOwner()->getParentRegion());
        });
        changed = true;
      }
    }
    return success(changed);
  }
};

/// clamp on complex numbers or i1 as maximum then minimum, scalar bounds
/// broadcast: the spec defines clamp as that composition, and maximum and
/// minimum are defined there (lexicographic on complex; or and and on i1),
/// where the conversion's clamp compares numbers.
struct ClampAsExtrema : OpRewritePattern<stablehlo::ClampOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::ClampOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    Type element = type.getElementType();
    if (!isStatic(type) || !(isa<ComplexType>(element) || element.isInteger(1)))
      return failure();
    Location loc = op.getLoc();
    auto full = [&](Value bound) -> Value {
      if (bound.getType() == type)
        return bound;
      return stablehlo::BroadcastInDimOp::create(rewriter, loc, type, bound,
                                                 rewriter.getDenseI64ArrayAttr({}));
    };
    Value atLeast = stablehlo::MaxOp::create(rewriter, loc, op.getOperand(), full(op.getMin()));
    rewriter.replaceOpWithNewOp<stablehlo::MinOp>(op, atLeast, full(op.getMax()));
    return success();
  }
};

/// dot_general and convolution on i1 (an or of ands) as the same op in i32
/// on the operands converted, compared with 0: a contraction counts its
/// true products.
template <typename Op>
struct BooleanContraction : OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;
  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    if (!type.getElementType().isInteger(1) || !isStatic(type))
      return failure();
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    SmallVector<Value> widened;
    for (Value operand : op->getOperands())
      widened.push_back(stablehlo::ConvertOp::create(
          rewriter, loc, cast<RankedTensorType>(operand.getType()).clone(i32), operand));
    Operation *count = rewriter.clone(*op.getOperation());
    rewriter.modifyOpInPlace(count, [&] {
      count->setOperands(widened);
      count->getResult(0).setType(type.clone(i32));
    });
    Value zero = stablehlo::ConstantOp::createZeroScalar(rewriter, loc, i32);
    Value zeros = stablehlo::BroadcastInDimOp::create(
        rewriter, loc, type.clone(i32), zero, rewriter.getDenseI64ArrayAttr({}));
    rewriter.replaceOpWithNewOp<stablehlo::CompareOp>(
        op, type, count->getResult(0), zeros,
        stablehlo::ComparisonDirectionAttr::get(rewriter.getContext(),
                                                stablehlo::ComparisonDirection::NE),
        stablehlo::ComparisonTypeAttr{});
    return success();
  }
};

/// custom_call @ApproxTopK (jax.lax.approx_max_k / approx_min_k) as what
/// XLA:CPU runs for it: its inputs sorted along `reduction_dim` by the
/// comparator it names, each sliced to its result's size (the top k, or
/// the longer prefix an un-aggregated call returns), in order.
struct ApproxTopKAsSort : OpRewritePattern<stablehlo::CustomCallOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(stablehlo::CustomCallOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getCallTargetName() != "ApproxTopK")
      return failure();
    auto config = op->getAttrOfType<DictionaryAttr>("mhlo.backend_config");
    auto dimAttr = config ? config.getAs<IntegerAttr>("reduction_dim") : IntegerAttr();
    auto callees = op.getCalledComputationsAttr();
    size_t count = op.getNumResults();
    if (!dimAttr || !callees || callees.size() != 1 ||
        op.getInputs().size() != 2 * count)
      return failure();
    auto comparator = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        op, cast<FlatSymbolRefAttr>(callees[0]));
    if (!comparator || comparator.isExternal())
      return failure();
    int64_t dim = dimAttr.getInt();
    SmallVector<Value> inputs(op.getInputs().take_front(count));
    for (Value v : llvm::concat<Value>(inputs, op.getResults()))
      if (!isStatic(v.getType()))
        return failure();
    Location loc = op.getLoc();
    auto sort = stablehlo::SortOp::create(rewriter, loc, ValueRange(inputs).getTypes(), inputs,
                                          rewriter.getI64IntegerAttr(dim),
                                          rewriter.getBoolAttr(true));
    IRMapping mapping;
    comparator.getBody().cloneInto(&sort.getComparator(), mapping);
    SmallVector<Value> results;
    for (auto [sorted, result] : llvm::zip(sort.getResults(), op.getResults())) {
      auto type = cast<RankedTensorType>(result.getType());
      SmallVector<int64_t> start(type.getRank(), 0), strides(type.getRank(), 1);
      results.push_back(stablehlo::SliceOp::create(
          rewriter, loc, type, sorted, rewriter.getDenseI64ArrayAttr(start),
          rewriter.getDenseI64ArrayAttr(type.getShape()),
          rewriter.getDenseI64ArrayAttr(strides)));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct SimplifyPass : impl::SimplifyBase<SimplifyPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateStaticShapePatterns(patterns);
    patterns.add<CompositeToCall, TupleElementOfTuple,
                 BatchGroupsAsFeatureGroups, ScanToWhile,
                 PartOfReal<stablehlo::RealOp, false>,
                 PartOfReal<stablehlo::ImagOp, true>, PowerByConstant,
                 DivisionByConstant,
                 ElementwiseMapAsOps, SelectOfOneValue, SelfSubtraction,
                 SubtractionOfSelectArm,
                 ExtremumOfOneValue<stablehlo::MinOp>,
                 ExtremumOfOneValue<stablehlo::MaxOp>,
                 ConstantsIntoBodies, ClampAsExtrema,
                 BooleanContraction<stablehlo::DotGeneralOp>,
                 BooleanContraction<stablehlo::ConvolutionOp>, ApproxTopKAsSort>(
        &getContext());
    if (failed(applyRewritesOnly(getOperation(), std::move(patterns))))
      return signalPassFailure();
    eraseUnusedRegionBodies();
  }

  /// A function that ends in stablehlo.return is a region body a custom
  /// call named (ApproxTopK's comparator); once nothing names it, it goes.
  void eraseUnusedRegionBodies() {
    Operation *root = getOperation();
    SmallVector<func::FuncOp> dead;
    root->walk([&](func::FuncOp func) {
      if (func.isExternal() ||
          !isa<stablehlo::ReturnOp>(func.getBody().back().getTerminator()))
        return;
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(func.getSymNameAttr(), root);
      if (uses && uses->empty())
        dead.push_back(func);
    });
    for (func::FuncOp func : dead)
      func.erase();
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
