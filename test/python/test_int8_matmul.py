"""Int8 x int8 products summed in int32 on AVX-512 VNNI (cpu/int8_matmul.py),
exactly as jax.jit computes them: extreme values, columns that do not fill a
16-lane panel, batches, convolutions; and which products take the kernel."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import stablehlo_tvm
from conftest import assert_matches_jax
from stablehlo_tvm.cpu import int8_matmul

pytestmark = pytest.mark.skipif(
    not int8_matmul.supported(stablehlo_tvm.cpu.host_target()), reason="this CPU has no AVX-512 VNNI"
)


def _int8(shape, seed):
    return np.random.default_rng(seed).integers(-128, 128, shape).astype(np.int8)


def _product(a, b):
    return jax.lax.dot_general(a, b, (((a.ndim - 1,), (0,)), ((), ())), preferred_element_type=jnp.int32)


def _kernels(fn, *args) -> int:
    """How many products of the fused module run on the VNNI kernel."""
    target = stablehlo_tvm.cpu.host_target()
    with target:
        fused = stablehlo_tvm.cpu.fuse(stablehlo_tvm.import_stablehlo(jax.jit(fn).lower(*args)), target)
    return fused.script(show_meta=False).count("cls.int8_matmul_vnni")


@pytest.mark.parametrize(
    "a_shape, b_shape",
    [
        ((64, 512), (512, 1024)),  # two panels a tile
        ((7, 36), (36, 10)),  # 10 columns: one partial panel; 7 rows
        ((3, 5, 16), (16, 48)),  # rows of a batch; an odd number of panels
        ((1, 4), (4, 1)),
    ],
)
def test_products_are_exact(a_shape, b_shape):
    a, b = _int8(a_shape, 0), _int8(b_shape, 1)
    a.flat[0], b.flat[0] = -128, -128  # -128 * -128 and the sign flip of -128
    assert _kernels(_product, a, b) == 1
    assert_matches_jax(_product, a, b)


def test_sums_wrap_as_int32():
    # 2**17 products of -128 * -128 = 2**31: one past int32's largest.
    a = np.full((1, 1 << 17), -128, np.int8)
    b = np.full((1 << 17, 1), -128, np.int8)
    assert_matches_jax(_product, a, b)


def test_int8_convolution_takes_the_kernel():
    x, w = _int8((2, 9, 9, 8), 2), _int8((3, 3, 8, 16), 3)

    def conv(x, w):
        return jax.lax.conv_general_dilated(
            x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"), preferred_element_type=jnp.int32
        )

    assert _kernels(conv, x, w) == 1
    assert_matches_jax(conv, x, w)


def test_products_the_kernel_does_not_take():
    a, b = _int8((4, 6), 4), _int8((6, 8), 5)  # K not a multiple of 4
    assert _kernels(_product, a, b) == 0
    assert_matches_jax(_product, a, b)
    wide = np.random.default_rng(6).integers(-1000, 1000, (4, 8)).astype(np.int16)
    assert _kernels(_product, wide, wide.T.copy()) == 0


@pytest.mark.parametrize("k,n", [(256, 256), (64, 96), (128, 48), (32, 40), (8, 10)])
def test_packed_layout_and_column_starts(k, n):
    # Full panels go four, two or one at a time; a last partial panel is
    # padded with zeros.
    import tvm

    b = _int8((k, n), k + n)
    panels = (n + 15) // 16
    lib = tvm.compile(
        tvm.IRModule({"pack": int8_matmul._pack_primfunc(k, n).with_attr("global_symbol", "pack")}),
        target=stablehlo_tvm.cpu.host_target(),
    )
    packed = tvm.runtime.tensor(np.zeros((panels, k // 4, 64), np.int8))
    start = tvm.runtime.tensor(np.zeros(panels * 16, np.int32))
    lib["pack"](tvm.runtime.tensor(b), packed, start)
    padded = np.zeros((k, panels * 16), np.int8)
    padded[:, :n] = b
    expected = padded.reshape(k // 4, 4, panels, 16).transpose(2, 0, 3, 1).reshape(panels, k // 4, 64)
    np.testing.assert_array_equal(packed.numpy(), expected)
    np.testing.assert_array_equal(start.numpy(), -128 * padded.astype(np.int32).sum(axis=0))
