//===- Passes.h - Transformations of the import pipeline --------*- C++ -*-===//

#ifndef STABLEHLO_TVM_TRANSFORMS_PASSES_H
#define STABLEHLO_TVM_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir::stablehlo_tvm {

/// On an op a pass could not lower: why, for the legality check to report.
constexpr llvm::StringLiteral kUnsupportedReasonAttr = "tvm.unsupported_reason";
/// On an op a pass built only to connect to such an op (the legality check
/// reports the op, not it).
constexpr llvm::StringLiteral kBoundaryAttr = "tvm.boundary";

#define GEN_PASS_DECL
#include "stablehlo-tvm/Transforms/Passes.h.inc"

/// Rewrites dynamic ops whose shape operands are constants, and whose result
/// types are static, into their static forms.
void populateStaticShapePatterns(RewritePatternSet &patterns);

/// Applies `patterns` greedily to `op` and nothing else: no folding, no
/// constant deduplication, no region simplification (those are left to the
/// passes that own them).
LogicalResult applyRewritesOnly(Operation *op, RewritePatternSet &&patterns);

/// The scalar integer arguments of `function` whose values determine shapes
/// (they reach a shape operand of a dynamic op): the dimension arguments of
/// an export that passes dimension sizes as leading scalars.
SmallVector<unsigned> getDimensionArguments(func::FuncOp function);

#define GEN_PASS_REGISTRATION
#include "stablehlo-tvm/Transforms/Passes.h.inc"

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_TRANSFORMS_PASSES_H
