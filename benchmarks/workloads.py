"""The benchmark workloads: JAX functions at realistic sizes, each with its
inputs and its floating-point operation count (None where GFLOPS mean
little)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import jax
import jax.numpy as jnp
import numpy as np


@dataclass
class Workload:
    name: str
    function: Callable
    args: tuple[np.ndarray, ...]
    flops: float | None = None
    # Inputs are random normal; the comparison uses these tolerances.
    rtol: float = 1e-4
    atol: float = 1e-4


def _normal(rng: np.random.Generator, *shape: int, scale: float = 1.0) -> np.ndarray:
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def _matmul(n: int) -> Workload:
    rng = np.random.default_rng(n)
    return Workload(f"matmul_{n}", lambda a, b: a @ b, (_normal(rng, n, n), _normal(rng, n, n)), 2.0 * n**3, rtol=1e-3, atol=1e-3)


def _mlp() -> Workload:
    rng = np.random.default_rng(1)
    sizes = [784, 512, 512, 10]
    params = [(_normal(rng, i, o, scale=i**-0.5), _normal(rng, o, scale=0.1)) for i, o in zip(sizes[:-1], sizes[1:])]

    def mlp(x):
        for w, b in params[:-1]:
            x = jax.nn.relu(x @ w + b)
        w, b = params[-1]
        return jax.nn.softmax(x @ w + b, axis=-1)

    batch = 64
    flops = 2.0 * batch * sum(i * o for i, o in zip(sizes[:-1], sizes[1:]))
    return Workload("mlp_b64", mlp, (_normal(rng, batch, 784),), flops)


def _conv(name: str, hw: int, cin: int, cout: int, k: int) -> Workload:
    rng = np.random.default_rng(k)
    w = _normal(rng, k, k, cin, cout, scale=(k * k * cin) ** -0.5)

    def conv(x):
        y = jax.lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        return jax.nn.relu(y)

    return Workload(name, conv, (_normal(rng, 1, hw, hw, cin),), 2.0 * hw * hw * cin * cout * k * k)


def _layernorm(x, gamma, beta):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + 1e-5) * gamma + beta


def _transformer() -> Workload:
    rng = np.random.default_rng(3)
    seq, d, heads, hidden = 128, 256, 4, 1024
    p = {
        "wq": _normal(rng, d, d, scale=d**-0.5), "wk": _normal(rng, d, d, scale=d**-0.5),
        "wv": _normal(rng, d, d, scale=d**-0.5), "wo": _normal(rng, d, d, scale=d**-0.5),
        "w1": _normal(rng, d, hidden, scale=d**-0.5), "b1": _normal(rng, hidden, scale=0.1),
        "w2": _normal(rng, hidden, d, scale=hidden**-0.5), "b2": _normal(rng, d, scale=0.1),
        "g1": np.ones(d, np.float32), "c1": np.zeros(d, np.float32),
        "g2": np.ones(d, np.float32), "c2": np.zeros(d, np.float32),
    }

    def block(x):
        def split(t):
            return t.reshape(seq, heads, d // heads).transpose(1, 0, 2)

        h = _layernorm(x, p["g1"], p["c1"])
        q, k, v = split(h @ p["wq"]), split(h @ p["wk"]), split(h @ p["wv"])
        scores = jnp.einsum("hqd,hkd->hqk", q, k) / np.sqrt(d // heads)
        attention = jnp.einsum("hqk,hkd->hqd", jax.nn.softmax(scores, axis=-1), v)
        x = x + attention.transpose(1, 0, 2).reshape(seq, d) @ p["wo"]
        h = _layernorm(x, p["g2"], p["c2"])
        return x + jax.nn.gelu(h @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]

    flops = 2.0 * seq * d * d * 4 + 2.0 * 2 * seq * seq * d + 2.0 * 2 * seq * d * hidden
    return Workload("transformer_block", block, (_normal(rng, seq, d),), flops, rtol=1e-3, atol=1e-3)


def _softmax() -> Workload:
    rng = np.random.default_rng(4)
    return Workload("softmax_256x1024", lambda x: jax.nn.softmax(x, axis=-1), (_normal(rng, 256, 1024),))


def _layernorm_workload() -> Workload:
    rng = np.random.default_rng(5)
    n = 1024
    gamma, beta = _normal(rng, n), _normal(rng, n)
    return Workload("layernorm_256x1024", lambda x: _layernorm(x, gamma, beta), (_normal(rng, 256, n),))


def _gelu() -> Workload:
    rng = np.random.default_rng(6)
    return Workload("gelu_erf_256x1024", lambda x: jax.nn.gelu(x, approximate=False), (_normal(rng, 256, 1024),), rtol=1e-5, atol=1e-6)


def _rnn() -> Workload:
    rng = np.random.default_rng(7)
    batch, hidden, steps = 32, 256, 64
    wx = _normal(rng, hidden, hidden, scale=hidden**-0.5)
    wh = _normal(rng, hidden, hidden, scale=hidden**-0.5)

    def rnn(xs):
        def step(h, x):
            h = jnp.tanh(x @ wx + h @ wh)
            return h, h

        return jax.lax.scan(step, jnp.zeros((batch, hidden), jnp.float32), xs)[1]

    return Workload("scan_rnn", rnn, (_normal(rng, steps, batch, hidden),), 2.0 * 2 * steps * batch * hidden * hidden, rtol=1e-3, atol=1e-4)


def workloads() -> list[Workload]:
    return [
        _matmul(512),
        _matmul(1024),
        _mlp(),
        _conv("conv2d_3x3_56x56x64", 56, 64, 64, 3),
        _conv("conv2d_1x1_56x56x64to256", 56, 64, 256, 1),
        _transformer(),
        _softmax(),
        _layernorm_workload(),
        _gelu(),
        _rnn(),
    ]


def by_name() -> dict[str, Any]:
    return {w.name: w for w in workloads()}
