// Malformed input exits non-zero with file:line:col, never a crash.
// RUN: not stablehlo-to-tvm %s --split-input-file 2>&1 | FileCheck %s

func.func @bad_type(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}unknown precision SOMETIMES
  %0 = stablehlo.dot_general %x, %x, contracting_dims = [0] x [0], precision = [SOMETIMES, DEFAULT] : (tensor<2xf32>, tensor<2xf32>) -> tensor<f32>
  return %x : tensor<2xf32>
}

// -----

func.func @unknown_op(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom op 'stablehlo.frobnicate' is unknown
  %0 = stablehlo.frobnicate %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @missing_type(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected ':'
  %0 = stablehlo.add %x, %x
  return %0 : tensor<2xf32>
}

// -----

func.func @bad_slice(%x: tensor<4xf32>) -> tensor<2xf32> {
  // CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}expected integer value
  %0 = stablehlo.slice %x [a:2] : (tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
