// RUN: stablehlo-to-tvm %s --allow-unregistered-dialect --stablehlo-lower-quantized | FileCheck %s

// An op of an unregistered dialect (no Dialect object) in a quantized
// reduction's body is left as it is, on the storage type; the pass used to
// dereference its missing dialect (found by scripts/fuzz.sh).
// CHECK-LABEL: func.func @unregistered_op_in_body
// CHECK: stablehlo.reduce(%arg0 init: %arg1) across dimensions = [0] : (tensor<4xi8>, tensor<i8>) -> tensor<i8>
// CHECK: "stablehln.maximum"(%{{.*}}, %{{.*}}) : (tensor<i8>, tensor<i8>) -> tensor<i8>
func.func @unregistered_op_in_body(%x: tensor<4x!quant.uniform<i8:f32, 0.5:1>>, %init: tensor<!quant.uniform<i8:f32, 0.5:1>>) -> tensor<!quant.uniform<i8:f32, 0.5:1>> {
  %0 = stablehlo.reduce(%x init: %init) applies stablehln.maximum across dimensions = [0] : (tensor<4x!quant.uniform<i8:f32, 0.5:1>>, tensor<!quant.uniform<i8:f32, 0.5:1>>) -> tensor<!quant.uniform<i8:f32, 0.5:1>>
  return %0 : tensor<!quant.uniform<i8:f32, 0.5:1>>
}
