//===- ResultArrays.h - A VM call's results as numpy arrays -----*- C++ -*-===//

#ifndef STABLEHLO_TVM_PYTHON_RESULTARRAYS_H
#define STABLEHLO_TVM_PYTHON_RESULTARRAYS_H

#include <nanobind/nanobind.h>
#include <tvm/ffi/c_api.h>

#include <cstdint>
#include <vector>

namespace mlir::stablehlo_tvm::python {

/// The tensors a VM call returned (`handle`: its result, one tensor or an
/// array of them, as TVM's FFI handle), less the last `drop`, as read-only
/// numpy arrays of type `arrayType` (an ndarray subclass) over the tensors'
/// memory, each holding its tensor; a copy for a tensor whose data address
/// is among `borrowed`. None, and nothing made, when a result is not a
/// dense CPU tensor of a dtype numpy has (its own, or one registered with
/// registerResultDtype).
nanobind::object resultArrays(std::uintptr_t handle, int64_t drop,
                              nanobind::handle arrayType,
                              const nanobind::tuple &borrowed);

/// resultArrays on the result object itself, with the borrowed tensors'
/// data addresses.
nanobind::object resultArraysOf(TVMFFIObject *result, int64_t drop,
                                nanobind::handle arrayType,
                                const std::vector<std::uintptr_t> &borrowed);

/// Whether numpy's C API is imported (it is on the first call that can).
/// Every file of the module shares the one import (PY_ARRAY_UNIQUE_SYMBOL).
bool numpyImported();

/// numpy's descriptor (a PyArray_Descr) of a tensor dtype, as a new
/// reference; null for one numpy has no dtype for.
PyObject *descriptorOf(DLDataType type);

/// The tensor a result array's base holds, or null for any other base.
TVMFFIObject *heldTensor(PyObject *base);

/// Results of DLPack dtype (`code`, `bits`) become arrays of numpy dtype
/// `dtype` (ml_dtypes' bfloat16 and f8 types, which numpy's C API does not
/// know by number). The first registration of a dtype stands.
void registerResultDtype(int code, int bits, nanobind::handle dtype);

/// The address of the tensor a result array holds (the array's base), or
/// None for any other object.
nanobind::object heldTensorAddress(nanobind::handle base);

/// Registers "stablehlo_tvm.held_tensor" with TVM's FFI: an address
/// heldTensorAddress gave -> that tensor, for passing a result back in.
void registerHeldTensor();

} // namespace mlir::stablehlo_tvm::python

#endif // STABLEHLO_TVM_PYTHON_RESULTARRAYS_H
