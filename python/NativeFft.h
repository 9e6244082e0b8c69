//===- NativeFft.h - stablehlo.fft as a library call ------------*- C++ -*-===//
//
// See NativeFft.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_PYTHON_NATIVEFFT_H
#define STABLEHLO_TVM_PYTHON_NATIVEFFT_H

namespace mlir::stablehlo_tvm::python {

/// Registers `stablehlo_tvm.fft` (NativeFft.cpp) with TVM's FFI.
void registerNativeFft();

} // namespace mlir::stablehlo_tvm::python

#endif // STABLEHLO_TVM_PYTHON_NATIVEFFT_H
