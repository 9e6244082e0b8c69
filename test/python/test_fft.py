"""stablehlo.fft (FFT, IFFT, RFFT, IRFFT over one to three axes, any length:
short ones as DFT products, composite ones by the four-step factorization,
long primes by Bluestein's convolution) against jax.jit."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from conftest import assert_matches_jax, random_args
from test_complex import complex_args


@pytest.mark.parametrize("n", [1, 2, 7, 16, 17, 33])
def test_rfft_and_irfft_any_length(n):
    (x,) = random_args([((3, n), "float64")], seed=n)
    assert_matches_jax(lambda v: jnp.fft.rfft(v), x, rtol=1e-10, atol=1e-10)
    (z,) = complex_args((3, n // 2 + 1), dtype="complex128", seed=n)
    assert_matches_jax(lambda v: jnp.fft.irfft(v, n=n), z, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("dtype,tol", [("complex64", 2e-4), ("complex128", 1e-10)])
def test_complex_fft_and_inverse_over_several_axes(dtype, tol):
    (z,) = complex_args((2, 5, 6, 8), dtype=dtype, seed=3)
    assert_matches_jax(
        lambda v: (jnp.fft.fft(v), jnp.fft.ifft(v), jnp.fft.fft2(v), jnp.fft.ifftn(v, axes=(1, 2, 3))),
        z,
        rtol=tol,
        atol=tol,
    )


def test_real_transforms_over_three_axes_in_float32():
    (x,) = random_args([((2, 4, 6, 10), "float32")], seed=4)
    assert_matches_jax(lambda v: jnp.fft.rfftn(v, axes=(1, 2, 3)), x, rtol=2e-4, atol=2e-4)
    (z,) = complex_args((2, 4, 6, 6), seed=5)
    assert_matches_jax(lambda v: jnp.fft.irfftn(v, s=(4, 6, 10), axes=(1, 2, 3)), z, rtol=2e-4, atol=2e-4)


def test_spectral_filter_round_trip():
    """A real program: low-pass filtering through rfft / irfft."""
    (x,) = random_args([((4, 64), "float32")], seed=6)

    def low_pass(v):
        spectrum = jnp.fft.rfft(v)
        keep = jnp.arange(spectrum.shape[-1]) < 8
        return jnp.fft.irfft(spectrum * keep, n=v.shape[-1])

    assert_matches_jax(low_pass, x, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize(
    "n,dtype,tol",
    [
        (128, "complex64", 2e-4),  # 8 x 16
        (1000, "complex64", 2e-4),  # 25 x 40
        (4096, "complex64", 2e-4),  # 64 x 64
        (65536, "complex64", 5e-4),  # 256 x 256, each 16 x 16
        (1031, "complex128", 1e-9),  # prime: Bluestein
        (2 * 4099, "complex64", 5e-4),  # 2 x a prime past 1024
    ],
)
def test_long_transforms_of_every_kind_of_length(n, dtype, tol):
    (z,) = complex_args((2, n) if n < 10000 else (n,), dtype=dtype, seed=n % 97)
    assert_matches_jax(lambda v: (jnp.fft.fft(v), jnp.fft.ifft(v)), z, rtol=tol, atol=tol * np.sqrt(n))


def test_long_real_transforms_and_their_inverses():
    (x,) = random_args([((3, 8192), "float32")], seed=8)
    assert_matches_jax(jnp.fft.rfft, x, rtol=1e-3, atol=2e-3)
    (z,) = complex_args((3, 2049), seed=9)
    assert_matches_jax(lambda v: jnp.fft.irfft(v, n=4096), z, rtol=1e-3, atol=1e-5)
    (w,) = complex_args((2, 1500), dtype="complex128", seed=10)
    assert_matches_jax(lambda v: jnp.fft.irfft(v, n=2999), w, rtol=1e-9, atol=1e-12)


def test_long_transforms_over_leading_axes():
    (z,) = complex_args((200, 96, 3), seed=11)
    assert_matches_jax(lambda v: jnp.fft.ifftn(v, axes=(0, 1)), z, rtol=1e-3, atol=1e-5)
    (x,) = random_args([((2, 128, 130), "float32")], seed=12)
    assert_matches_jax(jnp.fft.rfft2, x, rtol=1e-3, atol=2e-3)
