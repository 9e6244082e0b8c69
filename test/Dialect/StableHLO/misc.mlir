// Convolution, FFT, linear algebra, random numbers, custom_call, tuples,
// tokens and the rest: pretty and generic forms.
// RUN: stablehlo-to-tvm %s | stablehlo-to-tvm | FileCheck %s
// RUN: stablehlo-to-tvm %s --mlir-print-op-generic | stablehlo-to-tvm | FileCheck %s
// RUN: stablehlo-to-tvm %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func @convolution
func.func @convolution(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>, %y: tensor<1x1x28x28xf32>, %k: tensor<3x3x1x16xf32>) -> tensor<1x4x4x8xf32> {
  // CHECK: stablehlo.convolution(%{{.*}}, %{{.*}}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = {{\[}}[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x4x4x8xf32>
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x4x4x8xf32>
  // Absent window attributes are not printed.
  // CHECK: stablehlo.convolution(%{{.*}}, %{{.*}}) dim_numbers = [b, f, 0, 1]x[0, 1, i, o]->[b, f, 0, 1], window = {rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x28x28xf32>, tensor<3x3x1x16xf32>) -> tensor<1x16x26x24xf32>
  %1 = stablehlo.convolution(%y, %k) dim_numbers = [b, f, 0, 1]x[0, 1, i, o]->[b, f, 0, 1], window = {rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x28x28xf32>, tensor<3x3x1x16xf32>) -> tensor<1x16x26x24xf32>
  return %0 : tensor<1x4x4x8xf32>
}
// GENERIC: "stablehlo.convolution"(%{{.*}}, %{{.*}}) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<{{\[}}[0, 1], [0, 1]]> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 2, 2>}>

// CHECK-LABEL: func @fft_linalg
func.func @fft_linalg(%x: tensor<8xf32>, %a: tensor<3x3xf32>, %b: tensor<3x1xf32>) -> tensor<5xcomplex<f32>> {
  // CHECK: stablehlo.fft %{{.*}}, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  %0 = stablehlo.fft %x, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  // CHECK: stablehlo.cholesky %{{.*}}, lower = true : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %1 = stablehlo.cholesky %a, lower = true : (tensor<3x3xf32>) -> tensor<3x3xf32>
  // CHECK: "stablehlo.triangular_solve"(%{{.*}}, %{{.*}}) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = true}>
  %2 = "stablehlo.triangular_solve"(%1, %b) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = true}> : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  return %0 : tensor<5xcomplex<f32>>
}
// GENERIC: "stablehlo.fft"(%{{.*}}) <{fft_length = array<i64: 8>, fft_type = #stablehlo<fft_type RFFT>}>

// CHECK-LABEL: func @random
func.func @random(%state: tensor<2xui64>, %lo: tensor<f32>, %hi: tensor<f32>, %shape: tensor<1xi64>) -> tensor<4xui32> {
  // CHECK: %{{.*}}, %{{.*}} = stablehlo.rng_bit_generator %{{.*}}, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  %0:2 = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  // CHECK: stablehlo.rng %{{.*}}, %{{.*}}, %{{.*}}, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<7xf32>
  %1 = stablehlo.rng %lo, %hi, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<7xf32>
  return %0#1 : tensor<4xui32>
}
// GENERIC: "stablehlo.rng_bit_generator"(%{{.*}}) <{rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}>

// CHECK-LABEL: func @custom_calls
func.func @custom_calls(%x: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>) {
  // CHECK: stablehlo.custom_call @check.expect_close(%{{.*}}, %{{.*}}) {has_side_effect = true} : (tensor<3x3xf32>, tensor<3x3xf32>) -> ()
  stablehlo.custom_call @check.expect_close(%x, %x) {has_side_effect = true} : (tensor<3x3xf32>, tensor<3x3xf32>) -> ()
  // CHECK: stablehlo.custom_call @lapack_spotrf_ffi(%{{.*}}) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
  %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%x) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
  // CHECK: stablehlo.custom_call @my_ffi_target(%{{.*}}) {api_version = 4 : i32, backend_config = {mode = 1 : i32}} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %1 = stablehlo.custom_call @my_ffi_target(%x) {api_version = 4 : i32, backend_config = {mode = 1 : i32}} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return %0#0, %0#1 : tensor<3x3xf32>, tensor<i32>
}
// GENERIC: "stablehlo.custom_call"(%{{.*}}, %{{.*}}) <{call_target_name = "check.expect_close", has_side_effect = true}>
// GENERIC: "stablehlo.custom_call"(%{{.*}}) <{backend_config = "", call_target_name = "lapack_spotrf_ffi"
// GENERIC: "stablehlo.custom_call"(%{{.*}}) <{api_version = 4 : i32, backend_config = {mode = 1 : i32}, call_target_name = "my_ffi_target"}>

// CHECK-LABEL: func @tuples_tokens_barriers
func.func @tuples_tokens_barriers(%x: tensor<2xf32>, %y: tensor<i32>) -> tensor<2xf32> {
  // CHECK: %[[T:.*]] = stablehlo.tuple %{{.*}}, %{{.*}} : tuple<tensor<2xf32>, tensor<i32>>
  %t = stablehlo.tuple %x, %y : tuple<tensor<2xf32>, tensor<i32>>
  // CHECK: stablehlo.get_tuple_element %[[T]][0] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
  %0 = stablehlo.get_tuple_element %t[0] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
  // CHECK: %[[K:.*]] = stablehlo.create_token : !stablehlo.token
  %k = stablehlo.create_token : !stablehlo.token
  // CHECK: stablehlo.after_all %[[K]], %[[K]] : !stablehlo.token
  %k2 = stablehlo.after_all %k, %k : !stablehlo.token
  // CHECK: stablehlo.optimization_barrier %{{.*}}, %{{.*}} : tensor<2xf32>, tensor<i32>
  %1:2 = stablehlo.optimization_barrier %0, %y : tensor<2xf32>, tensor<i32>
  // CHECK: stablehlo.replica_id : tensor<ui32>
  %r = stablehlo.replica_id : tensor<ui32>
  // CHECK: stablehlo.partition_id : tensor<ui32>
  %p = stablehlo.partition_id : tensor<ui32>
  // CHECK: stablehlo.composite "my.double" %{{.*}} {decomposition = @my.double.impl} : (tensor<2xf32>) -> tensor<2xf32>
  %2 = stablehlo.composite "my.double" %1#0 {decomposition = @my.double.impl} : (tensor<2xf32>) -> tensor<2xf32>
  return %2 : tensor<2xf32>
}
func.func private @my.double.impl(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %x, %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func @batch_norm
func.func @batch_norm(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: "stablehlo.batch_norm_inference"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}>
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) <{epsilon = 1.0e-03 : f32, feature_index = 1 : i64}> : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: "stablehlo.batch_norm_training"
  %1:3 = "stablehlo.batch_norm_training"(%x, %s, %s) <{epsilon = 1.0e-03 : f32, feature_index = 1 : i64}> : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  // CHECK: "stablehlo.batch_norm_grad"
  %2:3 = "stablehlo.batch_norm_grad"(%x, %s, %s, %s, %x) <{epsilon = 1.0e-03 : f32, feature_index = 1 : i64}> : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0 : tensor<2x3xf32>
}

// jax.export writes a 1-D dynamic_conv with the two window strides of the
// 2-D convolution it came from; it parses, and the count is checked once
// shape refinement makes it a convolution.
// CHECK-LABEL: func @dynamic_conv_extra_strides
func.func @dynamic_conv_extra_strides(%x: tensor<1x?x16xf32>, %w: tensor<4x16x16xf32>, %p: tensor<1x2xi32>) -> tensor<1x?x16xf32> {
  // CHECK: stablehlo.dynamic_conv
  %0 = "stablehlo.dynamic_conv"(%x, %w, %p) {batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, window_strides = array<i64: 2, 2>} : (tensor<1x?x16xf32>, tensor<4x16x16xf32>, tensor<1x2xi32>) -> tensor<1x?x16xf32>
  return %0 : tensor<1x?x16xf32>
}
