//===- BatchNorm.cpp - batch_norm_{inference,training,grad} ---------------===//
//
// Each is its formula in Relax ops, per feature (the operand's
// `feature_index` axis; the 1-D parameters broadcast along it):
//   normalized = (x - mean) / sqrt(variance + epsilon)
//   inference: scale * normalized + offset
//   training:  the same with the batch's mean and (biased) variance, which
//              are returned too
//   grad:      grad_offset = sum(dy), grad_scale = sum(dy * normalized),
//              dx = (g - mean(g) - normalized * mean(g * normalized)) / stddev
//              with g = dy * scale (sums and means over all but the feature)
//
//===----------------------------------------------------------------------===//

#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

namespace mlir::stablehlo_tvm {
namespace {

/// Per-feature arithmetic over one operand shape.
struct Features {
  OpBuilder &b;
  Location loc;
  RankedTensorType type;
  int64_t feature;

  RankedTensorType vectorType() const {
    return RankedTensorType::get({type.getDimSize(feature)},
                                 type.getElementType());
  }
  Value spread(Value vector) {
    return broadcastAlong(b, loc, vector, feature, type.getShape());
  }
  template <typename Op> Value bin(Value x, Value y) {
    return Op::create(b, loc, x.getType(), x, y);
  }
  Value scalar(Value like, double value) {
    auto likeType = cast<RankedTensorType>(like.getType());
    return splatConstant(b, loc, likeType,
                         b.getFloatAttr(likeType.getElementType(), value));
  }
  /// The sum over every axis but the feature's.
  Value sum(Value x) {
    SmallVector<int64_t> axes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (d != feature)
        axes.push_back(d);
    return tvm::SumOp::create(b, loc, vectorType(), x,
                              b.getDenseI64ArrayAttr(axes),
                              b.getBoolAttr(false));
  }
  /// The mean over every axis but the feature's.
  Value mean(Value x) {
    Value total = sum(x);
    int64_t count = 1;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (d != feature)
        count *= type.getDimSize(d);
    return bin<tvm::DivideOp>(total, scalar(total, static_cast<double>(count)));
  }
  Value stddev(Value variance, APFloat epsilon) {
    bool lost;
    epsilon.convert(cast<FloatType>(type.getElementType()).getFloatSemantics(),
                    APFloat::rmNearestTiesToEven, &lost);
    Value eps = splatConstant(b, loc, vectorType(),
                              b.getFloatAttr(type.getElementType(), epsilon));
    Value shifted = bin<tvm::AddOp>(variance, eps);
    return tvm::SqrtOp::create(b, loc, shifted.getType(), shifted);
  }
  /// scale * (x - mean) / stddev + offset, the vectors spread.
  Value normalize(Value x, Value mean, Value stddev, Value scale,
                  Value offset) {
    Value centered = bin<tvm::SubtractOp>(x, spread(mean));
    Value normalized = bin<tvm::DivideOp>(centered, spread(stddev));
    Value scaled = bin<tvm::MultiplyOp>(normalized, spread(scale));
    return bin<tvm::AddOp>(scaled, spread(offset));
  }
};

template <typename Op>
Features featuresOf(OpBuilder &b, Op op) {
  return Features{b, op.getLoc(),
                  cast<RankedTensorType>(op.getOperand().getType()),
                  static_cast<int64_t>(op.getFeatureIndex())};
}

struct BatchNormInferenceConversion
    : TVMTypedPattern<stablehlo::BatchNormInferenceOp> {
  using TVMTypedPattern::TVMTypedPattern;
  LogicalResult
  rewrite(stablehlo::BatchNormInferenceOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    Features f = featuresOf(rewriter, op);
    Value stddev = f.stddev(adaptor.getVariance(), op.getEpsilon());
    rewriter.replaceOp(op, f.normalize(adaptor.getOperand(), adaptor.getMean(),
                                       stddev, adaptor.getScale(),
                                       adaptor.getOffset()));
    return success();
  }
};

struct BatchNormTrainingConversion
    : TVMTypedPattern<stablehlo::BatchNormTrainingOp> {
  using TVMTypedPattern::TVMTypedPattern;
  LogicalResult
  rewrite(stablehlo::BatchNormTrainingOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    Features f = featuresOf(rewriter, op);
    Value x = adaptor.getOperand();
    Value mean = f.mean(x);
    Value centered = f.bin<tvm::SubtractOp>(x, f.spread(mean));
    Value variance = f.mean(f.bin<tvm::MultiplyOp>(centered, centered));
    Value stddev = f.stddev(variance, op.getEpsilon());
    Value output = f.normalize(x, mean, stddev, adaptor.getScale(),
                               adaptor.getOffset());
    rewriter.replaceOp(op, {output, mean, variance});
    return success();
  }
};

struct BatchNormGradConversion : TVMTypedPattern<stablehlo::BatchNormGradOp> {
  using TVMTypedPattern::TVMTypedPattern;
  LogicalResult
  rewrite(stablehlo::BatchNormGradOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    Features f = featuresOf(rewriter, op);
    Value dy = adaptor.getGradOutput();
    Value stddev = f.stddev(adaptor.getVariance(), op.getEpsilon());
    Value centered =
        f.bin<tvm::SubtractOp>(adaptor.getOperand(), f.spread(adaptor.getMean()));
    Value normalized = f.bin<tvm::DivideOp>(centered, f.spread(stddev));
    Value gradOffset = f.sum(dy);
    Value gradScale = f.sum(f.bin<tvm::MultiplyOp>(dy, normalized));
    Value g = f.bin<tvm::MultiplyOp>(dy, f.spread(adaptor.getScale()));
    Value meanG = f.spread(f.mean(g));
    Value meanGN =
        f.spread(f.mean(f.bin<tvm::MultiplyOp>(g, normalized)));
    Value correction = f.bin<tvm::MultiplyOp>(normalized, meanGN);
    Value numerator =
        f.bin<tvm::SubtractOp>(f.bin<tvm::SubtractOp>(g, meanG), correction);
    Value gradOperand = f.bin<tvm::DivideOp>(numerator, f.spread(stddev));
    rewriter.replaceOp(op, {gradOperand, gradScale, gradOffset});
    return success();
  }
};

} // namespace

void populateBatchNormPatterns(MLIRContext *context,
                               RewritePatternSet &patterns) {
  patterns.add<BatchNormInferenceConversion, BatchNormTrainingConversion,
               BatchNormGradConversion>(context);
}

} // namespace mlir::stablehlo_tvm
