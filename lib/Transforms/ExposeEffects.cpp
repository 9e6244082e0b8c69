//===- ExposeEffects.cpp - Result-less host callbacks become results ------===//
//
// jax.debug.print and jax.debug.callback lower to a host callback custom call
// with no results. Relax drops a call whose result nothing reads, so each such
// call in a public function's body gets a zero-element i8 result that the
// function returns after its own results; `tvm.effect_results` counts them and
// callers drop them (python/stablehlo_tvm/runtime.py).
//
//===----------------------------------------------------------------------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"
#include "stablehlo-tvm/Support/HostCallbacks.h"

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_EXPOSEEFFECTS
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

bool isResultlessCallback(Operation &op) {
  auto call = dyn_cast<stablehlo::CustomCallOp>(op);
  return call && call->getNumResults() == 0 &&
         isHostCallbackTarget(call.getCallTargetName());
}

struct ExposeEffectsPass : impl::ExposeEffectsBase<ExposeEffectsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    auto token = RankedTensorType::get({0}, IntegerType::get(ctx, 8));
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isPrivate() || func.isExternal() || !func.getBody().hasOneBlock())
        continue;
      Block &body = func.getBody().front();
      auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
      if (!ret)
        continue;
      SmallVector<Value> effects;
      for (Operation &op : llvm::make_early_inc_range(body)) {
        if (!isResultlessCallback(op))
          continue;
        OpBuilder b(&op);
        OperationState state(op.getLoc(), op.getName().getStringRef(),
                             op.getOperands(), TypeRange{token},
                             op.getAttrs());
        Operation *call = b.create(state);
        // Stated per result, of which there were none.
        call->removeAttr("result_layouts");
        effects.push_back(call->getResult(0));
        op.erase();
      }
      if (effects.empty())
        continue;
      unsigned before = ret.getNumOperands();
      ret.getOperandsMutable().append(effects);
      func.setType(FunctionType::get(ctx, func.getArgumentTypes(),
                                     ret.getOperandTypes()));
      if (ArrayAttr resultAttrs = func.getAllResultAttrs()) {
        SmallVector<Attribute> attrs(resultAttrs.getValue());
        attrs.resize(before + effects.size(), DictionaryAttr::get(ctx));
        func.setAllResultAttrs(attrs);
      }
      func->setAttr(tvm::TVMDialect::EffectResultsAttrHelper::getNameStr(),
                    IntegerAttr::get(IntegerType::get(ctx, 64), effects.size()));
    }
    // What is left is inside a loop or a branch: the import reports it, and
    // says why.
    getOperation().walk([&](Operation *op) {
      if (isResultlessCallback(*op))
        op->setAttr(kUnsupportedReasonAttr,
                    StringAttr::get(ctx, "a callback without results, such as "
                                         "jax.debug.print, inside a loop or "
                                         "a branch"));
    });
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
