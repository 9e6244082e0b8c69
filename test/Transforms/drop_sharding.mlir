// RUN: stablehlo-to-tvm %s --allow-unregistered-dialect --stablehlo-drop-sharding | FileCheck %s

// CHECK-NOT: sdy.mesh
// CHECK-LABEL: func.func public @main
// CHECK-SAME: sdy.sharding
// CHECK: %[[M:.*]] = stablehlo.multiply %arg0, %arg0
// CHECK-NOT: sdy.sharding_constraint
// CHECK-NOT: sdy.reshard
// CHECK: %[[A:.*]] = stablehlo.add %[[M]], %[[M]]
// CHECK: return %[[A]]
module @jit_f {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=1]>, sym_name = "mesh"}> : () -> ()
  func.func public @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<4xf32>
    %1 = "sdy.sharding_constraint"(%0) <{sharding = #sdy.sharding<@mesh, [{"x"}]>}> : (tensor<4xf32>) -> tensor<4xf32>
    %2 = "sdy.reshard"(%1) <{sharding = #sdy.sharding<@mesh, [{}]>}> : (tensor<4xf32>) -> tensor<4xf32>
    %3 = stablehlo.add %2, %1 : tensor<4xf32>
    return %3 : tensor<4xf32>
  }
}
