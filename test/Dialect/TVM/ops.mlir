// The tvm dialect round-trips; op and attribute names are Relax's.
// RUN: stablehlo-to-tvm %s | stablehlo-to-tvm | FileCheck %s
// RUN: stablehlo-to-tvm %s --mlir-print-op-generic | stablehlo-to-tvm | FileCheck %s

// CHECK-LABEL: func @ops
func.func @ops(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>, %b: tensor<2x3xi1>) -> tensor<2x4xf32> {
  // CHECK: tvm.constant dense<1.000000e+00> : tensor<2x3xf32>
  %c = tvm.constant dense<1.0> : tensor<2x3xf32>
  // CHECK: tvm.add %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = tvm.add %x, %c : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: tvm.exp %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = tvm.exp %0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: tvm.less %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %2 = tvm.less %1, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK: tvm.where %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = tvm.where %2, %1, %x : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: tvm.astype %{{.*}} {dtype = bf16} : (tensor<2x3xf32>) -> tensor<2x3xbf16>
  %4 = tvm.astype %3 {dtype = bf16} : (tensor<2x3xf32>) -> tensor<2x3xbf16>
  // CHECK: tvm.arange {dtype = i32, end = 3 : i64, start = 0 : i64, step = 1 : i64} : () -> tensor<3xi32>
  %5 = tvm.arange {dtype = i32, end = 3 : i64, start = 0 : i64, step = 1 : i64} : () -> tensor<3xi32>
  // CHECK: tvm.reshape %{{.*}} {shape = array<i64: 3, 2>}
  %6 = tvm.reshape %3 {shape = array<i64: 3, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // CHECK: tvm.permute_dims %{{.*}} {axes = array<i64: 1, 0>}
  %7 = tvm.permute_dims %6 {axes = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  // CHECK: tvm.broadcast_to %{{.*}} {shape = array<i64: 2, 2, 3>}
  %8 = tvm.broadcast_to %7 {shape = array<i64: 2, 2, 3>} : (tensor<2x3xf32>) -> tensor<2x2x3xf32>
  // CHECK: tvm.strided_slice %{{.*}} {axes = array<i64: 0>, begin = array<i64: 1>, end = array<i64: 2>, strides = array<i64: 1>}
  %9 = tvm.strided_slice %7 {axes = array<i64: 0>, begin = array<i64: 1>, end = array<i64: 2>, strides = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  // CHECK: tvm.concat %{{.*}}, %{{.*}} {axis = 0 : i64}
  %10 = tvm.concat %9, %9 {axis = 0 : i64} : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  // CHECK: tvm.sum %{{.*}} {axis = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  %11 = tvm.sum %10 {axis = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  // CHECK: tvm.max %{{.*}} {axis = array<i64: 0>, keepdims = true} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  %12 = tvm.max %10 {axis = array<i64: 0>, keepdims = true} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  // CHECK: tvm.matmul %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %13 = tvm.matmul %10, %w : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  // CHECK: tvm.logical_and %{{.*}}, %{{.*}} : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %14 = tvm.logical_and %b, %2 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  return %13 : tensor<2x4xf32>
}

// CHECK-LABEL: func @update_slice_in_place
// CHECK: tvm.update_slice_in_place %arg0[%arg2, %arg2], %arg1 : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i64>, tensor<i64>) -> tensor<8x4xf32>
func.func @update_slice_in_place(%x: tensor<8x4xf32>, %row: tensor<1x4xf32>, %i: tensor<i64>) -> tensor<8x4xf32> {
  %0 = tvm.update_slice_in_place %x[%i, %i], %row : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i64>, tensor<i64>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// Symbolic sizes: dimensions as index values, ops that take them, and the
// run-time shape check.
// CHECK-LABEL: func @symbolic_sizes
func.func @symbolic_sizes(%x: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?xf32>, tensor<i32>, tensor<?x2xf32>) {
  // CHECK: %[[N:.*]] = tvm.dim %arg0 {dim = 0 : i64} : (tensor<?x4xf32>) -> index
  %n = tvm.dim %x {dim = 0 : i64} : (tensor<?x4xf32>) -> index
  %c1 = arith.constant 1 : index
  %ok = arith.cmpi sge, %n, %c1 : index
  // CHECK: tvm.shape_assertion %arg0, %{{.*}}, [%[[N]]] {message = "b = {0}"} : tensor<?x4xf32>
  %y = tvm.shape_assertion %x, %ok, [%n] {message = "b = {0}"} : tensor<?x4xf32>
  // CHECK: tvm.reshape %{{.*}} {shape = array<i64: -1>} : (tensor<?x4xf32>) -> tensor<?xf32>
  %flat = tvm.reshape %y {shape = array<i64: -1>} : (tensor<?x4xf32>) -> tensor<?xf32>
  // CHECK: tvm.broadcast_to %{{.*}}, %[[N]] {shape = array<i64: -1, 4>} : (tensor<1x4xf32>, index) -> tensor<?x4xf32>
  %row = tvm.strided_slice %y {axes = array<i64: 0>, begin = array<i64: 0>, end = array<i64: 1>, strides = array<i64: 1>} : (tensor<?x4xf32>) -> tensor<1x4xf32>
  %b = tvm.broadcast_to %row, %n {shape = array<i64: -1, 4>} : (tensor<1x4xf32>, index) -> tensor<?x4xf32>
  // CHECK: tvm.arange %[[N]] {dtype = f32, end = 0 : i64, start = 0 : i64, step = 1 : i64} : (index) -> tensor<?xf32>
  %r = tvm.arange %n {dtype = f32, end = 0 : i64, start = 0 : i64, step = 1 : i64} : (index) -> tensor<?xf32>
  // CHECK: tvm.size_tensor %[[N]] : (index) -> tensor<i32>
  %s = tvm.size_tensor %n : (index) -> tensor<i32>
  // CHECK: tvm.dynamic_slice %arg0, %{{.*}}, %{{.*}}, %[[N]] {shape = array<i64: -1, 2>} : (tensor<?x4xf32>, index, index, index) -> tensor<?x2xf32>
  %w = tvm.dynamic_slice %x, %c1, %c1, %n {shape = array<i64: -1, 2>} : (tensor<?x4xf32>, index, index, index) -> tensor<?x2xf32>
  return %b, %r, %s, %w : tensor<?x4xf32>, tensor<?xf32>, tensor<i32>, tensor<?x2xf32>
}
