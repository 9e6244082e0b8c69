// Ops on dynamic dimensions whose Relax shape rule is symbolic convert as
// their static forms do; where a reshape or broadcast needs a dynamic size,
// it is the operand's (tvm.dim). Ops that cannot keep a dimension symbolic
// are left for the legality check.
// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm --split-input-file | FileCheck %s

// CHECK-LABEL: func @elementwise
// CHECK: tvm.tanh %arg0 : (tensor<?x8xf32>) -> tensor<?x8xf32>
// CHECK: tvm.add
// CHECK: tvm.astype %{{.*}} {dtype = f16} : (tensor<?x8xf32>) -> tensor<?x8xf16>
func.func @elementwise(%x: tensor<?x8xf32>) -> tensor<?x8xf16> {
  %0 = stablehlo.tanh %x : tensor<?x8xf32>
  %1 = stablehlo.add %0, %x : tensor<?x8xf32>
  %2 = stablehlo.convert %1 : (tensor<?x8xf32>) -> tensor<?x8xf16>
  return %2 : tensor<?x8xf16>
}

// -----

// Two dynamic free dimensions flatten into M and come back with the
// operand's sizes.
// CHECK-LABEL: func @dot_general
// CHECK: %[[L:.*]] = tvm.reshape %arg0 {shape = array<i64: -1, 32>} : (tensor<?x?x32xf32>) -> tensor<?x32xf32>
// CHECK: %[[P:.*]] = tvm.matmul %[[L]], %arg1 : (tensor<?x32xf32>, tensor<32x16xf32>) -> tensor<?x16xf32>
// CHECK: %[[B:.*]] = tvm.dim %arg0 {dim = 0 : i64}
// CHECK: %[[S:.*]] = tvm.dim %arg0 {dim = 1 : i64}
// CHECK: tvm.reshape %[[P]], %[[B]], %[[S]] {shape = array<i64: -1, -1, 16>} : (tensor<?x16xf32>, index, index) -> tensor<?x?x16xf32>
func.func @dot_general(%x: tensor<?x?x32xf32>, %w: tensor<32x16xf32>) -> tensor<?x?x16xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [2] x [0] : (tensor<?x?x32xf32>, tensor<32x16xf32>) -> tensor<?x?x16xf32>
  return %0 : tensor<?x?x16xf32>
}

// -----

// A bias over a symbolic batch: the broadcast's size is the operand's.
// CHECK-LABEL: func @broadcast_in_dim
// CHECK: %[[R:.*]] = tvm.reshape %arg0 {shape = array<i64: -1, 1>} : (tensor<?xf32>) -> tensor<?x1xf32>
// CHECK: %[[N:.*]] = tvm.dim %[[R]] {dim = 0 : i64}
// CHECK: tvm.broadcast_to %[[R]], %[[N]] {shape = array<i64: -1, 8>} : (tensor<?x1xf32>, index) -> tensor<?x8xf32>
func.func @broadcast_in_dim(%x: tensor<?xf32>) -> tensor<?x8xf32> {
  %0 = stablehlo.broadcast_in_dim %x, dims = [0] : (tensor<?xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// Max propagates NaN; its constants take the result's sizes.
// CHECK-LABEL: func @reduce_max
// CHECK: %[[M:.*]] = tvm.max %arg0 {axis = array<i64: 1>} : (tensor<?x8xf32>) -> tensor<?xf32>
// CHECK: tvm.dim %[[M]] {dim = 0 : i64}
// CHECK: tvm.where
func.func @reduce_max(%x: tensor<?x8xf32>) -> tensor<?xf32> {
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %init) applies stablehlo.maximum across dimensions = [1] : (tensor<?x8xf32>, tensor<f32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A slice keeps a dynamic dimension whole; a pad leaves it unpadded.
// CHECK-LABEL: func @slice_pad_concat
// CHECK: tvm.strided_slice %arg0 {axes = array<i64: 1>, begin = array<i64: 1>, end = array<i64: 3>, strides = array<i64: 1>} : (tensor<?x4xf32>) -> tensor<?x2xf32>
// CHECK: tvm.nn.pad %{{.*}} {pad_mode = "constant", pad_value = 0.000000e+00 : f64, pad_width = array<i64: 0, 0, 1, 1>} : (tensor<?x2xf32>) -> tensor<?x4xf32>
// CHECK: tvm.concat %{{.*}}, %arg0 {axis = 0 : i64} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
func.func @slice_pad_concat(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.slice %x [0:0, 1:3] : (tensor<?x4xf32>) -> tensor<?x2xf32>
  %1 = stablehlo.pad %0, %zero, low = [0, 1], high = [0, 1], interior = [0, 0] : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x4xf32>
  %2 = stablehlo.concatenate %1, %x, dim = 0 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %2 : tensor<?x4xf32>
}

// -----

// A convolution over a symbolic batch is Relax's conv2d.
// CHECK-LABEL: func @convolution
// CHECK: tvm.nn.conv2d {{.*}} -> tensor<?x4x6x6xf32>
func.func @convolution(%x: tensor<?x3x8x8xf32>, %k: tensor<4x3x3x3xf32>) -> tensor<?x4x6x6xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x6x6xf32>
  return %0 : tensor<?x4x6x6xf32>
}

// -----

// Ops whose conversion needs static shapes stay.
// CHECK-LABEL: func @stays
// CHECK: stablehlo.sort
// CHECK: stablehlo.slice
func.func @stays(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<?xf32>) -> tensor<?xf32>
  %1 = stablehlo.slice %x [1:2] : (tensor<?xf32>) -> tensor<?xf32>
  return %0, %1 : tensor<?xf32>, tensor<?xf32>
}

// -----

// A reduction of several operands (argmax) is a kernel whose result takes
// its size from the input's kept dimension and whose loops read their
// bounds from the buffers.
// CHECK-LABEL: func @argmax_kernel
// CHECK: %[[N:.*]] = tvm.dim %arg0 {dim = 0 : i64}
// CHECK: %[[M:.*]] = tvm.dim %arg1 {dim = 0 : i64}
// CHECK: tvm.kernel "reduce"(%arg0, %arg1, %{{.*}}, %{{.*}}) sizes[%[[N]], %[[M]]] : (tensor<?x5xf32>, tensor<?x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<?xf32>, tensor<?xi32>)
// CHECK: memref.dim
func.func @argmax_kernel(%x: tensor<?x5xf32>, %i: tensor<?x5xi32>) -> tensor<?xi32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.reduce(%x init: %ninf), (%i init: %zero) across dimensions = [1] : (tensor<?x5xf32>, tensor<?x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<?xf32>, tensor<?xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ia: tensor<i32>, %ib: tensor<i32>) {
    %gt = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %gt, %a, %b : tensor<i1>, tensor<f32>
    %j = stablehlo.select %gt, %ia, %ib : tensor<i1>, tensor<i32>
    stablehlo.return %v, %j : tensor<f32>, tensor<i32>
  }
  return %0#1 : tensor<?xi32>
}

// -----

// A gather over symbolic indices: the result's batch size is the indices'.
// CHECK-LABEL: func @gather_kernel
// CHECK: %[[N:.*]] = tvm.dim %arg1 {dim = 0 : i64}
// CHECK: tvm.kernel "gather"(%arg0, %arg1) sizes[%[[N]]] : (tensor<50x8xf32>, tensor<?x1xi32>) -> tensor<?x8xf32>
func.func @gather_kernel(%table: tensor<50x8xf32>, %ids: tensor<?x1xi32>) -> tensor<?x8xf32> {
  %0 = "stablehlo.gather"(%table, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>}> : (tensor<50x8xf32>, tensor<?x1xi32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// Interior and negative padding along static dimensions beside a dynamic
// one: a take along each padded axis, the padding where no element lands,
// broadcast to the dynamic size of what was taken.
// CHECK-LABEL: func @pad_static_axes
// CHECK: %[[T:.+]] = tvm.take %arg0, %{{.+}} {axis = 1 : i64} : (tensor<?x3xf32>, tensor<5xi64>) -> tensor<?x5xf32>
// CHECK: %[[N:.+]] = tvm.dim %[[T]] {dim = 0 : i64}
// CHECK: tvm.broadcast_to %{{.+}}, %[[N]] {shape = array<i64: -1, 5>}
// CHECK: tvm.where
func.func @pad_static_axes(%x: tensor<?x3xf32>, %v: tensor<f32>) -> tensor<?x5xf32> {
  %0 = stablehlo.pad %x, %v, low = [0, 1], high = [0, -1], interior = [0, 1] : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// -----

// Kernels on the bits of each element: the result's dynamic size is the
// operand's, the loops' bounds the buffers'.
// CHECK-LABEL: func @bit_level
// CHECK: %[[N:.+]] = tvm.dim %arg0 {dim = 0 : i64}
// CHECK: tvm.kernel "bitcast_convert"(%arg0) sizes[%[[N]]]
// CHECK: memref.dim
// CHECK: %[[M:.+]] = tvm.dim %arg1 {dim = 0 : i64}
// CHECK: tvm.kernel "reduce_precision"(%arg1) sizes[%[[M]]]
func.func @bit_level(%x: tensor<?x2xbf16>, %y: tensor<?xf32>) -> (tensor<?x2xi16>, tensor<?xf32>) {
  %0 = stablehlo.bitcast_convert %x : (tensor<?x2xbf16>) -> tensor<?x2xi16>
  %1 = stablehlo.reduce_precision %y, format = e5m10 : tensor<?xf32>
  return %0, %1 : tensor<?x2xi16>, tensor<?xf32>
}

// -----

// A window over a dynamic dimension: the result's size by the shape rule,
// (n + 2 - 3) floordiv 2 + 1 (not below 0), from the input's.
// CHECK-LABEL: func @window_over_dynamic_dim
// CHECK: %[[N:.+]] = tvm.dim %arg0 {dim = 0 : i64}
// CHECK: arith.floordivsi
// CHECK: %[[M:.+]] = arith.maxsi
// CHECK: tvm.kernel "reduce_window"(%arg0, %arg1) sizes[%[[M]]]
func.func @window_over_dynamic_dim(%x: tensor<?xf32>, %init: tensor<f32>) -> tensor<?xf32> {
  %0 = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 3>, window_strides = array<i64: 2>, padding = dense<[[1, 1]]> : tensor<1x2xi64>} : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// select_and_scatter (max pooling's gradient) over a dynamic batch the
// window leaves whole: its result is the operand's size.
// CHECK-LABEL: func @select_and_scatter_dynamic_batch
// CHECK: %[[N:.+]] = tvm.dim %arg0 {dim = 0 : i64}
// CHECK: tvm.kernel "select_and_scatter"(%arg0, %arg1, %arg2) sizes[%[[N]]]
func.func @select_and_scatter_dynamic_batch(%x: tensor<?x4xf32>, %s: tensor<?x2xf32>, %init: tensor<f32>) -> tensor<?x4xf32> {
  %0 = "stablehlo.select_and_scatter"(%x, %s, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %sum = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>} : (tensor<?x4xf32>, tensor<?x2xf32>, tensor<f32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// A convolution over a dynamic spatial dimension: Relax's convolution pads
// it itself. With base (lhs) dilation of that dimension there is no
// symbolic form: the 1-D op stays whole, its 2-D form never built.
// CHECK-LABEL: func @convolution_dynamic_spatial
// CHECK: tvm.nn.conv2d
// CHECK-SAME: padding = array<i64: 1, 0, 1, 0>
// CHECK: stablehlo.convolution
// CHECK-SAME: lhs_dilate = [2]
func.func @convolution_dynamic_spatial(%x: tensor<2x?x4xf32>, %k: tensor<3x4x8xf32>) -> (tensor<2x?x8xf32>, tensor<2x?x8xf32>) {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x?x4xf32>, tensor<3x4x8xf32>) -> tensor<2x?x8xf32>
  %1 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[2, 2]], lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x?x4xf32>, tensor<3x4x8xf32>) -> tensor<2x?x8xf32>
  return %0, %1 : tensor<2x?x8xf32>, tensor<2x?x8xf32>
}
