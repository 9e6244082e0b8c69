"""A JAX MLP imported into TVM: JAX -> StableHLO -> tvm dialect -> Relax ->
tvm.compile -> run, compared with jax.jit on the same inputs; then the same
model through stablehlo_tvm.jit with its weights as a pytree argument."""

from __future__ import annotations

import time

import jax
import jax.numpy as jnp
import numpy as np

import stablehlo_tvm


def init_params(key, sizes):
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        key, wkey = jax.random.split(key)
        params.append((jax.random.normal(wkey, (n_in, n_out), jnp.float32) / np.sqrt(n_in), jnp.zeros(n_out, jnp.float32)))
    return params


def mlp(params, x):
    for w, b in params[:-1]:
        x = jax.nn.relu(x @ w + b)
    w, b = params[-1]
    return jax.nn.softmax(x @ w + b, axis=-1)


def main() -> None:
    params = init_params(jax.random.PRNGKey(0), [784, 512, 512, 10])
    x = np.asarray(jax.random.normal(jax.random.PRNGKey(1), (64, 784), jnp.float32))
    forward = jax.jit(lambda x: mlp(params, x))  # weights become constants

    start = time.perf_counter()
    lowered = forward.lower(x)
    irmodule = stablehlo_tvm.import_stablehlo(lowered)
    imported = time.perf_counter()
    compiled = stablehlo_tvm.build(irmodule)
    built = time.perf_counter()

    got = compiled(x)
    want = np.asarray(forward(x))
    error = float(np.max(np.abs(got - want)))
    print(f"imported in {imported - start:.2f} s, compiled in {built - imported:.2f} s")
    print(f"output {got.shape} {got.dtype}; max abs error vs jax.jit: {error:.3e}")
    if not np.allclose(got, want, rtol=1e-5, atol=1e-6):
        raise SystemExit("mismatch against jax.jit")

    # The same through stablehlo_tvm.jit, with the weights as a pytree argument.
    fast = stablehlo_tvm.jit(mlp)
    got = fast(params, x)
    want = np.asarray(jax.jit(mlp)(params, x))
    print(f"stablehlo_tvm.jit: max abs error vs jax.jit: {float(np.max(np.abs(got - want))):.3e}")
    if not np.allclose(got, want, rtol=1e-5, atol=1e-6):
        raise SystemExit("mismatch against jax.jit")
    print("OK: TVM matches jax.jit")


if __name__ == "__main__":
    main()
