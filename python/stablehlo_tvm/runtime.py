"""build: compile a Relax module with TVM and call it like a function."""

from __future__ import annotations

import contextlib
import functools
import threading
from typing import Any

import numpy as np

from ._core import ATTRIBUTES, held_tensor_address, register_result_dtype, result_arrays
from .dtypes import ML_DTYPES, numpy_dtype
from .errors import CallError, Error, InputError, ShapeAssertionError


class Compiled:
    """A compiled entry function: takes array-likes, returns numpy arrays
    (a tuple when the function has several results). Safe to call from
    several threads at once: each runs its own VirtualMachine.

    Arguments are not copied where TVM can read them in place: jax arrays
    and 64-byte aligned numpy arrays of the parameter's dtype (the compiled
    code never writes into its arguments). Results are read-only numpy views
    of TVM's buffers, as ``np.asarray`` of a jax array is."""

    def __init__(
        self,
        executable,
        device,
        entry: str,
        irmodule,
        tuning_report=None,
        recursive: bool | None = None,
        packed_functions=(),
    ):
        self.executable = executable
        self.device = device
        self.entry = entry
        self.irmodule = irmodule
        # build(..., tune=...): a stablehlo_tvm.cpu.tuning.TunedWorkload per workload.
        self.tuning_report = tuning_report
        # Loops the build left as recursive Relax functions (all of them
        # when it does not say) take a native stack frame of the VM per 16
        # iterations, so such modules run on a thread with room.
        if recursive is None:
            from .emitter import LOOPS_ATTRIBUTE

            attrs = irmodule.attrs
            recursive = bool(attrs is not None and attrs.get(LOOPS_ATTRIBUTE, False))
        self._recursive = recursive
        # Packed functions the build calls from compiled code, where the
        # VM's text does not show them.
        self._packed_functions = tuple(packed_functions)
        self._signatures: dict[str, _Signature] = {}
        # A VirtualMachine holds the registers and memory of the call it
        # runs, so each calling thread gets its own over the one executable.
        self._per_thread = threading.local()

    def _function(self, name: str) -> tuple[Any, "_Signature"]:
        """This thread's VM function `name` and its signature; the thread's
        VM is made on its first call. A call made while another is running
        on this thread (from a Python callback) gets a VM of its own: a VM
        runs one call at a time."""
        local = self._per_thread
        if getattr(local, "depth", 0):
            from tvm import relax

            _, signature = self._function_of(local, name)
            return _vm_function(relax.VirtualMachine(self.executable, self.device), signature), signature
        return self._function_of(local, name)

    def _function_of(self, local, name: str) -> tuple[Any, "_Signature"]:
        functions = getattr(local, "functions", None)
        if functions is None:
            from tvm import relax

            local.vm = relax.VirtualMachine(self.executable, self.device)
            functions = local.functions = {}
        found = functions.get(name)
        if found is None:
            signature = self._signatures.get(name)
            if signature is None:
                signature = self._signatures[name] = _Signature.of(self.irmodule, name, self.device)
            found = functions[name] = (_vm_function(local.vm, signature), signature)
        return found

    def __call__(self, *args: Any):
        return self.call(self.entry, *args)

    def call(self, name: str, *args: Any):
        """Calls another function of the module by name."""
        outputs = self.call_flat(name, args)
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def call_flat(self, name: str, args, cast: bool = False) -> list:
        """The results of `name` on `args`, as a list. ``cast``: convert
        arguments to the parameters' dtypes (as jax.jit does) instead of
        refusing another dtype."""
        function, signature = self._function(name)
        borrowed: list = []
        with self._calling() as depth:
            # A nested call must not overwrite the reused argument tensors
            # the outer call is still reading.
            tensors = signature.tensors(name, args, cast, borrowed, reuse=depth == 0)
            result = _LOOP_THREAD.call(function, *tensors) if self._recursive else function(*tensors)
        return signature.outputs(result, borrowed)

    @contextlib.contextmanager
    def _calling(self):
        """Marks this thread as inside a call (`_function` then gives a
        nested call, made from a Python callback, a VM of its own); yields
        how deep the call is (0: outermost)."""
        local = self._per_thread
        depth = getattr(local, "depth", 0)
        local.depth = depth + 1
        try:
            yield depth
        finally:
            local.depth = depth

    def call_tensors(self, name: str, tensors: list) -> list:
        """`call_flat` on the argument tensors a call before took (see
        `call_replacing`). (The path of calls that repeat their arguments:
        `_calling`'s bookkeeping spelled out, a generator's enter and exit
        being a quarter of a small call's Python time.)"""
        function, signature = self._function(name)
        local = self._per_thread
        depth = getattr(local, "depth", 0)
        local.depth = depth + 1
        try:
            result = _LOOP_THREAD.call(function, *tensors) if self._recursive else function(*tensors)
        finally:
            local.depth = depth
        return signature.outputs(result, [])

    def replaceable(self, name: str) -> list | None:
        """The argument tensor list of `name` with None where the caller's
        arguments go, for `call_replacing`; None for a function whose
        arguments are not one tensor each (complex values are two) or whose
        dimensions are checked against each other."""
        _, signature = self._function(name)
        if signature.complex_args or signature.dim_checks:
            return None
        return [None] * (len(signature.params)) + signature.bound

    def call_replacing(self, name: str, tensors: list, updates) -> tuple[list, list]:
        """`call_flat` on the argument tensors `tensors` (from `replaceable`
        or a call before) with the arguments at some positions replaced:
        `updates` are (position, value) pairs, converted as `call_flat`
        converts them (cast to the parameters' dtypes). Returns the results
        and the tensors the call took."""
        function, signature = self._function(name)
        tensors = list(tensors)
        borrowed: list = []
        local = self._per_thread
        depth = getattr(local, "depth", 0)
        local.depth = depth + 1
        try:
            params = signature.params
            for position, value in updates:
                # A nested call must not overwrite the reused argument
                # tensors the outer call is still reading.
                tensors[position] = signature._tensor(name, position, position, value, params[position], True, borrowed, depth == 0)
            result = _LOOP_THREAD.call(function, *tensors) if self._recursive else function(*tensors)
        finally:
            local.depth = depth
        return signature.outputs(result, borrowed), tensors

    def export_library(self, path, *, allow_recursion: bool = False, **options) -> None:
        """Writes the build as one shared library that a plain TVM runtime
        loads (``tvm.runtime.load_module(path)`` and
        ``relax.VirtualMachine``), without this package.

        Refused with an ``Error`` naming them when the build calls functions
        only this package provides: LAPACK (jnp.linalg), the BLAS offload
        (build with ``blas=False``) and Python callbacks. A module whose
        loops the build left as recursive Relax functions (all of them with
        ``schedule=False``; see docs/design.md, Loops) is refused too unless
        ``allow_recursion=True``: such a loop recurses once per 16
        iterations on the calling thread's stack, which a long loop
        overflows unless the caller runs it on a thread with a deep stack
        (this package's calls do). ``options`` go to TVM's
        ``export_library``."""
        import re

        called = set(re.findall(r"stablehlo_tvm\.[\w.]+", self.executable.as_text()))
        called.update(name for name in self._packed_functions if name.startswith("stablehlo_tvm."))
        needed = sorted(called)
        if needed:
            raise Error(
                "the build calls functions only stablehlo_tvm provides, which a plain TVM runtime lacks: "
                + ", ".join(needed)
                + ("; build with blas=False to keep products in TVM's code" if any(".blas." in n for n in needed) else "")
            )
        if self._recursive and not allow_recursion:
            raise Error(
                "the module has loops, which the VM runs by recursion (a native stack frame per 16 "
                "iterations): a long loop overflows an ordinary thread's stack. Pass allow_recursion=True "
                "and call the library from a thread with a deep stack (threading.stack_size)"
            )
        self.executable.export_library(str(path), **options)

    def runner(self, *args: Any, name: str | None = None):
        """A callable that runs the function on ``args`` already on the device
        and leaves its results there: what a benchmark times."""
        name = name or self.entry
        function, signature = self._function(name)
        tensors = signature.tensors(name, args, False)
        if self._recursive:
            return lambda: _LOOP_THREAD.call(function, *tensors)
        return lambda: function(*tensors)


class _Signature:
    """How values cross into and out of one Relax function: its parameters'
    (shape, dtype)s, with complex values split in two by the import."""

    __slots__ = ("relax_name", "vm_name", "complex_args", "complex_results", "params", "device", "resident", "_on_cpu", "bound", "_staging", "effects", "narrow", "dim_checks", "viewable")

    def __init__(self, relax_name, complex_args, complex_results, params, device, bound=()):
        self.relax_name = relax_name
        self.vm_name = relax_name
        self.complex_args = complex_args
        self.complex_results = complex_results
        self.device = device
        self._on_cpu = device.dlpack_device_type() == 1
        if self._on_cpu:
            _register_result_dtypes()  # once per process; result_arrays needs them
        # Weights the module carries (keep_params_as_input): passed after
        # the caller's arguments, already tensors.
        self.bound = [_on_device(t, device) for t in bound]
        self.params = params[: len(params) - len(self.bound)]
        # Per argument position: the last jax array passed there and its
        # tensor. jax arrays are immutable: the same one again is the same
        # value, already on the device.
        self.resident: list = [None] * (len(self.params) - len(complex_args))
        # Per calling thread and parameter: the tensor small numpy arguments
        # are copied into, and its numpy view. Allocating a tensor and
        # viewing it was most of a small argument's cost (~8 us of a 3-input
        # call's 43 us).
        self._staging = threading.local()
        # Trailing results that only kept debug callbacks alive
        # (stablehlo-expose-effects): dropped.
        self.effects = 0
        self.narrow: list = []
        # (dims, args, message): argument dimensions a symbolic build takes
        # as one size, checked before the call with JAX's message.
        self.dim_checks: list = []
        # Whether the results are tensors result_arrays views (known after
        # a call; the results' dtypes and devices do not change).
        self.viewable = False

    @classmethod
    def of(cls, irmodule, name: str, device) -> "_Signature":
        import tvm

        relax_name = _relax_name(irmodule, name)
        if relax_name is None:
            raise CallError(f"the module has no function {name!r}")
        function = irmodule[relax_name]
        attrs = function.attrs
        complex_args = {int(i) for i in attrs.get(ATTRIBUTES["complex_arguments"], [])} if attrs is not None else set()
        complex_results = {int(i) for i in attrs.get(ATTRIBUTES["complex_results"], [])} if attrs is not None else set()
        bound = list(attrs.get("params", [])) if attrs is not None else []
        params = []
        for param in function.params:
            ty = param.ty
            dims = getattr(getattr(ty, "shape", None), "values", None)
            if not isinstance(ty, tvm.relax.TensorType) or dims is None:
                params.append(None)  # not a tensor of known rank: TVM checks it
                continue
            shape = tuple(int(d) if isinstance(d, tvm.tirx.IntImm) else None for d in dims)
            params.append((shape, numpy_dtype(str(ty.dtype))))
        signature = cls(relax_name, complex_args, complex_results, params, device, bound)
        signature.effects = int(attrs.get(ATTRIBUTES["effect_results"], 0)) if attrs is not None else 0
        if attrs is not None and not complex_args:
            signature.dim_checks = [
                ([int(n) for n in dims], [int(n) for n in args], str(message)) for dims, args, message in attrs.get(ATTRIBUTES["dim_checks"], [])
            ]
        signature.narrow = []
        for key in (ATTRIBUTES["narrow_results"], ATTRIBUTES["small_float_results"]):
            names = [str(t) for t in attrs.get(key, [])] if attrs is not None else []
            signature.narrow += [(i, _NARROW_DTYPES[t]) for i, t in enumerate(names) if t]
        symbol = attrs.get("global_symbol") if attrs is not None else None
        signature.vm_name = str(symbol) if symbol is not None else relax_name
        return signature

    def tensors(self, name: str, args, cast: bool, borrowed: list | None = None, reuse: bool = True) -> list:
        """The arguments as tensors; those that are the caller's own mutable
        memory (numpy arrays passed in place, TVM tensors) are added to
        `borrowed`. `reuse`: small numpy arguments may be copied into this
        thread's reused tensors (see `_staged`)."""
        n = len(self.params) - len(self.complex_args)
        if len(args) != n:
            raise CallError(f"@{name} takes {n} arguments, {len(args)} were given")
        if self.dim_checks:
            _check_dims(self.dim_checks, args)
        if not self.complex_args:
            return [self._tensor(name, i, i, a, self.params[i], cast, borrowed, reuse) for i, a in enumerate(args)] + self.bound
        tensors = []
        for i, a in enumerate(args):
            if i in self.complex_args:
                # TVM has no complex dtype: complex values travel as (real, imag).
                a = np.asarray(a)
                for part in (a.real, a.imag):
                    tensors.append(self._tensor(name, i, len(tensors), part, self.params[len(tensors)], cast, borrowed, reuse))
            else:
                tensors.append(self._tensor(name, i, len(tensors), a, self.params[len(tensors)], cast, borrowed, reuse))
        return tensors + self.bound

    def _tensor(self, name: str, position: int, slot: int, value, expected, cast: bool, borrowed: list | None, reuse: bool = True):
        import tvm_ffi

        kind = type(value).__name__
        if kind == "Result" and not value.flags.writeable:  # as returned: not changed since
            given = value.__dict__.get("_tensor")
            if given is None:
                address = held_tensor_address(value.base)
                if address is not None:
                    given = value._tensor = _held_tensor()(address)
            if given is not None and (expected is None or expected == (value.shape, value.dtype)):
                return given
        if kind == "Tensor" and hasattr(value, "dtype") and hasattr(value, "device"):
            if borrowed is not None:
                borrowed.append(value)
            return value  # already TVM's: the VM checks it
        is_jax = kind == "ArrayImpl"
        if is_jax:
            held = self.resident[position]
            if held is not None and held[0] is value:
                return held[1]
        array = np.asarray(value)
        if expected is None:
            expected = (array.shape, array.dtype)
        shape, dtype = expected
        if array.dtype != dtype:
            if array.dtype.name in _SUB_BYTE and np.dtype(_SUB_BYTE[array.dtype.name]) == dtype:
                # 2- and 4-bit integers are held in 8 bits (stablehlo-widen-sub-byte-integers).
                array = array.astype(dtype)
            elif array.dtype.name.startswith(_SMALL_FLOATS) and dtype == np.float32:
                # so are f8/f6/f4 values in f32 (stablehlo-lower-small-floats).
                array = array.astype(dtype)
            elif cast and array.dtype.kind != "c":
                array = array.astype(dtype)
            else:
                raise self._mismatch(name, position, array, expected)
        if array.shape != shape and (
            array.ndim != len(shape) or any(d is not None and d != n for d, n in zip(shape, array.shape))
        ):
            raise self._mismatch(name, position, array, expected)
        tensor = None
        if (
            self._on_cpu
            and (is_jax or (array.nbytes >= _IN_PLACE_BYTES and array.flags.aligned))
            and array.flags.c_contiguous
        ):
            try:
                # In place: the kernels take any address aligned to the
                # element (cpu/parameter_alignment.py). Small numpy arrays
                # are copied, at less than making a tensor over them costs.
                tensor = tvm_ffi.from_dlpack(value if is_jax else array, require_alignment=array.dtype.alignment)
            except (BufferError, RuntimeError, TypeError, ValueError):
                tensor = None
            if tensor is not None and not is_jax and borrowed is not None:
                borrowed.append(tensor)
        if tensor is None and reuse and self._on_cpu and not is_jax and borrowed is not None and array.dtype.kind in "biuf":
            tensor = self._staged(slot, array, borrowed)
        if tensor is None:
            tensor = _copied(array, self.device, _ffi_shape(array.shape))
        if is_jax:
            self.resident[position] = (value, tensor)
        return tensor

    def _staged(self, slot: int, array: np.ndarray, borrowed: list):
        """`array` copied into this thread's tensor for parameter `slot`
        (made on first use, or anew for another shape or dtype). It is
        listed in `borrowed`: a result that is the argument itself is
        copied out before the next call overwrites it."""
        stage = getattr(self._staging, "tensors", None)
        if stage is None:
            stage = self._staging.tensors = {}
        held = stage.get(slot)
        if held is not None and held[1].shape == array.shape and held[1].dtype == array.dtype:
            tensor, view = held
            view[...] = array
        else:
            tensor = _copied(array, self.device, _ffi_shape(array.shape))
            try:
                view = np.from_dlpack(tensor)
            except (BufferError, TypeError, RuntimeError):
                return tensor
            stage[slot] = (tensor, view)
        borrowed.append(tensor)
        return tensor

    @staticmethod
    def _mismatch(name, position, array, expected):
        shape, dtype = expected
        want = "x".join("?" if d is None else str(d) for d in shape)
        return CallError(
            f"@{name} argument {position}: expected {dtype.name}[{want}], got {array.dtype.name}[{'x'.join(map(str, array.shape))}]"
        )

    def outputs(self, result, borrowed: list = ()) -> list:
        outputs = None
        if self._on_cpu and hasattr(result, "__chandle__"):
            # Made in one native call (ResultArrays.h); None where a result
            # is not a tensor numpy can view.
            aliased = tuple(t.data_ptr() for t in borrowed) if borrowed else ()
            outputs = result_arrays(result.__chandle__(), self.effects, Result, aliased)
            self.viewable = outputs is not None
        if outputs is None:
            outputs = self._outputs_in_python(result, borrowed)
        return self.completed(outputs) if self.complex_results or self.narrow else outputs

    def completed(self, outputs: list) -> list:
        """The result arrays as the program returns them: complex values
        joined from their parts, narrow types narrowed."""
        if self.complex_results:
            outputs = [_join_complex(*g) if len(g) == 2 else g[0] for g in complex_pairs(outputs, self.complex_results)]
        for i, dtype in self.narrow:
            outputs[i] = _narrowed(outputs[i], dtype)
        return outputs

    def _outputs_in_python(self, result, borrowed: list) -> list:
        """`outputs` one result at a time, for results native code leaves
        (bfloat16, tensors on other devices)."""
        results = [result] if hasattr(result, "shape") else result[:]
        if self.effects:
            results = results[: len(results) - self.effects]
        copied = None
        if borrowed:
            # A result that is (a view of) an argument the caller may change
            # later is copied: jax.jit's results never alias their inputs.
            # (Pointers are cheap to read; a result converted on its own
            # is not, so the common case of no such result takes the path
            # of unborrowed arguments.)
            mine = {t.data_ptr() for t in borrowed}
            aliased = [r.data_ptr() in mine for r in results]
            if any(aliased):
                copied = aliased
        outputs = _as_numpy_all(results)
        if copied is not None:
            for i, c in enumerate(copied):
                if c:
                    outputs[i] = own = outputs[i].copy()
                    own.setflags(write=False)
        if not self.complex_results and not self.narrow:
            self._remember(outputs, results, copied)
        return outputs


    @staticmethod
    def _remember(outputs: list, results: list, copied: list | None) -> None:
        """Gives each result its tensor (see `Result`); not those copied out
        of an argument's tensor, which the caller or the next call may
        overwrite."""
        if copied is None:
            for out, tensor in zip(outputs, results):
                out._tensor = tensor
        else:
            for out, tensor, c in zip(outputs, results, copied):
                if not c:
                    out._tensor = tensor


def _check_dims(checks: list, args) -> None:
    """Raises JAX's message where argument dimensions a symbolic build
    takes as one size differ."""

    def size(arg: int, dim: int):
        shape = np.shape(args[arg])
        return shape[dim] if dim < len(shape) else None

    for dims, format_args, message in checks:
        if size(dims[0], dims[1]) != size(dims[2], dims[3]):
            values = [size(format_args[i], format_args[i + 1]) for i in range(0, len(format_args), 2)]
            raise ShapeAssertionError(message.format(*values))


def _on_device(tensor, device):
    """`tensor` on `device` (a copy when it is elsewhere)."""
    import tvm

    if tensor.device == device:
        return tensor
    return tvm.runtime.tensor(tensor.numpy(), device)


def _copied(array: np.ndarray, device, shape):
    """A new tensor on `device` holding `array`."""
    import tvm_ffi

    from .tvm_internals import alloc_tensor

    dtype = _FFI_DTYPES.get(array.dtype)
    if dtype is None:
        dtype = _FFI_DTYPES[array.dtype] = tvm_ffi.dtype(array.dtype.name)
    tensor = alloc_tensor(shape, dtype, device)
    if device.dlpack_device_type() == 1 and array.dtype.kind in "biuf":
        try:
            np.from_dlpack(tensor)[...] = array
            return tensor
        except (BufferError, TypeError, RuntimeError):
            pass
    return tensor.copyfrom(array)


_FFI_DTYPES: dict = {}
_FFI_SHAPES: dict = {}


def _ffi_shape(shape: tuple):
    found = _FFI_SHAPES.get(shape)
    if found is None:
        import tvm_ffi

        if len(_FFI_SHAPES) > 4096:
            _FFI_SHAPES.clear()
        found = _FFI_SHAPES[shape] = tvm_ffi.Shape(shape)
    return found


class Result(np.ndarray):
    """A result: a numpy array that also answers ``block_until_ready()``
    as a jax array does (TVM's CPU calls return when they are done), so code
    written for jax.jit's results runs unchanged.

    A result as returned holds its tensor (its base, or ``_tensor`` where
    made in Python): passed back in (a training loop's parameters, a
    solver's state), it is that tensor again. Results are read-only, so the
    value is the one the tensor holds; views and arithmetic on a result
    make arrays without it."""

    def block_until_ready(self):
        return self


def _held_tensor():
    """TVM's FFI function from a held tensor's address to the tensor
    (ResultArrays.h), looked up once."""
    global _HELD_TENSOR
    if _HELD_TENSOR is None:
        import tvm_ffi

        _HELD_TENSOR = tvm_ffi.get_global_func("stablehlo_tvm.held_tensor")
    return _HELD_TENSOR


_HELD_TENSOR = None

@functools.cache
def _register_result_dtypes() -> None:
    """Tells result_arrays ml_dtypes' dtypes, by their DLPack codes."""
    import tvm_ffi

    for name in ML_DTYPES:
        dtype = tvm_ffi.dtype(name)
        register_result_dtype(dtype.type_code, dtype.bits, numpy_dtype(name))


def _as_numpy(tensor) -> np.ndarray:
    """A read-only numpy view of a result tensor (a copy for dtypes numpy's
    DLPack import does not know, such as bfloat16)."""
    try:
        array = np.from_dlpack(tensor)
    except (BufferError, TypeError, RuntimeError):
        array = tensor.numpy()
    # On the base array, so that the view cannot be made writable again;
    # setflags costs half of `flags.writeable = False`.
    array.setflags(write=False)
    return array.view(Result)


def _as_numpy_all(tensors) -> list:
    """`_as_numpy` of each, in comprehensions while every dtype is one
    numpy imports (a training step's 83 results: 86 -> ~55 us)."""
    try:
        arrays = [np.from_dlpack(t) for t in tensors]
    except (BufferError, TypeError, RuntimeError):
        return [_as_numpy(t) for t in tensors]
    for array in arrays:
        array.setflags(write=False)
    return [array.view(Result) for array in arrays]


# numpy arrays at least this large are passed in place when aligned.
_IN_PLACE_BYTES = 1 << 14


def _vm_function(vm, signature: "_Signature"):
    """The VM's function for `signature`. The VM mostly knows a function by
    its global_symbol: the import's name for it may have been taken by a
    kernel (a program whose function and one of its ops are both
    "reduce_window"), which the build then renames. A symbol TVM itself
    renames ('f.impl') is known by the import's name."""
    try:
        return vm[signature.vm_name]
    except AttributeError:
        return vm[signature.relax_name]


def _relax_name(irmodule, name: str) -> str | None:
    """The name of `irmodule`'s Relax function that the program calls `name`
    (TVM renames symbols such as 'f.impl'; the original stays the function's
    global_symbol), or None."""
    from tvm import relax

    for gvar, function in irmodule.functions.items():
        if not isinstance(function, relax.Function):
            continue
        attrs = function.attrs
        if gvar.name_hint == name or (attrs is not None and attrs.get("global_symbol") == name):
            return gvar.name_hint
    return None


_SUB_BYTE = {"int2": np.int8, "int4": np.int8, "uint2": np.uint8, "uint4": np.uint8}
_SMALL_FLOATS = ("float8_", "float6_", "float4_")
# The ml_dtypes of types held in wider ones: sub-byte integers in 8 bits,
# floats narrower than 16 bits in f32.
_NARROW_DTYPES = {
    "i2": "int2", "i4": "int4", "ui2": "uint2", "ui4": "uint4",
    "f8E4M3FN": "float8_e4m3fn", "f8E5M2": "float8_e5m2", "f8E4M3FNUZ": "float8_e4m3fnuz",
    "f8E5M2FNUZ": "float8_e5m2fnuz", "f8E4M3B11FNUZ": "float8_e4m3b11fnuz", "f8E3M4": "float8_e3m4",
    "f8E4M3": "float8_e4m3", "f8E8M0FNU": "float8_e8m0fnu", "f4E2M1FN": "float4_e2m1fn",
    "f6E2M3FN": "float6_e2m3fn", "f6E3M2FN": "float6_e3m2fn",
}


def _narrowed(array: np.ndarray, name: str) -> np.ndarray:
    """A result held in a wider type as the type the program declares (the
    values are that type's: the conversion is exact)."""
    import ml_dtypes

    out = np.asarray(array).astype(getattr(ml_dtypes, name)).view(Result)
    out.flags.writeable = False
    return out

# A recursive call takes ~1.3 KiB of native stack and runs up to 16 loop
# iterations (see emitter._emit_while): 1 GiB is room for about ten million.
# TVM's passes recurse along a program's dataflow too (FuseOps overflowed
# the main thread's 8 MiB on a chain of 42,000 element-wise ops). It is
# reserved address space, not memory, until used.
_DEEP_STACK_BYTES = 1 << 30


class _DeepStackThread:
    """One long-lived thread with a deep stack that runs what it is given in
    turn. TVM's thread pool belongs to the thread that first runs parallel
    code: a new thread each time would start a new pool each time, whose
    workers never exit. The hand-off is two bare locks (a call of a small
    loop program is a few tens of microseconds; an executor's futures took
    20 of them)."""

    def __init__(self, name: str):
        self._name = name
        self._lock = threading.Lock()  # one caller at a time
        self._request = threading.Lock()  # released: a job is waiting
        self._done = threading.Lock()  # released: the job has finished
        self._job = None
        self._outcome = None
        self._thread = None

    def call(self, function, *args):
        if threading.current_thread() is self._thread:
            return function(*args)  # already there (a call from inside a call)
        with self._lock:
            if self._thread is None:
                self._start()
            self._job = (function, args)
            self._request.release()
            self._done.acquire()
            result, error = self._outcome
            self._job = self._outcome = None
        if error is not None:
            raise error
        return result

    def _start(self) -> None:
        self._request.acquire()
        self._done.acquire()
        previous = threading.stack_size(_DEEP_STACK_BYTES)
        try:
            self._thread = threading.Thread(target=self._serve, name=self._name, daemon=True)
            self._thread.start()
        finally:
            threading.stack_size(previous)

    def _serve(self) -> None:
        while True:
            self._request.acquire()
            function, args = self._job
            try:
                self._outcome = (function(*args), None)
            except BaseException as error:  # noqa: BLE001 - re-raised in the caller
                self._outcome = (None, error)
            del function, args
            self._done.release()


# Calls of modules with loops.
_LOOP_THREAD = _DeepStackThread("stablehlo_tvm-loop")
# Compilation, one build at a time: TVM also keeps some compilation state
# per process, not per thread (TOPI's tag scope, which legalization enters).
_COMPILE_THREAD = _DeepStackThread("stablehlo_tvm-compile")


def complex_pairs(flat: list, complex_positions) -> list:
    """`flat` (a function's results as the import split them) regrouped by
    original position: [real, imag] where `complex_positions` says the result
    was complex, [item] elsewhere."""
    grouped, k = [], 0
    while k < len(flat):
        n = 2 if len(grouped) in complex_positions else 1
        grouped.append(list(flat[k : k + n]))
        k += n
    return grouped


def _join_complex(real: np.ndarray, imag: np.ndarray) -> np.ndarray:
    value = np.empty(real.shape, np.result_type(real.dtype, np.complex64))
    value.real, value.imag = real, imag
    value.flags.writeable = False
    return value.view(Result)


def build(
    source: Any,
    *example_args: Any,
    target: Any = None,
    entry: str | None = None,
    schedule: bool = True,
    tune: Any = None,
    blas: bool | str = "loops",
    progress: bool | None = None,
    specialize: Any = None,
    shapes: str = "specialize",
) -> "Compiled | Specializing":
    """Compiles ``source`` (a ``tvm.IRModule`` or anything ``import_stablehlo``
    takes) and returns a callable over its entry function.

    ``entry``: the function the callable runs ("main" by default, looked
    up at the first call; a name given here must exist). ``target``
    defaults to this machine's CPU (named, with its core count).
    On CPUs, convolutions become matrix products, TVM fuses operators and
    every fused PrimFunc is scheduled by ``stablehlo_tvm.cpu``'s rules
    (``schedule=False``: TVM's default pipeline, TIR left as legalized).
    ``blas``: which large float32/float64 matrix products run on the
    OpenBLAS numpy ships, in TVM's thread pool: ``"loops"`` those inside
    loops (where it was measured faster; elsewhere TVM's code, which fuses
    a product's epilogue, was), ``True`` all, ``False`` none (a module
    exported to run without this package needs that). See
    docs/performance.md.

    ``progress``: a build running longer than 10 s says what it is doing on
    stderr every 10 s (``True``: from the start, ``False``: never).

    A module with dynamic shapes (a shape-polymorphic ``jax.export``):
    ``shapes="specialize"`` (the default) gives a ``Specializing`` callable:
    each new combination of argument shapes is specialized
    (stablehlo-refine-shapes) and compiled at its first call.
    ``shapes="symbolic"``: one build for every size, its dynamic dimensions
    Relax shape variables (stablehlo-symbolize-shapes); a program whose
    shapes cannot be kept symbolic is an ``MLIRError`` naming its ops.
    ``specialize``: compile for these arguments now instead (see
    ``import_stablehlo``).

    ``tune``: a number of MetaSchedule trials or a ``stablehlo_tvm.Tuning``.
    Workloads not yet in the tuning database (on disk, see ``Tuning``) are
    tuned and stored; every workload it holds gets its best schedule, which
    includes the rules' own, measured alongside."""
    import tvm

    from .cpu import resolve_target, size_thread_pool
    from .cpu.tuning import as_tuning

    size_thread_pool()
    target = resolve_target(target)
    # The device follows the target; one this machine lacks is an error now,
    # not after importing and compiling.
    device = tvm.runtime.device(target.get_target_device_type(), 0)
    if not device.exist:
        raise Error(f"target {target.kind.name!r} runs on {device}, which this machine does not have")
    if isinstance(source, tvm.IRModule):
        irmodule = source
    else:
        from .api import _import_parsed, _parse
        from .inputs import to_source
        from .shapes import entry_function, is_dynamic

        source = to_source(source, *example_args)
        module = _parse(source)
        function = entry_function(module.functions(ops=False), entry)
        if shapes not in ("specialize", "symbolic"):
            raise ValueError(f"shapes must be 'specialize' or 'symbolic', not {shapes!r}")
        if specialize is None and function is not None and is_dynamic(function) and shapes == "specialize":
            options = dict(target=target, entry=entry, schedule=schedule, tune=tune, blas=blas, progress=progress)
            return Specializing(source, function["name"], module.dimension_arguments(function["name"]), options)
        irmodule = _import_parsed(module, source, specialize=specialize, entry=entry)
    if not any(isinstance(f, tvm.relax.Function) for f in irmodule.functions.values()):
        raise InputError("the module has no Relax function to build")
    # The default entry is looked up at the first call: a module of several
    # public functions (a conformance program's) may have no "main".
    if entry is not None and _relax_name(irmodule, entry) is None:
        raise InputError(f"the module has no Relax function {entry!r} to build")
    from .progress import Progress, phase

    tuning = as_tuning(tune)
    with Progress("build", progress):
        phase("fusing operators")
        executable, report, outcome = _COMPILE_THREAD.call(_compile, irmodule, target, schedule, tuning, blas)
    recursive = bool(outcome["loops_left"]) if "loops_left" in outcome else None
    packed = outcome.get("packed_functions", ())
    return Compiled(executable, device, entry or "main", irmodule, report, recursive=recursive, packed_functions=packed)


class Specializing:
    """A compiled module with dynamic shapes: called like ``Compiled``, it
    specializes the module to each new combination of argument shapes (and
    values of the dimension arguments that older exports pass) and compiles
    that at its first call; later calls with the same shapes reuse it. A
    shape assertion the arguments violate raises ``MLIRError`` with JAX's
    message. Safe to call from several threads."""

    def __init__(self, source, entry: str, dimension_arguments, options: dict):
        self.source = source
        self.entry = entry
        self.dimension_arguments = tuple(dimension_arguments)
        self._options = options
        self._builds: dict[tuple, Compiled] = {}
        self._lock = threading.Lock()

    def specialized(self, *args: Any) -> Compiled:
        """The build for arguments like ``args`` (made now if new)."""
        from .shapes import key

        k = key(args, self.dimension_arguments)
        with self._lock:
            found = self._builds.get(k)
            if found is None:
                found = self._builds[k] = build(self.source, specialize=args, **self._options)
        return found

    @property
    def builds(self) -> int:
        """How many specializations were compiled."""
        return len(self._builds)

    def __call__(self, *args: Any):
        return self.specialized(*args)(*args)


def _compile(irmodule, target, schedule: bool, tuning, blas):
    """tvm.compile with this package's CPU pipeline (and tuning), on CPUs
    with the PrimFuncs compiled on several threads (cpu/codegen.py): the
    executable, the tuning report, and what the CPU pipeline found (see
    `cpu_pipeline`; empty when it did not run)."""
    import tvm

    from .cpu import cpu_pipeline, fuse
    from .cpu.tuning import tune as tune_workloads

    to_compile, pipeline, report, outcome = irmodule, "default", None, {}
    if target.kind.name == "llvm" and schedule:
        database = None
        if tuning is not None:
            to_compile = fuse(irmodule, target, blas)
            database, report = tune_workloads(to_compile, target, tuning)
        pipeline = cpu_pipeline(target, database, fused=tuning is not None, blas=blas, outcome=outcome)
    elif tuning is not None:
        raise ValueError(f"tuning needs a CPU target with schedules on, not {target} (schedule={schedule})")
    if target.kind.name == "llvm":
        from .cpu.codegen import build as build_on_threads

        relax_pipeline = pipeline
        if pipeline == "default":
            from .cpu.wrapping_integers import legalizations

            # Integer arithmetic that wraps (cpu/wrapping_integers.py), then
            # TVM's own pipeline.
            relax_pipeline = tvm.transform.Sequential(
                [tvm.relax.transform.LegalizeOps(legalizations({})), tvm.relax.get_pipeline("default")]
            )
        executable = build_on_threads(to_compile, target, relax_pipeline)
    else:
        executable = tvm.compile(to_compile, target=target, relax_pipeline=pipeline)
    return executable, report, outcome
