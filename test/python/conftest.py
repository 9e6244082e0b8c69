"""Shared helpers: every numeric test compares TVM with jax.jit on the same inputs."""

from __future__ import annotations

import os

import jax
import numpy as np
import pytest

import stablehlo_tvm

jax.config.update("jax_platforms", "cpu")
# 64-bit types are part of what the import must get right.
jax.config.update("jax_enable_x64", True)
# A CPU schedule rule's own error fails the test instead of leaving the
# function unscheduled (cpu/schedule.py).
os.environ.setdefault("STABLEHLO_TVM_STRICT_RULES", "1")


def random_args(shapes_and_dtypes, seed=0):
    rng = np.random.default_rng(seed)
    args = []
    for shape, dtype in shapes_and_dtypes:
        dtype = np.dtype(dtype)
        if dtype == np.bool_:
            args.append(rng.random(shape) < 0.5)
        elif np.issubdtype(dtype, np.integer):
            args.append(rng.integers(-50 if np.issubdtype(dtype, np.signedinteger) else 0, 50, shape).astype(dtype))
        else:
            args.append(rng.standard_normal(shape).astype(dtype))
    return args


def assert_matches_jax(fn, *args, rtol=1e-5, atol=1e-6):
    """Imports jax.jit(fn) lowered on ``args``, builds it with TVM, runs it on
    the same inputs and compares every result with jax.jit's."""
    expected = jax.jit(fn)(*args)
    compiled = stablehlo_tvm.build(jax.jit(fn).lower(*args))
    actual = compiled(*args)
    expected_list = list(expected) if isinstance(expected, (tuple, list)) else [expected]
    actual_list = list(actual) if isinstance(actual, tuple) else [actual]
    assert len(actual_list) == len(expected_list)
    for got, want in zip(actual_list, expected_list):
        want = np.asarray(want)
        assert got.shape == want.shape
        assert got.dtype == want.dtype
        if jax.numpy.issubdtype(want.dtype, jax.numpy.complexfloating):
            np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)
        elif jax.numpy.issubdtype(want.dtype, jax.numpy.floating):  # bfloat16 too
            np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol)
        else:
            np.testing.assert_array_equal(got, want)
    return actual


@pytest.fixture
def check():
    return assert_matches_jax
