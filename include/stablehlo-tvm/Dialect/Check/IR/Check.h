//===- Check.h - The check dialect ------------------------------*- C++ -*-===//

#ifndef STABLEHLO_TVM_DIALECT_CHECK_IR_CHECK_H
#define STABLEHLO_TVM_DIALECT_CHECK_IR_CHECK_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"

#include "stablehlo-tvm/Dialect/Check/IR/CheckDialect.h.inc"

#define GET_OP_CLASSES
#include "stablehlo-tvm/Dialect/Check/IR/CheckOps.h.inc"

#endif // STABLEHLO_TVM_DIALECT_CHECK_IR_CHECK_H
