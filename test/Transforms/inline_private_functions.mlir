// RUN: stablehlo-to-tvm %s --stablehlo-inline-private-functions --split-input-file --verify-diagnostics | FileCheck %s

// Nested private helpers are inlined innermost first and then erased; public
// functions stay, even when called.
// CHECK-LABEL: func.func public @main
// CHECK-NOT: call @relu
// CHECK-NOT: call @max0
// CHECK: %[[Z:.*]] = stablehlo.constant dense<0.000000e+00>
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %[[Z]]
// CHECK: %[[M:.*]] = stablehlo.maximum %arg0, %[[B]]
// CHECK: %[[P:.*]] = call @public_helper(%[[M]])
// CHECK: return %[[P]]
// CHECK-NOT: @relu
// CHECK-NOT: @max0
// CHECK: func.func public @public_helper
func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @relu(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = call @public_helper(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @max0(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @max0(%x: tensor<4xf32>) -> tensor<4xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.maximum %x, %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func public @public_helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// Calls inside regions are inlined too.
// CHECK-LABEL: func.func public @in_region
// CHECK: stablehlo.reduce
// CHECK: stablehlo.add
// CHECK-NOT: call
func.func public @in_region(%x: tensor<4xf32>) -> tensor<f32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %cst) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %s = func.call @plus(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  return %0 : tensor<f32>
}
func.func private @plus(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func public @recursive(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @loop(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{recursive call to private function @loop cannot be inlined}}
  %0 = call @loop(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
