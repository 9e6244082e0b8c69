// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm --split-input-file | FileCheck %s

// CHECK-LABEL: func @unary
func.func @unary(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[A:.*]] = tvm.abs %arg0
  // CHECK: %[[B:.*]] = tvm.negative %[[A]]
  // CHECK: %[[C:.*]] = tvm.exp %[[B]]
  // CHECK: %[[D:.*]] = tvm.log %[[C]]
  // CHECK: %[[E:.*]] = tvm.tanh %[[D]]
  // CHECK: %[[F:.*]] = tvm.sqrt %[[E]]
  // CHECK: %[[G:.*]] = tvm.rsqrt %[[F]]
  // CHECK: %[[H:.*]] = tvm.sigmoid %[[G]] : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: return %[[H]]
  %0 = stablehlo.abs %x : tensor<4xf32>
  %1 = stablehlo.negate %0 : tensor<4xf32>
  %2 = stablehlo.exponential %1 : tensor<4xf32>
  %3 = stablehlo.log %2 : tensor<4xf32>
  %4 = stablehlo.tanh %3 : tensor<4xf32>
  %5 = stablehlo.sqrt %4 : tensor<4xf32>
  %6 = stablehlo.rsqrt %5 : tensor<4xf32>
  %7 = stablehlo.logistic %6 : tensor<4xf32>
  return %7 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @binary
func.func @binary(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[A:.*]] = tvm.add %arg0, %arg1
  // CHECK: %[[B:.*]] = tvm.subtract %[[A]], %arg1
  // CHECK: %[[C:.*]] = tvm.multiply %[[B]], %arg1
  // CHECK: %[[D:.*]] = tvm.divide %[[C]], %arg1
  // CHECK: %[[E:.*]] = tvm.maximum %[[D]], %arg1
  // CHECK: %[[F:.*]] = tvm.minimum %[[E]], %arg1
  // CHECK: return %[[F]]
  %0 = stablehlo.add %x, %y : tensor<4xf32>
  %1 = stablehlo.subtract %0, %y : tensor<4xf32>
  %2 = stablehlo.multiply %1, %y : tensor<4xf32>
  %3 = stablehlo.divide %2, %y : tensor<4xf32>
  %4 = stablehlo.maximum %3, %y : tensor<4xf32>
  %5 = stablehlo.minimum %4, %y : tensor<4xf32>
  return %5 : tensor<4xf32>
}

// -----

// On i1, StableHLO's arithmetic is logic; on integers, and/or/xor/not are bitwise.
// CHECK-LABEL: func @booleans_and_bits
func.func @booleans_and_bits(%p: tensor<4xi1>, %q: tensor<4xi1>, %i: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi32>) {
  // CHECK: tvm.logical_or %arg0, %arg1
  // CHECK: tvm.logical_and
  // CHECK: tvm.logical_or
  // CHECK: tvm.logical_and
  // CHECK: tvm.logical_xor
  // CHECK: tvm.logical_not
  // CHECK: tvm.bitwise_and %arg2, %arg2
  // CHECK: tvm.bitwise_or
  // CHECK: tvm.bitwise_xor
  // CHECK: tvm.bitwise_not
  %0 = stablehlo.add %p, %q : tensor<4xi1>
  %1 = stablehlo.multiply %0, %q : tensor<4xi1>
  %2 = stablehlo.maximum %1, %q : tensor<4xi1>
  %3 = stablehlo.minimum %2, %q : tensor<4xi1>
  %4 = stablehlo.xor %3, %q : tensor<4xi1>
  %5 = stablehlo.not %4 : tensor<4xi1>
  %6 = stablehlo.and %i, %i : tensor<4xi32>
  %7 = stablehlo.or %6, %i : tensor<4xi32>
  %8 = stablehlo.xor %7, %i : tensor<4xi32>
  %9 = stablehlo.not %8 : tensor<4xi32>
  return %5, %9 : tensor<4xi1>, tensor<4xi32>
}

// -----

// CHECK-LABEL: func @compare
func.func @compare(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi1> {
  // CHECK: tvm.equal %arg0, %arg1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: tvm.not_equal
  // CHECK: tvm.less
  // CHECK: tvm.less_equal
  // CHECK: tvm.greater
  // CHECK: tvm.greater_equal
  %0 = stablehlo.compare EQ, %x, %y, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = stablehlo.compare NE, %x, %y, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %2 = stablehlo.compare LT, %x, %y, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %3 = stablehlo.compare LE, %x, %y, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %4 = stablehlo.compare GT, %x, %y, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %5 = stablehlo.compare GE, %x, %y, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %6 = stablehlo.and %0, %1 : tensor<4xi1>
  return %6 : tensor<4xi1>
}

// -----

// TOTALORDER is left for the legality check to report.
// CHECK-LABEL: func @compare_totalorder
func.func @compare_totalorder(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi1> {
  // CHECK: stablehlo.compare LT, %arg0, %arg1, TOTALORDER
  %0 = stablehlo.compare LT, %x, %y, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// CHECK-LABEL: func @select
func.func @select(%p: tensor<i1>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: tvm.where %arg0, %arg1, %arg2 : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %0 = stablehlo.select %p, %x, %y : tensor<i1>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @convert
func.func @convert(%x: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xi1>, tensor<4xf32>) {
  // CHECK: %[[I:.*]] = tvm.astype %arg0 {dtype = i32} : (tensor<4xf32>) -> tensor<4xi32>
  %0 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xi32>
  // Conversion to i1 is `x != 0`.
  // CHECK: %[[Z:.*]] = tvm.constant dense<0.000000e+00> : tensor<4xf32>
  // CHECK: %[[B:.*]] = tvm.not_equal %arg0, %[[Z]]
  %1 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xi1>
  // A conversion to the same type is no op at all.
  %2 = stablehlo.convert %x : tensor<4xf32>
  // CHECK: return %[[I]], %[[B]], %arg0
  return %0, %1, %2 : tensor<4xi32>, tensor<4xi1>, tensor<4xf32>
}

// -----

// Complex numbers have no TVM dtype; they stay for the legality check.
// CHECK-LABEL: func @complex
func.func @complex(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // CHECK: stablehlo.add %arg0, %arg0 : tensor<4xcomplex<f32>>
  %0 = stablehlo.add %x, %x : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}
