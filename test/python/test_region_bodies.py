"""Region bodies made of any elementwise op: each body op runs on scalars in
the kernel of its reduce, reduce_window or scatter, with the same meaning as
on tensors (compared with jax.jit)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from conftest import assert_matches_jax

UNARY = {
    "sin": jnp.sin,
    "cos": jnp.cos,
    "tan": jnp.tan,
    "log1p": jnp.log1p,
    "expm1": jnp.expm1,
    "floor": jnp.floor,
    "ceil": jnp.ceil,
    "round_half_away": lambda v: jax.lax.round(v, jax.lax.RoundingMethod.AWAY_FROM_ZERO),
    "round_half_even": jnp.rint,
    "sign": jnp.sign,
    "logistic": jax.nn.sigmoid,
    "rsqrt": lambda v: jax.lax.rsqrt(jnp.abs(v) + 1),
    "clamp": lambda v: jnp.clip(v, -0.5, 0.75),
    "finite_or_zero": lambda v: jnp.where(jnp.isfinite(v), v, 0.0),
    "atan2": lambda v: jnp.arctan2(v, 0.5),
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_op_in_a_scatter_body(name):
    # `.at[i].apply(f)` is a scatter whose body applies f to the old value.
    x = np.array([-2.5, -1.5, -0.5, -0.0, 0.25, 0.5, 1.5, 2.5, 3.7, np.inf], dtype=np.float32)
    idx = np.arange(x.size)
    if name in ("tan", "expm1", "log1p", "sin", "cos", "logistic"):
        x = x[:-1]
        idx = idx[:-1]
    if name == "log1p":
        x = np.abs(x)
    assert_matches_jax(lambda v: v.at[idx].apply(UNARY[name]), x, rtol=2e-6, atol=1e-7)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32"])
def test_integer_ops_in_a_scatter_body(dtype):
    x = np.array([0, 1, 5, 100, 65535], dtype=dtype) if dtype == "uint16" else np.array([-7, -1, 0, 1, 5, 100], dtype=dtype)
    idx = np.arange(x.size)

    def f(v):
        return (
            v.at[idx].apply(jnp.sign),
            v.at[idx].apply(lambda a: jax.lax.population_count(a)),
            v.at[idx].apply(lambda a: jax.lax.clz(a)),
            v.at[idx].apply(lambda a: jnp.clip(a, 0, 6)),
        )

    assert_matches_jax(f, x)


def test_log_sum_exp_reduce_window():
    x = np.random.default_rng(0).standard_normal((3, 10)).astype(np.float32)

    def f(x):
        return jax.lax.reduce_window(x, np.float32(-np.inf), jnp.logaddexp, (1, 3), (1, 2), "SAME")

    assert_matches_jax(f, x, rtol=1e-6, atol=1e-6)


def test_reduce_with_a_rounding_body():
    x = np.random.default_rng(1).standard_normal((4, 33)).astype(np.float32) * 10

    def f(x):
        return jax.lax.reduce(x, np.float32(-np.inf), lambda a, b: jnp.maximum(a, jnp.floor(b)), (1,))

    assert_matches_jax(f, x)


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32"])
def test_narrow_integer_arithmetic_widened_in_a_body(dtype):
    # A body adding, subtracting and multiplying integers of `dtype` (with
    # negative constants), then taking the result to float, fed by a tensor computed in the same program (so
    # the reduce shares a compiled function with its producer): negative
    # values must stay negative.
    x = np.array([[-10, 1, 2, -20], [-3, 4, -5, 6], [7, -8, 9, -1]], dtype=np.float32)

    def f(x):
        v = x.astype(dtype)

        def body(acc, b):
            t = np.dtype(dtype).type
            wide = (b - t(-3)) * t(-2) + t(-1)
            return (acc.astype(jnp.float32) + wide.astype(jnp.float32)).astype(dtype)

        return jax.lax.reduce(v, np.array(0, dtype), body, (0,))

    assert_matches_jax(f, x)


def test_a_long_chain_of_values_each_read_three_times_in_a_map_body():
    # 24 selects, each reading the previous result three times: as TIR Binds
    # the simplifier substituted each value into the next, exponentially,
    # and the build did not finish (12 steps in minutes); the kernel now
    # holds a value in a buffer once the substituted chain grows too long.
    import stablehlo_tvm

    steps = 24
    body = []
    current = "%a"
    for k in range(steps):
        body += [
            f"%c{k} = stablehlo.compare LT, {current}, %zero : (tensor<f32>, tensor<f32>) -> tensor<i1>",
            f"%p{k} = stablehlo.add {current}, %one : tensor<f32>",
            f"%m{k} = stablehlo.multiply {current}, %half : tensor<f32>",
            f"%r{k} = stablehlo.select %c{k}, %p{k}, %m{k} : tensor<i1>, tensor<f32>",
        ]
        current = f"%r{k}"
    text = "\n".join(
        [
            "func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {",
            '%0 = "stablehlo.map"(%x) ({',
            "^bb0(%a: tensor<f32>):",
            "%zero = stablehlo.constant dense<0.0> : tensor<f32>",
            "%one = stablehlo.constant dense<1.0> : tensor<f32>",
            "%half = stablehlo.constant dense<0.5> : tensor<f32>",
            *body,
            f"stablehlo.return {current} : tensor<f32>",
            "}) {dimensions = array<i64: 0>} : (tensor<64xf32>) -> tensor<64xf32>",
            "return %0 : tensor<64xf32>",
            "}",
        ]
    )
    x = np.linspace(-3, 3, 64).astype(np.float32)
    want = x
    for _ in range(steps):
        want = np.where(want < 0, want + np.float32(1), want * np.float32(0.5)).astype(np.float32)
    np.testing.assert_array_equal(stablehlo_tvm.build(text)(x), want)
