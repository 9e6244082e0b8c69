// RUN: stablehlo-to-tvm %s --split-input-file --verify-diagnostics

func.func @mismatched(%a: tensor<2xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{failed to verify that all of {lhs, rhs} have same type}}
  "check.expect_eq"(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> ()
  func.return
}

// -----

func.func @const_type(%a: tensor<2xf32>) {
  // expected-error @+1 {{failed to verify that all of {lhs, value} have same type}}
  "check.expect_eq_const"(%a) <{value = dense<1.0> : tensor<3xf32>}> : (tensor<2xf32>) -> ()
  func.return
}

// -----

func.func @unknown_bound(%a: tensor<2xf32>) {
  // expected-error @+1 {{expected min_ulp_difference or max_ulp_difference, got 'ulps'}}
  check.expect_close %a, %a, ulps = 3 : tensor<2xf32>, tensor<2xf32>
  func.return
}
