// The definitions of sine, cosine and tanh use chlo ops, and this input has
// none: the pass loads the chlo dialect itself.
// RUN: stablehlo-to-tvm %s --stablehlo-lower-complex | FileCheck %s

// CHECK-LABEL: func @sine
// CHECK-SAME: (%[[A:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<2xf32>)
// Elementary functions of complex<f32> compute in f64.
// CHECK-DAG: %[[WA:.*]] = stablehlo.convert %[[A]] : (tensor<2xf32>) -> tensor<2xf64>
// CHECK-DAG: %[[WB:.*]] = stablehlo.convert %[[B]] : (tensor<2xf32>) -> tensor<2xf64>
// CHECK-DAG: %[[SIN:.*]] = stablehlo.sine %[[WA]]
// CHECK-DAG: %[[COSH:.*]] = chlo.cosh %[[WB]]
// CHECK-DAG: %[[COS:.*]] = stablehlo.cosine %[[WA]]
// CHECK-DAG: %[[SINH:.*]] = chlo.sinh %[[WB]]
// CHECK-DAG: %[[RE:.*]] = stablehlo.multiply %[[SIN]], %[[COSH]]
// CHECK-DAG: %[[IM:.*]] = stablehlo.multiply %[[COS]], %[[SINH]]
// CHECK-DAG: %[[NRE:.*]] = stablehlo.convert %[[RE]] : (tensor<2xf64>) -> tensor<2xf32>
// CHECK-DAG: %[[NIM:.*]] = stablehlo.convert %[[IM]] : (tensor<2xf64>) -> tensor<2xf32>
// CHECK: return %[[NRE]], %[[NIM]]
func.func @sine(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = stablehlo.sine %x : tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}
