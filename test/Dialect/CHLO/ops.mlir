// The chlo ops JAX emits, pretty and generic.
// RUN: stablehlo-to-tvm %s | stablehlo-to-tvm | FileCheck %s
// RUN: stablehlo-to-tvm %s --mlir-print-op-generic | stablehlo-to-tvm | FileCheck %s
// RUN: stablehlo-to-tvm %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func @unary
func.func @unary(%x: tensor<3xf32>, %c: tensor<2xcomplex<f64>>) -> tensor<3xf32> {
  // CHECK: chlo.erf %{{.*}} : tensor<3xf32> -> tensor<3xf32>
  %0 = chlo.erf %x : tensor<3xf32> -> tensor<3xf32>
  // CHECK: chlo.erfc
  %1 = chlo.erfc %0 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: chlo.erf_inv
  %2 = chlo.erf_inv %1 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: chlo.lgamma
  %3 = chlo.lgamma %2 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: chlo.digamma
  %4 = chlo.digamma %3 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: chlo.bessel_i1e
  %5 = chlo.bessel_i1e %4 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: chlo.acos
  %6 = chlo.acos %5 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: chlo.acosh
  %7 = chlo.acosh %6 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: chlo.asin
  %8 = chlo.asin %7 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: chlo.asinh
  %9 = chlo.asinh %8 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: chlo.atan
  %10 = chlo.atan %9 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: chlo.atanh
  %11 = chlo.atanh %10 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: chlo.cosh
  %12 = chlo.cosh %11 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: chlo.sinh
  %13 = chlo.sinh %12 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: chlo.tan %{{.*}} : tensor<2xcomplex<f64>> -> tensor<2xcomplex<f64>>
  %14 = chlo.tan %c : tensor<2xcomplex<f64>> -> tensor<2xcomplex<f64>>
  // CHECK: chlo.conj
  %15 = chlo.conj %14 : tensor<2xcomplex<f64>> -> tensor<2xcomplex<f64>>
  // CHECK: chlo.is_inf %{{.*}} : tensor<3xf32> -> tensor<3xi1>
  %16 = chlo.is_inf %13 : tensor<3xf32> -> tensor<3xi1>
  return %13 : tensor<3xf32>
}
// GENERIC: "chlo.erf"(%{{.*}}) : (tensor<3xf32>) -> tensor<3xf32>

// CHECK-LABEL: func @binary_and_top_k
func.func @binary_and_top_k(%x: tensor<6xf16>, %y: tensor<6xf16>) -> (tensor<2xf16>, tensor<2xi32>) {
  // CHECK: chlo.next_after %{{.*}}, %{{.*}} : tensor<6xf16>, tensor<6xf16> -> tensor<6xf16>
  %0 = chlo.next_after %x, %y : tensor<6xf16>, tensor<6xf16> -> tensor<6xf16>
  // CHECK: chlo.polygamma
  %1 = chlo.polygamma %0, %y : tensor<6xf16>, tensor<6xf16> -> tensor<6xf16>
  // CHECK: chlo.zeta
  %2 = chlo.zeta %1, %y : tensor<6xf16>, tensor<6xf16> -> tensor<6xf16>
  // CHECK: %{{.*}}, %{{.*}} = chlo.top_k(%{{.*}}, k = 2) : tensor<6xf16> -> (tensor<2xf16>, tensor<2xi32>)
  %values, %indices = chlo.top_k(%2, k = 2) : tensor<6xf16> -> (tensor<2xf16>, tensor<2xi32>)
  return %values, %indices : tensor<2xf16>, tensor<2xi32>
}
// GENERIC: "chlo.top_k"(%{{.*}}) <{k = 2 : i64}> : (tensor<6xf16>) -> (tensor<2xf16>, tensor<2xi32>)
