// RUN: stablehlo-to-tvm %s --stablehlo-expose-effects --split-input-file | FileCheck %s

// A result-less host callback in the entry's body gets a tensor<0xi8>
// result, returned after the entry's own results and counted.
// CHECK-LABEL: func.func @main
// CHECK-SAME: -> (tensor<f32> {jax.result_info = "result"}, tensor<0xi8>, tensor<0xi8>)
// CHECK-SAME: tvm.effect_results = 2 : i64
// CHECK: %[[A:.*]] = stablehlo.custom_call @xla_ffi_python_cpu_callback(%arg0) {{.*}} : (tensor<f32>) -> tensor<0xi8>
// CHECK: %[[B:.*]] = stablehlo.custom_call @xla_ffi_python_cpu_callback(%{{.*}}) {{.*}} : (tensor<f32>) -> tensor<0xi8>
// CHECK: return %{{.*}}, %[[A]], %[[B]] : tensor<f32>, tensor<0xi8>, tensor<0xi8>
func.func @main(%x: tensor<f32>) -> (tensor<f32> {jax.result_info = "result"}) {
  stablehlo.custom_call @xla_ffi_python_cpu_callback(%x) {has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}} : (tensor<f32>) -> ()
  %y = stablehlo.add %x, %x : tensor<f32>
  stablehlo.custom_call @xla_ffi_python_cpu_callback(%y) {has_side_effect = true, mhlo.backend_config = {index = 1 : ui64}} : (tensor<f32>) -> ()
  return %y : tensor<f32>
}

// -----

// Inside a loop it stays, with the reason the import will report.
// CHECK-LABEL: func.func @in_loop
// CHECK-NOT: tvm.effect_results
// CHECK: stablehlo.custom_call @xla_ffi_python_cpu_callback(%{{.*}}) {{.*}}tvm.unsupported_reason = "a callback without results, such as jax.debug.print, inside a loop or a branch"{{.*}} : (tensor<i32>) -> ()
func.func @in_loop(%n: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.while(%i = %n) : tensor<i32>
   cond {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare LT, %i, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    stablehlo.custom_call @xla_ffi_python_cpu_callback(%i) {has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}} : (tensor<i32>) -> ()
    %one = stablehlo.constant dense<1> : tensor<i32>
    %2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %2 : tensor<i32>
  }
  return %0 : tensor<i32>
}
