// Pretty syntax, as jaxlib prints it, survives a print/parse round trip, and
// the generic form reads back to the same module.
// RUN: stablehlo-to-tvm %s | stablehlo-to-tvm | FileCheck %s
// RUN: stablehlo-to-tvm %s --mlir-print-op-generic | stablehlo-to-tvm | FileCheck %s
// RUN: stablehlo-to-tvm %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func @unary
func.func @unary(%x: tensor<2x3xf32>, %c: tensor<3xcomplex<f32>>, %b: tensor<4xi1>) -> tensor<2x3xf32> {
  // CHECK: stablehlo.abs %{{.*}} : tensor<2x3xf32>
  %0 = stablehlo.abs %x : tensor<2x3xf32>
  // CHECK: stablehlo.abs %{{.*}} : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %1 = stablehlo.abs %c : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  // CHECK: stablehlo.negate %{{.*}} : tensor<2x3xf32>
  %2 = stablehlo.negate %0 : tensor<2x3xf32>
  // CHECK: stablehlo.exponential %{{.*}} : tensor<2x3xf32>
  %3 = stablehlo.exponential %2 : tensor<2x3xf32>
  // CHECK: stablehlo.log %{{.*}} : tensor<2x3xf32>
  %4 = stablehlo.log %3 : tensor<2x3xf32>
  // CHECK: stablehlo.tanh %{{.*}} : tensor<2x3xf32>
  %5 = stablehlo.tanh %4 : tensor<2x3xf32>
  // CHECK: stablehlo.sqrt %{{.*}} : tensor<2x3xf32>
  %6 = stablehlo.sqrt %5 : tensor<2x3xf32>
  // CHECK: stablehlo.rsqrt %{{.*}} : tensor<2x3xf32>
  %7 = stablehlo.rsqrt %6 : tensor<2x3xf32>
  // CHECK: stablehlo.logistic %{{.*}} : tensor<2x3xf32>
  %8 = stablehlo.logistic %7 : tensor<2x3xf32>
  // CHECK: stablehlo.not %{{.*}} : tensor<4xi1>
  %9 = stablehlo.not %b : tensor<4xi1>
  // CHECK: stablehlo.convert %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xbf16>
  %10 = stablehlo.convert %8 : (tensor<2x3xf32>) -> tensor<2x3xbf16>
  // CHECK: stablehlo.convert %{{.*}} : tensor<2x3xf32>
  %11 = stablehlo.convert %8 : tensor<2x3xf32>
  return %11 : tensor<2x3xf32>
}
// GENERIC-LABEL: "func.func"() <{function_type = (tensor<2x3xf32>, tensor<3xcomplex<f32>>, tensor<4xi1>) -> tensor<2x3xf32>, sym_name = "unary"}>
// GENERIC: "stablehlo.abs"(%{{.*}}) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// GENERIC: "stablehlo.abs"(%{{.*}}) : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
// GENERIC: "stablehlo.convert"(%{{.*}}) : (tensor<2x3xf32>) -> tensor<2x3xbf16>

// CHECK-LABEL: func @binary
func.func @binary(%x: tensor<4xf32>, %y: tensor<4xf32>, %i: tensor<4xui32>, %b: tensor<4xi1>) -> tensor<4xf32> {
  // CHECK: stablehlo.add %{{.*}}, %{{.*}} : tensor<4xf32>
  %0 = stablehlo.add %x, %y : tensor<4xf32>
  // CHECK: stablehlo.subtract %{{.*}}, %{{.*}} : tensor<4xf32>
  %1 = stablehlo.subtract %0, %y : tensor<4xf32>
  // CHECK: stablehlo.multiply %{{.*}}, %{{.*}} : tensor<4xf32>
  %2 = stablehlo.multiply %1, %y : tensor<4xf32>
  // CHECK: stablehlo.divide %{{.*}}, %{{.*}} : tensor<4xf32>
  %3 = stablehlo.divide %2, %y : tensor<4xf32>
  // CHECK: stablehlo.maximum %{{.*}}, %{{.*}} : tensor<4xf32>
  %4 = stablehlo.maximum %3, %y : tensor<4xf32>
  // CHECK: stablehlo.minimum %{{.*}}, %{{.*}} : tensor<4xf32>
  %5 = stablehlo.minimum %4, %y : tensor<4xf32>
  // CHECK: stablehlo.and %{{.*}}, %{{.*}} : tensor<4xui32>
  %6 = stablehlo.and %i, %i : tensor<4xui32>
  // CHECK: stablehlo.or %{{.*}}, %{{.*}} : tensor<4xi1>
  %7 = stablehlo.or %b, %b : tensor<4xi1>
  // CHECK: stablehlo.xor %{{.*}}, %{{.*}} : tensor<4xui32>
  %8 = stablehlo.xor %6, %i : tensor<4xui32>
  return %5 : tensor<4xf32>
}

// CHECK-LABEL: func @compare_select
func.func @compare_select(%x: tensor<4xf32>, %y: tensor<4xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<4xf32> {
  // CHECK: stablehlo.compare LT, %{{.*}}, %{{.*}}, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %0 = stablehlo.compare LT, %x, %y, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: stablehlo.compare GE, %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = stablehlo.compare GE, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: stablehlo.compare EQ, %{{.*}}, %{{.*}}, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %2 = stablehlo.compare EQ, %i, %j, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  // CHECK: stablehlo.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xf32>
  %3 = stablehlo.select %0, %x, %y : tensor<4xi1>, tensor<4xf32>
  // CHECK: stablehlo.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<i1>, tensor<4xf32>
  %4 = stablehlo.select %2, %3, %y : tensor<i1>, tensor<4xf32>
  return %4 : tensor<4xf32>
}
// GENERIC-LABEL: sym_name = "compare_select"
// GENERIC: "stablehlo.compare"(%{{.*}}, %{{.*}}) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}>
// GENERIC: "stablehlo.compare"(%{{.*}}, %{{.*}}) <{comparison_direction = #stablehlo<comparison_direction GE>}>

// CHECK-LABEL: func @data_movement
func.func @data_movement(%x: tensor<2x3xf32>, %s: tensor<f32>) -> tensor<6x2xf32> {
  // CHECK: %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  // CHECK: %c = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %c = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  // CHECK: stablehlo.iota dim = 1 : tensor<2x3xi32>
  %0 = stablehlo.iota dim = 1 : tensor<2x3xi32>
  // CHECK: stablehlo.broadcast_in_dim %{{.*}}, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  %1 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  // CHECK: stablehlo.broadcast_in_dim %{{.*}}, dims = [2, 0] : (tensor<2x3xf32>) -> tensor<3x4x2xf32>
  %2 = stablehlo.broadcast_in_dim %x, dims = [2, 0] : (tensor<2x3xf32>) -> tensor<3x4x2xf32>
  // CHECK: stablehlo.reshape %{{.*}} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %3 = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // CHECK: stablehlo.transpose %{{.*}}, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %4 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // CHECK: stablehlo.slice %{{.*}} [0:2, 1:3] : (tensor<2x3xf32>) -> tensor<2x2xf32>
  %5 = stablehlo.slice %x [0:2, 1:3] : (tensor<2x3xf32>) -> tensor<2x2xf32>
  // CHECK: stablehlo.slice %{{.*}} [0:3:2, 0:2] : (tensor<3x2xf32>) -> tensor<2x2xf32>
  %6 = stablehlo.slice %4 [0:3:2, 0:2] : (tensor<3x2xf32>) -> tensor<2x2xf32>
  // CHECK: stablehlo.concatenate %{{.*}}, %{{.*}}, %{{.*}}, dim = 0 : (tensor<3x2xf32>, tensor<3x2xf32>, tensor<0x2xf32>) -> tensor<6x2xf32>
  %empty = stablehlo.slice %3 [0:0, 0:2] : (tensor<3x2xf32>) -> tensor<0x2xf32>
  %7 = stablehlo.concatenate %3, %4, %empty, dim = 0 : (tensor<3x2xf32>, tensor<3x2xf32>, tensor<0x2xf32>) -> tensor<6x2xf32>
  return %7 : tensor<6x2xf32>
}
// GENERIC-LABEL: sym_name = "data_movement"
// GENERIC: "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
// GENERIC: "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<2x3xi32>
// GENERIC: "stablehlo.broadcast_in_dim"(%{{.*}}) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x3xf32>
// GENERIC: "stablehlo.transpose"(%{{.*}}) <{permutation = array<i64: 1, 0>}>
// GENERIC: "stablehlo.slice"(%{{.*}}) <{limit_indices = array<i64: 2, 3>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}>
// GENERIC: "stablehlo.concatenate"(%{{.*}}, %{{.*}}, %{{.*}}) <{dimension = 0 : i64}>

// CHECK-LABEL: func @dot_general
func.func @dot_general(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<5x2x3xbf16>, %d: tensor<5x3x4xbf16>) -> tensor<5x2x4xf32> {
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<5x2x3xbf16>, tensor<5x3x4xbf16>) -> tensor<5x2x4xf32>
  %1 = stablehlo.dot_general %c, %d, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<5x2x3xbf16>, tensor<5x3x4xbf16>) -> tensor<5x2x4xf32>
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [] x [], precision = [HIGHEST, HIGH] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x3x3x4xf32>
  %2 = stablehlo.dot_general %a, %b, contracting_dims = [] x [], precision = [HIGHEST, HIGH] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x3x3x4xf32>
  return %1 : tensor<5x2x4xf32>
}
// GENERIC-LABEL: sym_name = "dot_general"
// GENERIC: "stablehlo.dot_general"(%{{.*}}, %{{.*}}) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}>
// GENERIC: "stablehlo.dot_general"(%{{.*}}, %{{.*}}) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}>
// GENERIC: "stablehlo.dot_general"(%{{.*}}, %{{.*}}) <{dot_dimension_numbers = #stablehlo.dot<>, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGH>]}>

// CHECK-LABEL: func @reduce
func.func @reduce(%x: tensor<2x4xf32>, %i: tensor<2x4xi32>) -> (tensor<2xf32>, tensor<4xf32>, tensor<4xi32>) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
  %0 = stablehlo.reduce(%x init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
  // A body that is not a single op on its arguments keeps the full form.
  // CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}) across dimensions = [0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK-NEXT: reducer(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>) {
  // CHECK-NEXT:   %[[M:.*]] = stablehlo.maximum %[[B]], %[[A]] : tensor<f32>
  // CHECK-NEXT:   stablehlo.return %[[M]] : tensor<f32>
  %1 = stablehlo.reduce(%x init: %cst) across dimensions = [0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %m = stablehlo.maximum %b, %a : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }
  // Two operands: block arguments pair up as (accumulator, element) per input.
  // CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}), (%{{.*}} init: %{{.*}}) across dimensions = [0] : (tensor<2x4xf32>, tensor<2x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
  // CHECK-NEXT: reducer(%[[A1:.*]]: tensor<f32>, %[[B1:.*]]: tensor<f32>) (%[[A2:.*]]: tensor<i32>, %[[B2:.*]]: tensor<i32>)
  // CHECK: stablehlo.return %{{.*}}, %[[A2]] : tensor<f32>, tensor<i32>
  %2:2 = stablehlo.reduce(%x init: %cst), (%i init: %c) across dimensions = [0] : (tensor<2x4xf32>, tensor<2x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a1: tensor<f32>, %b1: tensor<f32>) (%a2: tensor<i32>, %b2: tensor<i32>) {
    %s = stablehlo.add %a1, %b1 : tensor<f32>
    stablehlo.return %s, %a2 : tensor<f32>, tensor<i32>
  }
  return %0, %1, %2#1 : tensor<2xf32>, tensor<4xf32>, tensor<4xi32>
}
// GENERIC-LABEL: sym_name = "reduce"
// GENERIC: "stablehlo.reduce"(%{{.*}}, %{{.*}}) <{dimensions = array<i64: 1>}> ({
// GENERIC-NEXT: ^bb0(%[[X:.*]]: tensor<f32>, %[[Y:.*]]: tensor<f32>):
// GENERIC-NEXT: "stablehlo.add"(%[[X]], %[[Y]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// GENERIC: "stablehlo.reduce"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{dimensions = array<i64: 0>}> ({
// GENERIC-NEXT: ^bb0(%{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>):
