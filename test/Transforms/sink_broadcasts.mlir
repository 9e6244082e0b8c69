// RUN: stablehlo-to-tvm %s --stablehlo-sink-broadcasts --split-input-file | FileCheck %s

// An elementwise op on broadcasts of one shape and mapping (and splat
// constants) is the op on the broadcast values, broadcast once.
// CHECK-LABEL: func.func @elementwise_of_broadcasts
// CHECK-SAME: (%[[I:.*]]: tensor<i32>, %[[V:.*]]: tensor<4xf32>, %[[W:.*]]: tensor<4xf32>)
// CHECK-DAG: %[[TWO:.*]] = stablehlo.constant dense<2> : tensor<i32>
// CHECK: %[[REM:.*]] = stablehlo.remainder %[[I]], %[[TWO]] : tensor<i32>
// CHECK: %[[CMP:.*]] = stablehlo.compare EQ, %[[REM]], %{{.*}}, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK: stablehlo.broadcast_in_dim %[[CMP]], dims = [] : (tensor<i1>) -> tensor<3x4xi1>
// CHECK: %[[SUM:.*]] = stablehlo.add %[[V]], %[[W]] : tensor<4xf32>
// CHECK: stablehlo.broadcast_in_dim %[[SUM]], dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
func.func @elementwise_of_broadcasts(%i: tensor<i32>, %v: tensor<4xf32>, %w: tensor<4xf32>) -> (tensor<3x4xi1>, tensor<3x4xf32>) {
  %0 = stablehlo.broadcast_in_dim %i, dims = [] : (tensor<i32>) -> tensor<3x4xi32>
  %1 = stablehlo.constant dense<2> : tensor<3x4xi32>
  %2 = stablehlo.remainder %0, %1 : tensor<3x4xi32>
  %3 = stablehlo.constant dense<0> : tensor<3x4xi32>
  %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<3x4xi32>, tensor<3x4xi32>) -> tensor<3x4xi1>
  %5 = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
  %6 = stablehlo.broadcast_in_dim %w, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
  %7 = stablehlo.add %5, %6 : tensor<3x4xf32>
  func.return %4, %7 : tensor<3x4xi1>, tensor<3x4xf32>
}

// -----

// Broadcasts along different dimensions, or of a full-size operand, stay.
// CHECK-LABEL: func.func @broadcasts_that_stay
// CHECK: %[[A:.*]] = stablehlo.broadcast_in_dim %arg0, dims = [0]
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %arg0, dims = [1]
// CHECK: stablehlo.add %[[A]], %[[B]] : tensor<4x4xf32>
// CHECK: stablehlo.multiply %{{.*}}, %arg1 : tensor<4x4xf32>
func.func @broadcasts_that_stay(%v: tensor<4xf32>, %m: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.broadcast_in_dim %v, dims = [0] : (tensor<4xf32>) -> tensor<4x4xf32>
  %1 = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<4xf32>) -> tensor<4x4xf32>
  %2 = stablehlo.add %0, %1 : tensor<4x4xf32>
  %3 = stablehlo.multiply %2, %m : tensor<4x4xf32>
  func.return %3 : tensor<4x4xf32>
}

// -----

// select and clamp of broadcasts (JAX's remainder and floor_divide helpers
// choose between broadcast loop counters) are computed on the scalars.
// CHECK-LABEL: func.func @select_and_clamp_of_broadcasts
// CHECK: %[[S:.*]] = stablehlo.select %arg0, %arg1, %{{.*}} : tensor<i1>, tensor<i32>
// CHECK: %[[C:.*]] = stablehlo.clamp %{{.*}}, %[[S]], %{{.*}} : tensor<i32>
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %[[C]], dims = [] : (tensor<i32>) -> tensor<8x8xi32>
// CHECK: return %[[B]]
func.func @select_and_clamp_of_broadcasts(%p: tensor<i1>, %i: tensor<i32>) -> tensor<8x8xi32> {
  %0 = stablehlo.broadcast_in_dim %p, dims = [] : (tensor<i1>) -> tensor<8x8xi1>
  %1 = stablehlo.broadcast_in_dim %i, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
  %2 = stablehlo.constant dense<1> : tensor<8x8xi32>
  %3 = stablehlo.select %0, %1, %2 : tensor<8x8xi1>, tensor<8x8xi32>
  %4 = stablehlo.constant dense<0> : tensor<8x8xi32>
  %5 = stablehlo.constant dense<7> : tensor<8x8xi32>
  %6 = stablehlo.clamp %4, %3, %5 : tensor<8x8xi32>
  func.return %6 : tensor<8x8xi32>
}
