// Ops on the bits of values become kernels (Relax cannot reinterpret bits).
// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm --split-input-file | FileCheck %s

// CHECK-LABEL: func @same_width
// CHECK: tvm.kernel "bitcast_convert"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xui32>
// CHECK: %[[V:.*]] = memref.load
// CHECK: %[[B:.*]] = arith.bitcast %[[V]] : f32 to i32
// CHECK: memref.store %[[B]]
func.func @same_width(%x: tensor<2x3xf32>) -> tensor<2x3xui32> {
  %0 = stablehlo.bitcast_convert %x : (tensor<2x3xf32>) -> tensor<2x3xui32>
  return %0 : tensor<2x3xui32>
}

// -----

// To a narrower type: chunk k of each element, least significant first.
// CHECK-LABEL: func @narrower
// CHECK: tvm.kernel "bitcast_convert"(%arg0) : (tensor<3xf32>) -> tensor<3x4xi8>
// CHECK: scf.for %[[K:.*]] =
// CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK: %[[KI:.*]] = arith.index_cast %[[K]] : index to i32
// CHECK: %[[SHIFT:.*]] = arith.muli %[[KI]], %{{.*}} : i32
// CHECK: %[[HIGH:.*]] = arith.shrui %[[BITS]], %[[SHIFT]] : i32
// CHECK: arith.trunci %[[HIGH]] : i32 to i8
func.func @narrower(%x: tensor<3xf32>) -> tensor<3x4xi8> {
  %0 = stablehlo.bitcast_convert %x : (tensor<3xf32>) -> tensor<3x4xi8>
  return %0 : tensor<3x4xi8>
}

// -----

// To a wider type: the minor dimension's values or'ed together.
// CHECK-LABEL: func @wider
// CHECK: tvm.kernel "bitcast_convert"(%arg0) : (tensor<3x2xui16>) -> tensor<3xf32>
// CHECK-COUNT-2: arith.shli
// CHECK: arith.bitcast %{{.*}} : i32 to f32
func.func @wider(%x: tensor<3x2xui16>) -> tensor<3xf32> {
  %0 = stablehlo.bitcast_convert %x : (tensor<3x2xui16>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// CHECK-LABEL: func @reduce_precision
// CHECK: tvm.kernel "reduce_precision"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.cmpi ugt
// CHECK: arith.cmpi ule
// CHECK: arith.cmpf uno
func.func @reduce_precision(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce_precision %x, format = e5m10 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @next_after
// CHECK: tvm.kernel "next_after"(%arg0, %arg1) : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
// CHECK: arith.addi
// CHECK: arith.subi
func.func @next_after(%x: tensor<4xf64>, %y: tensor<4xf64>) -> tensor<4xf64> {
  %0 = chlo.next_after %x, %y : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
  return %0 : tensor<4xf64>
}
