// RUN: stablehlo-to-tvm %s --stablehlo-simplify --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @composite
// CHECK: %[[R:.*]] = call @add_n.impl(%arg0) : (tensor<i64>) -> tensor<i64>
// CHECK: return %[[R]]
func.func @add_n.impl(%arg0: tensor<i64>) -> tensor<i64> {
  %0 = stablehlo.constant dense<2> : tensor<i64>
  %1 = stablehlo.add %arg0, %0 : tensor<i64>
  func.return %1 : tensor<i64>
}
func.func @composite(%x: tensor<i64>) -> tensor<i64> {
  %0 = stablehlo.composite "my.add_n" %x {composite_attributes = {n = 2 : i64}, decomposition = @add_n.impl} : (tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}

// -----

// CHECK-LABEL: func.func @tuples
// CHECK-NOT: stablehlo.tuple
// CHECK-NOT: get_tuple_element
// CHECK: return %arg0, %arg1
func.func @tuples(%a: tensor<2xf64>, %b: tensor<i64>) -> (tensor<2xf64>, tensor<i64>) {
  %inner = stablehlo.tuple %b : tuple<tensor<i64>>
  %t = stablehlo.tuple %a, %inner : tuple<tensor<2xf64>, tuple<tensor<i64>>>
  %0 = stablehlo.get_tuple_element %t[0] : (tuple<tensor<2xf64>, tuple<tensor<i64>>>) -> tensor<2xf64>
  %1 = stablehlo.get_tuple_element %t[1] : (tuple<tensor<2xf64>, tuple<tensor<i64>>>) -> tuple<tensor<i64>>
  %2 = stablehlo.get_tuple_element %1[0] : (tuple<tensor<i64>>) -> tensor<i64>
  func.return %0, %2 : tensor<2xf64>, tensor<i64>
}

// -----

// Shapes given as constants: the static ops.
// CHECK-LABEL: func.func @constant_shapes
// CHECK: stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: stablehlo.reshape %arg0 : (tensor<3xf32>) -> tensor<3x1xf32>
// CHECK: stablehlo.pad %arg0, %{{.*}}, low = [1], high = [-1], interior = [1] : (tensor<3xf32>, tensor<f32>) -> tensor<5xf32>
// CHECK: stablehlo.iota dim = 0 : tensor<4xi32>
func.func @constant_shapes(%x: tensor<3xf32>, %p: tensor<f32>) -> (tensor<2x3xf32>, tensor<3x1xf32>, tensor<5xf32>, tensor<4xi32>) {
  %s = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1] : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %r = stablehlo.constant dense<[3, 1]> : tensor<2xi32>
  %1 = stablehlo.dynamic_reshape %x, %r : (tensor<3xf32>, tensor<2xi32>) -> tensor<3x1xf32>
  %lo = stablehlo.constant dense<1> : tensor<1xi64>
  %hi = stablehlo.constant dense<-1> : tensor<1xi64>
  %in = stablehlo.constant dense<1> : tensor<1xi64>
  %2 = stablehlo.dynamic_pad %x, %p, %lo, %hi, %in : (tensor<3xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<5xf32>
  %n = stablehlo.constant dense<4> : tensor<1xi64>
  %3 = stablehlo.dynamic_iota %n, dim = 0 : (tensor<1xi64>) -> tensor<4xi32>
  func.return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<3x1xf32>, tensor<5xf32>, tensor<4xi32>
}

// -----

// The other dynamic ops with constant shape operands: real_dynamic_slice,
// dynamic_gather, dynamic_conv, and get_dimension_size of a static
// dimension.
// CHECK-LABEL: func.func @more_constant_shapes
// CHECK: stablehlo.slice %arg0 [1:7:2] : (tensor<8xf32>) -> tensor<3xf32>
// CHECK: "stablehlo.gather"(%arg1, %arg2) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<4x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
// CHECK: stablehlo.convolution(%arg3, %arg4) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = {{\[\[}}1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x2xf32>, tensor<3x2x4xf32>) -> tensor<1x5x4xf32>
// CHECK: %[[N:.*]] = stablehlo.constant dense<8> : tensor<i32>
// CHECK-NOT: get_dimension_size
func.func @more_constant_shapes(%x: tensor<8xf32>, %t: tensor<4x3xf32>, %i: tensor<2x1xi32>, %lhs: tensor<1x5x2xf32>, %rhs: tensor<3x2x4xf32>) -> (tensor<3xf32>, tensor<2x3xf32>, tensor<1x5x4xf32>, tensor<i32>) {
  %start = stablehlo.constant dense<1> : tensor<1xi64>
  %limit = stablehlo.constant dense<7> : tensor<1xi64>
  %stride = stablehlo.constant dense<2> : tensor<1xi64>
  %0 = stablehlo.real_dynamic_slice %x, %start, %limit, %stride : (tensor<8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xf32>
  %sizes = stablehlo.constant dense<[1, 3]> : tensor<2xi64>
  %1 = "stablehlo.dynamic_gather"(%t, %i, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<4x3xf32>, tensor<2x1xi32>, tensor<2xi64>) -> tensor<2x3xf32>
  %pad = stablehlo.constant dense<1> : tensor<1x2xi64>
  %2 = "stablehlo.dynamic_conv"(%lhs, %rhs, %pad) <{dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64}> : (tensor<1x5x2xf32>, tensor<3x2x4xf32>, tensor<1x2xi64>) -> tensor<1x5x4xf32>
  %3 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<8xf32>) -> tensor<i32>
  func.return %0, %1, %2, %3 : tensor<3xf32>, tensor<2x3xf32>, tensor<1x5x4xf32>, tensor<i32>
}

// -----

// A shape known only at run time stays dynamic.
// CHECK-LABEL: func.func @runtime_shape
// CHECK: stablehlo.dynamic_reshape
func.func @runtime_shape(%x: tensor<4xf32>, %s: tensor<2xi64>) -> tensor<2x2xf32> {
  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<4xf32>, tensor<2xi64>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func.func @parts_of_real
// CHECK: %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<2xf64>
// CHECK: return %arg0, %[[Z]]
func.func @parts_of_real(%x: tensor<2xf64>) -> (tensor<2xf64>, tensor<2xf64>) {
  %0 = stablehlo.real %x : tensor<2xf64>
  %1 = stablehlo.imag %x : tensor<2xf64>
  func.return %0, %1 : tensor<2xf64>, tensor<2xf64>
}

// -----

// batch_group_count 2 over [b, 0, f]: batch slices move beside the features.
// CHECK-LABEL: func.func @batch_groups
// CHECK: %[[T:.*]] = stablehlo.transpose %arg0, dims = [0, 2, 1] : (tensor<4x5x3xf32>) -> tensor<4x3x5xf32>
// CHECK: %[[R:.*]] = stablehlo.reshape %[[T]] : (tensor<4x3x5xf32>) -> tensor<2x2x3x5xf32>
// CHECK: %[[S:.*]] = stablehlo.transpose %[[R]], dims = [1, 0, 2, 3] : (tensor<2x2x3x5xf32>) -> tensor<2x2x3x5xf32>
// CHECK: %[[L:.*]] = stablehlo.reshape %[[S]] : (tensor<2x2x3x5xf32>) -> tensor<2x6x5xf32>
// CHECK: stablehlo.convolution(%[[L]], %arg1) dim_numbers = [b, f, 0]x[0, i, o]->[b, 0, f]
// CHECK-SAME: batch_group_count = 1 : i64, feature_group_count = 2 : i64
func.func @batch_groups(%x: tensor<4x5x3xf32>, %w: tensor<2x3x4xf32>) -> tensor<2x4x4xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x5x3xf32>, tensor<2x3x4xf32>) -> tensor<2x4x4xf32>
  func.return %0 : tensor<2x4x4xf32>
}

// -----

// chlo.scan: a while over positions carrying (counter, carries, outputs).
// CHECK-LABEL: func.func @scan
// CHECK: %[[W:.*]]:3 = stablehlo.while(%[[I:.*]] = %{{.*}}, %[[C:.*]] = %arg1, %[[O:.*]] = %{{.*}}) : tensor<i64>, tensor<i32>, tensor<4xi32>
// CHECK: stablehlo.compare  LT, %[[I]]
// CHECK: %[[POS:.*]] = stablehlo.subtract %{{.*}}, %[[I]]
// CHECK: %[[S:.*]] = stablehlo.dynamic_slice %arg0, %[[POS]], sizes = [1]
// CHECK: %[[E:.*]] = stablehlo.reshape %[[S]] : (tensor<1xi32>) -> tensor<i32>
// CHECK: %[[SUM:.*]] = stablehlo.add %[[E]], %[[C]]
// CHECK: stablehlo.dynamic_update_slice %[[O]], %{{.*}}, %[[POS]]
// CHECK: return %[[W]]#2, %[[W]]#1
func.func @scan(%x: tensor<4xi32>, %init: tensor<i32>) -> (tensor<4xi32>, tensor<i32>) {
  %0:2 = chlo.scan(%x) inits(%init) dimension = 0 attributes {is_reverse = true} {
  ^bb0(%e: tensor<i32>, %acc: tensor<i32>):
    %s = stablehlo.add %e, %acc : tensor<i32>
    stablehlo.return %s, %s : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  func.return %0#0, %0#1 : tensor<4xi32>, tensor<i32>
}

// -----

// power by a constant 0, 1, 2, 3 or -1, splat, broadcast, computed from
// constants or converted from an integer (Keras's ops.power(x, 2)): 1, x,
// x * x, (x * x) * x, 1 / x;
// other exponents, a bf16 cube (XLA keeps its square in f32) and integer
// powers stay.
// CHECK-LABEL: func.func @power_by_constant
// CHECK: %[[SQUARE:.*]] = stablehlo.multiply %arg0, %arg0
// CHECK: %[[ONE:.*]] = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK: %[[INVERSE:.*]] = stablehlo.divide %[[ONE]], %arg0
// CHECK: %[[POWER_ZERO:.*]] = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK: %[[SQ:.*]] = stablehlo.multiply %arg0, %arg0
// CHECK: %[[CUBE:.*]] = stablehlo.multiply %[[SQ]], %arg0
// CHECK: %[[OTHER:.*]] = stablehlo.power %arg0, %{{.*}} : tensor<4xf32>
// CHECK: %[[INT:.*]] = stablehlo.power %arg1, %{{.*}} : tensor<4xi32>
// CHECK: %[[KERAS:.*]] = stablehlo.multiply %arg0, %arg0
// CHECK: %[[BF16_CUBE:.*]] = stablehlo.power %arg2, %{{.*}} : tensor<4xbf16>
// CHECK: return %arg0, %[[SQUARE]], %[[INVERSE]], %[[POWER_ZERO]], %[[CUBE]], %[[OTHER]], %[[INT]], %[[KERAS]], %[[BF16_CUBE]]
func.func @power_by_constant(%x: tensor<4xf32>, %n: tensor<4xi32>, %h: tensor<4xbf16>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xbf16>) {
  %one = stablehlo.constant dense<1.0> : tensor<4xf32>
  %two_scalar = stablehlo.constant dense<2.0> : tensor<f32>
  %two = stablehlo.broadcast_in_dim %two_scalar, dims = [] : (tensor<f32>) -> tensor<4xf32>
  // -1 as autodiff writes it: (1 - 2) broadcast.
  %one_scalar = stablehlo.constant dense<1.0> : tensor<f32>
  %difference = stablehlo.subtract %one_scalar, %two_scalar : tensor<f32>
  %minus_one = stablehlo.broadcast_in_dim %difference, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<4xf32>
  %three = stablehlo.constant dense<3.0> : tensor<4xf32>
  %two_and_a_half = stablehlo.constant dense<2.5> : tensor<4xf32>
  %int_two = stablehlo.constant dense<2> : tensor<4xi32>
  %int_scalar = stablehlo.constant dense<2> : tensor<i32>
  %converted = stablehlo.convert %int_scalar : (tensor<i32>) -> tensor<f32>
  %keras_two = stablehlo.broadcast_in_dim %converted, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %bf16_three = stablehlo.constant dense<3.0> : tensor<4xbf16>
  %0 = stablehlo.power %x, %one : tensor<4xf32>
  %1 = stablehlo.power %x, %two : tensor<4xf32>
  %2 = stablehlo.power %x, %minus_one : tensor<4xf32>
  %3 = stablehlo.power %x, %zero : tensor<4xf32>
  %4 = stablehlo.power %x, %three : tensor<4xf32>
  %5 = stablehlo.power %x, %two_and_a_half : tensor<4xf32>
  %6 = stablehlo.power %n, %int_two : tensor<4xi32>
  %7 = stablehlo.power %x, %keras_two : tensor<4xf32>
  %8 = stablehlo.power %h, %bf16_three : tensor<4xbf16>
  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xbf16>
}

// -----

// A map over complex values with an elementwise body is that body on the
// whole tensors (scalar constants splatted).
// CHECK-LABEL: func @complex_map
// CHECK-NOT: stablehlo.map
// CHECK: %[[TWO:.*]] = stablehlo.constant dense<(2.000000e+00,0.000000e+00)> : tensor<3xcomplex<f32>>
// CHECK: %[[P:.*]] = stablehlo.multiply %arg0, %[[TWO]] : tensor<3xcomplex<f32>>
// CHECK: %[[S:.*]] = stablehlo.add %[[P]], %arg1 : tensor<3xcomplex<f32>>
// CHECK: return %[[S]]
func.func @complex_map(%x: tensor<3xcomplex<f32>>, %y: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = "stablehlo.map"(%x, %y) ({
  ^bb0(%a: tensor<complex<f32>>, %b: tensor<complex<f32>>):
    %two = stablehlo.constant dense<(2.0, 0.0)> : tensor<complex<f32>>
    %p = stablehlo.multiply %a, %two : tensor<complex<f32>>
    %s = stablehlo.add %p, %b : tensor<complex<f32>>
    stablehlo.return %s : tensor<complex<f32>>
  }) {dimensions = array<i64: 0>} : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  return %0 : tensor<3xcomplex<f32>>
}

// -----

// x - x keeps NaN for NaN and infinite x as x * 0 + 0 (TVM would fold it
// to 0); other subtractions stay.
// CHECK-LABEL: func @self_subtraction
// CHECK: %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK: %[[P:.*]] = stablehlo.multiply %arg0, %[[Z]]
// CHECK: %[[S:.*]] = stablehlo.add %[[P]], %[[Z]]
// CHECK: %[[D:.*]] = stablehlo.subtract %arg0, %arg1
// CHECK: stablehlo.subtract %arg2, %arg2 : tensor<3xi32>
func.func @self_subtraction(%x: tensor<3xf32>, %y: tensor<3xf32>, %i: tensor<3xi32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xi32>) {
  %0 = stablehlo.subtract %x, %x : tensor<3xf32>
  %1 = stablehlo.subtract %x, %y : tensor<3xf32>
  %2 = stablehlo.subtract %i, %i : tensor<3xi32>
  return %0, %1, %2 : tensor<3xf32>, tensor<3xf32>, tensor<3xi32>
}

// -----

// A value computed twice is one value: (a * b) - (a * b) is x * 0 + 0 too,
// without a CSE over the module; a product of other operands is not.
// CHECK-LABEL: func @subtraction_of_a_value_computed_twice
// CHECK: %[[A:.*]] = stablehlo.multiply %arg0, %arg1
// CHECK-NOT: stablehlo.multiply %arg0, %arg1
// CHECK: %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK: %[[P:.*]] = stablehlo.multiply %[[A]], %[[Z]]
// CHECK: %[[S:.*]] = stablehlo.add %[[P]], %[[Z]]
// CHECK: %[[C:.*]] = stablehlo.multiply %arg0, %arg0
// CHECK: stablehlo.subtract %[[A]], %[[C]]
func.func @subtraction_of_a_value_computed_twice(%a: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0 = stablehlo.multiply %a, %b : tensor<3xf32>
  %1 = stablehlo.multiply %a, %b : tensor<3xf32>
  %2 = stablehlo.subtract %0, %1 : tensor<3xf32>
  %3 = stablehlo.multiply %a, %a : tensor<3xf32>
  %4 = stablehlo.subtract %0, %3 : tensor<3xf32>
  return %2, %4 : tensor<3xf32>, tensor<3xf32>
}

// A complex x - x part by part: 0 + NaN i for x = 1 + inf i, where a
// complex product by 0 would make both parts NaN.
// CHECK-LABEL: func @complex_self_subtraction
// CHECK-DAG: %[[RE:.*]] = stablehlo.real %arg0
// CHECK-DAG: %[[IM:.*]] = stablehlo.imag %arg0
// CHECK-DAG: %[[PR:.*]] = stablehlo.multiply %[[RE]], %{{.*}} : tensor<2xf32>
// CHECK-DAG: %[[PI:.*]] = stablehlo.multiply %[[IM]], %{{.*}} : tensor<2xf32>
// CHECK-DAG: %[[SR:.*]] = stablehlo.add %[[PR]], %{{.*}} : tensor<2xf32>
// CHECK-DAG: %[[SI:.*]] = stablehlo.add %[[PI]], %{{.*}} : tensor<2xf32>
// CHECK: stablehlo.complex %[[SR]], %[[SI]]
// CHECK-NOT: stablehlo.subtract
func.func @complex_self_subtraction(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = stablehlo.subtract %x, %x : tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}

// -----

// select(c, a, b) - b as select(c, a - b, b - b), the self-subtraction
// then kept NaN-preserving (TVM would make it 0); integers stay.
// CHECK-LABEL: func @subtraction_of_select_arm
// CHECK-DAG: %[[D:.*]] = stablehlo.subtract %arg1, %arg2 : tensor<3xf32>
// CHECK-DAG: %[[P:.*]] = stablehlo.multiply %arg2, %{{.*}} : tensor<3xf32>
// CHECK-DAG: %[[Z:.*]] = stablehlo.add %[[P]], %{{.*}} : tensor<3xf32>
// CHECK: %[[S:.*]] = stablehlo.select %arg0, %[[D]], %[[Z]]
// CHECK: %[[I:.*]] = stablehlo.select %arg0, %arg3, %arg4 : tensor<3xi1>, tensor<3xi32>
// CHECK: %[[J:.*]] = stablehlo.subtract %[[I]], %arg4 : tensor<3xi32>
// CHECK: return %[[S]], %[[J]]
func.func @subtraction_of_select_arm(%c: tensor<3xi1>, %a: tensor<3xf32>, %b: tensor<3xf32>, %i: tensor<3xi32>, %j: tensor<3xi32>) -> (tensor<3xf32>, tensor<3xi32>) {
  %0 = stablehlo.select %c, %a, %b : tensor<3xi1>, tensor<3xf32>
  %1 = stablehlo.subtract %0, %b : tensor<3xf32>
  %2 = stablehlo.select %c, %i, %j : tensor<3xi1>, tensor<3xi32>
  %3 = stablehlo.subtract %2, %j : tensor<3xi32>
  return %1, %3 : tensor<3xf32>, tensor<3xi32>
}

// -----

// minimum(x, x) and maximum(x, x) are x, so the x - minimum(x, x) behind
// them is a self-subtraction that keeps its NaN parts.
// CHECK-LABEL: func @extremum_of_one_value
// CHECK-NOT: stablehlo.minimum
// CHECK-NOT: stablehlo.maximum
// CHECK: stablehlo.complex
// CHECK: %[[M:.*]] = stablehlo.minimum %arg1, %arg2
// CHECK: return %{{.*}}, %arg1, %[[M]]
func.func @extremum_of_one_value(%x: tensor<2xcomplex<f32>>, %i: tensor<2xi32>, %j: tensor<2xi32>) -> (tensor<2xcomplex<f32>>, tensor<2xi32>, tensor<2xi32>) {
  %0 = stablehlo.minimum %x, %x : tensor<2xcomplex<f32>>
  %1 = stablehlo.subtract %x, %0 : tensor<2xcomplex<f32>>
  %2 = stablehlo.maximum %i, %i : tensor<2xi32>
  %3 = stablehlo.minimum %i, %j : tensor<2xi32>
  return %1, %2, %3 : tensor<2xcomplex<f32>>, tensor<2xi32>, tensor<2xi32>
}

// -----

// select(c, x, x) is x, so that the x - x behind it keeps its NaN for
// infinite x (TVM's simplifier would fold both, the subtraction to 0).
// CHECK-LABEL: func @select_of_one_value
// CHECK-NOT: stablehlo.select
// CHECK: %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<3xf16>
// CHECK: %[[P:.*]] = stablehlo.multiply %arg1, %[[Z]]
// CHECK: %[[S:.*]] = stablehlo.add %[[P]], %[[Z]]
// CHECK: return %[[S]]
func.func @select_of_one_value(%c: tensor<3xi1>, %x: tensor<3xf16>) -> tensor<3xf16> {
  %0 = stablehlo.select %c, %x, %x : tensor<3xi1>, tensor<3xf16>
  %1 = stablehlo.subtract %0, %x : tensor<3xf16>
  return %1 : tensor<3xf16>
}

// -----

// A constant a body uses from outside (jax.export hoists jnp.sort's) is
// cloned into the body.
// CHECK-LABEL: func.func @constants_into_bodies
// CHECK: stablehlo.sort
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: stablehlo.compare  EQ, %{{.*}}, %[[Z]]
func.func @constants_into_bodies(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %z = stablehlo.compare EQ, %a, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %c = stablehlo.select %z, %zero, %a : tensor<i1>, tensor<f32>
    %lt = stablehlo.compare LT, %c, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Division by a constant is multiplication by its reciprocal, rounded to
// the element type (as XLA rewrites it); a broadcast constant's reciprocals
// are broadcast the same way. bf16, a zero divisor and a divisor that is
// not constant stay divisions.
// CHECK-LABEL: func @division_by_constant
// CHECK: %[[THIRD:.*]] = stablehlo.constant dense<0.333333343> : tensor<4xf32>
// CHECK: %[[A:.*]] = stablehlo.multiply %arg0, %[[THIRD]] : tensor<4xf32>
// CHECK: %[[INV:.*]] = stablehlo.constant dense<[5.000000e-01, 2.500000e-01]> : tensor<2xf32>
// CHECK: %[[SPREAD:.*]] = stablehlo.broadcast_in_dim %[[INV]], dims = [1] : (tensor<2xf32>) -> tensor<3x2xf32>
// CHECK: %[[B:.*]] = stablehlo.multiply %arg1, %[[SPREAD]] : tensor<3x2xf32>
// CHECK: %[[C:.*]] = stablehlo.divide %arg2, %{{.*}} : tensor<4xbf16>
// CHECK: %[[D:.*]] = stablehlo.divide %arg0, %{{.*}} : tensor<4xf32>
// CHECK: %[[E:.*]] = stablehlo.divide %arg0, %arg0 : tensor<4xf32>
func.func @division_by_constant(%x: tensor<4xf32>, %y: tensor<3x2xf32>, %z: tensor<4xbf16>) -> (tensor<4xf32>, tensor<3x2xf32>, tensor<4xbf16>, tensor<4xf32>, tensor<4xf32>) {
  %three = stablehlo.constant dense<3.0> : tensor<4xf32>
  %a = stablehlo.divide %x, %three : tensor<4xf32>
  %two_four = stablehlo.constant dense<[2.0, 4.0]> : tensor<2xf32>
  %spread = stablehlo.broadcast_in_dim %two_four, dims = [1] : (tensor<2xf32>) -> tensor<3x2xf32>
  %b = stablehlo.divide %y, %spread : tensor<3x2xf32>
  %three_bf16 = stablehlo.constant dense<3.0> : tensor<4xbf16>
  %c = stablehlo.divide %z, %three_bf16 : tensor<4xbf16>
  %zero = stablehlo.constant dense<0.0> : tensor<4xf32>
  %d = stablehlo.divide %x, %zero : tensor<4xf32>
  %e = stablehlo.divide %x, %x : tensor<4xf32>
  return %a, %b, %c, %d, %e : tensor<4xf32>, tensor<3x2xf32>, tensor<4xbf16>, tensor<4xf32>, tensor<4xf32>
}

// -----

// clamp on complex numbers and on i1 is maximum then minimum (scalar bounds
// broadcast), which are defined there; the conversion's clamp compares
// numbers.
// CHECK-LABEL: func @clamp_as_extrema
// CHECK: %[[LO:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<complex<f32>>) -> tensor<3xcomplex<f32>>
// CHECK: %[[UP:.*]] = stablehlo.maximum %arg0, %[[LO]] : tensor<3xcomplex<f32>>
// CHECK: %[[C:.*]] = stablehlo.minimum %[[UP]], %arg2 : tensor<3xcomplex<f32>>
// CHECK: %[[B:.*]] = stablehlo.maximum %arg3, %arg4 : tensor<2xi1>
// CHECK: stablehlo.minimum %[[B]], %arg4 : tensor<2xi1>
// CHECK: stablehlo.clamp %arg5, %arg5, %arg5 : tensor<f32>
func.func @clamp_as_extrema(%x: tensor<3xcomplex<f32>>, %lo: tensor<complex<f32>>, %hi: tensor<3xcomplex<f32>>, %p: tensor<2xi1>, %q: tensor<2xi1>, %f: tensor<f32>) -> (tensor<3xcomplex<f32>>, tensor<2xi1>, tensor<f32>) {
  %c = stablehlo.clamp %lo, %x, %hi : (tensor<complex<f32>>, tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  %b = stablehlo.clamp %q, %p, %q : tensor<2xi1>
  %r = stablehlo.clamp %f, %f, %f : tensor<f32>
  return %c, %b, %r : tensor<3xcomplex<f32>>, tensor<2xi1>, tensor<f32>
}

// -----

// dot_general on i1 counts the true products in i32 and compares with 0.
// CHECK-LABEL: func @boolean_dot_general
// CHECK-DAG: %[[L:.*]] = stablehlo.convert %arg0 : (tensor<2x3xi1>) -> tensor<2x3xi32>
// CHECK-DAG: %[[R:.*]] = stablehlo.convert %arg1 : (tensor<3x4xi1>) -> tensor<3x4xi32>
// CHECK: %[[N:.*]] = stablehlo.dot_general %[[L]], %[[R]], contracting_dims = [1] x [0] : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi32>
// CHECK: %[[Z:.*]] = stablehlo.broadcast_in_dim %{{.*}}, dims = [] : (tensor<i32>) -> tensor<2x4xi32>
// CHECK: stablehlo.compare NE, %[[N]], %[[Z]] : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi1>
func.func @boolean_dot_general(%a: tensor<2x3xi1>, %b: tensor<3x4xi1>) -> tensor<2x4xi1> {
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xi1>, tensor<3x4xi1>) -> tensor<2x4xi1>
  return %r : tensor<2x4xi1>
}

// -----

// So does a convolution on i1.
// CHECK-LABEL: func @boolean_convolution
// CHECK: %[[N:.*]] = stablehlo.convolution(%{{.*}}, %{{.*}}) {{.*}} : (tensor<1x4x4x1xi32>, tensor<2x2x1x1xi32>) -> tensor<1x3x3x1xi32>
// CHECK: stablehlo.compare NE, %[[N]], %{{.*}} : (tensor<1x3x3x1xi32>, tensor<1x3x3x1xi32>) -> tensor<1x3x3x1xi1>
func.func @boolean_convolution(%x: tensor<1x4x4x1xi1>, %w: tensor<2x2x1x1xi1>) -> tensor<1x3x3x1xi1> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xi1>, tensor<2x2x1x1xi1>) -> tensor<1x3x3x1xi1>
  return %r : tensor<1x3x3x1xi1>
}

// -----

// custom_call @ApproxTopK sorts by the comparator it names and keeps the
// first k; the comparator function, named by nothing else, goes.
// CHECK-LABEL: module
// CHECK-NOT: func.func @top_k_gt_f32_comparator
// CHECK-LABEL: func.func public @approx_top_k
// CHECK: %[[S:.*]]:2 = "stablehlo.sort"(%arg0, %[[I:.*]]) <{dimension = 1 : i64, is_stable = true}> ({
// CHECK: stablehlo.compare GT
// CHECK: %[[V:.*]] = stablehlo.slice %[[S]]#0 [0:8, 0:5]
// CHECK: %[[X:.*]] = stablehlo.slice %[[S]]#1 [0:8, 0:5]
// CHECK: return %[[V]], %[[X]]
module {
  func.func @top_k_gt_f32_comparator(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>) -> tensor<i1> {
    %0 = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %0 : tensor<i1>
  }
  func.func public @approx_top_k(%x: tensor<8x256xf32>) -> (tensor<8x5xf32>, tensor<8x5xi32>) {
    %i = stablehlo.iota dim = 1 : tensor<8x256xi32>
    %c = stablehlo.constant dense<-1> : tensor<i32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1:2 = stablehlo.custom_call @ApproxTopK(%x, %i, %cst, %c) {backend_config = "", called_computations = [@top_k_gt_f32_comparator], mhlo.backend_config = {aggregate_to_topk = true, is_fallback = true, recall_target = 0.949999988 : f32, reduction_dim = 1 : i64, reduction_input_size_override = -1 : i64, top_k = 5 : i64}} : (tensor<8x256xf32>, tensor<8x256xi32>, tensor<f32>, tensor<i32>) -> (tensor<8x5xf32>, tensor<8x5xi32>)
    return %1#0, %1#1 : tensor<8x5xf32>, tensor<8x5xi32>
  }
}
