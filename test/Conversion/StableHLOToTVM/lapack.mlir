// jnp.linalg's LAPACK custom calls become packed library calls; the options
// in mhlo.backend_config become integer scalars.
// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @cholesky
// CHECK: tvm.call_dps_packed "stablehlo_tvm.lapack.potrf"(%arg0) scalars = [1] : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<i32>)
func.func @cholesky(%a: tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<i32>) {
  %0:2 = stablehlo.custom_call @lapack_dpotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}} : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<i32>)
  return %0#0, %0#1 : tensor<3x3xf64>, tensor<i32>
}

// -----

// side L, uplo U, trans_x T, diag N -> [left, lower, transpose, unit].
// CHECK-LABEL: func.func @trsm
// CHECK: tvm.call_dps_packed "stablehlo_tvm.lapack.trsm"(%arg0, %arg1) scalars = [1, 0, 1, 0]
func.func @trsm(%a: tensor<2x4x4xf32>, %b: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  %0 = stablehlo.custom_call @lapack_strsm_ffi(%a, %b) {mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 84 : ui8, uplo = 85 : ui8}} : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

// Reduced SVD (mode 'S').
// CHECK-LABEL: func.func @svd
// CHECK: tvm.call_dps_packed "stablehlo_tvm.lapack.gesdd"(%arg0) scalars = [1]
func.func @svd(%a: tensor<5x3xf64>) -> tensor<3xf64> {
  %0:5 = stablehlo.custom_call @lapack_dgesdd_ffi(%a) {mhlo.backend_config = {mode = 83 : ui8}} : (tensor<5x3xf64>) -> (tensor<5x3xf64>, tensor<3xf64>, tensor<5x3xf64>, tensor<3x3xf64>, tensor<i32>)
  return %0#1 : tensor<3xf64>
}

// -----

// Other targets stay custom calls (reported by tvm-check-legality).
// CHECK-LABEL: func.func @other
// CHECK: stablehlo.custom_call @lapack_cpotrf_ffi
func.func @other(%a: tensor<3x3xcomplex<f32>>) -> tensor<3x3xcomplex<f32>> {
  %0:2 = stablehlo.custom_call @lapack_cpotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}} : (tensor<3x3xcomplex<f32>>) -> (tensor<3x3xcomplex<f32>>, tensor<i32>)
  return %0#0 : tensor<3x3xcomplex<f32>>
}

// -----

// stablehlo.cholesky is potrf with the other triangle zeroed.
// CHECK-LABEL: func.func @cholesky_op
// CHECK: %[[F:.*]]:2 = tvm.call_dps_packed "stablehlo_tvm.lapack.potrf"(%arg0) scalars = [0] : (tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2xi32>)
// CHECK: %[[M:.*]] = tvm.constant dense<{{\[\[}}true, true, true], [false, true, true], [false, false, true]]> : tensor<3x3xi1>
// CHECK: %[[B:.*]] = tvm.broadcast_to %[[M]]
// CHECK: tvm.where %[[B]], %[[F]]#0, %{{.*}}
func.func @cholesky_op(%a: tensor<2x3x3xf32>) -> tensor<2x3x3xf32> {
  %0 = stablehlo.cholesky %a : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  return %0 : tensor<2x3x3xf32>
}

// -----

// Complex routines, their values split into parts, call the complex form;
// heevd is syevd's complex name.
// CHECK-LABEL: func.func @complex_eigh
// CHECK: tvm.call_dps_packed "stablehlo_tvm.lapack.complex.syevd"(%arg0, %arg1) scalars = [1, 1]
func.func @complex_eigh(%re: tensor<3x3xf32>, %im: tensor<3x3xf32>) -> tensor<3xf32> {
  %0:4 = stablehlo.custom_call @lapack_cheevd_ffi(%re, %im) {mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}, stablehlo_tvm.complex_parts} : (tensor<3x3xf32>, tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>, tensor<3xf32>, tensor<i32>)
  return %0#2 : tensor<3xf32>
}
