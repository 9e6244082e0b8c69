"""float32 exp, log, tanh and erf as the CPU build lowers them (vector code,
stablehlo_tvm.cpu.fastmath), and erfc, imported as a formula over them: error in ULP against float64 references on a
dense grid and the special values, through the whole import and build."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from scipy import special

import stablehlo_tvm

_GRID = np.concatenate(
    [
        np.linspace(-110, 110, 100001),
        np.linspace(-5, 5, 100001),
        np.geomspace(1e-30, 1e-3, 2001),
        -np.geomspace(1e-30, 1e-3, 2001),
        [0.0, -0.0, np.inf, -np.inf, np.nan, 88.72, 88.73, -103.9, -104.0, -87.5, 0.625, 1.0, 4.0],
    ]
).astype(np.float32)


def _ulps(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    spacing = np.spacing(np.maximum(np.abs(want), np.finfo(np.float32).tiny))
    with np.errstate(invalid="ignore"):
        return np.where(same, 0.0, np.abs(got.astype(np.float64) - want) / spacing)


@pytest.mark.parametrize(
    "name,fn,reference,max_ulp",
    [
        ("exp", jnp.exp, np.exp, 1),
        ("tanh", jnp.tanh, np.tanh, 1),
        ("erf", jax.scipy.special.erf, special.erf, 2),
        ("erfc", jax.scipy.special.erfc, special.erfc, 2),
    ],
)
def test_ulp_error(name, fn, reference, max_ulp):
    got = stablehlo_tvm.build(jax.jit(fn).lower(_GRID))(_GRID)
    with np.errstate(over="ignore"):
        want = reference(_GRID.astype(np.float64)).astype(np.float32)
    ulps = _ulps(got, want)
    worst = int(np.argmax(ulps))
    assert ulps[worst] <= max_ulp, f"{name}({_GRID[worst]!r}) = {got[worst]!r}, want {want[worst]!r}"
    if name in ("tanh", "erf"):  # odd functions keep the sign of zero
        zeros = _GRID == 0
        assert np.array_equal(np.signbit(got[zeros]), np.signbit(_GRID[zeros]))


# Every binade of the positive floats, the subnormals included, densely
# around 1 (where log is small), and what log maps to -inf, NaN and inf.
_POSITIVE = np.concatenate(
    [
        np.geomspace(1.4e-45, 3.4e38, 200001),
        np.linspace(0.5, 2.0, 100001),
        1 + np.linspace(-1e-3, 1e-3, 20001),
        np.linspace(-1, 1e6, 50001),
        [0.0, -0.0, -1.0, np.inf, -np.inf, np.nan, 1.17549435e-38, 1.17549421e-38, 1.41421354, 1.41421366],
    ]
).astype(np.float32)


@pytest.mark.parametrize(
    "name,fn,reference,max_ulp",
    [("log", jnp.log, np.log, 1), ("log1p", jnp.log1p, np.log1p, 2)],
)
def test_log_ulp_error(name, fn, reference, max_ulp):
    got = stablehlo_tvm.build(jax.jit(fn).lower(_POSITIVE))(_POSITIVE)
    with np.errstate(divide="ignore", invalid="ignore"):
        want = reference(_POSITIVE.astype(np.float64)).astype(np.float32)
    ulps = _ulps(got, want)
    worst = int(np.argmax(ulps))
    assert ulps[worst] <= max_ulp, f"{name}({_POSITIVE[worst]!r}) = {got[worst]!r}, want {want[worst]!r}"


def test_float64_exp_ulp_error():
    grid = np.concatenate(
        [
            np.linspace(-746, 710, 200001),
            np.linspace(-2, 2, 100001),
            [0.0, -0.0, np.inf, -np.inf, np.nan, 709.782712893384, 709.7827128933841, -745.1332191019411, -745.14, -708.4],
        ]
    )
    got = stablehlo_tvm.build(jax.jit(jnp.exp).lower(grid))(grid)
    with np.errstate(over="ignore"):
        want = np.exp(grid)
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    spacing = np.spacing(np.maximum(np.abs(want), np.finfo(np.float64).tiny))
    with np.errstate(invalid="ignore"):
        ulps = np.where(same, 0.0, np.abs(got - want) / spacing)
    worst = int(np.argmax(ulps))
    assert ulps[worst] <= 1, f"exp({grid[worst]!r}) = {got[worst]!r}, want {want[worst]!r}"


@pytest.mark.parametrize("name,fn,reference,max_ulp", [("log", jnp.log, np.log, 1), ("log1p", jnp.log1p, np.log1p, 2)])
def test_float64_log_ulp_error(name, fn, reference, max_ulp):
    """Against x87 long double: every binade, the subnormals, around 1, and
    the boundaries of the mantissa range (sqrt(2)) and of the normals."""
    grid = np.concatenate(
        [
            np.geomspace(5e-324, 1.7e308, 200001),
            np.linspace(0.5, 2.0, 100001),
            1 + np.linspace(-1e-6, 1e-6, 20001),
            [0.0, -0.0, -1.0, np.inf, -np.inf, np.nan, 2.2250738585072014e-308, 2.225073858507201e-308],
            [np.sqrt(2), np.nextafter(np.sqrt(2), 3), np.nextafter(np.sqrt(2), 0)],
        ]
    )
    got = stablehlo_tvm.build(jax.jit(fn).lower(grid))(grid)
    with np.errstate(divide="ignore", invalid="ignore"):
        want = reference(grid.astype(np.longdouble))
    rounded = want.astype(np.float64)
    same = (got == rounded) | (np.isnan(got) & np.isnan(rounded))
    spacing = np.spacing(np.maximum(np.abs(rounded), np.finfo(np.float64).tiny)).astype(np.longdouble)
    with np.errstate(invalid="ignore"):
        ulps = np.where(same, 0.0, np.abs(got.astype(np.longdouble) - want) / spacing).astype(np.float64)
    worst = int(np.argmax(ulps))
    assert ulps[worst] <= max_ulp, f"{name}({grid[worst]!r}) = {got[worst]!r}, want {rounded[worst]!r}"


def test_gelu_matches_jax():
    x = np.random.default_rng(0).standard_normal((64, 256)).astype(np.float32) * 3
    for approximate in (False, True):
        fn = jax.jit(lambda x: jax.nn.gelu(x, approximate=approximate))
        np.testing.assert_allclose(stablehlo_tvm.build(fn.lower(x))(x), fn(x), rtol=2e-6, atol=1e-6)
