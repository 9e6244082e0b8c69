// RUN: stablehlo-to-tvm %s --stablehlo-fold-convolution-depth --split-input-file | FileCheck %s

// Each depth tap of the kernel is a 2-D convolution of the input's depth
// slices it meets (padded in depth first, strided by the depth stride),
// folded into the batch; the taps' results are summed and unfolded.
// CHECK-LABEL: func.func @strided_padded
// CHECK: %[[PAD:.*]] = stablehlo.pad %arg0, %{{.*}}, low = [0, 1, 0, 0, 0], high = [0, 0, 0, 0, 0]
// CHECK: %[[S0:.*]] = stablehlo.slice %[[PAD]] [0:2, 0:5:2, 0:8, 0:8, 0:3]
// CHECK: %[[P0:.*]] = stablehlo.reshape %[[S0]] : (tensor<2x3x8x8x3xf32>) -> tensor<6x8x8x3xf32>
// CHECK: %[[K0:.*]] = stablehlo.slice %arg1 [0:1, 0:3, 0:3, 0:3, 0:4]
// CHECK: %[[T0:.*]] = stablehlo.reshape %[[K0]] : (tensor<1x3x3x3x4xf32>) -> tensor<3x3x3x4xf32>
// CHECK: %[[C0:.*]] = stablehlo.convolution(%[[P0]], %[[T0]]) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = {{\[\[}}1, 1], [1, 1]]
// CHECK: %[[S1:.*]] = stablehlo.slice %[[PAD]] [0:2, 1:6:2, 0:8, 0:8, 0:3]
// CHECK: %[[C1:.*]] = stablehlo.convolution
// CHECK: %[[SUM:.*]] = stablehlo.add %[[C0]], %[[C1]] : tensor<6x8x8x4xf32>
// CHECK: %[[R:.*]] = stablehlo.reshape %[[SUM]] : (tensor<6x8x8x4xf32>) -> tensor<2x3x8x8x4xf32>
// CHECK: return %[[R]]
func.func @strided_padded(%x: tensor<2x6x8x8x3xf32>, %w: tensor<2x3x3x3x4xf32>) -> tensor<2x3x8x8x4xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f], window = {stride = [2, 1, 1], pad = [[1, 0], [1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x6x8x8x3xf32>, tensor<2x3x3x3x4xf32>) -> tensor<2x3x8x8x4xf32>
  func.return %0 : tensor<2x3x8x8x4xf32>
}

// -----

// Channels-first layouts are transposed to [batch, depth, rows, columns,
// features] and back.
// CHECK-LABEL: func.func @channels_first
// CHECK: stablehlo.transpose %{{.*}}, dims = [0, 2, 3, 4, 1] : (tensor<1x4x2x5x5xf32>) -> tensor<1x2x5x5x4xf32>
// CHECK: stablehlo.transpose %{{.*}}, dims = [2, 3, 4, 1, 0] : (tensor<6x4x1x3x3xf32>) -> tensor<1x3x3x4x6xf32>
// CHECK: stablehlo.convolution
// CHECK-NOT: stablehlo.convolution
// CHECK: %[[BACK:.*]] = stablehlo.transpose %{{.*}}, dims = [0, 4, 1, 2, 3] : (tensor<1x2x3x3x6xf32>) -> tensor<1x6x2x3x3xf32>
// CHECK: return %[[BACK]]
func.func @channels_first(%x: tensor<1x4x2x5x5xf32>, %w: tensor<6x4x1x3x3xf32>) -> tensor<1x6x2x3x3xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1, 2]x[o, i, 0, 1, 2]->[b, f, 0, 1, 2], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x2x5x5xf32>, tensor<6x4x1x3x3xf32>) -> tensor<1x6x2x3x3xf32>
  func.return %0 : tensor<1x6x2x3x3xf32>
}

// -----

// Not rewritten: 2-D convolutions, half floats, lhs dilation, batch groups.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-3: stablehlo.convolution
// CHECK-NOT: stablehlo.convolution
func.func @left_alone(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x2xf32>, %h: tensor<1x4x4x4x2xf16>, %hw: tensor<3x3x3x2x2xf16>, %y: tensor<1x4x4x4x2xf32>, %yw: tensor<3x3x3x2x2xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2x2xf16>, tensor<1x7x7x7x2xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x2x2x2xf32>
  %1 = stablehlo.convolution(%h, %hw) dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x4x2xf16>, tensor<3x3x3x2x2xf16>) -> tensor<1x2x2x2x2xf16>
  %2 = stablehlo.convolution(%y, %yw) dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f], window = {pad = [[1, 1], [1, 1], [1, 1]], lhs_dilate = [2, 2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x4x2xf32>, tensor<3x3x3x2x2xf32>) -> tensor<1x7x7x7x2xf32>
  func.return %0, %1, %2 : tensor<1x2x2x2xf32>, tensor<1x2x2x2x2xf16>, tensor<1x7x7x7x2xf32>
}
