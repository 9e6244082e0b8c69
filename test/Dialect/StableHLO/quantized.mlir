// Quantized types come from upstream MLIR's quant dialect.
// RUN: stablehlo-to-tvm %s | stablehlo-to-tvm | FileCheck %s
// RUN: stablehlo-to-tvm %s --mlir-print-op-generic | stablehlo-to-tvm | FileCheck %s

// CHECK-LABEL: func @quantized
func.func @quantized(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: stablehlo.uniform_quantize %{{.*}} : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>
  %0 = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  // CHECK: stablehlo.uniform_dequantize %{{.*}} : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<4xf32>
  %1 = stablehlo.uniform_dequantize %0 : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
