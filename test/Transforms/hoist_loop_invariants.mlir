// What a while loop's iterations share is computed once, before the loop.
// RUN: stablehlo-to-tvm %s --stablehlo-hoist-loop-invariants | FileCheck %s

// A weight the body hands on unchanged leaves the loop; its transpose and
// the product's slice of it (a chain) move before the loop; the broadcast
// of a scalar, the constant and the square of the scalar (too small to be
// worth a buffer) stay; so does the product, which reads the carried
// vector.
// CHECK-LABEL: func @decode
// CHECK: %[[T:.*]] = stablehlo.transpose %arg1
// CHECK: %[[S:.*]] = stablehlo.slice %[[T]]
// CHECK: %[[R:.*]]:2 = stablehlo.while(%[[I:.*]] = %{{.*}}, %[[V:.*]] = %arg0) : tensor<i32>, tensor<4xf32>
// CHECK: do
// CHECK: stablehlo.constant dense<1>
// CHECK: stablehlo.dot_general %[[V]], %[[S]]
// CHECK: %[[SQ:.*]] = stablehlo.multiply %arg2, %arg2 : tensor<f32>
// CHECK: stablehlo.broadcast_in_dim %[[SQ]]
// CHECK: stablehlo.return %{{.*}}, %{{.*}} : tensor<i32>, tensor<4xf32>
// CHECK: return %[[R]]#1, %arg1
func.func @decode(%x: tensor<4xf32>, %w: tensor<64x32xf32>, %s: tensor<f32>) -> (tensor<4xf32>, tensor<64x32xf32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %v = %x, %wi = %w) : tensor<i32>, tensor<4xf32>, tensor<64x32xf32>
   cond {
    %n = stablehlo.constant dense<10> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %t = stablehlo.transpose %wi, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %sl = stablehlo.slice %t [0:4, 0:4] : (tensor<32x64xf32>) -> tensor<4x4xf32>
    %p = stablehlo.dot_general %v, %sl, contracting_dims = [0] x [0] : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
    %sq = stablehlo.multiply %s, %s : tensor<f32>
    %b = stablehlo.broadcast_in_dim %sq, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %v1 = stablehlo.multiply %p, %b : tensor<4xf32>
    stablehlo.return %i1, %v1, %wi : tensor<i32>, tensor<4xf32>, tensor<64x32xf32>
  }
  return %r#1, %r#2 : tensor<4xf32>, tensor<64x32xf32>
}

// An inner loop's invariant work leaves both loops when it reads only what
// the outer loop hands on unchanged; a reduce (a region of its own) moves
// too, with a copy of the constant it starts from. The inner loop itself
// stays: loops are not moved.
// CHECK-LABEL: func @nested
// CHECK: %[[ZERO:.*]] = stablehlo.constant dense<0.0
// CHECK: stablehlo.reduce(%arg1 init: %[[ZERO]])
// CHECK: stablehlo.while
// CHECK: stablehlo.while
// CHECK-NOT: stablehlo.reduce
// CHECK: return
func.func @nested(%x: tensor<f32>, %w: tensor<2048xf32>) -> tensor<f32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %acc = %x, %wo = %w) : tensor<i32>, tensor<f32>, tensor<2048xf32>
   cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %c1 : tensor<i32>
    %q:2 = stablehlo.while(%j = %c0, %a = %acc) : tensor<i32>, tensor<f32>
     cond {
      %m = stablehlo.constant dense<4> : tensor<i32>
      %lt2 = stablehlo.compare LT, %j, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt2 : tensor<i1>
    } do {
      %zero = stablehlo.constant dense<0.0> : tensor<f32>
      %sum = stablehlo.reduce(%wo init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<2048xf32>, tensor<f32>) -> tensor<f32>
      %a1 = stablehlo.add %a, %sum : tensor<f32>
      %j1 = stablehlo.add %j, %c1 : tensor<i32>
      stablehlo.return %j1, %a1 : tensor<i32>, tensor<f32>
    }
    stablehlo.return %i1, %q#1, %wo : tensor<i32>, tensor<f32>, tensor<2048xf32>
  }
  return %r#1 : tensor<f32>
}

// A transcendental function of a small invariant (256 phases) is worth a
// buffer: its exp leaves the loop with the multiply it reads; a cheap op
// of the same size that no moved op reads stays.
// CHECK-LABEL: func @phases
// CHECK: %[[M:.*]] = stablehlo.multiply %arg1, %arg1 : tensor<256xf32>
// CHECK: %[[E:.*]] = stablehlo.exponential %[[M]]
// CHECK: stablehlo.while
// CHECK: do
// CHECK: stablehlo.add %arg1, %arg1 : tensor<256xf32>
// CHECK: stablehlo.multiply %{{.*}}, %[[E]]
// CHECK-NOT: stablehlo.exponential
// CHECK: return
func.func @phases(%x: tensor<256xf32>, %p: tensor<256xf32>) -> tensor<256xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %v = %x, %pi = %p) : tensor<i32>, tensor<256xf32>, tensor<256xf32>
   cond {
    %n = stablehlo.constant dense<50> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %sq = stablehlo.multiply %pi, %pi : tensor<256xf32>
    %e = stablehlo.exponential %sq : tensor<256xf32>
    %twice = stablehlo.add %pi, %pi : tensor<256xf32>
    %s = stablehlo.add %v, %twice : tensor<256xf32>
    %v1 = stablehlo.multiply %s, %e : tensor<256xf32>
    stablehlo.return %i1, %v1, %pi : tensor<i32>, tensor<256xf32>, tensor<256xf32>
  }
  return %r#1 : tensor<256xf32>
}
