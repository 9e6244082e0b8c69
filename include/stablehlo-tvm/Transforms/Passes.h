//===- Passes.h - Transformations of the import pipeline --------*- C++ -*-===//

#ifndef STABLEHLO_TVM_TRANSFORMS_PASSES_H
#define STABLEHLO_TVM_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::stablehlo_tvm {

/// On an op a pass could not lower: why, for the legality check to report.
constexpr llvm::StringLiteral kUnsupportedReasonAttr = "tvm.unsupported_reason";
/// On an op a pass built only to connect to such an op (the legality check
/// reports the op, not it).
constexpr llvm::StringLiteral kBoundaryAttr = "tvm.boundary";

#define GEN_PASS_DECL
#include "stablehlo-tvm/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "stablehlo-tvm/Transforms/Passes.h.inc"

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_TRANSFORMS_PASSES_H
