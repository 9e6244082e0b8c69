"""LAPACK routines for `tvm.call_dps_packed "stablehlo_tvm.lapack.<routine>"`,
registered with TVM's FFI: jnp.linalg's custom calls run on the LAPACK that
SciPy ships (scipy.linalg.lapack / .blas, a registry package JAX depends on).

Each function takes the custom call's operands, then its integer options (see
lib/Conversion/StableHLOToTVM/Lapack.cpp for their order), then one output
tensor per result, and fills the outputs with LAPACK's results in LAPACK's
conventions (1-based pivots, info codes), batched over leading dimensions.
"""

from __future__ import annotations

import numpy as np

_REGISTERED = False


def _routine(name: str, dtype):
    from scipy.linalg import blas, lapack

    module = blas if name == "trsm" else lapack
    (function,) = module.get_blas_funcs((name,), dtype=dtype) if module is blas else module.get_lapack_funcs((name,), dtype=dtype)
    return function


def _batches(array: np.ndarray):
    return np.ndindex(array.shape[:-2])


def _write(outputs, values) -> None:
    for tensor, value in zip(outputs, values):
        tensor.copyfrom(np.asarray(value, dtype=tensor.dtype, order="C"))


def potrf(a, lower, out, info):
    a = a.numpy()
    factor, codes = np.empty_like(a), np.empty(a.shape[:-2], np.int32)
    function = _routine("potrf", a.dtype)
    for i in _batches(a):
        factor[i], codes[i] = function(a[i], lower=lower, clean=0)
    _write((out, info), (factor, codes))


def getrf(a, out, pivots, info):
    a = a.numpy()
    lu = np.empty_like(a)
    ipiv = np.empty(a.shape[:-2] + (min(a.shape[-2:]),), np.int32)
    codes = np.empty(a.shape[:-2], np.int32)
    function = _routine("getrf", a.dtype)
    for i in _batches(a):
        lu[i], piv, codes[i] = function(a[i])
        ipiv[i] = piv + 1  # SciPy gives 0-based pivots; LAPACK's are 1-based
    _write((out, pivots, info), (lu, ipiv, codes))


def trsm(a, b, left, lower, transpose, unit_diagonal, out):
    a, b = a.numpy(), b.numpy()
    x = np.empty_like(b)
    function = _routine("trsm", b.dtype)
    for i in _batches(b):
        x[i] = function(1.0, a[i], b[i], side=0 if left else 1, lower=lower, trans_a=transpose, diag=unit_diagonal)
    _write((out,), (x,))


def geqrf(a, out, taus):
    a = a.numpy()
    qr = np.empty_like(a)
    tau = np.empty(a.shape[:-2] + (min(a.shape[-2:]),), a.dtype)
    function = _routine("geqrf", a.dtype)
    for i in _batches(a):
        qr[i], tau[i], _, _ = function(a[i])
    _write((out, taus), (qr, tau))


def orgqr(a, tau, out):
    a, tau = a.numpy(), tau.numpy()
    q = np.empty_like(a)
    function = _routine("orgqr", a.dtype)
    for i in _batches(a):
        q[i], _, _ = function(a[i], tau[i])
    _write((out,), (q,))


def syevd(a, compute_vectors, lower, vectors, values, info):
    a = a.numpy()
    v, w = np.empty_like(a), np.empty(a.shape[:-1], a.dtype)
    codes = np.empty(a.shape[:-2], np.int32)
    function = _routine("syevd", a.dtype)
    for i in _batches(a):
        w[i], vi, codes[i] = function(a[i], compute_v=compute_vectors, lower=lower)
        v[i] = vi if compute_vectors else a[i]
    _write((vectors, values, info), (v, w, codes))


def gesdd(a, vectors, out, singular_values, u, vt, info):
    a = a.numpy()
    s = np.empty(singular_values.shape, a.dtype)
    left, right = np.zeros(u.shape, a.dtype), np.zeros(vt.shape, a.dtype)
    codes = np.empty(a.shape[:-2], np.int32)
    function = _routine("gesdd", a.dtype)
    for i in _batches(a):
        ui, s[i], vti, codes[i] = function(a[i], compute_uv=int(vectors > 0), full_matrices=int(vectors == 2))
        if vectors:
            left[i], right[i] = ui, vti
    _write((out, singular_values, u, vt, info), (a, s, left, right, codes))


ROUTINES = {"potrf": potrf, "getrf": getrf, "trsm": trsm, "geqrf": geqrf, "orgqr": orgqr, "syevd": syevd, "gesdd": gesdd}


def register() -> None:
    """Registers every routine as `stablehlo_tvm.lapack.<name>` (once)."""
    global _REGISTERED
    if _REGISTERED:
        return
    import tvm_ffi

    for name, function in ROUTINES.items():
        tvm_ffi.register_global_func(f"stablehlo_tvm.lapack.{name}", function, override=True)
    _REGISTERED = True
