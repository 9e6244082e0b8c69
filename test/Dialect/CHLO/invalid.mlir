// chlo.scan's verifier: what stablehlo-simplify's while loop indexes by.
// RUN: stablehlo-to-tvm %s --split-input-file --verify-diagnostics

// A mutated corpus file that crashed the lowering (dimension far out of range).
func.func @scan_dimension(%x: tensor<4xi32>, %init: tensor<i32>) -> (tensor<4xi32>, tensor<i32>) {
  // expected-error @+1 {{dimension -2147483648 is out of range for input 0 of rank 1}}
  %0:2 = chlo.scan(%x) inits(%init) dimension = -2147483648 attributes {is_reverse = true} {
  ^bb0(%e: tensor<i32>, %acc: tensor<i32>):
    %s = stablehlo.add %e, %acc : tensor<i32>
    stablehlo.return %s, %s : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  func.return %0#0, %0#1 : tensor<4xi32>, tensor<i32>
}

// -----

func.func @scan_lengths(%x: tensor<4xi32>, %init: tensor<i32>) -> (tensor<5xi32>, tensor<i32>) {
  // expected-error @+1 {{output 0 has 5 positions along dimension 0, the scan 4}}
  %0:2 = chlo.scan(%x) inits(%init) dimension = 0 {
  ^bb0(%e: tensor<i32>, %acc: tensor<i32>):
    %s = stablehlo.add %e, %acc : tensor<i32>
    stablehlo.return %s, %s : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<5xi32>, tensor<i32>)
  func.return %0#0, %0#1 : tensor<5xi32>, tensor<i32>
}

// -----

func.func @scan_body_results(%x: tensor<4xi32>, %init: tensor<i32>) -> (tensor<4xi32>, tensor<i32>) {
  // expected-error @+1 {{body must end in stablehlo.return of one slice per output and the carried values (2 values)}}
  %0:2 = chlo.scan(%x) inits(%init) dimension = 0 {
  ^bb0(%e: tensor<i32>, %acc: tensor<i32>):
    %s = stablehlo.add %e, %acc : tensor<i32>
    stablehlo.return %s : tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  func.return %0#0, %0#1 : tensor<4xi32>, tensor<i32>
}

// -----

func.func @scan_carried_type(%x: tensor<4xi32>, %init: tensor<i32>) -> (tensor<4xi32>, tensor<i64>) {
  // expected-error @+1 {{carried value 0 must have its init's type}}
  %0:2 = chlo.scan(%x) inits(%init) dimension = 0 {
  ^bb0(%e: tensor<i32>, %acc: tensor<i32>):
    %s = stablehlo.add %e, %acc : tensor<i32>
    stablehlo.return %s, %s : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i64>)
  func.return %0#0, %0#1 : tensor<4xi32>, tensor<i64>
}

// -----

func.func @scan_slice_rank(%x: tensor<4x2xi32>, %init: tensor<i32>) -> (tensor<4x2xi32>, tensor<i32>) {
  // expected-error @+1 {{body argument for input 0 has rank 0, not 1}}
  %0:2 = chlo.scan(%x) inits(%init) dimension = 0 {
  ^bb0(%e: tensor<i32>, %acc: tensor<i32>):
    %s = stablehlo.add %e, %acc : tensor<i32>
    %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<i32>) -> tensor<2xi32>
    stablehlo.return %b, %s : tensor<2xi32>, tensor<i32>
  } : (tensor<4x2xi32>, tensor<i32>) -> (tensor<4x2xi32>, tensor<i32>)
  func.return %0#0, %0#1 : tensor<4x2xi32>, tensor<i32>
}
