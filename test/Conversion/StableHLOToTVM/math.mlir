// Math functions Relax lacks, as formulas over the operators it has.
// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm --split-input-file | FileCheck %s

// expm1 corrects (exp(x) - 1) by x / log(exp(x)); where exp(x) rounds to 1
// the answer is x itself.
// CHECK-LABEL: func @expm1
func.func @expm1(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[U:.*]] = tvm.exp %arg0
  // CHECK: %[[UM1:.*]] = tvm.subtract %[[U]]
  // CHECK: %[[NUM:.*]] = tvm.multiply %[[UM1]], %arg0
  // CHECK: %[[LOG:.*]] = tvm.log %[[U]]
  // CHECK: tvm.divide %[[NUM]], %[[LOG]]
  // CHECK: %[[IS1:.*]] = tvm.equal %[[U]]
  // CHECK: tvm.where %[[IS1]], %arg0
  %0 = stablehlo.exponential_minus_one %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @log1p_half
func.func @log1p_half(%x: tensor<4xf16>) -> tensor<4xf16> {
  // CHECK: %[[W:.*]] = tvm.astype %arg0 {dtype = f32}
  // CHECK: %[[U:.*]] = tvm.add %{{.*}}, %[[W]]
  // CHECK: tvm.log %[[U]]
  // CHECK: tvm.astype %{{.*}} {dtype = f16} : (tensor<4xf32>) -> tensor<4xf16>
  %0 = stablehlo.log_plus_one %x : tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// Ties round away from zero: trunc(x) + sign(x) where |x - trunc(x)| = 0.5.
// CHECK-LABEL: func @round_afz
func.func @round_afz(%x: tensor<4xf64>) -> tensor<4xf64> {
  // CHECK: %[[T:.*]] = tvm.trunc %arg0
  // CHECK: %[[D:.*]] = tvm.subtract %arg0, %[[T]]
  // CHECK: %[[F:.*]] = tvm.abs %[[D]]
  // CHECK: %[[TIE:.*]] = tvm.equal %[[F]]
  // CHECK: %[[AWAY:.*]] = tvm.add %[[T]]
  // CHECK: %[[R:.*]] = tvm.round %arg0
  // CHECK: tvm.where %[[TIE]], %[[AWAY]], %[[R]]
  %0 = stablehlo.round_nearest_afz %x : tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// sign returns zeros and NaN as they are.
// CHECK-LABEL: func @sign
func.func @sign(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  // CHECK: %[[NEG:.*]] = tvm.less %arg0
  // CHECK: %[[A:.*]] = tvm.where %[[NEG]], %{{.*}}, %arg0
  // CHECK: %[[POS:.*]] = tvm.greater %arg0
  // CHECK: tvm.where %[[POS]], %{{.*}}, %[[A]]
  %0 = stablehlo.sign %x : tensor<4xf32>
  // CHECK: tvm.less %arg1
  %1 = stablehlo.sign %i : tensor<4xi32>
  return %0, %1 : tensor<4xf32>, tensor<4xi32>
}

// -----

// CHECK-LABEL: func @is_inf
func.func @is_inf(%x: tensor<4xbf16>) -> (tensor<4xi1>, tensor<4xi1>) {
  // CHECK: %[[A:.*]] = tvm.abs %arg0
  // CHECK: %[[INF:.*]] = tvm.constant dense<0x7F80> : tensor<bf16>
  // CHECK: tvm.equal %[[A]]
  %0 = chlo.is_inf %x : tensor<4xbf16> -> tensor<4xi1>
  // CHECK: tvm.constant dense<0xFF80> : tensor<bf16>
  %1 = chlo.is_neg_inf %x : tensor<4xbf16> -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// -----

// popcnt sums bits in ever wider fields; count_leading_zeros smears the top
// bit down and counts what is left. Signed values count their unsigned bits.
// CHECK-LABEL: func @bit_counts
func.func @bit_counts(%x: tensor<4xi8>) -> (tensor<4xi8>, tensor<4xi8>) {
  // CHECK: %[[U:.*]] = tvm.astype %arg0 {dtype = ui8}
  // CHECK: tvm.constant dense<85> : tensor<ui8>
  // CHECK: tvm.bitwise_and %[[U]]
  // CHECK: tvm.right_shift %[[U]]
  // CHECK: tvm.constant dense<51> : tensor<ui8>
  // CHECK: tvm.constant dense<15> : tensor<ui8>
  // CHECK: tvm.astype %{{.*}} {dtype = i8} : (tensor<4xui8>) -> tensor<4xi8>
  %0 = stablehlo.popcnt %x : tensor<4xi8>
  // CHECK: tvm.bitwise_or
  // CHECK: tvm.subtract
  %1 = stablehlo.count_leading_zeros %x : tensor<4xi8>
  return %0, %1 : tensor<4xi8>, tensor<4xi8>
}

// -----

// f32 tanh stays tvm.tanh (the CPU build lowers it within 1 ULP); f64 tanh
// and atanh are formulas over expm1/log1p (TVM's own are fast
// approximations), atanh in f64 for f32 operands.
// CHECK-LABEL: func @tanh_atanh
// CHECK: %[[T:.*]] = tvm.tanh %arg0 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: tvm.astype %arg0 {dtype = f64}
// CHECK-NOT: tvm.atanh
// CHECK: tvm.abs %arg1 : (tensor<4xf64>) -> tensor<4xf64>
// CHECK: tvm.exp
// CHECK: tvm.divide
// CHECK-NOT: tvm.tanh
// CHECK: return %[[T]]
func.func @tanh_atanh(%x: tensor<4xf32>, %y: tensor<4xf64>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf64>) {
  %0 = stablehlo.tanh %x : tensor<4xf32>
  %1 = chlo.atanh %x : tensor<4xf32> -> tensor<4xf32>
  %2 = stablehlo.tanh %y : tensor<4xf64>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf64>
}

// -----

// CHLO special functions are formulas in f64 (Lanczos, asymptotic series),
// rounded back to the operand type; erf_inv below f64 is a polynomial in f32.
// CHECK-LABEL: func @special
// CHECK-COUNT-2: tvm.astype %arg0 {dtype = f64} : (tensor<4xf16>) -> tensor<4xf64>
// CHECK: tvm.astype %arg0 {dtype = f32} : (tensor<4xf16>) -> tensor<4xf32>
// CHECK: tvm.astype %arg0 {dtype = f64} : (tensor<4xf16>) -> tensor<4xf64>
// CHECK-NOT: chlo.
// CHECK: return
func.func @special(%x: tensor<4xf16>) -> (tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>) {
  %1 = chlo.lgamma %x : tensor<4xf16> -> tensor<4xf16>
  %2 = chlo.digamma %x : tensor<4xf16> -> tensor<4xf16>
  %3 = chlo.erf_inv %x : tensor<4xf16> -> tensor<4xf16>
  %4 = chlo.bessel_i1e %x : tensor<4xf16> -> tensor<4xf16>
  return %1, %2, %3, %4 : tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>
}

// -----

// Hurwitz zeta: ten terms of the sum and an Euler-Maclaurin tail, in f64;
// polygamma is a signed factorial times zeta(n + 1, x), digamma at n = 0.
// CHECK-LABEL: func @zeta_polygamma
// CHECK-COUNT-2: tvm.astype %arg0 {dtype = f64} : (tensor<4xf32>) -> tensor<4xf64>
// CHECK-NOT: chlo.
// CHECK: tvm.power
// CHECK: return
func.func @zeta_polygamma(%x: tensor<4xf32>, %q: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = chlo.zeta %x, %q : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = chlo.polygamma %x, %q : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// erfc: f32 (and f16, widened to it) is exp(-yh^2) in f32 times exp(-d) and
// erfcx(y) in f64, no erf; f64 keeps the continued fraction, 1 - erf near 0.
// CHECK-LABEL: func @erfc
// CHECK: %[[WIDE:.*]] = tvm.astype %arg0 {dtype = f32} : (tensor<4xf16>) -> tensor<4xf32>
// CHECK: %[[Y:.*]] = tvm.abs %[[WIDE]]
// CHECK-NOT: tvm.erf
// CHECK: tvm.floor
// CHECK: tvm.exp {{.*}} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: tvm.divide {{.*}} : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
// CHECK: tvm.isnan %[[WIDE]]
// CHECK: tvm.astype {{.*}} {dtype = f16} : (tensor<4xf32>) -> tensor<4xf16>
// CHECK: tvm.erf {{.*}} : (tensor<4xf64>) -> tensor<4xf64>
// CHECK-NOT: chlo.
// CHECK: return
func.func @erfc(%x: tensor<4xf16>, %y: tensor<4xf64>) -> (tensor<4xf16>, tensor<4xf64>) {
  %0 = chlo.erfc %x : tensor<4xf16> -> tensor<4xf16>
  %1 = chlo.erfc %y : tensor<4xf64> -> tensor<4xf64>
  return %0, %1 : tensor<4xf16>, tensor<4xf64>
}

// -----

// sinh and cosh of f32 compute in f64, sinh from expm1 (no cancellation
// near 0), not with Relax's sinh/cosh; cbrt refines pow(|x|, 1/3).
// CHECK-LABEL: func @hyperbolic
// CHECK: %[[W:.*]] = tvm.astype %arg0 {dtype = f64}
// CHECK: tvm.pow
// CHECK: tvm.astype %{{.*}} {dtype = f32}
// CHECK: tvm.exp
// CHECK-NOT: tvm.sinh
// CHECK-NOT: tvm.cosh
func.func @hyperbolic(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.cbrt %x : tensor<4xf32>
  %1 = chlo.sinh %x : tensor<4xf32> -> tensor<4xf32>
  %2 = chlo.cosh %x : tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
