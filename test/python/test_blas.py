"""Large float products on OpenBLAS, through `stablehlo_tvm.blas.matmul`
(runtime/BlasMatmul.cpp), against jax.jit: all of them with blas=True,
those inside loops by default, none with blas=False."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import tvm

import stablehlo_tvm
from conftest import random_args
from stablehlo_tvm.cpu import blas


def _offloaded_and_result(fn, *args, blas=True):
    """How many products the build runs on the BLAS, and its result."""
    lowered = jax.jit(fn).lower(*args)
    compiled = stablehlo_tvm.build(lowered, blas=blas)
    with stablehlo_tvm.cpu.host_target():
        fused = stablehlo_tvm.cpu.fuse(stablehlo_tvm.import_stablehlo(lowered), stablehlo_tvm.cpu.host_target(), blas=blas)
    calls = fused.script(show_meta=False).count('R.call_dps_packed("stablehlo_tvm.blas.matmul"')
    return calls, compiled(*args)


def test_blas_is_found():
    # numpy ships OpenBLAS.
    assert blas.available()


@pytest.mark.parametrize(
    "fn, shapes",
    [
        (jnp.matmul, [(256, 128), (128, 192)]),
        # batched, and a batch of rows over one B (folded into one product)
        (jnp.matmul, [(3, 64, 96), (3, 96, 80)]),
        (jnp.matmul, [(2, 96, 128), (128, 100)]),
        # transposed operands reach the BLAS as flags
        (lambda a, b: jnp.einsum("hqd,hkd->hqk", a, b), [(4, 128, 64), (4, 112, 64)]),
        (lambda a, b: jnp.einsum("bkm,bkn->bmn", a, b), [(3, 96, 100), (3, 96, 90)]),
        (lambda a, b: a.T @ b, [(160, 120), (160, 130)]),
        # the epilogue stays in TVM
        (lambda a, b: jax.nn.relu(a @ b + 1.0), [(200, 150), (150, 170)]),
    ],
)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_products_on_the_blas_agree_with_jax(fn, shapes, dtype):
    args = random_args([(s, dtype) for s in shapes])
    calls, got = _offloaded_and_result(fn, *args)
    assert calls == 1
    tolerance = 1e-4 if dtype == "float32" else 1e-10
    np.testing.assert_allclose(got, np.asarray(jax.jit(fn)(*args)), rtol=tolerance, atol=tolerance)


def test_small_and_integer_products_stay_in_tvm():
    small = random_args([((8, 16), "float32"), ((16, 8), "float32")])
    integers = random_args([((128, 128), "int32"), ((128, 128), "int32")])
    for args in (small, integers):
        calls, got = _offloaded_and_result(jnp.matmul, *args)
        assert calls == 0
        np.testing.assert_allclose(got, np.asarray(jax.jit(jnp.matmul)(*args)), rtol=1e-5)


def test_blas_false_keeps_products_in_tvm():
    args = random_args([((256, 128), "float32"), ((128, 192), "float32")])
    calls, got = _offloaded_and_result(jnp.matmul, *args, blas=False)
    assert calls == 0
    np.testing.assert_allclose(got, np.asarray(jax.jit(jnp.matmul)(*args)), rtol=1e-4, atol=1e-4)


def test_by_default_only_products_inside_loops_go_to_the_blas():
    args = random_args([((256, 128), "float32"), ((128, 192), "float32")])
    calls, _ = _offloaded_and_result(jnp.matmul, *args, blas="loops")
    assert calls == 0


@pytest.mark.parametrize("n, dtype, offloaded", [(200, "float32", 1), (129, "float32", 1), (150, "float64", 1), (200, "float64", 0), (192, "float32", 0)])
def test_by_default_products_whose_rows_misfit_the_vector_tiles_go_to_the_blas(n, dtype, offloaded):
    """Outside loops too, a product whose C rows no 64-byte vector divides
    (TVM's register tile would go scalar) runs on the BLAS."""
    args = random_args([((n, n), dtype), ((n, n), dtype)])
    calls, got = _offloaded_and_result(jnp.matmul, *args, blas="loops")
    assert calls == offloaded
    tolerance = 1e-4 if dtype == "float32" else 1e-10
    np.testing.assert_allclose(got, np.asarray(jax.jit(jnp.matmul)(*args)), rtol=tolerance, atol=tolerance)


def test_a_recurrent_step_on_the_blas():
    x, w, u = random_args([((12, 32, 256), "float32"), ((256, 256), "float32"), ((256, 256), "float32")])

    def rnn(x, w, u):
        def step(h, xt):
            h = jnp.tanh(xt @ w + h @ u * 0.1)
            return h, h

        return jax.lax.scan(step, jnp.zeros((32, 256), jnp.float32), x)[1]

    calls, got = _offloaded_and_result(rnn, x, w, u, blas="loops")
    assert calls == 2
    np.testing.assert_allclose(got, np.asarray(jax.jit(rnn)(x, w, u)), rtol=1e-4, atol=1e-5)


def test_mismatched_operands_raise():
    matmul = tvm.get_global_func("stablehlo_tvm.blas.matmul")
    a = tvm.runtime.tensor(np.ones((4, 5), np.float32))
    b = tvm.runtime.tensor(np.ones((6, 7), np.float32))
    c = tvm.runtime.empty((4, 7), "float32")
    with pytest.raises(ValueError, match="do not form a matrix product"):
        matmul(a, b, 0, 0, c)
    with pytest.raises(TypeError, match="float32 or float64"):
        matmul(tvm.runtime.tensor(np.ones((4, 6), np.int32)), b, 0, 0, c)


def test_unknown_blas_choice_is_an_error():
    args = random_args([((8, 8), "float32"), ((8, 8), "float32")])
    with pytest.raises(ValueError, match='"loops" or "all"'):
        stablehlo_tvm.build(jax.jit(jnp.matmul).lower(*args), blas="sometimes")
