//===- SplitDilatedConvolutions.cpp - lhs-dilated convolutions by phase ---===//
//
// A convolution over an lhs-dilated input (the input gradient of a strided
// convolution, a transposed convolution) multiplies the kernel with an
// input that is mostly zeros: with dilation 2 in two dimensions, three of
// every four patch elements. Each output position of one phase (its index
// modulo the dilation) meets the input's elements only through the kernel
// taps of one residue class, so the output of each phase is a plain
// stride-1 convolution of the undilated input with that class's taps.
// Computed phase by phase and interleaved, no zero is gathered or
// multiplied: a quarter of the work for dilation 2 x 2.
//
//===----------------------------------------------------------------------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_SPLITDILATEDCONVOLUTIONS
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

/// a mod b, in [0, b).
int64_t positiveMod(int64_t a, int64_t b) { return ((a % b) + b) % b; }

/// One spatial dimension of the convolution, and of one phase of it.
struct Axis {
  int64_t input, kernel, output; // sizes
  int64_t dilation, low;         // lhs dilation, low padding
  int64_t phaseOutput() const { return llvm::divideCeil(output, dilation); }
};

/// The phase `r` of `axis`: its first kernel tap, tap count and padding.
struct Phase {
  int64_t firstTap, taps, low, high;
};

Phase phaseOf(const Axis &axis, int64_t r) {
  Phase p;
  p.firstTap = positiveMod(axis.low - r, axis.dilation);
  p.taps = axis.kernel > p.firstTap
               ? llvm::divideCeil(axis.kernel - p.firstTap, axis.dilation)
               : 0;
  // Output m of the phase reads input m + t + shift for taps t.
  int64_t shift = (r + p.firstTap - axis.low) / axis.dilation;
  p.low = -shift;
  p.high = axis.phaseOutput() - 1 + p.taps - axis.input - p.low;
  return p;
}

struct SplitDilatedConvolution : OpRewritePattern<stablehlo::ConvolutionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(stablehlo::ConvolutionOp op,
                                PatternRewriter &rewriter) const override {
    auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
    auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
    auto type = cast<RankedTensorType>(op.getType());
    auto dims = op.getDimensionNumbers();
    int64_t spatial = dims.getInputSpatialDimensions().size();
    auto ones = [&](std::optional<ArrayRef<int64_t>> values) {
      return !values || llvm::all_of(*values, [](int64_t v) { return v == 1; });
    };
    auto reversal = op.getWindowReversal();
    if (!lhsType.hasStaticShape() || !rhsType.hasStaticShape() ||
        !type.hasStaticShape() || ones(op.getLhsDilation()) ||
        !ones(op.getWindowStrides()) || !ones(op.getRhsDilation()) ||
        op.getBatchGroupCount() != 1 ||
        (reversal && llvm::is_contained(*reversal, true)))
      return failure();

    SmallVector<Axis> axes;
    SmallVector<int64_t> padding(2 * spatial, 0);
    if (auto attr = op.getPaddingAttr())
      padding.assign(attr.getValues<int64_t>().begin(),
                     attr.getValues<int64_t>().end());
    for (int64_t i = 0; i < spatial; ++i)
      axes.push_back({lhsType.getDimSize(dims.getInputSpatialDimensions()[i]),
                      rhsType.getDimSize(dims.getKernelSpatialDimensions()[i]),
                      type.getDimSize(dims.getOutputSpatialDimensions()[i]),
                      (*op.getLhsDilation())[i], padding[2 * i]});
    if (llvm::any_of(axes, [](const Axis &a) { return a.output == 0; }))
      return failure();

    Location loc = op.getLoc();
    // Every phase's output, in the op's layout with its spatial sizes
    // divided by the dilation (rounded up), then a unit dimension after
    // each spatial one, where the phases are put side by side.
    SmallVector<int64_t> phaseShape(type.getShape()), unitShape;
    SmallVector<int64_t> unitPosition(spatial);
    for (int64_t i = 0; i < spatial; ++i)
      phaseShape[dims.getOutputSpatialDimensions()[i]] = axes[i].phaseOutput();
    for (int64_t d = 0; d < type.getRank(); ++d) {
      unitShape.push_back(phaseShape[d]);
      auto *it = llvm::find(dims.getOutputSpatialDimensions(), d);
      if (it != dims.getOutputSpatialDimensions().end()) {
        unitPosition[it - dims.getOutputSpatialDimensions().begin()] =
            unitShape.size();
        unitShape.push_back(1);
      }
    }
    auto phaseType = type.clone(phaseShape);
    auto unitType = type.clone(unitShape);

    // Phases in row-major order of their residues.
    SmallVector<Value> phases;
    int64_t count = 1;
    for (const Axis &a : axes)
      count *= a.dilation;
    for (int64_t index = 0; index < count; ++index) {
      SmallVector<int64_t> residue(spatial);
      for (int64_t i = spatial - 1, rest = index; i >= 0; --i) {
        residue[i] = rest % axes[i].dilation;
        rest /= axes[i].dilation;
      }
      SmallVector<Phase> ps;
      for (int64_t i = 0; i < spatial; ++i)
        ps.push_back(phaseOf(axes[i], residue[i]));
      Value phase;
      if (llvm::any_of(ps, [](const Phase &p) { return p.taps == 0; })) {
        // No tap of this residue class: the phase's outputs are zeros.
        Value zero = stablehlo::ConstantOp::createZeroScalar(
            rewriter, loc, type.getElementType());
        phase = stablehlo::BroadcastInDimOp::create(
            rewriter, loc, phaseType, zero, rewriter.getDenseI64ArrayAttr({}));
      } else {
        SmallVector<int64_t> start(rhsType.getRank(), 0),
            limit(rhsType.getShape()), step(rhsType.getRank(), 1),
            kernelShape(rhsType.getShape()), phasePadding;
        for (int64_t i = 0; i < spatial; ++i) {
          int64_t d = dims.getKernelSpatialDimensions()[i];
          start[d] = ps[i].firstTap;
          step[d] = axes[i].dilation;
          kernelShape[d] = ps[i].taps;
          phasePadding.append({ps[i].low, ps[i].high});
        }
        Value taps = stablehlo::SliceOp::create(
            rewriter, loc, rhsType.clone(kernelShape), op.getRhs(),
            rewriter.getDenseI64ArrayAttr(start),
            rewriter.getDenseI64ArrayAttr(limit),
            rewriter.getDenseI64ArrayAttr(step));
        auto paddingType =
            RankedTensorType::get({spatial, 2}, rewriter.getIntegerType(64));
        phase = stablehlo::ConvolutionOp::create(
            rewriter, loc, phaseType, op.getLhs(), taps, DenseI64ArrayAttr(),
            DenseIntElementsAttr::get(paddingType, phasePadding),
            DenseI64ArrayAttr(), DenseI64ArrayAttr(), DenseBoolArrayAttr(),
            dims, op.getFeatureGroupCount(), 1, op.getPrecisionConfigAttr());
      }
      phases.push_back(
          stablehlo::ReshapeOp::create(rewriter, loc, unitType, phase));
    }

    // Side by side along the unit dimensions, the last spatial one first
    // (consecutive phases differ in the last residue).
    SmallVector<int64_t> joinedShape(unitShape);
    for (int64_t i = spatial - 1; i >= 0; --i) {
      joinedShape[unitPosition[i]] = axes[i].dilation;
      SmallVector<Value> joined;
      for (size_t k = 0; k < phases.size(); k += axes[i].dilation) {
        ValueRange group(ArrayRef<Value>(phases).slice(k, axes[i].dilation));
        joined.push_back(stablehlo::ConcatenateOp::create(
            rewriter, loc, type.clone(joinedShape), group,
            rewriter.getI64IntegerAttr(unitPosition[i])));
      }
      phases = std::move(joined);
    }
    // (m, r) -> m * dilation + r, then the rounding up cut off.
    SmallVector<int64_t> merged(phaseShape);
    for (int64_t i = 0; i < spatial; ++i)
      merged[dims.getOutputSpatialDimensions()[i]] *= axes[i].dilation;
    Value result = stablehlo::ReshapeOp::create(
        rewriter, loc, type.clone(merged), phases.front());
    if (merged != SmallVector<int64_t>(type.getShape())) {
      SmallVector<int64_t> zeros(type.getRank(), 0),
          unit(type.getRank(), 1);
      result = stablehlo::SliceOp::create(
          rewriter, loc, type, result, rewriter.getDenseI64ArrayAttr(zeros),
          rewriter.getDenseI64ArrayAttr(type.getShape()),
          rewriter.getDenseI64ArrayAttr(unit));
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SplitDilatedConvolutionsPass
    : impl::SplitDilatedConvolutionsBase<SplitDilatedConvolutionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SplitDilatedConvolution>(&getContext());
    if (failed(applyRewritesOnly(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
