// The check dialect's ops print as they parse, defaults left out.
// RUN: stablehlo-to-tvm %s | stablehlo-to-tvm | FileCheck %s
// RUN: stablehlo-to-tvm %s --mlir-print-op-generic | stablehlo-to-tvm | FileCheck %s

// CHECK-LABEL: func.func @checks
func.func @checks(%a: tensor<2xf32>, %b: tensor<2xf32>, %i: tensor<3xi64>) {
  // CHECK: check.expect_eq %{{.*}}, %{{.*}} : tensor<3xi64>
  check.expect_eq %i, %i : tensor<3xi64>
  // CHECK: check.expect_eq_const %{{.*}}, dense<[-2, 0, 2]> : tensor<3xi64>
  check.expect_eq_const %i, dense<[-2, 0, 2]> : tensor<3xi64>
  // CHECK: check.expect_almost_eq %{{.*}}, %{{.*}} : tensor<2xf32>
  check.expect_almost_eq %a, %b : tensor<2xf32>
  // CHECK: check.expect_almost_eq %{{.*}}, %{{.*}}, tolerance = 1.000000e-01 : tensor<2xf32>
  check.expect_almost_eq %a, %b, tolerance = 0.1 : tensor<2xf32>
  // CHECK: check.expect_almost_eq_const %{{.*}}, dense<5.000000e-01> : tensor<2xf32> {tolerance = 1.000000e-01 : f64}
  check.expect_almost_eq_const %a, dense<0.5> : tensor<2xf32> {tolerance = 0.1 : f64}
  // CHECK: check.expect_close %{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xf32>
  check.expect_close %a, %b : tensor<2xf32>, tensor<2xf32>
  // CHECK: check.expect_close %{{.*}}, %{{.*}}, max_ulp_difference = 5 : tensor<2xf32>, tensor<2xf32>
  check.expect_close %a, %b, max_ulp_difference = 5 : tensor<2xf32>, tensor<2xf32>
  // CHECK: check.expect_close %{{.*}}, %{{.*}}, min_ulp_difference = 1, max_ulp_difference = 5 : tensor<2xf32>, tensor<2xf32>
  check.expect_close %a, %b, min_ulp_difference = 1, max_ulp_difference = 5 : tensor<2xf32>, tensor<2xf32>
  // CHECK: check.expect_serialized_eq %{{.*}}, probe_id = "p", iter = 2 : tensor<3xi64>
  check.expect_serialized_eq %i, probe_id = "p", iter = 2 : tensor<3xi64>
  func.return
}
