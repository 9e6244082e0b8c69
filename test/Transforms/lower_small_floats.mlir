// f8/f4 tensors become f32 tensors of the same values: constants widen
// exactly, conversions to a small type round to it (here f8E5M2: 2 bits of
// significand, smallest normal 2^-14, largest 57344, overflow to infinity),
// arithmetic rounds its result, data movement does not, and converting to
// f32 is the storage itself.
// RUN: stablehlo-to-tvm %s --stablehlo-lower-small-floats --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-SAME: attributes {tvm.small_float_results = ["f8E4M3FN", "", "f8E5M2"]}
// CHECK: %[[C:.*]] = stablehlo.constant dense<[1.000000e+00, 4.480000e+02, -5.000000e-01, 0.000000e+00]> : tensor<4xf32>
// CHECK: %[[SUM:.*]] = stablehlo.add %arg0, %[[C]] : tensor<4xf32>
// CHECK: stablehlo.convert %[[SUM]] : (tensor<4xf32>) -> tensor<4xf64>
// CHECK: stablehlo.constant dense<-6> : tensor<4xi64>
// CHECK: stablehlo.round_nearest_even
// FN types have no infinity: overflow is NaN.
// CHECK: stablehlo.constant dense<0x7FF8000000000000> : tensor<4xf64>
// CHECK: stablehlo.constant dense<4.480000e+02> : tensor<4xf64>
// CHECK: %[[SUM8:.*]] = stablehlo.convert %{{.*}} : (tensor<4xf64>) -> tensor<4xf32>
// CHECK-NOT: stablehlo.convert %arg0
// CHECK: stablehlo.convert %arg1 : (tensor<4xf32>) -> tensor<4xf64>
// CHECK: stablehlo.constant dense<-14> : tensor<4xi64>
// CHECK: stablehlo.constant dense<0x7FF0000000000000> : tensor<4xf64>
// CHECK: stablehlo.constant dense<5.734400e+04> : tensor<4xf64>
// CHECK: %[[Y8:.*]] = stablehlo.convert %{{.*}} : (tensor<4xf64>) -> tensor<4xf32>
// CHECK: %[[R:.*]] = stablehlo.reverse %[[SUM8]], dims = [0] : tensor<4xf32>
// CHECK-NEXT: return %[[R]], %arg0, %[[Y8]]
func.func @main(%x: tensor<4xf8E4M3FN>, %y: tensor<4xf32>) -> (tensor<4xf8E4M3FN>, tensor<4xf32>, tensor<4xf8E5M2>) {
  %c = stablehlo.constant dense<[1.0, 448.0, -0.5, 0.0]> : tensor<4xf8E4M3FN>
  %0 = stablehlo.add %x, %c : tensor<4xf8E4M3FN>
  %1 = stablehlo.convert %x : (tensor<4xf8E4M3FN>) -> tensor<4xf32>
  %2 = stablehlo.convert %y : (tensor<4xf32>) -> tensor<4xf8E5M2>
  %3 = stablehlo.reverse %0, dims = [0] : tensor<4xf8E4M3FN>
  return %3, %1, %2 : tensor<4xf8E4M3FN>, tensor<4xf32>, tensor<4xf8E5M2>
}

// -----

// What reads the bit layout stays, for the legality check to report.
// CHECK-LABEL: func.func @bits
// CHECK: stablehlo.bitcast_convert %{{.*}} : (tensor<4xf8E4M3FN>) -> tensor<4xi8>
func.func @bits(%x: tensor<4xf8E4M3FN>) -> tensor<4xi8> {
  %0 = stablehlo.bitcast_convert %x : (tensor<4xf8E4M3FN>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}
