// A use of a value that a later, nested region defines is refused before
// parsing: MLIR's parser resolves the forward reference to the region's
// block argument, and when the region's op then fails to parse, its cleanup
// writes into the freed region (heap corruption found by the API fuzzer).
// RUN: not stablehlo-to-tvm %s 2>&1 | FileCheck %s

// CHECK: parser_hazard_nested_value.mlir:[[@LINE+3]]:22: error: use of value '%e' that a region nested below it defines: refused
// CHECK-NOT: error
func.func @scan(%x: tensor<4xi32>, %init: tensor<i32>) -> (tensor<4xi32>, tensor<i32>) {
  %s = stablehlo.add %e, %acc : tensor<i32>
  %0:2 = chlo.scan(%x) inits(%init) dimension = 0 {
  ^bb0(%e: tensor<i32>, %acc: tensor<i32>):
    stablehlo.return %s, %s : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>
