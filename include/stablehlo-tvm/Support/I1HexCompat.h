//===- I1HexCompat.h - i1 hex literals of jaxlib's MLIR vs MLIR 22 -*- C++ -*-===//
//
// Large dense constants print as hex blobs: `dense<"0x...">`. For i1 tensors,
// the MLIR inside jaxlib writes one byte per element, while the MLIR 22 this
// project links packs eight elements per byte; neither reads the other's
// blob. These rewrite the i1 blobs of a module's text from one encoding to the
// other, leaving everything else untouched, so that JAX's text parses here and
// our text parses in jaxlib. They return nothing when no blob changes.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_SUPPORT_I1HEXCOMPAT_H
#define STABLEHLO_TVM_SUPPORT_I1HEXCOMPAT_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::stablehlo_tvm {

/// jaxlib's encoding (a byte per element) to MLIR 22's (bit-packed).
std::optional<std::string> i1HexBytesToPacked(llvm::StringRef text);

/// MLIR 22's encoding (bit-packed) to jaxlib's (a byte per element).
std::optional<std::string> i1HexPackedToBytes(llvm::StringRef text);

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_SUPPORT_I1HEXCOMPAT_H
