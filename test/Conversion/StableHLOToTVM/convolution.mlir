// convolution becomes a Relax convolution in NC<spatial>/OI<spatial> layouts.
// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm --split-input-file | FileCheck %s

// CHECK-LABEL: func @nhwc
func.func @nhwc(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x4x4x8xf32> {
  // CHECK: %[[X:.*]] = tvm.permute_dims %arg0 {axes = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
  // CHECK: %[[W:.*]] = tvm.permute_dims %arg1 {axes = array<i64: 3, 2, 0, 1>} : (tensor<3x3x4x8xf32>) -> tensor<8x4x3x3xf32>
  // Explicit padding is a pad of the input, then the convolution pads nothing.
  // CHECK: %[[Q:.*]] = tvm.nn.pad %[[X]] {pad_mode = "constant", pad_value = 0.000000e+00 : f64, pad_width = array<i64: 0, 0, 0, 0, 0, 1, 0, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x9x9xf32>
  // CHECK: %[[C:.*]] = tvm.nn.conv2d %[[Q]], %[[W]] {dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x4x9x9xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x4x4xf32>
  // CHECK: tvm.permute_dims %[[C]] {axes = array<i64: 0, 2, 3, 1>} : (tensor<1x8x4x4xf32>) -> tensor<1x4x4x8xf32>
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %0 : tensor<1x4x4x8xf32>
}

// -----

// NCHW/OIHW needs no transpose; groups and dilation pass through.
// CHECK-LABEL: func @grouped
func.func @grouped(%x: tensor<2x4x10x10xf32>, %w: tensor<8x2x3x3xf32>) -> tensor<2x8x6x6xf32> {
  // CHECK-NOT: tvm.permute_dims
  // CHECK: tvm.nn.conv2d %arg0, %arg1 {dilation = array<i64: 2, 2>, groups = 2 : i64, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>}
  // CHECK-NOT: tvm.permute_dims
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {rhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x4x10x10xf32>, tensor<8x2x3x3xf32>) -> tensor<2x8x6x6xf32>
  return %0 : tensor<2x8x6x6xf32>
}

// -----

// Window reversal flips the kernel; a 1-D convolution is a 2-D one with a
// unit dimension after its spatial one.
// CHECK-LABEL: func @reversed_1d
func.func @reversed_1d(%x: tensor<1x3x16xf32>, %w: tensor<5x3x4xf32>) -> tensor<1x5x13xf32> {
  // CHECK-DAG: %[[X:.*]] = tvm.reshape %arg0 {{.*}} -> tensor<1x3x16x1xf32>
  // CHECK-DAG: %[[W:.*]] = tvm.reshape %arg1 {{.*}} -> tensor<5x3x4x1xf32>
  // CHECK: %[[F:.*]] = tvm.flip %[[W]] {axis = 2 : i64}
  // CHECK: %[[C:.*]] = tvm.nn.conv2d %[[X]], %[[F]] {{.*}}strides = array<i64: 1, 1>}
  // CHECK: tvm.reshape %[[C]] {{.*}} -> tensor<1x5x13xf32>
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x16xf32>, tensor<5x3x4xf32>) -> tensor<1x5x13xf32>
  return %0 : tensor<1x5x13xf32>
}

// -----

// batch_group_count > 1 is left for the legality check.
// CHECK-LABEL: func @batch_groups
func.func @batch_groups(%x: tensor<2x4x8xf32>, %w: tensor<4x4x3xf32>) -> tensor<1x4x6xf32> {
  // CHECK: stablehlo.convolution
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<2x4x8xf32>, tensor<4x4x3xf32>) -> tensor<1x4x6xf32>
  return %0 : tensor<1x4x6xf32>
}

// -----

// A result with no elements is an empty tensor: nothing to compute (Relax's
// convolution rejects an empty output axis).
// CHECK-LABEL: func @empty_output
// CHECK: %[[E:.*]] = tvm.zeros {dtype = f32, shape = array<i64: 2, 0, 7, 5>} : () -> tensor<2x0x7x5xf32>
// CHECK: return %[[E]]
func.func @empty_output(%x: tensor<2x3x9x10xf32>, %w: tensor<3x3x10x5xf32>) -> tensor<2x0x7x5xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [2, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x9x10xf32>, tensor<3x3x10x5xf32>) -> tensor<2x0x7x5xf32>
  return %0 : tensor<2x0x7x5xf32>
}
