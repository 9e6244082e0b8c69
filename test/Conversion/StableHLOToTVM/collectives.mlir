// On one device a collective whose groups are process 0 alone moves
// nothing: its operands are its results; a permute with no pair targeting
// process 0 gives zeros.
// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @one_process
// CHECK-NOT: stablehlo.
// CHECK: return %arg0, %arg1, %arg0, %arg0, %arg1, %arg0, %arg0
func.func @one_process(%x: tensor<4x6xf32>, %y: tensor<2xi32>) -> (tensor<4x6xf32>, tensor<2xi32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<2xi32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %0:2 = "stablehlo.all_reduce"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<0> : tensor<1x1xi64>} : (tensor<4x6xf32>, tensor<2xi32>) -> (tensor<4x6xf32>, tensor<2xi32>)
  %1 = "stablehlo.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<0> : tensor<1x1xi64>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %2 = "stablehlo.reduce_scatter"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<0> : tensor<1x1xi64>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %3 = "stablehlo.collective_broadcast"(%y) {replica_groups = dense<0> : tensor<1x1xi64>} : (tensor<2xi32>) -> tensor<2xi32>
  %4 = "stablehlo.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 1 : i64, replica_groups = dense<0> : tensor<1x1xi64>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %5 = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<0> : tensor<1x2xi64>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %0#0, %0#1, %1, %2, %3, %4, %5 : tensor<4x6xf32>, tensor<2xi32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<2xi32>, tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// CHECK-LABEL: func.func @permute_to_nobody
// CHECK: %[[Z:.*]] = tvm.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %[[B:.*]] = tvm.broadcast_to %[[Z]] {shape = array<i64: 3>}
// CHECK: return %[[B]]
func.func @permute_to_nobody(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<> : tensor<0x2xi64>} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Programs for more processes stay (the legality check reports them).
// CHECK-LABEL: func.func @two_processes
// CHECK: stablehlo.all_reduce
func.func @two_processes(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: module attributes {mhlo.num_partitions = 2
// CHECK: stablehlo.all_gather
module attributes {mhlo.num_partitions = 2 : i32} {
  func.func @two_partitions(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<0> : tensor<1x1xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
