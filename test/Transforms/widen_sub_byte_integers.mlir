// i4/ui4 tensors become i8/ui8 holding the same values; results that can
// leave the narrow range wrap back, logical shifts read the narrow pattern.
// RUN: stablehlo-to-tvm %s --stablehlo-widen-sub-byte-integers | FileCheck %s

// CHECK-LABEL: func.func @main(%arg0: tensor<3xi8>, %arg1: tensor<3xui8>)
// CHECK: %[[C:.*]] = stablehlo.constant dense<[7, -8, -8]> : tensor<3xi8>
// CHECK: stablehlo.xor %arg0, %[[C]] : tensor<3xi8>
// CHECK: stablehlo.convert %arg1 : (tensor<3xui8>) -> tensor<3xui64>
// CHECK: %[[SUM:.*]] = stablehlo.add %arg0, %[[C]] : tensor<3xi8>
// CHECK: %[[FOUR:.*]] = stablehlo.constant dense<4> : tensor<3xi8>
// CHECK: %[[UP:.*]] = stablehlo.shift_left %[[SUM]], %[[FOUR]]
// CHECK: stablehlo.shift_right_arithmetic %[[UP]], %[[FOUR]]
// CHECK: %[[PROD:.*]] = stablehlo.multiply %arg1, %arg1 : tensor<3xui8>
// CHECK: %[[MASK:.*]] = stablehlo.constant dense<15> : tensor<3xui8>
// CHECK: stablehlo.and %[[PROD]], %[[MASK]]
// CHECK: %[[LOW:.*]] = stablehlo.and %arg0, %{{.*}} : tensor<3xi8>
// CHECK: stablehlo.shift_right_logical %[[LOW]]
func.func @main(%x: tensor<3xi4>, %y: tensor<3xui4>) -> (tensor<3xi4>, tensor<3xui64>, tensor<3xi4>, tensor<3xui4>, tensor<3xi4>) {
  %c = stablehlo.constant dense<[7, -8, -8]> : tensor<3xi4>
  %0 = stablehlo.xor %x, %c : tensor<3xi4>
  %1 = stablehlo.convert %y : (tensor<3xui4>) -> tensor<3xui64>
  %2 = stablehlo.add %x, %c : tensor<3xi4>
  %3 = stablehlo.multiply %y, %y : tensor<3xui4>
  %s = stablehlo.constant dense<1> : tensor<3xi4>
  %4 = stablehlo.shift_right_logical %x, %s : tensor<3xi4>
  return %0, %1, %2, %3, %4 : tensor<3xi4>, tensor<3xui64>, tensor<3xi4>, tensor<3xui4>, tensor<3xi4>
}
