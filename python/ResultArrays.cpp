//===- ResultArrays.cpp - A VM call's results as numpy arrays -------------===//
//
// A call through `Compiled` returns its results as read-only numpy arrays
// over TVM's buffers. Made in Python, each costs an FFI call to take it out
// of the result array, np.from_dlpack, a flag change and a subclass view:
// about a microsecond a result, which for a training step's 75 results is a
// tenth of its VM call. Here one call makes them all: each array's base is
// a capsule holding a reference to its tensor, so the memory lives as long
// as the array, and the tensor can be passed back in (registerHeldTensor)
// without a copy.
//
//===----------------------------------------------------------------------===//

#include "ResultArrays.h"

// The one file that imports numpy's C API; RepeatedCall.cpp shares it.
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL stablehlo_tvm_ARRAY_API
#include <numpy/arrayobject.h>

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/function.h>

#include <cstring>
#include <stdexcept>
#include <vector>

namespace mlir::stablehlo_tvm::python {
namespace {

namespace nb = nanobind;
namespace ffi = tvm::ffi;

constexpr const char *kCapsuleName = "stablehlo_tvm.tensor";

/// The type number of `bits`' width among numpy's 8-, 16-, 32- and 64-bit
/// types `numbers`; -1 for another width.
int ofWidth(int bits, const int (&numbers)[4]) {
  for (int i = 0; i < 4; ++i)
    if (bits == 8 << i)
      return numbers[i];
  return -1;
}

/// numpy's type number for a tensor dtype; -1 for one numpy lacks
/// (bfloat16, the f8 types, vectors).
int typeNumber(DLDataType type) {
  if (type.lanes != 1)
    return -1;
  switch (type.code) {
  case kDLFloat:
    return ofWidth(type.bits, {-1, NPY_FLOAT16, NPY_FLOAT32, NPY_FLOAT64});
  case kDLInt:
    return ofWidth(type.bits, {NPY_INT8, NPY_INT16, NPY_INT32, NPY_INT64});
  case kDLUInt:
    // TVM's booleans are one-bit unsigned integers stored in bytes.
    return type.bits == 1 ? NPY_BOOL
                          : ofWidth(type.bits, {NPY_UINT8, NPY_UINT16,
                                                NPY_UINT32, NPY_UINT64});
  case kDLBool:
    return type.bits == 8 ? NPY_BOOL : -1;
  default:
    return -1;
  }
}

/// Descriptors of dtypes numpy gets from elsewhere (ml_dtypes' bfloat16 and
/// f8 types), by DLPack code and width; each holds a reference for good.
std::vector<std::pair<uint32_t, PyArray_Descr *>> &registeredDescriptors() {
  static std::vector<std::pair<uint32_t, PyArray_Descr *>> descriptors;
  return descriptors;
}

uint32_t dtypeKey(uint8_t code, uint16_t bits) {
  return static_cast<uint32_t>(code) << 16 | bits;
}

/// Whether `tensor` is laid out as numpy's C order lays out its shape.
bool isCompact(const DLTensor &tensor) {
  if (!tensor.strides)
    return true;
  int64_t expected = 1;
  for (int i = tensor.ndim - 1; i >= 0; --i) {
    if (tensor.shape[i] != 1 && tensor.strides[i] != expected)
      return false;
    expected *= tensor.shape[i];
  }
  return true;
}

void releaseTensor(PyObject *capsule) {
  if (void *tensor = PyCapsule_GetPointer(capsule, kCapsuleName))
    TVMFFIObjectDecRef(tensor);
}

/// The array over `object`'s tensor (a copy of it with `copy`).
/// Steals `descr`'s reference, also on failure.
PyObject *arrayOf(TVMFFIObject *object, PyArray_Descr *descr,
                  PyTypeObject *arrayType, bool copy) {
  DLTensor *tensor = TVMFFITensorGetDLTensorPtr(object);
  std::vector<npy_intp> dims(tensor->shape, tensor->shape + tensor->ndim);
  char *data = static_cast<char *>(tensor->data) + tensor->byte_offset;
  if (copy) {
    PyObject *array = PyArray_NewFromDescr(arrayType, descr, tensor->ndim,
                                           dims.data(), nullptr, nullptr, 0,
                                           nullptr);
    if (!array)
      return nullptr;
    auto *arrayObject = reinterpret_cast<PyArrayObject *>(array);
    if (PyArray_NBYTES(arrayObject) > 0)
      std::memcpy(PyArray_DATA(arrayObject), data, PyArray_NBYTES(arrayObject));
    PyArray_CLEARFLAGS(arrayObject, NPY_ARRAY_WRITEABLE);
    return array;
  }
  // An empty tensor may have no data at all; numpy wants an address.
  static char empty;
  PyObject *array = PyArray_NewFromDescr(
      arrayType, descr, tensor->ndim, dims.data(), nullptr,
      data ? static_cast<void *>(data) : static_cast<void *>(&empty),
      NPY_ARRAY_C_CONTIGUOUS, nullptr);
  if (!array)
    return nullptr;
  auto *arrayObject = reinterpret_cast<PyArrayObject *>(array);
  PyArray_UpdateFlags(arrayObject, NPY_ARRAY_UPDATE_ALL);
  PyObject *capsule = PyCapsule_New(object, kCapsuleName, releaseTensor);
  if (!capsule) {
    Py_DECREF(array);
    return nullptr;
  }
  TVMFFIObjectIncRef(object);
  // Steals the capsule's reference, also on failure.
  if (PyArray_SetBaseObject(arrayObject, capsule) < 0) {
    Py_DECREF(array);
    return nullptr;
  }
  return array;
}

} // namespace

bool numpyImported() {
  static const bool imported = [] {
    if (PyArray_ImportNumPyAPI() >= 0)
      return true;
    PyErr_Clear(); // reported by the callers, at every call
    return false;
  }();
  return imported;
}

PyObject *descriptorOf(DLDataType type) {
  int typeNum = typeNumber(type);
  if (typeNum >= 0)
    return reinterpret_cast<PyObject *>(PyArray_DescrFromType(typeNum));
  if (type.lanes != 1)
    return nullptr;
  for (auto &[key, descr] : registeredDescriptors())
    if (key == dtypeKey(type.code, type.bits)) {
      Py_INCREF(descr);
      return reinterpret_cast<PyObject *>(descr);
    }
  return nullptr;
}

nb::object resultArrays(std::uintptr_t handle, int64_t drop,
                        nb::handle arrayType, const nb::tuple &borrowed) {
  if (!numpyImported())
    throw std::runtime_error("numpy's C API could not be imported");
  std::vector<std::uintptr_t> borrowedData;
  for (nb::handle address : borrowed)
    borrowedData.push_back(nb::cast<std::uintptr_t>(address));
  return resultArraysOf(reinterpret_cast<TVMFFIObject *>(handle), drop,
                        arrayType, borrowedData);
}

nb::object resultArraysOf(TVMFFIObject *result, int64_t drop,
                          nb::handle arrayType,
                          const std::vector<std::uintptr_t> &borrowedData) {
  std::vector<TVMFFIObject *> tensors;
  if (result->type_index == kTVMFFITensor) {
    tensors.push_back(result);
  } else if (result->type_index == kTVMFFIArray) {
    // An array's cell follows its object header (the C ABI's layout).
    auto *cell = reinterpret_cast<TVMFFISeqCell *>(
        reinterpret_cast<char *>(result) + sizeof(TVMFFIObject));
    auto *items = static_cast<TVMFFIAny *>(cell->data);
    for (int64_t i = 0; i < cell->size - drop; ++i) {
      if (items[i].type_index != kTVMFFITensor)
        return nb::none();
      tensors.push_back(items[i].v_obj);
    }
  } else {
    return nb::none();
  }
  std::vector<nb::object> descriptors;
  descriptors.reserve(tensors.size());
  for (TVMFFIObject *object : tensors) {
    DLTensor *tensor = TVMFFITensorGetDLTensorPtr(object);
    if (tensor->device.device_type != kDLCPU || !isCompact(*tensor))
      return nb::none();
    PyObject *descr = descriptorOf(tensor->dtype);
    if (!descr)
      return nb::none();
    descriptors.push_back(nb::steal(descr));
  }
  auto *type = reinterpret_cast<PyTypeObject *>(arrayType.ptr());
  nb::list arrays;
  for (size_t i = 0; i < tensors.size(); ++i) {
    DLTensor *tensor = TVMFFITensorGetDLTensorPtr(tensors[i]);
    auto data = reinterpret_cast<std::uintptr_t>(tensor->data) +
                static_cast<std::uintptr_t>(tensor->byte_offset);
    // A result that is (a view of) an argument the caller may change later
    // is copied: jax.jit's results never alias their inputs.
    bool copy = false;
    for (std::uintptr_t address : borrowedData)
      copy |= address == data;
    auto *descr = reinterpret_cast<PyArray_Descr *>(descriptors[i].ptr());
    Py_INCREF(descr);
    PyObject *array = arrayOf(tensors[i], descr, type, copy);
    if (!array)
      throw nb::python_error();
    arrays.append(nb::steal(array));
  }
  return arrays;
}

void registerResultDtype(int code, int bits, nb::handle dtype) {
  if (!numpyImported())
    throw std::runtime_error("numpy's C API could not be imported");
  if (!PyArray_DescrCheck(dtype.ptr()))
    throw nb::type_error("register_result_dtype: a numpy dtype is expected");
  uint32_t key = dtypeKey(static_cast<uint8_t>(code), static_cast<uint16_t>(bits));
  auto &descriptors = registeredDescriptors();
  for (auto &[known, descr] : descriptors)
    if (known == key)
      return; // the first registration stands: arrays made may use it
  Py_INCREF(dtype.ptr());
  descriptors.emplace_back(key, reinterpret_cast<PyArray_Descr *>(dtype.ptr()));
}

TVMFFIObject *heldTensor(PyObject *base) {
  if (!base || !PyCapsule_IsValid(base, kCapsuleName))
    return nullptr;
  return static_cast<TVMFFIObject *>(PyCapsule_GetPointer(base, kCapsuleName));
}

nb::object heldTensorAddress(nb::handle base) {
  TVMFFIObject *tensor = heldTensor(base.ptr());
  if (!tensor)
    return nb::none();
  return nb::int_(reinterpret_cast<std::uintptr_t>(tensor));
}

void registerHeldTensor() {
  ffi::Function::SetGlobal(
      "stablehlo_tvm.held_tensor",
      ffi::Function::FromTyped([](int64_t address) {
        // The caller holds the array, and so the tensor, while it asks.
        return ffi::Tensor(
            ffi::details::ObjectUnsafe::ObjectPtrFromUnowned<ffi::TensorObj>(
                reinterpret_cast<TVMFFIObject *>(address)));
      }),
      /*override=*/true);
}

} // namespace mlir::stablehlo_tvm::python
