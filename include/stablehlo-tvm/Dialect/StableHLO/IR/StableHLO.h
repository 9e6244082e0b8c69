//===- StableHLO.h - The stablehlo dialect ----------------------*- C++ -*-===//

#ifndef STABLEHLO_TVM_DIALECT_STABLEHLO_IR_STABLEHLO_H
#define STABLEHLO_TVM_DIALECT_STABLEHLO_IR_STABLEHLO_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpAsmSupport.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLOTraits.h"

#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLODialect.h.inc"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLOEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLOTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLOAttrs.h.inc"

#define GET_OP_CLASSES
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLOOps.h.inc"

#endif // STABLEHLO_TVM_DIALECT_STABLEHLO_IR_STABLEHLO_H
