//===- SymbolicPad.h - dynamic_pad by symbolic amounts ----------*- C++ -*-===//

#ifndef STABLEHLO_TVM_TRANSFORMS_SYMBOLICPAD_H
#define STABLEHLO_TVM_TRANSFORMS_SYMBOLICPAD_H

#include "SymbolicElements.h"

namespace mlir::stablehlo_tvm {

/// `op` built from ops on symbolic shapes, its amounts `elements` of its
/// operands; null when an amount is not a known size or a constant one is
/// negative (the op then stays, for a build per size).
Value symbolicDynamicPad(OpBuilder &b, stablehlo::DynamicPadOp op,
                         SymbolicElements &elements);

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_TRANSFORMS_SYMBOLICPAD_H
