// Dynamic shapes stay symbolic: the shape arithmetic becomes index values
// (tvm.dim, arith), dynamic ops become tvm ops that take them, shape
// assertions are checked at run time, and equated argument dimensions share
// one symbol.
// RUN: stablehlo-to-tvm %s --stablehlo-symbolize-shapes --split-input-file | FileCheck %s

// JAX's relu over a symbolic batch: concatenate(reshape(size), 32) becomes
// the sizes of a broadcast; the integer tensors die.
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: tvm.dim_symbols = {{\[}}["d0_0", 32]]
// CHECK: %[[N:.*]] = tvm.dim %arg0 {dim = 0 : i64} : (tensor<?x32xf32>) -> index
// CHECK: %[[R:.*]] = tvm.reshape %{{.*}} {shape = array<i64: 1, 1>} : (tensor<f32>) -> tensor<1x1xf32>
// CHECK: %[[B:.*]] = tvm.broadcast_to %[[R]], %[[N]] {shape = array<i64: -1, 32>} : (tensor<1x1xf32>, index) -> tensor<?x32xf32>
// CHECK: stablehlo.maximum %arg0, %[[B]]
// CHECK-NOT: get_dimension_size
// CHECK-NOT: concatenate
func.func @broadcast(%x: tensor<?x32xf32>) -> tensor<?x32xf32> {
  %c32 = stablehlo.constant dense<32> : tensor<1xi32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %shape = stablehlo.concatenate %n1, %c32, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %b = stablehlo.dynamic_broadcast_in_dim %zero, %shape, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
  %r = stablehlo.maximum %x, %b : tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}

// -----

// reshape(-1): the size is a product; a size used as data is a tensor.
// CHECK-LABEL: func.func @flatten_and_count
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[S:.*]] = tvm.dim %arg0 {dim = 0 : i64}
// CHECK: %[[T:.*]] = tvm.size_tensor %[[S]] : (index) -> tensor<i32>
// CHECK: %[[N:.*]] = tvm.dim %arg0 {dim = 0 : i64}
// CHECK: %[[P:.*]] = arith.muli %[[N]], %[[C4]] : index
// CHECK: %[[Y:.*]] = tvm.reshape %arg0, %[[P]] {shape = array<i64: -1>} : (tensor<?x4xf32>, index) -> tensor<?xf32>
// CHECK: return %[[Y]], %[[T]]
func.func @flatten_and_count(%x: tensor<?x4xf32>) -> (tensor<?xf32>, tensor<i32>) {
  %c4 = stablehlo.constant dense<4> : tensor<i32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %m = stablehlo.multiply %n, %c4 : tensor<i32>
  %m1 = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>
  %y = stablehlo.dynamic_reshape %x, %m1 : (tensor<?x4xf32>, tensor<1xi32>) -> tensor<?xf32>
  return %y, %n : tensor<?xf32>, tensor<i32>
}

// -----

// Assertions: one that folds is dropped; the others check at run time,
// threaded through the first dynamic argument in order; an equality of two
// argument dimensions makes them one symbol and is listed for the caller.
// CHECK-LABEL: func.func @assertions
// CHECK-SAME: tvm.dim_checks = [{args = [array<i64: 1, 0>, array<i64: 0, 0>], dims = [array<i64: 1, 0>, array<i64: 0, 0>], message = "args[1].shape[0] (= {0}) is not b (= {1})"}]
// CHECK-SAME: tvm.dim_symbols = {{\[}}["d0_0", 4], ["d0_0", 4]]
// CHECK: %[[B:.*]] = tvm.dim %arg0 {dim = 0 : i64}
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[B]], %{{.*}} : index
// CHECK: %[[X1:.*]] = tvm.shape_assertion %arg0, %[[GE]], [%[[B]]] {message = "b = {0} is not >= 1"} : tensor<?x4xf32>
// CHECK: %[[EQ:.*]] = arith.cmpi eq
// CHECK: %[[X2:.*]] = tvm.shape_assertion %[[X1]], %[[EQ]], [
// CHECK-NOT: shape_assertion
// CHECK: stablehlo.add %[[X2]], %arg1
func.func @assertions(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %true = stablehlo.constant dense<true> : tensor<i1>
  %b = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %b2 = stablehlo.get_dimension_size %y, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  stablehlo.custom_call @shape_assertion(%true) {error_message = "never", has_side_effect = true} : (tensor<i1>) -> ()
  %ge = stablehlo.compare GE, %b, %c1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%ge, %b) {error_message = "b = {0} is not >= 1", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  %eq = stablehlo.compare EQ, %b2, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%eq, %b2, %b) {error_message = "args[1].shape[0] (= {0}) is not b (= {1})", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
  %r = stablehlo.add %x, %y : tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}

// -----

// dynamic_iota over a symbolic length, and a dynamic_gather of one window
// (JAX's x[:, 1:]): a range of `count` elements and a dynamic slice.
// CHECK-LABEL: func.func @iota_and_window
// CHECK: %[[N:.*]] = tvm.dim %arg0 {dim = 1 : i64}
// CHECK: tvm.arange %[[N]] {dtype = f32, end = 0 : i64, start = 0 : i64, step = 1 : i64} : (index) -> tensor<?xf32>
// CHECK: %[[M:.*]] = arith.addi %[[N]], %{{.*}} : index
// CHECK: tvm.dynamic_slice %arg0, %{{.*}}, %{{.*}}, %[[M]] {shape = array<i64: 4, -1>} : (tensor<4x?xf32>, index, index, index) -> tensor<4x?xf32>
func.func @iota_and_window(%x: tensor<4x?xf32>) -> (tensor<?xf32>, tensor<4x?xf32>) {
  %n = stablehlo.get_dimension_size %x, dim = 1 : (tensor<4x?xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %iota = stablehlo.dynamic_iota %n1, dim = 0 : (tensor<1xi32>) -> tensor<?xf32>
  %c4 = stablehlo.constant dense<4> : tensor<1xi32>
  %cm1 = stablehlo.constant dense<-1> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %m = stablehlo.add %n, %cm1 : tensor<i32>
  %m1 = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>
  %sizes = stablehlo.concatenate %c4, %m1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %w = "stablehlo.dynamic_gather"(%x, %one, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [1]>, indices_are_sorted = true}> : (tensor<4x?xf32>, tensor<1xi32>, tensor<2xi32>) -> tensor<4x?xf32>
  return %iota, %w : tensor<?xf32>, tensor<4x?xf32>
}

// -----

// A shape computed from data stays as it is (the legality check reports it).
// CHECK-LABEL: func.func @from_data
// CHECK: stablehlo.dynamic_broadcast_in_dim
func.func @from_data(%x: tensor<f32>, %shape: tensor<1xi32>) -> tensor<?xf32> {
  %b = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [] : (tensor<f32>, tensor<1xi32>) -> tensor<?xf32>
  return %b : tensor<?xf32>
}

// -----

// An older export's dimension argument: the broadcast of an argument says
// which of its dimensions the argument's value is; a reshape keeping its
// dynamic dimension in order says the same.
// CHECK-LABEL: func.func @dimension_argument
// CHECK-SAME: tvm.dim_symbols = {{\[}}[], ["d1_0", 4], ["d1_0", 2, 2]]
// CHECK: %[[N:.*]] = tvm.dim %arg1 {dim = 0 : i64}
// CHECK: tvm.broadcast_to %{{.*}}, %[[N]] {shape = array<i64: 2, -1, 4>}
// CHECK: tvm.reshape %arg2, %[[N]] {shape = array<i64: -1, 4>}
// CHECK-NOT: unrealized_conversion_cast
func.func @dimension_argument(%n: tensor<i64>, %x: tensor<?x4xf32>, %y: tensor<?x2x2xf32>) -> (tensor<2x?x4xf32>, tensor<?x4xf32>) {
  %n32 = stablehlo.convert %n : (tensor<i64>) -> tensor<i32>
  %n1 = stablehlo.reshape %n32 : (tensor<i32>) -> tensor<1xi32>
  %c2 = stablehlo.constant dense<2> : tensor<1xi32>
  %c4 = stablehlo.constant dense<4> : tensor<1xi32>
  %shape = stablehlo.concatenate %c2, %n1, %c4, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  %b = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [1, 2] : (tensor<?x4xf32>, tensor<3xi32>) -> tensor<2x?x4xf32>
  %flat = stablehlo.concatenate %n1, %c4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %r = stablehlo.dynamic_reshape %y, %flat : (tensor<?x2x2xf32>, tensor<2xi32>) -> tensor<?x4xf32>
  return %b, %r : tensor<2x?x4xf32>, tensor<?x4xf32>
}

// -----

// A dimension argument no op ties to an argument dimension: a size read
// from its value when the function runs.
// CHECK-LABEL: func.func @unresolved_dimension_argument
// CHECK-NEXT: %[[N:.+]] = tvm.tensor_to_size %arg0 : (tensor<i64>) -> index
// CHECK-NEXT: %[[IOTA:.+]] = tvm.arange %[[N]]
// CHECK-NEXT: return %[[IOTA]]
// CHECK-NOT: unrealized_conversion_cast
func.func @unresolved_dimension_argument(%n: tensor<i64>) -> tensor<?xf32> {
  %n32 = stablehlo.convert %n : (tensor<i64>) -> tensor<i32>
  %n1 = stablehlo.reshape %n32 : (tensor<i32>) -> tensor<1xi32>
  %iota = stablehlo.dynamic_iota %n1, dim = 0 : (tensor<1xi32>) -> tensor<?xf32>
  return %iota : tensor<?xf32>
}

// -----

// real_dynamic_slice with unit strides: a window of limit - start.
// CHECK-LABEL: func.func @real_dynamic_slice
// CHECK: %[[N:.*]] = tvm.dim %arg0 {dim = 0 : i64}
// CHECK: %[[M:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK: tvm.dynamic_slice %arg0, %{{.*}}, %{{.*}}, %[[M]] {shape = array<i64: -1, 2>}
func.func @real_dynamic_slice(%x: tensor<?x4xf32>) -> tensor<?x2xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %c3 = stablehlo.constant dense<3> : tensor<1xi32>
  %start = stablehlo.constant dense<[1, 1]> : tensor<2xi32>
  %limit = stablehlo.concatenate %n1, %c3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %strides = stablehlo.constant dense<1> : tensor<2xi32>
  %w = stablehlo.real_dynamic_slice %x, %start, %limit, %strides : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
  return %w : tensor<?x2xf32>
}

// -----

// A dimension argument sizing a window from 0 (x[:n]) added to an argument
// is that argument's dimension; an unpadded dimension of a pad keeps its
// size.
// CHECK-LABEL: func.func @dimension_argument_through_slice_and_pad
// CHECK-SAME: tvm.dim_symbols = {{\[}}[], ["d1_0", 3], ["d2_0", 1]]
// CHECK-NOT: tvm.tensor_to_size
// CHECK: %[[D:.+]] = tvm.dim %arg2 {dim = 0 : i64}
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[N:.+]] = arith.subi %[[D]], %[[C0]]
// CHECK: tvm.dynamic_slice %arg1, %{{.+}}, %{{.+}}, %[[N]]
func.func @dimension_argument_through_slice_and_pad(%n: tensor<i64>, %x: tensor<?x3xf32>, %y: tensor<?x1xf32>) -> tensor<?x3xf32> {
  %n32 = stablehlo.convert %n : (tensor<i64>) -> tensor<i32>
  %n1 = stablehlo.reshape %n32 : (tensor<i32>) -> tensor<1xi32>
  %c0 = stablehlo.constant dense<0> : tensor<2xi32>
  %c1 = stablehlo.constant dense<1> : tensor<2xi32>
  %c3 = stablehlo.constant dense<3> : tensor<1xi32>
  %limit = stablehlo.concatenate %n1, %c3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %s = stablehlo.real_dynamic_slice %x, %c0, %limit, %c1 : (tensor<?x3xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x3xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %p = stablehlo.pad %y, %zero, low = [0, 1], high = [0, 1], interior = [0, 0] : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x3xf32>
  %sum = stablehlo.add %s, %p : tensor<?x3xf32>
  return %sum : tensor<?x3xf32>
}

// -----

// An unsigned dimension argument read from its value: converted first
// (tvm.tensor_to_size takes signless integers).
// CHECK-LABEL: func.func @unsigned_dimension_argument
// CHECK: %[[WIDE:.+]] = stablehlo.convert %arg0 : (tensor<ui32>) -> tensor<i64>
// CHECK: tvm.tensor_to_size %[[WIDE]] : (tensor<i64>) -> index
func.func @unsigned_dimension_argument(%n: tensor<ui32>) -> tensor<?xf32> {
  %n32 = stablehlo.convert %n : (tensor<ui32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n32 : (tensor<i32>) -> tensor<1xi32>
  %iota = stablehlo.dynamic_iota %n1, dim = 0 : (tensor<1xi32>) -> tensor<?xf32>
  return %iota : tensor<?xf32>
}

// -----

// dynamic_pad by a symbolic amount: checked non-negative when run, then
// the padding value concatenated before the operand; the interior padding
// spreads the operand along a new axis, flattened, the last gap dropped.
// CHECK-LABEL: func.func @dynamic_pad_by_size
// CHECK: %[[N:.+]] = tvm.dim %arg0 {dim = 0 : i64}
// CHECK: %[[OK:.+]] = arith.cmpi sge, %[[N]]
// CHECK: %[[X:.+]] = tvm.shape_assertion %arg0, %[[OK]], [] {message = "dynamic_pad: a negative padding amount"}
// CHECK: %[[COLUMN:.+]] = tvm.reshape %[[X]]
// CHECK-SAME: {shape = array<i64: -1, 1>}
// CHECK: %[[GAPS:.+]] = tvm.broadcast_to
// CHECK-SAME: {shape = array<i64: -1, -1>}
// CHECK: %[[PAIRS:.+]] = stablehlo.concatenate %[[COLUMN]], %[[GAPS]], dim = 1
// CHECK: %[[SPREAD:.+]] = tvm.reshape %[[PAIRS]]
// CHECK: %[[KEPT:.+]] = tvm.dynamic_slice %[[SPREAD]]
// CHECK: %[[LOW:.+]] = tvm.broadcast_to
// CHECK: stablehlo.concatenate %[[LOW]], %[[KEPT]], dim = 0
// CHECK-NOT: stablehlo.dynamic_pad
func.func @dynamic_pad_by_size(%x: tensor<?xf32>, %v: tensor<f32>) -> tensor<?xf32> {
  %d = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %n = stablehlo.reshape %d : (tensor<i32>) -> tensor<1xi32>
  %z = stablehlo.constant dense<0> : tensor<1xi32>
  %0 = stablehlo.dynamic_pad %x, %v, %n, %z, %n : (tensor<?xf32>, tensor<f32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A static stride along a dimension whose window is static: the window,
// then a strided slice of it.
// CHECK-LABEL: func.func @real_dynamic_slice_strided
// CHECK: %[[W:.+]] = tvm.dynamic_slice %arg0, {{.+}} {shape = array<i64: -1, 4>} : (tensor<?x5xf32>, index, index, index) -> tensor<?x4xf32>
// CHECK: tvm.strided_slice %[[W]] {axes = array<i64: 1>, begin = array<i64: 0>, end = array<i64: 4>, strides = array<i64: 2>} : (tensor<?x4xf32>) -> tensor<?x2xf32>
func.func @real_dynamic_slice_strided(%x: tensor<?x5xf32>) -> tensor<?x2xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x5xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %c5 = stablehlo.constant dense<5> : tensor<1xi32>
  %start = stablehlo.constant dense<[0, 1]> : tensor<2xi32>
  %limit = stablehlo.concatenate %n1, %c5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %strides = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %w = stablehlo.real_dynamic_slice %x, %start, %limit, %strides : (tensor<?x5xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
  return %w : tensor<?x2xf32>
}

// -----

// A dynamic_gather of one element along an axis and slices of the others
// (jnp.take over a dimension argument's rows): the operand cut to the slice
// sizes, then a take along the axis.
// CHECK-LABEL: func.func @gather_as_take
// CHECK: %[[N:.+]] = tvm.tensor_to_size %arg0
// CHECK: %[[CUT:.+]] = tvm.dynamic_slice %arg1, %{{.+}}, %{{.+}}, %{{.+}}, %[[N]] {shape = array<i64: -1, 4, 5>}
// CHECK: %[[IDS:.+]] = tvm.reshape %arg2 {shape = array<i64: 2>} : (tensor<2x1xi64>) -> tensor<2xi64>
// CHECK: tvm.take %[[CUT]], %[[IDS]] {axis = 1 : i64} : (tensor<?x4x5xf32>, tensor<2xi64>) -> tensor<?x2x5xf32>
func.func @gather_as_take(%n: tensor<i64>, %x: tensor<?x4x5xf32>, %ids: tensor<2x1xi64>) -> tensor<?x2x5xf32> {
  %n32 = stablehlo.convert %n : (tensor<i64>) -> tensor<i32>
  %n1 = stablehlo.reshape %n32 : (tensor<i32>) -> tensor<1xi32>
  %c1 = stablehlo.constant dense<1> : tensor<1xi32>
  %c5 = stablehlo.constant dense<5> : tensor<1xi32>
  %sizes = stablehlo.concatenate %n1, %c1, %c5, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  %0 = "stablehlo.dynamic_gather"(%x, %ids, %sizes) {dimension_numbers = #stablehlo.gather<offset_dims = [0, 2], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>} : (tensor<?x4x5xf32>, tensor<2x1xi64>, tensor<3xi32>) -> tensor<?x2x5xf32>
  return %0 : tensor<?x2x5xf32>
}
