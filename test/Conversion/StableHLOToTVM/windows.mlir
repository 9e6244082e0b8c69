// reduce_window is a kernel: each result folds its window through the body,
// starting from the init values; padding and base-dilation holes are skipped.
// Cumulative windows are scans.
// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm --split-input-file | FileCheck %s

// CHECK-LABEL: func @max_pool
// CHECK: tvm.kernel "reduce_window"(%arg0, %{{.*}}) : (tensor<1x6x6x1xf32>, tensor<f32>) -> tensor<1x3x3x1xf32>
// CHECK: scf.parallel
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<f32>
// CHECK: scf.for
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi slt
// CHECK: scf.if
// CHECK: %[[A:.*]] = memref.load %[[ACC]][]
// CHECK: %[[X:.*]] = memref.load %arg1
// CHECK: arith.cmpf ogt, %[[A]], %[[X]]
func.func @max_pool(%x: tensor<1x6x6x1xf32>) -> tensor<1x3x3x1xf32> {
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<1x6x6x1xf32>, tensor<f32>) -> tensor<1x3x3x1xf32>
  return %0 : tensor<1x3x3x1xf32>
}

// -----

// Base dilation: only every other position holds an element.
// CHECK-LABEL: func @base_dilated
// CHECK: arith.remsi
// CHECK: arith.divsi
func.func @base_dilated(%x: tensor<4xi32>) -> tensor<6xi32> {
  %init = stablehlo.constant dense<0> : tensor<i32>
  %0 = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 2>, base_dilations = array<i64: 2>} : (tensor<4xi32>, tensor<i32>) -> tensor<6xi32>
  return %0 : tensor<6xi32>
}

// -----

// select_and_scatter: per source element, the select body picks one element
// of its window, where the scatter body adds the source value.
// CHECK-LABEL: func @max_pool_grad
// CHECK: tvm.kernel "select_and_scatter"(%arg0, %arg1, %{{.*}}) : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
// CHECK: scf.parallel
// CHECK: %[[BEST:.*]] = memref.alloca() : memref<f32>
// CHECK: %[[FOUND:.*]] = memref.alloca() : memref<i1>
// CHECK: scf.if
// CHECK: arith.cmpf oge
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[BEST]][]
// CHECK: %[[HAVE:.*]] = memref.load %[[FOUND]][]
// CHECK: scf.if %[[HAVE]]
// CHECK: arith.addf
func.func @max_pool_grad(%x: tensor<4x4xf32>, %g: tensor<2x2xf32>) -> tensor<4x4xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.select_and_scatter"(%x, %g, %zero) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// Any body of elementwise ops runs on scalars: log-sum-exp over windows.
// CHECK-LABEL: func @log_sum_exp
// CHECK: tvm.kernel "reduce_window"
// CHECK-DAG: math.exp
// CHECK-DAG: math.log1p
// CHECK-DAG: math.absf
// CHECK-DAG: arith.cmpf une
func.func @log_sum_exp(%x: tensor<6xf32>) -> tensor<5xf32> {
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %init) <{window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    %d = stablehlo.subtract %a, %b : tensor<f32>
    %nan = stablehlo.compare NE, %d, %d, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %s = stablehlo.add %a, %b : tensor<f32>
    %ad = stablehlo.abs %d : tensor<f32>
    %n = stablehlo.negate %ad : tensor<f32>
    %e = stablehlo.exponential %n : tensor<f32>
    %l = stablehlo.log_plus_one %e : tensor<f32>
    %r = stablehlo.add %m, %l : tensor<f32>
    %o = stablehlo.select %nan, %s, %r : tensor<i1>, tensor<f32>
    stablehlo.return %o : tensor<f32>
  }) : (tensor<6xf32>, tensor<f32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// A window spanning the dimension and reaching back to its start from every
// position (JAX's cumsum) is a scan: one pass per slice, each position
// storing the running value.
// CHECK-LABEL: func @cumulative_sum
// CHECK: tvm.kernel "cumulative_reduce"
// CHECK: scf.parallel
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c50 step
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %[[K]]]
func.func @cumulative_sum(%x: tensor<3x50xf32>) -> tensor<3x50xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %zero) <{padding = dense<[[0, 0], [49, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 50>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3x50xf32>, tensor<f32>) -> tensor<3x50xf32>
  return %0 : tensor<3x50xf32>
}

// -----

// Reaching ahead to the end (a reverse cumulative op): the scan runs from
// the last position.
// CHECK-LABEL: func @reverse_cumulative_max
// CHECK: tvm.kernel "cumulative_reduce"
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c20 step
// CHECK: %[[I:.*]] = arith.subi %{{.*}}, %[[K]]
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[I]]]
func.func @reverse_cumulative_max(%x: tensor<20xi32>) -> tensor<20xi32> {
  %low = stablehlo.constant dense<-2147483648> : tensor<i32>
  %0 = "stablehlo.reduce_window"(%x, %low) <{padding = dense<[[0, 19]]> : tensor<1x2xi64>, window_dimensions = array<i64: 20>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = stablehlo.maximum %a, %b : tensor<i32>
    stablehlo.return %m : tensor<i32>
  }) : (tensor<20xi32>, tensor<i32>) -> tensor<20xi32>
  return %0 : tensor<20xi32>
}
