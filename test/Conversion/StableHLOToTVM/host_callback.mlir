// JAX's Python callbacks become packed calls of stablehlo_tvm.host_callback
// with the callback's index; one without results stays unconverted.
// RUN: stablehlo-to-tvm %s --split-input-file --convert-stablehlo-to-tvm | FileCheck %s

// CHECK-LABEL: func.func @pure_callback
// CHECK: %[[R:.*]]:2 = tvm.call_dps_packed "stablehlo_tvm.host_callback"(%arg0, %arg1) scalars = [3]
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @pure_callback(%x: tensor<3xf32>, %i: tensor<i32>) -> (tensor<3xf32>, tensor<i1>) {
  %0:2 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%x, %i) {backend_config = "", mhlo.backend_config = {index = 3 : ui64}} : (tensor<3xf32>, tensor<i32>) -> (tensor<3xf32>, tensor<i1>)
  return %0#0, %0#1 : tensor<3xf32>, tensor<i1>
}

// -----

// CHECK-LABEL: func.func @no_results
// CHECK: stablehlo.custom_call @xla_ffi_python_cpu_callback
func.func @no_results(%x: tensor<3xf32>) -> tensor<3xf32> {
  stablehlo.custom_call @xla_ffi_python_cpu_callback(%x) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}} : (tensor<3xf32>) -> ()
  return %x : tensor<3xf32>
}
