"""stablehlo.batch_norm_{inference,training,grad}. JAX (and Flax) write batch
normalization with plain reductions, so these programs are StableHLO text;
the reference is the ops' formula under jax.jit."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

import stablehlo_tvm
from conftest import random_args

EPS = 1e-3
# x: [N, C, W] with features on axis 1.
TYPES = dict(x="tensor<4x3x5xf32>", v="tensor<3xf32>")


def _module(op: str, operands: int, results: str) -> str:
    args = ", ".join(f"%a{i}: {TYPES['x'] if i in (0, 4) else TYPES['v']}" for i in range(operands))
    names = ", ".join(f"%a{i}" for i in range(operands))
    types = ", ".join(TYPES["x"] if i in (0, 4) else TYPES["v"] for i in range(operands))
    n = results.count("tensor<")
    outs = ", ".join(f"%r#{i}" for i in range(n)) if n > 1 else "%r"
    bind = f"%r:{n}" if n > 1 else "%r"
    return f"""
func.func @main({args}) -> ({results}) {{
  {bind} = "stablehlo.{op}"({names}) {{epsilon = {EPS:e} : f32, feature_index = 1 : i64}} : ({types}) -> ({results})
  return {outs} : {results}
}}
"""


def _spread(v):
    return v[None, :, None]


def _normalize(x, mean, var):
    return (x - _spread(mean)) / jnp.sqrt(_spread(var) + EPS)


def _inputs(seed):
    x, scale, offset, mean, dy = random_args(
        [((4, 3, 5), "float32"), ((3,), "float32"), ((3,), "float32"), ((3,), "float32"), ((4, 3, 5), "float32")], seed=seed
    )
    var = np.abs(random_args([((3,), "float32")], seed=seed + 1)[0]) + 0.5
    return x, scale, offset, mean, var, dy


def test_inference():
    x, scale, offset, mean, var, _ = _inputs(1)
    text = _module("batch_norm_inference", 5, TYPES["x"])
    text = text.replace(f"%a4: {TYPES['x']}", f"%a4: {TYPES['v']}").replace(
        f"{TYPES['v']}, {TYPES['v']}, {TYPES['v']}, {TYPES['x']}) ->", f"{TYPES['v']}, {TYPES['v']}, {TYPES['v']}, {TYPES['v']}) ->"
    )
    want = jax.jit(lambda x, s, o, m, v: _normalize(x, m, v) * _spread(s) + _spread(o))(x, scale, offset, mean, var)
    got = stablehlo_tvm.build(text)(x, scale, offset, mean, var)
    np.testing.assert_allclose(got, np.asarray(want), rtol=1e-5, atol=1e-5)


def test_training_returns_batch_statistics():
    x, scale, offset, *_ = _inputs(2)
    text = _module("batch_norm_training", 3, ", ".join([TYPES["x"], TYPES["v"], TYPES["v"]]))

    def reference(x, s, o):
        mean = jnp.mean(x, axis=(0, 2))
        var = jnp.mean((x - _spread(mean)) ** 2, axis=(0, 2))
        return _normalize(x, mean, var) * _spread(s) + _spread(o), mean, var

    for got, want in zip(stablehlo_tvm.build(text)(x, scale, offset), jax.jit(reference)(x, scale, offset)):
        np.testing.assert_allclose(got, np.asarray(want), rtol=1e-5, atol=1e-5)


def test_grad_matches_autodiff_of_the_normalization():
    """grad_operand, grad_scale, grad_offset are the VJP of training-mode
    normalization (mean and variance from the batch) at dy."""
    x, scale, _, _, _, dy = _inputs(3)
    mean, var = np.mean(x, axis=(0, 2)), np.var(x, axis=(0, 2))
    text = _module("batch_norm_grad", 5, ", ".join([TYPES["x"], TYPES["v"], TYPES["v"]]))

    def forward(x, s, o):
        m = jnp.mean(x, axis=(0, 2))
        v = jnp.mean((x - _spread(m)) ** 2, axis=(0, 2))
        return _normalize(x, m, v) * _spread(s) + _spread(o)

    def vjp(x, s, dy):
        _, pullback = jax.vjp(forward, x, s, jnp.zeros_like(s))
        return pullback(dy)

    want = jax.jit(vjp)(x, scale, dy)
    got = stablehlo_tvm.build(text)(x, scale, mean.astype(np.float32), var.astype(np.float32), dy)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, np.asarray(w), rtol=1e-4, atol=1e-4)
