// RUN: stablehlo-to-tvm %s --stablehlo-decompose-fft --split-input-file | FileCheck %s

// Up to 64 points: one product with the DFT matrix (an inverse's 1/N in it).
// CHECK-LABEL: func.func @short
// CHECK: %[[W:.*]] = stablehlo.constant dense<{{.*}}(2.500000e-01,0.000000e+00){{.*}}> : tensor<4x4xcomplex<f32>>
// CHECK: %[[R:.*]] = stablehlo.dot_general %arg0, %[[W]], contracting_dims = [1] x [0] {tvm.dft_product}
// CHECK-NOT: stablehlo.fft
// CHECK: return %[[R]]
func.func @short(%x: tensor<2x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = IFFT, length = [4] : (tensor<2x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>>
  return %0 : tensor<2x4xcomplex<f32>>
}

// -----

// 128 = 8 x 16, four steps: 8-point transforms over a reshape, twiddle
// factors, 16-point transforms, one transpose.
// CHECK-LABEL: func.func @four_step
// CHECK: %[[X:.*]] = stablehlo.reshape %arg0 : (tensor<2x128xcomplex<f32>>) -> tensor<2x8x16xcomplex<f32>>
// CHECK: %[[A:.*]] = stablehlo.dot_general %[[X]], %{{.*}}, contracting_dims = [1] x [0] {tvm.dft_product} : (tensor<2x8x16xcomplex<f32>>, tensor<8x8xcomplex<f32>>) -> tensor<2x16x8xcomplex<f32>>
// CHECK: %[[T:.*]] = stablehlo.broadcast_in_dim %{{.*}}, dims = [1, 2] : (tensor<16x8xcomplex<f32>>) -> tensor<2x16x8xcomplex<f32>>
// CHECK: %[[B:.*]] = stablehlo.multiply %[[A]], %[[T]]
// CHECK: %[[C:.*]] = stablehlo.dot_general %[[B]], %{{.*}}, contracting_dims = [1] x [0] {tvm.dft_product} : (tensor<2x16x8xcomplex<f32>>, tensor<16x16xcomplex<f32>>) -> tensor<2x8x16xcomplex<f32>>
// CHECK: %[[D:.*]] = stablehlo.transpose %[[C]], dims = [0, 2, 1]
// CHECK: %[[R:.*]] = stablehlo.reshape %[[D]] : (tensor<2x16x8xcomplex<f32>>) -> tensor<2x128xcomplex<f32>>
// CHECK: return %[[R]]
func.func @four_step(%x: tensor<2x128xcomplex<f32>>) -> tensor<2x128xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = FFT, length = [128] : (tensor<2x128xcomplex<f32>>) -> tensor<2x128xcomplex<f32>>
  return %0 : tensor<2x128xcomplex<f32>>
}

// -----

// A prime length past 1024: Bluestein's chirp, a convolution of 4096 points
// (>= 2N - 1) through power-of-two transforms, then the first N.
// CHECK-LABEL: func.func @prime
// CHECK: stablehlo.multiply %arg0
// CHECK: stablehlo.pad %{{.*}}, low = [0], high = [3065], interior = [0] : (tensor<1031xcomplex<f64>>, tensor<complex<f64>>) -> tensor<4096xcomplex<f64>>
// CHECK: stablehlo.reshape %{{.*}} : (tensor<4096xcomplex<f64>>) -> tensor<64x64xcomplex<f64>>
// CHECK: stablehlo.slice %{{.*}} [0:1031]
// CHECK: %[[R:.*]] = stablehlo.multiply
// CHECK: return %[[R]]
func.func @prime(%x: tensor<1031xcomplex<f64>>) -> tensor<1031xcomplex<f64>> {
  %0 = stablehlo.fft %x, type = FFT, length = [1031] : (tensor<1031xcomplex<f64>>) -> tensor<1031xcomplex<f64>>
  return %0 : tensor<1031xcomplex<f64>>
}

// -----

// Short RFFT: the real input times the cosine and sine matrices (bins 0..N/2).
// CHECK-LABEL: func.func @rfft
// CHECK-DAG: %[[COS:.*]] = stablehlo.constant dense<{{.*}}> : tensor<4x3xf32>
// CHECK-DAG: %[[SIN:.*]] = stablehlo.constant dense<{{.*}}> : tensor<4x3xf32>
// CHECK-DAG: %[[RE:.*]] = stablehlo.dot_general %arg0, %[[COS]], contracting_dims = [1] x [0]
// CHECK-DAG: %[[IM:.*]] = stablehlo.dot_general %arg0, %[[SIN]], contracting_dims = [1] x [0]
// CHECK: %[[R:.*]] = stablehlo.complex %[[RE]], %[[IM]]
// CHECK: return %[[R]]
func.func @rfft(%x: tensor<2x4xf32>) -> tensor<2x3xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = RFFT, length = [4] : (tensor<2x4xf32>) -> tensor<2x3xcomplex<f32>>
  return %0 : tensor<2x3xcomplex<f32>>
}

// -----

// Long RFFT of an even length 2m: one m-point complex transform of
// x[2j] + i x[2j+1], unfolded into bins 0..m by two constant products.
// CHECK-LABEL: func.func @long_rfft
// CHECK: %[[PAIRS:.*]] = stablehlo.reshape %arg0 : (tensor<256xf32>) -> tensor<128x2xf32>
// CHECK-DAG: stablehlo.slice %[[PAIRS]] [0:128, 0:1]
// CHECK-DAG: stablehlo.slice %[[PAIRS]] [0:128, 1:2]
// CHECK: %[[Z:.*]] = stablehlo.complex %{{.*}}, %{{.*}} : tensor<128xcomplex<f32>>
// CHECK: stablehlo.reshape %[[Z]] : (tensor<128xcomplex<f32>>) -> tensor<8x16xcomplex<f32>>
// CHECK: %[[WRAP:.*]] = stablehlo.concatenate %{{.*}}, %{{.*}}, dim = 0 : (tensor<128xcomplex<f32>>, tensor<1xcomplex<f32>>) -> tensor<129xcomplex<f32>>
// CHECK: stablehlo.reverse %[[WRAP]], dims = [0]
// CHECK: %[[R:.*]] = stablehlo.add
// CHECK: return %[[R]]
func.func @long_rfft(%x: tensor<256xf32>) -> tensor<129xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = RFFT, length = [256] : (tensor<256xf32>) -> tensor<129xcomplex<f32>>
  return %0 : tensor<129xcomplex<f32>>
}

// -----

// Long IRFFT of an even length 2m: bins 0..m folded into m complex values
// (the imaginary parts of bins 0 and m dropped), one m-point inverse, its
// real and imaginary parts interleaved.
// CHECK-LABEL: func.func @long_irfft
// CHECK: %[[IM:.*]] = stablehlo.imag %arg0
// CHECK: %[[KEPT:.*]] = stablehlo.multiply %[[IM]]
// CHECK: %[[X:.*]] = stablehlo.complex %{{.*}}, %[[KEPT]]
// CHECK: stablehlo.reverse %[[X]], dims = [0]
// CHECK: %[[FOLD:.*]] = stablehlo.slice %{{.*}} [0:64] : (tensor<65xcomplex<f32>>) -> tensor<64xcomplex<f32>>
// CHECK: %[[Z:.*]] = stablehlo.dot_general %[[FOLD]], %{{.*}} : (tensor<64xcomplex<f32>>, tensor<64x64xcomplex<f32>>) -> tensor<64xcomplex<f32>>
// CHECK: stablehlo.concatenate %{{.*}}, %{{.*}}, dim = 1 : (tensor<64x1xf32>, tensor<64x1xf32>) -> tensor<64x2xf32>
// CHECK: %[[R:.*]] = stablehlo.reshape %{{.*}} : (tensor<64x2xf32>) -> tensor<128xf32>
// CHECK: return %[[R]]
func.func @long_irfft(%x: tensor<65xcomplex<f32>>) -> tensor<128xf32> {
  %0 = stablehlo.fft %x, type = IRFFT, length = [128] : (tensor<65xcomplex<f32>>) -> tensor<128xf32>
  return %0 : tensor<128xf32>
}

// -----

// Long IRFFT of an odd length: bins (n+1)/2..n-1 are the conjugates of
// bins (n-1)/2..1; the complex inverse's real part is the signal.
// CHECK-LABEL: func.func @odd_irfft
// CHECK: %[[TAIL:.*]] = stablehlo.slice %arg0 [1:50]
// CHECK: %[[REV:.*]] = stablehlo.reverse %[[TAIL]], dims = [0]
// CHECK: %[[IM:.*]] = stablehlo.imag %[[REV]]
// CHECK: %[[NEG:.*]] = stablehlo.negate %[[IM]]
// CHECK: %[[CONJ:.*]] = stablehlo.complex %{{.*}}, %[[NEG]]
// CHECK: stablehlo.concatenate %arg0, %[[CONJ]], dim = 0 : (tensor<50xcomplex<f32>>, tensor<49xcomplex<f32>>) -> tensor<99xcomplex<f32>>
// CHECK: %[[R:.*]] = stablehlo.real %{{.*}} : (tensor<99xcomplex<f32>>) -> tensor<99xf32>
// CHECK: return %[[R]]
func.func @odd_irfft(%x: tensor<50xcomplex<f32>>) -> tensor<99xf32> {
  %0 = stablehlo.fft %x, type = IRFFT, length = [99] : (tensor<50xcomplex<f32>>) -> tensor<99xf32>
  return %0 : tensor<99xf32>
}

// -----

// A leading axis: the product's new axis moves back in place.
// CHECK-LABEL: func.func @fft2
// CHECK: %[[A:.*]] = stablehlo.dot_general %arg0, %{{.*}}, contracting_dims = [0] x [0] {tvm.dft_product} : (tensor<3x5xcomplex<f64>>, tensor<3x3xcomplex<f64>>) -> tensor<5x3xcomplex<f64>>
// CHECK: %[[B:.*]] = stablehlo.transpose %[[A]], dims = [1, 0]
// CHECK: %[[R:.*]] = stablehlo.dot_general %[[B]], %{{.*}}, contracting_dims = [1] x [0]
// CHECK: return %[[R]]
func.func @fft2(%x: tensor<3x5xcomplex<f64>>) -> tensor<3x5xcomplex<f64>> {
  %0 = stablehlo.fft %x, type = FFT, length = [3, 5] : (tensor<3x5xcomplex<f64>>) -> tensor<3x5xcomplex<f64>>
  return %0 : tensor<3x5xcomplex<f64>>
}

// -----

// No input points: every output is an empty sum.
// CHECK-LABEL: func.func @empty
// CHECK: %[[Z:.*]] = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<1xcomplex<f32>>
// CHECK: return %[[Z]]
func.func @empty(%x: tensor<0xf32>) -> tensor<1xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = RFFT, length = [0] : (tensor<0xf32>) -> tensor<1xcomplex<f32>>
  return %0 : tensor<1xcomplex<f32>>
}

// -----

// A leading axis of up to 256 points is one product (the four-step would
// move it last and back); the last axis of 128 is four steps.
// CHECK-LABEL: func.func @leading_128
// CHECK: %[[A:.*]] = stablehlo.dot_general %arg0, %{{.*}}, contracting_dims = [0] x [0] {tvm.dft_product} : (tensor<128x128xcomplex<f32>>, tensor<128x128xcomplex<f32>>) -> tensor<128x128xcomplex<f32>>
// CHECK: %[[B:.*]] = stablehlo.transpose %[[A]], dims = [1, 0]
// CHECK: stablehlo.reshape %[[B]] : (tensor<128x128xcomplex<f32>>) -> tensor<128x8x16xcomplex<f32>>
func.func @leading_128(%x: tensor<128x128xcomplex<f32>>) -> tensor<128x128xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = FFT, length = [128, 128] : (tensor<128x128xcomplex<f32>>) -> tensor<128x128xcomplex<f32>>
  return %0 : tensor<128x128xcomplex<f32>>
}
