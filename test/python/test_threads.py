"""Threads: one compiled module called from several threads at once (each
thread runs its own VirtualMachine over the shared executable), and imports
and builds from several threads at once."""

from __future__ import annotations

import threading

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import stablehlo_tvm
from conftest import random_args


def _in_threads(work, count: int = 4) -> list[str]:
    """Runs work(i) on `count` threads started together; the errors they raised."""
    errors: list[str] = []
    barrier = threading.Barrier(count)

    def run(i):
        barrier.wait()
        try:
            work(i)
        except Exception as error:  # noqa: BLE001 - reported by the test
            errors.append(f"thread {i}: {error!r}"[:2000])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def _mlp(x, w1, w2):
    return jax.nn.softmax(jnp.tanh(x @ w1) @ w2, axis=-1)


def _layernorm(x):
    return (x - x.mean(-1, keepdims=True)) / jnp.sqrt(x.var(-1, keepdims=True) + 1e-5)


def _complex(z):
    return jnp.exp(z) * jnp.conj(z)


def _loop(x):
    return jax.lax.fori_loop(0, 50, lambda i, c: jnp.tanh(c) + 0.01 * i, x)


@pytest.mark.parametrize(
    "fn,shapes",
    [
        (_mlp, [((64, 128), "float32"), ((128, 256), "float32"), ((256, 10), "float32")]),
        (_layernorm, [((32, 512), "float32")]),
        (_complex, [((8, 16), "complex64")]),
        (_loop, [((16, 16), "float32")]),
        # The runtime's Fourier transform: its plan cache, per-thread blocks
        # and (past 65,536 points) TVM's thread pool, from every thread.
        (jnp.fft.rfft2, [((300, 256), "float32")]),
    ],
    ids=["mlp", "layernorm", "complex", "loop", "fft"],
)
def test_one_compiled_module_called_from_many_threads(fn, shapes):
    args = random_args([(s, "float32" if d == "complex64" else d) for s, d in shapes])
    if shapes[0][1] == "complex64":
        args = [(a + 1j * a[::-1]).astype(np.complex64) for a in args]
    compiled = stablehlo_tvm.build(jax.jit(fn).lower(*args))
    want = np.asarray(jax.jit(fn)(*args))

    def work(_):
        for _ in range(50):
            np.testing.assert_allclose(compiled(*args), want, rtol=1e-4, atol=1e-5)

    assert _in_threads(work) == []


def test_imports_and_builds_from_many_threads():
    x = random_args([((16, 32), "float32")])[0]
    functions = [
        lambda x: jax.nn.softmax(x, -1),
        lambda x: jnp.tanh(x @ x.T),
        lambda x: jax.nn.gelu(x).sum(0),
        lambda x: jnp.cumsum(x, 1),
        _layernorm,
        lambda x: jnp.sort(x, 1),
    ]

    def work(i):
        for k in range(2):
            fn = functions[(i + k) % len(functions)]
            compiled = stablehlo_tvm.build(fn, x)
            np.testing.assert_allclose(compiled(x), np.asarray(jax.jit(fn)(x)), rtol=1e-4, atol=1e-5)

    assert _in_threads(work) == []
