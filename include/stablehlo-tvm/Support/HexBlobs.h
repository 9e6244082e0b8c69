//===- HexBlobs.h - Rewriting the hex constants of a module's text -*- C++ -*-===//
//
// Large dense constants print as hex literals, `dense<"0x..."> : tensor<...>`.
// The i1 compatibility rewrite and the large-constant extraction both walk a
// module's text literal by literal; this is that walk.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_SUPPORT_HEXBLOBS_H
#define STABLEHLO_TVM_SUPPORT_HEXBLOBS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::stablehlo_tvm {

/// A hex literal whose tensor type is spelled right after it.
struct HexBlob {
  llvm::StringRef hex;         ///< the digits, without "0x"
  int64_t elementCount;        ///< of the tensor type
  llvm::StringRef elementType; ///< as spelled: f32, i1, ui8, ...
};

/// `text` with each hex literal (`dense<"0x...">`) for which `replace`
/// returns a string replaced by that string. Nothing when none is: the text
/// can be used as it is, with no copy (constants can be hundreds of MB).
std::optional<std::string> rewriteHexBlobs(
    llvm::StringRef text,
    llvm::function_ref<std::optional<std::string>(const HexBlob &)> replace);

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_SUPPORT_HEXBLOBS_H
