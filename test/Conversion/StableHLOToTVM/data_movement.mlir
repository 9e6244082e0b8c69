// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm --split-input-file | FileCheck %s

// CHECK-LABEL: func @constant
func.func @constant() -> tensor<2xi32> {
  // CHECK: tvm.constant dense<[1, 2]> : tensor<2xi32>
  %c = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  return %c : tensor<2xi32>
}

// -----

// CHECK-LABEL: func @iota
func.func @iota() -> tensor<2x3xf32> {
  // CHECK: %[[R:.*]] = tvm.arange {dtype = f32, end = 3 : i64, start = 0 : i64, step = 1 : i64} : () -> tensor<3xf32>
  // CHECK: %[[S:.*]] = tvm.reshape %[[R]] {shape = array<i64: 1, 3>}
  // CHECK: tvm.broadcast_to %[[S]] {shape = array<i64: 2, 3>}
  %0 = stablehlo.iota dim = 1 : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @iota_1d
func.func @iota_1d() -> tensor<5xi32> {
  // CHECK-NEXT: %[[R:.*]] = tvm.arange {dtype = i32, end = 5 : i64, start = 0 : i64, step = 1 : i64} : () -> tensor<5xi32>
  // CHECK-NEXT: return %[[R]]
  %0 = stablehlo.iota dim = 0 : tensor<5xi32>
  return %0 : tensor<5xi32>
}

// -----

// CHECK-LABEL: func @broadcast_scalar
func.func @broadcast_scalar(%s: tensor<f32>) -> tensor<2x3xf32> {
  // CHECK: %[[R:.*]] = tvm.reshape %arg0 {shape = array<i64: 1, 1>} : (tensor<f32>) -> tensor<1x1xf32>
  // CHECK: tvm.broadcast_to %[[R]] {shape = array<i64: 2, 3>} : (tensor<1x1xf32>) -> tensor<2x3xf32>
  %0 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Operand dimensions out of order are permuted first.
// CHECK-LABEL: func @broadcast_permuted
func.func @broadcast_permuted(%x: tensor<2x3xf32>) -> tensor<3x4x2xf32> {
  // CHECK: %[[P:.*]] = tvm.permute_dims %arg0 {axes = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // CHECK: %[[R:.*]] = tvm.reshape %[[P]] {shape = array<i64: 3, 1, 2>}
  // CHECK: tvm.broadcast_to %[[R]] {shape = array<i64: 3, 4, 2>}
  %0 = stablehlo.broadcast_in_dim %x, dims = [2, 0] : (tensor<2x3xf32>) -> tensor<3x4x2xf32>
  return %0 : tensor<3x4x2xf32>
}

// -----

// A broadcast that only adds unit dimensions is a reshape.
// CHECK-LABEL: func @broadcast_is_reshape
func.func @broadcast_is_reshape(%x: tensor<8xf32>) -> tensor<1x8xf32> {
  // CHECK-NEXT: %[[R:.*]] = tvm.reshape %arg0 {shape = array<i64: 1, 8>}
  // CHECK-NEXT: return %[[R]]
  %0 = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

// CHECK-LABEL: func @reshape_transpose
func.func @reshape_transpose(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[R:.*]] = tvm.reshape %arg0 {shape = array<i64: 3, 2>}
  // CHECK: tvm.permute_dims %[[R]] {axes = array<i64: 1, 0>}
  %0 = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @slice
func.func @slice(%x: tensor<8x4xf32>) -> tensor<3x2xf32> {
  // CHECK: tvm.strided_slice %arg0 {axes = array<i64: 0, 1>, begin = array<i64: 1, 0>, end = array<i64: 6, 2>, strides = array<i64: 2, 1>} : (tensor<8x4xf32>) -> tensor<3x2xf32>
  %0 = stablehlo.slice %x [1:6:2, 0:2] : (tensor<8x4xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// CHECK-LABEL: func @concatenate
func.func @concatenate(%x: tensor<2x3xf32>, %y: tensor<2x1xf32>) -> tensor<2x4xf32> {
  // CHECK: tvm.concat %arg0, %arg1 {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %0 = stablehlo.concatenate %x, %y, dim = 1 : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// chlo.top_k is Relax's topk along the last axis on integer keys: floats sort
// by their totalOrder keys (NaN above +inf) and map back; narrow integers widen.
// CHECK-LABEL: func @top_k
func.func @top_k(%x: tensor<3x6xf32>, %i: tensor<6xi16>) -> (tensor<3x2xf32>, tensor<3x2xi32>, tensor<2xi16>) {
  // CHECK: %[[K:.*]] = tvm.kernel "top_k_keys"(%arg0) : (tensor<3x6xf32>) -> tensor<3x6xi32>
  // CHECK: arith.bitcast %{{.*}} : f32 to i32
  // CHECK: %[[KV:.*]], %[[I:.*]] = tvm.topk %[[K]] {axis = 1 : i64, dtype = i32, k = 2 : i64, largest = true, ret_type = "both"} : (tensor<3x6xi32>) -> (tensor<3x2xi32>, tensor<3x2xi32>)
  // CHECK: tvm.kernel "top_k_values"(%[[KV]]) : (tensor<3x2xi32>) -> tensor<3x2xf32>
  // CHECK: arith.bitcast %{{.*}} : i32 to f32
  %values, %indices = chlo.top_k(%x, k = 2) : tensor<3x6xf32> -> (tensor<3x2xf32>, tensor<3x2xi32>)
  // CHECK: %[[W:.*]] = tvm.astype %arg1 {dtype = i32} : (tensor<6xi16>) -> tensor<6xi32>
  // CHECK: %[[WV:.*]], %{{.*}} = tvm.topk %[[W]]
  // CHECK: tvm.astype %[[WV]] {dtype = i16} : (tensor<2xi32>) -> tensor<2xi16>
  %v2, %i2 = chlo.top_k(%i, k = 2) : tensor<6xi16> -> (tensor<2xi16>, tensor<2xi32>)
  return %values, %indices, %v2 : tensor<3x2xf32>, tensor<3x2xi32>, tensor<2xi16>
}

// -----

// Edge padding with a constant is Relax's pad, its value a double.
// CHECK-LABEL: func @pad_edges
func.func @pad_edges(%x: tensor<2x3xf32>) -> tensor<3x6xf32> {
  // CHECK: %[[P:.*]] = tvm.nn.pad %arg0 {pad_mode = "constant", pad_value = -1.500000e+00 : f64, pad_width = array<i64: 1, 0, 2, 1>} : (tensor<2x3xf32>) -> tensor<3x6xf32>
  // CHECK-NEXT: return %[[P]]
  %c = stablehlo.constant dense<-1.5> : tensor<f32>
  %0 = stablehlo.pad %x, %c, low = [1, 2], high = [0, 1], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

// -----

// An integer a double does not hold exactly, interior padding, a crop or a
// value known only at run time: a take and a where per axis.
// CHECK-LABEL: func @pad_general
func.func @pad_general(%x: tensor<3xi64>, %v: tensor<f32>, %y: tensor<3xf32>) -> (tensor<5xi64>, tensor<5xf32>, tensor<2xf32>, tensor<5xf32>) {
  // CHECK-NOT: tvm.nn.pad
  // CHECK-COUNT-4: tvm.where
  // CHECK-NOT: tvm.nn.pad
  %big = stablehlo.constant dense<9007199254740993> : tensor<i64>
  %0 = stablehlo.pad %x, %big, low = [1], high = [1], interior = [0] : (tensor<3xi64>, tensor<i64>) -> tensor<5xi64>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.pad %y, %zero, low = [0], high = [0], interior = [1] : (tensor<3xf32>, tensor<f32>) -> tensor<5xf32>
  %2 = stablehlo.pad %y, %zero, low = [-1], high = [0], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<2xf32>
  %3 = stablehlo.pad %y, %v, low = [1], high = [1], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<5xf32>
  return %0, %1, %2, %3 : tensor<5xi64>, tensor<5xf32>, tensor<2xf32>, tensor<5xf32>
}
