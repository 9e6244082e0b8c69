//===- CHLO.h - The chlo dialect --------------------------------*- C++ -*-===//

#ifndef STABLEHLO_TVM_DIALECT_CHLO_IR_CHLO_H
#define STABLEHLO_TVM_DIALECT_CHLO_IR_CHLO_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "stablehlo-tvm/Dialect/CHLO/IR/CHLODialect.h.inc"

#define GET_OP_CLASSES
#include "stablehlo-tvm/Dialect/CHLO/IR/CHLOOps.h.inc"

#endif // STABLEHLO_TVM_DIALECT_CHLO_IR_CHLO_H
