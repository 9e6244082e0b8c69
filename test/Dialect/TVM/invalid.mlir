// RUN: stablehlo-to-tvm %s --split-input-file --verify-diagnostics

func.func @astype(%x: tensor<2xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{dtype 'f16' must be the result element type}}
  %0 = tvm.astype %x {dtype = f16} : (tensor<2xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @reshape(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{shape must be the result shape}}
  %0 = tvm.reshape %x {shape = array<i64: 6>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @permute(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{result dimension 0 does not match input dimension 1}}
  %0 = tvm.permute_dims %x {axes = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @arange() -> tensor<4xi32> {
  // expected-error @+1 {{result must have 3 elements}}
  %0 = tvm.arange {dtype = i32, end = 3 : i64, start = 0 : i64, step = 1 : i64} : () -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @kernel_buffers(%x: tensor<4xui32>) -> tensor<4xf32> {
  // expected-error @+1 {{buffer 0 must be 'memref<4xi32>', not 'memref<4xui32>'}}
  %0 = tvm.kernel "k"(%x) : (tensor<4xui32>) -> tensor<4xf32> {
  ^bb0(%in: memref<4xui32>, %out: memref<4xf32>):
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @kernel_arity(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{body must take 2 buffers, one per input and result}}
  %0 = tvm.kernel "k"(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%in: memref<4xf32>):
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @kernel_body_ops(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tvm.kernel "k"(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%in: memref<4xf32>, %out: memref<4xf32>):
    // expected-error @+1 {{'tvm.arange' op is not allowed in a tvm.kernel body}}
    %y = tvm.arange {dtype = i32, end = 3 : i64, start = 0 : i64, step = 1 : i64} : () -> tensor<3xi32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @while_cond(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{cond must yield one tensor<i1>}}
  %0 = "tvm.while"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    tvm.yield %a : tensor<4xf32>
  }, {
  ^bb0(%a: tensor<4xf32>):
    tvm.yield %a : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @update_slice_in_place(%x: tensor<8x4xf32>, %row: tensor<1x4xf32>, %i: tensor<i64>) -> tensor<8x4xf32> {
  // expected-error @+1 {{needs an update and a start per axis of the operand}}
  %0 = tvm.update_slice_in_place %x[%i], %row : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i64>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @pad_widths(%x: tensor<2x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{pad_width needs a low and a high width per axis}}
  %0 = tvm.nn.pad %x {pad_mode = "constant", pad_value = 0.0 : f64, pad_width = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @pad_negative(%x: tensor<2x3xf32>) -> tensor<1x3xf32> {
  // expected-error @+1 {{negative padding along axis 0}}
  %0 = tvm.nn.pad %x {pad_mode = "constant", pad_value = 0.0 : f64, pad_width = array<i64: 0, -1, 0, 0>} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

func.func @pad_shape(%x: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{result dimension 0 is not the padded input dimension}}
  %0 = tvm.nn.pad %x {pad_mode = "constant", pad_value = 0.0 : f64, pad_width = array<i64: 1, 0, 0, 0>} : (tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @pad_mode(%x: tensor<2x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{only constant padding is supported}}
  %0 = tvm.nn.pad %x {pad_mode = "reflect", pad_value = 0.0 : f64, pad_width = array<i64: 1, 0, 0, 0>} : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// Relax takes its transcendental functions of floating-point tensors only.
func.func @exp_of_integers(%x: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{operand #0 must be ranked tensor of floating-point values}}
  %0 = tvm.exp %x : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @reshape_sizes(%x: tensor<?x4xf32>) -> tensor<?x?xf32> {
  // expected-error @+1 {{needs a size per dynamic dimension (or one dynamic dimension, inferred)}}
  %0 = tvm.reshape %x {shape = array<i64: -1, -1>} : (tensor<?x4xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @reshape_dynamic_marker(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{shape must be the result shape, -1 where it is dynamic}}
  %0 = tvm.reshape %x {shape = array<i64: 3, 4>} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @broadcast_sizes(%x: tensor<1x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{needs a size per dynamic dimension}}
  %0 = tvm.broadcast_to %x {shape = array<i64: -1, 4>} : (tensor<1x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @dim_out_of_range(%x: tensor<?x4xf32>) -> index {
  // expected-error @+1 {{dim must name a dimension of x}}
  %0 = tvm.dim %x {dim = 2 : i64} : (tensor<?x4xf32>) -> index
  return %0 : index
}

// -----

func.func @dynamic_slice_operands(%x: tensor<?x4xf32>, %i: index) -> tensor<?x4xf32> {
  // expected-error @+1 {{needs a start per dimension and a size per dynamic dimension}}
  %0 = tvm.dynamic_slice %x, %i, %i {shape = array<i64: -1, 4>} : (tensor<?x4xf32>, index, index) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @arange_count(%n: index) -> tensor<4xf32> {
  // expected-error @+1 {{with a count, the result dimension is dynamic}}
  %0 = tvm.arange %n {dtype = f32, end = 0 : i64, start = 0 : i64, step = 1 : i64} : (index) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
