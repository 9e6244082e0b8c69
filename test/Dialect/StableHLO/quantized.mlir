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

// Elementwise ops take quantized tensors whose scales and zero points differ
// (the spec's baseline types agree); a requantize of one type prints it once.
// CHECK-LABEL: func @elementwise
func.func @elementwise(%a: tensor<3x!quant.uniform<i8:f32, 0.1:-2>>, %b: tensor<3x!quant.uniform<i8:f32, 0.2:1>>) -> (tensor<3x!quant.uniform<i8:f32, 0.3>>, tensor<3x!quant.uniform<i8:f32, 0.1:-2>>, tensor<3xi1>) {
  // CHECK: stablehlo.add %{{.*}}, %{{.*}} : (tensor<3x!quant.uniform<i8:f32, 1.000000e-01:-2>>, tensor<3x!quant.uniform<i8:f32, 2.000000e-01:1>>) -> tensor<3x!quant.uniform<i8:f32, 3.000000e-01>>
  %0 = stablehlo.add %a, %b : (tensor<3x!quant.uniform<i8:f32, 0.1:-2>>, tensor<3x!quant.uniform<i8:f32, 0.2:1>>) -> tensor<3x!quant.uniform<i8:f32, 0.3>>
  // CHECK: stablehlo.tanh %{{.*}} : tensor<3x!quant.uniform<i8:f32, 1.000000e-01:-2>>
  %1 = stablehlo.tanh %a : tensor<3x!quant.uniform<i8:f32, 0.1:-2>>
  // CHECK: stablehlo.floor %{{.*}} : tensor<3x!quant.uniform<i8:f32, 1.000000e-01:-2>>
  %2 = stablehlo.floor %1 : tensor<3x!quant.uniform<i8:f32, 0.1:-2>>
  // CHECK: stablehlo.uniform_quantize %{{.*}} : tensor<3x!quant.uniform<i8:f32, 1.000000e-01:-2>>
  %3 = stablehlo.uniform_quantize %2 : tensor<3x!quant.uniform<i8:f32, 0.1:-2>>
  // CHECK: stablehlo.compare GT, %{{.*}}, %{{.*}} : (tensor<3x!quant.uniform<i8:f32, 1.000000e-01:-2>>, tensor<3x!quant.uniform<i8:f32, 2.000000e-01:1>>) -> tensor<3xi1>
  %4 = stablehlo.compare GT, %3, %b : (tensor<3x!quant.uniform<i8:f32, 0.1:-2>>, tensor<3x!quant.uniform<i8:f32, 0.2:1>>) -> tensor<3xi1>
  return %0, %3, %4 : tensor<3x!quant.uniform<i8:f32, 0.3>>, tensor<3x!quant.uniform<i8:f32, 0.1:-2>>, tensor<3xi1>
}

// CHECK-LABEL: func @per_axis
func.func @per_axis(%x: tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:1, {1.000000e-01:-2,2.000000e-01,3.000000e-01:4}>> {
  // CHECK: stablehlo.uniform_quantize %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:1, {1.000000e-01:-2,2.000000e-01,3.000000e-01:4}>>
  %0 = stablehlo.uniform_quantize %x : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-2, 0.2, 0.3:4}>>
  return %0 : tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-2, 0.2, 0.3:4}>>
}

// A quantized constant holds its storage values; it prints as jaxlib does.
// CHECK-LABEL: func @quantized_constant
// CHECK: %[[C:.*]] = stablehlo.constant() <{value = dense<[1, -4]> : tensor<2xi8>}> : () -> tensor<2x!quant.uniform<i8:f32, 5.000000e-01:-3>>
// CHECK: return %[[C]]
func.func @quantized_constant() -> tensor<2x!quant.uniform<i8:f32, 0.5:-3>> {
  %0 = stablehlo.constant() <{value = dense<[1, -4]> : tensor<2xi8>}> : () -> tensor<2x!quant.uniform<i8:f32, 0.5:-3>>
  return %0 : tensor<2x!quant.uniform<i8:f32, 0.5:-3>>
}
