// RUN: stablehlo-to-tvm %s --convert-stablehlo-to-tvm --split-input-file | FileCheck %s

// An init value that is the identity of the reduction disappears.
// CHECK-LABEL: func @sum
func.func @sum(%x: tensor<2x4xf32>) -> tensor<2xf32> {
  // CHECK: %[[S:.*]] = tvm.sum %arg0 {axis = array<i64: 1>} : (tensor<2x4xf32>) -> tensor<2xf32>
  // CHECK-NEXT: return %[[S]]
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK-LABEL: func @max_min_prod
func.func @max_min_prod(%x: tensor<2x4xf32>, %i: tensor<2x4xi32>) -> (tensor<2xf32>, tensor<4xi32>, tensor<f32>) {
  // CHECK: %[[MAX:.*]] = tvm.max %arg0 {axis = array<i64: 1>}
  // Relax's max skips NaN; a slice holding one reduces to NaN.
  // CHECK: %[[ISNAN:.*]] = tvm.isnan %arg0
  // CHECK: %[[COUNT:.*]] = tvm.astype %[[ISNAN]] {dtype = i8}
  // CHECK: %[[ANY:.*]] = tvm.max %[[COUNT]] {axis = array<i64: 1>} : (tensor<2x4xi8>) -> tensor<2xi8>
  // CHECK: %[[HAS:.*]] = tvm.greater %[[ANY]]
  // CHECK: %[[NAN:.*]] = tvm.constant dense<0x7FC00000> : tensor<f32>
  // CHECK: tvm.where %[[HAS]], %{{.*}}, %[[MAX]]
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
  // Integers have no NaN to look for.
  // CHECK: tvm.min %arg1 {axis = array<i64: 0>}
  // CHECK-NOT: tvm.logical_not
  %imax = stablehlo.constant dense<2147483647> : tensor<i32>
  %1 = stablehlo.reduce(%i init: %imax) applies stablehlo.minimum across dimensions = [0] : (tensor<2x4xi32>, tensor<i32>) -> tensor<4xi32>
  // CHECK: tvm.prod %arg0 {axis = array<i64: 0, 1>}
  %one = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %2 = stablehlo.reduce(%x init: %one) applies stablehlo.multiply across dimensions = [0, 1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<f32>
  return %0, %1, %2 : tensor<2xf32>, tensor<4xi32>, tensor<f32>
}

// -----

// Any other init value is combined with the reduced value.
// CHECK-LABEL: func @init_value
func.func @init_value(%x: tensor<2x4xf32>, %init: tensor<f32>) -> tensor<2xf32> {
  // CHECK: %[[S:.*]] = tvm.sum %arg0 {axis = array<i64: 1>}
  // CHECK: %[[B:.*]] = tvm.broadcast_to %arg1 {shape = array<i64: 2>} : (tensor<f32>) -> tensor<2xf32>
  // CHECK: tvm.add %[[S]], %[[B]]
  %0 = stablehlo.reduce(%x init: %init) applies stablehlo.add across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Reducing over no dimension applies the body elementwise with the init
// value; a NaN is the result (Relax's maximum drops it). The init, a
// constant, is no NaN: only the input is tested.
// CHECK-LABEL: func @no_dimensions
func.func @no_dimensions(%x: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK-NOT: tvm.max
  // CHECK: %[[M:.*]] = tvm.maximum %arg0, %[[I:.*]] :
  // CHECK-NEXT: %[[XN:.*]] = tvm.isnan %arg0
  // CHECK-NEXT: tvm.where %[[XN]], %arg0, %[[M]]
  %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %cst) applies stablehlo.maximum across dimensions = [] : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Other bodies and several inputs: a kernel that runs the body on scalars,
// accumulators starting at the init values.
// CHECK-LABEL: func @argmax_like
func.func @argmax_like(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<f32>, tensor<i32>) {
  // CHECK: %[[R:.*]]:2 = tvm.kernel "reduce"(%arg0, %arg1, %{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
  // CHECK-NEXT: ^bb0(%[[X:.*]]: memref<4xf32>, %[[I:.*]]: memref<4xi32>, %[[XI:.*]]: memref<f32>, %[[II:.*]]: memref<i32>, %[[XO:.*]]: memref<f32>, %[[IO:.*]]: memref<i32>):
  // CHECK: memref.load %[[XI]][]
  // CHECK: %[[ACC:.*]] = memref.alloca() : memref<f32>
  // CHECK: memref.load %[[II]][]
  // CHECK: %[[ACCI:.*]] = memref.alloca() : memref<i32>
  // CHECK: scf.for %[[J:.*]] =
  // CHECK-DAG: %[[A:.*]] = memref.load %[[ACC]][]
  // CHECK-DAG: %[[AI:.*]] = memref.load %[[ACCI]][]
  // CHECK-DAG: %[[B:.*]] = memref.load %[[X]][%[[J]]]
  // CHECK-DAG: %[[BI:.*]] = memref.load %[[I]][%[[J]]]
  // CHECK: %[[GT:.*]] = arith.cmpf ogt, %[[A]], %[[B]] : f32
  // CHECK: %[[M:.*]] = arith.select %[[GT]], %[[A]], %[[B]] : f32
  // CHECK: %[[MI:.*]] = arith.select %[[GT]], %[[AI]], %[[BI]] : i32
  // CHECK: memref.store %[[M]], %[[ACC]][]
  // CHECK: memref.store %[[MI]], %[[ACCI]][]
  // CHECK: memref.store %{{.*}}, %[[XO]][]
  // CHECK: memref.store %{{.*}}, %[[IO]][]
  // CHECK: return %[[R]]#0, %[[R]]#1
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.reduce(%x init: %cst), (%i init: %c) across dimensions = [0] : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
    %gt = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %m = stablehlo.select %gt, %a, %b : tensor<i1>, tensor<f32>
    %mi = stablehlo.select %gt, %ai, %bi : tensor<i1>, tensor<i32>
    stablehlo.return %m, %mi : tensor<f32>, tensor<i32>
  }
  return %0#0, %0#1 : tensor<f32>, tensor<i32>
}

// -----

// Boolean reductions: "any" is a max over i8, "all" a min.
// CHECK-LABEL: func @booleans
func.func @booleans(%x: tensor<2x3xi1>) -> (tensor<3xi1>, tensor<2xi1>) {
  // CHECK: %[[B:.*]] = tvm.astype %arg0 {dtype = i8}
  // CHECK: %[[M:.*]] = tvm.min %[[B]] {axis = array<i64: 0>} : (tensor<2x3xi8>) -> tensor<3xi8>
  // CHECK: tvm.not_equal %[[M]]
  %true = stablehlo.constant dense<true> : tensor<i1>
  %0 = stablehlo.reduce(%x init: %true) applies stablehlo.and across dimensions = [0] : (tensor<2x3xi1>, tensor<i1>) -> tensor<3xi1>
  // CHECK: tvm.max %{{.*}} {axis = array<i64: 1>} : (tensor<2x3xi8>) -> tensor<2xi8>
  %false = stablehlo.constant dense<false> : tensor<i1>
  %1 = stablehlo.reduce(%x init: %false) applies stablehlo.or across dimensions = [1] : (tensor<2x3xi1>, tensor<i1>) -> tensor<2xi1>
  return %0, %1 : tensor<3xi1>, tensor<2xi1>
}

// -----

// Reduced dimensions of size 1: the element itself, combined with an init
// value that is not the identity.
// CHECK-LABEL: func @unit_dims
func.func @unit_dims(%x: tensor<128x1xf32>, %i: tensor<1x5xi32>) -> (tensor<128xf32>, tensor<128xf32>, tensor<5xi32>) {
  // CHECK: %[[S:.*]] = tvm.reshape %arg0 {{.*}} -> tensor<128xf32>
  // CHECK-NOT: tvm.sum
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<128x1xf32>, tensor<f32>) -> tensor<128xf32>
  // CHECK: %[[Q:.*]] = tvm.constant dense<2.500000e-01> : tensor<f32>
  // CHECK: %[[X:.*]] = tvm.reshape %arg0 {{.*}} -> tensor<128xf32>
  // CHECK: %[[QB:.*]] = tvm.broadcast_to %[[Q]]
  // CHECK: %[[M:.*]] = tvm.maximum %[[X]], %[[QB]]
  // CHECK-NOT: tvm.max
  %quarter = stablehlo.constant dense<2.500000e-01> : tensor<f32>
  %1 = stablehlo.reduce(%x init: %quarter) applies stablehlo.maximum across dimensions = [1] : (tensor<128x1xf32>, tensor<f32>) -> tensor<128xf32>
  // CHECK: %[[I:.*]] = tvm.reshape %arg1 {{.*}} -> tensor<5xi32>
  // CHECK-NOT: tvm.sum
  // CHECK: return %[[S]], %{{.*}}, %[[I]]
  %izero = stablehlo.constant dense<0> : tensor<i32>
  %2 = stablehlo.reduce(%i init: %izero) applies stablehlo.add across dimensions = [0] : (tensor<1x5xi32>, tensor<i32>) -> tensor<5xi32>
  return %0, %1, %2 : tensor<128xf32>, tensor<128xf32>, tensor<5xi32>
}

// -----

// Booleans over dimensions of size 1 likewise: "all" with a true init is
// the element itself.
// CHECK-LABEL: func @unit_dims_bool
func.func @unit_dims_bool(%p: tensor<8x1x1xi1>) -> tensor<8x1xi1> {
  // CHECK: %[[R:.*]] = tvm.reshape %arg0 {{.*}} -> tensor<8x1xi1>
  // CHECK-NOT: tvm.min
  // CHECK: return %[[R]]
  %true = stablehlo.constant dense<true> : tensor<i1>
  %0 = stablehlo.reduce(%p init: %true) applies stablehlo.and across dimensions = [2] : (tensor<8x1x1xi1>, tensor<i1>) -> tensor<8x1xi1>
  return %0 : tensor<8x1xi1>
}
