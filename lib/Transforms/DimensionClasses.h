//===- DimensionClasses.h - Dimensions the program says are equal -*- C++ -*-===//
//
// StableHLO's shape rules equate dimensions across ops (an elementwise op's
// operands, a product's batch and contracting dimensions, ...); the classes
// of equal (value, dimension) pairs, for one symbol per class.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_TRANSFORMS_DIMENSIONCLASSES_H
#define STABLEHLO_TVM_TRANSFORMS_DIMENSIONCLASSES_H

#include "SymbolicElements.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/EquivalenceClasses.h"

namespace mlir::stablehlo_tvm {

/// A dimension of a value; dimension -1 stands for a scalar size value.
using DimKey = std::pair<void *, int64_t>;
DimKey dimKey(Value v, int64_t d);

/// Dimensions the program's ops say are equal (StableHLO requires it: an
/// elementwise op's operands, a product's batch and contracting
/// dimensions, ...), in classes of (value, dimension). With `sizes`, a
/// dynamic op's result dimension also joins the size value that gives
/// it ((size, -1)).
llvm::EquivalenceClasses<DimKey> dimClasses(func::FuncOp function,
                                            SymbolicElements *sizes = nullptr);

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_TRANSFORMS_DIMENSIONCLASSES_H
