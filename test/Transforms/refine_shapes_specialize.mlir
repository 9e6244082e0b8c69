// Specializing an entry: argument shapes, and the values of the scalar
// dimension arguments older JAX exports pass, determine every shape.
// RUN: stablehlo-to-tvm %s '--stablehlo-refine-shapes=arg-shapes=scalar,3x4,2x3x4 arg-values=0=3' | FileCheck %s
// RUN: not stablehlo-to-tvm %s '--stablehlo-refine-shapes=arg-shapes=scalar,3x4' 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not stablehlo-to-tvm %s '--stablehlo-refine-shapes=arg-shapes=scalar,3x4,2x3x4' 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: not stablehlo-to-tvm %s '--stablehlo-refine-shapes=arg-shapes=scalar,3x5,2x3x4 arg-values=0=3' 2>&1 | FileCheck %s --check-prefix=MISMATCH

// CHECK-LABEL: func.func public @main
// CHECK-SAME: (%arg0: tensor<i64>, %arg1: tensor<3x4xf32>, %arg2: tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK: %[[B0:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<3x4xf32>) -> tensor<1x3x4xf32>
// CHECK: %[[B1:.*]] = stablehlo.broadcast_in_dim %[[B0]], dims = [0, 1, 2] : (tensor<1x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK: stablehlo.add %[[B1]], %arg2 : tensor<2x3x4xf32>

// COUNT: error: specializing to 2 argument shapes, but the function has 3 arguments
// DYNAMIC: error: the shape of this result, 'tensor<1x?x4xf32>', is still dynamic
// MISMATCH: error: argument 1 of type 'tensor<?x4xf32>' cannot have shape 3x5
func.func public @main(%arg0: tensor<i64>, %arg1: tensor<?x4xf32>, %arg2: tensor<2x?x4xf32>) -> tensor<2x?x4xf32> {
  %0 = stablehlo.constant dense<1> : tensor<1xi32>
  %1 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
  %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
  %3 = stablehlo.constant dense<4> : tensor<1xi32>
  %4 = stablehlo.concatenate %0, %2, %3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  %5 = stablehlo.dynamic_broadcast_in_dim %arg1, %4, dims = [1, 2] : (tensor<?x4xf32>, tensor<3xi32>) -> tensor<1x?x4xf32>
  %6 = stablehlo.constant dense<2> : tensor<1xi32>
  %7 = stablehlo.concatenate %6, %2, %3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  %8 = stablehlo.dynamic_broadcast_in_dim %5, %7, dims = [0, 1, 2] : (tensor<1x?x4xf32>, tensor<3xi32>) -> tensor<2x?x4xf32>
  %9 = stablehlo.add %8, %arg2 : tensor<2x?x4xf32>
  return %9 : tensor<2x?x4xf32>
}
