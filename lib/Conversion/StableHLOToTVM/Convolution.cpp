//===- Convolution.cpp - convolution to Relax nn.conv2d/3d ----------------===//
//
// Any convolution with batch_group_count 1 becomes a Relax convolution in its
// default layouts: the operands are permuted to NC<spatial> and
// OI<spatial>; explicit padding (negative too) and lhs dilation become a
// stablehlo.pad of the input, window reversal a stablehlo.reverse of the
// kernel (both legalized in turn); the result is permuted back to the
// output's dimension order.
//
//===----------------------------------------------------------------------===//

#include "DeclineReasons.h"
#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

namespace mlir::stablehlo_tvm {
namespace {

/// `value` with a unit dimension inserted at `position`.
Value withUnitDimension(OpBuilder &b, Location loc, Value value,
                        int64_t position) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.begin() + position, 1);
  return stablehlo::ReshapeOp::create(b, loc, type.clone(shape), value);
}

/// The 1-D convolution `op` as a 2-D one over (its spatial dimension, a unit
/// one right after it), reshaped back.
Value convolutionIn2D(stablehlo::ConvolutionOp op, Value lhs, Value rhs,
                      OpBuilder &b) {
  Location loc = op.getLoc();
  auto dims = op.getDimensionNumbers();
  // Dimension numbers of a tensor with a unit dimension after `spatial`.
  auto shifted = [](int64_t d, int64_t spatial) {
    return d > spatial ? d + 1 : d;
  };
  int64_t in = dims.getInputSpatialDimensions()[0];
  int64_t kernel = dims.getKernelSpatialDimensions()[0];
  int64_t out = dims.getOutputSpatialDimensions()[0];
  auto numbers = stablehlo::ConvDimensionNumbersAttr::get(
      b.getContext(), shifted(dims.getInputBatchDimension(), in),
      shifted(dims.getInputFeatureDimension(), in), {in, in + 1},
      shifted(dims.getKernelInputFeatureDimension(), kernel),
      shifted(dims.getKernelOutputFeatureDimension(), kernel),
      {kernel, kernel + 1}, shifted(dims.getOutputBatchDimension(), out),
      shifted(dims.getOutputFeatureDimension(), out), {out, out + 1});
  auto pair = [&](std::optional<ArrayRef<int64_t>> values) -> DenseI64ArrayAttr {
    if (!values)
      return {};
    return b.getDenseI64ArrayAttr({values->front(), 1});
  };
  DenseIntElementsAttr padding;
  if (auto attr = op.getPaddingAttr()) {
    SmallVector<int64_t> flat(attr.getValues<int64_t>());
    flat.append({0, 0});
    padding = DenseIntElementsAttr::get(
        RankedTensorType::get({2, 2}, b.getI64Type()), flat);
  }
  DenseBoolArrayAttr reversal;
  if (auto values = op.getWindowReversal())
    reversal = b.getDenseBoolArrayAttr({values->front(), false});
  auto resultType = cast<RankedTensorType>(op.getType());
  SmallVector<int64_t> shape(resultType.getShape());
  shape.insert(shape.begin() + out + 1, 1);
  Value conv = stablehlo::ConvolutionOp::create(
      b, loc, resultType.clone(shape), withUnitDimension(b, loc, lhs, in + 1),
      withUnitDimension(b, loc, rhs, kernel + 1), pair(op.getWindowStrides()),
      padding, pair(op.getLhsDilation()), pair(op.getRhsDilation()), reversal,
      numbers, op.getFeatureGroupCount(), op.getBatchGroupCount(),
      op.getPrecisionConfigAttr());
  return stablehlo::ReshapeOp::create(b, loc, resultType, conv);
}

struct ConvolutionConversion : TVMTypedPattern<stablehlo::ConvolutionOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  // A 1-D convolution is rewritten to a 2-D one, which this pattern then
  // converts: the recursion stops there.
  void initialize() { setHasBoundedRewriteRecursion(); }

  LogicalResult
  rewrite(stablehlo::ConvolutionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getBatchGroupCount() != 1)
      return decline(rewriter, op, "batch_group_count > 1");
    auto dims = op.getDimensionNumbers();
    // Dynamic batch and spatial dimensions: Relax's shape rule keeps them
    // symbolic (spatial ones padded by the convolution itself, below).
    auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
    bool dynamicSpatial = false;
    for (int64_t d = 0; d < lhsType.getRank(); ++d) {
      if (!lhsType.isDynamicDim(d) || d == dims.getInputBatchDimension())
        continue;
      if (d == dims.getInputFeatureDimension())
        return decline(rewriter, op, "a dynamic feature dimension");
      dynamicSpatial = true;
    }
    if (!cast<RankedTensorType>(op.getRhs().getType()).hasStaticShape())
      return decline(rewriter, op, "a dynamic kernel");
    int64_t spatial = dims.getInputSpatialDimensions().size();
    if (spatial < 1 || spatial > 3)
      return decline(rewriter, op, "only 1 to 3 spatial dimensions");
    auto values = [&](std::optional<ArrayRef<int64_t>> attr, int64_t fill) {
      SmallVector<int64_t> result(spatial, fill);
      if (attr)
        result.assign(attr->begin(), attr->end());
      return result;
    };
    SmallVector<int64_t> strides = values(op.getWindowStrides(), 1);
    SmallVector<int64_t> lhsDilation = values(op.getLhsDilation(), 1);
    SmallVector<int64_t> rhsDilation = values(op.getRhsDilation(), 1);
    SmallVector<int64_t> low(spatial, 0), high(spatial, 0);
    if (auto padding = op.getPaddingAttr()) {
      SmallVector<int64_t> flat(padding.getValues<int64_t>());
      if (static_cast<int64_t>(flat.size()) != 2 * spatial)
        return decline(rewriter, op, "padding of the wrong shape");
      for (int64_t i = 0; i < spatial; ++i) {
        low[i] = flat[2 * i];
        high[i] = flat[2 * i + 1];
      }
    }

    // Over a dynamic spatial dimension only edge padding, which Relax's
    // convolution takes itself (decided before the 1-D form is built,
    // which this pattern must then convert).
    auto negative = [](int64_t v) { return v < 0; };
    if (dynamicSpatial &&
        (llvm::any_of(low, negative) || llvm::any_of(high, negative) ||
         llvm::any_of(lhsDilation, [](int64_t v) { return v != 1; })))
      return decline(rewriter, op,
                     "dilation or cropping of a dynamic spatial dimension");
    if (spatial == 1) {
      rewriter.replaceOp(op, convolutionIn2D(op, adaptor.getLhs(),
                                             adaptor.getRhs(), rewriter));
      return success();
    }
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    Type element = resultType.getElementType();
    // Half-precision results accumulate in f32 and round once, as XLA does
    // (and as dot_general's products do): summed in f16, a 3x3x16 f16
    // convolution was 8x further from the exact result than XLA's.
    Type accumulation = element;
    if (element.isF16() || element.isBF16())
      accumulation = rewriter.getF32Type();
    auto toAccumulation = [&](Value v) -> Value {
      if (accumulation == element)
        return v;
      return astype(rewriter, loc, v,
                    cast<RankedTensorType>(v.getType()).clone(accumulation));
    };

    SmallVector<int64_t> inPerm{dims.getInputBatchDimension(),
                                dims.getInputFeatureDimension()};
    llvm::append_range(inPerm, dims.getInputSpatialDimensions());
    SmallVector<int64_t> kPerm{dims.getKernelOutputFeatureDimension(),
                               dims.getKernelInputFeatureDimension()};
    llvm::append_range(kPerm, dims.getKernelSpatialDimensions());
    Value lhs = toAccumulation(permuteDims(rewriter, loc, adaptor.getLhs(), inPerm));
    Value rhs = toAccumulation(permuteDims(rewriter, loc, adaptor.getRhs(), kPerm));

    // Padding and lhs dilation, as a pad of the NC<spatial> input; over a
    // dynamic spatial dimension, edge padding is the convolution's own.
    bool needsPad = llvm::any_of(low, [](int64_t v) { return v != 0; }) ||
                    llvm::any_of(high, [](int64_t v) { return v != 0; }) ||
                    llvm::any_of(lhsDilation, [](int64_t v) { return v != 1; });
    SmallVector<int64_t> convPadding(2 * spatial, 0);
    if (dynamicSpatial && needsPad) {
      for (int64_t i = 0; i < spatial; ++i) {
        convPadding[i] = low[i];
        convPadding[spatial + i] = high[i];
      }
      needsPad = false;
    }
    if (needsPad) {
      auto lhsType = cast<RankedTensorType>(lhs.getType());
      SmallVector<int64_t> padLow{0, 0}, padHigh{0, 0}, interior{0, 0};
      SmallVector<int64_t> shape(lhsType.getShape().take_front(2));
      for (int64_t i = 0; i < spatial; ++i) {
        int64_t size = lhsType.getDimSize(2 + i);
        padLow.push_back(low[i]);
        padHigh.push_back(high[i]);
        interior.push_back(lhsDilation[i] - 1);
        shape.push_back(low[i] + high[i] + size +
                        std::max<int64_t>(size - 1, 0) * (lhsDilation[i] - 1));
      }
      Value zero = stablehlo::ConstantOp::createZeroScalar(
          rewriter, loc, lhsType.getElementType());
      lhs = stablehlo::PadOp::create(rewriter, loc, lhsType.clone(shape), lhs,
                                     zero, rewriter.getDenseI64ArrayAttr(padLow),
                                     rewriter.getDenseI64ArrayAttr(padHigh),
                                     rewriter.getDenseI64ArrayAttr(interior));
    }
    if (auto reversal = op.getWindowReversal()) {
      SmallVector<int64_t> reversed;
      for (auto [i, flip] : llvm::enumerate(*reversal))
        if (flip)
          reversed.push_back(2 + i);
      if (!reversed.empty())
        rhs = stablehlo::ReverseOp::create(rewriter, loc, rhs.getType(), rhs,
                                           rewriter.getDenseI64ArrayAttr(reversed));
    }

    // The Relax result is N, O, spatial...; the op's is in its own order.
    SmallVector<int64_t> outOrder{dims.getOutputBatchDimension(),
                                  dims.getOutputFeatureDimension()};
    llvm::append_range(outOrder, dims.getOutputSpatialDimensions());
    auto convType = RankedTensorType::get(
        permutedShape(resultType.getShape(), outOrder), accumulation);
    TypeAttr outDtype;
    if (cast<RankedTensorType>(lhs.getType()).getElementType() != accumulation)
      outDtype = TypeAttr::get(accumulation);
    auto create = [&](auto tag) -> Value {
      using ConvOp = typename decltype(tag)::type;
      return ConvOp::create(rewriter, loc, convType, lhs, rhs,
                            rewriter.getDenseI64ArrayAttr(strides),
                            rewriter.getDenseI64ArrayAttr(convPadding),
                            rewriter.getDenseI64ArrayAttr(rhsDilation),
                            rewriter.getI64IntegerAttr(op.getFeatureGroupCount()),
                            outDtype);
    };
    Value conv;
    if (spatial == 2)
      conv = create(llvm::type_identity<tvm::Conv2DOp>());
    else
      conv = create(llvm::type_identity<tvm::Conv3DOp>());

    SmallVector<int64_t> back(outOrder.size());
    for (auto [i, d] : llvm::enumerate(outOrder))
      back[d] = i;
    rewriter.replaceOp(
        op, astype(rewriter, loc, permuteDims(rewriter, loc, conv, back),
                   resultType));
    return success();
  }
};

} // namespace

void populateConvolutionPatterns(MLIRContext *context,
                                 RewritePatternSet &patterns) {
  patterns.add<ConvolutionConversion>(context);
}

} // namespace mlir::stablehlo_tvm
