// triangular_solve is a kernel: substitution per batch and right-hand side.
// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm | FileCheck %s

// CHECK-LABEL: func @lower_left
// CHECK: tvm.kernel "triangular_solve"(%arg0, %arg1) : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK: arith.cmpi slt
// CHECK: arith.mulf
// CHECK: arith.subf
// CHECK: arith.divf
func.func @lower_left(%a: tensor<2x4x4xf32>, %b: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  %0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}
