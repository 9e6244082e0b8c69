"""One build for every size against one build per size: shape-polymorphic
exports (jax.export with symbolic dimensions) built with
``shapes="symbolic"``, the same programs built for one size, and jax.jit,
timed interleaved in one process at several sizes.

Programs: an MLP over a symbolic batch, a transformer block (layer norm,
4-head attention, GELU MLP) over a symbolic batch and sequence, and a CNN
(two 3x3 convolutions, one strided) over a symbolic batch. Reports the
median call time of each, the ratio dynamic/static, and build times;
writes benchmarks/results/dynamic_shapes.json.

    .venv/bin/python benchmarks/dynamic_shapes.py [--repeats N]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import export

import stablehlo_tvm


def mlp(x, w1, w2, w3):
    return jax.nn.relu(jax.nn.relu(x @ w1) @ w2) @ w3


def block(x, wq, wk, wv, wo, w1, w2):
    def norm(h):
        m = h.mean(-1, keepdims=True)
        return (h - m) / jnp.sqrt(((h - m) ** 2).mean(-1, keepdims=True) + 1e-5)

    b, s, d = x.shape
    h = norm(x)
    q, k, v = ((h @ w).reshape(b, s, 4, d // 4) for w in (wq, wk, wv))
    scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(d / 4.0)
    a = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(scores, -1), v).reshape(b, s, d)
    x = x + a @ wo
    return x + jax.nn.gelu(norm(x) @ w1) @ w2


def cnn(x, k1, k2):
    nhwc = ("NHWC", "HWIO", "NHWC")
    y = jax.nn.relu(jax.lax.conv_general_dilated(x, k1, (1, 1), "SAME", dimension_numbers=nhwc))
    y = jax.nn.relu(jax.lax.conv_general_dilated(y, k2, (2, 2), "SAME", dimension_numbers=nhwc))
    return y.mean(axis=(1, 2))


# name: (function, symbolic specs, shapes at each measured size)
CASES = {
    "mlp": (mlp, ["b, 256", "256, 512", "512, 512", "512, 10"],
            {n: [(n, 256), (256, 512), (512, 512), (512, 10)] for n in (16, 256)}),
    "transformer_block": (block, ["b, s, 128"] + ["128, 128"] * 4 + ["128, 512", "512, 128"],
                          {s: [(4, s, 128)] + [(128, 128)] * 4 + [(128, 512), (512, 128)] for s in (32, 128)}),
    "cnn": (cnn, ["b, 32, 32, 3", "3, 3, 3, 32", "3, 3, 32, 64"],
            {n: [(n, 32, 32, 3), (3, 3, 3, 32), (3, 3, 32, 64)] for n in (2, 16)}),
}


def median_ms(calls: dict, args: list, repeats: int) -> dict:
    """Median milliseconds of each callable, the calls interleaved."""
    times: dict = {name: [] for name in calls}
    for name, f in calls.items():
        f(*args)
    for _ in range(repeats):
        for name, f in calls.items():
            start = time.perf_counter()
            f(*args)
            times[name].append(time.perf_counter() - start)
    return {name: float(np.median(t)) * 1e3 for name, t in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=60)
    options = parser.parse_args()
    rows = []
    for name, (fn, specs, sizes) in CASES.items():
        scope = export.SymbolicScope()
        exp = export.export(jax.jit(fn))(*[jax.ShapeDtypeStruct(export.symbolic_shape(s, scope=scope), jnp.float32) for s in specs])
        start = time.perf_counter()
        dynamic = stablehlo_tvm.build(exp, shapes="symbolic")
        dynamic_build = time.perf_counter() - start
        jitted = jax.jit(fn)
        rng = np.random.default_rng(0)
        for size, shapes in sizes.items():
            args = [(rng.standard_normal(s) * 0.1).astype(np.float32) for s in shapes]
            start = time.perf_counter()
            static = stablehlo_tvm.build(jitted, *args)
            static_build = time.perf_counter() - start
            expected = np.asarray(jitted(*args))
            for got in (dynamic(*args), static(*args)):
                np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-4, atol=1e-4)
            ms = median_ms({"dynamic": dynamic, "static": static, "xla": lambda *a: jax.block_until_ready(jitted(*a))}, args, options.repeats)
            row = {
                "program": name,
                "size": size,
                "dynamic_ms": round(ms["dynamic"], 4),
                "static_ms": round(ms["static"], 4),
                "xla_ms": round(ms["xla"], 4),
                "dynamic_over_static": round(ms["dynamic"] / ms["static"], 2),
                "dynamic_build_s": round(dynamic_build, 2),
                "static_build_s": round(static_build, 2),
            }
            rows.append(row)
            print(json.dumps(row), flush=True)
    out = Path("benchmarks/results")
    out.mkdir(parents=True, exist_ok=True)
    (out / "dynamic_shapes.json").write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
