// f16 and bf16 reductions fold windows of 32 first, as XLA's CPU compiler
// does; the order of the fold decides the rounded result.
// RUN: stablehlo-to-tvm %s --stablehlo-tree-reduce-half-floats --split-input-file | FileCheck %s

// 33 rows: two windows, 17 rows then 16 ("same" padding, 15 before and 16
// after), then the two windows' sums.
// CHECK-LABEL: func @rows
// CHECK: %[[W:.*]] = "stablehlo.reduce_window"(%arg0, %{{.*}})
// CHECK-SAME: padding = dense<{{\[\[}}15, 16], [0, 0]]> : tensor<2x2xi64>
// CHECK-SAME: window_dimensions = array<i64: 32, 1>
// CHECK-SAME: window_strides = array<i64: 32, 1>
// CHECK: stablehlo.add
// CHECK: (tensor<33x8xbf16>, tensor<bf16>) -> tensor<2x8xbf16>
// CHECK: stablehlo.reduce(%[[W]] init: %{{.*}}) applies stablehlo.add across dimensions = [0] : (tensor<2x8xbf16>, tensor<bf16>) -> tensor<8xbf16>
func.func @rows(%x: tensor<33x8xbf16>) -> tensor<8xbf16> {
  %z = stablehlo.constant dense<0.0> : tensor<bf16>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<33x8xbf16>, tensor<bf16>) -> tensor<8xbf16>
  return %s : tensor<8xbf16>
}

// -----

// 2048 elements: 64 windows of 32, then those in two windows, then the
// two. Every reduced dimension is windowed (the short one whole).
// CHECK-LABEL: func @twice
// CHECK: "stablehlo.reduce_window"
// CHECK-SAME: window_dimensions = array<i64: 3, 32>
// CHECK: -> tensor<1x64xf16>
// CHECK: "stablehlo.reduce_window"
// CHECK-SAME: window_dimensions = array<i64: 1, 32>
// CHECK: -> tensor<1x2xf16>
// CHECK: stablehlo.reduce({{.*}}) applies stablehlo.multiply across dimensions = [0, 1] : (tensor<1x2xf16>, tensor<f16>) -> tensor<f16>
func.func @twice(%x: tensor<3x2048xf16>) -> tensor<f16> {
  %one = stablehlo.constant dense<1.0> : tensor<f16>
  %s = stablehlo.reduce(%x init: %one) applies stablehlo.multiply across dimensions = [0, 1] : (tensor<3x2048xf16>, tensor<f16>) -> tensor<f16>
  return %s : tensor<f16>
}

// -----

// Left alone: f32 (stablehlo-split-long-sums orders those), a maximum (any
// order gives the same result), dimensions no longer than a window.
// CHECK-LABEL: func @left
// CHECK-NOT: reduce_window
func.func @left(%x: tensor<64x8xf32>, %y: tensor<64x8xbf16>, %w: tensor<32x32xbf16>) -> (tensor<8xf32>, tensor<8xbf16>, tensor<bf16>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zb = stablehlo.constant dense<0.0> : tensor<bf16>
  %a = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<64x8xf32>, tensor<f32>) -> tensor<8xf32>
  %b = stablehlo.reduce(%y init: %zb) applies stablehlo.maximum across dimensions = [0] : (tensor<64x8xbf16>, tensor<bf16>) -> tensor<8xbf16>
  %c = stablehlo.reduce(%w init: %zb) applies stablehlo.add across dimensions = [0, 1] : (tensor<32x32xbf16>, tensor<bf16>) -> tensor<bf16>
  return %a, %b, %c : tensor<8xf32>, tensor<8xbf16>, tensor<bf16>
}
