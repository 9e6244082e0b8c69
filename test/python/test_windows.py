"""Windowed reductions (reduce_window, as TIR kernels) against jax.jit:
pooling, cumulative ops, strides, padding and dilations; pad itself."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from conftest import assert_matches_jax, random_args


def test_max_and_avg_pool():
    (x,) = random_args([((2, 9, 9, 3), "float32")], seed=1)

    def f(x):
        mx = lax.reduce_window(x, np.float32(-np.inf), lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")
        avg = lax.reduce_window(x, np.float32(0.0), lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4
        return mx, avg

    assert_matches_jax(f, x)


@pytest.mark.parametrize("dtype", ["float32", "int32", "bfloat16"])
def test_cumulative(dtype):
    (x,) = random_args([((5, 7), "float32")], seed=2)
    x = x.astype(jnp.bfloat16 if dtype == "bfloat16" else dtype)
    rtol = 1e-2 if dtype == "bfloat16" else 1e-5

    def f(x):
        return jnp.cumsum(x, axis=0), lax.cummax(x, axis=1), lax.cummin(x, axis=0, reverse=True)

    assert_matches_jax(f, x, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("length", [2, 1000, 50000])
def test_cumulative_ops_are_scans_at_any_length(length):
    x = np.random.default_rng(length).standard_normal((3, length)).astype(np.float32)

    def f(x):
        return (
            jnp.cumsum(x, axis=1),
            lax.cummax(x, axis=1, reverse=True),
            jnp.cumprod(1 + x * 1e-3, axis=1),
            lax.cumlogsumexp(x, axis=1),
            jnp.cumsum(x.T, axis=0),
        )

    # A running f32 sum of `length` terms: XLA sums in another order.
    assert_matches_jax(f, x, rtol=1e-4, atol=1e-5 * length)


def test_window_that_does_not_span_the_dimension_is_not_a_scan():
    (x,) = random_args([((2, 40), "float32")], seed=4)

    def f(x):
        running = lax.reduce_window(x, np.float32(0.0), lax.add, (1, 39), (1, 1), ((0, 0), (38, 0)))
        both = lax.reduce_window(x, np.float32(-np.inf), lax.max, (2, 40), (1, 1), ((1, 0), (39, 0)))
        return running, both

    assert_matches_jax(f, x)


def test_dilations_and_padding():
    (x,) = random_args([((11, 6), "float32")], seed=3)

    def f(x):
        return lax.reduce_window(
            x, np.float32(1.0), lax.add, (3, 2), (2, 1), ((2, 1), (0, 3)), base_dilation=(2, 1), window_dilation=(1, 2)
        )

    assert_matches_jax(f, x)


def test_complex_cumsum():
    rng = np.random.default_rng(4)
    x = (rng.standard_normal((4, 6)) + 1j * rng.standard_normal((4, 6))).astype(np.complex64)
    assert_matches_jax(lambda x: jnp.cumsum(x, axis=1), x)


@pytest.mark.parametrize("padding", ["VALID", "SAME"])
def test_max_pool_gradient(padding):
    (x,) = random_args([((2, 7, 7, 3), "float32")], seed=5)

    def pool(x):
        return lax.reduce_window(x, np.float32(-np.inf), lax.max, (1, 3, 3, 1), (1, 2, 2, 1), padding)

    def f(x):
        y, vjp = jax.vjp(pool, x)
        return vjp(jnp.ones_like(y) * 0.5 + y)[0]

    assert_matches_jax(f, x)


@pytest.mark.parametrize(
    "dtype, value",
    [("float32", -1.5), ("float32", np.nan), ("int32", -7), ("uint8", 255), ("int64", 2**53 + 1), ("bool", True)],
)
def test_pad_edges_and_interior(dtype, value):
    # Constant edge padding is Relax's pad (the value as a double); a value a
    # double cannot hold, a crop or interior padding take the general path.
    (x,) = random_args([((3, 4), dtype)], seed=5)
    pad_value = np.array(value, dtype)

    def f(x):
        edges = jax.lax.pad(x, pad_value, ((1, 2, 0), (0, 3, 0)))
        general = jax.lax.pad(x, pad_value, ((-1, 1, 1), (2, 0, 0)))
        return edges, general

    assert_matches_jax(f, x)
