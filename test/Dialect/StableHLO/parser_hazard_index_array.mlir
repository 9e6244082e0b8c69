// A dense array of index elements is refused before parsing: MLIR's parser
// asks `index` for a bit width and reads through a null pointer (found by
// libFuzzer). DenseArrayAttr has no index elements to hold anyway.
// RUN: not stablehlo-to-tvm %s 2>&1 | FileCheck %s

// CHECK: parser_hazard_index_array.mlir:[[@LINE+3]]:32: error: a dense array of index elements: refused
// CHECK-NOT: error
func.func @reshape(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = tvm.reshape %x {shape = array<index: 3, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
