// Batch normalization is its formula in Relax ops, per feature.
// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm | FileCheck %s

// CHECK-LABEL: func.func @training
// CHECK: %[[SUM:.*]] = tvm.sum %arg0 {axis = array<i64: 0, 2>} : (tensor<4x3x5xf32>) -> tensor<3xf32>
// CHECK: %[[MEAN:.*]] = tvm.divide %[[SUM]], %{{.*}} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK: %[[C:.*]] = tvm.subtract %arg0, %{{.*}}
// CHECK: %[[SQ:.*]] = tvm.multiply %[[C]], %[[C]]
// CHECK: tvm.sum %[[SQ]] {axis = array<i64: 0, 2>}
// CHECK: tvm.sqrt
// CHECK: return %{{.*}}, %[[MEAN]], %{{.*}} : tensor<4x3x5xf32>, tensor<3xf32>, tensor<3xf32>
func.func @training(%x: tensor<4x3x5xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>) -> (tensor<4x3x5xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0:3 = "stablehlo.batch_norm_training"(%x, %s, %o) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<4x3x5xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<4x3x5xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0, %0#1, %0#2 : tensor<4x3x5xf32>, tensor<3xf32>, tensor<3xf32>
}
