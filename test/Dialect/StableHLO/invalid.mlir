// Verifier errors speak the spec's terms and point at the op.
// RUN: stablehlo-to-tvm %s --split-input-file --verify-diagnostics

func.func @broadcast_rank(%x: tensor<2x3xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{broadcast_dimensions has 1 entries, the operand has rank 2}}
  %0 = stablehlo.broadcast_in_dim %x, dims = [0] : (tensor<2x3xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

func.func @broadcast_size(%x: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{operand dimension 0 of size 2 cannot broadcast to result dimension 0 of size 3}}
  %0 = stablehlo.broadcast_in_dim %x, dims = [0] : (tensor<2xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @broadcast_repeated(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{broadcast dimension 0 appears twice}}
  %0 = stablehlo.broadcast_in_dim %x, dims = [0, 0] : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// A rank-0 operand with a broadcast dimension: refined to a static
// broadcast_in_dim, it crashed the import (found by the API fuzzer).
func.func @dynamic_broadcast_rank(%x: tensor<f32>, %shape: tensor<2xi32>) -> tensor<?x3xf32> {
  // expected-error @+1 {{broadcast_dimensions has 1 entries, the operand has rank 0}}
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [0] : (tensor<f32>, tensor<2xi32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

func.func @dynamic_broadcast_output_dimensions(%x: tensor<3xf32>, %shape: tensor<3xi32>) -> tensor<?x3xf32> {
  // expected-error @+1 {{output_dimensions has 3 elements, the result has rank 2}}
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [1] : (tensor<3xf32>, tensor<3xi32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

func.func @dynamic_broadcast_known_dimensions(%x: tensor<3xf32>, %shape: tensor<2xi32>) -> tensor<?x3xf32> {
  // expected-error @+1 {{known dimension 0 is listed twice}}
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [1] {known_expanding_dimensions = array<i64: 0>, known_nonexpanding_dimensions = array<i64: 0>} : (tensor<3xf32>, tensor<2xi32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

func.func @reshape_count(%x: tensor<2x3xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{operand has 6 elements, result has 5}}
  %0 = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @transpose_not_permutation(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{permutation entry 2 is out of range [0, 2)}}
  %0 = stablehlo.transpose %x, dims = [2, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_shape(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{result dimension 0 must have size 3}}
  %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @slice_bounds(%x: tensor<4xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{slice [2:5] is out of bounds of dimension 0 of size 4}}
  %0 = stablehlo.slice %x [2:5] : (tensor<4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @slice_result(%x: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{result dimension 0 must have size 3}}
  %0 = stablehlo.slice %x [1:6:2] : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @concatenate_result(%x: tensor<2xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{result dimension 0 must have size 4}}
  %0 = stablehlo.concatenate %x, %x, dim = 0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @iota_dimension() -> tensor<4xi32> {
  // expected-error @+1 {{iota_dimension 1 is out of range [0, 1)}}
  %0 = stablehlo.iota dim = 1 : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @dot_contracting_size(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{lhs dimension 1 and rhs dimension 0 must have the same size}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @dot_result(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) -> tensor<5x2xf32> {
  // expected-error @+1 {{result shape must be batch, lhs free, rhs free dimensions: [2, 5]}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<5x2xf32>
  return %0 : tensor<5x2xf32>
}

// -----

func.func @reduce_result(%x: tensor<2x4xf32>, %init: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{result 0 must have shape [2]}}
  %0 = stablehlo.reduce(%x init: %init) applies stablehlo.add across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @add_types(%x: tensor<2xf32>, %y: tensor<2xi32>) -> tensor<2xf32> {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = stablehlo.add %x, %y : (tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @abs_complex(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  // expected-error @+1 {{result element type 'complex<f32>' must be 'f32'}}
  %0 = stablehlo.abs %x : tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}

// -----

func.func @select_pred(%p: tensor<3xi1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{pred must be a scalar or have the shape of on_true}}
  %0 = stablehlo.select %p, %x, %x : tensor<3xi1>, tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @pad_result(%x: tensor<2x3xf32>, %p: tensor<f32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{result dimension 1 must have size 3}}
  %0 = stablehlo.pad %x, %p, low = [0, 0], high = [1, 0], interior = [1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @while_types(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{(C1) cond must take 1 argument(s) of the operand types}}
  %0 = "stablehlo.while"(%x) ({
  ^bb0(%a: tensor<3xf32>):
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  }, {
  ^bb0(%a: tensor<2xf32>):
    stablehlo.return %a : tensor<2xf32>
  }) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @barrier_types(%x: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{results must have the types of the operands}}
  %0 = "stablehlo.optimization_barrier"(%x) : (tensor<2xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @ffi_config(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{backend_config of a typed FFI call (api_version 4) must be a dictionary}}
  %0 = stablehlo.custom_call @f(%x) {api_version = 4 : i32, backend_config = "x"} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @quantized_add_storage(%a: tensor<3x!quant.uniform<i8:f32, 0.1>>, %b: tensor<3x!quant.uniform<i16:f32, 0.1>>) -> tensor<3x!quant.uniform<i8:f32, 0.1>> {
  // expected-error @+1 {{requires the same type for all operands and results (quantized types may differ in scales and zero points only)}}
  %0 = stablehlo.add %a, %b : (tensor<3x!quant.uniform<i8:f32, 0.1>>, tensor<3x!quant.uniform<i16:f32, 0.1>>) -> tensor<3x!quant.uniform<i8:f32, 0.1>>
  return %0 : tensor<3x!quant.uniform<i8:f32, 0.1>>
}

// -----

func.func @dequantize_type(%a: tensor<3x!quant.uniform<i8:f32, 0.1>>) -> tensor<3xf16> {
  // expected-error @+1 {{result element type 'f16' must be the expressed type 'f32'}}
  %0 = stablehlo.uniform_dequantize %a : (tensor<3x!quant.uniform<i8:f32, 0.1>>) -> tensor<3xf16>
  return %0 : tensor<3xf16>
}

// -----

func.func @quantize_to_float(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{result must be a tensor of a quantized type}}
  %0 = stablehlo.uniform_quantize %a : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Found by stablehlo_tvm.fuzz: the scatter conversion read index vectors
// past their dimension.
func.func @scatter_index_vector_dim(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{index_vector_dim 64 is out of range [0, 2]}}
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 64>} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @scatter_index_map_size(%x: tensor<3x4xf32>, %i: tensor<2x2xi32>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{scatter_dims_to_operand_dims has 1 entries, the index vectors 2}}
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<3x4xf32>, tensor<2x2xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @scatter_update_rank(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{updates must have rank 2}}
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// A gather whose slice_sizes has the wrong rank used to verify and then be
// reported "unsupported".
func.func @gather_slice_sizes(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{slice_sizes must have 2 entries}}
  %0 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>} : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @gather_collapsed_size(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{collapsed or batching dimension 0 must have slice size 0 or 1}}
  %0 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2, 4>} : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Found by stablehlo_tvm.fuzz: the dynamic_slice conversion indexed start
// indices it did not have.
func.func @dynamic_slice_sizes(%x: tensor<4x4xf32>, %i: tensor<i32>) -> tensor<2xf32> {
  // expected-error @+1 {{slice_sizes must have 2 entries}}
  %0 = stablehlo.dynamic_slice %x, %i, %i, sizes = [2] : (tensor<4x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dynamic_slice_indices(%x: tensor<4x4xf32>, %i: tensor<i32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{needs 2 start indices}}
  %0 = stablehlo.dynamic_slice %x, %i, sizes = [2, 2] : (tensor<4x4xf32>, tensor<i32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @dynamic_update_slice_too_big(%x: tensor<4xf32>, %u: tensor<5xf32>, %i: tensor<i32>) -> tensor<4xf32> {
  // expected-error @+1 {{update dimension 0 of size 5 exceeds the operand's 4}}
  %0 = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<4xf32>, tensor<5xf32>, tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Found by stablehlo_tvm.fuzz: fft lengths the operand does not have made
// the complex lowering read past shapes or allocate without bound.
func.func @fft_length_rank(%x: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  // expected-error @+1 {{fft_length must have 1 to 3 entries, at most the operand's rank}}
  %0 = stablehlo.fft %x, type = FFT, length = [8, 8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  return %0 : tensor<8xcomplex<f32>>
}

// -----

func.func @fft_length_size(%x: tensor<8xf32>) -> tensor<5xcomplex<f32>> {
  // expected-error @+1 {{dimension 0 must be 4611686018427387904 in the operand and 2305843009213693953 in the result}}
  %0 = stablehlo.fft %x, type = RFFT, length = [4611686018427387904] : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  return %0 : tensor<5xcomplex<f32>>
}

// -----

func.func @constant_type_mismatch() -> tensor<2x!quant.uniform<i8:f32, 0.5:-3>> {
  // expected-error @+2 {{inferred type(s) 'tensor<2xi16>' are incompatible with return type(s) of operation 'tensor<2x!quant.uniform<i8:f32, 5.000000e-01:-3>>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = stablehlo.constant() <{value = dense<[1, -4]> : tensor<2xi16>}> : () -> tensor<2x!quant.uniform<i8:f32, 0.5:-3>>
  return %0 : tensor<2x!quant.uniform<i8:f32, 0.5:-3>>
}

// -----

// Padding for one of two dimensions used to import, the missing padding
// taken as zero.
func.func @reduce_window_short_padding(%x: tensor<4x4xf32>, %i: tensor<f32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{padding must have shape [2, 2]}}
  %0 = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, padding = dense<[[0, 0]]> : tensor<1x2xi64>} : (tensor<4x4xf32>, tensor<f32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @reduce_window_zero_stride(%x: tensor<4xf32>, %i: tensor<f32>) -> tensor<3xf32> {
  // expected-error @+1 {{window_strides must be positive}}
  %0 = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 0>} : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @sort_dimension(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{dimension 3 is out of range for rank 1}}
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 3 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @map_dimensions(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{dimensions must be 0, 1, ..., rank - 1}}
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) {dimensions = array<i64: 1, 0>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @select_and_scatter_window(%x: tensor<4x4xf32>, %s: tensor<2x2xf32>, %i: tensor<f32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{window_dimensions must have 2 entries}}
  %0 = "stablehlo.select_and_scatter"(%x, %s, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %sum = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2, 2>} : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// Found by stablehlo_tvm.fuzz: stablehlo-simplify took the out-of-range
// element of the tuple the index named.
func.func @tuple_index(%b: tensor<i64>) -> tensor<i64> {
  %t = stablehlo.tuple %b : tuple<tensor<i64>>
  // expected-error @+1 {{index 3 is out of range for a tuple of 1 elements}}
  %0 = stablehlo.get_tuple_element %t[3] : (tuple<tensor<i64>>) -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

func.func @tuple_element_type(%b: tensor<i64>) -> tensor<i32> {
  %t = stablehlo.tuple %b : tuple<tensor<i64>>
  // expected-error @+1 {{result type 'tensor<i32>' is not the element's, 'tensor<i64>'}}
  %0 = stablehlo.get_tuple_element %t[0] : (tuple<tensor<i64>>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @convolution_rank(%x: tensor<1x8x8x4xf32>, %w: tensor<3x4x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{(C1) lhs and rhs must have the same rank}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

func.func @convolution_strides(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{(C2-C3) window_strides must have 2 entries, one per spatial dimension}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

func.func @convolution_zero_stride(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{(C2-C3) window_strides must be positive}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 0]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

func.func @convolution_padding(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{(C4) padding must have shape [2, 2]}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

func.func @convolution_input_features(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{(C14) the kernel input features (3) must be the input features over feature_group_count (4)}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x3x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

func.func @convolution_feature_groups(%x: tensor<1x8x8x6xf32>, %w: tensor<3x3x1x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{(C11) the input features must divide by feature_group_count (6 by 4)}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<1x8x8x6xf32>, tensor<3x3x1x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

func.func @convolution_both_groups(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x2x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{(C23) feature_group_count or batch_group_count must be 1}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 2 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x2x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

func.func @convolution_batch_groups(%x: tensor<3x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{(C10) the input batch must divide by batch_group_count (3 by 2)}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<3x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

func.func @convolution_result(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x4x4x8xf32> {
  // expected-error @+1 {{(C25) result dimension 1 must have size 2, not 4}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [3, 3], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %0 : tensor<1x4x4x8xf32>
}

// -----

func.func @dynamic_conv_kernel_output(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>, %p: tensor<2x2xi64>) -> tensor<1x?x?x6xf32> {
  // expected-error @+1 {{(C25) result dimension 3 must have size 8, not 6}}
  %0 = "stablehlo.dynamic_conv"(%x, %w, %p) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>, tensor<2x2xi64>) -> tensor<1x?x?x6xf32>
  return %0 : tensor<1x?x?x6xf32>
}

// -----

// An out-of-range dimension used to be read past the operand's shape by
// the shape rules (found by the API fuzzer).
func.func @get_dimension_size_range(%x: tensor<5x3xf32>) -> tensor<i32> {
  // expected-error @+1 {{(C1) dimension 65536 is out of range [0, 2)}}
  %0 = stablehlo.get_dimension_size %x, dim = 65536 : (tensor<5x3xf32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @dynamic_iota_dimension(%s: tensor<2xi32>) -> tensor<?x?xf32> {
  // expected-error @+1 {{(C1) iota_dimension 2 is out of range [0, 2)}}
  %0 = stablehlo.dynamic_iota %s, dim = 2 : (tensor<2xi32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @dynamic_iota_shape(%s: tensor<3xi32>) -> tensor<?x?xf32> {
  // expected-error @+1 {{(C2) output_shape has 3 elements, the result has rank 2}}
  %0 = stablehlo.dynamic_iota %s, dim = 0 : (tensor<3xi32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @dynamic_reshape_shape(%x: tensor<6xf32>, %s: tensor<3xi32>) -> tensor<?x?xf32> {
  // expected-error @+1 {{(C3) output_shape has 3 elements, the result has rank 2}}
  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<6xf32>, tensor<3xi32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @dynamic_pad_amounts(%x: tensor<2x3xf32>, %p: tensor<f32>, %l: tensor<1xi32>, %h: tensor<2xi32>, %i: tensor<2xi32>) -> tensor<?x?xf32> {
  // expected-error @+1 {{(C2) edge_padding_low has 1 elements, the operand has rank 2}}
  %0 = stablehlo.dynamic_pad %x, %p, %l, %h, %i : (tensor<2x3xf32>, tensor<f32>, tensor<1xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @real_dynamic_slice_strides(%x: tensor<4xf32>, %s: tensor<1xi32>, %t: tensor<2xi32>) -> tensor<?xf32> {
  // expected-error @+1 {{(C2) strides has 2 elements, the operand has rank 1}}
  %0 = stablehlo.real_dynamic_slice %x, %s, %s, %t : (tensor<4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<2xi32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @reverse_dimension(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{(C2, C3) dimension 1 is out of range [0, 1)}}
  %0 = stablehlo.reverse %x, dims = [1] : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @broadcast_sizes(%x: tensor<4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{result dimension 0 must have size 2}}
  %0 = stablehlo.broadcast %x, sizes = [2] : (tensor<4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @clamp_bounds(%lo: tensor<3xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{(C1, C2) min must be a scalar or have the operand's shape}}
  %0 = "stablehlo.clamp"(%lo, %x, %x) : (tensor<3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bitcast_convert_narrower(%x: tensor<4xf32>) -> tensor<4x2xi8> {
  // expected-error @+1 {{(C1) the last dimension must have size 4}}
  %0 = stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4x2xi8>
  return %0 : tensor<4x2xi8>
}

// -----

func.func @bitcast_convert_rank(%x: tensor<4xf32>) -> tensor<2xf64> {
  // expected-error @+1 {{(C1) result must have rank 0 for a bitcast from 32 to 64 bits}}
  %0 = stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<2xf64>
  return %0 : tensor<2xf64>
}

// -----

func.func @dot_contracting(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{contracting dimensions must agree: 3 and 4}}
  %0 = stablehlo.dot %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @rng_bit_generator_state(%s: tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>) {
  // expected-error @+1 {{(C2) a THREE_FRY state has 2 elements}}
  %0:2 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  return %0#0, %0#1 : tensor<3xui64>, tensor<4xui32>
}

// -----

func.func @all_to_all_split(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{(C2) split_count must divide the split dimension}}
  %0 = "stablehlo.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @case_branch_results(%i: tensor<i32>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{(C2, C3) branch 1 returns 0 value(s), 1 expected}}
  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %x : tensor<2xf32>
  }, {
    stablehlo.return
  }) : (tensor<i32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @if_branch_types(%p: tensor<i1>, %x: tensor<2xf32>, %y: tensor<2xi32>) -> tensor<2xf32> {
  // expected-error @+1 {{(C1, C2) false_branch returns 'tensor<2xi32>' as value 0, where 'tensor<2xf32>' is expected}}
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %x : tensor<2xf32>
  }, {
    stablehlo.return %y : tensor<2xi32>
  }) : (tensor<i1>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @while_body_returns(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{(C2) body returns 0 value(s), 1 expected}}
  %0 = stablehlo.while(%a = %x) : tensor<2xf32>
   cond {
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    stablehlo.return
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @batch_norm_feature_index(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{(C1) feature_index 2 is out of range [0, 2)}}
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 1.0e-5 : f32, feature_index = 2 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @batch_norm_scale_size(%x: tensor<2x3xf32>, %s: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{per-feature operands and results must be 1-D of size 3}}
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 1.0e-5 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @cholesky_square(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{(C3) a must be square in its last two dimensions}}
  %0 = stablehlo.cholesky %a, lower = true : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @triangular_solve_sides(%a: tensor<3x3xf32>, %b: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{(C3) a's size 3 must match b's dimension 0}}
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @composite_missing(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{(C1) decomposition 'missing' is not a function}}
  %0 = stablehlo.composite "my.op" %x {decomposition = @missing} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func private @decomposition(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}

func.func @composite_types(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{(C2) the types of decomposition 'decomposition' must be the composite's operand and result types}}
  %0 = stablehlo.composite "my.op" %x {decomposition = @decomposition} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A body without a terminator reaches the op's verifier before MLIR checks
// terminators; it was read past its end (found under AddressSanitizer).
func.func @select_and_scatter_empty_select(%x: tensor<4xf32>, %s: tensor<2xf32>, %init: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{select must take 2 arguments and return 1 value}}
  %0 = "stablehlo.select_and_scatter"(%x, %s, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %sum = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A constant is a whole value: an elements attribute of a dynamic type can
// be built programmatically (a pass once did) but holds no value.
func.func @constant_dynamic() -> tensor<?xf32> {
  // expected-error @+1 {{result type 'tensor<?xf32>' must have a static shape}}
  %0 = "stablehlo.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// real of a complex value with a complex result verified, and the import
// then crashed the process (found by the API fuzzer).
func.func @real_result_type(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  // expected-error @+1 {{(C2) result element type 'complex<f32>' must be 'f32'}}
  %0 = stablehlo.real %x : tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}

// -----

func.func @imag_integer(%x: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{(C1) operand element type 'i32' must be floating-point or complex}}
  %0 = stablehlo.imag %x : tensor<2xi32>
  return %0 : tensor<2xi32>
}
