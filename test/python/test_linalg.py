"""Linear algebra kernels. JAX on CPU sends these to LAPACK custom calls, so
the programs here are StableHLO text; numpy's solver is the reference."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import stablehlo_tvm


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
