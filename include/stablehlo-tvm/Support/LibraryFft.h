//===- LibraryFft.h - Fourier transforms as library calls -------*- C++ -*-===//
//
// stablehlo-decompose-fft leaves a long transform to the runtime's library
// as `stablehlo.custom_call @stablehlo_tvm.fft` with the op's operand and
// result, its type and rank in `mhlo.backend_config`;
// stablehlo-lower-complex splits its complex values into parts and the
// conversion calls the packed function of the same name
// (python/NativeFft.cpp: its argument conventions).
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_SUPPORT_LIBRARYFFT_H
#define STABLEHLO_TVM_SUPPORT_LIBRARYFFT_H

#include "llvm/ADT/StringRef.h"

namespace mlir::stablehlo_tvm {

/// The custom call target and the packed function.
constexpr llvm::StringLiteral kLibraryFft = "stablehlo_tvm.fft";

/// The library's numbering of the transform types.
enum class LibraryFftType : int64_t { Fft = 0, Ifft = 1, Rfft = 2, Irfft = 3 };

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_SUPPORT_LIBRARYFFT_H
