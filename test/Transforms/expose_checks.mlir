// RUN: stablehlo-to-tvm %s --stablehlo-expose-checks --split-input-file | FileCheck %s

// @inputs becomes @main's arguments; each check's pair is returned, and the
// custom_call forms are judged with the corpus's fixed tolerances.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
// CHECK-SAME: stablehlo_tvm.checks = [{kind = "expect_close", max_ulp_difference = 3 : i64, min_ulp_difference = 0 : i64}, {kind = "expect_almost_eq", tolerance = 1.000000e-03 : f64}]
// CHECK: %[[E:.*]] = call @expected()
// CHECK: %[[A:.*]] = stablehlo.abs %[[X]]
// CHECK-NOT: custom_call
// CHECK: return %[[A]], %[[E]], %[[A]], %[[E]]
// CHECK: func.func @inputs()
func.func @main() {
  %0 = call @inputs() : () -> tensor<2xf32>
  %1 = call @expected() : () -> tensor<2xf32>
  %2 = stablehlo.abs %0 : tensor<2xf32>
  stablehlo.custom_call @check.expect_close(%2, %1) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  stablehlo.custom_call @check.expect_almost_eq(%2, %1) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  return
}
func.func private @inputs() -> tensor<2xf32> {
  %c = stablehlo.constant dense<[-1.0, 2.0]> : tensor<2xf32>
  return %c : tensor<2xf32>
}
func.func private @expected() -> tensor<2xf32> {
  %c = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %c : tensor<2xf32>
}

// -----

// Without @main, every function that checks is an entry; the check dialect's
// ops carry their own tolerances, and the constant forms materialize theirs.
// CHECK-LABEL: func.func @first() -> (tensor<3xi64>, tensor<3xi64>)
// CHECK-SAME: stablehlo_tvm.checks = [{kind = "expect_eq"}]
// CHECK: %[[C:.*]] = stablehlo.constant dense<[1, 2, 3]>
// CHECK: return %{{.*}}, %[[C]]
// CHECK-LABEL: func.func @second() -> (tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>)
// CHECK-SAME: stablehlo_tvm.checks = [{kind = "expect_almost_eq", tolerance = 1.000000e-01 : f64}, {kind = "expect_close", max_ulp_difference = 7 : i64, min_ulp_difference = 1 : i64}]
// CHECK-LABEL: func.func private @helper
// CHECK-NOT: stablehlo_tvm.checks
func.func @first() {
  %0 = stablehlo.iota dim = 0 : tensor<3xi64>
  %1 = call @helper(%0) : (tensor<3xi64>) -> tensor<3xi64>
  check.expect_eq_const %1, dense<[1, 2, 3]> : tensor<3xi64>
  func.return
}
func.func @second() {
  %0 = stablehlo.constant dense<5.0> : tensor<f64>
  %1 = stablehlo.constant dense<5.01> : tensor<f64>
  check.expect_almost_eq %0, %1, tolerance = 0.1 : tensor<f64>
  check.expect_close %0, %1, min_ulp_difference = 1, max_ulp_difference = 7 : tensor<f64>, tensor<f64>
  func.return
}
func.func private @helper(%x: tensor<3xi64>) -> tensor<3xi64> {
  %c = stablehlo.constant dense<1> : tensor<3xi64>
  %0 = stablehlo.add %x, %c : tensor<3xi64>
  func.return %0 : tensor<3xi64>
}
