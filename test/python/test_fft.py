"""stablehlo.fft (FFT, IFFT, RFFT, IRFFT over one to three axes, any length:
short ones as DFT products, from 64 points the runtime's radix transform)
against jax.jit."""

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


# The runtime's transform (python/NativeFft.cpp) takes every f32/f64
# transform of 64 points or more; the cases below reach each of its paths.


@pytest.mark.parametrize(
    "rows,n",
    [
        (13, 64),  # radix 4, a partial block of lanes
        (5, 96),  # radices 4, 2, 3
        (3, 385),  # generic odd radices 5, 7, 11
        (2, 122),  # 2 x 61, the largest radix of its own
        (4, 67),  # a prime past the radices: Bluestein
        (1, 4096),  # one long line: four steps
        (3, 6000),  # few long lines: four steps with a 75 x 80 split
    ],
)
@pytest.mark.parametrize("dtype,tol", [("complex64", 3e-4), ("complex128", 1e-10)])
def test_library_transform_paths(rows, n, dtype, tol):
    (z,) = complex_args((rows, n), dtype=dtype, seed=rows * n % 101)
    assert_matches_jax(lambda v: (jnp.fft.fft(v), jnp.fft.ifft(v)), z, rtol=tol, atol=tol * np.sqrt(n))


@pytest.mark.parametrize("rows,n", [(1, 64), (7, 100), (16, 128), (33, 2 * 67)])
def test_library_real_transforms_pair_rows(rows, n):
    """Real transforms take two rows a lane: odd row counts leave a lane
    half empty; the imaginary parts of the bins that are their own
    conjugates must not leak into the signal."""
    (x,) = random_args([((rows, n), "float32")], seed=n)
    assert_matches_jax(jnp.fft.rfft, x, rtol=3e-4, atol=3e-4)
    (z,) = complex_args((rows, n // 2 + 1), seed=n + 1)
    assert_matches_jax(lambda v: jnp.fft.irfft(v, n=n), z, rtol=3e-4, atol=3e-5)


def test_library_transform_on_all_threads():
    """Past 65,536 points the blocks are shared among TVM's threads."""
    (z,) = complex_args((256, 384), seed=13)
    assert_matches_jax(jnp.fft.fft2, z, rtol=1e-3, atol=2e-3)
    (x,) = random_args([((300, 256), "float32")], seed=14)
    assert_matches_jax(jnp.fft.rfft2, x, rtol=1e-3, atol=2e-3)


def test_library_transform_inside_a_loop():
    """A loop whose body is a library transform: a packed call from the
    loop's kernel, as a pseudo-spectral time step makes."""
    (x,) = random_args([((32, 64), "float32")], seed=15)

    def diffuse(u):
        k = jnp.fft.rfftfreq(64).astype(jnp.float32)[None, :]

        def step(_, v):
            return jnp.fft.irfft(jnp.fft.rfft(v) * jnp.exp(-k * k), n=64)

        return jax.lax.fori_loop(0, 5, step, u)

    assert_matches_jax(diffuse, x, rtol=1e-4, atol=1e-5)


def test_library_rejects_malformed_calls():
    """The packed function checks its tensors: a wrong call raises, never
    reads out of bounds."""
    import tvm
    import tvm_ffi

    import stablehlo_tvm._core  # noqa: F401  (registers the function)

    fft = tvm_ffi.get_global_func("stablehlo_tvm.fft")

    def tensor(shape, dtype="float32"):
        return tvm.runtime.tensor(np.zeros(shape, dtype))

    with pytest.raises(Exception, match="float32 or float64"):
        fft(tensor((4, 8), "int32"), tensor((4, 8), "int32"), 0, 1, tensor((4, 8)), tensor((4, 8)))
    with pytest.raises(Exception, match="length"):
        fft(tensor((4, 8)), 2, 1, tensor((4, 4)), tensor((4, 4)))
    with pytest.raises(Exception, match="one type and shape"):
        fft(tensor((4, 8)), tensor((4, 7)), 0, 1, tensor((4, 8)), tensor((4, 8)))
    with pytest.raises(Exception, match="rank"):
        fft(tensor((4, 8)), tensor((4, 8)), 0, 3, tensor((4, 8)), tensor((4, 8)))
    with pytest.raises(Exception, match="expects"):
        fft(tensor((4, 8)), 7, 1, tensor((4, 8)))
    # No input points: the bins are empty sums, written as zeros.
    bins = [tvm.runtime.tensor(np.full((3, 1), 7.0, np.float32)) for _ in range(2)]
    fft(tensor((3, 0)), 2, 1, *bins)
    assert all(not b.numpy().any() for b in bins)


@pytest.mark.parametrize("n", [4, 8, 16, 48, 64, 256, 6000])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_real_signals_have_real_dc_and_nyquist_bins(n, dtype):
    """The constants' angles are reduced to a quarter turn before sin and
    cos: e^(i pi) is exactly -1 (in long double sin(pi) is 5e-20, which a
    float holds), so a real signal's DC and Nyquist bins have no imaginary
    part, as XLA gives, in the DFT products and the runtime's transform
    alike."""
    import stablehlo_tvm

    (x,) = random_args([((3, n), dtype)], seed=n)
    spectrum = np.asarray(stablehlo_tvm.jit(jnp.fft.rfft)(x))
    assert np.all(spectrum.imag[:, 0] == 0) and np.all(spectrum.imag[:, n // 2] == 0)
    tol = 1e-4 if dtype == "float32" else 1e-10
    assert_matches_jax(jnp.fft.rfft, x, rtol=tol, atol=tol)


@pytest.mark.parametrize("n", [4, 8, 16, 48, 64, 256])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_quarter_turns_are_exact(n, dtype):
    """A unit impulse at a quarter of a short length (one DFT product) or
    of a power of two has bins 0-3 exactly e^(-i pi k / 2) = 1, -i, -1, i."""
    import stablehlo_tvm

    impulse = np.zeros((1, n), dtype)
    impulse[0, n // 4] = 1
    got = np.asarray(stablehlo_tvm.jit(jnp.fft.fft)(impulse))[0]
    np.testing.assert_array_equal(got[:4], np.array([1, -1j, -1, 1j]))
