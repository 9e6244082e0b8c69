//===- RepeatedCall.h - A jit call repeated, its arguments kept -*- C++ -*-===//
//
// `stablehlo_tvm.jit` calls the same build again and again with arguments
// of one tree (a training loop's parameters and batch, a solver's state).
// In Python, telling which leaves changed, converting them, calling the VM
// and making the result arrays costs ~8 us a call, more than a small
// program's VM call; here it is one native call: leaves passed again are
// not looked at (jax arrays, results passed back), numpy arrays and Python
// scalars are copied into tensors held for their parameters (or passed in
// place when large), and the VM function is called through TVM's C ABI.
// A leaf it cannot take (a new jax array, another type or shape) is named
// to the caller, which converts it and hands the tensor back (`set`).
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_PYTHON_REPEATEDCALL_H
#define STABLEHLO_TVM_PYTHON_REPEATEDCALL_H

#include <nanobind/nanobind.h>

namespace mlir::stablehlo_tvm::python {

/// Adds class RepeatedCall to `m`.
void bindRepeatedCall(nanobind::module_ &m);

} // namespace mlir::stablehlo_tvm::python

#endif // STABLEHLO_TVM_PYTHON_REPEATEDCALL_H
