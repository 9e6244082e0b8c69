//===- RepeatedCall.cpp - A jit call repeated, its arguments kept ---------===//

#include "RepeatedCall.h"
#include "ResultArrays.h"

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL stablehlo_tvm_ARRAY_API
#define NO_IMPORT_ARRAY
#include <numpy/arrayobject.h>

#include <nanobind/stl/string.h>
#include <tvm/ffi/c_api.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace mlir::stablehlo_tvm::python {
namespace {

namespace nb = nanobind;

TVMFFIObject *handleOf(nb::handle object) {
  return reinterpret_cast<TVMFFIObject *>(
      nb::cast<std::uintptr_t>(object.attr("__chandle__")()));
}

size_t bytesOf(const DLTensor &tensor) {
  size_t count = 1;
  for (int i = 0; i < tensor.ndim; ++i)
    count *= static_cast<size_t>(tensor.shape[i]);
  return count * ((tensor.dtype.bits * tensor.dtype.lanes + 7) / 8);
}

/// `managed` as a tensor (a new reference), contiguous and `alignment`
/// aligned; null where TVM refuses it, `managed` then deleted.
TVMFFIObject *adopted(DLManagedTensor *managed, int32_t alignment) {
  TVMFFIObjectHandle out = nullptr;
  if (TVMFFITensorFromDLPack(managed, alignment, 1, &out) == 0)
    return static_cast<TVMFFIObject *>(out);
  TVMFFIObjectHandle error = nullptr;
  TVMFFIErrorMoveFromRaised(&error);
  if (error)
    TVMFFIObjectDecRef(error);
  managed->deleter(managed);
  return nullptr;
}

/// A tensor over memory of its own (64-byte aligned, as TVM allocates),
/// as a new reference; null where TVM refuses it.
TVMFFIObject *newTensor(DLDataType dtype, const std::vector<int64_t> &shape) {
  struct Owned {
    DLManagedTensor managed;
    std::vector<int64_t> shape;
  };
  auto *owned = new Owned{{}, shape};
  DLTensor probe{};
  probe.ndim = static_cast<int32_t>(shape.size());
  probe.shape = owned->shape.data();
  probe.dtype = dtype;
  size_t bytes = (bytesOf(probe) + 63) / 64 * 64;
  void *data = std::aligned_alloc(64, bytes ? bytes : 64);
  DLTensor &tensor = owned->managed.dl_tensor;
  tensor = probe;
  tensor.data = data;
  tensor.device = {kDLCPU, 0};
  owned->managed.manager_ctx = owned;
  owned->managed.deleter = [](DLManagedTensor *managed) {
    auto *self = static_cast<Owned *>(managed->manager_ctx);
    std::free(managed->dl_tensor.data);
    delete self;
  };
  return adopted(&owned->managed, 64);
}

/// A tensor over a numpy array's own memory, holding the array; null where
/// TVM refuses it.
TVMFFIObject *tensorOver(PyArrayObject *array, DLDataType dtype) {
  struct Borrowed {
    DLManagedTensor managed;
    std::vector<int64_t> shape;
    PyObject *array;
  };
  auto *borrowed = new Borrowed{
      {},
      std::vector<int64_t>(PyArray_DIMS(array),
                           PyArray_DIMS(array) + PyArray_NDIM(array)),
      reinterpret_cast<PyObject *>(array)};
  Py_INCREF(borrowed->array);
  DLTensor &tensor = borrowed->managed.dl_tensor;
  tensor.data = PyArray_DATA(array);
  tensor.device = {kDLCPU, 0};
  tensor.ndim = PyArray_NDIM(array);
  tensor.dtype = dtype;
  tensor.shape = borrowed->shape.data();
  tensor.strides = nullptr;
  tensor.byte_offset = 0;
  borrowed->managed.manager_ctx = borrowed;
  // TVM may drop the tensor on a thread without the interpreter.
  borrowed->managed.deleter = [](DLManagedTensor *managed) {
    auto *self = static_cast<Borrowed *>(managed->manager_ctx);
    PyGILState_STATE state = PyGILState_Ensure();
    Py_DECREF(self->array);
    PyGILState_Release(state);
    delete self;
  };
  // The kernels take any address aligned to the element
  // (cpu/parameter_alignment.py).
  return adopted(&borrowed->managed,
                 static_cast<int32_t>(PyArray_ITEMSIZE(array)));
}

std::uintptr_t dataOf(TVMFFIObject *tensor) {
  DLTensor *dl = TVMFFITensorGetDLTensorPtr(tensor);
  return reinterpret_cast<std::uintptr_t>(dl->data) +
         static_cast<std::uintptr_t>(dl->byte_offset);
}

std::string text(const TVMFFIByteArray &bytes) {
  return std::string(bytes.data, bytes.size);
}

class RepeatedCall {
public:
  RepeatedCall(nb::object function, const nb::list &tensors,
               const nb::list &leaves, const nb::list &positions,
               const nb::list &reusable, const nb::list &borrowed,
               nb::object local, int64_t drop, nb::object resultType,
               nb::object raiseError, int64_t inPlaceBytes)
      : function_(std::move(function)), local_(std::move(local)),
        drop_(drop), inPlaceBytes_(inPlaceBytes),
        resultType_(std::move(resultType)),
        raiseError_(std::move(raiseError)),
        thread_(PyThread_get_thread_ident()) {
    if (!numpyImported())
      throw std::runtime_error("numpy's C API could not be imported");
    functionHandle_ = handleOf(function_);
    for (nb::handle tensor : tensors) {
      TVMFFIObject *handle = handleOf(tensor);
      if (handle->type_index != kTVMFFITensor)
        throw nb::type_error("RepeatedCall: every argument must be a tensor");
      TVMFFIObjectIncRef(handle);
      TVMFFIAny any{};
      any.type_index = kTVMFFITensor;
      any.v_obj = handle;
      arguments_.push_back(any);
    }
    staging_.resize(arguments_.size());
    size_t n = leaves.size();
    if (positions.size() != n || reusable.size() != n || borrowed.size() != n)
      throw nb::value_error("RepeatedCall: one position and flag per leaf");
    for (size_t i = 0; i < n; ++i) {
      Leaf leaf;
      nb::handle object = leaves[i];
      leaf.position = nb::cast<int64_t>(positions[i]);
      if (leaf.position >= static_cast<int64_t>(arguments_.size()))
        throw nb::value_error("RepeatedCall: a leaf's position is past the "
                              "arguments");
      leaf.previous = nb::borrow(object);
      leaf.reusable = nb::cast<bool>(reusable[i]);
      leaf.borrowed = nb::cast<bool>(borrowed[i]);
      PyTypeObject *type = Py_TYPE(object.ptr());
      // Python's scalars and numpy's (np.float32(0.1), a numpy
      // reduction's result): immutable values of one type each.
      if (type == &PyFloat_Type || type == &PyLong_Type ||
          type == &PyBool_Type || PyArray_IsScalar(object.ptr(), Generic)) {
        leaf.kind = Kind::Scalar;
        leaf.type = type;
      } else if (type == &PyArray_Type ||
                 type == reinterpret_cast<PyTypeObject *>(resultType_.ptr())) {
        auto *array = reinterpret_cast<PyArrayObject *>(object.ptr());
        leaf.kind = Kind::Array;
        leaf.dtype = nb::borrow(reinterpret_cast<PyObject *>(PyArray_DESCR(array)));
        leaf.shape.assign(PyArray_DIMS(array),
                          PyArray_DIMS(array) + PyArray_NDIM(array));
        // Reused as it is where the tensor is the array's own memory: a
        // result passed back in, or a large array passed in place. (A
        // copy made in Python is that path's to overwrite.)
        if (leaf.position >= 0) {
          TVMFFIObject *tensor = argument(leaf.position);
          bool held = type != &PyArray_Type &&
                      heldTensor(PyArray_BASE(array)) == tensor;
          bool inPlace = dataOf(tensor) ==
                         reinterpret_cast<std::uintptr_t>(PyArray_DATA(array));
          leaf.reusable = held || inPlace;
          leaf.borrowed = inPlace && !held;
        }
      } else {
        leaf.kind = Kind::Other;
      }
      leaves_.push_back(std::move(leaf));
    }
  }

  RepeatedCall(const RepeatedCall &) = delete;
  RepeatedCall &operator=(const RepeatedCall &) = delete;

  ~RepeatedCall() {
    for (TVMFFIAny &any : arguments_)
      TVMFFIObjectDecRef(any.v_obj);
    for (Staging &staging : staging_)
      if (staging.tensor)
        TVMFFIObjectDecRef(staging.tensor);
  }

  /// The results of a call on `leaves` (a list), as result arrays; or the
  /// index of the first leaf this cannot convert (`set` then takes its
  /// tensor), or -1 where this thread cannot call here now (another thread
  /// made it, or a call is running on this thread's VM).
  nb::object call(const nb::list &leaves) {
    if (PyThread_get_thread_ident() != thread_ || leaves.size() != leaves_.size())
      return nb::int_(-1);
    nb::object depth = nb::getattr(local_, depthName_, nb::int_(0));
    if (PyObject_IsTrue(depth.ptr()))
      return nb::int_(-1);
    std::vector<std::uintptr_t> borrowed;
    for (size_t i = 0; i < leaves_.size(); ++i) {
      Leaf &leaf = leaves_[i];
      PyObject *object = PyList_GET_ITEM(leaves.ptr(), i);
      bool same = object == leaf.previous.ptr();
      if (!same || !(leaf.reusable || leaf.given)) {
        if (!convert(leaf, object))
          return nb::int_(static_cast<int64_t>(i));
      }
      if (leaf.borrowed && leaf.position >= 0)
        borrowed.push_back(dataOf(argument(leaf.position)));
    }
    for (Leaf &leaf : leaves_)
      leaf.given = false;
    return invoke(borrowed);
  }

  /// `leaf` (at `index`) is passed as `tensor` (None for a leaf the
  /// function does not take) in the next call; `reusable`: in later ones
  /// too as long as it is the same object; `borrowed`: the tensor is
  /// memory the caller may change (a result there is copied out).
  void set(size_t index, nb::handle leaf, nb::handle tensor, bool reusable,
           bool borrowed) {
    if (index >= leaves_.size())
      throw nb::index_error("RepeatedCall.set: no such leaf");
    Leaf &entry = leaves_[index];
    if (entry.position >= 0) {
      if (tensor.is_none())
        throw nb::value_error("RepeatedCall.set: this leaf needs a tensor");
      TVMFFIObject *handle = handleOf(tensor);
      if (handle->type_index != kTVMFFITensor)
        throw nb::type_error("RepeatedCall.set: not a tensor");
      TVMFFIObjectIncRef(handle);
      replace(entry.position, handle);
    }
    entry.previous = nb::borrow(leaf);
    entry.reusable = reusable;
    entry.borrowed = borrowed;
    entry.given = true;
  }

private:
  enum class Kind { Scalar, Array, Other };

  struct Leaf {
    int64_t position = -1; // the function's argument; -1: dropped by JAX
    Kind kind = Kind::Other;
    PyTypeObject *type = nullptr; // Scalar: its type
    nb::object dtype;             // Array: the leaf's dtype and shape
    std::vector<npy_intp> shape;
    nb::object previous;
    bool reusable = false;
    bool borrowed = false;
    // Set by `set` for the call being made: taken as it is even where not
    // reusable (a leaf this object cannot convert itself).
    bool given = false;
  };

  /// A parameter's numpy dtype, and its tensor of this object's own that
  /// small arguments are copied into, with a numpy view of it (each made
  /// on first use).
  struct Staging {
    nb::object descr;
    TVMFFIObject *tensor = nullptr;
    nb::object view;
  };

  TVMFFIObject *argument(int64_t position) const {
    return arguments_[position].v_obj;
  }

  /// Takes `tensor`'s reference.
  void replace(int64_t position, TVMFFIObject *tensor) {
    TVMFFIObject *old = arguments_[position].v_obj;
    arguments_[position].v_obj = tensor;
    TVMFFIObjectDecRef(old);
  }

  /// The numpy dtype of the parameter at `position` (the dtype its
  /// tensor has); null where numpy has none for it.
  PyArray_Descr *parameterDtype(int64_t position) {
    Staging &staging = staging_[position];
    if (!staging.descr.is_valid()) {
      PyObject *descr =
          descriptorOf(TVMFFITensorGetDLTensorPtr(argument(position))->dtype);
      if (!descr)
        return nullptr;
      staging.descr = nb::steal(descr);
    }
    return reinterpret_cast<PyArray_Descr *>(staging.descr.ptr());
  }

  /// The staging tensor's view for `position`, made on first use with the
  /// dtype and shape the parameter's tensor has; null where numpy has no
  /// dtype for it.
  PyArrayObject *staged(int64_t position) {
    Staging &staging = staging_[position];
    if (!staging.tensor) {
      PyArray_Descr *descr = parameterDtype(position);
      if (!descr)
        return nullptr;
      DLTensor *like = TVMFFITensorGetDLTensorPtr(argument(position));
      std::vector<int64_t> shape(like->shape, like->shape + like->ndim);
      TVMFFIObject *tensor = newTensor(like->dtype, shape);
      if (!tensor)
        return nullptr;
      std::vector<npy_intp> dims(shape.begin(), shape.end());
      DLTensor *dl = TVMFFITensorGetDLTensorPtr(tensor);
      Py_INCREF(descr); // PyArray_NewFromDescr steals it
      PyObject *view = PyArray_NewFromDescr(
          &PyArray_Type, descr, static_cast<int>(dims.size()), dims.data(),
          nullptr, dl->data, NPY_ARRAY_CARRAY, nullptr);
      if (!view) {
        PyErr_Clear();
        TVMFFIObjectDecRef(tensor);
        return nullptr;
      }
      staging.tensor = tensor;
      staging.view = nb::steal(view);
    }
    return reinterpret_cast<PyArrayObject *>(staging.view.ptr());
  }

  /// Passes the staging tensor of `position`.
  void passStaged(int64_t position) {
    TVMFFIObject *tensor = staging_[position].tensor;
    if (argument(position) != tensor) {
      TVMFFIObjectIncRef(tensor);
      replace(position, tensor);
    }
  }

  /// Makes `object` the argument of `leaf`; false where it is not of the
  /// leaf's signature or not a kind converted here.
  bool convert(Leaf &leaf, PyObject *object) {
    PyTypeObject *type = Py_TYPE(object);
    switch (leaf.kind) {
    case Kind::Scalar: {
      if (type != leaf.type)
        return false;
      if (leaf.position >= 0) {
        PyArrayObject *view = staged(leaf.position);
        if (!view)
          return false;
        // numpy's conversion, as the Python path's; an int out of the
        // parameter's range is left to it.
        if (PyArray_SETITEM(view, static_cast<char *>(PyArray_DATA(view)),
                            object) < 0) {
          PyErr_Clear();
          return false;
        }
        passStaged(leaf.position);
      }
      // Python scalars are immutable, and the staging tensor holds the
      // value until this leaf changes.
      leaf.reusable = true;
      leaf.borrowed = true;
      break;
    }
    case Kind::Array: {
      if (type != &PyArray_Type &&
          type != reinterpret_cast<PyTypeObject *>(resultType_.ptr()))
        return false;
      auto *array = reinterpret_cast<PyArrayObject *>(object);
      if (!PyArray_EquivTypes(PyArray_DESCR(array),
                              reinterpret_cast<PyArray_Descr *>(leaf.dtype.ptr())) ||
          PyArray_NDIM(array) != static_cast<int>(leaf.shape.size()) ||
          !std::equal(leaf.shape.begin(), leaf.shape.end(), PyArray_DIMS(array)))
        return false;
      if (leaf.position < 0) {
        leaf.reusable = false;
        leaf.borrowed = false;
        break;
      }
      DLTensor *like = TVMFFITensorGetDLTensorPtr(argument(leaf.position));
      DLDataType dtype = like->dtype;
      if (type != &PyArray_Type &&
          !(PyArray_FLAGS(array) & NPY_ARRAY_WRITEABLE)) {
        // A result passed back in: the tensor it holds.
        if (TVMFFIObject *held = heldTensor(PyArray_BASE(array))) {
          DLTensor *dl = TVMFFITensorGetDLTensorPtr(held);
          if (dl->dtype.code == dtype.code && dl->dtype.bits == dtype.bits &&
              dl->dtype.lanes == dtype.lanes) {
            TVMFFIObjectIncRef(held);
            replace(leaf.position, held);
            leaf.reusable = true;
            leaf.borrowed = false;
            break;
          }
        }
      }
      PyArray_Descr *parameter = parameterDtype(leaf.position);
      if (!parameter)
        return false;
      if (PyArray_NBYTES(array) >= inPlaceBytes_ &&
          PyArray_ISCARRAY_RO(array) &&
          PyArray_EquivTypes(PyArray_DESCR(array), parameter)) {
        if (TVMFFIObject *tensor = tensorOver(array, dtype)) {
          replace(leaf.position, tensor);
          leaf.reusable = true; // its memory, read at every call
          leaf.borrowed = true;
          break;
        }
      }
      PyArrayObject *view = staged(leaf.position);
      if (!view)
        return false;
      // Cast as jax.jit casts (the Python path's astype: unsafe casting).
      if (PyArray_CopyInto(view, array) < 0) {
        PyErr_Clear();
        return false;
      }
      passStaged(leaf.position);
      leaf.reusable = false; // numpy arrays change: copied at every call
      leaf.borrowed = true;
      break;
    }
    case Kind::Other:
      return false;
    }
    leaf.previous = nb::borrow(object);
    return true;
  }

  nb::object invoke(const std::vector<std::uintptr_t> &borrowed) {
    nb::setattr(local_, depthName_, nb::int_(1));
    TVMFFIAny result{};
    result.type_index = kTVMFFINone;
    int failed;
    {
      nb::gil_scoped_release release;
      failed = TVMFFIFunctionCall(functionHandle_, arguments_.data(),
                                  static_cast<int32_t>(arguments_.size()),
                                  &result);
    }
    nb::setattr(local_, depthName_, nb::int_(0));
    if (failed)
      raiseCallError();
    if (result.type_index < kTVMFFIStaticObjectBegin)
      throw std::runtime_error("the VM function returned no tensors");
    nb::object arrays;
    try {
      arrays = resultArraysOf(result.v_obj, drop_, resultType_, borrowed);
    } catch (...) {
      TVMFFIObjectDecRef(result.v_obj);
      throw;
    }
    TVMFFIObjectDecRef(result.v_obj);
    if (arrays.is_none())
      throw std::runtime_error("a result is not a tensor numpy can view");
    return arrays;
  }

  /// Raises the error TVM's FFI holds as the exception TVM's Python
  /// binding would raise for it.
  [[noreturn]] void raiseCallError() {
    TVMFFIObjectHandle error = nullptr;
    TVMFFIErrorMoveFromRaised(&error);
    if (!error)
      throw std::runtime_error("the VM call failed without an error");
    TVMFFIErrorCell *cell = TVMFFIErrorGetCellPtr(error);
    std::string kind = text(cell->kind), message = text(cell->message),
                backtrace = text(cell->backtrace);
    TVMFFIObjectDecRef(error);
    // A Python error (KeyboardInterrupt in a signal check) already set.
    if (kind == "EnvErrorAlreadySet" && PyErr_Occurred())
      throw nb::python_error();
    raiseError_(kind, message, backtrace);
    throw std::runtime_error(message);
  }

  nb::object function_;
  TVMFFIObject *functionHandle_ = nullptr;
  std::vector<TVMFFIAny> arguments_;
  std::vector<Staging> staging_;
  std::vector<Leaf> leaves_;
  nb::object local_;
  nb::str depthName_{"depth"};
  int64_t drop_;
  int64_t inPlaceBytes_; // numpy arrays this large are read in place
  nb::object resultType_;
  nb::object raiseError_;
  unsigned long thread_;
};

} // namespace

void bindRepeatedCall(nb::module_ &m) {
  nb::class_<RepeatedCall>(
      m, "RepeatedCall",
      "A jit call repeated with one tree of arguments (RepeatedCall.h).")
      .def(nb::init<nb::object, const nb::list &, const nb::list &,
                    const nb::list &, const nb::list &, const nb::list &,
                    nb::object, int64_t, nb::object, nb::object, int64_t>(),
           nb::arg("function"), nb::arg("tensors"), nb::arg("leaves"),
           nb::arg("positions"), nb::arg("reusable"), nb::arg("borrowed"),
           nb::arg("local"), nb::arg("drop"), nb::arg("result_type"),
           nb::arg("raise_error"), nb::arg("in_place_bytes"),
           "function: the VM function; tensors: its argument tensors of "
           "the call made with `leaves`; per leaf its argument position "
           "(-1: not taken) and whether its tensor is reused while the "
           "leaf is the same object / is memory the caller may change; "
           "local: the Compiled's per-thread state (its call depth); drop: "
           "trailing results to drop; raise_error(kind, message, backtrace) "
           "raises a failed call's error; contiguous numpy arrays of "
           "in_place_bytes or more are read in place.")
      .def("call", &RepeatedCall::call, nb::arg("leaves"),
           "The results on `leaves`, or the index of a leaf to `set` "
           "(-1: call the Python path).")
      .def("set", &RepeatedCall::set, nb::arg("index"), nb::arg("leaf"),
           nb::arg("tensor"), nb::arg("reusable"), nb::arg("borrowed"),
           "Passes `tensor` for the leaf at `index`, now `leaf`.");
}

} // namespace mlir::stablehlo_tvm::python
