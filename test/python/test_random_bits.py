"""stablehlo.rng_bit_generator bit for bit as XLA:CPU computes it (jax.jit is
the oracle): both algorithms and DEFAULT, every output width, states whose
words use their high halves."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import stablehlo_tvm

ALGORITHMS = {
    "THREE_FRY": jax.lax.RandomAlgorithm.RNG_THREE_FRY,
    "PHILOX": jax.lax.RandomAlgorithm.RNG_PHILOX,
    "DEFAULT": jax.lax.RandomAlgorithm.RNG_DEFAULT,
}
STATES = [[1, 2], [5, 9], [2**40 + 3, 2**35 + 1], [2**64 - 1, 2**64 - 2]]


@pytest.mark.parametrize("algorithm", sorted(ALGORITHMS))
@pytest.mark.parametrize(
    "shape, dtype",
    [
        ((8,), "uint32"),
        ((5,), "uint32"),
        ((3,), "uint64"),
        ((2, 3), "uint8"),
        ((7,), "uint16"),
        ((2, 2), "uint64"),
        ((3, 5, 2), "uint32"),
        ((1, 3, 3), "uint16"),
        ((3, 3), "uint32"),
    ],
)
def test_bits_match_xla(algorithm, shape, dtype):
    def f(state):
        return jax.lax.rng_bit_generator(state, shape, dtype=jnp.dtype(dtype), algorithm=ALGORITHMS[algorithm])

    compiled = stablehlo_tvm.build(jax.jit(f).lower(np.zeros(2, np.uint64)))
    for state in STATES:
        state = np.array(state, dtype=np.uint64)
        want = jax.jit(f)(state)
        got = compiled(state)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


def test_rbg_keys_sample_as_jax_does():
    key = jax.random.key(42, impl="rbg")
    data = jax.random.key_data(key)

    def sample(data):
        k = jax.random.wrap_key_data(data, impl="rbg")
        return jax.random.uniform(k, (4, 5)), jax.random.normal(jax.random.fold_in(k, 3), (6,))

    (want_uniform, want_normal) = jax.jit(sample)(data)
    got_uniform, got_normal = stablehlo_tvm.jit(sample)(data)
    np.testing.assert_array_equal(np.asarray(got_uniform), np.asarray(want_uniform))  # the bits, scaled exactly
    np.testing.assert_allclose(np.asarray(got_normal), np.asarray(want_normal), rtol=1e-13)  # through erf_inv
