// RUN: stablehlo-to-tvm %s --stablehlo-expose-checks --split-input-file | FileCheck %s

// A call of @inputs becomes the entry's arguments; each custom_call check's
// pair is returned, judged with the fixed tolerance of its kind.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[A:.*]]: tensor<i32>, %[[B:.*]]: tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2x2xf64>, tensor<i32>, tensor<i32>)
// CHECK-SAME: stablehlo_tvm.checks = [{kind = "expect_almost_eq", tolerance = 1.000000e-03 : f64}, {kind = "expect_eq"}]
// CHECK: %[[T:.*]] = stablehlo.transpose %[[B]]
// CHECK: %[[W:.*]] = stablehlo.constant dense<1.500000e+00>
// CHECK: %[[N:.*]] = stablehlo.negate %[[A]]
// CHECK-NOT: custom_call
// CHECK: return %[[T]], %[[W]], %[[N]], %[[A]]
// CHECK: func.func @inputs()
func.func @main() {
  %pair:2 = func.call @inputs() : () -> (tensor<i32>, tensor<2x2xf64>)
  %t = stablehlo.transpose %pair#1, dims = [1, 0] : (tensor<2x2xf64>) -> tensor<2x2xf64>
  %want = stablehlo.constant dense<1.5> : tensor<2x2xf64>
  stablehlo.custom_call @check.expect_almost_eq(%t, %want) : (tensor<2x2xf64>, tensor<2x2xf64>) -> ()
  %n = stablehlo.negate %pair#0 : tensor<i32>
  stablehlo.custom_call @check.expect_eq(%n, %pair#0) : (tensor<i32>, tensor<i32>) -> ()
  func.return
}
func.func private @inputs() -> (tensor<i32>, tensor<2x2xf64>) {
  %k = stablehlo.constant dense<0> : tensor<i32>
  %m = stablehlo.constant dense<1.5> : tensor<2x2xf64>
  func.return %k, %m : tensor<i32>, tensor<2x2xf64>
}

// -----

// Without @main, every function without arguments that checks is an entry;
// check dialect ops carry their own tolerances, *_const values become
// constants, and functions that check nothing are left alone.
// CHECK-LABEL: func.func @counts() -> (tensor<4xui8>, tensor<4xui8>)
// CHECK-SAME: stablehlo_tvm.checks = [{kind = "expect_eq"}]
// CHECK: %[[K:.*]] = stablehlo.constant dense<[0, 2, 4, 6]> : tensor<4xui8>
// CHECK: return %{{.*}}, %[[K]]
// CHECK-LABEL: func.func @halves() -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
// CHECK-SAME: stablehlo_tvm.checks = [{kind = "expect_close", max_ulp_difference = 2 : i64, min_ulp_difference = 0 : i64}, {kind = "expect_almost_eq", tolerance = 5.000000e-02 : f64}]
// CHECK-LABEL: func.func private @twice
// CHECK-NOT: stablehlo_tvm.checks
func.func @counts() {
  %0 = stablehlo.iota dim = 0 : tensor<4xui8>
  %1 = func.call @twice(%0) : (tensor<4xui8>) -> tensor<4xui8>
  check.expect_eq_const %1, dense<[0, 2, 4, 6]> : tensor<4xui8>
  func.return
}
func.func @halves() {
  %0 = stablehlo.constant dense<[1.0, 3.0, -7.0]> : tensor<3xf32>
  %1 = stablehlo.constant dense<0.5> : tensor<3xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<3xf32>
  check.expect_close %2, %2, max_ulp_difference = 2 : tensor<3xf32>, tensor<3xf32>
  check.expect_almost_eq %2, %0, tolerance = 0.05 : tensor<3xf32>
  func.return
}
func.func private @twice(%x: tensor<4xui8>) -> tensor<4xui8> {
  %0 = stablehlo.add %x, %x : tensor<4xui8>
  func.return %0 : tensor<4xui8>
}

// -----

// The quantized corpus's `check.eq` yields its verdict, which @main returns:
// the verdict leaves the results, the harness judges the pair instead.
// CHECK-LABEL: func.func @main() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
// CHECK-SAME: stablehlo_tvm.checks = [{kind = "eq", tolerance = 1.000000e-04 : f64}]
// CHECK: %[[X:.*]] = stablehlo.constant dense<[1.000000e+00, 2.000000e+00]>
// CHECK: %[[E:.*]] = stablehlo.constant dense<[1.000000e+00, 2.000010e+00]>
// CHECK-NOT: check.eq
// CHECK: return %[[X]], %[[E]], %[[X]] : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
func.func @main() -> (tensor<2xf32>, tensor<i1>) {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = stablehlo.constant dense<[1.0, 2.00001]> : tensor<2xf32>
  %v = stablehlo.custom_call @check.eq(%e, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<i1>
  return %x, %v : tensor<2xf32>, tensor<i1>
}
