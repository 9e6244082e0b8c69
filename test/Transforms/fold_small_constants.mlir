// RUN: stablehlo-to-tvm %s --stablehlo-fold-small-constants --split-input-file | FileCheck %s

// A rotation amount sliced out of a constant vector, and 32 minus it, as
// an unrolled threefry hash computes them.
// CHECK-LABEL: func.func @rotation_amounts
// CHECK-DAG: %[[A:.*]] = stablehlo.constant dense<15> : tensor<ui32>
// CHECK-DAG: %[[B:.*]] = stablehlo.constant dense<17> : tensor<ui32>
// CHECK-NOT: stablehlo.slice
// CHECK-NOT: stablehlo.reshape
// CHECK-NOT: stablehlo.subtract
// CHECK: return %[[A]], %[[B]]
func.func @rotation_amounts() -> (tensor<ui32>, tensor<ui32>) {
  %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
  %s = stablehlo.slice %c [1:2] : (tensor<4xui32>) -> tensor<1xui32>
  %r = stablehlo.reshape %s : (tensor<1xui32>) -> tensor<ui32>
  %c32 = stablehlo.constant dense<32> : tensor<ui32>
  %d = stablehlo.subtract %c32, %r : tensor<ui32>
  func.return %r, %d : tensor<ui32>, tensor<ui32>
}

// -----

// Integer arithmetic wraps; converts sign- or zero-extend by the source's
// signedness; a 2-D strided slice takes its elements in row-major order.
// CHECK-LABEL: func.func @wrapping
// CHECK-DAG: stablehlo.constant dense<-2147483648> : tensor<i32>
// CHECK-DAG: stablehlo.constant dense<-1> : tensor<i64>
// CHECK-DAG: stablehlo.constant dense<255> : tensor<i64>
// CHECK-DAG: stablehlo.constant dense<[0, 2, 6, 8]> : tensor<4xi32>
// CHECK-DAG: stablehlo.constant dense<[3, 1]> : tensor<2xui8>
func.func @wrapping() -> (tensor<i32>, tensor<i64>, tensor<i64>, tensor<4xi32>, tensor<2xui8>) {
  %max = stablehlo.constant dense<2147483647> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %sum = stablehlo.add %max, %one : tensor<i32>
  %m1 = stablehlo.constant dense<-1> : tensor<i8>
  %s = stablehlo.convert %m1 : (tensor<i8>) -> tensor<i64>
  %u = stablehlo.constant dense<255> : tensor<ui8>
  %z = stablehlo.convert %u : (tensor<ui8>) -> tensor<i64>
  %grid = stablehlo.constant dense<[[0, 1, 2], [3, 4, 5], [6, 7, 8]]> : tensor<3x3xi32>
  %corners = stablehlo.slice %grid [0:3:2, 0:3:2] : (tensor<3x3xi32>) -> tensor<2x2xi32>
  %flat = stablehlo.reshape %corners : (tensor<2x2xi32>) -> tensor<4xi32>
  %a = stablehlo.constant dense<[7, 5]> : tensor<2xui8>
  %b = stablehlo.constant dense<[4, 4]> : tensor<2xui8>
  %x = stablehlo.xor %a, %b : tensor<2xui8>
  func.return %sum, %s, %z, %flat, %x : tensor<i32>, tensor<i64>, tensor<i64>, tensor<4xi32>, tensor<2xui8>
}

// -----

// A polynomial's coefficients sliced one by one out of a float table (as
// jax.scipy.special's ndtri evaluates its polynomials), one of them
// broadcast (which stays: a float scalar of the build); a bf16 table of
// more than 16 elements, sliced.
// CHECK-LABEL: func.func @coefficients
// CHECK-DAG: %[[A:.*]] = stablehlo.constant dense<2.500000e-01> : tensor<f32>
// CHECK-DAG: %[[T:.*]] = stablehlo.constant dense<-3.000000e+00> : tensor<1xf32>
// CHECK-DAG: %[[C:.*]] = stablehlo.constant dense<[2.000000e+00, 4.000000e+00]> : tensor<2xbf16>
// CHECK-DAG: %[[B:.*]] = stablehlo.broadcast_in_dim %[[T]]
// CHECK-NOT: stablehlo.slice
// CHECK-NOT: stablehlo.reshape
// CHECK: return %[[A]], %[[B]], %[[C]]
func.func @coefficients() -> (tensor<f32>, tensor<2xf32>, tensor<2xbf16>) {
  %c = stablehlo.constant dense<[1.0, 0.25, -3.0]> : tensor<3xf32>
  %s = stablehlo.slice %c [1:2] : (tensor<3xf32>) -> tensor<1xf32>
  %r = stablehlo.reshape %s : (tensor<1xf32>) -> tensor<f32>
  %t = stablehlo.slice %c [2:3] : (tensor<3xf32>) -> tensor<1xf32>
  %b = stablehlo.broadcast_in_dim %t, dims = [0] : (tensor<1xf32>) -> tensor<2xf32>
  %k = stablehlo.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0]> : tensor<20xbf16>
  %e = stablehlo.slice %k [2:6:2] : (tensor<20xbf16>) -> tensor<2xbf16>
  func.return %r, %b, %e : tensor<f32>, tensor<2xf32>, tensor<2xbf16>
}

// -----

// Not folded: a non-constant operand, a result of more than 16 elements,
// float arithmetic.
// CHECK-LABEL: func.func @kept
// CHECK: stablehlo.add %arg0
// CHECK: stablehlo.broadcast_in_dim
// CHECK: stablehlo.add %{{.*}}, %{{.*}} : tensor<f32>
func.func @kept(%x: tensor<i32>) -> (tensor<i32>, tensor<32xi32>, tensor<f32>) {
  %one = stablehlo.constant dense<1> : tensor<i32>
  %y = stablehlo.add %x, %one : tensor<i32>
  %b = stablehlo.broadcast_in_dim %one, dims = [] : (tensor<i32>) -> tensor<32xi32>
  %f = stablehlo.constant dense<1.5> : tensor<f32>
  %g = stablehlo.add %f, %f : tensor<f32>
  func.return %y, %b, %g : tensor<i32>, tensor<32xi32>, tensor<f32>
}
