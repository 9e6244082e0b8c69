// The definitions of sine, cosine and tanh use chlo ops, and this input has
// none: the pass loads the chlo dialect itself.
// RUN: stablehlo-to-tvm %s --stablehlo-lower-complex | FileCheck %s

// CHECK-LABEL: func @sine
// CHECK-SAME: (%[[A:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<2xf32>)
// CHECK-DAG: %[[SIN:.*]] = stablehlo.sine %[[A]]
// CHECK-DAG: %[[COSH:.*]] = chlo.cosh %[[B]]
// CHECK-DAG: %[[COS:.*]] = stablehlo.cosine %[[A]]
// CHECK-DAG: %[[SINH:.*]] = chlo.sinh %[[B]]
// CHECK-DAG: %[[RE:.*]] = stablehlo.multiply %[[SIN]], %[[COSH]]
// CHECK-DAG: %[[IM:.*]] = stablehlo.multiply %[[COS]], %[[SINH]]
// CHECK: return %[[RE]], %[[IM]]
func.func @sine(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = stablehlo.sine %x : tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}
