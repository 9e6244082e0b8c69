//===- NestingDepth.h - Refuse text nested deeper than a parser survives --===//
//
// MLIR's parser descends once per nested attribute, type list and region: a
// few hundred thousand `[` exhaust the stack and kill the process. Text is
// scanned first and refused, with the position where it goes too deep, when
// its brackets, braces or parentheses nest deeper than any program does.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_SUPPORT_NESTINGDEPTH_H
#define STABLEHLO_TVM_SUPPORT_NESTINGDEPTH_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::stablehlo_tvm {

/// Deeper than this is refused.
constexpr unsigned kMaxNestingDepth = 512;

/// Where the text first nests deeper than `limit` (1-based line and column),
/// outside string literals and comments; nothing when it never does.
struct TextPosition {
  unsigned line, column;
};
std::optional<TextPosition> findExcessiveNesting(llvm::StringRef text,
                                                 unsigned limit = kMaxNestingDepth);

/// Moves `i` from the opening `"` of a string literal to its closing one
/// (escapes skip the next character), counting lines and columns: the
/// scans of text before parsing do not look inside strings.
void skipStringLiteral(llvm::StringRef text, size_t &i, unsigned &line,
                       unsigned &column);

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_SUPPORT_NESTINGDEPTH_H
