// dot_general becomes one batched matmul between the transposes and reshapes
// that bring the operands to [batch..., M, K] x [batch..., K, N].
// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm --split-input-file | FileCheck %s

// CHECK-LABEL: func @matmul
func.func @matmul(%a: tensor<1x784xf32>, %b: tensor<784x10xf32>) -> tensor<1x10xf32> {
  // CHECK-NEXT: %[[M:.*]] = tvm.matmul %arg0, %arg1 : (tensor<1x784xf32>, tensor<784x10xf32>) -> tensor<1x10xf32>
  // CHECK-NEXT: return %[[M]]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x784xf32>, tensor<784x10xf32>) -> tensor<1x10xf32>
  return %0 : tensor<1x10xf32>
}

// -----

// CHECK-LABEL: func @batched
func.func @batched(%a: tensor<5x2x3xf32>, %b: tensor<5x3x4xf32>) -> tensor<5x2x4xf32> {
  // CHECK-NEXT: %[[M:.*]] = tvm.matmul %arg0, %arg1 : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  // CHECK-NEXT: return %[[M]]
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  return %0 : tensor<5x2x4xf32>
}

// -----

// x @ w.T, as attention scores are written: the rhs is transposed.
// CHECK-LABEL: func @transposed_rhs
func.func @transposed_rhs(%a: tensor<2x8x16xf32>, %b: tensor<2x6x16xf32>) -> tensor<2x8x6xf32> {
  // CHECK: %[[T:.*]] = tvm.permute_dims %arg1 {axes = array<i64: 0, 2, 1>} : (tensor<2x6x16xf32>) -> tensor<2x16x6xf32>
  // CHECK: tvm.matmul %arg0, %[[T]] : (tensor<2x8x16xf32>, tensor<2x16x6xf32>) -> tensor<2x8x6xf32>
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x8x16xf32>, tensor<2x6x16xf32>) -> tensor<2x8x6xf32>
  return %0 : tensor<2x8x6xf32>
}

// -----

// Vector dot product: both sides gain a unit free dimension.
// CHECK-LABEL: func @vector_dot
func.func @vector_dot(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<f32> {
  // CHECK: %[[L:.*]] = tvm.reshape %arg0 {shape = array<i64: 1, 3>}
  // CHECK: %[[R:.*]] = tvm.reshape %arg1 {shape = array<i64: 3, 1>}
  // CHECK: %[[M:.*]] = tvm.matmul %[[L]], %[[R]] : (tensor<1x3xf32>, tensor<3x1xf32>) -> tensor<1x1xf32>
  // CHECK: tvm.reshape %[[M]] {shape = array<i64>} : (tensor<1x1xf32>) -> tensor<f32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Several free and contracting dimensions are flattened.
// CHECK-LABEL: func @multi_dims
func.func @multi_dims(%a: tensor<2x3x4xf32>, %b: tensor<3x4x5x6xf32>) -> tensor<2x5x6xf32> {
  // CHECK: %[[L:.*]] = tvm.reshape %arg0 {shape = array<i64: 2, 12>}
  // CHECK: %[[R:.*]] = tvm.reshape %arg1 {shape = array<i64: 12, 30>}
  // CHECK: %[[M:.*]] = tvm.matmul %[[L]], %[[R]] : (tensor<2x12xf32>, tensor<12x30xf32>) -> tensor<2x30xf32>
  // CHECK: tvm.reshape %[[M]] {shape = array<i64: 2, 5, 6>}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1, 2] x [0, 1] : (tensor<2x3x4xf32>, tensor<3x4x5x6xf32>) -> tensor<2x5x6xf32>
  return %0 : tensor<2x5x6xf32>
}

// -----

// A preferred result type becomes matmul's out_dtype.
// CHECK-LABEL: func @preferred_type
func.func @preferred_type(%a: tensor<2x3xbf16>, %b: tensor<3x4xbf16>) -> tensor<2x4xf32> {
  // CHECK: tvm.matmul %arg0, %arg1 {out_dtype = f32} : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Half-precision results accumulate in f32 and round once.
// CHECK-LABEL: func @half_result
func.func @half_result(%a: tensor<2x3xbf16>, %b: tensor<3x4xbf16>) -> tensor<2x4xbf16> {
  // CHECK: %[[L:.*]] = tvm.astype %arg0 {dtype = f32}
  // CHECK: %[[R:.*]] = tvm.astype %arg1 {dtype = f32}
  // CHECK: %[[M:.*]] = tvm.matmul %[[L]], %[[R]] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  // CHECK: tvm.astype %[[M]] {dtype = bf16} : (tensor<2x4xf32>) -> tensor<2x4xbf16>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xbf16>
  return %0 : tensor<2x4xbf16>
}

// -----

// A part of a complex product (stablehlo-lower-complex) keeps its rounding.
// CHECK-LABEL: func @rounded_products
func.func @rounded_products(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  // CHECK-NEXT: %[[M:.*]] = tvm.matmul %arg0, %arg1 {rounded_products} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  // CHECK-NEXT: return %[[M]]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {tvm.rounded_products} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Nothing contracted (an outer product): an element-wise multiply of the
// operands broadcast against each other.
// CHECK-LABEL: func @outer_product
func.func @outer_product(%a: tensor<128xf32>, %b: tensor<64xf32>) -> tensor<128x64xf32> {
  // CHECK-DAG: %[[A:.*]] = tvm.reshape %arg0 {{.*}} -> tensor<128x1xf32>
  // CHECK-DAG: %[[B:.*]] = tvm.reshape %arg1 {{.*}} -> tensor<1x64xf32>
  // CHECK-DAG: %[[AB:.*]] = tvm.broadcast_to %[[A]] {{.*}} -> tensor<128x64xf32>
  // CHECK-DAG: %[[BB:.*]] = tvm.broadcast_to %[[B]] {{.*}} -> tensor<128x64xf32>
  // CHECK: %[[M:.*]] = tvm.multiply %[[AB]], %[[BB]]
  // CHECK-NOT: tvm.matmul
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [] x [] : (tensor<128xf32>, tensor<64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

// Operands narrower than the result are widened first, exactly.
// CHECK-LABEL: func @outer_product_f16_to_f32
func.func @outer_product_f16_to_f32(%a: tensor<3x1xf16>, %b: tensor<1x4xf16>) -> tensor<3x4xf32> {
  // CHECK-DAG: tvm.astype %arg0 {dtype = f32} : (tensor<3x1xf16>) -> tensor<3x1xf32>
  // CHECK-DAG: tvm.astype %arg1 {dtype = f32} : (tensor<1x4xf16>) -> tensor<1x4xf32>
  // CHECK: tvm.multiply %{{.*}}, %{{.*}} : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x1xf16>, tensor<1x4xf16>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
