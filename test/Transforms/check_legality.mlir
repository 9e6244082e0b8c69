// Every op left over is reported in one diagnostic, a note per op.
// RUN: stablehlo-to-tvm %s --stablehlo-to-tvm-pipeline --split-input-file --verify-diagnostics

func.func @two_unsupported(%x: tensor<4xf32>, %c: tensor<4xcomplex<f32>>) -> (tensor<4xi1>, tensor<4xcomplex<f32>>) {
  // expected-error @+2 {{2 operation(s) could not be imported into TVM; unsupported: stablehlo.custom_call @opaque, stablehlo.cbrt}}
  // expected-note @+1 {{unsupported operation 'stablehlo.custom_call @opaque' : (tensor<4xf32>) -> tensor<4xi1>}}
  %0 = stablehlo.custom_call @opaque(%x) : (tensor<4xf32>) -> tensor<4xi1>
  %1 = stablehlo.exponential %x : tensor<4xf32>
  // expected-note @+1 {{unsupported operation 'stablehlo.cbrt' : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>}}
  %2 = stablehlo.cbrt %c : tensor<4xcomplex<f32>>
  return %0, %2 : tensor<4xi1>, tensor<4xcomplex<f32>>
}

// -----

// Ops nested in an unsupported op are reported with it, not apart (here a
// reduce whose body has no scalar form).
func.func @nested(%x: tensor<4xf32>, %i: tensor<4xi32>) -> tensor<i32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  // expected-error @+2 {{1 operation(s) could not be imported into TVM; unsupported: stablehlo.reduce}}
  // expected-note @+1 {{unsupported operation 'stablehlo.reduce'}}
  %0:2 = stablehlo.reduce(%x init: %cst), (%i init: %c) across dimensions = [0] : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
    %gt = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %m = stablehlo.custom_call @opaque(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %mi = stablehlo.select %gt, %ai, %bi : tensor<i1>, tensor<i32>
    stablehlo.return %m, %mi : tensor<f32>, tensor<i32>
  }
  return %0#1 : tensor<i32>
}

// -----

// One complex op without a lowering is the only one reported, with why; the
// complex ops around it lower.
func.func @complex_blocker(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = stablehlo.multiply %x, %x : tensor<4xcomplex<f32>>
  // expected-error @+2 {{1 operation(s) could not be imported into TVM; unsupported: stablehlo.cbrt}}
  // expected-note @+1 {{unsupported operation 'stablehlo.cbrt' : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> (no lowering of this op on complex numbers)}}
  %1 = stablehlo.cbrt %0 : tensor<4xcomplex<f32>>
  %2 = stablehlo.add %1, %x : tensor<4xcomplex<f32>>
  return %2 : tensor<4xcomplex<f32>>
}

// -----

// An op with no form for dynamic shapes says so, after what its pattern
// said; the ops around it that have one are not reported.
func.func @dynamic_sort(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.exponential %x : tensor<?xf32>
  // expected-error @+2 {{1 operation(s) could not be imported into TVM; unsupported: stablehlo.sort}}
  // expected-note @+1 {{unsupported operation 'stablehlo.sort' : (tensor<?xf32>) -> tensor<?xf32> (a dynamic sort dimension; no form for dynamic shapes: specialize them to the arguments' sizes)}}
  %1 = "stablehlo.sort"(%0) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<?xf32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}

// -----

// A pattern that declines an op says why, in the op's note.
func.func @pad_declined(%x: tensor<20000000xi8>) -> tensor<39999999xi8> {
  %z = stablehlo.constant dense<0> : tensor<i8>
  // expected-error @+2 {{1 operation(s) could not be imported into TVM; unsupported: stablehlo.pad}}
  // expected-note @+1 {{unsupported operation 'stablehlo.pad' : (tensor<20000000xi8>, tensor<i8>) -> tensor<39999999xi8> (interior or negative padding of an axis longer than 2^24)}}
  %0 = stablehlo.pad %x, %z, low = [0], high = [0], interior = [1] : (tensor<20000000xi8>, tensor<i8>) -> tensor<39999999xi8>
  return %0 : tensor<39999999xi8>
}
