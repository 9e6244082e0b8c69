//===- TVM.h - The tvm dialect ----------------------------------*- C++ -*-===//

#ifndef STABLEHLO_TVM_DIALECT_TVM_IR_TVM_H
#define STABLEHLO_TVM_DIALECT_TVM_IR_TVM_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "stablehlo-tvm/Dialect/TVM/IR/TVMDialect.h.inc"

#define GET_OP_CLASSES
#include "stablehlo-tvm/Dialect/TVM/IR/TVMOps.h.inc"

namespace mlir::tvm {

/// `shape` as the shape attributes of tvm ops spell it: -1 where dynamic.
SmallVector<int64_t> shapeAttrOf(ArrayRef<int64_t> shape);

/// Whether a reshape from `from` to `to` keeps the dynamic dimensions: the
/// same number, in order, with the same static element counts before,
/// between and after them. The k-th dynamic dimension of `to` is then the
/// k-th of `from` (their positions in `fromDims` and `toDims`).
bool keepsDynamicDims(ArrayRef<int64_t> from, ArrayRef<int64_t> to,
                      SmallVectorImpl<int64_t> &fromDims,
                      SmallVectorImpl<int64_t> &toDims);

/// Of `sizes` (one per dimension of `type`), those of its dynamic
/// dimensions, in order: what tvm ops taking sizes take.
SmallVector<Value> dynamicSizesAmong(RankedTensorType type,
                                     ArrayRef<Value> sizes);

/// The sizes of `value`'s dynamic dimensions `dims` (all when empty), in
/// order, as tvm.dim values: what tvm ops taking sizes take.
SmallVector<Value> dynamicSizesOf(OpBuilder &builder, Location loc,
                                  Value value,
                                  std::optional<ArrayRef<int64_t>> dims = {});

} // namespace mlir::tvm

#endif // STABLEHLO_TVM_DIALECT_TVM_IR_TVM_H
