//===- LibraryFft.cpp - Fourier transforms as library calls ---------------===//
//
// `stablehlo.custom_call @stablehlo_tvm.fft` (stablehlo-decompose-fft's
// library form, its complex values in parts after stablehlo-lower-complex)
// becomes tvm.call_dps_packed of the packed function `stablehlo_tvm.fft`
// with the scalars [fft_type, rank] (LibraryFft.h).
//
//===----------------------------------------------------------------------===//

#include "DeclineReasons.h"
#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"
#include "stablehlo-tvm/Support/LibraryFft.h"

namespace mlir::stablehlo_tvm {
namespace {

struct LibraryFftConversion : TVMTypedPattern<stablehlo::CustomCallOp> {
  using TVMTypedPattern::TVMTypedPattern;

  LogicalResult
  rewrite(stablehlo::CustomCallOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    if (op.getCallTargetName() != kLibraryFft)
      return decline(rewriter, op, "not a library transform");
    if (llvm::any_of(op->getOperandTypes(), [](Type t) {
          return isa<ComplexType>(getElementTypeOrSelf(t));
        }))
      return decline(rewriter, op, "complex values not split");
    auto config = op->getAttrOfType<DictionaryAttr>("mhlo.backend_config");
    auto type = config ? dyn_cast_or_null<IntegerAttr>(config.get("fft_type"))
                       : nullptr;
    auto rank =
        config ? dyn_cast_or_null<IntegerAttr>(config.get("rank")) : nullptr;
    if (!type || !rank)
      return decline(rewriter, op, "no fft_type and rank");
    rewriter.replaceOpWithNewOp<tvm::CallDpsPackedOp>(
        op, op.getResultTypes(), rewriter.getStringAttr(kLibraryFft),
        adaptor.getOperands(),
        rewriter.getDenseI64ArrayAttr({type.getInt(), rank.getInt()}));
    return success();
  }
};

} // namespace

void populateLibraryFftPatterns(MLIRContext *context,
                                RewritePatternSet &patterns) {
  patterns.add<LibraryFftConversion>(context);
}

} // namespace mlir::stablehlo_tvm
