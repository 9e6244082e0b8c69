// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm --split-input-file | FileCheck %s

// CHECK-LABEL: func @unary
func.func @unary(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[A:.*]] = tvm.abs %arg0
  // CHECK: %[[B:.*]] = tvm.negative %[[A]]
  // CHECK: %[[C:.*]] = tvm.exp %[[B]]
  // CHECK: %[[D:.*]] = tvm.log %[[C]]
  // CHECK: %[[E:.*]] = tvm.tanh %[[D]]
  // CHECK: %[[F:.*]] = tvm.sqrt %[[E]]
  // CHECK: %[[G:.*]] = tvm.rsqrt %[[F]]
  // CHECK: %[[H:.*]] = tvm.sigmoid %[[G]] : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: return %[[H]]
  %0 = stablehlo.abs %x : tensor<4xf32>
  %1 = stablehlo.negate %0 : tensor<4xf32>
  %2 = stablehlo.exponential %1 : tensor<4xf32>
  %3 = stablehlo.log %2 : tensor<4xf32>
  %4 = stablehlo.tanh %3 : tensor<4xf32>
  %5 = stablehlo.sqrt %4 : tensor<4xf32>
  %6 = stablehlo.rsqrt %5 : tensor<4xf32>
  %7 = stablehlo.logistic %6 : tensor<4xf32>
  return %7 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @binary
func.func @binary(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[A:.*]] = tvm.add %arg0, %arg1
  // CHECK: %[[B:.*]] = tvm.subtract %[[A]], %arg1
  // CHECK: %[[C:.*]] = tvm.multiply %[[B]], %arg1
  // CHECK: %[[D:.*]] = tvm.divide %[[C]], %arg1
  // Float maximum/minimum propagate NaN, which Relax's do not.
  // CHECK: %[[MAX:.*]] = tvm.maximum %[[D]], %arg1
  // CHECK: %[[NX:.*]] = tvm.isnan %[[D]] : (tensor<4xf32>) -> tensor<4xi1>
  // CHECK: %[[NY:.*]] = tvm.isnan %arg1
  // CHECK: %[[ANY:.*]] = tvm.logical_or %[[NX]], %[[NY]]
  // CHECK: %[[NAN:.*]] = tvm.add %[[D]], %arg1
  // CHECK: %[[PICK:.*]] = tvm.where %[[ANY]], %[[NAN]], %[[MAX]]
  // Both zeros: -0 below +0, the sign from x + y (maximum) or
  // (x + y) * (x * y) (minimum).
  // CHECK: %[[ZERO:.*]] = tvm.constant dense<0.000000e+00> : tensor<f32>
  // CHECK: %[[Z:.*]] = tvm.broadcast_to %[[ZERO]]
  // CHECK: %[[ZX:.*]] = tvm.equal %[[D]], %[[Z]]
  // CHECK: %[[ZY:.*]] = tvm.equal %arg1, %[[Z]]
  // CHECK: %[[BOTH:.*]] = tvm.logical_and %[[ZX]], %[[ZY]]
  // CHECK: %[[SUM:.*]] = tvm.add %[[D]], %arg1
  // CHECK: %[[E:.*]] = tvm.where %[[BOTH]], %[[SUM]], %[[PICK]]
  // CHECK: %[[MIN:.*]] = tvm.minimum %[[E]], %arg1
  // CHECK: %[[MINPICK:.*]] = tvm.where %{{.*}}, %{{.*}}, %[[MIN]]
  // CHECK: %[[MSUM:.*]] = tvm.add %[[E]], %arg1
  // CHECK: %[[MPROD:.*]] = tvm.multiply %[[E]], %arg1
  // CHECK: %[[SIGNED:.*]] = tvm.multiply %[[MSUM]], %[[MPROD]]
  // CHECK: %[[F:.*]] = tvm.where %{{.*}}, %[[SIGNED]], %[[MINPICK]]
  // CHECK: return %[[F]]
  %0 = stablehlo.add %x, %y : tensor<4xf32>
  %1 = stablehlo.subtract %0, %y : tensor<4xf32>
  %2 = stablehlo.multiply %1, %y : tensor<4xf32>
  %3 = stablehlo.divide %2, %y : tensor<4xf32>
  %4 = stablehlo.maximum %3, %y : tensor<4xf32>
  %5 = stablehlo.minimum %4, %y : tensor<4xf32>
  return %5 : tensor<4xf32>
}

// -----

// On i1, StableHLO's arithmetic is logic; on integers, and/or/xor/not are bitwise.
// CHECK-LABEL: func @booleans_and_bits
func.func @booleans_and_bits(%p: tensor<4xi1>, %q: tensor<4xi1>, %i: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi32>) {
  // CHECK: tvm.logical_or %arg0, %arg1
  // CHECK: tvm.logical_and
  // CHECK: tvm.logical_or
  // CHECK: tvm.logical_and
  // CHECK: tvm.logical_xor
  // CHECK: tvm.logical_not
  // CHECK: tvm.bitwise_and %arg2, %arg2
  // CHECK: tvm.bitwise_or
  // CHECK: tvm.bitwise_xor
  // CHECK: tvm.bitwise_not
  %0 = stablehlo.add %p, %q : tensor<4xi1>
  %1 = stablehlo.multiply %0, %q : tensor<4xi1>
  %2 = stablehlo.maximum %1, %q : tensor<4xi1>
  %3 = stablehlo.minimum %2, %q : tensor<4xi1>
  %4 = stablehlo.xor %3, %q : tensor<4xi1>
  %5 = stablehlo.not %4 : tensor<4xi1>
  %6 = stablehlo.and %i, %i : tensor<4xi32>
  %7 = stablehlo.or %6, %i : tensor<4xi32>
  %8 = stablehlo.xor %7, %i : tensor<4xi32>
  %9 = stablehlo.not %8 : tensor<4xi32>
  return %5, %9 : tensor<4xi1>, tensor<4xi32>
}

// -----

// CHECK-LABEL: func @compare
func.func @compare(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi1> {
  // CHECK: tvm.equal %arg0, %arg1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // NE on floats is unordered (true for NaN): Relax's ordered not_equal or
  // either is NaN (not the negation of EQ, which TVM simplifies back).
  // CHECK: %[[NE:.*]] = tvm.not_equal %arg0, %arg1
  // CHECK: %[[NX:.*]] = tvm.isnan %arg0
  // CHECK: %[[NY:.*]] = tvm.isnan %arg1
  // CHECK: %[[EITHER:.*]] = tvm.logical_or %[[NX]], %[[NY]]
  // CHECK: tvm.logical_or %[[NE]], %[[EITHER]]
  // CHECK: tvm.less
  // CHECK: tvm.less_equal
  // CHECK: tvm.greater
  // CHECK: tvm.greater_equal
  %0 = stablehlo.compare EQ, %x, %y, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = stablehlo.compare NE, %x, %y, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %2 = stablehlo.compare LT, %x, %y, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %3 = stablehlo.compare LE, %x, %y, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %4 = stablehlo.compare GT, %x, %y, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %5 = stablehlo.compare GE, %x, %y, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %6 = stablehlo.and %0, %1 : tensor<4xi1>
  return %6 : tensor<4xi1>
}

// -----

// CHECK-LABEL: func @compare_integers
func.func @compare_integers(%x: tensor<4xui32>, %y: tensor<4xui32>) -> tensor<4xi1> {
  // CHECK: tvm.not_equal %arg0, %arg1 : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  %0 = stablehlo.compare NE, %x, %y, UNSIGNED : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----


// CHECK-LABEL: func @select
func.func @select(%p: tensor<i1>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: tvm.where %arg0, %arg1, %arg2 : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %0 = stablehlo.select %p, %x, %y : tensor<i1>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @convert
func.func @convert(%x: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xi1>, tensor<4xf32>) {
  // Floats to integers saturate, NaN to 0 (as XLA converts): the cast sees
  // only values in range, and values from 2^31 up are the maximum.
  // CHECK: %[[NAN:.*]] = tvm.isnan %arg0
  // CHECK: %[[SAFE:.*]] = tvm.where %[[NAN]], %{{.*}}, %arg0
  // CHECK: tvm.constant dense<2.14748352E+9> : tensor<f32>
  // CHECK: tvm.constant dense<-2.14748365E+9> : tensor<f32>
  // CHECK: %[[LO:.*]] = tvm.maximum %[[SAFE]]
  // CHECK: %[[HI:.*]] = tvm.minimum %[[LO]]
  // CHECK: %[[CAST:.*]] = tvm.astype %[[HI]] {dtype = i32} : (tensor<4xf32>) -> tensor<4xi32>
  // CHECK: tvm.constant dense<2.14748365E+9> : tensor<f32>
  // CHECK: %[[OVER:.*]] = tvm.greater_equal %[[SAFE]]
  // CHECK: tvm.constant dense<2147483647> : tensor<i32>
  // CHECK: %[[I:.*]] = tvm.where %[[OVER]], %{{.*}}, %[[CAST]]
  %0 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xi32>
  // Conversion to i1 is `x != 0` (unordered: NaN converts to true).
  // CHECK: %[[Z:.*]] = tvm.constant dense<0.000000e+00> : tensor<f32>
  // CHECK: %[[ZS:.*]] = tvm.broadcast_to %[[Z]] {shape = array<i64: 4>} : (tensor<f32>) -> tensor<4xf32>
  // CHECK: %[[NE:.*]] = tvm.not_equal %arg0, %[[ZS]]
  // CHECK: tvm.isnan %arg0
  // CHECK: %[[B:.*]] = tvm.logical_or %[[NE]], %{{.*}}
  %1 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xi1>
  // A conversion to the same type is no op at all.
  %2 = stablehlo.convert %x : tensor<4xf32>
  // CHECK: return %[[I]], %[[B]], %arg0
  return %0, %1, %2 : tensor<4xi32>, tensor<4xi1>, tensor<4xf32>
}

// -----

// Complex numbers have no TVM dtype; they stay for the legality check,
// which reports the reason the pattern gave.
// CHECK-LABEL: func @complex
func.func @complex(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // CHECK: stablehlo.add %arg0, %arg0 {tvm.unsupported_reason = "an element type TVM has no dtype for"} : tensor<4xcomplex<f32>>
  %0 = stablehlo.add %x, %x : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

// Integer division never divides by 0 or INT_MIN by -1: x / 0 = -1 and
// INT_MIN / -1 = INT_MIN, as XLA computes them. The divisor is nudged by
// y == 0, not selected (TVM would fold a selected one under the select's
// condition); signed operands divide as unsigned magnitudes (a guard on
// x == INT_MIN does not survive LLVM's no-wrap reasoning).
// CHECK-LABEL: func @divide_signed
func.func @divide_signed(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: %[[ISZERO:.*]] = tvm.equal %arg1, %{{.*}}
  // CHECK: %[[XNEG:.*]] = tvm.less %arg0
  // CHECK: %[[YNEG:.*]] = tvm.less %arg1
  // CHECK: %[[XBITS:.*]] = tvm.astype %arg0 {dtype = ui32}
  // CHECK: %[[XMAG:.*]] = tvm.where %[[XNEG]], %{{.*}}, %[[XBITS]]
  // CHECK: %[[YBITS:.*]] = tvm.astype %arg1 {dtype = ui32}
  // CHECK: %[[YMAG:.*]] = tvm.where %[[YNEG]], %{{.*}}, %[[YBITS]]
  // CHECK: %[[SAFE:.*]] = tvm.add %[[YMAG]], %{{.*}} : (tensor<4xui32>
  // CHECK: %[[Q:.*]] = tvm.divide %[[XMAG]], %[[SAFE]] : (tensor<4xui32>
  // CHECK: %[[NEG:.*]] = tvm.logical_xor %[[XNEG]], %[[YNEG]]
  // CHECK: %[[SIGNED:.*]] = tvm.where %[[NEG]], %{{.*}}, %[[Q]]
  // CHECK: %[[BACK:.*]] = tvm.astype %[[SIGNED]] {dtype = i32}
  // CHECK: %[[ONES:.*]] = tvm.constant dense<-1> : tensor<i32>
  // CHECK: %[[R:.*]] = tvm.where %[[ISZERO]], %{{.*}}, %[[BACK]]
  // CHECK: return %[[R]]
  %0 = stablehlo.divide %x, %y : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func @divide_unsigned
func.func @divide_unsigned(%x: tensor<4xui8>, %y: tensor<4xui8>) -> tensor<4xui8> {
  // CHECK-NOT: tvm.logical_and
  // CHECK: %[[ISZERO:.*]] = tvm.equal %arg1
  // CHECK: %[[Z:.*]] = tvm.astype %{{.*}} {dtype = ui8}
  // CHECK: %[[SAFE:.*]] = tvm.add %arg1, %[[Z]]
  // CHECK: %[[Q:.*]] = tvm.divide %arg0, %[[SAFE]]
  // CHECK: tvm.constant dense<255> : tensor<ui8>
  // CHECK: tvm.where %[[ISZERO]], %{{.*}}, %[[Q]]
  %0 = stablehlo.divide %x, %y : tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// Transcendental functions of half-precision floats compute in f32.
// CHECK-LABEL: func @half_precision_math
func.func @half_precision_math(%x: tensor<4xf16>, %y: tensor<4xbf16>) -> (tensor<4xf16>, tensor<4xi1>) {
  // CHECK: %[[W:.*]] = tvm.astype %arg0 {dtype = f32} : (tensor<4xf16>) -> tensor<4xf32>
  // CHECK: %[[C:.*]] = tvm.tan %[[W]] : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: tvm.astype %[[C]] {dtype = f16} : (tensor<4xf32>) -> tensor<4xf16>
  %0 = chlo.tan %x : tensor<4xf16> -> tensor<4xf16>
  // A boolean result needs no narrowing.
  // CHECK: %[[V:.*]] = tvm.astype %arg1 {dtype = f32}
  // CHECK: tvm.isfinite %[[V]] : (tensor<4xf32>) -> tensor<4xi1>
  // CHECK-NOT: tvm.astype
  %1 = stablehlo.is_finite %y : (tensor<4xbf16>) -> tensor<4xi1>
  return %0, %1 : tensor<4xf16>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func @trigonometry
func.func @trigonometry(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: tvm.cos
  // CHECK: tvm.sin
  // CHECK: tvm.tan
  // CHECK: tvm.floor
  // CHECK: tvm.ceil
  // CHECK: tvm.round
  // CHECK: tvm.atan2
  %0 = stablehlo.cosine %x : tensor<4xf32>
  %1 = stablehlo.sine %0 : tensor<4xf32>
  %2 = stablehlo.tan %1 : tensor<4xf32>
  %3 = stablehlo.floor %2 : tensor<4xf32>
  %4 = stablehlo.ceil %3 : tensor<4xf32>
  %5 = stablehlo.round_nearest_even %4 : tensor<4xf32>
  %6 = stablehlo.atan2 %5, %x : tensor<4xf32>
  return %6 : tensor<4xf32>
}

// -----

// Shifts by amounts outside [0, width) give 0, or the sign fill for the
// arithmetic right shift; logical right shifts of signed values shift the
// unsigned bits.
// CHECK-LABEL: func @shifts
func.func @shifts(%x: tensor<4xi32>, %s: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  // CHECK: %[[US:.*]] = tvm.astype %arg1 {dtype = ui32}
  // CHECK: %[[OOR:.*]] = tvm.greater_equal %[[US]], %{{.*}} : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  // CHECK: %[[SAFE:.*]] = tvm.where %[[OOR]], %{{.*}}, %arg1
  // CHECK: %[[L:.*]] = tvm.left_shift %arg0, %[[SAFE]]
  // CHECK: tvm.where %[[OOR]], %{{.*}}, %[[L]]
  %0 = stablehlo.shift_left %x, %s : tensor<4xi32>
  // CHECK: %[[UX:.*]] = tvm.astype %arg0 {dtype = ui32}
  // CHECK: %[[R:.*]] = tvm.right_shift %[[UX]], %{{.*}} : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  // CHECK: tvm.astype %[[R]] {dtype = i32}
  %1 = stablehlo.shift_right_logical %x, %s : tensor<4xi32>
  // CHECK: %[[C31:.*]] = tvm.constant dense<31> : tensor<i32>
  // CHECK: %[[FILL:.*]] = tvm.broadcast_to %[[C31]] {shape = array<i64: 4>}
  // CHECK: %[[ASAFE:.*]] = tvm.where %{{.*}}, %[[FILL]], %arg1
  // CHECK: tvm.right_shift %arg0, %[[ASAFE]] : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %2 = stablehlo.shift_right_arithmetic %x, %s : tensor<4xi32>
  return %0, %1, %2 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// -----

// Amounts that are constants within [0, width), broadcast or not, shift as
// the hardware does, with no test; a constant amount out of range keeps it.
// CHECK-LABEL: func @constant_shifts
func.func @constant_shifts(%x: tensor<4xui32>, %y: tensor<4xi32>) -> (tensor<4xui32>, tensor<4xi32>, tensor<4xi32>, tensor<4xui32>) {
  // CHECK-NOT: tvm.greater_equal
  // CHECK: tvm.left_shift %arg0, %{{.*}} : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  %c13 = stablehlo.constant dense<13> : tensor<ui32>
  %b13 = stablehlo.broadcast_in_dim %c13, dims = [] : (tensor<ui32>) -> tensor<4xui32>
  %0 = stablehlo.shift_left %x, %b13 : tensor<4xui32>
  // CHECK-NOT: tvm.greater_equal
  // CHECK: %[[UY:.*]] = tvm.astype %arg1 {dtype = ui32}
  // CHECK-NOT: tvm.greater_equal
  // CHECK: %[[R:.*]] = tvm.right_shift %[[UY]], %{{.*}} : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  // CHECK: tvm.astype %[[R]] {dtype = i32}
  %v = stablehlo.constant dense<[0, 1, 30, 31]> : tensor<4xi32>
  %1 = stablehlo.shift_right_logical %y, %v : tensor<4xi32>
  // CHECK-NOT: tvm.greater_equal
  // CHECK: tvm.right_shift %arg1, %{{.*}} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %2 = stablehlo.shift_right_arithmetic %y, %v : tensor<4xi32>
  // CHECK-NOT: tvm.left_shift
  // CHECK: tvm.greater_equal
  // CHECK: tvm.left_shift
  // CHECK: tvm.where
  %c32 = stablehlo.constant dense<32> : tensor<4xui32>
  %3 = stablehlo.shift_left %x, %c32 : tensor<4xui32>
  return %0, %1, %2, %3 : tensor<4xui32>, tensor<4xi32>, tensor<4xi32>, tensor<4xui32>
}

// -----

// CHECK-LABEL: func @square
// CHECK: tvm.multiply %arg0, %arg0 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
func.func @square(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = chlo.square %x : tensor<3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// TOTALORDER on floats compares the values' order keys as integers, in a
// kernel (-NaN < -inf < -0 < +0 < +inf < +NaN).
// CHECK-LABEL: func @total_order
// CHECK: tvm.kernel "compare_total_order"
// CHECK: arith.bitcast
// CHECK: arith.cmpi slt
func.func @total_order(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi1> {
  %0 = stablehlo.compare LT, %x, %y, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// A float compared with itself: TVM would fold x == x to true; NaN is not
// equal to itself. EQ, LE and GE are "not NaN"; equal constants count as one.
// CHECK-LABEL: func @self_comparison
// CHECK: %[[N:.*]] = tvm.isnan %arg0
// CHECK: tvm.logical_not %[[N]]
// CHECK: %[[C:.*]] = tvm.constant
// CHECK: %[[CN:.*]] = tvm.isnan %[[C]]
// CHECK: tvm.logical_not %[[CN]]
func.func @self_comparison(%x: tensor<3xf32>) -> (tensor<3xi1>, tensor<i1>) {
  %0 = stablehlo.compare EQ, %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %a = stablehlo.constant dense<0xFFF0000000000001> : tensor<f64>
  %b = stablehlo.constant dense<0xFFF0000000000001> : tensor<f64>
  %1 = stablehlo.compare GE, %a, %b : (tensor<f64>, tensor<f64>) -> tensor<i1>
  return %0, %1 : tensor<3xi1>, tensor<i1>
}

// -----

// A constant operand without NaN (a ReLU's 0) is not tested for NaN; a
// constant NaN is.
// CHECK-LABEL: func @maximum_with_constant
func.func @maximum_with_constant(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK: %[[MAX:.*]] = tvm.maximum %arg0, %[[ZERO:.*]] :
  // CHECK-NEXT: %[[NX:.*]] = tvm.isnan %arg0
  // CHECK-NEXT: %[[R:.*]] = tvm.where %[[NX]], %arg0, %[[MAX]]
  // CHECK: tvm.isnan %arg0
  // CHECK-NEXT: tvm.isnan
  // CHECK-NEXT: tvm.logical_or
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
  %0 = stablehlo.maximum %x, %zero : tensor<4xf32>
  %nan = stablehlo.constant dense<0x7FC00000> : tensor<4xf32>
  %1 = stablehlo.minimum %x, %nan : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
