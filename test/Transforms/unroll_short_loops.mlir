// RUN: stablehlo-to-tvm %s --stablehlo-unroll-short-loops --split-input-file | FileCheck %s

// Two trips: the body twice, the counter a constant in each copy, the
// carried value threaded through; the loop's result is the last copy's.
// CHECK-LABEL: func.func @two_trips
// CHECK-NOT: stablehlo.while
// CHECK: stablehlo.constant dense<0> : tensor<i32>
// CHECK: %[[I0:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK: %[[Y0:.*]] = stablehlo.multiply %arg0, %arg0
// CHECK: %[[C0:.*]] = stablehlo.convert %[[I0]] : (tensor<i32>) -> tensor<f32>
// CHECK: %[[Z0:.*]] = stablehlo.add %[[Y0]], %[[C0]]
// CHECK: %[[I1:.*]] = stablehlo.constant dense<1> : tensor<i32>
// CHECK: %[[Y1:.*]] = stablehlo.multiply %[[Z0]], %[[Z0]]
// CHECK: %[[C1:.*]] = stablehlo.convert %[[I1]] : (tensor<i32>) -> tensor<f32>
// CHECK: %[[Z1:.*]] = stablehlo.add %[[Y1]], %[[C1]]
// CHECK-NOT: stablehlo.add
// CHECK: return %[[Z1]]
func.func @two_trips(%x: tensor<f32>) -> tensor<f32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<f32>
  cond {
    %c2 = stablehlo.constant dense<2> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %y = stablehlo.multiply %v, %v : tensor<f32>
    %f = stablehlo.convert %i : (tensor<i32>) -> tensor<f32>
    %z = stablehlo.add %y, %f : tensor<f32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %j, %z : tensor<i32>, tensor<f32>
  }
  func.return %r#1 : tensor<f32>
}

// -----

// The bound on the left, an unsigned counter stepping by 3 from 1 while
// 10 > i: trips at 1, 4 and 7.
// CHECK-LABEL: func.func @unsigned_step_three
// CHECK-NOT: stablehlo.while
// CHECK-COUNT-3: stablehlo.subtract
// CHECK-NOT: stablehlo.subtract
func.func @unsigned_step_three(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c1 = stablehlo.constant dense<1> : tensor<ui8>
  %r:2 = stablehlo.while(%i = %c1, %v = %x) : tensor<ui8>, tensor<4xf32>
  cond {
    %c10 = stablehlo.constant dense<10> : tensor<ui8>
    %p = stablehlo.compare GT, %c10, %i, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %y = stablehlo.subtract %v, %x : tensor<4xf32>
    %c3 = stablehlo.constant dense<3> : tensor<ui8>
    %j = stablehlo.add %c3, %i : tensor<ui8>
    stablehlo.return %j, %y : tensor<ui8>, tensor<4xf32>
  }
  func.return %r#1 : tensor<4xf32>
}

// -----

// No trip: the results are the operands.
// CHECK-LABEL: func.func @no_trip
// CHECK-NOT: stablehlo.while
// CHECK: return %arg0
func.func @no_trip(%x: tensor<f32>) -> tensor<f32> {
  %c5 = stablehlo.constant dense<5> : tensor<i64>
  %r:2 = stablehlo.while(%i = %c5, %v = %x) : tensor<i64>, tensor<f32>
  cond {
    %c5b = stablehlo.constant dense<5> : tensor<i64>
    %p = stablehlo.compare NE, %i, %c5b, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %y = stablehlo.exponential %v : tensor<f32>
    %c1 = stablehlo.constant dense<1> : tensor<i64>
    %j = stablehlo.add %i, %c1 : tensor<i64>
    stablehlo.return %j, %y : tensor<i64>, tensor<f32>
  }
  func.return %r#1 : tensor<f32>
}

// -----

// Kept as loops: nine trips; a bound that is not a constant; a condition
// that does more than compare; a counter the body does not step by a
// constant; a body updating a slice (a scan's stacked output, updated in
// place in a loop). A loop over a large tensor is unrolled as any other.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-5: stablehlo.while
// CHECK-NOT: stablehlo.while
// CHECK-COUNT-2: stablehlo.sine %{{.*}} : tensor<256x257xf32>
func.func @kept(%x: tensor<f32>, %n: tensor<i32>, %big: tensor<256x257xf32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<256x257xf32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %a:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<f32>
  cond {
    %c9 = stablehlo.constant dense<9> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c9, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %y = stablehlo.sine %v : tensor<f32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %j, %y : tensor<i32>, tensor<f32>
  }
  %b:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<f32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %y = stablehlo.sine %v : tensor<f32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %j, %y : tensor<i32>, tensor<f32>
  }
  %c:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<f32>
  cond {
    %c2 = stablehlo.constant dense<2> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %q = stablehlo.compare GT, %v, %zero : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %both = stablehlo.and %p, %q : tensor<i1>
    stablehlo.return %both : tensor<i1>
  } do {
    %y = stablehlo.sine %v : tensor<f32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %j, %y : tensor<i32>, tensor<f32>
  }
  %d:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<f32>
  cond {
    %c2 = stablehlo.constant dense<2> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %y = stablehlo.sine %v : tensor<f32>
    %j = stablehlo.add %i, %i : tensor<i32>
    stablehlo.return %j, %y : tensor<i32>, tensor<f32>
  }
  %f:2 = stablehlo.while(%i = %c0, %v = %big) : tensor<i32>, tensor<256x257xf32>
  cond {
    %c2 = stablehlo.constant dense<2> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %row = stablehlo.constant dense<1.0> : tensor<1x257xf32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %u = stablehlo.dynamic_update_slice %v, %row, %i, %zero : (tensor<256x257xf32>, tensor<1x257xf32>, tensor<i32>, tensor<i32>) -> tensor<256x257xf32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %j, %u : tensor<i32>, tensor<256x257xf32>
  }
  %e:2 = stablehlo.while(%i = %c0, %v = %f#1) : tensor<i32>, tensor<256x257xf32>
  cond {
    %c2 = stablehlo.constant dense<2> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %y = stablehlo.sine %v : tensor<256x257xf32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %j, %y : tensor<i32>, tensor<256x257xf32>
  }
  func.return %a#1, %b#1, %c#1, %d#1, %e#1 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<256x257xf32>
}
