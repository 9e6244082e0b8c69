"""Indexed updates (scatter, as TIR kernels) against jax.jit: what
x.at[...] and segment sums emit, duplicates and out-of-bounds included."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from conftest import assert_matches_jax, random_args


def test_add_with_duplicate_indices():
    x, u = random_args([((6, 4), "float32"), ((5, 4), "float32")], seed=1)
    idx = np.array([0, 3, 3, 5, 0], np.int32)
    assert_matches_jax(lambda x, idx, u: x.at[idx].add(u), x, idx, u)


def test_duplicate_updates_apply_in_scatter_order_whatever_the_window_layout():
    # Updates are applied scatter position by position, each window inside:
    # two updates of one element come from two positions, applied in their
    # row-major order, also when the window dimension comes first in the
    # updates (x.at[:, idx]). set keeps the last; a rounding-sensitive sum
    # shows the order too.
    rng = np.random.default_rng(9)
    x = rng.standard_normal((40, 9)).astype(np.float32)
    u = (rng.standard_normal((40, 300)) * 10.0 ** rng.integers(-4, 5, (40, 300))).astype(np.float32)
    idx = rng.integers(0, 9, 300).astype(np.int32)

    def f(x, idx, u):
        return x.at[:, idx].set(u), x.at[:, idx].add(u), x.T.at[idx].add(u.T), jax.ops.segment_sum(u.T, idx, 9)

    assert_matches_jax(f, x, idx, u, rtol=0, atol=0)


@pytest.mark.parametrize("width", [64, 48, 40])
def test_large_scatters_split_among_threads_keep_their_order(width):
    # 2048 x width updates: a width that is a multiple of 16 is split among
    # threads in blocks of 16 (40 is not); every element still combines its
    # duplicates in order, so set keeps the last and sums round as jax.jit's.
    rng = np.random.default_rng(11)
    x = rng.standard_normal((300, width)).astype(np.float32)
    u = (rng.standard_normal((2048, width)) * 10.0 ** rng.integers(-4, 5, (2048, width))).astype(np.float32)
    idx = rng.integers(0, 300, 2048).astype(np.int32)

    def f(x, idx, u):
        return x.at[idx].set(u), x.at[idx].add(u), jax.ops.segment_max(u, idx, 300)

    assert_matches_jax(f, x, idx, u, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", ["int32", "uint8", "float64", "bool"])
def test_set_mul_min_max(dtype):
    (x,) = random_args([((7,), dtype)], seed=2)
    (u,) = random_args([((3,), dtype)], seed=3)
    idx = np.array([6, 1, 6], np.int64)

    def f(x, idx, u):
        out = (x.at[idx].set(u), x.at[idx].max(u), x.at[idx].min(u))
        return out if dtype == "bool" else out + (x.at[idx].mul(u),)

    assert_matches_jax(f, x, idx, u)


def test_out_of_bounds_updates_are_dropped():
    x, u = random_args([((5, 3), "float32"), ((4, 3), "float32")], seed=4)
    idx = np.array([-1, 2, 5, 100], np.int32)
    assert_matches_jax(lambda x, idx, u: x.at[idx].add(u, mode="drop"), x, idx, u)


def test_multidimensional_indices_and_segment_sum():
    x, u = random_args([((4, 5, 6), "float32"), ((3, 6), "float32")], seed=5)
    rows = np.array([0, 3, 0], np.int32)
    cols = np.array([4, 4, 4], np.int32)
    data, seg = random_args([((10,), "float32"), ((10,), "int32")], seed=6)
    seg = np.abs(seg) % 4

    def f(x, rows, cols, u, data, seg):
        return x.at[rows, cols].add(u), jax.ops.segment_sum(data, seg, num_segments=4)

    assert_matches_jax(f, x, rows, cols, u, data, seg)


def test_batched_scatter_from_vmap():
    x, u = random_args([((3, 8), "float32"), ((3, 2), "float32")], seed=7)
    idx = np.array([[1, 1], [0, 7], [5, 2]], np.int32)
    f = jax.vmap(lambda x, i, u: x.at[i].add(u))
    assert_matches_jax(f, x, idx, u)


def test_take_fancy_indexing_and_clamping():
    x, y = random_args([((6, 5), "float32"), ((3, 4, 5), "int16")], seed=8)
    rows = np.array([5, 0, 2, 2, -1, 9], np.int32)  # out of range: clamped by jnp.take's "clip"
    cols = np.array([[1, 4], [0, 0]], np.int32)

    def f(x, y, rows, cols):
        return (
            jnp.take(x, rows, axis=0, mode="clip"),
            x[rows[:3], cols[0, 0]],
            y[:, cols],
            x[1:4, jnp.array([3, 1])],
        )

    assert_matches_jax(f, x, y, rows, cols)


def test_batched_gather_from_vmap():
    x, idx = random_args([((3, 8), "float32"), ((3, 2), "int32")], seed=9)
    idx = np.abs(idx) % 8
    assert_matches_jax(jax.vmap(lambda x, i: x[i]), x, idx)
