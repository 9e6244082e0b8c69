// sort is a kernel: each slice sorted on its own, all operands moving
// together, the comparator run on scalars. Slices of up to 16 elements are
// sorted in place by insertion; longer ones are merge sorted through a
// scratch result.
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

// -----

// 40 elements: 6 merge passes, two per loop iteration (widths 1 << 2t and
// twice that), the input copied first into the result, where the last pass
// of an even count ends.
// CHECK-LABEL: func @long_sort
// CHECK: %[[K:.*]]:2 = tvm.kernel "sort"(%arg0) : (tensor<40xi32>) -> (tensor<40xi32>, tensor<40xi32>)
// CHECK: ^bb0(%[[IN:.*]]: memref<40xi32>, %[[OUT:.*]]: memref<40xi32>, %[[SCRATCH:.*]]: memref<40xi32>):
// CHECK: memref.load %[[IN]]
// CHECK: memref.store %{{.*}}, %[[OUT]]
// CHECK: arith.shli
// CHECK: arith.cmpi slt
// CHECK: memref.store %{{.*}}, %[[SCRATCH]]
// CHECK: arith.cmpi slt
// CHECK: memref.store %{{.*}}, %[[OUT]]
// CHECK-NOT: memref.store %{{.*}}, %[[SCRATCH]]
// CHECK: return %[[K]]#0
func.func @long_sort(%x: tensor<40xi32>) -> tensor<40xi32> {
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<40xi32>) -> tensor<40xi32>
  return %0 : tensor<40xi32>
}
