// tvm.kernel: a PrimFunc's loop nest over buffers, in scf/memref/arith.
// RUN: stablehlo-to-tvm %s | stablehlo-to-tvm | FileCheck %s
// RUN: stablehlo-to-tvm %s --mlir-print-op-generic | stablehlo-to-tvm | FileCheck %s

// CHECK-LABEL: func @argmax
// CHECK: %[[R:.*]] = tvm.kernel "argmax"(%arg0) : (tensor<4x8xf32>) -> tensor<4xui32> {
// CHECK-NEXT: ^bb0(%{{.*}}: memref<4x8xf32>, %{{.*}}: memref<4xi32>):
// CHECK: scf.parallel
// CHECK: memref.alloca() : memref<f32>
// CHECK: scf.for
// CHECK: scf.if
// CHECK: return %[[R]]
func.func @argmax(%x: tensor<4x8xf32>) -> tensor<4xui32> {
  %r = tvm.kernel "argmax"(%x) : (tensor<4x8xf32>) -> tensor<4xui32> {
  ^bb0(%in: memref<4x8xf32>, %out: memref<4xi32>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
      %best = memref.alloca() : memref<f32>
      %index = memref.alloca() : memref<i32>
      %ninf = arith.constant 0xFF800000 : f32
      %zero = arith.constant 0 : i32
      memref.store %ninf, %best[] : memref<f32>
      memref.store %zero, %index[] : memref<i32>
      scf.for %j = %c0 to %c8 step %c1 {
        %v = memref.load %in[%i, %j] : memref<4x8xf32>
        %b = memref.load %best[] : memref<f32>
        %gt = arith.cmpf ogt, %v, %b : f32
        scf.if %gt {
          memref.store %v, %best[] : memref<f32>
          %j32 = arith.index_cast %j : index to i32
          memref.store %j32, %index[] : memref<i32>
        }
      }
      %r = memref.load %index[] : memref<i32>
      memref.store %r, %out[%i] : memref<4xi32>
    }
  }
  return %r : tensor<4xui32>
}
