"""Sorting (stablehlo.sort, as a TIR kernel) against jax.jit."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from conftest import assert_matches_jax, random_args


@pytest.mark.parametrize("dtype", ["float32", "int16", "uint32", "bfloat16"])
def test_sort_and_argsort(dtype):
    (x,) = random_args([((4, 9), "float32")], seed=1)
    x = (x * 3).astype(jnp.bfloat16 if dtype == "bfloat16" else dtype)
    x[1, 3:6] = x[1, 0]  # ties: argsort is stable

    def f(x):
        return jnp.sort(x, axis=1), jnp.argsort(x, axis=0), jnp.argsort(-x.astype(jnp.float32), axis=1, stable=True)

    assert_matches_jax(f, x)


def test_nans_sort_last_and_keys_carry_values():
    x = np.array([3.0, np.nan, -1.0, 0.0, -0.0, np.inf, -np.inf, 2.0], np.float32)
    v = np.arange(8, dtype=np.int32)

    def f(x, v):
        keys, values = jax.lax.sort((x, v), num_keys=1)
        return jnp.sort(x), keys, values

    assert_matches_jax(f, x, v)


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "float64"])
def test_top_k_orders_nan_above_infinity(dtype):
    x = np.array([[1.0, np.nan, -np.inf, np.inf, -0.0, 0.0, 3.0, -np.nan]], dtype=np.float32).astype(dtype)
    assert_matches_jax(lambda v: jax.lax.top_k(v, 5), x, rtol=0, atol=0)


def test_top_k_of_uint64_beyond_int64():
    x = np.array([[3, 2**63 + 5, 2**64 - 1, 0, 2**63 - 1, 7]], dtype=np.uint64)
    assert_matches_jax(lambda v: jax.lax.top_k(v, 4), x)


# Slices longer than 16 are merge sorted: lengths with an even and an odd
# number of passes, a power of two and one past it, sorted along a middle axis.
@pytest.mark.parametrize("length", [17, 32, 33, 100, 1000])
def test_long_slices_sort_stably_with_their_values(length):
    rng = np.random.default_rng(length)
    x = rng.integers(-5, 5, (3, length, 2)).astype(np.float32)  # many ties
    x[0, :: max(1, length // 7), 0] = np.nan
    x[1, 1, 1] = -0.0
    v = np.arange(x.size, dtype=np.int32).reshape(x.shape)

    def f(x, v):
        keys, values = jax.lax.sort((x, v), dimension=1, num_keys=1, is_stable=True)
        negated, its_values = jax.lax.sort((-x, v), dimension=1, num_keys=2)
        return keys, values, negated, its_values, jnp.argsort(x[:, :, 0], axis=1, stable=True)

    assert_matches_jax(f, x, v, rtol=0, atol=0)


def test_long_sort_of_presorted_and_reversed_input():
    x = np.arange(5000, dtype=np.int32)

    def f(x):
        return jnp.sort(x), jnp.sort(x[::-1]), jnp.argsort(x[::-1] % 7, stable=True)

    assert_matches_jax(f, x)


@pytest.mark.parametrize(
    "approx",
    [
        lambda x: jax.lax.approx_max_k(x, 5),
        lambda x: jax.lax.approx_min_k(x, 3, reduction_dimension=0),
        lambda x: jax.lax.approx_max_k(x, 4, aggregate_to_topk=False),
    ],
    ids=["max_k", "min_k_dim0", "max_k_unaggregated"],
)
def test_approximate_top_k_is_xlas_exact_fallback(approx):
    # On CPU XLA runs ApproxTopK exactly: sorted by its comparator, sliced
    # to the result's size (256 for an un-aggregated call on 300 values).
    x = np.random.default_rng(7).standard_normal((8, 300)).astype(np.float32)
    assert_matches_jax(approx, x, rtol=0, atol=0)
