// Convolutions over lhs-dilated inputs become one stride-1 convolution per
// output phase, with the kernel taps of that phase, joined back in place.
// RUN: stablehlo-to-tvm %s --stablehlo-split-dilated-convolutions --split-input-file | FileCheck %s

// A 3x3 transposed convolution with stride 2: four phases with 2x2, 2x1,
// 1x2 and 1x1 taps, side by side along unit dimensions after the spatial
// ones (last spatial dimension first), merged by a reshape.
// CHECK-LABEL: func @transposed
// CHECK: %[[K0:.*]] = stablehlo.slice %arg1 [0:3:2, 0:3:2, 0:2, 0:4]
// CHECK: %[[C0:.*]] = stablehlo.convolution(%arg0, %[[K0]]) {{.*}} window = {pad = {{\[\[}}1, 0], [1, 0]]}
// CHECK-SAME: -> tensor<1x3x3x4xf32>
// CHECK: %[[P0:.*]] = stablehlo.reshape %[[C0]] : (tensor<1x3x3x4xf32>) -> tensor<1x3x1x3x1x4xf32>
// CHECK: %[[K1:.*]] = stablehlo.slice %arg1 [0:3:2, 1:3:2, 0:2, 0:4]
// CHECK: %[[C1:.*]] = stablehlo.convolution(%arg0, %[[K1]]) {{.*}} window = {pad = {{\[\[}}1, 0], [0, 0]]}
// CHECK: %[[P1:.*]] = stablehlo.reshape %[[C1]]
// CHECK: stablehlo.slice %arg1 [1:3:2, 0:3:2, 0:2, 0:4]
// CHECK: %[[P2:.*]] = stablehlo.reshape
// CHECK: stablehlo.slice %arg1 [1:3:2, 1:3:2, 0:2, 0:4]
// CHECK: %[[P3:.*]] = stablehlo.reshape
// CHECK: %[[R0:.*]] = stablehlo.concatenate %[[P0]], %[[P1]], dim = 4
// CHECK: %[[R1:.*]] = stablehlo.concatenate %[[P2]], %[[P3]], dim = 4
// CHECK: %[[ALL:.*]] = stablehlo.concatenate %[[R0]], %[[R1]], dim = 2 : {{.*}} -> tensor<1x3x2x3x2x4xf32>
// CHECK: %[[Y:.*]] = stablehlo.reshape %[[ALL]] : (tensor<1x3x2x3x2x4xf32>) -> tensor<1x6x6x4xf32>
// CHECK: return %[[Y]]
// CHECK-NOT: lhs_dilate
func.func @transposed(%x: tensor<1x3x3x2xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<1x6x6x4xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[2, 1], [2, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x3x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

// A 1-tap kernel over a 1-D input dilated by 2 (a stride-2 1x1 convolution's
// input gradient): the odd phase has no tap and is zeros; 7 outputs come
// from 2 x 4, the last one cut off.
// CHECK-LABEL: func @no_taps
// CHECK: %[[C:.*]] = stablehlo.convolution(%arg0, %{{.*}}) {{.*}} -> tensor<2x4x3xf32>
// CHECK: %[[Z:.*]] = stablehlo.broadcast_in_dim %{{.*}}, dims = [] : (tensor<f32>) -> tensor<2x4x3xf32>
// CHECK: stablehlo.concatenate {{.*}}, dim = 2 : {{.*}} -> tensor<2x4x2x3xf32>
// CHECK: stablehlo.reshape {{.*}} -> tensor<2x8x3xf32>
// CHECK: stablehlo.slice {{.*}} [0:2, 0:7, 0:3] : (tensor<2x8x3xf32>) -> tensor<2x7x3xf32>
func.func @no_taps(%x: tensor<2x4x3xf32>, %w: tensor<1x3x3xf32>) -> tensor<2x7x3xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x4x3xf32>, tensor<1x3x3xf32>) -> tensor<2x7x3xf32>
  return %0 : tensor<2x7x3xf32>
}

// -----

// Left alone: a dilated input read with stride 2, a reversed window.
// CHECK-LABEL: func @left
// CHECK-COUNT-2: lhs_dilate = [2, 2]
func.func @left(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x2x4xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x7x7x4xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x5x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x4x4x4xf32>
  %1 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {lhs_dilate = [2, 2], reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x5x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x7x7x4xf32>
  return %0, %1 : tensor<1x4x4x4xf32>, tensor<1x7x7x4xf32>
}
