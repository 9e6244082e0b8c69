//===- ResultArrays.h - A VM call's results as numpy arrays -----*- C++ -*-===//

#ifndef STABLEHLO_TVM_PYTHON_RESULTARRAYS_H
#define STABLEHLO_TVM_PYTHON_RESULTARRAYS_H

#include <nanobind/nanobind.h>

#include <cstdint>

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
