// rng_bit_generator is a kernel computing Threefry-2x32 or Philox-4x32
// blocks from the state (bits as XLA:CPU's; test_random_bits.py compares).
// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm --split-input-file | FileCheck %s

// CHECK-LABEL: func @three_fry
// CHECK: tvm.kernel "rng_bit_generator"(%arg0) : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x2xui32>)
// A block per loop iteration, its key schedule's parity constant inside.
// CHECK: scf.parallel
// CHECK: arith.constant 466688986 : i32
func.func @three_fry(%state: tensor<2xui64>) -> (tensor<2xui64>, tensor<3x2xui32>) {
  %0:2 = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x2xui32>)
  return %0#0, %0#1 : tensor<2xui64>, tensor<3x2xui32>
}

// -----

// CHECK-LABEL: func @philox
// CHECK: tvm.kernel "rng_bit_generator"(%arg0) : (tensor<3xui64>) -> (tensor<3xui64>, tensor<5xf32>)
// The round multipliers, as 64-bit products of words.
// CHECK-DAG: arith.constant 3528531795 : i64
// CHECK-DAG: arith.constant 3449720151 : i64
// CHECK: arith.bitcast %{{.*}} : i32 to f32
func.func @philox(%state: tensor<3xui64>) -> (tensor<3xui64>, tensor<5xf32>) {
  %0:2 = stablehlo.rng_bit_generator %state, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<5xf32>)
  return %0#0, %0#1 : tensor<3xui64>, tensor<5xf32>
}
