// f16 and bf16 reductions fold windows of 32 first, and cumulative ones
// scan blocks of 16 first, as XLA's CPU compiler does; the order of the
// fold decides the rounded result.
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

// -----

// A bf16 cumsum of 40: padded to 48, scanned in 3 blocks of 16, the
// blocks' totals scanned, shifted by one (the init value first) and added
// to each block's running sums; the padding cut off.
// CHECK-LABEL: func @cumsum
// CHECK: %[[P:.*]] = stablehlo.pad %arg0, %[[Z:.*]], low = [0, 0], high = [0, 8]
// CHECK: %[[T:.*]] = stablehlo.reshape %[[P]] : (tensor<4x48xbf16>) -> tensor<4x3x16xbf16>
// CHECK: %[[B:.*]] = "stablehlo.reduce_window"(%[[T]], %[[Z]]) <{padding = dense<{{\[\[}}0, 0], [0, 0], [15, 0]]> : tensor<3x2xi64>, window_dimensions = array<i64: 1, 1, 16>}>
// CHECK: %[[L:.*]] = stablehlo.slice %[[B]] [0:4, 0:3, 15:16]
// CHECK: %[[LT:.*]] = stablehlo.reshape %[[L]] : (tensor<4x3x1xbf16>) -> tensor<4x3xbf16>
// CHECK: %[[S:.*]] = "stablehlo.reduce_window"(%[[LT]], %[[Z]]) <{padding = dense<{{\[\[}}0, 0], [2, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 3>}>
// CHECK: %[[SH:.*]] = stablehlo.pad %[[S]], %[[Z]], low = [0, 1], high = [0, 0]
// CHECK: %[[BEFORE:.*]] = stablehlo.slice %[[SH]] [0:4, 0:3]
// CHECK: %[[SPREAD:.*]] = stablehlo.broadcast_in_dim %[[BEFORE]], dims = [0, 1] : (tensor<4x3xbf16>) -> tensor<4x3x16xbf16>
// CHECK: %[[SUM:.*]] = stablehlo.add %[[B]], %[[SPREAD]] : tensor<4x3x16xbf16>
// CHECK: %[[M:.*]] = stablehlo.reshape %[[SUM]] : (tensor<4x3x16xbf16>) -> tensor<4x48xbf16>
// CHECK: stablehlo.slice %[[M]] [0:4, 0:40]
func.func @cumsum(%x: tensor<4x40xbf16>) -> tensor<4x40xbf16> {
  %z = stablehlo.constant dense<0.0> : tensor<bf16>
  %0 = "stablehlo.reduce_window"(%x, %z) <{padding = dense<[[0, 0], [39, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 40>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %s = stablehlo.add %a, %b : tensor<bf16>
    stablehlo.return %s : tensor<bf16>
  }) : (tensor<4x40xbf16>, tensor<bf16>) -> tensor<4x40xbf16>
  return %0 : tensor<4x40xbf16>
}

// -----

// Left alone: a cummax (any order gives the same), a cumsum of 16, a
// reverse cumsum, an f32 one.
// CHECK-LABEL: func @scans_left
// CHECK-COUNT-4: "stablehlo.reduce_window"
// CHECK-NOT: "stablehlo.reduce_window"
func.func @scans_left(%x: tensor<40xbf16>, %y: tensor<16xf16>, %w: tensor<40xf32>) -> (tensor<40xbf16>, tensor<16xf16>, tensor<40xbf16>, tensor<40xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<bf16>
  %zh = stablehlo.constant dense<0.0> : tensor<f16>
  %zf = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %z) <{padding = dense<[[39, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 40>}> ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %s = stablehlo.maximum %a, %b : tensor<bf16>
    stablehlo.return %s : tensor<bf16>
  }) : (tensor<40xbf16>, tensor<bf16>) -> tensor<40xbf16>
  %1 = "stablehlo.reduce_window"(%y, %zh) <{padding = dense<[[15, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 16>}> ({
  ^bb0(%a: tensor<f16>, %b: tensor<f16>):
    %s = stablehlo.add %a, %b : tensor<f16>
    stablehlo.return %s : tensor<f16>
  }) : (tensor<16xf16>, tensor<f16>) -> tensor<16xf16>
  %2 = "stablehlo.reduce_window"(%x, %z) <{padding = dense<[[0, 39]]> : tensor<1x2xi64>, window_dimensions = array<i64: 40>}> ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %s = stablehlo.add %a, %b : tensor<bf16>
    stablehlo.return %s : tensor<bf16>
  }) : (tensor<40xbf16>, tensor<bf16>) -> tensor<40xbf16>
  %3 = "stablehlo.reduce_window"(%w, %zf) <{padding = dense<[[39, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 40>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<40xf32>, tensor<f32>) -> tensor<40xf32>
  return %0, %1, %2, %3 : tensor<40xbf16>, tensor<16xf16>, tensor<40xbf16>, tensor<40xf32>
}
