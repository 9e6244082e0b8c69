//===- HostCallback.cpp - JAX's Python callbacks as packed calls ----------===//
//
// jax.pure_callback, jax.debug.callback with results and equinox's run-time
// checks (eqx.error_if, which diffrax uses) lower on CPU to
// `stablehlo.custom_call @xla_ffi_python_cpu_callback` whose
// `mhlo.backend_config = {index = N}` names the N-th of the Python functions
// JAX collected while lowering (they live in the lowering process, not in
// the module). Each becomes tvm.call_dps_packed of
// `stablehlo_tvm.host_callback` with N as its one scalar; the importer binds
// N to the function. A callback with no results (jax.debug.print) gets a
// token result from stablehlo-expose-effects first where it can; one left
// without results (inside a loop or branch) is unsupported, as are ordered
// callbacks (their tokens).
//
//===----------------------------------------------------------------------===//

#include "DeclineReasons.h"
#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"
#include "stablehlo-tvm/Support/HostCallbacks.h"

namespace mlir::stablehlo_tvm {
namespace {

struct HostCallbackConversion : TVMTypedPattern<stablehlo::CustomCallOp> {
  using TVMTypedPattern::TVMTypedPattern;

  LogicalResult
  rewrite(stablehlo::CustomCallOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    if (!isHostCallbackTarget(op.getCallTargetName()))
      return decline(rewriter, op, "not a Python callback");
    if (op->getNumResults() == 0)
      return decline(rewriter, op, "a callback without results");
    auto config = op->getAttrOfType<DictionaryAttr>("mhlo.backend_config");
    auto index =
        config ? dyn_cast_or_null<IntegerAttr>(config.get("index")) : nullptr;
    if (!index)
      return decline(rewriter, op, "no callback index");
    rewriter.replaceOpWithNewOp<tvm::CallDpsPackedOp>(
        op, op.getResultTypes(),
        rewriter.getStringAttr("stablehlo_tvm.host_callback"),
        adaptor.getOperands(),
        rewriter.getDenseI64ArrayAttr(
            {static_cast<int64_t>(index.getValue().getZExtValue())}));
    return success();
  }
};

} // namespace

void populateHostCallbackPatterns(MLIRContext *context,
                                  RewritePatternSet &patterns) {
  patterns.add<HostCallbackConversion>(context);
}

} // namespace mlir::stablehlo_tvm
