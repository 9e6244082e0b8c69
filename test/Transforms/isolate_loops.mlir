// Values a while loop uses from outside become loop-carried.
// RUN: stablehlo-to-tvm %s --stablehlo-isolate-loops | FileCheck %s

// CHECK-LABEL: func @captures
// CHECK: %[[R:.*]]:3 = stablehlo.while(%[[I:.*]] = %{{.*}}, %[[V:.*]] = %arg0, %[[S:.*]] = %arg1)
// CHECK: stablehlo.compare LT, %[[I]]
// CHECK: stablehlo.broadcast_in_dim %[[S]]
// CHECK: stablehlo.return %{{.*}}, %{{.*}}, %[[S]]
// CHECK: return %[[R]]#1
func.func @captures(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4xf32>
   cond {
    %n = stablehlo.constant dense<10> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %v1 = stablehlo.multiply %v, %b : tensor<4xf32>
    stablehlo.return %i1, %v1 : tensor<i32>, tensor<4xf32>
  }
  return %r#1 : tensor<4xf32>
}
