// The elementwise family beyond the basics: pretty and generic forms.
// RUN: stablehlo-to-tvm %s | stablehlo-to-tvm | FileCheck %s
// RUN: stablehlo-to-tvm %s --mlir-print-op-generic | stablehlo-to-tvm | FileCheck %s
// RUN: stablehlo-to-tvm %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func @float_unary
func.func @float_unary(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  // CHECK: stablehlo.cbrt %{{.*}} : tensor<4xbf16>
  %0 = stablehlo.cbrt %x : tensor<4xbf16>
  // CHECK: stablehlo.ceil
  %1 = stablehlo.ceil %0 : tensor<4xbf16>
  // CHECK: stablehlo.floor
  %2 = stablehlo.floor %1 : tensor<4xbf16>
  // CHECK: stablehlo.cosine
  %3 = stablehlo.cosine %2 : tensor<4xbf16>
  // CHECK: stablehlo.sine
  %4 = stablehlo.sine %3 : tensor<4xbf16>
  // CHECK: stablehlo.tan
  %5 = stablehlo.tan %4 : tensor<4xbf16>
  // CHECK: stablehlo.exponential_minus_one
  %6 = stablehlo.exponential_minus_one %5 : tensor<4xbf16>
  // CHECK: stablehlo.log_plus_one
  %7 = stablehlo.log_plus_one %6 : tensor<4xbf16>
  // CHECK: stablehlo.round_nearest_afz
  %8 = stablehlo.round_nearest_afz %7 : tensor<4xbf16>
  // CHECK: stablehlo.round_nearest_even
  %9 = stablehlo.round_nearest_even %8 : tensor<4xbf16>
  // CHECK: stablehlo.sign
  %10 = stablehlo.sign %9 : tensor<4xbf16>
  // CHECK: stablehlo.reduce_precision %{{.*}}, format = e5m10 : tensor<4xbf16>
  %11 = stablehlo.reduce_precision %10, format = e5m10 : tensor<4xbf16>
  // CHECK: stablehlo.is_finite %{{.*}} : (tensor<4xbf16>) -> tensor<4xi1>
  %12 = stablehlo.is_finite %11 : (tensor<4xbf16>) -> tensor<4xi1>
  return %11 : tensor<4xbf16>
}
// GENERIC: "stablehlo.reduce_precision"(%{{.*}}) <{exponent_bits = 5 : i32, mantissa_bits = 10 : i32}> : (tensor<4xbf16>) -> tensor<4xbf16>

// CHECK-LABEL: func @integer_ops
func.func @integer_ops(%a: tensor<3xui32>, %b: tensor<3xui32>) -> tensor<3xui32> {
  // CHECK: stablehlo.popcnt %{{.*}} : tensor<3xui32>
  %0 = stablehlo.popcnt %a : tensor<3xui32>
  // CHECK: stablehlo.count_leading_zeros
  %1 = stablehlo.count_leading_zeros %0 : tensor<3xui32>
  // CHECK: stablehlo.shift_left %{{.*}}, %{{.*}} : tensor<3xui32>
  %2 = stablehlo.shift_left %1, %b : tensor<3xui32>
  // CHECK: stablehlo.shift_right_logical
  %3 = stablehlo.shift_right_logical %2, %b : tensor<3xui32>
  // CHECK: stablehlo.shift_right_arithmetic
  %4 = stablehlo.shift_right_arithmetic %3, %b : tensor<3xui32>
  // CHECK: stablehlo.remainder
  %5 = stablehlo.remainder %4, %b : tensor<3xui32>
  // CHECK: stablehlo.power
  %6 = stablehlo.power %5, %b : tensor<3xui32>
  // CHECK: stablehlo.bitcast_convert %{{.*}} : (tensor<3xui32>) -> tensor<3xf32>
  %7 = stablehlo.bitcast_convert %6 : (tensor<3xui32>) -> tensor<3xf32>
  // Same types keep the functional form, as jaxlib prints it.
  // CHECK: stablehlo.bitcast_convert %{{.*}} : (tensor<3xui32>) -> tensor<3xui32>
  %8 = stablehlo.bitcast_convert %6 : (tensor<3xui32>) -> tensor<3xui32>
  return %8 : tensor<3xui32>
}

// CHECK-LABEL: func @complex_numbers
func.func @complex_numbers(%re: tensor<2xf64>, %im: tensor<2xf64>) -> tensor<2xf64> {
  // CHECK: %[[C:.*]] = stablehlo.complex %{{.*}}, %{{.*}} : tensor<2xcomplex<f64>>
  %0 = stablehlo.complex %re, %im : tensor<2xcomplex<f64>>
  // CHECK: stablehlo.atan2 %[[C]], %[[C]] : tensor<2xcomplex<f64>>
  %1 = stablehlo.atan2 %0, %0 : tensor<2xcomplex<f64>>
  // CHECK: stablehlo.real %{{.*}} : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  %2 = stablehlo.real %1 : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  // CHECK: stablehlo.imag %{{.*}} : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  %3 = stablehlo.imag %1 : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  return %3 : tensor<2xf64>
}
// GENERIC: "stablehlo.complex"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xcomplex<f64>>

// CHECK-LABEL: func @clamp
func.func @clamp(%lo: tensor<f32>, %x: tensor<4xf32>, %hi: tensor<f32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: stablehlo.clamp %{{.*}}, %{{.*}}, %{{.*}} : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %0 = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: stablehlo.clamp %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xf32>
  %1 = stablehlo.clamp %y, %0, %y : tensor<4xf32>
  return %1 : tensor<4xf32>
}
