// A region op whose body has an op without a scalar form is left as it was
// (for tvm-check-legality to report): its pattern checks the body before it
// builds anything, so no half-built tvm.kernel stays behind.
// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @reduce
// CHECK-NOT: tvm.kernel
// CHECK: stablehlo.reduce
func.func @reduce(%x: tensor<4xf32>, %i: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.reduce(%x init: %i) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %s = stablehlo.add %a, %b : tensor<f32>
    %e = chlo.erf_inv %s : tensor<f32> -> tensor<f32>
    stablehlo.return %e : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @map
// CHECK-NOT: tvm.kernel
// CHECK: stablehlo.map
func.func @map(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    %e = chlo.erf_inv %a : tensor<f32> -> tensor<f32>
    stablehlo.return %e : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @sort
// CHECK-NOT: tvm.kernel
// CHECK: stablehlo.sort
func.func @sort(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ea = chlo.erf_inv %a : tensor<f32> -> tensor<f32>
    %lt = stablehlo.compare LT, %ea, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @reduce_window
// CHECK-NOT: tvm.kernel
// CHECK: stablehlo.reduce_window
func.func @reduce_window(%x: tensor<4xf32>, %i: tensor<f32>) -> tensor<3xf32> {
  %0 = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    %e = chlo.erf_inv %s : tensor<f32> -> tensor<f32>
    stablehlo.return %e : tensor<f32>
  }) {window_dimensions = array<i64: 2>} : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @scatter
// CHECK-NOT: tvm.kernel
// CHECK: stablehlo.scatter
func.func @scatter(%x: tensor<4xf32>, %i: tensor<1x1xi32>, %u: tensor<1xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %e = chlo.erf_inv %b : tensor<f32> -> tensor<f32>
    stablehlo.return %e : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4xf32>, tensor<1x1xi32>, tensor<1xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Interior padding of an axis of 2^31 elements: its index and mask
// constants would be 2^31 long, and building them exhausted memory (found
// by the API fuzzer). The pattern declines before it builds, and says why
// for the legality report.
// CHECK-LABEL: func @pad_too_long
// CHECK: stablehlo.pad {{.*}}{tvm.unsupported_reason = "interior or negative padding of an axis longer than 2^24"}
// CHECK-NOT: = tvm.
func.func @pad_too_long(%x: tensor<5xf32>) -> tensor<2147483656xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.pad %x, %cst, low = [2147483647], high = [0], interior = [1] : (tensor<5xf32>, tensor<f32>) -> tensor<2147483656xf32>
  return %0 : tensor<2147483656xf32>
}
