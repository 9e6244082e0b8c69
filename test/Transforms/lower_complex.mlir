// Complex tensors become (real, imag) pairs of real tensors.
// RUN: stablehlo-to-tvm %s --stablehlo-lower-complex --split-input-file | FileCheck %s

// Signatures split in place, real part first; the attributes say where.
// CHECK-LABEL: func @multiply
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>, %[[C:.*]]: tensor<4xf32>, %[[D:.*]]: tensor<4xf32>, %[[S:.*]]: tensor<4xf32>)
// CHECK-SAME: -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-SAME: tvm.complex_arguments = array<i64: 0, 1>, tvm.complex_results = array<i64: 0>
// CHECK-DAG: %[[AC:.*]] = stablehlo.multiply %[[A]], %[[C]]
// CHECK-DAG: %[[BD:.*]] = stablehlo.multiply %[[B]], %[[D]]
// CHECK-DAG: %[[AD:.*]] = stablehlo.multiply %[[A]], %[[D]]
// CHECK-DAG: %[[BC:.*]] = stablehlo.multiply %[[B]], %[[C]]
// CHECK-DAG: %[[RE:.*]] = stablehlo.subtract %[[AC]], %[[BD]]
// CHECK-DAG: %[[IM:.*]] = stablehlo.add %[[AD]], %[[BC]]
// CHECK: return %[[RE]], %[[IM]], %[[S]]
func.func @multiply(%x: tensor<4xcomplex<f32>>, %y: tensor<4xcomplex<f32>>, %s: tensor<4xf32>) -> (tensor<4xcomplex<f32>>, tensor<4xf32>) {
  %0 = stablehlo.multiply %x, %y : tensor<4xcomplex<f32>>
  return %0, %s : tensor<4xcomplex<f32>>, tensor<4xf32>
}

// -----

// Constants split; data movement and real/imag/complex act on parts.
// CHECK-LABEL: func @parts
// CHECK-DAG: %[[RE:.*]] = stablehlo.constant dense<[1.000000e+00, 3.000000e+00]> : tensor<2xf64>
// CHECK-DAG: %[[IM:.*]] = stablehlo.constant dense<[2.000000e+00, -4.000000e+00]> : tensor<2xf64>
// CHECK-DAG: %[[BR:.*]] = stablehlo.broadcast_in_dim %[[RE]], dims = [1] : (tensor<2xf64>) -> tensor<3x2xf64>
// CHECK-DAG: %[[BI:.*]] = stablehlo.broadcast_in_dim %[[IM]], dims = [1] : (tensor<2xf64>) -> tensor<3x2xf64>
// CHECK: return %[[BI]], %[[BR]]
func.func @parts() -> (tensor<3x2xf64>, tensor<3x2xf64>) {
  %c = stablehlo.constant dense<[(1.0, 2.0), (3.0, -4.0)]> : tensor<2xcomplex<f64>>
  %b = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<2xcomplex<f64>>) -> tensor<3x2xcomplex<f64>>
  %re = stablehlo.real %b : (tensor<3x2xcomplex<f64>>) -> tensor<3x2xf64>
  %im = stablehlo.imag %b : (tensor<3x2xcomplex<f64>>) -> tensor<3x2xf64>
  %z = stablehlo.complex %im, %re : tensor<3x2xcomplex<f64>>
  %zr = stablehlo.real %z : (tensor<3x2xcomplex<f64>>) -> tensor<3x2xf64>
  %zi = stablehlo.imag %z : (tensor<3x2xcomplex<f64>>) -> tensor<3x2xf64>
  return %zr, %zi : tensor<3x2xf64>, tensor<3x2xf64>
}

// -----

// dot_general: four real products with the op's dimension numbers, each
// summed product by product with its products rounded (XLA's complex dot).
// CHECK-LABEL: func @dot
// CHECK-COUNT-4: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0] {tvm.rounded_products} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK: stablehlo.subtract
// CHECK: stablehlo.add
func.func @dot(%x: tensor<2x3xcomplex<f32>>, %y: tensor<3x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>> {
  %0 = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<2x3xcomplex<f32>>, tensor<3x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>>
  return %0 : tensor<2x4xcomplex<f32>>
}

// -----

// A DFT product (stablehlo-decompose-fft) has no program's rounding to keep.
// CHECK-LABEL: func @dft_product
// CHECK-COUNT-4: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0] {tvm.dft_product} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK-NOT: rounded_products
func.func @dft_product(%x: tensor<2x3xcomplex<f32>>, %y: tensor<3x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>> {
  %0 = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] {tvm.dft_product} : (tensor<2x3xcomplex<f32>>, tensor<3x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>>
  return %0 : tensor<2x4xcomplex<f32>>
}

// -----

// compare EQ: both parts equal.
// CHECK-LABEL: func @equal
// CHECK-DAG: %[[R:.*]] = stablehlo.compare EQ, %arg0, %arg2
// CHECK-DAG: %[[I:.*]] = stablehlo.compare EQ, %arg1, %arg3
// CHECK: stablehlo.and %[[R]], %[[I]]
func.func @equal(%x: tensor<4xcomplex<f32>>, %y: tensor<4xcomplex<f32>>) -> tensor<4xi1> {
  %0 = stablehlo.compare EQ, %x, %y : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// Converting a real tensor gives a zero imaginary part.
// CHECK-LABEL: func @from_real
// CHECK: %[[RE:.*]] = stablehlo.convert %arg0 : (tensor<3xi32>) -> tensor<3xf32>
// CHECK: %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK: return %[[RE]], %[[ZERO]]
func.func @from_real(%x: tensor<3xi32>) -> tensor<3xcomplex<f32>> {
  %0 = stablehlo.convert %x : (tensor<3xi32>) -> tensor<3xcomplex<f32>>
  return %0 : tensor<3xcomplex<f32>>
}

// -----

// Functions calling each other with complex values change together.
// CHECK-LABEL: func @caller
// CHECK-SAME: (%[[RE:.*]]: tensor<2xf32>, %[[IM:.*]]: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
// CHECK: %[[R:.*]]:2 = call @callee(%[[RE]], %[[IM]]) : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
// CHECK-LABEL: func @callee
// CHECK-SAME: tvm.complex_arguments = array<i64: 0>, tvm.complex_results = array<i64: 0>
func.func @caller(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = call @callee(%x) : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}
func.func @callee(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = stablehlo.negate %x : tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}

// -----

// An op that cannot be lowered does not keep the calls and functions around
// it complex: they lower, and only it stays (see @blocker below).
// CHECK-LABEL: func @stays
// CHECK-SAME: (%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
// CHECK-LABEL: func @also_stays
// CHECK-SAME: (%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
// CHECK: stablehlo.cbrt %{{.*}} {tvm.unsupported_reason
// CHECK-LABEL: func @lowers
// CHECK-SAME: (%arg0: tensor<0x3xf32>, %arg1: tensor<0x3xf32>)
// CHECK: stablehlo.constant dense<> : tensor<0x3xf32>
func.func @stays(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = call @also_stays(%x) : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}
func.func @also_stays(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = stablehlo.cbrt %x : tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}
func.func @lowers(%x: tensor<0x3xcomplex<f32>>) -> tensor<0x3xcomplex<f32>> {
  %c = stablehlo.constant dense<> : tensor<0x3xcomplex<f32>>
  %0 = stablehlo.add %x, %c : tensor<0x3xcomplex<f32>>
  return %0 : tensor<0x3xcomplex<f32>>
}

// -----

// sort: the comparator takes the parts in sort order and rebuilds each
// complex argument (then lowered like any other complex op).
// CHECK-LABEL: func @sort
// CHECK: %[[S:.*]]:3 = "stablehlo.sort"(%arg0, %arg1, %arg2)
// CHECK: ^bb0(%[[LR:.*]]: tensor<f32>, %[[RR:.*]]: tensor<f32>, %[[LI:.*]]: tensor<f32>, %[[RI:.*]]: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>):
// CHECK: stablehlo.compare LT, %[[LR]], %[[RR]]
// CHECK: return %[[S]]#0, %[[S]]#1, %[[S]]#2
func.func @sort(%x: tensor<4xcomplex<f32>>, %i: tensor<4xi32>) -> (tensor<4xcomplex<f32>>, tensor<4xi32>) {
  %0:2 = "stablehlo.sort"(%x, %i) ({
  ^bb0(%a: tensor<complex<f32>>, %b: tensor<complex<f32>>, %c: tensor<i32>, %d: tensor<i32>):
    %ra = stablehlo.real %a : (tensor<complex<f32>>) -> tensor<f32>
    %rb = stablehlo.real %b : (tensor<complex<f32>>) -> tensor<f32>
    %lt = stablehlo.compare LT, %ra, %rb, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<4xcomplex<f32>>, tensor<4xi32>) -> (tensor<4xcomplex<f32>>, tensor<4xi32>)
  return %0#0, %0#1 : tensor<4xcomplex<f32>>, tensor<4xi32>
}

// -----

// A bitcast to the same complex type keeps the parts.
// CHECK-LABEL: func @bitcast_same
// CHECK-NOT: bitcast_convert
// CHECK: return %arg0, %arg1
func.func @bitcast_same(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = stablehlo.bitcast_convert %x : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}

// -----

// A complex LAPACK call takes and gives parts; the int result stays whole.
// CHECK-LABEL: func.func @lapack
// CHECK: %[[R:.*]]:3 = stablehlo.custom_call @lapack_cpotrf_ffi(%arg0, %arg1) {mhlo.backend_config = {uplo = 76 : ui8}, stablehlo_tvm.complex_parts} : (tensor<3x3xf32>, tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>, tensor<i32>)
// CHECK: return %[[R]]#0, %[[R]]#1, %[[R]]#2
func.func @lapack(%a: tensor<3x3xcomplex<f32>>) -> (tensor<3x3xcomplex<f32>>, tensor<i32>) {
  %0:2 = stablehlo.custom_call @lapack_cpotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}} : (tensor<3x3xcomplex<f32>>) -> (tensor<3x3xcomplex<f32>>, tensor<i32>)
  return %0#0, %0#1 : tensor<3x3xcomplex<f32>>, tensor<i32>
}

// -----

// The runtime's Fourier transform takes and gives parts too; a real operand
// (RFFT) stays one.
// CHECK-LABEL: func.func @library_fft
// CHECK: %[[F:.*]]:2 = stablehlo.custom_call @stablehlo_tvm.fft(%arg0) {mhlo.backend_config = {fft_type = 2 : i64, rank = 1 : i64}, stablehlo_tvm.complex_parts} : (tensor<2x128xf32>) -> (tensor<2x65xf32>, tensor<2x65xf32>)
// CHECK: %[[I:.*]] = stablehlo.custom_call @stablehlo_tvm.fft(%[[F]]#0, %[[F]]#1) {mhlo.backend_config = {fft_type = 3 : i64, rank = 1 : i64}, stablehlo_tvm.complex_parts} : (tensor<2x65xf32>, tensor<2x65xf32>) -> tensor<2x128xf32>
// CHECK: return %[[I]]
func.func @library_fft(%x: tensor<2x128xf32>) -> tensor<2x128xf32> {
  %0 = stablehlo.custom_call @stablehlo_tvm.fft(%x) {mhlo.backend_config = {fft_type = 2 : i64, rank = 1 : i64}} : (tensor<2x128xf32>) -> tensor<2x65xcomplex<f32>>
  %1 = stablehlo.custom_call @stablehlo_tvm.fft(%0) {mhlo.backend_config = {fft_type = 3 : i64, rank = 1 : i64}} : (tensor<2x65xcomplex<f32>>) -> tensor<2x128xf32>
  return %1 : tensor<2x128xf32>
}

// -----

// sign(z) = z / |z|, and 0 where |z| is 0.
// CHECK-LABEL: func.func @sign
// CHECK-DAG: %[[RE:.*]] = stablehlo.divide %arg0, %[[M:.*]] :
// CHECK-DAG: %[[IM:.*]] = stablehlo.divide %arg1, %[[M]]
// CHECK-DAG: %[[ZERO:.*]] = stablehlo.compare EQ, %[[M]], %{{.*}}
// CHECK-DAG: stablehlo.select %[[ZERO]], %{{.*}}, %[[RE]]
// CHECK-DAG: stablehlo.select %[[ZERO]], %{{.*}}, %[[IM]]
func.func @sign(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = stablehlo.sign %x : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

// A scatter over complex values scatters both parts at once; its body takes
// each complex argument as two.
// CHECK-LABEL: func.func @scatter
// CHECK: %[[S:.*]]:2 = "stablehlo.scatter"(%arg0, %arg1, %arg2, %arg3, %arg4)
// CHECK: ^bb0(%{{.*}}: tensor<f64>, %{{.*}}: tensor<f64>, %[[UR:.*]]: tensor<f64>, %[[UI:.*]]: tensor<f64>):
// CHECK: stablehlo.return %[[UR]], %[[UI]]
// CHECK: return %[[S]]#0, %[[S]]#1
func.func @scatter(%x: tensor<4x4xcomplex<f64>>, %i: tensor<2xi32>, %u: tensor<complex<f64>>) -> tensor<4x4xcomplex<f64>> {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1]>}> ({
  ^bb0(%old: tensor<complex<f64>>, %new: tensor<complex<f64>>):
    stablehlo.return %new : tensor<complex<f64>>
  }) : (tensor<4x4xcomplex<f64>>, tensor<2xi32>, tensor<complex<f64>>) -> tensor<4x4xcomplex<f64>>
  return %0 : tensor<4x4xcomplex<f64>>
}

// -----

// Loops and conditionals carry complex values as their parts.
// CHECK-LABEL: func.func @while_if
// CHECK: stablehlo.while(%{{.*}} = %{{.*}}, %{{.*}} = %arg0, %{{.*}} = %arg1) : tensor<i32>, tensor<2xf32>, tensor<2xf32>
// CHECK: "stablehlo.if"
// CHECK: (tensor<i1>) -> (tensor<2xf32>, tensor<2xf32>)
func.func @while_if(%z: tensor<2xcomplex<f32>>, %p: tensor<i1>) -> tensor<2xcomplex<f32>> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c0, %v = %z) : tensor<i32>, tensor<2xcomplex<f32>>
   cond {
    %lt = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %n = stablehlo.add %i, %c1 : tensor<i32>
    %w = stablehlo.multiply %v, %v : tensor<2xcomplex<f32>>
    stablehlo.return %n, %w : tensor<i32>, tensor<2xcomplex<f32>>
  }
  %1 = "stablehlo.if"(%p) ({
    stablehlo.return %0#1 : tensor<2xcomplex<f32>>
  }, {
    %neg = stablehlo.negate %0#1 : tensor<2xcomplex<f32>>
    stablehlo.return %neg : tensor<2xcomplex<f32>>
  }) : (tensor<i1>) -> tensor<2xcomplex<f32>>
  return %1 : tensor<2xcomplex<f32>>
}

// -----

// An op with no complex lowering stays, with the reason; the ops around it
// still lower, joined to it by marked complex/real/imag boundaries.
// CHECK-LABEL: func.func @blocker
// CHECK: %[[RE:.*]] = stablehlo.subtract
// CHECK: %[[IM:.*]] = stablehlo.add
// CHECK: %[[Z:.*]] = stablehlo.complex %[[RE]], %[[IM]] {tvm.boundary}
// CHECK: %[[C:.*]] = stablehlo.cbrt %[[Z]] {tvm.unsupported_reason = "no lowering of this op on complex numbers"}
// CHECK: %[[R:.*]] = stablehlo.real %[[C]] {tvm.boundary}
// CHECK: %[[I:.*]] = stablehlo.imag %[[C]] {tvm.boundary}
// CHECK: stablehlo.add %[[R]], %arg0
// CHECK: stablehlo.add %[[I]], %arg1
func.func @blocker(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = stablehlo.multiply %x, %x : tensor<4xcomplex<f32>>
  %1 = stablehlo.cbrt %0 : tensor<4xcomplex<f32>>
  %2 = stablehlo.add %1, %x : tensor<4xcomplex<f32>>
  return %2 : tensor<4xcomplex<f32>>
}

// -----

// maximum orders complex numbers by real part, then imaginary part; conj
// negates the imaginary part; a complex iota counts in the real part.
// CHECK-LABEL: func @order_conj_iota
// CHECK-SAME: (%[[A:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<2xf32>, %[[C:.*]]: tensor<2xf32>, %[[D:.*]]: tensor<2xf32>)
// CHECK: %[[GT:.*]] = stablehlo.compare GT, %[[A]], %[[C]]
// CHECK: %[[EQ:.*]] = stablehlo.compare EQ, %[[A]], %[[C]]
// CHECK: %[[GTI:.*]] = stablehlo.compare GT, %[[B]], %[[D]]
// CHECK: %[[TIE:.*]] = stablehlo.and %[[EQ]], %[[GTI]]
// CHECK: %[[FIRST:.*]] = stablehlo.or %[[GT]], %[[TIE]]
// CHECK: %[[RE:.*]] = stablehlo.select %[[FIRST]], %[[A]], %[[C]]
// CHECK: %[[IM:.*]] = stablehlo.select %[[FIRST]], %[[B]], %[[D]]
// CHECK: %[[NEG:.*]] = stablehlo.negate %[[IM]]
// CHECK: %[[IOTA:.*]] = stablehlo.iota dim = 0 : tensor<2xf32>
// CHECK: %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK: return %[[RE]], %[[NEG]], %[[IOTA]], %[[ZERO]]
func.func @order_conj_iota(%x: tensor<2xcomplex<f32>>, %y: tensor<2xcomplex<f32>>) -> (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) {
  %0 = stablehlo.maximum %x, %y : tensor<2xcomplex<f32>>
  %1 = chlo.conj %0 : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
  %2 = stablehlo.iota dim = 0 : tensor<2xcomplex<f32>>
  return %1, %2 : tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>
}

// -----

// A complex triangular_solve is LAPACK's trsm on the parts, its options in
// the backend_config JAX's lapack_ctrsm_ffi calls carry.
// CHECK-LABEL: func @triangular_solve
// CHECK: stablehlo.custom_call @lapack_ctrsm_ffi(%arg0, %arg1, %arg2, %arg3)
// CHECK-SAME: diag = 78 : ui8, side = 82 : ui8, trans_x = 67 : ui8, uplo = 85 : ui8
// CHECK-SAME: stablehlo_tvm.complex_parts
// CHECK-SAME: (tensor<3x3xf32>, tensor<3x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
func.func @triangular_solve(%a: tensor<3x3xcomplex<f32>>, %b: tensor<2x3xcomplex<f32>>) -> tensor<2x3xcomplex<f32>> {
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = false, lower = false, unit_diagonal = false, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<3x3xcomplex<f32>>, tensor<2x3xcomplex<f32>>) -> tensor<2x3xcomplex<f32>>
  return %x : tensor<2x3xcomplex<f32>>
}
