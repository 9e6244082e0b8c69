"""Numerics of the import against jax.jit, for programs made of the ops the
foundation supports (elementwise, data movement, dot_general, reduce)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import stablehlo_tvm
from conftest import assert_matches_jax, random_args


def test_linear_layer():
    x, w, b = random_args([((1, 784), "float32"), ((784, 10), "float32"), ((10,), "float32")])
    assert_matches_jax(lambda x, w, b: jnp.dot(x, w) + b, x, w, b)


def mlp(x, w1, b1, w2, b2):
    h = jax.nn.relu(x @ w1 + b1)
    return jax.nn.softmax(h @ w2 + b2, axis=-1)


@pytest.mark.parametrize("batch", [1, 8, 33])
def test_mlp_relu_softmax(batch):
    args = random_args(
        [((batch, 64), "float32"), ((64, 32), "float32"), ((32,), "float32"), ((32, 10), "float32"), ((10,), "float32")],
        seed=batch,
    )
    out = assert_matches_jax(mlp, *args)
    np.testing.assert_allclose(out.sum(axis=-1), 1.0, rtol=1e-5)


def layer_norm(x, gamma, beta):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + 1e-5) * gamma + beta


@pytest.mark.parametrize("shape", [(4, 16), (2, 3, 128)])
def test_layer_norm(shape):
    x, g, b = random_args([(shape, "float32"), (shape[-1:], "float32"), (shape[-1:], "float32")])
    assert_matches_jax(layer_norm, x, g, b)


def test_two_results():
    x, y = random_args([((3, 4), "float32"), ((3, 4), "float32")])
    out = assert_matches_jax(lambda x, y: (jnp.tanh(x) * y, jnp.sum(x, axis=0) - jnp.max(y)), x, y)
    assert isinstance(out, tuple) and len(out) == 2


def test_unary_math():
    (x,) = random_args([((5, 7), "float32")])
    x = np.abs(x) + 0.1

    def f(x):
        return (
            jnp.exp(-x),
            jnp.log(x),
            jnp.sqrt(x),
            jax.lax.rsqrt(x),
            jnp.tanh(x),
            jax.nn.sigmoid(x),
            jnp.abs(-x),
            -x,
        )

    assert_matches_jax(f, x)


def test_binary_and_compare_select():
    x, y = random_args([((6, 5), "float32"), ((6, 5), "float32")])

    def f(x, y):
        return (
            x - y,
            x * y,
            x / (jnp.abs(y) + 1),
            jnp.maximum(x, y),
            jnp.minimum(x, y),
            jnp.where(x > y, x, y),
            jnp.where(x <= 0, -x, 2 * x),
            (x == y) | (x != x),
            x >= y,
        )

    assert_matches_jax(f, x, y)


def test_integer_and_boolean_ops():
    a, b = random_args([((4, 6), "int32"), ((4, 6), "int32")])
    b = np.where(b == 0, 1, b).astype(np.int32)

    def f(a, b):
        p = a > b
        return (a + b, a * b, a - b, jnp.maximum(a, b), a & b, a | b, a ^ b, ~a, p & (a < 0), ~p, jnp.sum(a, axis=1))

    assert_matches_jax(f, a, b)


def test_convert():
    (x,) = random_args([((3, 8), "float32")])
    x = x * 10

    def f(x):
        return (
            x.astype(jnp.int32),
            x.astype(jnp.bool_),
            x.astype(jnp.float16),
            (x > 0).astype(jnp.float32),
            x.astype(jnp.int32).astype(jnp.float32),
        )

    assert_matches_jax(f, x)


def test_data_movement():
    x, y = random_args([((2, 3, 4), "float32"), ((4, 3), "float32")])

    def f(x, y):
        t = jnp.transpose(x, (2, 0, 1))
        r = x.reshape(6, 4)
        s = x[:, 1:3, ::2]
        c = jnp.concatenate([r, y.T, r[:2]], axis=0)
        b = jnp.broadcast_to(y[:, None, :], (4, 5, 3))
        i = jnp.arange(12, dtype=jnp.float32).reshape(3, 4) + jax.lax.broadcasted_iota(jnp.float32, (3, 4), 0)
        return t, r, s, c, b, i

    assert_matches_jax(f, x, y)


def test_dot_general_forms():
    a, b, c, d, v = random_args(
        [((5, 2, 3), "float32"), ((5, 3, 4), "float32"), ((2, 8, 16), "float32"), ((2, 6, 16), "float32"), ((3,), "float32")]
    )

    def f(a, b, c, d, v):
        return (
            jnp.matmul(a, b),
            jnp.einsum("bqd,bkd->bqk", c, d),
            jnp.einsum("bij,bjk->ik", a, b),
            v @ v,
            a @ v,
            jnp.einsum("i,j->ij", v, v),
            jnp.tensordot(a, b, axes=([0, 2], [0, 1])),
        )

    assert_matches_jax(f, a, b, c, d, v, rtol=1e-5, atol=1e-5)


def test_boolean_products_and_clamps():
    # dot_general and convolution on i1 are ors of ands; clamp on i1 is
    # and/or of bounds.
    rng = np.random.default_rng(5)
    a, b = rng.random((4, 7)) > 0.6, rng.random((7, 3)) > 0.6
    c, lo, hi = rng.random((4, 7)) > 0.5, rng.random((4, 7)) > 0.5, rng.random((4, 7)) > 0.5
    a[0] = False  # a row with no true product

    image, kernel = rng.random((1, 6, 6, 2)) > 0.7, rng.random((3, 3, 2, 2)) > 0.7

    def f(a, b, c, lo, hi, image, kernel):
        return (
            a @ b,
            jnp.einsum("ij,ij->i", a, c),
            jax.lax.clamp(lo, c, hi),
            jax.lax.clamp(False, c, hi),
            jax.lax.conv_general_dilated(image, kernel, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
        )

    assert_matches_jax(f, a, b, c, lo, hi, image, kernel)


def test_complex_clamp_is_maximum_then_minimum():
    # The spec's clamp is minimum(maximum(x, lo), hi), lexicographic on
    # complex numbers. (XLA:CPU compares real parts only: it clamps 1+2j
    # between 0 and 1+1j to 1+2j.)
    x = np.array([0 + 1j, 1 + 1j, 2 + 0j, 0.5 - 3j, -1 + 5j, 1 + 2j, 1 - 2j], np.complex64)
    lo = np.complex64(0)
    hi = np.array([1, 1 - 1j, 1, 1, 1, 1 + 1j, 1 + 1j], np.complex64)

    def lexicographic_max(p, q):
        return np.where((p.real > q.real) | ((p.real == q.real) & (p.imag > q.imag)), p, q)

    def lexicographic_min(p, q):
        return np.where((p.real < q.real) | ((p.real == q.real) & (p.imag < q.imag)), p, q)

    got = stablehlo_tvm.jit(jax.lax.clamp)(lo, x, hi)
    want = lexicographic_min(lexicographic_max(x, np.broadcast_to(lo, x.shape)), hi)
    np.testing.assert_array_equal(got, want)


def test_reductions():
    (x,) = random_args([((4, 5, 6), "float32")])

    def f(x):
        return (
            jnp.sum(x, axis=(0, 2)),
            jnp.max(x, axis=1),
            jnp.min(x),
            jnp.prod(x[:, :2, :2], axis=-1),
            jnp.mean(x, axis=0),
            jax.lax.reduce(x, np.float32(1.5), jax.lax.add, (1,)),
            jax.lax.reduce(x, np.float32(0.25), jax.lax.max, (0, 1)),
        )

    assert_matches_jax(f, x)


def test_outer_products_and_reductions_over_unit_dimensions():
    """Products with nothing contracted and reductions over dimensions of
    size 1 are element-wise ops: their special values as XLA gives them
    (a sum's -0 kept; signs of zeros compared)."""
    x = np.array([[-0.0], [np.nan], [1.5], [-np.inf], [3.0]], np.float32)
    i = np.arange(-3, 3, dtype=np.int32).reshape(1, 6)
    a, b = random_args([((2, 7), "float32"), ((2, 5), "float32")])

    def f(x, i, a, b):
        return (
            jnp.sum(x, axis=1),
            jnp.max(x, axis=1),
            jnp.min(x, axis=-1),
            jnp.prod(x, axis=1),
            jnp.sum(i, axis=0),
            jnp.max(i, axis=0),
            jnp.all(x > 0, axis=1),
            jnp.any(x > 0, axis=1),
            jnp.outer(a[0], b[0]),
            jnp.einsum("bi,bj->bij", a, b),
            jnp.outer(x[:, 0], x[:, 0]),
        )

    got = assert_matches_jax(f, x, i, a, b)
    np.testing.assert_array_equal(np.signbit(got[0]), np.signbit(jax.jit(f)(x, i, a, b)[0]))


def test_relu_and_clip_keep_nan_and_signed_zeros():
    # A maximum or minimum with a constant tests only the other operand for
    # NaN; the constant's NaN still wins.
    x = np.array([np.nan, -0.0, 0.0, -np.inf, np.inf, -2.5, 3.0, 1e-40], np.float32)

    def f(x):
        return jax.nn.relu(x), jnp.clip(x, -1.0, 1.0), jnp.maximum(x, jnp.float32(np.nan)), jnp.minimum(x, -0.0)

    got = assert_matches_jax(f, x)
    for g, w in zip(got, jax.jit(f)(x)):
        np.testing.assert_array_equal(np.signbit(g), np.signbit(np.asarray(w)))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_maximum_and_minimum_order_minus_zero_below_plus_zero(dtype):
    # IEEE-754's maximum and minimum (StableHLO's): max(+0, -0) is +0 and
    # min(+0, -0) is -0 in either order, element-wise and as a scatter's
    # combiner (a scalar body).
    zeros = np.array([0.0, -0.0, 0.0, -0.0, 1.0, -1.0], np.float32)
    x = zeros.astype(dtype)
    y = np.array([0.0, 0.0, -0.0, -0.0, -0.0, 0.0], np.float32).astype(dtype)
    at = jnp.arange(6)

    def f(x, y):
        return (jnp.maximum(x, y), jnp.minimum(x, y), jnp.maximum(-x, x),
                x.at[at].max(y), x.at[at].min(y), jnp.clip(x, y, 1.0))

    got = assert_matches_jax(f, x, y)
    for g, w in zip(got, jax.jit(f)(x, y)):
        np.testing.assert_array_equal(np.signbit(np.asarray(g, np.float32)),
                                      np.signbit(np.asarray(w, np.float32)))


@pytest.mark.parametrize("schedule", [True, False])
def test_integer_arithmetic_wraps_where_llvm_could_assume_it_does_not(schedule):
    # TVM compiles 32- and 64-bit integer +, -, * with LLVM's no-wrap flags;
    # LLVM then folded an unsigned 0 - clz(..) to 0, a >= a + b to b == 0
    # and x * x >= 0 to true. Tensors, a loop's carries, abs and negation of
    # INT_MIN, each against jax.jit (both the CPU schedules and TVM's own
    # pipeline).
    from jax import lax

    a = np.array([651623953, 5, 3177169314, 4294967294, 0], np.uint32)
    b = np.array([3675533486, 4294967295, 3474321399, 9, 7], np.uint32)
    i = np.array([3037000500, -3037000500, 5, -(2**63), 2**62], np.int64)
    m = np.array([-(2**31), 2**31 - 1, -1, 0, 7], np.int32)

    def f(a, b, i, m):
        return (
            (a ^ a) - lax.clz(a >> a),
            jnp.where(a >= a + b, a, a + b),
            jnp.where(i * i >= 0, 1, 0),
            jnp.abs(m), -m, m * m, m - (m + 1),
            lax.fori_loop(0, 3, lambda k, c: jnp.where(c >= c + b, c, c + b), a),
        )

    want = list(jax.jit(f)(a, b, i, m))
    got = stablehlo_tvm.build(jax.jit(f).lower(a, b, i, m), schedule=schedule)(a, b, i, m)
    # XLA:CPU itself takes x * x >= 0 as true (3037000500^2 wraps to a
    # negative int64): that one against NumPy's wrapping product.
    with np.errstate(over="ignore"):
        want[2] = np.where(i * i >= 0, 1, 0)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


def test_bfloat16_matmul_with_f32_accumulation():
    a, b = random_args([((4, 8), "float32"), ((8, 3), "float32")])
    a, b = a.astype(jnp.bfloat16), b.astype(jnp.bfloat16)

    def f(a, b):
        return jax.lax.dot_general(a, b, (((1,), (0,)), ((), ())), preferred_element_type=jnp.float32)

    assert_matches_jax(f, a, b, rtol=1e-2, atol=1e-2)


def test_wrapping_arithmetic_on_an_operand_that_folds_to_zero():
    # The wrapped operand a - a folds to the literal 0 inside TVM's
    # simplifier, where it is read through a reinterpretation; TVM's code
    # generator took reinterpret(0) for a null pointer and refused the
    # build (a generated uint32 program). Against jax.jit.
    a = np.array([[651623953, 5], [4294967294, 0]], np.uint32)

    def f(a):
        square, shifted = a * a, a >> a
        return jnp.minimum(jnp.where(square >= shifted, square, shifted), (a - a) - a)

    np.testing.assert_array_equal(np.asarray(stablehlo_tvm.jit(f)(a)), np.asarray(jax.jit(f)(a)))


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8", "uint32"])
def test_integer_division_edge_cases_do_not_trap(dtype):
    info = np.iinfo(dtype)
    a = np.array([7, 7, 0, 5, info.max, info.min, info.min, 1], dtype)
    b = np.array([2, 0, 0, 1, 3, 1, 0, 1], dtype)
    if info.min < 0:
        a = np.concatenate([a, np.array([-7, -7, 7, info.min], dtype)])
        b = np.concatenate([b, np.array([2, -2, -2, -1], dtype)])
    assert_matches_jax(lambda a, b: jax.lax.div(a, b), a, b)


def test_nan_semantics():
    x = np.array([[np.nan, 1.0, 0.0, -np.inf], [2.0, 3.0, np.inf, -1.0]], np.float32)
    y = np.array([[1.0, np.nan, -0.0, 5.0], [np.nan, 3.0, 1.0, -2.0]], np.float32)

    def f(x, y):
        return (
            jnp.maximum(x, y),
            jnp.minimum(x, y),
            jax.nn.relu(x),
            x != y,
            x != x,
            x == x,
            x < y,
            jnp.max(x, axis=1),
            jnp.min(y, axis=0),
            jnp.max(y),
            jnp.sum(x, axis=0),
        )

    assert_matches_jax(f, x, y)


@pytest.mark.parametrize(
    "dtype,rtol",
    [("float64", 1e-12), ("float32", 1e-5), ("float16", 2e-3), ("bfloat16", 2e-2)],
)
def test_float_dtypes(dtype, rtol):
    x, w = random_args([((4, 8), "float32"), ((8, 5), "float32")])
    x, w = jnp.asarray(x, dtype), jnp.asarray(w, dtype)

    def f(x, w):
        h = jnp.tanh(x @ w) + jnp.exp(-jnp.abs(x[:, :5]))
        return jax.nn.softmax(h, axis=-1), jnp.sum(h, axis=0), jnp.max(h, axis=1)

    assert_matches_jax(f, x, w, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("dtype", ["int8", "int16", "int64", "uint8", "uint16", "uint64"])
def test_integer_dtypes(dtype):
    a, b = random_args([((3, 4), dtype), ((4, 2), dtype)], seed=3)

    def f(a, b):
        return a @ b, jnp.max(a, axis=0), a * 3 - a, jnp.where(a > a.T[0, 0], a, 0)

    assert_matches_jax(f, a, b)


@pytest.mark.parametrize(
    "lhs_shape,rhs_shape,kwargs",
    [
        ((2, 9, 9, 3), (3, 3, 3, 8), dict(window_strides=(2, 2), padding="SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))),
        ((1, 4, 10, 10), (6, 2, 3, 3), dict(window_strides=(1, 1), padding=((1, 0), (2, 1)), rhs_dilation=(2, 1), feature_group_count=2)),
        ((1, 2, 7, 7), (3, 2, 3, 3), dict(window_strides=(1, 1), padding=((1, 1), (1, 1)), lhs_dilation=(2, 2))),
        ((3, 5, 11), (4, 5, 3), dict(window_strides=(2,), padding="VALID")),
    ],
)
def test_convolution(lhs_shape, rhs_shape, kwargs):
    x, w = random_args([(lhs_shape, "float32"), (rhs_shape, "float32")])

    def f(x, w):
        return jax.lax.conv_general_dilated(x, w, **kwargs)

    assert_matches_jax(f, x, w, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype", ["float16", "float32", "bfloat16"])
def test_division_by_a_constant_rounds_as_xla(dtype):
    # XLA multiplies by the constant's reciprocal (rounded to the element
    # type) where a program divides by a constant; bf16 it divides. x / 3
    # and x * (1/3) differ in the last bit for a third of the x.
    dt = jnp.dtype(dtype)
    x = np.random.default_rng(9).standard_normal(4096).astype(dt)
    divisors = np.linspace(0.5, 3.0, 4096).astype(dt)
    for f in (lambda x: x / dt.type(3), lambda x: x / dt.type(0.3), lambda x: x / divisors,
              lambda x: x.reshape(64, 64) / divisors[:64]):
        got = np.asarray(stablehlo_tvm.jit(f)(x)).astype(np.float32)
        np.testing.assert_array_equal(got, np.asarray(jax.jit(f)(x)).astype(np.float32))


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("shape,axis", [((4, 20), 1), ((3, 64), 1), ((300, 5), 0), ((2, 5000), 1)])
def test_half_float_cumulative_sums_scan_in_xla_order(dtype, shape, axis):
    # XLA scans blocks of 16, then the blocks' totals; scanned in one
    # sequence, half of a bf16 cumsum's elements differed from jax.jit's.
    dt = jnp.dtype(dtype)
    x = np.random.default_rng(5).standard_normal(shape).astype(dt)
    for f, values in ((lambda x: jnp.cumsum(x, axis), x), (lambda x: jnp.cumprod(x, axis), (1 + x / 64).astype(dt))):
        got = np.asarray(stablehlo_tvm.jit(f)(values)).astype(np.float32)
        np.testing.assert_array_equal(got, np.asarray(jax.jit(f)(values)).astype(np.float32))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_precision_convolutions_accumulate_in_float32(dtype):
    # XLA sums a half-precision convolution in f32 and rounds once; summed in
    # f16, the forward pass of this one was 8x further from the exact result
    # (and an f16 CNN's weight gradients off by up to a quarter of their
    # scale after loss scaling).
    x, w, dy = random_args([((8, 14, 14, 16), dtype), ((3, 3, 16, 32), dtype), ((8, 6, 6, 32), dtype)])

    def forward(x, w):
        return jax.lax.conv_general_dilated(x, w, (2, 2), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC"))

    def gradients(x, w, dy):
        return jax.vjp(forward, x, w)[1](dy)

    for f, args in ((forward, (x, w)), (gradients, (x, w, dy))):
        got = jax.tree_util.tree_leaves(stablehlo_tvm.jit(f)(*args))
        want = jax.tree_util.tree_leaves(jax.jit(f)(*args))
        exact = jax.tree_util.tree_leaves(jax.jit(f)(*(np.asarray(a, np.float32) for a in args)))
        for g, w_, e in zip(got, want, exact):
            g, w_, e = (np.asarray(v, np.float32) for v in (g, w_, e))
            scale = np.abs(e).max()
            # as close to the exact result as XLA (within a rounding)
            assert np.abs(g - e).max() <= np.abs(w_ - e).max() + 1e-3 * scale


def _input_gradient(x, w, strides, padding, dn, groups=1):
    return jax.grad(lambda x: jnp.sum(jax.lax.conv_general_dilated(
        x, w, strides, padding, dimension_numbers=dn, feature_group_count=groups) ** 2))(x)


@pytest.mark.parametrize(
    "name,f,shapes,dtype,convolutions",
    [
        ("strided_grad", lambda x, w: _input_gradient(x, w, (2, 2), "SAME", ("NHWC", "HWIO", "NHWC")),
         [(2, 14, 14, 4), (3, 3, 4, 8)], "float32", 5),
        ("odd_sizes", lambda x, w: _input_gradient(x, w, (3, 2), ((2, 1), (0, 3)), ("NHWC", "HWIO", "NHWC")),
         [(1, 20, 17, 2), (5, 4, 2, 3)], "float32", 7),
        ("depthwise", lambda x, w: _input_gradient(x, w, (2, 2), "SAME", ("NHWC", "HWIO", "NHWC"), groups=6),
         [(2, 16, 16, 6), (3, 3, 1, 6)], "float32", 5),
        ("nchw", lambda x, w: _input_gradient(x, w, (2, 2), "SAME", ("NCHW", "OIHW", "NCHW")),
         [(2, 3, 17, 17), (4, 3, 3, 3)], "float32", 5),
        ("1d_one_tap", lambda x, w: _input_gradient(x, w, (2,), "VALID", ("NWC", "WIO", "NWC")),
         [(2, 9, 4), (1, 4, 6)], "float32", 2),
        ("transposed", lambda x, w: jax.lax.conv_transpose(x, w, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
         [(2, 7, 7, 8), (3, 3, 8, 4)], "float32", 4),
        ("transposed_3d", lambda x, w: jax.lax.conv_transpose(x, w, (2, 2, 2), "SAME", dimension_numbers=("NDHWC", "DHWIO", "NDHWC")),
         # 8 phases, each then a sum of 2-D convolutions, one per depth tap
         # (stablehlo-fold-convolution-depth): 4 phases of 2 taps, 4 of 1
         [(1, 5, 5, 5, 2), (3, 3, 3, 2, 2)], "float32", 12),
        ("transposed_bf16", lambda x, w: jax.lax.conv_transpose(x, w, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
         [(2, 7, 7, 8), (3, 3, 8, 4)], "bfloat16", 4),
    ],
)
def test_convolutions_over_dilated_inputs_split_by_phase(name, f, shapes, dtype, convolutions):
    # Strided convolutions' input gradients and transposed convolutions read
    # an lhs-dilated input, mostly zeros; each output phase is a convolution
    # of the undilated input with that phase's kernel taps
    # (stablehlo-split-dilated-convolutions). A phase with no taps is zeros.
    # `convolutions`: the phases' (one per phase with taps) and a
    # gradient's forward convolution.
    args = random_args([(shape, dtype) for shape in shapes])
    lowered = jax.jit(f).lower(*args)
    assert "lhs_dilate" in lowered.as_text()
    assert stablehlo_tvm.import_stablehlo(lowered).script().count("R.nn.conv") == convolutions
    assert_matches_jax(f, *args, rtol=1e-4 if dtype == "float32" else 2e-2, atol=1e-4 if dtype == "float32" else 2e-2)


def _conv3d(x, w, strides=(1, 1, 1), padding="SAME", rhs_dilation=(1, 1, 1), groups=1, layout=("NDHWC", "DHWIO", "NDHWC")):
    return jax.lax.conv_general_dilated(
        x, w, strides, padding, rhs_dilation=rhs_dilation, feature_group_count=groups, dimension_numbers=layout
    )


@pytest.mark.parametrize(
    "name,f,shapes",
    [
        ("same", lambda x, w: _conv3d(x, w), [(2, 6, 9, 8, 3), (3, 3, 3, 3, 4)]),
        ("strided_dilated_padded", lambda x, w: _conv3d(
            x, w, strides=(2, 1, 2), padding=[(2, 1), (0, 1), (1, 1)], rhs_dilation=(2, 1, 1)),
         [(2, 9, 7, 8, 3), (3, 2, 3, 3, 4)]),
        ("grouped_channels_first", lambda x, w: _conv3d(
            x, w, groups=2, layout=("NCDHW", "OIDHW", "NCDHW")), [(1, 4, 5, 6, 6), (6, 2, 2, 3, 3)]),
        ("valid_negative_padding", lambda x, w: _conv3d(x, w, padding=[(-1, 0), (0, 0), (1, 0)]),
         [(2, 7, 5, 5, 2), (2, 3, 2, 2, 5)]),
        ("gradients", lambda x, w: jax.grad(lambda x, w: jnp.sum(jnp.tanh(_conv3d(x, w, strides=(1, 2, 2)))), argnums=(0, 1))(x, w),
         [(2, 5, 8, 8, 3), (3, 3, 3, 3, 4)]),
    ],
)
def test_three_dimensional_convolutions_as_sums_of_planar_ones(name, f, shapes):
    # stablehlo-fold-convolution-depth: each kernel depth tap is a 2-D
    # convolution of the input's matching depth slices folded into the
    # batch; no 3-D convolution is left for TVM's direct loop nest.
    args = random_args([(shape, "float32") for shape in shapes])
    script = stablehlo_tvm.import_stablehlo(jax.jit(f).lower(*args)).script()
    assert "R.nn.conv3d" not in script and "R.nn.conv2d" in script
    assert_matches_jax(f, *args, rtol=1e-4, atol=1e-4)


def test_math_decompositions():
    x = np.array([-2.5, -0.5, -1e-8, -0.0, 0.0, 1e-8, 0.5, 1.5, 2.5, 30.0, -30.0, np.inf, -np.inf, np.nan], np.float32)

    def f(x):
        return (
            jnp.expm1(x),
            jnp.log1p(jnp.abs(x)),
            jax.lax.round(x, jax.lax.RoundingMethod.AWAY_FROM_ZERO),
            jnp.sign(x),
            jnp.cbrt(x),
            jnp.power(jnp.abs(x), 1.7),
            jnp.isinf(x),
        )

    assert_matches_jax(f, x, rtol=2e-6, atol=0)


@pytest.mark.parametrize("dtype", ["float32", "int16", "uint32"])
def test_top_k(dtype):
    (x,) = random_args([((4, 9), dtype)], seed=5)
    x[0, :3] = x[0, 3]  # ties keep the lower index first

    def f(x):
        return jax.lax.top_k(x, 3)

    assert_matches_jax(f, x)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "uint64"])
def test_bit_counts(dtype):
    info = np.iinfo(dtype)
    x = np.array([0, 1, 2, 3, 5, info.max, info.min, info.max // 3, 1 << (info.bits - 2)], dtype)

    def f(x):
        return jax.lax.population_count(x), jax.lax.clz(x)

    assert_matches_jax(f, x)


@pytest.mark.parametrize("dtype, rtol", [("float32", 3e-7), ("float64", 1e-14)])
def test_tanh_and_atanh_are_accurate(dtype, rtol):
    # TVM's own tanh is a fast approximation (tens of ULP off); the import's
    # formulas are not. (XLA's f64 atanh is itself ~30 ULP off near 0.4.)
    x = np.concatenate([np.linspace(-12, 12, 97), [0.0, -0.0, 1e-8, -3e-5, 25.0, -40.0]]).astype(dtype)
    y = np.linspace(-0.999, 0.999, 41).astype(dtype)
    assert_matches_jax(lambda x, y: (jnp.tanh(x), jnp.arctanh(y)), x, y, rtol=rtol, atol=0)


def test_empty_results_are_computed_without_the_op():
    x, w = random_args([((2, 3, 9, 10), "float32"), ((3, 3, 10, 5), "float32")])

    def f(x, w):
        return jax.lax.conv_general_dilated(x, w, (1, 1), "VALID", rhs_dilation=(2, 1), dimension_numbers=("NHWC", "HWIO", "NHWC"))

    out = assert_matches_jax(f, x, w)
    assert out.shape == (2, 0, 7, 5)


@pytest.mark.parametrize("dtype, rtol", [("float32", 1e-6), ("float64", 1e-12)])
def test_special_functions(dtype, rtol):
    from jax.scipy import special

    x = np.concatenate([np.linspace(-6.5, 9.0, 157), [0.25, 1.0, 2.0, 27.0, -31.0]]).astype(dtype)
    positive = np.linspace(0.01, 30.0, 101).astype(dtype)
    p = np.linspace(-0.995, 0.995, 81).astype(dtype)

    def f(x, positive, p):
        return special.erfc(x), special.gammaln(positive), special.digamma(positive), special.erfinv(p), special.i1e(x)

    assert_matches_jax(f, x, positive, p, rtol=rtol, atol=rtol)


def test_a_choice_between_one_value_minus_it_keeps_nan():
    # select(c, x, x) - x: TVM's simplifier folded the select and then
    # x - x to 0, where infinite x gives NaN.
    x = np.array([np.inf, -np.inf, np.nan, 2.5, -0.0], np.float32)
    c = np.array([True, False, True, False, True])
    assert_matches_jax(lambda c, x: jnp.where(c, x, x) - x, c, x)


def test_bessel_i1e_at_the_ends_of_float64():
    # exp(-|x|) I1(x) ~ sign(x) / sqrt(2 pi |x|): 2 pi |x| overflows past
    # 2.8e307 (the result was -0.0 for -max); tiny x give x / 2.
    from jax.scipy import special

    x = np.array([-np.finfo(np.float64).max, 5e307, 1e300, 1e-300, -3e-200, 26.0, -24.0], np.float64)
    want = np.array([-1 / np.sqrt(2 * np.pi) / np.sqrt(np.finfo(np.float64).max), 0, 0, 5e-301, -1.5e-200, 0, 0])
    got = assert_matches_jax(special.i1e, x, rtol=1e-13, atol=0)
    np.testing.assert_allclose(got[[0, 3, 4]], want[[0, 3, 4]], rtol=1e-13)


def test_lgamma_and_digamma_below_one_half():
    from jax.scipy import special

    x = np.array([-7.5, -3.3, -0.75, -0.2, 0.1, 0.3, 0.49], np.float64)
    assert_matches_jax(lambda x: (special.gammaln(x), special.digamma(x)), x, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("dtype, rtol", [("float32", 2e-6), ("float64", 1e-12)])
def test_zeta_and_polygamma(dtype, rtol):
    """chlo.zeta and chlo.polygamma against SciPy (XLA's f32 forms are a
    few ULP further off), and every domain edge against jax.jit."""
    import scipy.special as reference
    from jax.scipy import special

    rng = np.random.default_rng(12)
    x, q = rng.uniform(1.05, 12.0, 200).astype(dtype), rng.uniform(0.05, 30.0, 200).astype(dtype)
    n = rng.integers(0, 5, 200).astype(np.int32)
    y = rng.uniform(-6.0, 10.0, 200).astype(dtype)
    y = np.where(np.abs(y - np.round(y)) < 0.05, y + 0.25, y).astype(dtype)  # off the poles
    got_zeta, got_polygamma = stablehlo_tvm.jit(lambda x, q, n, y: (special.zeta(x, q), special.polygamma(n, y)))(x, q, n, y)
    np.testing.assert_allclose(got_zeta, reference.zeta(x.astype(np.float64), q.astype(np.float64)), rtol=rtol)
    np.testing.assert_allclose(got_polygamma, reference.polygamma(n, y.astype(np.float64)), rtol=rtol * 4)

    edge_x = np.array([1.0, 0.5, 2.0, 3.0, 2.0, 3.0, 2.5, np.inf, 3.0, np.nan], dtype)
    edge_q = np.array([1.0, 1.0, 0.0, 0.0, -2.0, -2.0, -1.5, 1.0, -3.5, 1.0], dtype)
    edge_n = np.array([-1, 0, 1, 2, 3, 0, 1, 2, 3, 1], np.int32)
    edge_y = np.array([1.0, 0.0, 0.0, -1.0, -2.0, -3.0, np.inf, -np.inf, np.nan, 1e-3], dtype)

    def edges(x, q, n, y):
        return special.zeta(x, q), special.polygamma(n, y)

    for got, want in zip(stablehlo_tvm.jit(edges)(edge_x, edge_q, edge_n, edge_y), jax.jit(edges)(edge_x, edge_q, edge_n, edge_y)):
        got, want = np.asarray(got), np.asarray(want)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
        finite = np.isfinite(want)
        np.testing.assert_allclose(got[finite], want[finite], rtol=1e-4)


def test_digamma_and_lgamma_on_negative_arguments():
    """The reflections' pi x is reduced to x - floor(x) first: at x = -30.3
    pi x itself carries a rounding error many ULP of the result."""
    import scipy.special as reference
    from jax.scipy import special

    x = np.linspace(-40.3, -0.7, 199)
    digamma, lgamma = stablehlo_tvm.jit(lambda x: (special.digamma(x), special.gammaln(x)))(x)
    # XLA's own: 1.8e-15 and 2.0e-15 (relative to max(|value|, 1)).
    np.testing.assert_allclose(digamma, reference.digamma(x), rtol=4e-15, atol=4e-15)
    np.testing.assert_allclose(lgamma, reference.gammaln(x), rtol=4e-15, atol=4e-15)


def test_optimization_barrier_and_remat():
    (x,) = random_args([((8, 8), "float32")], seed=11)

    def f(x):
        a, b = jax.lax.optimization_barrier((jnp.sin(x), x * 2))
        return jax.grad(lambda x: jnp.sum(jax.checkpoint(lambda y: jnp.tanh(y) @ y)(x)))(x) + a - b

    assert_matches_jax(f, x, rtol=1e-5, atol=1e-5)


def test_grouped_convolution_weight_gradient_uses_batch_groups():
    """The kernel gradient of a depthwise convolution is a convolution with
    batch_group_count (rewritten into feature groups by stablehlo-simplify)."""
    x, w = random_args([((2, 8, 8, 4), "float32"), ((3, 3, 1, 4), "float32")], seed=9)

    def loss(w, x):
        y = jax.lax.conv_general_dilated(
            x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"), feature_group_count=4
        )
        return jnp.sum(jnp.tanh(y))

    assert "batch_group_count = 4" in jax.jit(jax.grad(loss)).lower(w, x).as_text()
    assert_matches_jax(jax.grad(loss), w, x, rtol=1e-4, atol=1e-4)


def test_int4_is_held_in_eight_bits_and_wraps():
    """int4 arrays go in as int8 (TVM has no 4-bit integers); results come
    back as int8 holding the int4 values, wrapped like JAX's."""
    x = np.array([7, -8, 3, -1, 5, -6], dtype=jnp.int4)

    def f(v):
        return v + v, v * jnp.int4(3), v ^ jnp.int4(3), v.astype(jnp.int32), jax.lax.shift_right_logical(v, jnp.int4(1))

    want = [np.asarray(w).astype(np.int32) for w in jax.jit(f)(x)]
    got = [np.asarray(g).astype(np.int32) for g in stablehlo_tvm.build(jax.jit(f).lower(x))(x)]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_uint4_not_and_narrowing_converts_wrap():
    x = np.array([0, 1, 7, 15], dtype=jnp.uint4)
    y = np.array([20, -3, 255, 16], dtype=np.int32)

    def f(x, y):
        return ~x, y.astype(jnp.uint4), y.astype(jnp.int4)

    want = [np.asarray(w).astype(np.int32) for w in jax.jit(f)(x, y)]
    got = [np.asarray(g).astype(np.int32) for g in stablehlo_tvm.build(jax.jit(f).lower(x, y))(x, y)]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_boolean_top_k_and_bitcast():
    x = np.array([[False, True, False, True, True], [True, False, False, False, True]])

    def f(x):
        values, indices = jax.lax.top_k(x, 3)
        return values, indices, jax.lax.bitcast_convert_type(x, jnp.bool_)

    assert_matches_jax(f, x)


def test_int4_scatter_add_wraps_inside_its_update_body():
    """`.at[i].add` on int4: the scatter's region is widened with it (this
    program used to crash the import) and the sum wraps as int4's does."""

    def f(x, i, v):
        return x.at[i].add(v)

    x = np.array([7, -8, 3, -1, 5, -6], dtype=jnp.int4)
    for i, v in [(0, 3), (1, -1), (-1, 2), (4, 0)]:
        args = (x, np.int32(i), jnp.int4(v))
        want = np.asarray(jax.jit(f)(*args)).astype(np.int32)
        got = np.asarray(stablehlo_tvm.build(jax.jit(f).lower(*args))(*args)).astype(np.int32)
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("shift", ["shift_left", "shift_right_arithmetic", "shift_right_logical"])
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "uint32", "int64"])
def test_shifts_in_a_scatter_body_follow_stablehlo(shift, dtype):
    """Shifts in a region body (scatter_apply's update computation), by
    amounts of 0 to past the width and negative ones: an amount of the width
    or more leaves 0, or copies of the sign for an arithmetic shift."""
    bits = np.dtype(dtype).itemsize * 8
    info = np.iinfo(dtype)
    x = np.random.default_rng(0).integers(info.min, info.max, (3, 8), dtype=dtype, endpoint=True)
    amounts = [0, 1, 3, bits - 1, bits, bits + 1, 2 * bits, info.max, -1 if info.min < 0 else info.max - 1]
    op = getattr(jax.lax, shift)
    dims = jax.lax.ScatterDimensionNumbers(
        update_window_dims=(0,), inserted_window_dims=(1,), scatter_dims_to_operand_dims=(1,)
    )
    indices = np.arange(8, dtype=np.int32)[:, None]

    def f(x):
        return [
            jax.lax.scatter_apply(x, indices, lambda v, k=k: op(v, np.array(k, dtype)), dims, update_shape=(3, 8))
            for k in amounts
        ]

    assert_matches_jax(f, x)


@pytest.mark.parametrize("dtype", ["f32", "f64"])
def test_total_order_compare_on_tensors(dtype):
    # -NaN < -inf < -1 < -0 < +0 < 1 < +inf < +NaN, every pair, each direction.
    np_dtype, int_dtype = (np.float32, np.int32) if dtype == "f32" else (np.float64, np.int64)
    values = np.array([np.nan, -np.inf, -1.0, -0.0, 0.0, 1.0, np.inf, np.nan], np_dtype)
    values[0] = -values[0]
    x = np.repeat(values, values.size)
    y = np.tile(values, values.size)
    n = x.size
    directions = ["EQ", "NE", "LT", "LE", "GT", "GE"]
    body = "\n".join(
        f"    %r{i} = stablehlo.compare {d}, %x, %y, TOTALORDER : (tensor<{n}x{dtype}>, tensor<{n}x{dtype}>) -> tensor<{n}xi1>"
        for i, d in enumerate(directions)
    )
    results = ", ".join(f"%r{i}" for i in range(len(directions)))
    types = ", ".join([f"tensor<{n}xi1>"] * len(directions))
    text = f"""func.func @main(%x: tensor<{n}x{dtype}>, %y: tensor<{n}x{dtype}>) -> ({types}) {{
{body}
    return {results} : {types}
}}"""
    got = stablehlo_tvm.build(text)(x, y)

    def key(v):
        bits = v.view(int_dtype)
        return np.where(bits < 0, bits ^ np.iinfo(int_dtype).max, bits)

    kx, ky = key(x), key(y)
    want = [kx == ky, kx != ky, kx < ky, kx <= ky, kx > ky, kx >= ky]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(g), w)


SPECIAL_FLOATS = [np.nan, np.inf, -np.inf, 1e30, -1e30, 3e9, -3e9, 2147483520.0, 2147483648.0, 65504.0, 255.5, -0.5, 3.7, -3.7, 0.0]


@pytest.mark.parametrize("source", ["float16", "bfloat16", "float32", "float64"])
@pytest.mark.parametrize("target", ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"])
def test_float_to_integer_convert_saturates_like_xla(source, target):
    # The spec leaves out-of-range and NaN conversions to the implementation:
    # XLA saturates and gives 0 for NaN, in tensors and in region bodies.
    with np.errstate(over="ignore"):
        x = jnp.asarray(np.array(SPECIAL_FLOATS, np.float64).astype(jnp.dtype(source)))
    assert_matches_jax(lambda v: v.astype(target), x)
    # The same conversion as a region body (a tvm.kernel), against XLA.
    from stablehlo_tvm import xla

    mlir = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64"}[source]
    out = ("ui" if target.startswith("u") else "i") + target.lstrip("uint")
    n = len(SPECIAL_FLOATS)
    text = f"""func.func @main(%x: tensor<{n}x{mlir}>) -> tensor<{n}x{out}> {{
  %0 = "stablehlo.map"(%x) ({{
  ^bb0(%a: tensor<{mlir}>):
    %1 = stablehlo.convert %a : (tensor<{mlir}>) -> tensor<{out}>
    stablehlo.return %1 : tensor<{out}>
  }}) {{dimensions = array<i64: 0>}} : (tensor<{n}x{mlir}>) -> tensor<{n}x{out}>
  return %0 : tensor<{n}x{out}>
}}"""
    np.testing.assert_array_equal(stablehlo_tvm.build(text)(np.asarray(x)), xla.run(text, [np.asarray(x)])[0])


def _remainder_operands(dtype):
    """Special values, every sign, and magnitudes across the type's normal
    range (XLA on CPU flushes subnormals to zero, C's fmod does not)."""
    info = jnp.finfo(dtype)
    special = [0.0, -0.0, 1.0, -1.0, 2.0, 3.0, 0.5, float(info.max), float(info.tiny), np.inf, -np.inf, np.nan]
    rng = np.random.default_rng(7)
    magnitudes = np.exp2(rng.uniform(np.log2(float(info.tiny)) + 1, np.log2(float(info.max)) - 1, 4000))
    values = magnitudes * rng.choice([-1.0, 1.0], 4000) * rng.uniform(1, 2, 4000)
    x = np.concatenate([np.repeat(special, len(special)), values[:2000], np.float32(rng.standard_normal(2000) * 100)])
    y = np.concatenate([np.tile(special, len(special)), values[2000:], np.float32(rng.uniform(0.1, 8, 2000))])
    with np.errstate(over="ignore"):
        return np.asarray(x, dtype), np.asarray(y, dtype)


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "float64"])
def test_float_remainder_is_exact(dtype):
    # C's fmod to the bit (sign of zero included), also where the quotient
    # is huge, in every float type and in vectorized kernels.
    dtype = jnp.dtype(dtype)
    x, y = _remainder_operands(dtype)
    want = np.asarray(jax.jit(jax.lax.rem)(x, y))
    got = stablehlo_tvm.build(jax.jit(jax.lax.rem).lower(x, y))(x, y)
    bits = np.dtype(f"uint{dtype.itemsize * 8}")
    same = (got.view(bits) == want.view(bits)) | (np.isnan(got.astype(np.float64)) & np.isnan(want.astype(np.float64)))
    assert same.all(), list(zip(x[~same][:5], y[~same][:5], got[~same][:5], want[~same][:5]))


def test_float32_rounded_to_bfloat16_and_back_is_rounded():
    # Fused, TVM's lowering dropped the f32 -> bf16 -> f32 pair of casts and
    # returned the f32 unchanged: the rounding mixed-precision code asks for
    # (compute in f32, keep values in bf16) vanished.
    x = np.random.default_rng(3).standard_normal((64, 48)).astype(np.float32) * 3

    def f(x):
        kept = (x * 1.5).astype(jnp.bfloat16)
        return kept.astype(jnp.float32) * x + kept.astype(jnp.float32)

    got = stablehlo_tvm.jit(f)(x)
    np.testing.assert_array_equal(got, np.asarray(jax.jit(f)(x)))


def test_bfloat16_arithmetic_rounds_after_each_op():
    # TVM computed a fused chain of bfloat16 ops in f32 and rounded once;
    # XLA rounds every op: (x * x) * x differed in a quarter of the elements.
    x = (np.random.default_rng(4).standard_normal((40, 30)) * 2).astype(jnp.bfloat16)

    def f(x):
        return ((x * x) * x + x / 3 - x * 1.01) / (x * x + 1)

    got = np.asarray(stablehlo_tvm.jit(f)(x)).astype(np.float32)
    np.testing.assert_array_equal(got, np.asarray(jax.jit(f)(x)).astype(np.float32))


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize(
    "shape,dims",
    [((64, 256), (0,)), ((33, 8), (0,)), ((8, 1000), (1,)), ((3, 7, 1500), (2,)),
     ((20, 20, 4), (0, 1)), ((4, 300, 5), (1,)), ((2000,), (0,))],
)
def test_half_float_sums_fold_in_xla_order(dtype, shape, dims):
    # Each addition rounds in bf16 and f16; summed in f32 and rounded once,
    # 60-75% of these sums differed from jax.jit's by an ulp or more (a bf16
    # bias gradient then changed sign in Adam's first step). XLA folds
    # windows of 32 in row-major order, then the windows' results.
    dt = jnp.dtype(dtype)
    x = np.random.default_rng(3).standard_normal(shape).astype(dt)
    for body, init, values in ((jax.lax.add, 0, x), (jax.lax.mul, 1, (1 + x / 100).astype(dt))):
        def f(x):
            return jax.lax.reduce(x, dt.type(init), body, dims)

        got = np.asarray(stablehlo_tvm.jit(f)(values)).astype(np.float32)
        np.testing.assert_array_equal(got, np.asarray(jax.jit(f)(values)).astype(np.float32))


@pytest.mark.parametrize(
    "name,f",
    [
        ("product", lambda x, y, z: (x * y).astype(jnp.float32)),
        ("product_plus", lambda x, y, z: (x * y + z).astype(jnp.float32)),
        ("quotient_exp", lambda x, y, z: jnp.exp(x / (jnp.abs(y) + 1)).astype(jnp.float32)),
        ("sum_of_products", lambda x, y, z: jnp.sum((x * y).astype(jnp.float32), axis=1)),
        ("softmax", lambda x, y, z: jax.nn.softmax(x * y, axis=-1).astype(jnp.float32)),
        # an explicit f32 -> bf16 -> f32 round trip keeps its rounding
        ("round_trip", lambda x, y, z: (x.astype(jnp.float32) * 3).astype(jnp.bfloat16).astype(jnp.float32)),
        # products and convolutions accumulate in f32, read back unrounded
        # (a bf16 layer's weight gradient for its f32 master weights)
        ("matmul", lambda x, y, z: (x @ y.T).astype(jnp.float32)),
        ("convolution", lambda x, y, z: jax.lax.conv_general_dilated(
            x[None], jnp.stack([y.T[:, :16]] * 3), (1,), [(1, 1)], dimension_numbers=("NWC", "WIO", "NWC")
        ).astype(jnp.float32)),
        ("weight_gradient", lambda x, y, z: jax.grad(
            lambda w: jnp.sum(jnp.tanh(jax.lax.conv_general_dilated(
                x[None], w, (1,), [(1, 1)], dimension_numbers=("NWC", "WIO", "NWC"))).astype(jnp.float32))
        )(jnp.stack([y.T[:, :16]] * 3)).astype(jnp.float32)),
    ],
)
def test_bfloat16_result_read_back_as_float32(name, f):
    # XLA computes bf16 arithmetic in f32 and cancels the rounding to bf16
    # that a conversion back to f32 follows: mixed-precision models read
    # their activations back that way for norms and losses.
    rng = np.random.default_rng(7)
    x, y, z = ((rng.standard_normal((24, 40)) * 3).astype(jnp.bfloat16) for _ in range(3))
    got, want = np.asarray(stablehlo_tvm.jit(f)(x, y, z)), np.asarray(jax.jit(f)(x, y, z))
    if name in ("product", "product_plus", "round_trip"):
        np.testing.assert_array_equal(got, want)
    else:
        # f32's exp and summation order may differ in the last bits; a
        # rounding to bf16 would be 2**-9 of the values (and was, for the
        # product, the convolution and the weight gradient).
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-5 * np.abs(want).max())


@pytest.mark.parametrize("dtype", ["float32", "float16", "float64", "bfloat16"])
@pytest.mark.parametrize("exponent", [2, 3])
def test_power_by_small_integer_constant(dtype, exponent):
    # Keras writes ops.power(x, 2) as pow(x, convert(2)); both become
    # products (XLA rewrites them the same way), bit for bit.
    x = (np.random.default_rng(exponent).standard_normal((33, 17)) * 4).astype(jnp.dtype(dtype))

    def f(x):
        return x ** jnp.asarray(exponent).astype(x.dtype), jnp.power(x, exponent)

    got, want = stablehlo_tvm.jit(f)(x), jax.jit(f)(x)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(g).astype(np.float64), np.asarray(w).astype(np.float64))


@pytest.mark.parametrize(
    "shape, axes",
    [((12544, 16), 0), ((16, 28, 28, 16), (0, 1, 2)), ((64, 32, 32, 8), (0, 1, 2)), ((1000, 1000), None)],
    ids=["column", "batch_statistic", "batch_statistic_64", "everything"],
)
def test_long_float_sums_are_summed_in_blocks(shape, axes):
    """Long f32 sums (batch statistics, bias gradients, losses) stay within
    a tenth of an ULP-of-the-magnitudes of the exact sum, as XLA's block
    sums do; summed in one sequence they were 0.2-1.7 of it."""
    x = (np.random.default_rng(0).standard_normal(shape) + 0.01).astype(np.float32)

    def f(x):
        return jnp.sum(x, axis=axes)

    exact = np.sum(x.astype(np.float64), axis=axes)
    scale = np.finfo(np.float32).eps * np.sum(np.abs(x.astype(np.float64)), axis=axes)
    ours = np.asarray(stablehlo_tvm.jit(f)(x), np.float64)
    xla = np.asarray(jax.jit(f)(x), np.float64)
    assert np.max(np.abs(xla - exact) / scale) < 0.1
    assert np.max(np.abs(ours - exact) / scale) < 0.1
