// RUN: stablehlo-to-tvm %s --stablehlo-split-long-sums --split-input-file | FileCheck %s

// A column sum over 12,544 rows: blocks of 32 rows, then blocks of 28 of
// those sums (392 is still long), then the 14 that remain from the init value.
// CHECK-LABEL: func.func @across_rows
// CHECK-DAG: %[[INIT:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-DAG: %[[NEG:.*]] = stablehlo.constant dense<-0.000000e+00> : tensor<f32>
// CHECK: %[[B:.*]] = stablehlo.reshape %arg0 : (tensor<12544x16xf32>) -> tensor<392x32x16xf32>
// CHECK: %[[S:.*]] = stablehlo.reduce(%[[B]] init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<392x32x16xf32>, tensor<f32>) -> tensor<392x16xf32>
// CHECK: %[[B2:.*]] = stablehlo.reshape %[[S]] : (tensor<392x16xf32>) -> tensor<14x28x16xf32>
// CHECK: %[[S2:.*]] = stablehlo.reduce(%[[B2]] init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<14x28x16xf32>, tensor<f32>) -> tensor<14x16xf32>
// CHECK: %[[T:.*]] = stablehlo.reduce(%[[S2]] init: %[[INIT]]) applies stablehlo.add across dimensions = [0] : (tensor<14x16xf32>, tensor<f32>) -> tensor<16xf32>
// CHECK: return %[[T]]
func.func @across_rows(%x: tensor<12544x16xf32>) -> tensor<16xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<12544x16xf32>, tensor<f32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// A batch statistic of NHWC activations: dimension by dimension, the last
// first, without reshapes.
// CHECK-LABEL: func.func @batch_statistic
// CHECK: %[[W:.*]] = stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.add across dimensions = [2] : (tensor<16x28x28x8xf32>, tensor<f32>) -> tensor<16x28x8xf32>
// CHECK: %[[H:.*]] = stablehlo.reduce(%[[W]] init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<16x28x8xf32>, tensor<f32>) -> tensor<16x8xf32>
// CHECK: %[[N:.*]] = stablehlo.reduce(%[[H]] init: %{{.*}}) applies stablehlo.add across dimensions = [0] : (tensor<16x8xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK: return %[[N]]
func.func @batch_statistic(%x: tensor<16x28x28x8xf32>) -> tensor<8xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<16x28x28x8xf32>, tensor<f32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// NCHW: the rows (H, W) first, by the CPU build's vector lanes; then the batch.
// CHECK-LABEL: func.func @separate_runs
// CHECK: %[[HW:.*]] = stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.add across dimensions = [2, 3] : (tensor<16x8x30x30xf32>, tensor<f32>) -> tensor<16x8xf32>
// CHECK: stablehlo.reduce(%[[HW]] init: %{{.*}}) applies stablehlo.add across dimensions = [0] : (tensor<16x8xf32>, tensor<f32>) -> tensor<8xf32>
func.func @separate_runs(%x: tensor<16x8x30x30xf32>) -> tensor<8xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 2, 3] : (tensor<16x8x30x30xf32>, tensor<f32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A long vector: rows of 400 (a divisor, a multiple of 16), then their sums;
// a length without such a divisor is padded with -0 to rows of 512.
// CHECK-LABEL: func.func @vector
// CHECK: stablehlo.reshape %arg0 : (tensor<100000xf32>) -> tensor<250x400xf32>
// CHECK: stablehlo.reduce({{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<250x400xf32>, tensor<f32>) -> tensor<250xf32>
// CHECK: stablehlo.reduce({{.*}}) applies stablehlo.add across dimensions = [0] : (tensor<250xf32>, tensor<f32>) -> tensor<f32>
// CHECK: %[[P:.*]] = stablehlo.pad %arg1, %{{.*}}, low = [0], high = [511], interior = [0] : (tensor<4097xf64>, tensor<f64>) -> tensor<4608xf64>
// CHECK: stablehlo.reshape %[[P]] : (tensor<4608xf64>) -> tensor<9x512xf64>
func.func @vector(%x: tensor<100000xf32>, %y: tensor<4097xf64>) -> (tensor<f32>, tensor<f64>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<100000xf32>, tensor<f32>) -> tensor<f32>
  %zd = stablehlo.constant dense<0.0> : tensor<f64>
  %s = stablehlo.reduce(%y init: %zd) applies stablehlo.add across dimensions = [0] : (tensor<4097xf64>, tensor<f64>) -> tensor<f64>
  return %r, %s : tensor<f32>, tensor<f64>
}

// -----

// Left alone: rows along memory with a dimension kept (summed by vector
// lanes), short sums, products, integers.
// CHECK-LABEL: func.func @unchanged
// CHECK-COUNT-4: stablehlo.reduce
// CHECK-NOT: stablehlo.reduce
// CHECK-NOT: stablehlo.reshape
func.func @unchanged(%x: tensor<8x1024xf32>, %y: tensor<200x4xf32>, %i: tensor<4096xi32>) -> (tensor<8xf32>, tensor<4xf32>, tensor<8xf32>, tensor<i32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %zi = stablehlo.constant dense<0> : tensor<i32>
  %rows = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x1024xf32>, tensor<f32>) -> tensor<8xf32>
  %short = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [0] : (tensor<200x4xf32>, tensor<f32>) -> tensor<4xf32>
  %prod = stablehlo.reduce(%x init: %one) applies stablehlo.multiply across dimensions = [1] : (tensor<8x1024xf32>, tensor<f32>) -> tensor<8xf32>
  %ints = stablehlo.reduce(%i init: %zi) applies stablehlo.add across dimensions = [0] : (tensor<4096xi32>, tensor<i32>) -> tensor<i32>
  return %rows, %short, %prod, %ints : tensor<8xf32>, tensor<4xf32>, tensor<8xf32>, tensor<i32>
}
