//===- ParserHazards.h - Refuse text MLIR's parser crashes on -------------===//
//
// Two inputs make MLIR's parser itself corrupt memory or crash; text is
// scanned for them first and refused at their position.
//
// A use of a value a later, nested region defines: MLIR's parser resolves a forward reference to the next definition of the
// name in the same isolated scope, even one inside a region nested deeper
// than the use. When the op owning that region then fails to parse, the
// region is freed while the outer op still uses its block argument or
// result, and the parser's cleanup writes into the freed block: heap
// corruption that kills the process later. Such a use is never valid (a
// region's values are not visible outside it).
//
// A dense array of `index` (`array<index: ...>`): the parser asks the
// element type for a bit width, which `index` does not have, and reads
// through a null pointer. DenseArrayAttr holds no `index` elements anyway.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_SUPPORT_PARSERHAZARDS_H
#define STABLEHLO_TVM_SUPPORT_PARSERHAZARDS_H

#include "stablehlo-tvm/Support/NestingDepth.h"

#include <optional>
#include <string>

namespace mlir::stablehlo_tvm {

/// Where text the parser cannot survive begins, and what it is.
struct ParserHazard {
  TextPosition at;
  std::string message;
};

/// The first hazard in `text` (outside string literals and comments), or
/// nothing.
std::optional<ParserHazard> findParserHazard(llvm::StringRef text);

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_SUPPORT_PARSERHAZARDS_H
