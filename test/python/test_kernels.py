"""Numerics of the ops that become TIR kernels (tvm.kernel) against jax.jit:
reductions with any body or several operands, and ops on bits."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest

from conftest import assert_matches_jax, random_args


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "float16", "int8", "uint32", "bool"])
def test_argmax_argmin(dtype):
    (x,) = random_args([((6, 11), dtype if dtype != "bfloat16" else "float32")], seed=3)
    x = x.astype(ml_dtypes.bfloat16 if dtype == "bfloat16" else dtype)
    x[1, 4:7] = x[1, 2]  # ties: the lowest index wins

    def f(x):
        return jnp.argmax(x, axis=1), jnp.argmin(x, axis=0), jnp.argmax(x)

    assert_matches_jax(f, x)


def test_argmax_propagates_nan():
    x = np.array([[1.0, np.nan, 3.0], [-1.0, -2.0, np.nan], [0.5, 0.25, 2.0]], np.float32)
    assert_matches_jax(lambda x: (jnp.argmax(x, axis=1), jnp.argmin(x, axis=1)), x)


def test_reduce_with_a_body_of_several_ops():
    # sum of squares folded into one reduce body, with an unsigned compare
    (x,) = random_args([((5, 7), "uint16")], seed=1)

    def f(x):
        init = (jnp.uint16(0), jnp.uint16(0))
        def body(a, b):
            return (a[0] + b[0] * b[0], jnp.where(a[1] > b[1], a[1], b[1]))
        return jax.lax.reduce((x, x), init, body, (1,))

    assert_matches_jax(f, x)


@pytest.mark.parametrize(
    "src, dst",
    [("float32", "uint32"), ("int64", "float64"), ("float32", "uint8"), ("uint8", "float32"),
     ("int16", "float16"), ("float64", "int32"), ("bfloat16", "int16")],
)
def test_bitcast_convert(src, dst):
    rng = np.random.default_rng(0)
    ratio = np.dtype(dst).itemsize // (2 if src == "bfloat16" else np.dtype(src).itemsize)
    # To a wider type, the minor dimension holds the pieces of one element.
    x = rng.standard_normal((3, ratio) if ratio > 1 else (3, 8)).astype(np.float64) * 100
    if src == "bfloat16":
        x = x.astype(ml_dtypes.bfloat16)
    else:
        x = x.astype(src)
    assert_matches_jax(lambda x: jax.lax.bitcast_convert_type(x, dst), x)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("exponent_bits, mantissa_bits", [(8, 7), (5, 10), (3, 2), (4, 0)])
def test_reduce_precision(dtype, exponent_bits, mantissa_bits):
    x = np.array([0.0, -0.0, 1.0, 1.0 + 2**-9, 3.14159, 1e-9, -7e3, 6.5e4, np.inf, -np.inf, np.nan, 2.5e-5], dtype)
    if mantissa_bits == 0:
        x = x[~np.isnan(x)]  # see test_reduce_precision_without_mantissa_bits_makes_nan_infinite
    assert_matches_jax(lambda x: jax.lax.reduce_precision(x, exponent_bits, mantissa_bits), x, rtol=0, atol=0)


def test_reduce_precision_without_mantissa_bits_makes_nan_infinite():
    """StableHLO's semantics (the reference interpreter's tests expect it, and
    XLA's constant folder agrees): with no mantissa bits a NaN rounds to the
    infinity of its sign. XLA:CPU's compiled code keeps NaN instead, so this
    case is checked against the spec, not jax.jit."""
    x = np.array([0x7FFFFFFFFFFFFFFF, 0x7FF8000000000000, 0xFFF8000000000001], np.uint64).view(np.float64)
    text = """
func.func @main(%x: tensor<3xf64>) -> tensor<3xf64> {
  %0 = stablehlo.reduce_precision %x, format = e5m0 : tensor<3xf64>
  return %0 : tensor<3xf64>
}
"""
    import stablehlo_tvm

    np.testing.assert_array_equal(stablehlo_tvm.build(text)(x), [np.inf, np.inf, -np.inf])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_nextafter(dtype):
    x = np.array([0.0, -0.0, 1.0, 1.0, -1.0, np.inf, np.nan, 5.0, 1e-45, -3.0], dtype)
    y = np.array([1.0, -1.0, 2.0, 0.0, -1.0, 0.0, 1.0, np.nan, 0.0, np.inf], dtype)
    assert_matches_jax(jnp.nextafter, x, y, rtol=0, atol=0)


def _power_module(dtype: str, n: int) -> str:
    return f"""
func.func @main(%x: tensor<{n}x{dtype}>, %y: tensor<{n}x{dtype}>) -> tensor<{n}x{dtype}> {{
  %0 = stablehlo.power %x, %y : tensor<{n}x{dtype}>
  return %0 : tensor<{n}x{dtype}>
}}
"""


@pytest.mark.parametrize("dtype,mlir", [(np.int64, "i64"), (np.int32, "i32"), (np.uint8, "ui8"), (np.int8, "i8")])
def test_integer_power_matches_jax_with_wraparound(dtype, mlir):
    """JAX has no integer stablehlo.power, but jnp.power computes the same
    wrapping product for small exponents >= 0; the program is written by
    hand. Large exponents are checked against Python's exact power, wrapped
    (jnp.power looks at the low bits of the exponent only)."""
    import stablehlo_tvm

    rng = np.random.default_rng(3)
    x = rng.integers(-9 if np.issubdtype(dtype, np.signedinteger) else 0, 10, 64).astype(dtype)
    y = rng.integers(0, 8, 64).astype(dtype)
    compiled = stablehlo_tvm.build(_power_module(mlir, 64))
    np.testing.assert_array_equal(compiled(x, y), np.asarray(jax.jit(jnp.power)(x, y)))
    y = rng.integers(0, min(np.iinfo(dtype).max, 1000), 64, endpoint=True).astype(dtype)
    bits = np.iinfo(dtype).bits
    exact = [pow(int(a), int(b), 1 << bits) for a, b in zip(x, y)]
    expected = np.array(exact, dtype=object).astype(np.uint64).astype(np.dtype(f"uint{bits}")).view(dtype)
    np.testing.assert_array_equal(compiled(x, y), expected)


def test_integer_power_negative_exponents():
    """StableHLO: x^-n is 1 for x = 1, +-1 for x = -1 and 0 otherwise (jnp.power
    differs there, so the reference is the rule itself)."""
    import stablehlo_tvm

    x = np.array([-1, -1, -3, 1, 2, 0, -1, 5], np.int64)
    y = np.array([-1, -2, -3, -7, -1, -5, np.iinfo(np.int64).min, -1], np.int64)
    expected = np.array([-1, 1, 0, 1, 0, 0, 1, 0], np.int64)
    np.testing.assert_array_equal(stablehlo_tvm.build(_power_module("i64", 8))(x, y), expected)


@pytest.mark.parametrize("dtype,mlir", [(np.int8, "i8"), (np.uint16, "ui16"), (np.int32, "i32"), (np.int64, "i64"), (np.uint64, "ui64")])
def test_mulhi_is_the_high_half_of_the_exact_product(dtype, mlir):
    import stablehlo_tvm

    info = np.iinfo(dtype)
    rng = np.random.default_rng(4)
    x = rng.integers(info.min, info.max, 256, dtype=dtype, endpoint=True)
    y = rng.integers(info.min, info.max, 256, dtype=dtype, endpoint=True)
    x[:4] = [info.min, info.max, info.min, 0]
    y[:4] = [info.min, info.max, info.max, info.max]
    text = f"""
func.func @main(%x: tensor<256x{mlir}>, %y: tensor<256x{mlir}>) -> tensor<256x{mlir}> {{
  %0 = chlo.mulhi %x, %y : tensor<256x{mlir}>, tensor<256x{mlir}> -> tensor<256x{mlir}>
  return %0 : tensor<256x{mlir}>
}}
"""
    bits = info.bits
    expected = np.array([((int(a) * int(b)) >> bits) for a, b in zip(x, y)], dtype=object)
    expected = np.array([int(v) & ((1 << bits) - 1) for v in expected], dtype=object)
    expected = expected.astype(np.uint64).astype(np.dtype(f"uint{bits}")).view(dtype)
    np.testing.assert_array_equal(stablehlo_tvm.build(text)(x, y), expected)
