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


def _has_while(fn, *args) -> bool:
    module = stablehlo_tvm.import_to_tvm_dialect(jax.jit(fn).lower(*args))
    return "tvm.while" in str(module) or "stablehlo.while" in str(module)


@pytest.mark.parametrize("shape", [(), (7,), (128, 128), (128, 512), (3, 1000)])
def test_threefry_draws_are_unrolled_and_bit_exact(shape):
    """jax.random's threefry hash is a fori_loop of 5 trips; unrolled
    (stablehlo-unroll-short-loops) with its rotation amounts folded to
    constants (stablehlo-fold-small-constants), its shifts need no range
    test. The bits, uniforms and Bernoulli draws stay bit for bit XLA's;
    the normals go through erf_inv, within its few ULP."""

    def f(key):
        k1, k2, k3 = jax.random.split(key, 3)
        return (
            jax.random.bits(k1, shape),
            jax.random.uniform(k2, shape),
            jax.random.bernoulli(k3, 0.3, shape),
            jax.random.normal(jax.random.fold_in(key, 7), shape, dtype=jnp.float32),
        )

    key = jax.random.PRNGKey(1234)
    assert not _has_while(f, key)
    want = jax.jit(f)(key)
    got = stablehlo_tvm.jit(f)(key)
    for g, w in zip(got[:3], want[:3]):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
    np.testing.assert_allclose(np.asarray(got[3]), np.asarray(want[3]), rtol=1e-5, atol=1e-6)


def test_a_large_draw_reads_its_key_words_as_scalars():
    """A million-element draw: the hash's key words, broadcast by the
    program and shared among its rounds, are read as scalars (ScalarOperands)
    rather than written out as million-element tensors."""

    def f(key):
        return jax.random.uniform(key, (1024, 1024))

    key = jax.random.PRNGKey(5)
    assert not _has_while(f, key)
    np.testing.assert_array_equal(np.asarray(stablehlo_tvm.jit(f)(key)), np.asarray(jax.jit(f)(key)))
