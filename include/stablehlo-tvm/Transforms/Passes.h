//===- Passes.h - Transformations of the import pipeline --------*- C++ -*-===//

#ifndef STABLEHLO_TVM_TRANSFORMS_PASSES_H
#define STABLEHLO_TVM_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DECL
#include "stablehlo-tvm/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "stablehlo-tvm/Transforms/Passes.h.inc"

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_TRANSFORMS_PASSES_H
