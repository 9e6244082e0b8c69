// RUN: stablehlo-to-tvm %s --stablehlo-widen-bf16-results --split-input-file | FileCheck %s

// The last bf16 operation before a conversion to f32 computes in f32 (XLA
// cancels its rounding); the one before it keeps its rounding, and so does
// its other use.
// CHECK-LABEL: func.func @last_operation
// CHECK: %[[P:.*]] = stablehlo.multiply %arg0, %arg1 : tensor<4xbf16>
// CHECK: %[[PW:.*]] = stablehlo.convert %[[P]] : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK: %[[ZW:.*]] = stablehlo.convert %arg2 : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK: %[[S:.*]] = stablehlo.add %[[PW]], %[[ZW]] : tensor<4xf32>
// CHECK: return %[[S]], %[[P]]
func.func @last_operation(%x: tensor<4xbf16>, %y: tensor<4xbf16>, %z: tensor<4xbf16>) -> (tensor<4xf32>, tensor<4xbf16>) {
  %0 = stablehlo.multiply %x, %y : tensor<4xbf16>
  %1 = stablehlo.add %0, %z : tensor<4xbf16>
  %2 = stablehlo.convert %1 : (tensor<4xbf16>) -> tensor<4xf32>
  func.return %2, %0 : tensor<4xf32>, tensor<4xbf16>
}

// -----

// Functions too; an explicit f32 -> bf16 -> f32 round trip, f16, a
// conversion to f64 and ops XLA does not compute this way stay.
// CHECK-LABEL: func.func @which
// CHECK: %[[XW:.*]] = stablehlo.convert %arg0 : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK: %[[T:.*]] = stablehlo.tanh %[[XW]] : tensor<4xf32>
// CHECK: %[[R:.*]] = stablehlo.convert %arg1 : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK: %[[RW:.*]] = stablehlo.convert %[[R]] : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK: %[[H:.*]] = stablehlo.multiply %arg2, %arg2 : tensor<4xf16>
// CHECK: %[[HW:.*]] = stablehlo.convert %[[H]] : (tensor<4xf16>) -> tensor<4xf32>
// CHECK: %[[E:.*]] = stablehlo.exponential %arg0 : tensor<4xbf16>
// CHECK: %[[EW:.*]] = stablehlo.convert %[[E]] : (tensor<4xbf16>) -> tensor<4xf64>
// CHECK: %[[L:.*]] = stablehlo.logistic %arg0 : tensor<4xbf16>
// CHECK: %[[LW:.*]] = stablehlo.convert %[[L]] : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK: return %[[T]], %[[RW]], %[[HW]], %[[EW]], %[[LW]]
func.func @which(%x: tensor<4xbf16>, %f: tensor<4xf32>, %h: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf64>, tensor<4xf32>) {
  %0 = stablehlo.tanh %x : tensor<4xbf16>
  %1 = stablehlo.convert %0 : (tensor<4xbf16>) -> tensor<4xf32>
  %2 = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xbf16>
  %3 = stablehlo.convert %2 : (tensor<4xbf16>) -> tensor<4xf32>
  %4 = stablehlo.multiply %h, %h : tensor<4xf16>
  %5 = stablehlo.convert %4 : (tensor<4xf16>) -> tensor<4xf32>
  %6 = stablehlo.exponential %x : tensor<4xbf16>
  %7 = stablehlo.convert %6 : (tensor<4xbf16>) -> tensor<4xf64>
  %8 = stablehlo.logistic %x : tensor<4xbf16>
  %9 = stablehlo.convert %8 : (tensor<4xbf16>) -> tensor<4xf32>
  func.return %1, %3, %5, %7, %9 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf64>, tensor<4xf32>
}

// -----

// Products and convolutions of bf16 operands accumulate in f32: converted
// to f32, they give the f32 result type; an f16 product keeps its rounding.
// CHECK-LABEL: func.func @accumulations
// CHECK: %[[D:.*]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<4x8xbf16>, tensor<8x2xbf16>) -> tensor<4x2xf32>
// CHECK: %[[C:.*]] = stablehlo.convolution(%arg2, %arg3) {{.*}} : (tensor<1x8x4xbf16>, tensor<3x4x4xbf16>) -> tensor<1x8x4xf32>
// CHECK: %[[H:.*]] = stablehlo.dot_general %arg4, %arg4, contracting_dims = [1] x [0] : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
// CHECK: %[[HW:.*]] = stablehlo.convert %[[H]]
// CHECK: return %[[D]], %[[C]], %[[HW]]
func.func @accumulations(%a: tensor<4x8xbf16>, %b: tensor<8x2xbf16>, %x: tensor<1x8x4xbf16>, %w: tensor<3x4x4xbf16>, %h: tensor<4x4xf16>) -> (tensor<4x2xf32>, tensor<1x8x4xf32>, tensor<4x4xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xbf16>, tensor<8x2xbf16>) -> tensor<4x2xbf16>
  %1 = stablehlo.convert %0 : (tensor<4x2xbf16>) -> tensor<4x2xf32>
  %2 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x4xbf16>, tensor<3x4x4xbf16>) -> tensor<1x8x4xbf16>
  %3 = stablehlo.convert %2 : (tensor<1x8x4xbf16>) -> tensor<1x8x4xf32>
  %4 = stablehlo.dot_general %h, %h, contracting_dims = [1] x [0] : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
  %5 = stablehlo.convert %4 : (tensor<4x4xf16>) -> tensor<4x4xf32>
  func.return %1, %3, %5 : tensor<4x2xf32>, tensor<1x8x4xf32>, tensor<4x4xf32>
}
