// With library-points, transforms of that many points or more become calls
// of the runtime's transform; shorter ones, other element types and empty
// ones are decomposed as before.
// RUN: stablehlo-to-tvm %s --stablehlo-decompose-fft="library-points=64" --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @long
// CHECK: %[[R:.*]] = stablehlo.custom_call @stablehlo_tvm.fft(%arg0) {mhlo.backend_config = {fft_type = 0 : i64, rank = 1 : i64}} : (tensor<2x128xcomplex<f32>>) -> tensor<2x128xcomplex<f32>>
// CHECK-NOT: stablehlo.fft
// CHECK: return %[[R]]
func.func @long(%x: tensor<2x128xcomplex<f32>>) -> tensor<2x128xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = FFT, length = [128] : (tensor<2x128xcomplex<f32>>) -> tensor<2x128xcomplex<f32>>
  return %0 : tensor<2x128xcomplex<f32>>
}

// -----

// Points count over all the transform's axes: 8 x 8 = 64.
// CHECK-LABEL: func.func @types
// CHECK: stablehlo.custom_call @stablehlo_tvm.fft(%arg0) {mhlo.backend_config = {fft_type = 1 : i64, rank = 2 : i64}} : (tensor<8x8xcomplex<f64>>) -> tensor<8x8xcomplex<f64>>
// CHECK: stablehlo.custom_call @stablehlo_tvm.fft(%arg1) {mhlo.backend_config = {fft_type = 2 : i64, rank = 1 : i64}} : (tensor<3x100xf32>) -> tensor<3x51xcomplex<f32>>
// CHECK: stablehlo.custom_call @stablehlo_tvm.fft(%arg2) {mhlo.backend_config = {fft_type = 3 : i64, rank = 1 : i64}} : (tensor<3x51xcomplex<f32>>) -> tensor<3x100xf32>
func.func @types(%a: tensor<8x8xcomplex<f64>>, %b: tensor<3x100xf32>, %c: tensor<3x51xcomplex<f32>>) -> (tensor<8x8xcomplex<f64>>, tensor<3x51xcomplex<f32>>, tensor<3x100xf32>) {
  %0 = stablehlo.fft %a, type = IFFT, length = [8, 8] : (tensor<8x8xcomplex<f64>>) -> tensor<8x8xcomplex<f64>>
  %1 = stablehlo.fft %b, type = RFFT, length = [100] : (tensor<3x100xf32>) -> tensor<3x51xcomplex<f32>>
  %2 = stablehlo.fft %c, type = IRFFT, length = [100] : (tensor<3x51xcomplex<f32>>) -> tensor<3x100xf32>
  return %0, %1, %2 : tensor<8x8xcomplex<f64>>, tensor<3x51xcomplex<f32>>, tensor<3x100xf32>
}

// -----

// Below the threshold: one DFT product.
// CHECK-LABEL: func.func @short
// CHECK-NOT: custom_call
// CHECK: stablehlo.dot_general
func.func @short(%x: tensor<4x32xcomplex<f32>>) -> tensor<4x32xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = FFT, length = [32] : (tensor<4x32xcomplex<f32>>) -> tensor<4x32xcomplex<f32>>
  return %0 : tensor<4x32xcomplex<f32>>
}

// -----

// No points: the empty sums are a constant, not a call.
// CHECK-LABEL: func.func @empty
// CHECK-NOT: custom_call
// CHECK: stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<0x65xcomplex<f32>>
func.func @empty(%x: tensor<0x128xf32>) -> tensor<0x65xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = RFFT, length = [128] : (tensor<0x128xf32>) -> tensor<0x65xcomplex<f32>>
  return %0 : tensor<0x65xcomplex<f32>>
}
