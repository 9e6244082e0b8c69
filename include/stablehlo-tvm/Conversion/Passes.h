//===- Passes.h - Conversions to the tvm dialect ----------------*- C++ -*-===//

#ifndef STABLEHLO_TVM_CONVERSION_PASSES_H
#define STABLEHLO_TVM_CONVERSION_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DECL
#include "stablehlo-tvm/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "stablehlo-tvm/Conversion/Passes.h.inc"

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_CONVERSION_PASSES_H
