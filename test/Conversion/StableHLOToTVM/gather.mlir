// gather is a kernel: each result element reads the operand at its clamped
// start index plus its offset in the slice.
// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm --split-input-file | FileCheck %s

// CHECK-LABEL: func @take_rows
// CHECK: tvm.kernel "gather"(%arg0, %arg1) : (tensor<5x3xf32>, tensor<4x1xi64>) -> tensor<4x3xf32>
// CHECK-NEXT: ^bb0(%[[X:.*]]: memref<5x3xf32>, %[[I:.*]]: memref<4x1xi64>, %[[OUT:.*]]: memref<4x3xf32>):
// CHECK: scf.parallel (%[[R:.*]]) =
// CHECK: scf.for %[[C:[^ ]*]] =
// CHECK: %[[RAW:.*]] = memref.load %[[I]][%[[R]], %{{.*}}] : memref<4x1xi64>
// CHECK: %[[START:.*]] = arith.index_cast %[[RAW]] : i64 to index
// CHECK: %[[LOW:.*]] = arith.maxsi %[[START]], %{{.*}} : index
// CHECK: %[[ROW:.*]] = arith.minsi %[[LOW]], %{{.*}} : index
// CHECK: %[[COL:.*]] = arith.addi %{{.*}}, %[[C]] : index
// CHECK: %[[V:.*]] = memref.load %[[X]][%[[ROW]], %[[COL]]]
// CHECK: memref.store %[[V]], %[[OUT]][%[[R]], %[[C]]]
func.func @take_rows(%x: tensor<5x3xf32>, %i: tensor<4x1xi64>) -> tensor<4x3xf32> {
  %0 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>} : (tensor<5x3xf32>, tensor<4x1xi64>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
