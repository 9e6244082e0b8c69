"""Complex numbers (lowered to pairs of real tensors) against jax.jit:
arguments and results cross the boundary as numpy complex arrays."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import stablehlo_tvm

from conftest import assert_matches_jax


def complex_args(*shapes, dtype="complex64", seed=0):
    rng = np.random.default_rng(seed)
    return [(rng.standard_normal(s) + 1j * rng.standard_normal(s)).astype(dtype) for s in shapes]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_arithmetic(dtype):
    x, y = complex_args((4, 5), (4, 5), dtype=dtype)

    def f(x, y):
        return x + y, x - y, x * y, x / y, -x, jnp.conj(x), x == y, x != x

    assert_matches_jax(f, x, y)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_functions(dtype):
    (x,) = complex_args((3, 7), dtype=dtype, seed=1)
    rtol = 2e-5 if dtype == "complex64" else 1e-12

    def f(x):
        return (
            jnp.abs(x), jnp.exp(x), jnp.log(x), jnp.sqrt(x), jax.lax.rsqrt(x),
            jnp.sin(x), jnp.cos(x), jnp.tanh(x), jnp.expm1(x), jnp.log1p(x), x**3, x ** (0.5 + 1j),
            jax.lax.logistic(x), jax.lax.atan2(x, x[::-1]),
        )

    assert_matches_jax(f, x, rtol=rtol, atol=rtol)


def test_parts_and_conversion():
    (z,) = complex_args((2, 3), seed=2)
    r = np.arange(6, dtype=np.int32).reshape(2, 3)

    def f(z, r):
        w = jax.lax.complex(jnp.real(z), r.astype(jnp.float32))
        return jnp.real(w) * jnp.imag(z), w.astype(jnp.complex128), r.astype(jnp.complex64)

    assert_matches_jax(f, z, r)


def test_matmul_sum_and_data_movement():
    x, y = complex_args((3, 4), (4, 2), seed=3)
    w = np.random.default_rng(4).standard_normal((4, 2)).astype(np.float32)

    def f(x, y, w):
        m = x @ y
        return m, x @ w, jnp.sum(m, axis=0), jnp.concatenate([m.T, m.T[:, ::-1]], axis=1), jnp.pad(x, ((1, 0), (0, 2)))

    assert_matches_jax(f, x, y, w, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_dot_rounds_each_product(dtype):
    """XLA sums each part of a complex dot product by product, each product
    rounded: -fl(3 v) + 3 v is 0 there, the rounding error of 3 v with a
    fused multiply-add."""
    part = np.float32 if dtype == "complex64" else np.float64
    v = (np.random.default_rng(5).standard_normal((1, 6)) + 1j * np.random.default_rng(6).standard_normal((1, 6))).astype(dtype)
    three_v = (part(3) * v.real).astype(part) + 1j * (part(3) * v.imag).astype(part)
    y = np.concatenate([three_v.astype(dtype), v], axis=0)
    x = np.array([[-1, 3], [1, -3], [1, 2], [0, 5]], dtype=np.int32)

    def f(x, y):
        return jnp.matmul(x.astype(y.dtype), y)

    expected = np.asarray(jax.jit(f)(x, y))
    assert np.all(expected[:2] == 0)
    np.testing.assert_array_equal(stablehlo_tvm.jit(f)(x, y), expected)


def test_hyperbolic_and_inverse_functions():
    (x,) = complex_args((5, 6), dtype="complex128", seed=5)

    def f(x):
        return (
            jnp.sinh(x), jnp.cosh(x), jnp.tan(x), jnp.arcsinh(x), jnp.arccosh(x),
            jnp.arctanh(x), jnp.arcsin(x), jnp.arccos(x), jnp.arctan(x),
        )

    assert_matches_jax(f, x, rtol=1e-12, atol=1e-12)


def test_reduce_over_complex_with_any_body():
    (x,) = complex_args((4, 6), seed=6)

    def f(x):
        return jnp.prod(x, axis=1), jnp.max(x, axis=0), jnp.sum(x)

    assert_matches_jax(f, x, rtol=1e-5, atol=1e-5)


def test_sort_complex_keys_with_values():
    (x,) = complex_args((3, 7), seed=7)
    x[0, 2] = x[0, 5]  # equal keys keep their order
    v = np.arange(21, dtype=np.int32).reshape(3, 7)

    def f(x, v):
        return (jnp.sort(x, axis=1), *jax.lax.sort((x, v), dimension=1, num_keys=1))

    assert_matches_jax(f, x, v)


def test_sign_scatter_and_loops():
    (z,) = complex_args((6,), seed=3)
    z[2] = 0

    def f(z):
        s = jnp.sign(z)
        u = s.at[1].set(3 - 2j).at[4].add(z[0])
        w = jax.lax.fori_loop(0, 3, lambda i, w: w * 0.5 + u, u)
        return jax.lax.cond(jnp.real(w[0]) > 0, lambda: w, lambda: -w)

    assert_matches_jax(f, z, rtol=1e-5, atol=1e-6)


def test_periodic_poisson_solve():
    # fft2, a complex divide, an in-place update and ifft2 in one program.
    f = np.random.default_rng(4).standard_normal((16, 16)).astype(np.float32)

    def solve(f):
        k = jnp.fft.fftfreq(16)
        k2 = (k[:, None] ** 2 + k[None, :] ** 2).at[0, 0].set(1.0)
        u = (jnp.fft.fft2(f) / -k2).at[0, 0].set(0)
        return jnp.fft.ifft2(u).real

    assert_matches_jax(solve, f, rtol=1e-4, atol=1e-4)


def test_conv_of_complex_signals():
    x, k = complex_args((1, 2, 12), (3, 2, 4), seed=5)

    def f(x, k):
        return jax.lax.conv_general_dilated(x, k, (1,), "SAME")

    assert_matches_jax(f, x, k, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_hyperbolic_functions_keep_a_zero_imaginary_part(dtype):
    # C99 Annex G: ccosh/csinh(+-inf + 0i) = inf + 0i (+-), (NaN + 0i) = NaN + 0i;
    # f(a) * sin(0) made the imaginary part inf * 0 = NaN.
    import stablehlo_tvm

    z = np.array([complex(np.nan, 0), complex(np.inf, 0), complex(-np.inf, 0), complex(1.5, 0), complex(0.5, 1.5)], dtype)
    for f, real in ((jnp.cosh, [np.nan, np.inf, np.inf]), (jnp.sinh, [np.nan, np.inf, -np.inf])):
        got = np.asarray(stablehlo_tvm.jit(f)(z))
        np.testing.assert_array_equal(got.real[:3], real)
        np.testing.assert_array_equal(got.imag[:3], 0.0)
        np.testing.assert_allclose(got[3:], np.asarray(jax.jit(f)(z))[3:], rtol=1e-6)


@pytest.mark.parametrize("dtype, big", [(np.complex64, 3.0e38), (np.complex128, 1.7e308)])
def test_division_with_parts_near_the_largest_float(dtype, big):
    # Smith's sums a + b r and c + d r overflow where a part exceeds half the
    # largest float though the quotient is finite; the operands are halved
    # first. XLA:CPU's quotient overflows or underflows on the first three
    # (inf, 0, 0), so the reference is the exact quotient, rounded; on the
    # last two, which need no scaling, XLA's and the exact one agree.
    from fractions import Fraction

    x = np.array([big + big * 1j, 1 + 2j, 1 + 1j, big - 1j, 3 - 4j], dtype)
    y = np.array([1 + 1j, big + big * 1j, big * 1j, 2 + 2j, 0.5 + 0.25j], dtype)
    got = np.asarray(stablehlo_tvm.jit(lambda x, y: x / y)(x, y))
    real = np.float32 if dtype == np.complex64 else np.float64
    for g, p, q in zip(got, x, y):
        a, b, c, d = (Fraction(float(v)) for v in (p.real, p.imag, q.real, q.imag))
        n = c * c + d * d
        for part, exact in ((g.real, (a * c + b * d) / n), (g.imag, (b * c - a * d) / n)):
            want = real(float(exact))
            assert np.isfinite(part) and abs(part - want) <= 2 * np.spacing(abs(want)), (p, q, part, want)
    want = np.asarray(jax.jit(lambda x, y: x / y)(x[3:], y[3:]))
    np.testing.assert_allclose(got[3:], want, rtol=4 * np.finfo(real).eps)


def test_atan2_whose_real_part_is_minus_pi():
    # atan2(y, x) = -i log((x + iy) / sqrt(x^2 + y^2)) with x nearly -i times
    # the largest double: the real part is -pi (the end of its range),
    # which the coarse angle that picks between the candidates 0 and -pi
    # gave as +pi, nearer 0 but for the turn. XLA:CPU's is NaN + inf i here;
    # the reference is a 3,000-bit evaluation.
    mpmath = pytest.importorskip("mpmath")
    from jax import lax

    x = np.array([2.2250738585072014e-308 - 1.7976931348623157e308j, 1 + 2j])
    y = np.array([-43.021197849516426 - 113.46915707776952j, 3 - 1j])
    got = np.asarray(stablehlo_tvm.jit(lax.atan2)(y, x))
    with mpmath.workprec(3000):
        for g, p, q in zip(got, y, x):
            p, q = mpmath.mpc(p), mpmath.mpc(q)
            want = complex(-1j * mpmath.log((q + 1j * p) / mpmath.sqrt(q * q + p * p)))
            assert abs(g - want) <= 4 * np.finfo(np.float64).eps * abs(want), (g, want)
    np.testing.assert_allclose(got[1:], np.asarray(jax.jit(lax.atan2)(y[1:], x[1:])), rtol=1e-15)
