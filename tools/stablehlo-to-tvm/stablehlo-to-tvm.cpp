//===- stablehlo-to-tvm.cpp - The opt-style driver ------------------------===//
//
// Parses, verifies and prints StableHLO like mlir-opt; with
// --stablehlo-to-tvm-pipeline it runs the import into the tvm dialect. Every
// standard MlirOptMain flag works.
//
//===----------------------------------------------------------------------===//

#include "stablehlo-tvm/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::stablehlo_tvm::registerAllDialects(registry);
  mlir::stablehlo_tvm::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "StableHLO to Apache TVM importer\n", registry));
}
