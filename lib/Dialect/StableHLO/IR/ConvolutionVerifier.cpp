//===- ConvolutionVerifier.cpp - Constraints of convolution ---------------===//
//
// The StableHLO specification's constraints on convolution and dynamic_conv
// (C1-C25, numbered as there): window attributes with an entry per spatial
// dimension, dimension numbers that name each dimension once, group counts
// that divide the sizes they split, and the result shape they imply. The
// conversion indexes operands by these numbers, so an op that breaks them
// must never reach it.
//
//===----------------------------------------------------------------------===//

#include "VerifierUtils.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/ShapeFunctions.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::stablehlo;

int64_t mlir::stablehlo::windowCount(int64_t size, int64_t baseDilation,
                                     int64_t low, int64_t high, int64_t window,
                                     int64_t windowDilation, int64_t stride) {
  if (ShapedType::isDynamic(size) || stride <= 0)
    return ShapedType::kDynamic;
  int64_t dilated = size == 0 ? 0 : (size - 1) * baseDilation + 1;
  int64_t padded = low + dilated + high;
  int64_t dilatedWindow = window == 0 ? 0 : (window - 1) * windowDilation + 1;
  if (padded <= 0 || dilatedWindow > padded)
    return 0;
  return (padded - dilatedWindow) / stride + 1;
}

namespace {

struct ConvolutionAttributes {
  ConvDimensionNumbersAttr dims;
  std::optional<ArrayRef<int64_t>> strides, lhsDilation, rhsDilation;
  std::optional<ArrayRef<bool>> reversal;
  int64_t featureGroups, batchGroups;
};

/// (C2)-(C3), (C5)-(C9): an entry per spatial dimension, positive.
LogicalResult verifyWindowEntries(Operation *op, int64_t spatial,
                                  const ConvolutionAttributes &attrs) {
  auto check = [&](StringRef what, StringRef constraint, size_t size,
                   ArrayRef<int64_t> values) -> LogicalResult {
    if (static_cast<int64_t>(size) != spatial)
      return op->emitOpError() << constraint << " " << what << " must have "
                               << spatial << " entries, one per spatial dimension";
    for (int64_t v : values)
      if (v <= 0)
        return op->emitOpError() << constraint << " " << what << " must be positive";
    return success();
  };
  if (attrs.strides &&
      failed(check("window_strides", "(C2-C3)", attrs.strides->size(), *attrs.strides)))
    return failure();
  if (attrs.lhsDilation &&
      failed(check("lhs_dilation", "(C5-C6)", attrs.lhsDilation->size(), *attrs.lhsDilation)))
    return failure();
  if (attrs.rhsDilation &&
      failed(check("rhs_dilation", "(C7-C8)", attrs.rhsDilation->size(), *attrs.rhsDilation)))
    return failure();
  if (attrs.reversal && failed(check("window_reversal", "(C9)", attrs.reversal->size(), {})))
    return failure();
  return success();
}

/// (C12)-(C13), (C17)-(C20): each side's dimension numbers name every
/// dimension of its rank once.
LogicalResult verifyDimensionNumbers(Operation *op, int64_t rank,
                                     ConvDimensionNumbersAttr dims) {
  auto check = [&](StringRef side, StringRef constraint, int64_t first,
                   int64_t second, ArrayRef<int64_t> spatial) -> LogicalResult {
    if (static_cast<int64_t>(spatial.size()) != rank - 2)
      return op->emitOpError() << constraint << " " << side << " spatial dimensions must number "
                               << rank - 2;
    SmallVector<int64_t> all{first, second};
    all.append(spatial.begin(), spatial.end());
    return verifyDimensionList(op, (constraint + " " + side + " dimension").str(), all, rank);
  };
  return success(
      succeeded(check("input", "(C12-C13)", dims.getInputBatchDimension(),
                      dims.getInputFeatureDimension(), dims.getInputSpatialDimensions())) &&
      succeeded(check("kernel", "(C17-C18)", dims.getKernelInputFeatureDimension(),
                      dims.getKernelOutputFeatureDimension(), dims.getKernelSpatialDimensions())) &&
      succeeded(check("output", "(C19-C20)", dims.getOutputBatchDimension(),
                      dims.getOutputFeatureDimension(), dims.getOutputSpatialDimensions())));
}

/// Fails with `message` unless `size` (when static) is a multiple of `by`.
LogicalResult verifyDivisible(Operation *op, int64_t size, int64_t by,
                              const Twine &message) {
  if (!ShapedType::isDynamic(size) && size % by != 0)
    return op->emitOpError() << message << " (" << size << " by " << by << ")";
  return success();
}

/// Every constraint; `padding` holds [low, high] per spatial dimension, or
/// is empty when it is an operand (dynamic_conv).
LogicalResult verifyConvolution(Operation *op, Value lhsValue, Value rhsValue,
                                Type resultType,
                                const ConvolutionAttributes &attrs,
                                std::optional<SmallVector<int64_t>> padding) {
  auto lhs = dyn_cast<RankedTensorType>(lhsValue.getType());
  auto rhs = dyn_cast<RankedTensorType>(rhsValue.getType());
  auto result = dyn_cast<RankedTensorType>(resultType);
  if (!lhs || !rhs || !result)
    return success();
  int64_t rank = lhs.getRank();
  // (C1)
  if (rhs.getRank() != rank || rank < 2)
    return op->emitOpError() << "(C1) lhs and rhs must have the same rank, at least 2 (got "
                             << rank << " and " << rhs.getRank() << ")";
  int64_t spatial = rank - 2;
  // jax.export writes dynamic_conv with one window stride per dimension of
  // the 2-D convolution it started from, also for 1-D ones; the count is
  // checked once the op becomes a convolution.
  if (padding && failed(verifyWindowEntries(op, spatial, attrs)))
    return failure();
  // (C4)
  if (padding && static_cast<int64_t>(padding->size()) != 2 * spatial)
    return op->emitOpError() << "(C4) padding must have shape [" << spatial << ", 2]";
  ConvDimensionNumbersAttr dims = attrs.dims;
  if (failed(verifyDimensionNumbers(op, rank, dims)))
    return failure();
  // (C23)
  if (attrs.featureGroups != 1 && attrs.batchGroups != 1)
    return op->emitOpError("(C23) feature_group_count or batch_group_count must be 1");
  int64_t batch = lhs.getDimSize(dims.getInputBatchDimension());
  int64_t features = lhs.getDimSize(dims.getInputFeatureDimension());
  int64_t kernelInput = rhs.getDimSize(dims.getKernelInputFeatureDimension());
  int64_t kernelOutput = rhs.getDimSize(dims.getKernelOutputFeatureDimension());
  if (failed(verifyDivisible(op, batch, attrs.batchGroups,
                             "(C10) the input batch must divide by batch_group_count")) ||
      failed(verifyDivisible(op, features, attrs.featureGroups,
                             "(C11) the input features must divide by feature_group_count")) ||
      failed(verifyDivisible(op, kernelOutput, attrs.batchGroups,
                             "(C15) the kernel output features must divide by batch_group_count")) ||
      failed(verifyDivisible(op, kernelOutput, attrs.featureGroups,
                             "(C16) the kernel output features must divide by feature_group_count")))
    return failure();
  // (C14)
  if (!ShapedType::isDynamic(features) &&
      !compatibleDims(kernelInput, features / attrs.featureGroups))
    return op->emitOpError() << "(C14) the kernel input features (" << kernelInput
                             << ") must be the input features over feature_group_count ("
                             << features / attrs.featureGroups << ")";
  // (C25)
  if (result.getRank() != rank)
    return op->emitOpError() << "(C25) the result must have rank " << rank;
  SmallVector<int64_t> expected(rank, ShapedType::kDynamic);
  expected[dims.getOutputBatchDimension()] =
      ShapedType::isDynamic(batch) ? batch : batch / attrs.batchGroups;
  expected[dims.getOutputFeatureDimension()] = kernelOutput;
  auto entry = [](std::optional<ArrayRef<int64_t>> values, int64_t i) {
    return values ? (*values)[i] : 1;
  };
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t window = rhs.getDimSize(dims.getKernelSpatialDimensions()[i]);
    if (!padding || ShapedType::isDynamic(window))
      continue;
    expected[dims.getOutputSpatialDimensions()[i]] = windowCount(
        lhs.getDimSize(dims.getInputSpatialDimensions()[i]),
        entry(attrs.lhsDilation, i), (*padding)[2 * i], (*padding)[2 * i + 1],
        window, entry(attrs.rhsDilation, i), entry(attrs.strides, i));
  }
  for (int64_t d = 0; d < rank; ++d)
    if (!compatibleDims(expected[d], result.getDimSize(d)))
      return op->emitOpError() << "(C25) result dimension " << d << " must have size "
                               << expected[d] << ", not " << result.getDimSize(d);
  return success();
}

} // namespace

LogicalResult ConvolutionOp::verify() {
  auto lhs = dyn_cast<RankedTensorType>(getLhs().getType());
  std::optional<SmallVector<int64_t>> padding;
  if (lhs) {
    int64_t spatial = std::max<int64_t>(lhs.getRank() - 2, 0);
    padding = SmallVector<int64_t>(2 * spatial, 0);
    if (auto attr = getPadding()) {
      auto type = attr->getType();
      if (type.getRank() != 2 || type.getDimSize(0) != spatial || type.getDimSize(1) != 2)
        return emitOpError() << "(C4) padding must have shape [" << spatial << ", 2]";
      padding = llvm::to_vector(llvm::map_range(
          attr->getValues<APInt>(), [](const APInt &v) { return v.getSExtValue(); }));
    }
  }
  return verifyConvolution(*this, getLhs(), getRhs(), getType(),
                           {getDimensionNumbers(), getWindowStrides(), getLhsDilation(),
                            getRhsDilation(), getWindowReversal(),
                            static_cast<int64_t>(getFeatureGroupCount()),
                            static_cast<int64_t>(getBatchGroupCount())},
                           padding);
}

LogicalResult DynamicConvOp::verify() {
  return verifyConvolution(*this, getLhs(), getRhs(), getType(),
                           {getDimensionNumbers(), getWindowStrides(), getLhsDilation(),
                            getRhsDilation(), getWindowReversal(),
                            static_cast<int64_t>(getFeatureGroupCount()),
                            static_cast<int64_t>(getBatchGroupCount())},
                           std::nullopt);
}
