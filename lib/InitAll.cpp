//===- InitAll.cpp - Register the project's dialects and passes -----------===//

#include "stablehlo-tvm/InitAll.h"

#include "stablehlo-tvm/Conversion/Passes.h"
#include "stablehlo-tvm/Dialect/CHLO/IR/CHLO.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"
#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::stablehlo_tvm {

void registerAllDialects(DialectRegistry &registry) {
  registry.insert<chlo::CHLODialect, stablehlo::StableHLODialect,
                  tvm::TVMDialect, func::FuncDialect>();
  func::registerInlinerExtension(registry);
}

const char *getImportPipeline() {
  return "builtin.module(stablehlo-drop-sharding,"
         "stablehlo-inline-private-functions,"
         "convert-stablehlo-to-tvm,cse,tvm-check-legality)";
}

void registerAllPasses() {
  registerStableHLOTVMTransformsPasses();
  registerStableHLOTVMConversionPasses();
  registerCSEPass();
  registerCanonicalizerPass();
  registerSymbolDCEPass();
  PassPipelineRegistration<>(
      "stablehlo-to-tvm-pipeline",
      "Import StableHLO into the tvm dialect: drop sharding, inline, "
      "legalize, check",
      [](OpPassManager &pm) {
        pm.addPass(createDropSharding());
        pm.addPass(createInlinePrivateFunctions());
        pm.addPass(createConvertStableHLOToTVM());
        pm.addPass(createCSEPass());
        pm.addPass(createCheckTVMLegality());
      });
}

} // namespace mlir::stablehlo_tvm
