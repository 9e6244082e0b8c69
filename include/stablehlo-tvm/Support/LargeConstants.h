//===- LargeConstants.h - Large hex constants parsed into blobs -*- C++ -*-===//
//
// A dense constant of a module's text is a hex blob: `dense<"0x...">`. MLIR's
// parser decodes it into a temporary buffer, then copies that into the
// context's attribute storage, which is 16-byte aligned and lives as long as
// the context. For large constants, these decode the hex once, straight into
// a 64-byte-aligned resource blob, and the text refers to it as
// `dense_resource<...>`: the module holds each constant's bytes once, and TVM
// can use them where they lie.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_SUPPORT_LARGECONSTANTS_H
#define STABLEHLO_TVM_SUPPORT_LARGECONSTANTS_H

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir::stablehlo_tvm {

/// The blobs of a module's large constants, and its text with each blob
/// replaced by a `dense_resource` naming it.
struct LargeConstants {
  std::string text;
  std::vector<std::pair<std::string, AsmResourceBlob>> blobs;

  /// Hands the blobs to `context`, where the parsed text declared them.
  void attachTo(MLIRContext *context);
};

/// The large constants of `text`: non-splat hex blobs of at least `minBytes`
/// bytes whose tensor type is spelled right after them, with an integer or
/// float element type of whole bytes. Nothing when there are none.
std::optional<LargeConstants> extractLargeConstants(llvm::StringRef text,
                                                    size_t minBytes);

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_SUPPORT_LARGECONSTANTS_H
