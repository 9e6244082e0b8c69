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

#endif // STABLEHLO_TVM_DIALECT_TVM_IR_TVM_H
