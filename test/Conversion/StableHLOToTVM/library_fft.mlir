// The runtime's Fourier transform, its complex values in parts, becomes a
// packed call with [fft_type, rank] as scalars.
// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @parts
// CHECK: %[[F:.*]]:2 = tvm.call_dps_packed "stablehlo_tvm.fft"(%arg0, %arg1) scalars = [0, 2] : (tensor<4x8x8xf64>, tensor<4x8x8xf64>) -> (tensor<4x8x8xf64>, tensor<4x8x8xf64>)
// CHECK: return %[[F]]#0, %[[F]]#1
func.func @parts(%re: tensor<4x8x8xf64>, %im: tensor<4x8x8xf64>) -> (tensor<4x8x8xf64>, tensor<4x8x8xf64>) {
  %0:2 = stablehlo.custom_call @stablehlo_tvm.fft(%re, %im) {mhlo.backend_config = {fft_type = 0 : i64, rank = 2 : i64}, stablehlo_tvm.complex_parts} : (tensor<4x8x8xf64>, tensor<4x8x8xf64>) -> (tensor<4x8x8xf64>, tensor<4x8x8xf64>)
  return %0#0, %0#1 : tensor<4x8x8xf64>, tensor<4x8x8xf64>
}

// -----

// Without its type and rank the call is not converted; the legality check
// reports it.
// CHECK-LABEL: func.func @no_config
// CHECK: stablehlo.custom_call @stablehlo_tvm.fft
func.func @no_config(%x: tensor<4x8xf32>) -> (tensor<4x5xf32>, tensor<4x5xf32>) {
  %0:2 = stablehlo.custom_call @stablehlo_tvm.fft(%x) : (tensor<4x8xf32>) -> (tensor<4x5xf32>, tensor<4x5xf32>)
  return %0#0, %0#1 : tensor<4x5xf32>, tensor<4x5xf32>
}
