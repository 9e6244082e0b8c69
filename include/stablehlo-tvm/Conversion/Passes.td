//===- Passes.td - Conversions to the tvm dialect -----------*- tablegen -*-===//

#ifndef STABLEHLO_TVM_CONVERSION_PASSES
#define STABLEHLO_TVM_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertStableHLOToTVM : Pass<"convert-stablehlo-to-tvm", "ModuleOp"> {
  let summary = "Legalize stablehlo ops to Relax operators of the tvm dialect";
  let description = [{
    One conversion pattern per op family (elementwise, data movement,
    dot_general, reduce). The conversion is partial: ops without a pattern, or
    whose attributes a pattern cannot express, stay as they are, and
    `tvm-check-legality` reports them all at once.

    ```mlir
    %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0]
        : (tensor<1x784xf32>, tensor<784x10xf32>) -> tensor<1x10xf32>
    ```
    becomes
    ```mlir
    %0 = tvm.matmul %x, %w : (tensor<1x784xf32>, tensor<784x10xf32>) -> tensor<1x10xf32>
    ```
  }];
  let dependentDialects = ["::mlir::tvm::TVMDialect"];
}

#endif // STABLEHLO_TVM_CONVERSION_PASSES
