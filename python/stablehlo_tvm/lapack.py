"""LAPACK routines for `tvm.call_dps_packed "stablehlo_tvm.lapack.<routine>"`
(and `...lapack.complex.<routine>`), registered with TVM's FFI: jnp.linalg's
custom calls run on the LAPACK that SciPy ships (scipy.linalg.lapack /
.blas, a registry package JAX depends on).

A packed function takes the custom call's operands, then its integer options
(see lib/Conversion/StableHLOToTVM/Lapack.cpp for their order), then one
output tensor per result, and fills the outputs with LAPACK's results in
LAPACK's conventions (1-based pivots, info codes), batched over leading
dimensions. In the complex form every complex operand and result is two
tensors, its real and imaginary parts (stablehlo-lower-complex splits them).

The f32/f64 forms of every routine, and the complex form of gees (the
complex Schur form sqrtm takes), are native functions of the C++ core over
the same LAPACK (python/NativeLapack.cpp; a call from a loop kernel costs
no interpreter); the routines here take the other complex forms.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import inspect
import math

import numpy as np

_REGISTERED = False


def _routine(name: str, dtype):
    from scipy.linalg import blas, lapack

    if np.issubdtype(dtype, np.complexfloating):
        name = {"orgqr": "ungqr", "ormqr": "unmqr", "syevd": "heevd"}.get(name, name)
    if name == "trsm":
        (function,) = blas.get_blas_funcs((name,), dtype=dtype)
    else:
        (function,) = lapack.get_lapack_funcs((name,), dtype=dtype)
    return function


def _batches(array: np.ndarray):
    return np.ndindex(array.shape[:-2])


def _codes(a: np.ndarray) -> np.ndarray:
    return np.empty(a.shape[:-2], np.int32)


# Each routine: numpy operands and int options in, numpy results out (None
# where LAPACK computes nothing; the output is then zeros). A routine that
# takes `out` (the output tensors' memory, as arrays) writes its results
# there and returns None for them.
#
# LAPACK is column-major and the arrays here are row-major: a row-major
# matrix is its transpose in column-major order. potrf and trsm work on
# that transpose in place, in the output's memory, with the triangle (and
# for trsm the side) flipped, so that SciPy's wrappers copy nothing: a
# 128 x 128 trsm went from ~210 to ~90 us a call.


def potrf(a, lower, out=None):
    factor, codes = out if out is not None else (np.empty_like(a), _codes(a))
    factor[...] = a
    function = _routine("potrf", a.dtype)
    for i in _batches(a):
        # factor[i].T is A's transpose; its other triangle holds A's.
        done, codes[i] = function(factor[i].T, lower=not lower, clean=0, overwrite_a=1)
        _written(done, factor[i].T)
    return (None, None) if out is not None else (factor, codes)


def _written(result: np.ndarray, place: np.ndarray) -> None:
    """`result` in `place`, where SciPy wrote it unless it had to copy."""
    if not np.may_share_memory(result, place):
        place[...] = result


def getrf(a):
    lu, codes = np.empty_like(a), _codes(a)
    ipiv = np.empty(a.shape[:-2] + (min(a.shape[-2:]),), np.int32)
    function = _routine("getrf", a.dtype)
    for i in _batches(a):
        lu[i], piv, codes[i] = function(a[i])
        ipiv[i] = piv + 1  # SciPy gives 0-based pivots; LAPACK's are 1-based
    return lu, ipiv, codes


def trsm(a, b, left, lower, transpose, unit_diagonal, out=None):
    (x,) = out if out is not None else (np.empty_like(b),)
    x[...] = b
    function = _routine("trsm", b.dtype)
    for i in _batches(b):
        # op(A) X = B is X^T op(A)^T = B^T, and op(A)^T is op applied to
        # A^T, which a[i].T is in column-major order.
        done = function(
            1.0, a[i].T, x[i].T, side=1 if left else 0, lower=not lower, trans_a=transpose, diag=unit_diagonal, overwrite_b=1
        )
        _written(done, x[i].T)
    return (None,) if out is not None else (x,)


def geqrf(a):
    qr = np.empty_like(a)
    tau = np.empty(a.shape[:-2] + (min(a.shape[-2:]),), a.dtype)
    function = _routine("geqrf", a.dtype)
    for i in _batches(a):
        qr[i], tau[i], _, _ = function(a[i])
    return qr, tau


def orgqr(a, tau):
    q = np.empty_like(a)
    function = _routine("orgqr", a.dtype)
    for i in _batches(a):
        q[i], _, _ = function(a[i], tau[i])
    return (q,)


def ormqr(a, tau, c, left, transpose):
    """op(Q) C (left) or C op(Q), Q the product of geqrf's reflectors in `a`
    and `tau`; op transposes (conjugate-transposes for complex)."""
    out = np.empty_like(c)
    function = _routine("ormqr", c.dtype)
    trans = ("C" if np.issubdtype(c.dtype, np.complexfloating) else "T") if transpose else "N"
    work = max(1, *c.shape[-2:]) * 64
    # The reflectors are the first k columns (a wide matrix's geqrf leaves R
    # beside them), which is all SciPy's wrapper takes.
    k = tau.shape[-1]
    for i in _batches(c):
        out[i], _, _ = function("L" if left else "R", trans, a[i][:, :k], tau[i], c[i], work)
    return (out,)


def geev(a, compute_left, compute_right):
    """Eigenvalues and left/right eigenvectors of a general matrix, all
    complex (as JAX gives them): a real LAPACK's conjugate pairs, packed
    as two real columns, are unpacked into complex ones."""
    n = a.shape[-1]
    complex_type = np.result_type(a.dtype, np.complex64)
    w = np.empty(a.shape[:-1], complex_type)
    vl, vr = np.zeros(a.shape, complex_type), np.zeros(a.shape, complex_type)
    codes = _codes(a)
    function = _routine("geev", a.dtype)
    real = not np.issubdtype(a.dtype, np.complexfloating)
    for i in _batches(a):
        if real:
            wr, wi, left, right, codes[i] = function(a[i], compute_vl=compute_left, compute_vr=compute_right)
            w[i] = wr + 1j * wi
            left, right = _unpacked(left, wi, n), _unpacked(right, wi, n)
        else:
            w[i], left, right, codes[i] = function(a[i], compute_vl=compute_left, compute_vr=compute_right)
        if compute_left:
            vl[i] = left
        if compute_right:
            vr[i] = right
    return w, vl, vr, codes


def _unpacked(vectors: np.ndarray, imag: np.ndarray, n: int) -> np.ndarray:
    """A real geev's eigenvectors as complex columns: for a conjugate pair
    (imag[j] > 0) columns j and j+1 hold the real and imaginary parts."""
    out = vectors.astype(np.result_type(vectors.dtype, np.complex64))
    j = 0
    while j < n:
        if imag[j] != 0 and j + 1 < n:
            out[:, j] = vectors[:, j] + 1j * vectors[:, j + 1]
            out[:, j + 1] = vectors[:, j] - 1j * vectors[:, j + 1]
            j += 2
        else:
            j += 1
    return out


def gees(a, compute_vectors):
    """The (unsorted) Schur form T = Q^H A Q, Q, the eigenvalues (complex,
    as JAX gives them), the number of sorted eigenvalues (0) and info."""
    t, q = np.empty_like(a), np.zeros_like(a)
    w = np.empty(a.shape[:-1], np.result_type(a.dtype, np.complex64))
    sdim, codes = np.zeros(a.shape[:-2], np.int32), _codes(a)
    function = _routine("gees", a.dtype)
    real = not np.issubdtype(a.dtype, np.complexfloating)
    for i in _batches(a):
        if real:
            t[i], sdim[i], wr, wi, vectors, _, codes[i] = function(_no_selection, a[i], compute_v=int(compute_vectors))
            w[i] = wr + 1j * wi
        else:
            t[i], sdim[i], w[i], vectors, _, codes[i] = function(_no_selection, a[i], compute_v=int(compute_vectors))
        if compute_vectors:
            q[i] = vectors
    return t, q, w, sdim, codes


def _no_selection(*_):
    return 0


def gehrd(a, low, high):
    """Reduction to upper Hessenberg form: the reflectors below the first
    subdiagonal, their scales, info. `low` and `high` are LAPACK's 1-based
    ilo and ihi."""
    h = np.empty_like(a)
    tau = np.zeros(a.shape[:-2] + (max(a.shape[-1] - 1, 0),), a.dtype)
    codes = _codes(a)
    function = _routine("gehrd", a.dtype)
    for i in _batches(a):
        h[i], scales, codes[i] = function(a[i], lo=low - 1, hi=high - 1)
        tau[i] = scales[: tau.shape[-1]]
    return h, tau, codes


def gtsv(dl, d, du, b):
    """The solution of the tridiagonal systems with sub-, main and
    super-diagonals dl, d, du (n elements each: dl[0] and du[n-1] are not
    read), and LAPACK's overwritten diagonals, info."""
    out = [np.array(v, copy=True) for v in (dl, d, du)]
    x, codes = np.empty_like(b), _codes(b)
    function = _routine("gtsv", b.dtype)
    for i in _batches(b):
        lower, main, upper, x[i], codes[i] = function(dl[i][1:], d[i], du[i][:-1], b[i])
        out[0][i][1:], out[1][i], out[2][i][:-1] = lower, main, upper
    return (*out, x, codes)


def syevd(a, compute_vectors, lower):
    v, codes = np.empty_like(a), _codes(a)
    w = np.empty(a.shape[:-1], a.real.dtype)
    function = _routine("syevd", a.dtype)
    for i in _batches(a):
        w[i], vi, codes[i] = function(a[i], compute_v=compute_vectors, lower=lower)
        v[i] = vi if compute_vectors else a[i]
    return v, w, codes


def gesdd(a, vectors):
    m, n = a.shape[-2:]
    k = min(m, n)
    s = np.empty(a.shape[:-2] + (k,), a.real.dtype)
    codes = _codes(a)
    u = vt = None
    if vectors:
        rows, cols = (m, n) if vectors == 2 else (k, k)
        u = np.empty(a.shape[:-2] + (m, rows), a.dtype)
        vt = np.empty(a.shape[:-2] + (cols, n), a.dtype)
    function = _routine("gesdd", a.dtype)
    for i in _batches(a):
        ui, s[i], vti, codes[i] = function(a[i], compute_uv=int(vectors > 0), full_matrices=int(vectors == 2))
        if vectors:
            u[i], vt[i] = ui, vti
    return a, s, u, vt, codes


# Per routine: its operands, its number of int options, its results; "c" is
# a matrix of the routine's type (complex in the complex form), "z" a
# complex value in either form, "r" a real value of the matching precision,
# "i" an int32 code. Complex values cross as (real, imag) tensors.
SIGNATURES = {
    "potrf": (potrf, "c", 1, "ci"),
    "getrf": (getrf, "c", 0, "cii"),
    "trsm": (trsm, "cc", 4, "c"),
    "geqrf": (geqrf, "c", 0, "cc"),
    "orgqr": (orgqr, "cc", 0, "c"),
    "ormqr": (ormqr, "ccc", 2, "c"),
    "geev": (geev, "c", 2, "zzzi"),
    "gees": (gees, "c", 1, "cczii"),
    "gehrd": (gehrd, "c", 2, "cci"),
    "gtsv": (gtsv, "cccc", 0, "cccci"),
    "syevd": (syevd, "c", 2, "cri"),
    "gesdd": (gesdd, "c", 1, "crcci"),
}


@functools.cache
def _openblas_thread_setter():
    """SciPy's OpenBLAS's openblas_set_num_threads_local, or None."""
    address = _native_addresses().get("openblas_set_num_threads_local")
    return ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int)(address) if address else None


@contextlib.contextmanager
def _one_openblas_thread():
    """SciPy's OpenBLAS on one thread for this thread while the block runs:
    its workers would spin beside TVM's (see NativeLapack.cpp)."""
    setter = _openblas_thread_setter()
    previous = setter(1) if setter is not None else 0
    try:
        yield
    finally:
        if setter is not None and previous > 0:
            setter(previous)


def _packed(name: str, complex_form: bool):
    """The packed function: tensors to numpy (parts joined in the complex
    form), the routine, and its results written to the output tensors."""
    routine, operands, num_options, results = SIGNATURES[name]

    # The complex form joins and splits parts, so it takes results back.
    in_place = not complex_form and "out" in inspect.signature(routine).parameters

    def run(*args):
        position, arrays = 0, []
        for kind in operands:
            if complex_form and kind == "c":
                real, imag = _view(args[position]), _view(args[position + 1])
                value = np.empty(real.shape, np.result_type(real.dtype, np.complex64))
                value.real, value.imag = real, imag
                arrays.append(value)
                position += 2
            else:
                arrays.append(_view(args[position]))
                position += 1
        options = [int(v) for v in args[position : position + num_options]]
        position += num_options
        with _one_openblas_thread():
            if in_place:
                computed = routine(*arrays, *options, out=[_view(t) for t in args[position:]])
            else:
                computed = routine(*arrays, *options)
        for kind, value in zip(results, computed):
            parts = 2 if (complex_form and kind == "c") or kind == "z" else 1
            outputs = args[position : position + parts]
            position += parts
            if value is None and in_place:
                continue  # written in place
            if value is None:
                value = np.zeros(outputs[0].shape, outputs[0].dtype)
            values = (value.real, value.imag) if parts == 2 else (value,)
            for tensor, part in zip(outputs, values):
                # Into the tensor's memory (a copyfrom is a tensor of its
                # own and a dtype parsed: most of a small routine's call).
                _view(tensor)[...] = part

    return run


def _view(tensor) -> np.ndarray:
    """A compact CPU tensor's memory as an array, without a copy. Not
    through DLPack, which needs a tensor that owns its memory: a packed call
    made from a kernel (a loop's) passes views of the kernel's buffers."""
    if not tensor.is_contiguous():
        raise ValueError("LAPACK routines take compact tensors")
    dtype = np.dtype(str(tensor.dtype))
    shape = tuple(int(d) for d in tensor.shape)
    size = math.prod(shape) * dtype.itemsize
    if size == 0:
        return np.empty(shape, dtype)
    return np.frombuffer((ctypes.c_char * size).from_address(tensor.data_ptr()), dtype).reshape(shape)


# The routines the C++ core calls natively in single and double precision
# (python/NativeLapack.cpp), by the names SciPy's Cython modules export.
_NATIVE = {
    "cython_lapack": tuple(
        p + r
        for r in ("getrf", "potrf", "geqrf", "orgqr", "ormqr", "gtsv", "syevd", "gesdd", "geev", "gees", "gehrd")
        for p in "sd"
    )
    + ("cgees", "zgees"),
    "cython_blas": ("strsm", "dtrsm"),
}


def _native_addresses() -> dict[str, int]:
    """The addresses of the `_NATIVE` functions (SciPy's Cython modules keep
    them in PyCapsules); those SciPy does not have are left out."""
    import importlib

    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype, get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    addresses = {}
    for module_name, names in _NATIVE.items():
        capsules = getattr(importlib.import_module(f"scipy.linalg.{module_name}"), "__pyx_capi__", {})
        for name in names:
            if name in capsules:
                addresses[name] = get_pointer(capsules[name], get_name(capsules[name]))
    # The OpenBLAS SciPy links them to (already loaded: the same copy):
    # its per-thread thread count, which the native calls hold at one.
    import glob
    import os

    import scipy

    for path in sorted(glob.glob(os.path.join(os.path.dirname(scipy.__file__), "..", "scipy.libs", "libscipy_openblas*.so"))):
        setter = getattr(ctypes.CDLL(path), "openblas_set_num_threads_local", None)
        if setter is not None:
            addresses["openblas_set_num_threads_local"] = ctypes.cast(setter, ctypes.c_void_p).value
            break
    return addresses


def register() -> None:
    """Registers every routine as `stablehlo_tvm.lapack.<name>` and
    `stablehlo_tvm.lapack.complex.<name>` (once). Every routine on f32/f64,
    and the complex gees, is native (no interpreter in the call); the
    Python forms, which take the other element types, stay as
    `stablehlo_tvm.lapack.python.<name>` and
    `stablehlo_tvm.lapack.python.complex.<name>`."""
    global _REGISTERED
    if _REGISTERED:
        return
    import tvm_ffi

    from . import _core

    for name in SIGNATURES:
        tvm_ffi.register_global_func(f"stablehlo_tvm.lapack.{name}", _packed(name, False), override=True)
        tvm_ffi.register_global_func(f"stablehlo_tvm.lapack.python.{name}", _packed(name, False), override=True)
        tvm_ffi.register_global_func(f"stablehlo_tvm.lapack.complex.{name}", _packed(name, True), override=True)
        tvm_ffi.register_global_func(f"stablehlo_tvm.lapack.python.complex.{name}", _packed(name, True), override=True)
    _core.register_native_lapack(_native_addresses())
    _REGISTERED = True
