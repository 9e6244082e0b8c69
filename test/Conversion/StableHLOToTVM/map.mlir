// map is an elementwise kernel over its computation; optimization_barrier
// passes its operands through; replica and partition ids are 0.
// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm --split-input-file | FileCheck %s

// CHECK-LABEL: func @map
// CHECK: tvm.kernel "map"(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[A:.*]] = memref.load
// CHECK: %[[B:.*]] = memref.load
// CHECK: %[[P:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK: arith.addf %[[P]], %[[A]] : f32
func.func @map(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.map"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.multiply %a, %b : tensor<f32>
    %s = stablehlo.add %p, %a : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @barrier_and_ids
// CHECK-NOT: optimization_barrier
// CHECK: %[[R:.*]] = tvm.constant dense<0> : tensor<ui32>
// CHECK: %[[P:.*]] = tvm.constant dense<0> : tensor<ui32>
// CHECK: return %arg0, %arg1, %[[R]], %[[P]]
func.func @barrier_and_ids(%x: tensor<4xf32>, %y: tensor<2xi32>) -> (tensor<4xf32>, tensor<2xi32>, tensor<ui32>, tensor<ui32>) {
  %0:2 = stablehlo.optimization_barrier %x, %y : tensor<4xf32>, tensor<2xi32>
  %1 = stablehlo.replica_id : tensor<ui32>
  %2 = stablehlo.partition_id : tensor<ui32>
  return %0#0, %0#1, %1, %2 : tensor<4xf32>, tensor<2xi32>, tensor<ui32>, tensor<ui32>
}
