//===- FoldConvolutionDepth.cpp - 3-D convolutions as 2-D ones ------------===//
//
// A convolution with three spatial dimensions is a sum over the kernel's
// depth taps: tap t meets the input's depth positions t * rhs_dilation +
// j * stride for output depth j. Sliced out, those positions fold into the
// batch (every output depth a batch element of its own), and each tap is a
// 2-D convolution of that batch with the tap's 2-D kernel. 2-D convolutions
// become matrix products later (ConvAsMatmul); 3-D ones ran as a direct
// loop nest, a video model's weight gradients four times XLA's time.
//
//===----------------------------------------------------------------------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_FOLDCONVOLUTIONDEPTH
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

/// `value` transposed by `permutation` (result dimension i is operand
/// dimension permutation[i]); `value` itself for the identity.
Value transposed(PatternRewriter &rewriter, Location loc, Value value,
                 ArrayRef<int64_t> permutation) {
  if (llvm::equal(permutation, llvm::seq<int64_t>(0, permutation.size())))
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t d : permutation)
    shape.push_back(type.getDimSize(d));
  return stablehlo::TransposeOp::create(
      rewriter, loc, type.clone(shape), value,
      rewriter.getDenseI64ArrayAttr(permutation));
}

Value reshaped(PatternRewriter &rewriter, Location loc, Value value,
               ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  return stablehlo::ReshapeOp::create(rewriter, loc, type.clone(shape), value);
}

struct FoldDepth : OpRewritePattern<stablehlo::ConvolutionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(stablehlo::ConvolutionOp op,
                                PatternRewriter &rewriter) const override {
    auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
    auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
    auto type = cast<RankedTensorType>(op.getType());
    auto dims = op.getDimensionNumbers();
    auto ones = [](std::optional<ArrayRef<int64_t>> values) {
      return !values || llvm::all_of(*values, [](int64_t v) { return v == 1; });
    };
    auto reversal = op.getWindowReversal();
    // f32 and f64: each tap's sum is rounded before the taps are added,
    // which half floats would show.
    Type element = type.getElementType();
    if (dims.getInputSpatialDimensions().size() != 3 ||
        !lhsType.hasStaticShape() || !rhsType.hasStaticShape() ||
        !type.hasStaticShape() || type.getNumElements() == 0 ||
        lhsType.getNumElements() == 0 || !ones(op.getLhsDilation()) ||
        op.getBatchGroupCount() != 1 || !(element.isF32() || element.isF64()) ||
        lhsType.getElementType() != element ||
        rhsType.getElementType() != element ||
        (reversal && llvm::is_contained(*reversal, true)))
      return failure();

    SmallVector<int64_t> strides(3, 1), rhsDilation(3, 1), padding(6, 0);
    if (auto s = op.getWindowStrides())
      strides.assign(s->begin(), s->end());
    if (auto r = op.getRhsDilation())
      rhsDilation.assign(r->begin(), r->end());
    if (auto attr = op.getPaddingAttr())
      padding.assign(attr.getValues<int64_t>().begin(),
                     attr.getValues<int64_t>().end());

    Location loc = op.getLoc();
    ArrayRef<int64_t> lhsSpatial = dims.getInputSpatialDimensions();
    ArrayRef<int64_t> rhsSpatial = dims.getKernelSpatialDimensions();
    ArrayRef<int64_t> outSpatial = dims.getOutputSpatialDimensions();
    int64_t depthDim = lhsSpatial[0];
    int64_t taps = rhsType.getDimSize(rhsSpatial[0]);
    int64_t outDepth = type.getDimSize(outSpatial[0]);
    int64_t stride = strides[0], dilation = rhsDilation[0];

    // The input padded in depth (the other dimensions keep their padding,
    // which the 2-D convolutions take).
    Value lhs = op.getLhs();
    int64_t low = padding[0], high = padding[1];
    if (low != 0 || high != 0) {
      SmallVector<int64_t> lows(lhsType.getRank(), 0), highs(lows),
          interior(lows), shape(lhsType.getShape());
      lows[depthDim] = low;
      highs[depthDim] = high;
      shape[depthDim] += low + high;
      Value zero =
          stablehlo::ConstantOp::createZeroScalar(rewriter, loc, element);
      lhs = stablehlo::PadOp::create(rewriter, loc, lhsType.clone(shape), lhs,
                                     zero, rewriter.getDenseI64ArrayAttr(lows),
                                     rewriter.getDenseI64ArrayAttr(highs),
                                     rewriter.getDenseI64ArrayAttr(interior));
    }
    auto paddedType = cast<RankedTensorType>(lhs.getType());
    if (outDepth <= 0 ||
        (taps - 1) * dilation + (outDepth - 1) * stride >=
            paddedType.getDimSize(depthDim))
      return failure();

    int64_t batch = lhsType.getDimSize(dims.getInputBatchDimension());
    int64_t features = lhsType.getDimSize(dims.getInputFeatureDimension());
    int64_t outFeatures = type.getDimSize(dims.getOutputFeatureDimension());
    // Input as [batch, depth, rows, columns, features]; kernel tap as
    // [rows, columns, in, out]; each tap's output as [batch * depth, rows,
    // columns, out].
    SmallVector<int64_t> lhsOrder = {dims.getInputBatchDimension(), depthDim,
                                     lhsSpatial[1], lhsSpatial[2],
                                     dims.getInputFeatureDimension()};
    SmallVector<int64_t> rhsOrder = {rhsSpatial[0], rhsSpatial[1],
                                     rhsSpatial[2],
                                     dims.getKernelInputFeatureDimension(),
                                     dims.getKernelOutputFeatureDimension()};
    int64_t rows = type.getDimSize(outSpatial[1]);
    int64_t columns = type.getDimSize(outSpatial[2]);
    auto planeDims = stablehlo::ConvDimensionNumbersAttr::get(
        rewriter.getContext(), 0, 3, {1, 2}, 2, 3, {0, 1}, 0, 3, {1, 2});
    auto planeType =
        type.clone(SmallVector<int64_t>{batch * outDepth, rows, columns,
                                        outFeatures});
    auto paddingType =
        RankedTensorType::get({2, 2}, rewriter.getIntegerType(64));
    Value sum;
    for (int64_t t = 0; t < taps; ++t) {
      SmallVector<int64_t> start(paddedType.getRank(), 0),
          limit(paddedType.getShape()), step(paddedType.getRank(), 1),
          shape(paddedType.getShape());
      start[depthDim] = t * dilation;
      limit[depthDim] = t * dilation + (outDepth - 1) * stride + 1;
      step[depthDim] = stride;
      shape[depthDim] = outDepth;
      Value slice = stablehlo::SliceOp::create(
          rewriter, loc, paddedType.clone(shape), lhs,
          rewriter.getDenseI64ArrayAttr(start),
          rewriter.getDenseI64ArrayAttr(limit),
          rewriter.getDenseI64ArrayAttr(step));
      Value planes = transposed(rewriter, loc, slice, lhsOrder);
      auto planesShape = cast<RankedTensorType>(planes.getType()).getShape();
      planes = reshaped(rewriter, loc, planes,
                        {batch * outDepth, planesShape[2], planesShape[3],
                         features});

      SmallVector<int64_t> kStart(rhsType.getRank(), 0),
          kLimit(rhsType.getShape()), kStep(rhsType.getRank(), 1),
          kShape(rhsType.getShape());
      kStart[rhsSpatial[0]] = t;
      kLimit[rhsSpatial[0]] = t + 1;
      kShape[rhsSpatial[0]] = 1;
      Value tap = stablehlo::SliceOp::create(
          rewriter, loc, rhsType.clone(kShape), op.getRhs(),
          rewriter.getDenseI64ArrayAttr(kStart),
          rewriter.getDenseI64ArrayAttr(kLimit),
          rewriter.getDenseI64ArrayAttr(kStep));
      tap = transposed(rewriter, loc, tap, rhsOrder);
      auto tapShape = cast<RankedTensorType>(tap.getType()).getShape();
      tap = reshaped(rewriter, loc, tap,
                     {tapShape[1], tapShape[2], tapShape[3], tapShape[4]});

      Value plane = stablehlo::ConvolutionOp::create(
          rewriter, loc, planeType, planes, tap,
          rewriter.getDenseI64ArrayAttr({strides[1], strides[2]}),
          DenseIntElementsAttr::get(
              paddingType, ArrayRef<int64_t>(padding).drop_front(2)),
          DenseI64ArrayAttr(),
          rewriter.getDenseI64ArrayAttr({rhsDilation[1], rhsDilation[2]}),
          DenseBoolArrayAttr(), planeDims, op.getFeatureGroupCount(), 1,
          op.getPrecisionConfigAttr());
      sum = sum ? Value(stablehlo::AddOp::create(rewriter, loc, sum, plane))
                : plane;
    }
    // [batch, depth, rows, columns, out], then the op's layout.
    Value result = reshaped(rewriter, loc, sum,
                            {batch, outDepth, rows, columns, outFeatures});
    SmallVector<int64_t> position(5);
    position[dims.getOutputBatchDimension()] = 0;
    position[outSpatial[0]] = 1;
    position[outSpatial[1]] = 2;
    position[outSpatial[2]] = 3;
    position[dims.getOutputFeatureDimension()] = 4;
    rewriter.replaceOp(op, transposed(rewriter, loc, result, position));
    return success();
  }
};

struct FoldConvolutionDepthPass
    : impl::FoldConvolutionDepthBase<FoldConvolutionDepthPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldDepth>(&getContext());
    if (failed(applyRewritesOnly(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
