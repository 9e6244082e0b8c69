"""Linear algebra: stablehlo.triangular_solve as a kernel (programs written
as StableHLO text, numpy's solver the reference), and jnp.linalg's LAPACK
custom calls against jax.jit."""

from __future__ import annotations

import itertools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import stablehlo_tvm
from conftest import assert_matches_jax, random_args


@pytest.mark.parametrize(
    "left, lower, transpose, unit", list(itertools.product([True, False], [True, False], ["NO_TRANSPOSE", "TRANSPOSE"], [False, True]))
)
def test_triangular_solve(left, lower, transpose, unit):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 5, 5)) + 5 * np.eye(5)
    b = rng.standard_normal((2, 5, 3) if left else (2, 3, 5))
    text = f"""
    func.func @main(%a: tensor<2x5x5xf64>, %b: tensor<{"2x5x3" if left else "2x3x5"}xf64>) -> tensor<{"2x5x3" if left else "2x3x5"}xf64> {{
      %0 = "stablehlo.triangular_solve"(%a, %b) <{{left_side = {str(left).lower()}, lower = {str(lower).lower()},
          transpose_a = #stablehlo<transpose {transpose}>, unit_diagonal = {str(unit).lower()}}}>
          : (tensor<2x5x5xf64>, tensor<{"2x5x3" if left else "2x3x5"}xf64>) -> tensor<{"2x5x3" if left else "2x3x5"}xf64>
      return %0 : tensor<{"2x5x3" if left else "2x3x5"}xf64>
    }}"""
    x = stablehlo_tvm.build(text)(a, b)
    t = np.tril(a) if lower else np.triu(a)
    if unit:
        t = t - np.einsum("bii->bi", t)[..., None] * np.eye(5) + np.eye(5)
    op = np.swapaxes(t, -1, -2) if transpose == "TRANSPOSE" else t
    np.testing.assert_allclose(op @ x if left else x @ op, b, rtol=1e-10, atol=1e-10)


# jnp.linalg on CPU lowers to LAPACK custom calls (lapack_*potrf_ffi, ...),
# imported as library calls to SciPy's LAPACK.


def _spd(batch, n, dtype, seed):
    (a,) = random_args([((*batch, n, n), dtype)], seed=seed)
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n, dtype=dtype)


@pytest.mark.parametrize("dtype,tol", [("float32", 1e-4), ("float64", 1e-10)])
def test_cholesky_solve_inv_det(dtype, tol):
    spd = _spd((3,), 5, dtype, seed=1)
    (a, b) = random_args([((3, 5, 5), dtype), ((3, 5, 2), dtype)], seed=2)
    assert_matches_jax(jnp.linalg.cholesky, spd, rtol=tol, atol=tol)
    assert_matches_jax(jnp.linalg.solve, a, b, rtol=tol, atol=tol)
    assert_matches_jax(jnp.linalg.inv, a, rtol=tol, atol=tol)
    assert_matches_jax(lambda m: (jnp.linalg.det(m), *jnp.linalg.slogdet(m)), a, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype,tol", [("float32", 1e-4), ("float64", 1e-10)])
def test_qr_eigh_svd(dtype, tol):
    (a,) = random_args([((2, 6, 4), dtype)], seed=3)
    assert_matches_jax(lambda m: jnp.linalg.qr(m), a, rtol=tol, atol=tol)
    assert_matches_jax(lambda m: jnp.linalg.qr(m, mode="complete"), a, rtol=tol, atol=tol)
    assert_matches_jax(jnp.linalg.eigh, _spd((2,), 4, dtype, seed=4), rtol=tol, atol=tol)
    assert_matches_jax(lambda m: jnp.linalg.svd(m, full_matrices=False), a, rtol=tol, atol=tol)
    assert_matches_jax(lambda m: jnp.linalg.svd(m, compute_uv=False), a, rtol=tol, atol=tol)


def test_gaussian_process_posterior_mean():
    """A real program: GP regression through a Cholesky factor and two
    triangular solves (jax.scipy.linalg.cho_solve)."""
    import jax.scipy.linalg as jsl

    (x, y, xs) = random_args([((20, 2), "float64"), ((20,), "float64"), ((7, 2), "float64")], seed=5)

    def posterior_mean(x, y, xs):
        def kernel(p, q):
            return jnp.exp(-0.5 * jnp.sum((p[:, None] - q[None]) ** 2, -1))

        factor = jsl.cho_factor(kernel(x, x) + 1e-3 * jnp.eye(x.shape[0]))
        return kernel(xs, x) @ jsl.cho_solve(factor, y)

    assert_matches_jax(posterior_mean, x, y, xs, rtol=1e-9, atol=1e-9)


def test_unknown_custom_call_target_is_named():
    import stablehlo_tvm
    from stablehlo_tvm.errors import MLIRError

    text = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @my_vendor_kernel(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""
    with pytest.raises(MLIRError, match=r"unsupported: stablehlo.custom_call @my_vendor_kernel"):
        stablehlo_tvm.import_stablehlo(text)


@pytest.mark.parametrize("lower", [True, False])
def test_stablehlo_cholesky_op(lower):
    """stablehlo.cholesky (JAX on CPU writes the LAPACK custom call instead,
    so the program is text); the other triangle is zero."""
    spd = _spd((2,), 4, "float64", seed=6)
    text = f"""
func.func @main(%a: tensor<2x4x4xf64>) -> tensor<2x4x4xf64> {{
  %0 = stablehlo.cholesky %a, lower = {str(lower).lower()} : (tensor<2x4x4xf64>) -> tensor<2x4x4xf64>
  return %0 : tensor<2x4x4xf64>
}}
"""
    factor = jax.jit(jnp.linalg.cholesky)(spd)
    want = factor if lower else np.swapaxes(factor, -1, -2)
    np.testing.assert_allclose(stablehlo_tvm.build(text)(spd), np.asarray(want), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype,tol", [("complex64", 2e-4), ("complex128", 1e-10)])
def test_complex_linalg(dtype, tol):
    """Complex LAPACK calls (c/z potrf, getrf, trsm, geqrf, ungqr, heevd,
    gesdd): their values cross as (real, imag) parts and are joined again
    for LAPACK."""
    rng = np.random.default_rng(7)
    a = (rng.standard_normal((2, 4, 4)) + 1j * rng.standard_normal((2, 4, 4))).astype(dtype)
    b = (rng.standard_normal((2, 4, 3)) + 1j * rng.standard_normal((2, 4, 3))).astype(dtype)
    hpd = a @ np.conj(np.swapaxes(a, -1, -2)) + 4 * np.eye(4, dtype=dtype)
    assert_matches_jax(jnp.linalg.cholesky, hpd, rtol=tol, atol=tol)
    assert_matches_jax(jnp.linalg.solve, a, b, rtol=tol, atol=tol)
    assert_matches_jax(lambda m: jnp.linalg.qr(m), a, rtol=tol, atol=tol)
    assert_matches_jax(jnp.linalg.eigh, hpd, rtol=tol, atol=tol)
    assert_matches_jax(lambda m: jnp.linalg.svd(m, full_matrices=False), a, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype,tol", [("float32", 1e-4), ("float64", 1e-10)])
def test_lapack_custom_call_options(dtype, tol):
    """The LAPACK trsm custom call with every side, triangle, transpose and
    diagonal; getrf on a wide and a tall matrix (jax.scipy.linalg.lu)."""
    import jax.scipy.linalg as jsl

    (a, b, bt) = random_args([((2, 5, 5), dtype), ((2, 5, 3), dtype), ((2, 3, 5), dtype)], seed=8)
    a = a + 5 * np.eye(5, dtype=dtype)
    for left, lower, transpose, unit in itertools.product([True, False], [True, False], [False, True], [False, True]):

        def solve(a, b, left=left, lower=lower, transpose=transpose, unit=unit):
            return jax.lax.linalg.triangular_solve(a, b, left_side=left, lower=lower, transpose_a=transpose, unit_diagonal=unit)

        assert_matches_jax(solve, a, b if left else bt, rtol=tol, atol=tol)
    (wide, tall) = random_args([((4, 6), dtype), ((6, 4), dtype)], seed=9)
    assert_matches_jax(jsl.lu, wide, rtol=tol, atol=tol)
    assert_matches_jax(jsl.lu, tall, rtol=tol, atol=tol)


def test_native_lapack_declines_to_the_python_routine():
    """getrf/potrf/trsm on f32 and f64 run natively (NativeLapack.cpp); any
    other argument goes to the Python routine. Counted through a Python
    routine that records its calls, registered before the native ones."""
    import tvm
    import tvm_ffi

    from stablehlo_tvm import _core, lapack

    lapack.register()
    calls = []
    python_getrf = tvm_ffi.get_global_func("stablehlo_tvm.lapack.python.getrf")

    def counting(*args):
        calls.append(str(args[0].dtype))
        return python_getrf(*args)

    tvm_ffi.register_global_func("stablehlo_tvm.lapack.python.getrf", counting, override=True)
    try:
        _core.register_native_lapack(lapack._native_addresses())
        getrf = tvm_ffi.get_global_func("stablehlo_tvm.lapack.getrf")
        for dtype in ("float32", "float64", "float16"):
            a = np.array([[1.0, 2.0], [3.0, 4.0]], dtype)
            lu = tvm.runtime.tensor(np.zeros((2, 2), dtype))
            ipiv, info = tvm.runtime.tensor(np.zeros(2, np.int32)), tvm.runtime.tensor(np.ones((), np.int32))
            getrf(tvm.runtime.tensor(a), lu, ipiv, info)
            np.testing.assert_allclose(lu.numpy(), [[3.0, 4.0], [1 / 3, 2 / 3]], rtol=1e-3)
            assert ipiv.numpy().tolist() == [2, 2] and int(info.numpy()) == 0
        assert calls == ["float16"]
    finally:
        tvm_ffi.register_global_func("stablehlo_tvm.lapack.python.getrf", python_getrf, override=True)
        _core.register_native_lapack(lapack._native_addresses())


def test_native_lapack_calls_hold_openblas_to_one_thread():
    """Each native call sets the OpenBLAS behind the LAPACK pointers to one
    thread on the calling thread and restores its count after (its workers
    spinning beside TVM's made calls from kernels 50x slower at times).
    Observed through a thread-count setter that records its calls, given in
    place of OpenBLAS's own; the real one is found where SciPy ships it."""
    import ctypes

    import tvm
    import tvm_ffi

    from stablehlo_tvm import _core, lapack

    lapack.register()
    addresses = lapack._native_addresses()
    assert "openblas_set_num_threads_local" in addresses
    counts = []
    threads = [4]

    @ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int)
    def recording(count):
        counts.append(count)
        previous, threads[0] = threads[0], count
        return previous

    try:
        _core.register_native_lapack({**addresses, "openblas_set_num_threads_local": ctypes.cast(recording, ctypes.c_void_p).value})
        potrf = tvm_ffi.get_global_func("stablehlo_tvm.lapack.potrf")
        a = np.array([[4.0, 2.0], [2.0, 3.0]], np.float32)
        factor, info = tvm.runtime.tensor(np.zeros((2, 2), np.float32)), tvm.runtime.tensor(np.ones((), np.int32))
        potrf(tvm.runtime.tensor(a), 1, factor, info)
        assert int(info.numpy()) == 0
        np.testing.assert_allclose(np.tril(factor.numpy()), np.linalg.cholesky(a), rtol=1e-5)
        assert counts == [1, 4] and threads == [4]
    finally:
        _core.register_native_lapack(addresses)


@pytest.mark.parametrize("dtype,tol", [("float32", 2e-4), ("float64", 1e-10)])
def test_native_qr_eigh_svd_eig_schur_every_shape(dtype, tol):
    """geqrf/orgqr/ormqr, gtsv, syevd, gesdd, geev, gees and gehrd run natively on f32/f64
    (row-major data through column-major LAPACK): tall, wide and batched
    matrices, reflectors applied from either side, transposed or not,
    tridiagonal solves of one or several right-hand sides, every SVD mode,
    eigenvalues with and without vectors from either triangle, general
    eigenproblems with left, right or no vectors (conjugate pairs unpacked),
    Schur forms with and without vectors, Hessenberg reductions; the Python
    routines are never called."""
    import jax.scipy.linalg as jsl
    import tvm_ffi

    from stablehlo_tvm import _core, lapack

    lapack.register()
    names = ("geqrf", "orgqr", "ormqr", "gtsv", "syevd", "gesdd", "geev", "gees", "gehrd")
    originals = {n: tvm_ffi.get_global_func(f"stablehlo_tvm.lapack.python.{n}") for n in names}
    calls = []

    def counting(name):
        def run(*args):
            calls.append(name)
            return originals[name](*args)

        return run

    for n in names:
        tvm_ffi.register_global_func(f"stablehlo_tvm.lapack.python.{n}", counting(n), override=True)
    try:
        _core.register_native_lapack(lapack._native_addresses())
        tall, wide, batch = random_args([((7, 4), dtype), ((3, 5), dtype), ((2, 3, 5, 5), dtype)], seed=12)
        for a in (tall, wide, batch):
            assert_matches_jax(lambda m: jnp.linalg.qr(m), a, rtol=tol, atol=tol)
            assert_matches_jax(lambda m: jnp.linalg.svd(m, compute_uv=False), a, rtol=tol, atol=tol)
            # Singular vectors up to sign: compare U diag(s) Vt and |U|.
            for full in (False, True):

                def svd(m, full=full):
                    u, s, vt = jnp.linalg.svd(m, full_matrices=full)
                    k = s.shape[-1]
                    return jnp.abs(u), s, jnp.abs(vt), (u[..., :k] * s[..., None, :]) @ vt[..., :k, :]

                assert_matches_jax(svd, a, rtol=tol, atol=tol)
        assert_matches_jax(lambda m: jnp.linalg.qr(m, mode="complete"), tall, rtol=tol, atol=tol)
        spd = _spd((3,), 6, dtype, seed=13)
        for lower in (True, False):
            assert_matches_jax(lambda m, lower=lower: jnp.linalg.eigvalsh(m, UPLO="L" if lower else "U"), spd, rtol=tol, atol=tol)

            def eigh(m, lower=lower):
                w, v = jnp.linalg.eigh(m, UPLO="L" if lower else "U")
                return w, jnp.abs(v), (v * w[..., None, :]) @ jnp.swapaxes(v, -1, -2)

            assert_matches_jax(eigh, spd, rtol=tol, atol=tol)
        general = random_args([((2, 3, 6, 6), dtype)], seed=14)[0]
        general[0, 0] = np.eye(6, dtype=dtype)[::-1]  # eigenvalues 1 and -1, each three times
        for left, right in ((False, True), (True, False), (True, True), (False, False)):

            def eig(m, left=left, right=right):
                return jax.lax.linalg.eig(m, compute_left_eigenvectors=left, compute_right_eigenvectors=right)

            assert_matches_jax(eig, general, rtol=tol, atol=tol)
        single = random_args([((1, 1), dtype)], seed=17)[0]
        for m in (general, general[0, 0], single):
            for vectors in (True, False):
                assert_matches_jax(lambda m, v=vectors: jax.lax.linalg.schur(m, compute_schur_vectors=v), m, rtol=tol, atol=tol)
        for m in (general[1, 2], single):
            assert_matches_jax(lambda m: jsl.hessenberg(m, calc_q=True), m, rtol=tol, atol=tol)
        assert_matches_jax(jsl.sqrtm, spd[0] + np.eye(6, dtype=dtype), rtol=tol * 10, atol=tol * 10)
        from jax._src.lax.linalg import geqrf

        for shape, left_c, right_c in (((2, 5, 4), (2, 5, 3), (2, 3, 5)), ((3, 6), (3, 2), (4, 3))):
            reflected, c, d = random_args([(shape, dtype), (left_c, dtype), (right_c, dtype)], seed=15)
            for left, transpose in itertools.product([True, False], [True, False]):

                def apply(a, c, left=left, transpose=transpose):
                    reflectors, taus = geqrf(a)
                    return jax.lax.linalg.ormqr(reflectors, taus, c, left=left, transpose=transpose)

                assert_matches_jax(apply, reflected, c if left else d, rtol=tol, atol=tol)
        for n, rhs in ((7, 2), (1, 1), (5, 1)):
            dl, d, du, b = random_args([((3, n), dtype), ((3, n), dtype), ((3, n), dtype), ((3, n, rhs), dtype)], seed=16)
            d = d + 4
            assert_matches_jax(jax.lax.linalg.tridiagonal_solve, dl, d, du, b, rtol=tol, atol=tol)
        assert calls == []
    finally:
        for n in names:
            tvm_ffi.register_global_func(f"stablehlo_tvm.lapack.python.{n}", originals[n], override=True)
        _core.register_native_lapack(lapack._native_addresses())


@pytest.mark.parametrize("dtype,tol", [("complex64", 2e-4), ("complex128", 1e-10)])
def test_native_complex_schur(dtype, tol):
    """The complex gees (jax.scipy.linalg.sqrtm takes the complex Schur form
    of any matrix) runs natively: parts interleaved into column-major
    LAPACK and split back, batched, with and without vectors; the Python
    routine is never called."""
    import jax.scipy.linalg as jsl
    import tvm_ffi

    from stablehlo_tvm import _core, lapack

    lapack.register()
    name = "stablehlo_tvm.lapack.python.complex.gees"
    original = tvm_ffi.get_global_func(name)
    calls = []

    def counting(*args):
        calls.append(args)
        return original(*args)

    tvm_ffi.register_global_func(name, counting, override=True)
    try:
        _core.register_native_lapack(lapack._native_addresses())
        rng = np.random.default_rng(18)
        batch = (rng.standard_normal((2, 3, 5, 5)) + 1j * rng.standard_normal((2, 3, 5, 5))).astype(dtype)
        for m in (batch, batch[0, 0], batch[:, :, :1, :1]):
            for vectors in (True, False):
                assert_matches_jax(lambda m, v=vectors: jax.lax.linalg.schur(m, compute_schur_vectors=v), m, rtol=tol, atol=tol)
        real = np.real(batch[0, 0]).astype(np.float32 if dtype == "complex64" else np.float64)
        assert_matches_jax(jsl.sqrtm, real @ real.T + np.eye(5, dtype=real.dtype), rtol=tol * 10, atol=tol * 10)
        assert calls == []
    finally:
        tvm_ffi.register_global_func(name, original, override=True)
        _core.register_native_lapack(lapack._native_addresses())


@pytest.mark.parametrize("dtype,tol", [("float32", 1e-4), ("float64", 1e-10), ("complex64", 2e-4)])
def test_qr_reflectors_applied(dtype, tol):
    """lapack ormqr/unmqr (lax.linalg.ormqr; lineax's QR solve): Q or its
    (conjugate) transpose from geqrf's reflectors, on either side, of tall
    and wide matrices."""
    from jax._src.lax.linalg import geqrf  # what lineax calls; not exported
    rng = np.random.default_rng(10)

    def sample(shape):
        value = rng.standard_normal(shape)
        if dtype.startswith("complex"):
            value = value + 1j * rng.standard_normal(shape)
        return value.astype(dtype)

    for shape, left_c, right_c in (((2, 5, 4), (2, 5, 3), (2, 3, 5)), ((3, 6), (3, 2), (4, 3))):
        a, c, d = sample(shape), sample(left_c), sample(right_c)
        for left, transpose in itertools.product([True, False], [True, False]):

            def apply(a, c, left=left, transpose=transpose):
                reflectors, taus = geqrf(a)
                return jax.lax.linalg.ormqr(reflectors, taus, c, left=left, transpose=transpose)

            assert_matches_jax(apply, a, c if left else d, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype,tol", [("float32", 1e-4), ("float64", 1e-10), ("complex64", 2e-4), ("complex128", 1e-10)])
def test_general_eigenproblem(dtype, tol):
    """LAPACK geev (jnp.linalg.eig, eigvals, lax.linalg.eig with left
    vectors): complex eigenvalues and vectors for real matrices too, whose
    conjugate pairs LAPACK packs into two real columns."""
    rng = np.random.default_rng(11)
    a = rng.standard_normal((3, 5, 5))
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal((3, 5, 5))
    a = a.astype(dtype)
    assert_matches_jax(jnp.linalg.eig, a, rtol=tol, atol=tol)
    assert_matches_jax(jnp.linalg.eigvals, a[0], rtol=tol, atol=tol)
    assert_matches_jax(lambda m: jax.lax.linalg.eig(m, compute_left_eigenvectors=True), a, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype,tol", [("float32", 1e-4), ("float64", 1e-10), ("complex64", 2e-4), ("complex128", 1e-10)])
def test_schur_and_hessenberg(dtype, tol):
    """LAPACK gees and gehrd (jax.scipy.linalg.schur, hessenberg, and sqrtm,
    which goes through the Schur form), batched."""
    import jax.scipy.linalg as jsl

    rng = np.random.default_rng(12)
    a = rng.standard_normal((2, 5, 5))
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal((2, 5, 5))
    a = a.astype(dtype)
    assert_matches_jax(jax.lax.linalg.schur, a, rtol=tol, atol=tol)
    assert_matches_jax(lambda m: jsl.hessenberg(m, calc_q=True), a[0], rtol=tol, atol=tol)
    spd = a[0] @ np.conj(a[0].T) + np.eye(5, dtype=dtype)
    assert_matches_jax(jsl.sqrtm, spd, rtol=tol * 10, atol=tol * 10)


@pytest.mark.parametrize("dtype,tol", [("float32", 1e-5), ("float64", 1e-12), ("complex64", 1e-5)])
def test_tridiagonal_solve(dtype, tol):
    """LAPACK gtsv (lax.linalg.tridiagonal_solve, e.g. an implicit
    diffusion step): batched, several right-hand sides, and its gradient."""
    rng = np.random.default_rng(13)
    n = 7
    dl, du, b = rng.standard_normal((3, n)), rng.standard_normal((3, n)), rng.standard_normal((3, n, 2))
    d = rng.standard_normal((3, n)) + 4
    dl[:, 0], du[:, -1] = 0, 0
    if dtype.startswith("complex"):
        b = b + 1j * rng.standard_normal((3, n, 2))
    dl, d, du, b = (v.astype(dtype) for v in (dl, d, du, b))
    solve = jax.lax.linalg.tridiagonal_solve
    assert_matches_jax(solve, dl, d, du, b, rtol=tol, atol=tol)
    assert_matches_jax(lambda dl, d, du, b: jax.grad(lambda d: jnp.sum(jnp.abs(solve(dl, d, du, b)) ** 2))(d), dl, d, du, b, rtol=tol * 10, atol=tol * 10)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_triangular_solve_op(dtype):
    """stablehlo.triangular_solve of complex operands (JAX on the CPU calls
    LAPACK instead; other producers write the op): both sides, both
    triangles, every op(a), unit diagonal, batched; against XLA."""
    from stablehlo_tvm import xla

    element = "complex<f32>" if dtype == "complex64" else "complex<f64>"
    rng = np.random.default_rng(21)

    def sample(shape):
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)

    a = sample((2, 4, 4)) + 4 * np.eye(4, dtype=dtype)
    for left, lower, transpose, unit in itertools.product([True, False], [True, False], ["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"], [False, True]):
        b = sample((2, 4, 3) if left else (2, 3, 4))
        btype = f"tensor<2x{'4x3' if left else '3x4'}x{element}>"
        text = f"""
func.func @main(%a: tensor<2x4x4x{element}>, %b: {btype}) -> {btype} {{
  %x = "stablehlo.triangular_solve"(%a, %b) {{left_side = {str(left).lower()}, lower = {str(lower).lower()}, unit_diagonal = {str(unit).lower()}, transpose_a = #stablehlo<transpose {transpose}>}} : (tensor<2x4x4x{element}>, {btype}) -> {btype}
  return %x : {btype}
}}"""
        (want,) = xla.run(text, [a, b])
        got = np.asarray(stablehlo_tvm.build(text)(a, b))
        tol = 1e-4 if dtype == "complex64" else 1e-12
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=f"{left=} {lower=} {transpose=} {unit=}")
