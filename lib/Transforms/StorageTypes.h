//===- StorageTypes.h - Element types held in wider storage ---------------===//
//
// What stablehlo-widen-sub-byte-integers (i2/i4 in 8 bits) and
// stablehlo-lower-small-floats (f8/f6/f4 in f32) share: finding the ops a
// type predicate marks, converting every function's signatures, calls,
// returns and op types under a type converter, rebuilding an op (regions
// moved over) with converted types, and recording the declared result
// types of public functions for callers.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_TRANSFORMS_STORAGETYPES_H
#define STABLEHLO_TVM_TRANSFORMS_STORAGETYPES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

#include <functional>

namespace mlir::stablehlo_tvm {

using TypePredicate = function_ref<bool(Type)>;

/// Whether `op` itself has operands, results or block arguments of such
/// types (the ops nested in its regions are converted on their own).
bool hasTypesWhere(Operation *op, TypePredicate predicate);

/// Whether `op` or any op nested in it has.
bool touchesTypesWhere(Operation *op, TypePredicate predicate);

/// Converts `module` under `converter`: function signatures, calls and
/// returns, and every op `patterns` converts; ops with such types are
/// illegal. Partial: what no pattern converts stays for the legality check.
void convertStorageTypes(ModuleOp module, const TypeConverter &converter,
                         std::function<bool(Type)> predicate,
                         RewritePatternSet &&patterns);

/// Whether the op patterns convert `op`: a stablehlo op (function
/// signatures, calls and returns have patterns of their own).
bool isConvertedOp(Operation *op);

/// `op` rebuilt on `operands` with its result types converted and its
/// regions moved over (block argument types converted); null on failure.
Operation *rebuildWithConvertedTypes(Operation *op, ValueRange operands,
                                     ConversionPatternRewriter &rewriter,
                                     const TypeConverter &converter);

/// Public functions with results of such types get `attrName`: an array of
/// `name(type)` per result, "" for the others.
void recordDeclaredResults(ModuleOp module, TypePredicate predicate,
                           StringRef attrName,
                           function_ref<std::string(Type)> name);

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_TRANSFORMS_STORAGETYPES_H
