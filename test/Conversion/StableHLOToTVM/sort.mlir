// sort is a kernel: each slice sorted in place by insertion, all operands
// moving together, the comparator run on scalars.
// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm --split-input-file | FileCheck %s

// CHECK-LABEL: func @argsort
// CHECK: tvm.kernel "sort"(%arg0, %arg1) : (tensor<3x5xf32>, tensor<3x5xi32>) -> (tensor<3x5xf32>, tensor<3x5xi32>)
// CHECK: ^bb0(%{{.*}}: memref<3x5xf32>, %{{.*}}: memref<3x5xi32>, %[[V:.*]]: memref<3x5xf32>, %[[I:.*]]: memref<3x5xi32>):
// CHECK: %[[MOVING:.*]] = memref.alloca() : memref<i1>
// CHECK: scf.for %[[OUTER:[^ ]*]] =
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[OUTER]]
// CHECK: scf.if
// CHECK: %[[CMP:.*]] = arith.cmpf olt
// CHECK: scf.if %[[CMP]]
// CHECK: memref.store %{{.*}}, %[[V]]
// CHECK: memref.store %{{.*}}, %[[I]]
// CHECK: } else {
// CHECK: memref.store %{{.*}}, %[[MOVING]][]
func.func @argsort(%x: tensor<3x5xf32>, %i: tensor<3x5xi32>) -> (tensor<3x5xf32>, tensor<3x5xi32>) {
  %0:2 = "stablehlo.sort"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<3x5xf32>, tensor<3x5xi32>) -> (tensor<3x5xf32>, tensor<3x5xi32>)
  return %0#0, %0#1 : tensor<3x5xf32>, tensor<3x5xi32>
}
