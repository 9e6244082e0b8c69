//===- VerifierUtils.h - Checks the op verifiers share ----------*- C++ -*-===//

#ifndef STABLEHLO_TVM_LIB_STABLEHLO_VERIFIERUTILS_H
#define STABLEHLO_TVM_LIB_STABLEHLO_VERIFIERUTILS_H

#include "mlir/IR/Operation.h"

namespace mlir::stablehlo {

/// Fails unless `dims` are distinct values in [0, rank), and sorted when
/// `sorted` is set; `what` names them in the error.
LogicalResult verifyDimensionList(Operation *op, StringRef what,
                                  ArrayRef<int64_t> dims, int64_t rank,
                                  bool sorted = false);

/// Fails unless `dimension` (an I64Attr's value, so a negative one arrives
/// as a large unsigned) is in [0, rank); `what` names the attribute.
LogicalResult verifyDimensionIndex(Operation *op, StringRef what,
                                   uint64_t dimension, int64_t rank);

/// Whether two dimension sizes can be equal (either may be dynamic).
bool compatibleDims(int64_t a, int64_t b);

/// How many values `block`'s terminator returns; -1 when the block does not
/// end in one. An op verifies before MLIR checks its regions' terminators,
/// so a body the parser took without one reaches the op's verifier.
int64_t numReturned(Block &block);

} // namespace mlir::stablehlo

#endif // STABLEHLO_TVM_LIB_STABLEHLO_VERIFIERUTILS_H
