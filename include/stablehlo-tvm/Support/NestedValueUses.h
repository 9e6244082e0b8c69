//===- NestedValueUses.h - Refuse uses of values a later region defines ---===//
//
// MLIR's parser resolves a forward reference to the next definition of the
// name in the same isolated scope, even one inside a region nested deeper
// than the use. When the op owning that region then fails to parse, the
// region is freed while the outer op still uses its block argument or
// result, and the parser's cleanup writes into the freed block: heap
// corruption that kills the process later. Such a use is never valid (a
// region's values are not visible outside it), so text is scanned first and
// refused at the use.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_SUPPORT_NESTEDVALUEUSES_H
#define STABLEHLO_TVM_SUPPORT_NESTEDVALUEUSES_H

#include "stablehlo-tvm/Support/NestingDepth.h"

#include <optional>
#include <string>

namespace mlir::stablehlo_tvm {

/// A use of an SSA value whose definition comes later, inside a region
/// nested below the use.
struct NestedValueUse {
  TextPosition at;
  std::string name;
};

/// The first such use in `text` (outside string literals and comments), or
/// nothing.
std::optional<NestedValueUse> findUseOfLaterNestedValue(llvm::StringRef text);

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_SUPPORT_NESTEDVALUEUSES_H
