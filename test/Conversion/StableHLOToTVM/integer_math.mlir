// Integer power and chlo.mulhi are elementwise kernels of scalar code.
// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm | FileCheck %s

// Squaring over the 32 bits of |y|; a negative y keeps x^|y| only for x = +-1.
// CHECK-LABEL: func.func @power
// CHECK: tvm.kernel "integer_power"
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[Y:.*]], %c0_i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %c32
// CHECK:   arith.muli
// CHECK:   arith.select
// CHECK:   arith.shrui
// CHECK: %[[POW:.*]] = memref.load
// CHECK: %[[UNIT:.*]] = arith.ori
// CHECK: %[[RECIP:.*]] = arith.select %[[UNIT]], %[[POW]], %c0_i32
// CHECK: arith.select %[[NEG]], %[[RECIP]], %[[POW]]
func.func @power(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %0 = stablehlo.power %x, %y : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// Up to 32 bits: the double-width product, shifted.
// CHECK-LABEL: func.func @mulhi_narrow
// CHECK: tvm.kernel "mulhi"
// CHECK: %[[X:.*]] = arith.extui %{{.*}} : i8 to i16
// CHECK: %[[Y:.*]] = arith.extui %{{.*}} : i8 to i16
// CHECK: %[[P:.*]] = arith.muli %[[X]], %[[Y]] : i16
// CHECK: %[[H:.*]] = arith.shrui %[[P]], %c8_i16
// CHECK: arith.trunci %[[H]] : i16 to i8
func.func @mulhi_narrow(%x: tensor<4xui8>, %y: tensor<4xui8>) -> tensor<4xui8> {
  %0 = chlo.mulhi %x, %y : tensor<4xui8>, tensor<4xui8> -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// 64 bits: four products of 32-bit halves, then the signed correction.
// CHECK-LABEL: func.func @mulhi_wide
// CHECK-COUNT-4: arith.muli
// CHECK: arith.cmpi slt
// CHECK: arith.subi
// CHECK: arith.cmpi slt
// CHECK: arith.subi
func.func @mulhi_wide(%x: tensor<4xi64>, %y: tensor<4xi64>) -> tensor<4xi64> {
  %0 = chlo.mulhi %x, %y : tensor<4xi64>, tensor<4xi64> -> tensor<4xi64>
  return %0 : tensor<4xi64>
}
