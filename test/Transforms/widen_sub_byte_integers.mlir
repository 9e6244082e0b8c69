// i4/ui4 tensors become i8/ui8 holding the same values; results that can
// leave the narrow range wrap back, logical shifts read the narrow pattern.
// RUN: stablehlo-to-tvm %s --stablehlo-widen-sub-byte-integers | FileCheck %s

// The narrow result types are recorded for callers.
// CHECK-LABEL: func.func @main(%arg0: tensor<3xi8>, %arg1: tensor<3xui8>)
// CHECK-SAME: attributes {tvm.narrow_results = ["i4", "", "i4", "ui4", "i4"]}
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

// A region's block arguments and body are widened with the op that holds it
// (the scatter used to crash the pass).
// CHECK-LABEL: func.func @scatter_add
// CHECK: "stablehlo.scatter"(%arg0, %arg1, %arg2)
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<i8>, %[[B:.*]]: tensor<i8>):
// CHECK-NEXT: %[[S:.*]] = stablehlo.add %[[A]], %[[B]] : tensor<i8>
// CHECK-NEXT: %[[K:.*]] = stablehlo.constant dense<4> : tensor<i8>
// CHECK-NEXT: %[[U:.*]] = stablehlo.shift_left %[[S]], %[[K]]
// CHECK-NEXT: %[[W:.*]] = stablehlo.shift_right_arithmetic %[[U]], %[[K]]
// CHECK-NEXT: stablehlo.return %[[W]] : tensor<i8>
// CHECK: (tensor<6xi8>, tensor<1xi32>, tensor<i8>) -> tensor<6xi8>
func.func @scatter_add(%x: tensor<6xi4>, %i: tensor<1xi32>, %v: tensor<i4>) -> tensor<6xi4> {
  %0 = "stablehlo.scatter"(%x, %i, %v) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>}> ({
  ^bb0(%a: tensor<i4>, %b: tensor<i4>):
    %1 = stablehlo.add %a, %b : tensor<i4>
    stablehlo.return %1 : tensor<i4>
  }) : (tensor<6xi4>, tensor<1xi32>, tensor<i4>) -> tensor<6xi4>
  return %0 : tensor<6xi4>
}

// `not` of an unsigned value and a convert into the narrow type wrap too.
// CHECK-LABEL: func.func @narrowing
// CHECK: %[[NOT:.*]] = stablehlo.not %arg0 : tensor<2xui8>
// CHECK: stablehlo.and %[[NOT]], %{{.*}} : tensor<2xui8>
// CHECK: %[[CONV:.*]] = stablehlo.convert %arg1 : (tensor<2xi32>) -> tensor<2xi8>
// CHECK: %[[UP:.*]] = stablehlo.shift_left %[[CONV]]
// CHECK: stablehlo.shift_right_arithmetic %[[UP]]
func.func @narrowing(%x: tensor<2xui4>, %y: tensor<2xi32>) -> (tensor<2xui4>, tensor<2xi4>) {
  %0 = stablehlo.not %x : tensor<2xui4>
  %1 = stablehlo.convert %y : (tensor<2xi32>) -> tensor<2xi4>
  return %0, %1 : tensor<2xui4>, tensor<2xi4>
}

// An arithmetic shift of an unsigned narrow value copies its top bit: the
// operand is sign-extended from 4 bits first, the result masked back.
// CHECK-LABEL: func.func @arithmetic_shift
// CHECK: %[[K:.*]] = stablehlo.constant dense<4> : tensor<2xui8>
// CHECK: %[[UP:.*]] = stablehlo.shift_left %arg0, %[[K]]
// CHECK: %[[EXT:.*]] = stablehlo.shift_right_arithmetic %[[UP]], %[[K]]
// CHECK: %[[SHIFTED:.*]] = stablehlo.shift_right_arithmetic %[[EXT]], %arg1
// CHECK: stablehlo.and %[[SHIFTED]], %{{.*}} : tensor<2xui8>
func.func @arithmetic_shift(%x: tensor<2xui4>, %s: tensor<2xui4>) -> tensor<2xui4> {
  %0 = stablehlo.shift_right_arithmetic %x, %s : tensor<2xui4>
  return %0 : tensor<2xui4>
}

// Counts read the narrow pattern and can leave a signed 2-bit range: clz(0)
// and popcnt(-1) are 2, which is -2 in i2. Both wrap back (a compare of the
// 8-bit +2 with a value of the type would be wrong).
// CHECK-LABEL: func.func @counts
// CHECK: %[[LOW:.*]] = stablehlo.and %arg0, %{{.*}} : tensor<2xi8>
// CHECK: %[[CLZ:.*]] = stablehlo.count_leading_zeros %[[LOW]] : tensor<2xi8>
// CHECK: %[[SIX:.*]] = stablehlo.constant dense<6> : tensor<2xi8>
// CHECK: %[[NARROW:.*]] = stablehlo.subtract %[[CLZ]], %[[SIX]] : tensor<2xi8>
// CHECK: %[[UP:.*]] = stablehlo.shift_left %[[NARROW]], %{{.*}}
// CHECK: stablehlo.shift_right_arithmetic %[[UP]], %{{.*}}
// CHECK: %[[BITS:.*]] = stablehlo.and %arg0, %{{.*}} : tensor<2xi8>
// CHECK: %[[POP:.*]] = stablehlo.popcnt %[[BITS]] : tensor<2xi8>
// CHECK: %[[UP2:.*]] = stablehlo.shift_left %[[POP]], %{{.*}}
// CHECK: stablehlo.shift_right_arithmetic %[[UP2]], %{{.*}}
func.func @counts(%x: tensor<2xi2>) -> (tensor<2xi2>, tensor<2xi2>) {
  %0 = stablehlo.count_leading_zeros %x : tensor<2xi2>
  %1 = stablehlo.popcnt %x : tensor<2xi2>
  return %0, %1 : tensor<2xi2>, tensor<2xi2>
}
