//===- DeclineReasons.h - Why patterns left ops unconverted -----*- C++ -*-===//
//
// MLIR keeps a pattern's notifyMatchFailure reason only in debug builds. The
// import's patterns decline through `decline`, which also records the reason
// while a conversion runs, so that the legality report can say why an op
// stayed (an element type, an attribute, a body it cannot translate).
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_LIB_CONVERSION_DECLINEREASONS_H
#define STABLEHLO_TVM_LIB_CONVERSION_DECLINEREASONS_H

#include "mlir/IR/Operation.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"

#include <string>
#include <vector>

namespace mlir::stablehlo_tvm {

/// The reasons recorded on this thread while it is alive (one conversion).
class DeclineReasons {
public:
  DeclineReasons();
  ~DeclineReasons();
  DeclineReasons(const DeclineReasons &) = delete;
  DeclineReasons &operator=(const DeclineReasons &) = delete;

  void record(Operation *op, const Twine &reason);

  /// Leaves the reasons, joined, in `tvm.unsupported_reason` on the ops
  /// under `root` that are still of the kind they were recorded for (an
  /// op a later pattern converted is gone; one that reused its address is
  /// another op) and have no reason yet.
  void annotate(Operation *root) const;

  /// The recorder of this thread's conversion, or null.
  static DeclineReasons *current();

private:
  struct Entry {
    OperationName name;
    std::vector<std::string> reasons;
  };
  llvm::DenseMap<Operation *, Entry> entries;
  DeclineReasons *previous;
};

/// A pattern declining `op`: notifyMatchFailure, with the reason recorded.
LogicalResult decline(ConversionPatternRewriter &rewriter, Operation *op,
                      const Twine &reason);

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_LIB_CONVERSION_DECLINEREASONS_H
