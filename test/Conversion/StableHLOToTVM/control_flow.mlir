// while becomes tvm.while and if/case tvm.case: the regions move over and
// are converted in place.
// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm --split-input-file | FileCheck %s

// CHECK-LABEL: func @count
// CHECK: %[[R:.*]]:2 = "tvm.while"(%{{.*}}, %arg0) ({
// CHECK: ^bb0(%[[I:.*]]: tensor<i32>, %{{.*}}: tensor<4xf32>):
// CHECK: %[[LT:.*]] = tvm.less %[[I]]
// CHECK: tvm.yield %[[LT]] : tensor<i1>
// CHECK: }, {
// CHECK: tvm.add
// CHECK: tvm.multiply
// CHECK: tvm.yield %{{.*}}, %{{.*}} : tensor<i32>, tensor<4xf32>
// CHECK: return %[[R]]#1
func.func @count(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4xf32>
   cond {
    %n = stablehlo.constant dense<10> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %v1 = stablehlo.multiply %v, %v : tensor<4xf32>
    stablehlo.return %i1, %v1 : tensor<i32>, tensor<4xf32>
  }
  return %r#1 : tensor<4xf32>
}

// -----

// if is a two-branch case on 0 for true, 1 for false; branches may use
// values from outside.
// CHECK-LABEL: func @choose
// CHECK: %[[NOT:.*]] = tvm.logical_not %arg0
// CHECK: %[[INDEX:.*]] = tvm.astype %[[NOT]] {dtype = i32}
// CHECK: %[[R:.*]] = "tvm.case"(%[[INDEX]]) ({
// CHECK: tvm.exp %arg1
// CHECK: tvm.yield
// CHECK: }, {
// CHECK: tvm.yield %arg1
// CHECK: return %[[R]]
func.func @choose(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.if"(%p) ({
    %e = stablehlo.exponential %x : tensor<4xf32>
    stablehlo.return %e : tensor<4xf32>
  }, {
    stablehlo.return %x : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Calls to public functions (left by the inliner) stay calls.
// CHECK-LABEL: func.func @calls
// CHECK: %[[R:.*]]:2 = tvm.call @helper(%arg0) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
// CHECK: return %[[R]]#1
func.func @calls(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0:2 = call @helper(%x) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0#1 : tensor<2xf32>
}
func.func @helper(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %0 = stablehlo.negate %x : tensor<2xf32>
  return %x, %0 : tensor<2xf32>, tensor<2xf32>
}
