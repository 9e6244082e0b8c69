// RUN: stablehlo-to-tvm %s --split-input-file --verify-diagnostics

func.func @astype(%x: tensor<2xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{dtype 'f16' must be the result element type}}
  %0 = tvm.astype %x {dtype = f16} : (tensor<2xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @reshape(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{shape must be the result shape}}
  %0 = tvm.reshape %x {shape = array<i64: 6>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @permute(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{result dimension 0 does not match input dimension 1}}
  %0 = tvm.permute_dims %x {axes = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @arange() -> tensor<4xi32> {
  // expected-error @+1 {{result must have 3 elements}}
  %0 = tvm.arange {dtype = i32, end = 3 : i64, start = 0 : i64, step = 1 : i64} : () -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
