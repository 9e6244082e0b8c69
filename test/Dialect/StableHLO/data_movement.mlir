// pad, reverse and the dynamic data-movement ops.
// RUN: stablehlo-to-tvm %s | stablehlo-to-tvm | FileCheck %s
// RUN: stablehlo-to-tvm %s --mlir-print-op-generic | stablehlo-to-tvm | FileCheck %s
// RUN: stablehlo-to-tvm %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func @static
func.func @static(%x: tensor<2x3xf32>, %p: tensor<f32>, %i: tensor<i32>) -> tensor<2x3xf32> {
  // CHECK: stablehlo.pad %{{.*}}, %{{.*}}, low = [0, -1], high = [1, 2], interior = [1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x4xf32>
  %0 = stablehlo.pad %x, %p, low = [0, -1], high = [1, 2], interior = [1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x4xf32>
  // CHECK: stablehlo.reverse %{{.*}}, dims = [0, 1] : tensor<2x3xf32>
  %1 = stablehlo.reverse %x, dims = [0, 1] : tensor<2x3xf32>
  // CHECK: stablehlo.dynamic_slice %{{.*}}, %{{.*}}, %{{.*}}, sizes = [1, 2] : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
  %2 = stablehlo.dynamic_slice %1, %i, %i, sizes = [1, 2] : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
  // CHECK: stablehlo.dynamic_update_slice %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  %3 = stablehlo.dynamic_update_slice %1, %2, %i, %i : (tensor<2x3xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  return %3 : tensor<2x3xf32>
}
// GENERIC: "stablehlo.pad"(%{{.*}}, %{{.*}}) <{edge_padding_high = array<i64: 1, 2>, edge_padding_low = array<i64: 0, -1>, interior_padding = array<i64: 1, 0>}>
// GENERIC: "stablehlo.dynamic_slice"(%{{.*}}, %{{.*}}, %{{.*}}) <{slice_sizes = array<i64: 1, 2>}>

// CHECK-LABEL: func @dynamic
func.func @dynamic(%x: tensor<?x4xf32>, %s: tensor<3xi32>, %t: tensor<2xi32>, %p: tensor<f32>) -> tensor<?xi32> {
  // CHECK: stablehlo.get_dimension_size %{{.*}}, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %0 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  // CHECK: stablehlo.dynamic_broadcast_in_dim %{{.*}}, %{{.*}}, dims = [1, 2] : (tensor<?x4xf32>, tensor<3xi32>) -> tensor<1x?x4xf32>
  %1 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1, 2] : (tensor<?x4xf32>, tensor<3xi32>) -> tensor<1x?x4xf32>
  // CHECK: stablehlo.dynamic_iota %{{.*}}, dim = 0 : (tensor<3xi32>) -> tensor<?x4x5xi32>
  %2 = stablehlo.dynamic_iota %s, dim = 0 : (tensor<3xi32>) -> tensor<?x4x5xi32>
  // CHECK: stablehlo.dynamic_reshape %{{.*}}, %{{.*}} : (tensor<?x4xf32>, tensor<2xi32>) -> tensor<?x2xf32>
  %3 = stablehlo.dynamic_reshape %x, %t : (tensor<?x4xf32>, tensor<2xi32>) -> tensor<?x2xf32>
  // CHECK: stablehlo.real_dynamic_slice %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x?xf32>
  %4 = stablehlo.real_dynamic_slice %x, %t, %t, %t : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x?xf32>
  // CHECK: stablehlo.dynamic_pad %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x4xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x?xf32>
  %5 = stablehlo.dynamic_pad %x, %p, %t, %t, %t : (tensor<?x4xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x?xf32>
  %6 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
  %7 = stablehlo.dynamic_iota %6, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>
  return %7 : tensor<?xi32>
}
