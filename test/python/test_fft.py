"""stablehlo.fft (FFT, IFFT, RFFT, IRFFT over one to three axes, any length
up to 4096 points) against jax.jit."""

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


def test_transforms_past_4096_points_are_reported_not_built():
    import stablehlo_tvm
    from stablehlo_tvm.errors import MLIRError

    x = np.zeros(8192, np.float32)
    with pytest.raises(MLIRError, match="unsupported: stablehlo.fft"):
        stablehlo_tvm.import_stablehlo(jax.jit(jnp.fft.rfft).lower(x))
