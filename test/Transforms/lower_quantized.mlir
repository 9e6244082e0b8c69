// Quantized tensors become integer code on their storage type: quantize and
// dequantize become their arithmetic, products sum storage values minus zero
// points in i32 and rescale once, other computing ops dequantize-op-quantize,
// data movement keeps storage values, and signatures carry storage types.
// RUN: stablehlo-to-tvm %s --stablehlo-lower-quantized --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @quantize_dequantize(%arg0: tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[S:.*]] = stablehlo.constant dense<5.000000e-01> : tensor<4xf32>
// CHECK: %[[D:.*]] = stablehlo.divide %arg0, %[[S]]
// CHECK: %[[Z:.*]] = stablehlo.constant dense<-3.000000e+00> : tensor<4xf32>
// CHECK: %[[A:.*]] = stablehlo.add %[[D]], %[[Z]]
// CHECK: %[[R:.*]] = stablehlo.round_nearest_even %[[A]]
// CHECK: %[[MIN:.*]] = stablehlo.constant dense<-1.280000e+02> : tensor<f32>
// CHECK: %[[MAX:.*]] = stablehlo.constant dense<1.270000e+02> : tensor<f32>
// CHECK: %[[C:.*]] = stablehlo.clamp %[[MIN]], %[[R]], %[[MAX]]
// CHECK: %[[Q:.*]] = stablehlo.convert %[[C]] : (tensor<4xf32>) -> tensor<4xi8>
// The zero point is subtracted in f32, where the difference is exact.
// CHECK: %[[W:.*]] = stablehlo.convert %[[Q]] : (tensor<4xi8>) -> tensor<4xf32>
// CHECK: %[[ZP:.*]] = stablehlo.constant dense<-3.000000e+00> : tensor<4xf32>
// CHECK: %[[SUB:.*]] = stablehlo.subtract %[[W]], %[[ZP]] : tensor<4xf32>
// CHECK: stablehlo.multiply %[[SUB]], %{{.*}} : tensor<4xf32>
// CHECK-NOT: quant.uniform
func.func @quantize_dequantize(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  %1 = stablehlo.uniform_dequantize %0 : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Data movement and signatures: storage values pass untouched.
// CHECK-LABEL: func.func @move(%arg0: tensor<2x3xi8>) -> tensor<3x2xi8>
// CHECK-NEXT: %[[T:.*]] = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<2x3xi8>) -> tensor<3x2xi8>
// CHECK-NEXT: return %[[T]] : tensor<3x2xi8>
func.func @move(%x: tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<3x2x!quant.uniform<i8:f32, 0.5:-3>> {
  %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<3x2x!quant.uniform<i8:f32, 0.5:-3>>
  return %0 : tensor<3x2x!quant.uniform<i8:f32, 0.5:-3>>
}

// -----

// Unsigned storage is spelled `ui` in the stablehlo dialect.
// CHECK-LABEL: func.func @unsigned(%arg0: tensor<2xui8>) -> tensor<2xui8>
func.func @unsigned(%x: tensor<2x!quant.uniform<u8:f32, 0.5:128>>) -> tensor<2x!quant.uniform<u8:f32, 0.5:128>> {
  return %x : tensor<2x!quant.uniform<u8:f32, 0.5:128>>
}

// -----

// A computing op: dequantize both operands, compute on floats, quantize to
// the result's own scale and zero point (tanh's result is quantized before
// the add reads it).
// CHECK-LABEL: func.func @tanh_add
// CHECK: %[[T:.*]] = stablehlo.tanh %{{.*}} : tensor<3xf32>
// CHECK: stablehlo.divide %[[T]], %{{.*}} : tensor<3xf32>
// CHECK: %[[SUM:.*]] = stablehlo.add %{{[0-9]+}}, %{{[0-9]+}} : tensor<3xf32>
// CHECK: %[[SCALE:.*]] = stablehlo.constant dense<3.000000e-01> : tensor<3xf32>
// CHECK: stablehlo.divide %[[SUM]], %[[SCALE]]
// CHECK: stablehlo.convert %{{.*}} : (tensor<3xf32>) -> tensor<3xi8>
func.func @tanh_add(%a: tensor<3x!quant.uniform<i8:f32, 0.1:-2>>, %b: tensor<3x!quant.uniform<i8:f32, 0.2:1>>) -> tensor<3x!quant.uniform<i8:f32, 0.3>> {
  %0 = stablehlo.tanh %a : tensor<3x!quant.uniform<i8:f32, 0.1:-2>>
  %1 = stablehlo.add %0, %b : (tensor<3x!quant.uniform<i8:f32, 0.1:-2>>, tensor<3x!quant.uniform<i8:f32, 0.2:1>>) -> tensor<3x!quant.uniform<i8:f32, 0.3>>
  return %1 : tensor<3x!quant.uniform<i8:f32, 0.3>>
}

// -----

// A product into i32 whose scale is lhs_scale * rhs_scale: the i32 sums are
// the result's storage, with no rescaling. Int8 storage feeds the product as
// it is; lhs's zero point takes its share, 5 * (rhs summed over K), off.
// CHECK-LABEL: func.func @dot_i32(%arg0: tensor<2x4xi8>, %arg1: tensor<4x3xi8>) -> tensor<2x3xi32>
// CHECK: %[[D:.*]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x4xi8>, tensor<4x3xi8>) -> tensor<2x3xi32>
// CHECK: %[[R:.*]] = stablehlo.convert %arg1 : (tensor<4x3xi8>) -> tensor<4x3xi32>
// CHECK: %[[SUMS:.*]] = stablehlo.reduce(%[[R]] init: %{{.*}}) applies stablehlo.add across dimensions = [0] : (tensor<4x3xi32>, tensor<i32>) -> tensor<3xi32>
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %[[SUMS]], dims = [1] : (tensor<3xi32>) -> tensor<2x3xi32>
// CHECK: %[[ZP:.*]] = stablehlo.constant dense<5> : tensor<2x3xi32>
// CHECK: %[[SHARE:.*]] = stablehlo.multiply %[[B]], %[[ZP]]
// CHECK: %[[OUT:.*]] = stablehlo.subtract %[[D]], %[[SHARE]]
// CHECK-NEXT: return %[[OUT]] : tensor<2x3xi32>
func.func @dot_i32(%a: tensor<2x4x!quant.uniform<i8:f32, 0.5:5>>, %b: tensor<4x3x!quant.uniform<i8:f32, 0.25>>) -> tensor<2x3x!quant.uniform<i32:f32, 0.125>> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x4x!quant.uniform<i8:f32, 0.5:5>>, tensor<4x3x!quant.uniform<i8:f32, 0.25>>) -> tensor<2x3x!quant.uniform<i32:f32, 0.125>>
  return %0 : tensor<2x3x!quant.uniform<i32:f32, 0.125>>
}

// -----

// Wider storage: both operands centered in i32 first.
// CHECK-LABEL: func.func @dot_centered(%arg0: tensor<2x4xi16>, %arg1: tensor<4x3xi16>)
// CHECK: %[[L:.*]] = stablehlo.convert %arg0 : (tensor<2x4xi16>) -> tensor<2x4xi32>
// CHECK: %[[ZP:.*]] = stablehlo.constant dense<5> : tensor<2x4xi32>
// CHECK: %[[LC:.*]] = stablehlo.subtract %[[L]], %[[ZP]]
// CHECK: %[[R:.*]] = stablehlo.convert %arg1 : (tensor<4x3xi16>) -> tensor<4x3xi32>
// CHECK: stablehlo.dot_general %[[LC]], %[[R]], contracting_dims = [1] x [0] : (tensor<2x4xi32>, tensor<4x3xi32>) -> tensor<2x3xi32>
func.func @dot_centered(%a: tensor<2x4x!quant.uniform<i16:f32, 0.5:5>>, %b: tensor<4x3x!quant.uniform<i16:f32, 0.25>>) -> tensor<2x3x!quant.uniform<i32:f32, 0.125>> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x4x!quant.uniform<i16:f32, 0.5:5>>, tensor<4x3x!quant.uniform<i16:f32, 0.25>>) -> tensor<2x3x!quant.uniform<i32:f32, 0.125>>
  return %0 : tensor<2x3x!quant.uniform<i32:f32, 0.125>>
}

// -----

// Per-axis rhs scales become per-channel factors of the result's dimension
// that rhs's quantized dimension turns into (here 1), then round and clamp.
// CHECK-LABEL: func.func @dot_per_axis
// CHECK: %[[D:.*]] = stablehlo.dot_general {{.*}} -> tensor<2x3xi32>
// CHECK: %[[F:.*]] = stablehlo.convert %[[D]] : (tensor<2x3xi32>) -> tensor<2x3xf32>
// CHECK: %[[M:.*]] = stablehlo.constant dense<[5.000000e-01, 1.000000e+00, 2.000000e+00]> : tensor<3xf32>
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %[[M]], dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: stablehlo.multiply %[[F]], %[[B]]
// CHECK: stablehlo.round_nearest_even
// CHECK: stablehlo.clamp
// CHECK: stablehlo.convert %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xi8>
func.func @dot_per_axis(%a: tensor<2x4x!quant.uniform<i8:f32, 0.5>>, %b: tensor<4x3x!quant.uniform<i8:f32:1, {0.25, 0.5, 1.0}>>) -> tensor<2x3x!quant.uniform<i8:f32, 0.25>> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x4x!quant.uniform<i8:f32, 0.5>>, tensor<4x3x!quant.uniform<i8:f32:1, {0.25, 0.5, 1.0}>>) -> tensor<2x3x!quant.uniform<i8:f32, 0.25>>
  return %0 : tensor<2x3x!quant.uniform<i8:f32, 0.25>>
}

// -----

// Bodies of ops with regions are lowered like any other ops; their block
// arguments take the storage type.
// CHECK-LABEL: func.func @reduce
// CHECK: stablehlo.reduce(%arg0 init: %arg1) across dimensions = [0] : (tensor<4xi8>, tensor<i8>) -> tensor<i8>
// CHECK: reducer(%[[X:.*]]: tensor<i8>, %[[Y:.*]]: tensor<i8>)
// CHECK: stablehlo.maximum %{{.*}}, %{{.*}} : tensor<f32>
// CHECK: stablehlo.return %{{.*}} : tensor<i8>
func.func @reduce(%x: tensor<4x!quant.uniform<i8:f32, 0.5:1>>, %init: tensor<!quant.uniform<i8:f32, 0.5:1>>) -> tensor<!quant.uniform<i8:f32, 0.5:1>> {
  %0 = stablehlo.reduce(%x init: %init) applies stablehlo.maximum across dimensions = [0] : (tensor<4x!quant.uniform<i8:f32, 0.5:1>>, tensor<!quant.uniform<i8:f32, 0.5:1>>) -> tensor<!quant.uniform<i8:f32, 0.5:1>>
  return %0 : tensor<!quant.uniform<i8:f32, 0.5:1>>
}
