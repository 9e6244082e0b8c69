//===- RelaxBodyEmitter.h - A tvm-dialect function body into Relax -*- C++ -*-===//
//
// The body of a tvm-dialect function, emitted into the open dataflow block of
// a Relax BlockBuilder through TVM's FFI. Elementwise ops whose result type is
// their operands' (the bulk of a model's ops) are built here with their type
// set; every other op goes to the Python emitter, one op at a time, with
// its description.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_PYTHON_RELAXBODYEMITTER_H
#define STABLEHLO_TVM_PYTHON_RELAXBODYEMITTER_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <tvm/ffi/container/array.h>
#include <tvm/ffi/function.h>

namespace mlir::stablehlo_tvm::python {

/// The id by which Python knows an SSA value (see StableHLOTVMModule.cpp).
int64_t valueId(Value value);

/// Whether ops named `name` are built by emitRelaxBody itself: tvm-dialect
/// ops with no attributes whose result has their operands' type. Relax infers
/// that same type for them (its float-only ops are float-only in the dialect
/// too), so the emitter sets it instead of having Relax infer it.
bool emitsDirectly(OperationName name);

/// Emits the ops of `func` into `builder`'s open dataflow block and returns
/// the Relax values the function returns. `params` and `paramTypes` are the
/// Relax parameters and their types. Every op emitsDirectly does not cover
/// goes to `fallback(description, id, value, id, value, ...)`: what
/// `describe` makes of the op, then the id and Relax value of each of its
/// operands and of what its regions use from outside; it returns
/// [value, type] for each of the op's results, in one flat list.
tvm::ffi::Array<tvm::ffi::Any>
emitRelaxBody(func::FuncOp func, const tvm::ffi::Any &builder,
              const tvm::ffi::Array<tvm::ffi::Any> &params,
              const tvm::ffi::Array<tvm::ffi::Any> &paramTypes,
              llvm::function_ref<tvm::ffi::Any(Operation &)> describe,
              const tvm::ffi::Function &fallback);

} // namespace mlir::stablehlo_tvm::python

#endif // STABLEHLO_TVM_PYTHON_RELAXBODYEMITTER_H
