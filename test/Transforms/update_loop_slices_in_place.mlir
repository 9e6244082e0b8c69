// Slice updates of loop-carried arrays write in place where every other
// reader of the old value runs before them; the loop starts from copies of
// those arrays.
// RUN: stablehlo-to-tvm %s --stablehlo-update-loop-slices-in-place --split-input-file | FileCheck %s
// RUN: stablehlo-to-tvm %s --stablehlo-update-loop-slices-in-place --convert-stablehlo-to-tvm --split-input-file | FileCheck %s --check-prefix=TVM

// CHECK-LABEL: func @stacked_rows
// CHECK: stablehlo.while{{.*}}attributes {tvm.copied_inits = array<i64: 1>}
// CHECK: stablehlo.dynamic_update_slice {{.*}} {tvm.in_place}
// TVM-LABEL: func @stacked_rows
// TVM: "tvm.while"(%{{.*}}, %{{.*}}) <{copied_inits = array<i64: 1>}>
// TVM: tvm.update_slice_in_place %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i64>, tensor<i64>) -> tensor<8x4xf32>
// TVM-NOT: tvm.take
func.func @stacked_rows(%init: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %out = %init) : tensor<i32>, tensor<8x4xf32>
   cond {
    %n = stablehlo.constant dense<8> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %row = stablehlo.constant dense<1.0> : tensor<1x4xf32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %u = stablehlo.dynamic_update_slice %out, %row, %i, %z : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %u : tensor<i32>, tensor<8x4xf32>
  }
  return %r#1 : tensor<8x4xf32>
}

// -----

// The old value is read, but what reads it makes the update: the read has
// run before the write.
// CHECK-LABEL: func @read_before
// CHECK: stablehlo.while{{.*}}attributes {tvm.copied_inits = array<i64: 1>}
// CHECK: stablehlo.dynamic_update_slice {{.*}} {tvm.in_place}
// TVM-LABEL: func @read_before
// TVM: tvm.update_slice_in_place
func.func @read_before(%init: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %out = %init) : tensor<i32>, tensor<8x4xf32>
   cond {
    %n = stablehlo.constant dense<8> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %row = stablehlo.dynamic_slice %out, %z, %z, sizes = [1, 4] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
    %u = stablehlo.dynamic_update_slice %out, %row, %i, %z : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %u : tensor<i32>, tensor<8x4xf32>
  }
  return %r#1 : tensor<8x4xf32>
}

// -----

// The old value is read by something the update does not wait for: in place,
// the read could see the new row. The update must copy.
// CHECK-LABEL: func @read_after
// CHECK-NOT: tvm.in_place
// CHECK-NOT: tvm.copied_inits
// TVM-LABEL: func @read_after
// TVM-NOT: update_slice_in_place
func.func @read_after(%init: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %first = stablehlo.constant dense<0.0> : tensor<1x4xf32>
  %r:3 = stablehlo.while(%i = %c0, %out = %init, %last = %first) : tensor<i32>, tensor<8x4xf32>, tensor<1x4xf32>
   cond {
    %n = stablehlo.constant dense<8> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %row = stablehlo.constant dense<1.0> : tensor<1x4xf32>
    %u = stablehlo.dynamic_update_slice %out, %row, %i, %z : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
    %old = stablehlo.dynamic_slice %out, %i, %z, sizes = [1, 4] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %u, %old : tensor<i32>, tensor<8x4xf32>, tensor<1x4xf32>
  }
  return %r#1 : tensor<8x4xf32>
}

// -----

// A view of the old value is read after the update: the view shares the
// buffer, so the update must copy.
// CHECK-LABEL: func @view_read_after
// CHECK-NOT: tvm.in_place
// TVM-LABEL: func @view_read_after
// TVM-NOT: update_slice_in_place
func.func @view_read_after(%init: tensor<8x4xf32>) -> tensor<32xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %flat = stablehlo.constant dense<0.0> : tensor<32xf32>
  %r:3 = stablehlo.while(%i = %c0, %out = %init, %seen = %flat) : tensor<i32>, tensor<8x4xf32>, tensor<32xf32>
   cond {
    %n = stablehlo.constant dense<8> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %view = stablehlo.reshape %out : (tensor<8x4xf32>) -> tensor<32xf32>
    %head = stablehlo.slice %view [0:4] : (tensor<32xf32>) -> tensor<4xf32>
    %row = stablehlo.reshape %head : (tensor<4xf32>) -> tensor<1x4xf32>
    %u = stablehlo.dynamic_update_slice %out, %row, %i, %z : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
    %twice = stablehlo.add %view, %view : tensor<32xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %u, %twice : tensor<i32>, tensor<8x4xf32>, tensor<32xf32>
  }
  return %r#2 : tensor<32xf32>
}

// -----

// Two updates in a row, the first one's result read in between by what
// makes the second update (a two-layer key/value cache): both write in place.
// CHECK-LABEL: func @chain
// CHECK: stablehlo.while{{.*}}attributes {tvm.copied_inits = array<i64: 1>}
// CHECK: stablehlo.dynamic_update_slice {{.*}} {tvm.in_place}
// CHECK: stablehlo.dynamic_update_slice {{.*}} {tvm.in_place}
// TVM-LABEL: func @chain
// TVM-COUNT-2: tvm.update_slice_in_place
func.func @chain(%init: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %cache = %init) : tensor<i32>, tensor<2x8x4xf32>
   cond {
    %n = stablehlo.constant dense<8> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %l1 = stablehlo.constant dense<1> : tensor<i32>
    %k = stablehlo.constant dense<1.0> : tensor<1x1x4xf32>
    %u0 = stablehlo.dynamic_update_slice %cache, %k, %z, %i, %z : (tensor<2x8x4xf32>, tensor<1x1x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x8x4xf32>
    %layer0 = stablehlo.slice %u0 [0:1, 0:8, 0:4] : (tensor<2x8x4xf32>) -> tensor<1x8x4xf32>
    %sum = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%layer0 init: %sum) applies stablehlo.add across dimensions = [1] : (tensor<1x8x4xf32>, tensor<f32>) -> tensor<1x4xf32>
    %k1 = stablehlo.reshape %s : (tensor<1x4xf32>) -> tensor<1x1x4xf32>
    %u1 = stablehlo.dynamic_update_slice %u0, %k1, %l1, %i, %z : (tensor<2x8x4xf32>, tensor<1x1x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x8x4xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %u1 : tensor<i32>, tensor<2x8x4xf32>
  }
  return %r#1 : tensor<2x8x4xf32>
}

// -----

// The update is handed on in another position: the two would share a buffer.
// CHECK-LABEL: func @moved
// CHECK-NOT: tvm.in_place
// TVM-LABEL: func @moved
// TVM-NOT: update_slice_in_place
func.func @moved(%a: tensor<8x4xf32>, %b: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %x = %a, %y = %b) : tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>
   cond {
    %n = stablehlo.constant dense<8> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %row = stablehlo.constant dense<1.0> : tensor<1x4xf32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %u = stablehlo.dynamic_update_slice %x, %row, %i, %z : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %y, %u : tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>
  }
  return %r#1 : tensor<8x4xf32>
}

// -----

// `x.at[i].add(v)` in a loop: a single-input scatter of the carried array
// writes its buffer (the kernel's result is input 0's buffer, nothing
// copied into it first).
// CHECK-LABEL: func @scatter_add
// CHECK: stablehlo.while{{.*}}attributes {tvm.copied_inits = array<i64: 1>}
// CHECK: "stablehlo.scatter"
// CHECK: }) {tvm.in_place} : (tensor<8xf32>, tensor<1xi32>, tensor<f32>)
// TVM-LABEL: func @scatter_add
// TVM: "tvm.while"(%{{.*}}, %{{.*}}) <{copied_inits = array<i64: 1>}>
// TVM: tvm.kernel "scatter"(%{{.*}}, %{{.*}}, %{{.*}}) {in_place = array<i64: 0>}
// TVM-NEXT: ^bb0(%[[OPERAND:.*]]: memref<8xf32>, %{{.*}}: memref<1xi32>, %{{.*}}: memref<f32>, %{{.*}}: memref<8xf32>):
// TVM-NOT: scf.parallel
// TVM: memref.load %[[OPERAND]]
// TVM: memref.store %{{.*}}, %[[OPERAND]]
func.func @scatter_add(%init: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %out = %init) : tensor<i32>, tensor<8xf32>
   cond {
    %n = stablehlo.constant dense<8> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %index = stablehlo.reshape %i : (tensor<i32>) -> tensor<1xi32>
    %v = stablehlo.constant dense<2.0> : tensor<f32>
    %u = "stablehlo.scatter"(%out, %index, %v) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 0>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8xf32>, tensor<1xi32>, tensor<f32>) -> tensor<8xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %u : tensor<i32>, tensor<8xf32>
  }
  return %r#1 : tensor<8xf32>
}

// -----

// The old value read by a long chain of same-typed ops, each reading the
// one before twice, all of which make the update: in place, and the
// readers are followed once each (per path, 2^30 walks).
// CHECK-LABEL: func @diamonds
// CHECK: stablehlo.while{{.*}}attributes {tvm.copied_inits = array<i64: 1>}
// CHECK: stablehlo.dynamic_update_slice {{.*}} {tvm.in_place}
func.func @diamonds(%init: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %out = %init) : tensor<i32>, tensor<8x4xf32>
   cond {
    %n = stablehlo.constant dense<8> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %t0 = stablehlo.add %out, %out : tensor<8x4xf32>
    %t1 = stablehlo.add %t0, %t0 : tensor<8x4xf32>
    %t2 = stablehlo.add %t1, %t1 : tensor<8x4xf32>
    %t3 = stablehlo.add %t2, %t2 : tensor<8x4xf32>
    %t4 = stablehlo.add %t3, %t3 : tensor<8x4xf32>
    %t5 = stablehlo.add %t4, %t4 : tensor<8x4xf32>
    %t6 = stablehlo.add %t5, %t5 : tensor<8x4xf32>
    %t7 = stablehlo.add %t6, %t6 : tensor<8x4xf32>
    %t8 = stablehlo.add %t7, %t7 : tensor<8x4xf32>
    %t9 = stablehlo.add %t8, %t8 : tensor<8x4xf32>
    %t10 = stablehlo.add %t9, %t9 : tensor<8x4xf32>
    %t11 = stablehlo.add %t10, %t10 : tensor<8x4xf32>
    %t12 = stablehlo.add %t11, %t11 : tensor<8x4xf32>
    %t13 = stablehlo.add %t12, %t12 : tensor<8x4xf32>
    %t14 = stablehlo.add %t13, %t13 : tensor<8x4xf32>
    %t15 = stablehlo.add %t14, %t14 : tensor<8x4xf32>
    %t16 = stablehlo.add %t15, %t15 : tensor<8x4xf32>
    %t17 = stablehlo.add %t16, %t16 : tensor<8x4xf32>
    %t18 = stablehlo.add %t17, %t17 : tensor<8x4xf32>
    %t19 = stablehlo.add %t18, %t18 : tensor<8x4xf32>
    %t20 = stablehlo.add %t19, %t19 : tensor<8x4xf32>
    %t21 = stablehlo.add %t20, %t20 : tensor<8x4xf32>
    %t22 = stablehlo.add %t21, %t21 : tensor<8x4xf32>
    %t23 = stablehlo.add %t22, %t22 : tensor<8x4xf32>
    %t24 = stablehlo.add %t23, %t23 : tensor<8x4xf32>
    %t25 = stablehlo.add %t24, %t24 : tensor<8x4xf32>
    %t26 = stablehlo.add %t25, %t25 : tensor<8x4xf32>
    %t27 = stablehlo.add %t26, %t26 : tensor<8x4xf32>
    %t28 = stablehlo.add %t27, %t27 : tensor<8x4xf32>
    %t29 = stablehlo.add %t28, %t28 : tensor<8x4xf32>
    %row = stablehlo.dynamic_slice %t29, %i, %z, sizes = [1, 4] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
    %u = stablehlo.dynamic_update_slice %out, %row, %i, %z : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %u : tensor<i32>, tensor<8x4xf32>
  }
  return %r#1 : tensor<8x4xf32>
}
