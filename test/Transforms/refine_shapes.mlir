// Shapes a program computes from static shapes become static: the shape
// arithmetic is evaluated, each op's result takes the shape its operands
// give, and dynamic ops with known shape operands become static ones.
// RUN: stablehlo-to-tvm %s --stablehlo-refine-shapes --split-input-file --verify-diagnostics | FileCheck %s

// get_dimension_size of a static dimension, through JAX's shape arithmetic,
// into dynamic_broadcast_in_dim and dynamic_reshape.
// CHECK-LABEL: func.func @broadcast_and_reshape
// CHECK-SAME: -> tensor<15xf32>
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %{{.*}}, dims = [] : (tensor<f32>) -> tensor<5x3xf32>
// CHECK: %[[M:.*]] = stablehlo.maximum %arg0, %[[B]] : tensor<5x3xf32>
// CHECK: %[[R:.*]] = stablehlo.reshape %[[M]] : (tensor<5x3xf32>) -> tensor<15xf32>
// CHECK: return %[[R]]
// CHECK-NOT: get_dimension_size
func.func @broadcast_and_reshape(%x: tensor<5x3xf32>) -> tensor<?xf32> {
  %c3 = stablehlo.constant dense<3> : tensor<1xi32>
  %c3s = stablehlo.constant dense<3> : tensor<i32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<5x3xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %shape = stablehlo.concatenate %n1, %c3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %b = stablehlo.dynamic_broadcast_in_dim %zero, %shape, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x3xf32>
  %m = stablehlo.maximum %x, %b : (tensor<5x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  %total = stablehlo.multiply %n, %c3s : tensor<i32>
  %total1 = stablehlo.reshape %total : (tensor<i32>) -> tensor<1xi32>
  %r = stablehlo.dynamic_reshape %m, %total1 : (tensor<?x3xf32>, tensor<1xi32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// Each op's shape rule: dot_general, transpose, concatenate, reduce, pad,
// slice of a dynamic operand made static.
// CHECK-LABEL: func.func @rules
// CHECK-SAME: -> tensor<5xf32>
// CHECK: stablehlo.dot_general {{.*}} -> tensor<5x7xf32>
// CHECK: stablehlo.transpose {{.*}} -> tensor<7x5xf32>
// CHECK: stablehlo.concatenate {{.*}} -> tensor<14x5xf32>
// CHECK: stablehlo.reduce{{.*}} -> tensor<5xf32>
// CHECK: stablehlo.pad {{.*}} -> tensor<10xf32>
// CHECK: stablehlo.slice {{.*}} -> tensor<5xf32>
func.func @rules(%x: tensor<5x3xf32>, %w: tensor<3x7xf32>) -> tensor<?xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<5x3xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %c3 = stablehlo.constant dense<3> : tensor<1xi32>
  %shape = stablehlo.concatenate %n1, %c3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %xd = stablehlo.dynamic_reshape %x, %shape : (tensor<5x3xf32>, tensor<2xi32>) -> tensor<?x3xf32>
  %d = stablehlo.dot_general %xd, %w, contracting_dims = [1] x [0] : (tensor<?x3xf32>, tensor<3x7xf32>) -> tensor<?x7xf32>
  %t = stablehlo.transpose %d, dims = [1, 0] : (tensor<?x7xf32>) -> tensor<7x?xf32>
  %c = stablehlo.concatenate %t, %t, dim = 0 : (tensor<7x?xf32>, tensor<7x?xf32>) -> tensor<14x?xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%c init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<14x?xf32>, tensor<f32>) -> tensor<?xf32>
  %p = stablehlo.pad %s, %zero, low = [1], high = [0], interior = [1] : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  %sl = stablehlo.slice %p [1:10:2] : (tensor<?xf32>) -> tensor<?xf32>
  return %sl : tensor<?xf32>
}

// -----

// A loop carries the refined types through its regions; a conditional takes
// its branches'.
// CHECK-LABEL: func.func @control_flow
// CHECK: stablehlo.while(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : tensor<i32>, tensor<4xf32>
// CHECK: "stablehlo.if"
// CHECK: }) : (tensor<i1>) -> tensor<4xf32>
func.func @control_flow(%x: tensor<4xf32>, %p: tensor<i1>) -> tensor<?xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<4xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %xd = stablehlo.dynamic_reshape %x, %n1 : (tensor<4xf32>, tensor<1xi32>) -> tensor<?xf32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %v = %xd) : tensor<i32>, tensor<?xf32>
   cond {
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    %w = stablehlo.add %v, %v : tensor<?xf32>
    stablehlo.return %next, %w : tensor<i32>, tensor<?xf32>
  }
  %c = "stablehlo.if"(%p) ({
    stablehlo.return %r#1 : tensor<?xf32>
  }, {
    %neg = stablehlo.negate %r#1 : tensor<?xf32>
    stablehlo.return %neg : tensor<?xf32>
  }) : (tensor<i1>) -> tensor<?xf32>
  return %c : tensor<?xf32>
}

// -----

// A shape assertion that holds is removed.
// CHECK-LABEL: func.func @assertion_holds
// CHECK-NOT: shape_assertion
func.func @assertion_holds(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %one = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<3x4xf32>) -> tensor<i32>
  %ok = stablehlo.compare GE, %n, %one, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%ok, %n) {error_message = "Expected value >= 1 for 'b' = {0}", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  return %x : tensor<3x4xf32>
}

// -----

// One that fails is an error with JAX's message, its placeholders filled in.
func.func @assertion_fails(%x: tensor<0x4xf32>) -> tensor<0x4xf32> {
  %one = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<0x4xf32>) -> tensor<i32>
  %ok = stablehlo.compare GE, %n, %one, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  // expected-error @+1 {{Expected value >= 1 for 'b' = 0}}
  stablehlo.custom_call @shape_assertion(%ok, %n) {error_message = "Expected value >= 1 for 'b' = {0}", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  return %x : tensor<0x4xf32>
}

// -----

// A result type the operands contradict is an error.
func.func @conflict(%x: tensor<5x3xf32>) -> tensor<?xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<5x3xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %c = stablehlo.constant dense<4> : tensor<1xi32>
  %shape = stablehlo.concatenate %n1, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{disagrees with its operands' shapes}}
  %b = stablehlo.dynamic_broadcast_in_dim %zero, %shape, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x3xf32>
  %r = stablehlo.reduce(%b init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<?x3xf32>, tensor<f32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// Shapes that depend on data stay dynamic (without specializing, that is
// not an error here).
// CHECK-LABEL: func.func @data_dependent
// CHECK: stablehlo.dynamic_iota {{.*}} -> tensor<?xi32>
func.func @data_dependent(%n: tensor<1xi32>) -> tensor<?xi32> {
  %r = stablehlo.dynamic_iota %n, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}

// -----

// JAX's reduce_window over symbolic shapes (cumsum) is a custom call; with
// its window operands known it is a reduce_window with the callee's body.
// CHECK-LABEL: func.func @cumsum
// CHECK: %[[R:.*]] = "stablehlo.reduce_window"(%arg0, %{{.*}}) <{base_dilations = array<i64: 1, 1>, padding = dense<{{\[\[}}4, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 5, 1>, window_strides = array<i64: 1, 1>}> ({
// CHECK: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
// CHECK: %[[S:.*]] = stablehlo.add %[[A]], %[[B]] : tensor<f32>
// CHECK: stablehlo.return %[[S]] : tensor<f32>
// CHECK: }) : (tensor<5x3xf32>, tensor<f32>) -> tensor<5x3xf32>
// CHECK: return %[[R]]
func.func @cumsum(%x: tensor<5x3xf32>) -> tensor<?x3xf32> {
  %c1 = stablehlo.constant dense<1> : tensor<1xi32>
  %c0 = stablehlo.constant dense<0> : tensor<1xi32>
  %m1 = stablehlo.constant dense<-1> : tensor<i32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<5x3xf32>) -> tensor<i32>
  %low = stablehlo.add %n, %m1 : tensor<i32>
  %low1 = stablehlo.reshape %low : (tensor<i32>) -> tensor<1xi32>
  %row0 = stablehlo.concatenate %low1, %c0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %row0r = stablehlo.reshape %row0 : (tensor<2xi32>) -> tensor<1x2xi32>
  %row1 = stablehlo.concatenate %c0, %c0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %row1r = stablehlo.reshape %row1 : (tensor<2xi32>) -> tensor<1x2xi32>
  %padding = stablehlo.concatenate %row0r, %row1r, dim = 0 : (tensor<1x2xi32>, tensor<1x2xi32>) -> tensor<2x2xi32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %window = stablehlo.concatenate %n1, %c1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %ones = stablehlo.concatenate %c1, %c1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %r = stablehlo.custom_call @stablehlo.dynamic_reduce_window(%x, %zero, %window, %ones, %ones, %ones, %padding) {api_version = 2 : i32, called_computations = [@sum]} : (tensor<5x3xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %s = stablehlo.add %a, %b : tensor<f32>
  return %s : tensor<f32>
}
