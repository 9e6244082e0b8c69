// gather, dynamic_gather and scatter print in generic form, as jaxlib does;
// their dimension numbers omit empty lists and a zero index_vector_dim.
// RUN: stablehlo-to-tvm %s | FileCheck %s
// RUN: stablehlo-to-tvm %s | stablehlo-to-tvm | FileCheck %s

// CHECK-LABEL: func @gather
func.func @gather(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>, %s: tensor<2xi32>) -> (tensor<2x3xf32>, tensor<?x2xf32>) {
  // CHECK: "stablehlo.gather"(%{{.*}}, %{{.*}}) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>}> : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>}> : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  // CHECK: "stablehlo.dynamic_gather"(%{{.*}}, %{{.*}}, %{{.*}}) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [1]>, indices_are_sorted = true}>
  %c = stablehlo.constant dense<1> : tensor<1xi64>
  %1 = "stablehlo.dynamic_gather"(%x, %c, %s) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [1]>, indices_are_sorted = true}> : (tensor<5x3xf32>, tensor<1xi64>, tensor<2xi32>) -> tensor<?x2xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<?x2xf32>
}

// CHECK-LABEL: func @batched_gather
func.func @batched_gather(%x: tensor<2x5x3xf32>, %i: tensor<2x4x1xi32>) -> tensor<2x4x3xf32> {
  // CHECK: #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 3>}> : (tensor<2x5x3xf32>, tensor<2x4x1xi32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// CHECK-LABEL: func @scatter
func.func @scatter(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>, %u: tensor<2x3xf32>) -> tensor<5x3xf32> {
  // CHECK: "stablehlo.scatter"(%{{.*}}, %{{.*}}, %{{.*}}) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  // CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
  // CHECK-NEXT: stablehlo.add %[[A]], %[[B]] : tensor<f32>
  %0 = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}
