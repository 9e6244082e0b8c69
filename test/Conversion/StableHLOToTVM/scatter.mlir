// scatter is a kernel: copy the inputs, then combine each update at the
// index its scatter indices and window offset name, skipping windows that do
// not fit.
// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm --split-input-file | FileCheck %s

// CHECK-LABEL: func @add_rows
// CHECK: tvm.kernel "scatter"(%arg0, %arg1, %arg2) : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<5x3xf32>
// CHECK-NEXT: ^bb0(%[[IN:.*]]: memref<5x3xf32>, %[[IDX:.*]]: memref<2x1xi32>, %[[UPD:.*]]: memref<2x3xf32>, %[[OUT:.*]]: memref<5x3xf32>):
// The copy, in parallel.
// CHECK: scf.parallel
// CHECK: memref.store %{{.*}}, %[[OUT]]
// The updates, in order: each scatter position's index vector is read and
// its window's fit tested once, outside the loop over the window.
// CHECK: scf.for %[[U0:[^ ]*]] =
// CHECK: %[[RAW:.*]] = memref.load %[[IDX]][%[[U0]], %{{.*}}] : memref<2x1xi32>
// CHECK: %[[ROW:.*]] = arith.index_cast %[[RAW]] : i32 to index
// CHECK: arith.cmpi sge, %[[ROW]]
// CHECK: arith.cmpi sle, %[[ROW]]
// CHECK: scf.if
// CHECK: scf.for %[[U1:[^ ]*]] =
// CHECK: %[[COL:.*]] = arith.addi %{{.*}}, %[[U1]] : index
// CHECK: %[[OLD:.*]] = memref.load %[[OUT]][%[[ROW]], %[[COL]]]
// CHECK: %[[NEW:.*]] = memref.load %[[UPD]][%[[U0]], %[[U1]]]
// CHECK: %[[SUM:.*]] = arith.addf %[[OLD]], %[[NEW]] : f32
// CHECK: memref.store %[[SUM]], %[[OUT]][%[[ROW]], %[[COL]]]
func.func @add_rows(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>, %u: tensor<2x3xf32>) -> tensor<5x3xf32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

// Batching dimensions index the operand with the update's own position.
// CHECK-LABEL: func @batched
// CHECK: tvm.kernel "scatter"
// CHECK: scf.reduce
// CHECK: scf.for %[[B:[^ ]*]] =
// CHECK: scf.for %[[K:[^ ]*]] =
// CHECK: %[[RAW:.*]] = memref.load %{{.*}}[%[[B]], %[[K]], %{{.*}}] : memref<2x3x1xi32>
// CHECK: %[[COL:.*]] = arith.index_castui %[[RAW]] : i32 to index
// CHECK: scf.if
// CHECK: memref.load %{{.*}}[%[[B]], %[[COL]]] : memref<2x4xi32>
func.func @batched(%x: tensor<2x4xi32>, %i: tensor<2x3x1xui32>, %u: tensor<2x3xi32>) -> tensor<2x4xi32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>} : (tensor<2x4xi32>, tensor<2x3x1xui32>, tensor<2x3xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

// A shift in the body: arith's shift is poison from the width on, StableHLO's
// shifts every bit out, so the amount is range-checked (unsigned: negative
// amounts too).
// CHECK-LABEL: func @shift_body
// CHECK: %[[W:.*]] = arith.constant 8 : i8
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[K:.*]], %[[W]] : i8
// CHECK: %[[SAFE:.*]] = arith.select %[[IN]], %[[K]], %[[Z:.*]] : i8
// CHECK: %[[S:.*]] = arith.shli %{{.*}}, %[[SAFE]] : i8
// CHECK: arith.select %[[IN]], %[[S]], %[[Z]] : i8
func.func @shift_body(%x: tensor<4xi8>, %i: tensor<2x1xi32>, %u: tensor<2xi8>) -> tensor<4xi8> {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i8>, %b: tensor<i8>):
    %1 = stablehlo.shift_left %a, %b : tensor<i8>
    stablehlo.return %1 : tensor<i8>
  }) : (tensor<4xi8>, tensor<2x1xi32>, tensor<2xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// A large scatter with a wide innermost window splits it among threads in
// blocks of 16: each block takes every position in order, so each element
// still combines its updates in order.
// CHECK-LABEL: func @add_rows_in_blocks
// CHECK: tvm.kernel "scatter"
// CHECK: scf.parallel
// CHECK: scf.parallel (%[[BLOCK:.*]]) = (%{{.*}}) to (%c4{{.*}})
// CHECK: %[[START:.*]] = arith.muli %[[BLOCK]], %c16
// CHECK: scf.for %[[POS:[^ ]*]] =
// CHECK: memref.load %{{.*}}[%[[POS]], %{{.*}}] : memref<2048x1xi32>
// CHECK: scf.if
// CHECK: scf.for %[[LANE:[^ ]*]] = %{{.*}} to %c16
// CHECK: %[[COL:.*]] = arith.addi %[[START]], %[[LANE]] : index
// CHECK: memref.load %{{.*}}[%[[POS]], %[[COL]]] : memref<2048x64xf32>
func.func @add_rows_in_blocks(%x: tensor<500x64xf32>, %i: tensor<2048x1xi32>, %u: tensor<2048x64xf32>) -> tensor<500x64xf32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<500x64xf32>, tensor<2048x1xi32>, tensor<2048x64xf32>) -> tensor<500x64xf32>
  return %0 : tensor<500x64xf32>
}
