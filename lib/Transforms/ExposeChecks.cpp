//===- ExposeChecks.cpp - Make self-checking programs report their checks -===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_EXPOSECHECKS
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

struct ExposeChecksPass : impl::ExposeChecksBase<ExposeChecksPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    auto main = symbols.lookup<func::FuncOp>("main");
    if (!main || main.isExternal()) {
      module.emitError("expected a function @main with a body");
      return signalPassFailure();
    }
    if (failed(inputsToArguments(main, symbols)))
      return signalPassFailure();
    exposeChecks(main);
  }

  /// `%x = call @inputs()` becomes arguments of @main; @inputs turns public.
  LogicalResult inputsToArguments(func::FuncOp main, SymbolTable &symbols) {
    auto inputs = symbols.lookup<func::FuncOp>("inputs");
    if (!inputs)
      return success();
    SmallVector<func::CallOp> calls;
    main.walk([&](func::CallOp call) {
      if (call.getCallee() == "inputs" && call.getNumOperands() == 0)
        calls.push_back(call);
    });
    if (calls.empty())
      return success();
    if (main.getNumArguments() != 0)
      return main.emitError("@main already has arguments");
    Block &entry = main.getBody().front();
    TypeRange types = inputs.getFunctionType().getResults();
    SmallVector<Location> locs(types.size(), main.getLoc());
    entry.addArguments(types, locs);
    for (func::CallOp call : calls) {
      call.replaceAllUsesWith(entry.getArguments());
      call.erase();
    }
    main.setFunctionType(FunctionType::get(
        main.getContext(), types, main.getFunctionType().getResults()));
    inputs.setPublic();
    return success();
  }

  void exposeChecks(func::FuncOp main) {
    SmallVector<stablehlo::CustomCallOp> checks;
    for (auto call : main.getBody().front().getOps<stablehlo::CustomCallOp>())
      if (call.getCallTargetName().starts_with("check.") &&
          call.getNumOperands() == 2 && call.getNumResults() == 0)
        checks.push_back(call);
    auto ret = cast<func::ReturnOp>(main.getBody().front().getTerminator());
    SmallVector<Value> results(ret.getOperands());
    SmallVector<Attribute> kinds;
    for (stablehlo::CustomCallOp check : checks) {
      llvm::append_range(results, check.getOperands());
      kinds.push_back(StringAttr::get(
          main.getContext(), check.getCallTargetName().drop_front(6)));
      check.erase();
    }
    OpBuilder builder(ret);
    func::ReturnOp::create(builder, ret.getLoc(), results);
    ret.erase();
    SmallVector<Type> resultTypes;
    for (Value v : results)
      resultTypes.push_back(v.getType());
    // Result attributes no longer line up with the results.
    main.removeResAttrsAttr();
    main.setFunctionType(FunctionType::get(
        main.getContext(), main.getArgumentTypes(), resultTypes));
    main->setAttr("stablehlo_tvm.checks",
                  ArrayAttr::get(main.getContext(), kinds));
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
