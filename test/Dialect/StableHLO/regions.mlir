// Ops with bodies: sort, reduce_window, select_and_scatter, map, while, if,
// case. while has a pretty form; the others print generically, as in jaxlib.
// RUN: stablehlo-to-tvm %s | stablehlo-to-tvm | FileCheck %s
// RUN: stablehlo-to-tvm %s --mlir-print-op-generic | stablehlo-to-tvm | FileCheck %s
// RUN: stablehlo-to-tvm %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func @sort
func.func @sort(%x: tensor<6xf32>, %i: tensor<6xi32>) -> (tensor<6xf32>, tensor<6xi32>) {
  // CHECK: "stablehlo.sort"(%{{.*}}, %{{.*}}) <{dimension = 0 : i64, is_stable = true}> ({
  // CHECK: stablehlo.compare LT, %{{.*}}, %{{.*}}, TOTALORDER
  %0:2 = "stablehlo.sort"(%x, %i) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<6xf32>, tensor<6xi32>) -> (tensor<6xf32>, tensor<6xi32>)
  return %0#0, %0#1 : tensor<6xf32>, tensor<6xi32>
}

// CHECK-LABEL: func @pooling
func.func @pooling(%x: tensor<1x4x4x2xf32>, %g: tensor<1x2x2x2xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x4x4x2xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // CHECK: "stablehlo.reduce_window"(%{{.*}}, %{{.*}}) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  %0 = "stablehlo.reduce_window"(%x, %ninf) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<1x4x4x2xf32>, tensor<f32>) -> tensor<1x2x2x2xf32>
  // CHECK: "stablehlo.select_and_scatter"(%{{.*}}, %{{.*}}, %{{.*}}) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  // CHECK: stablehlo.compare GE
  // CHECK: }, {
  // CHECK: stablehlo.add
  %1 = "stablehlo.select_and_scatter"(%x, %g, %zero) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<1x4x4x2xf32>, tensor<1x2x2x2xf32>, tensor<f32>) -> tensor<1x4x4x2xf32>
  return %0, %1 : tensor<1x2x2x2xf32>, tensor<1x4x4x2xf32>
}

// CHECK-LABEL: func @map
func.func @map(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: "stablehlo.map"(%{{.*}}, %{{.*}}) <{dimensions = array<i64: 0>}> ({
  %0 = "stablehlo.map"(%x, %y) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.multiply %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @loop
func.func @loop(%x: tensor<5xf32>) -> tensor<5xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: %[[W:.*]]:2 = stablehlo.while(%[[I:.*]] = %{{.*}}, %[[V:.*]] = %{{.*}}) : tensor<i32>, tensor<5xf32>
  // CHECK-NEXT: cond {
  // CHECK: stablehlo.compare LT, %[[I]], %{{.*}}, SIGNED
  // CHECK: } do {
  // CHECK: stablehlo.return %{{.*}}, %{{.*}} : tensor<i32>, tensor<5xf32>
  %0:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<5xf32>
   cond {
    %c5 = stablehlo.constant dense<5> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %c5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %c1 : tensor<i32>
    %twice = stablehlo.add %v, %v : tensor<5xf32>
    stablehlo.return %next, %twice : tensor<i32>, tensor<5xf32>
  }
  return %0#1 : tensor<5xf32>
}
// GENERIC: "stablehlo.while"(%{{.*}}, %{{.*}}) ({
// GENERIC-NEXT: ^bb0(%{{.*}}: tensor<i32>, %{{.*}}: tensor<5xf32>):

// CHECK-LABEL: func @branches
func.func @branches(%p: tensor<i1>, %n: tensor<i32>, %x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  // CHECK: "stablehlo.if"(%{{.*}}) ({
  // CHECK: stablehlo.return %{{.*}} : tensor<3xf32>
  // CHECK: }, {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %x : tensor<3xf32>
  }, {
    %neg = stablehlo.negate %x : tensor<3xf32>
    stablehlo.return %neg : tensor<3xf32>
  }) : (tensor<i1>) -> tensor<3xf32>
  // CHECK: "stablehlo.case"(%{{.*}}) ({
  // CHECK: }, {
  // CHECK: }, {
  %1 = "stablehlo.case"(%n) ({
    stablehlo.return %x : tensor<3xf32>
  }, {
    %a = stablehlo.abs %x : tensor<3xf32>
    stablehlo.return %a : tensor<3xf32>
  }, {
    %e = stablehlo.exponential %x : tensor<3xf32>
    stablehlo.return %e : tensor<3xf32>
  }) : (tensor<i32>) -> tensor<3xf32>
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}
