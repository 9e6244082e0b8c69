//===- InlinePrivateFunctions.cpp - Flatten JAX's private helpers ---------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/Inliner.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "mlir/Transforms/InliningUtils.h"

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_INLINEPRIVATEFUNCTIONS
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

/// JAX passes its dimension variables to the exported function as
/// arguments named by `jax.global_constant`; the get_dimension_size that
/// computes one keeps the name, for the symbols of a dynamic build.
void nameDimensionSizes(func::CallOp call, func::FuncOp callee) {
  for (auto [i, operand] : llvm::enumerate(call.getOperands())) {
    auto name = callee.getArgAttrOfType<StringAttr>(i, "jax.global_constant");
    // With 64-bit integers on, JAX converts the i32 size first.
    Value value = operand;
    while (auto convert = value.getDefiningOp<stablehlo::ConvertOp>())
      value = convert.getOperand();
    auto size = value.getDefiningOp<stablehlo::GetDimensionSizeOp>();
    if (name && size && !size->hasAttr("jax.global_constant"))
      size->setAttr("jax.global_constant", name);
  }
}

struct InlinePrivateFunctionsPass
    : impl::InlinePrivateFunctionsBase<InlinePrivateFunctionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    InlinerInterface interface(&getContext());
    InlinerConfig config;

    auto privateCallee = [&](func::CallOp call) -> func::FuncOp {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (!callee || !callee.isPrivate() || callee.isExternal())
        return nullptr;
      return callee;
    };

    // Each round inlines every call to a private function; calls that the
    // inlined bodies bring in are handled by the next round. StableHLO has no
    // recursion, so the depth of the call graph bounds the number of rounds.
    auto funcs = module.getOps<func::FuncOp>();
    size_t maxRounds = std::distance(funcs.begin(), funcs.end()) + 1;
    for (size_t round = 0;; ++round) {
      SmallVector<func::CallOp> calls;
      module.walk([&](func::CallOp call) {
        if (privateCallee(call))
          calls.push_back(call);
      });
      if (calls.empty())
        break;
      if (round == maxRounds) {
        calls.front().emitError("recursive call to private function ")
            << calls.front().getCalleeAttr() << " cannot be inlined";
        return signalPassFailure();
      }
      for (func::CallOp call : calls) {
        func::FuncOp callee = privateCallee(call);
        // A function that calls itself, directly or once its callees are
        // inlined, can never be flattened.
        if (call->getParentOfType<func::FuncOp>() == callee) {
          call.emitError("recursive call to private function ")
              << call.getCalleeAttr() << " cannot be inlined";
          return signalPassFailure();
        }
        nameDimensionSizes(call, callee);
        if (failed(inlineCall(interface, config.getCloneCallback(), call,
                              callee, &callee.getBody()))) {
          call.emitError("cannot inline call to ") << call.getCalleeAttr();
          return signalPassFailure();
        }
        call.erase();
      }
    }

    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (func.isPrivate() &&
          SymbolTable::symbolKnownUseEmpty(func, module))
        func.erase();
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
