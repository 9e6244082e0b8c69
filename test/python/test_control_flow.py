"""Loops (stablehlo.while as a recursive Relax function) against jax.jit:
what lax.scan, fori_loop and while_loop emit."""

from __future__ import annotations

import os

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import tvm
from jax import lax

import stablehlo_tvm
from conftest import assert_matches_jax, random_args


def test_scan_rnn():
    x, w, u, h0 = random_args([((12, 3, 8), "float32"), ((8, 16), "float32"), ((16, 16), "float32"), ((3, 16), "float32")])

    def rnn(x, w, u, h0):
        def step(h, xt):
            h = jnp.tanh(xt @ w + h @ u * 0.1)
            return h, h.sum(axis=1)

        return lax.scan(step, h0, x)

    assert_matches_jax(rnn, x, w, u, h0, rtol=1e-5, atol=1e-5)


def test_fori_loop_solver():
    # Jacobi iterations on a diagonally dominant system.
    a, b = random_args([((6, 6), "float64"), ((6,), "float64")], seed=2)
    a = a + 10 * np.eye(6)

    def solve(a, b):
        eye = jnp.eye(6, dtype=a.dtype)
        d = jnp.sum(a * eye, axis=1)
        r = a * (1 - eye)
        return lax.fori_loop(0, 50, lambda i, x: (b - r @ x) / d, jnp.zeros_like(b))

    out = assert_matches_jax(solve, a, b, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(a @ out, b, rtol=1e-8)


def test_while_loop_with_data_dependent_trip_count():
    (x,) = random_args([((5,), "float32")], seed=3)
    x = np.abs(x) + 1

    def f(x):
        def cond(state):
            i, v = state
            return jnp.max(v) < 1000.0

        def body(state):
            i, v = state
            return i + 1, v * 1.7

        return lax.while_loop(cond, body, (0, x))

    assert_matches_jax(f, x)


def test_nested_loops_capture_outer_values():
    (x,) = random_args([((4,), "float32")], seed=4)

    def f(x):
        scale = jnp.float32(0.5)

        def outer(i, acc):
            return lax.fori_loop(0, i, lambda j, a: a * scale + x, acc)

        return lax.fori_loop(0, 4, outer, x)

    assert_matches_jax(f, x)


def test_long_loop_does_not_recompile_or_overflow():
    def f(n):
        return lax.while_loop(lambda s: s[0] < n, lambda s: (s[0] + 1, s[1] + 0.5), (0, 0.0))

    n = np.int32(20000)
    assert_matches_jax(f, n)


def test_cond_switch_and_captured_values():
    (x,) = random_args([((4,), "float32")], seed=5)

    def f(x, p, i):
        a = lax.cond(p > 0, lambda x: jnp.sin(x) * 2, lambda x: jnp.cos(x) + x, x)
        b = lax.switch(i, [lambda y: y + x, lambda y: y * 3, lambda y: -y], x)
        return a, b

    for p, i in [(1.0, 0), (-1.0, 1), (0.5, 2), (0.5, 9)]:
        assert_matches_jax(f, x, np.float32(p), np.int32(i))


def test_cond_inside_a_loop():
    (x,) = random_args([((3,), "float32")], seed=6)

    def f(x):
        return lax.fori_loop(0, 6, lambda i, v: lax.cond(i % 2 == 0, lambda v: v * 2, lambda v: v - 1, v), x)

    assert_matches_jax(f, x)


def test_composite_runs_its_decomposition():
    (x,) = random_args([((5,), "float32")], seed=7)
    scaled_tanh = lax.composite(lambda v: jnp.tanh(v) * 2, name="my.scaled_tanh")
    assert_matches_jax(lambda v: scaled_tanh(v) + scaled_tanh(v * 3), x)


CALLS_PUBLIC_HELPER = """
func.func @main(%x: tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>) {
  %0 = call @poly.step(%x) : (tensor<4xf64>) -> tensor<4xf64>
  %1:2 = call @twice(%0) : (tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>)
  return %1#0, %1#1 : tensor<4xf64>, tensor<4xf64>
}
func.func @twice(%x: tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>) {
  %0 = call @poly.step(%x) : (tensor<4xf64>) -> tensor<4xf64>
  %1 = call @poly.step(%0) : (tensor<4xf64>) -> tensor<4xf64>
  return %0, %1 : tensor<4xf64>, tensor<4xf64>
}
func.func @poly.step(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = stablehlo.multiply %x, %x : tensor<4xf64>
  %1 = stablehlo.subtract %0, %x : tensor<4xf64>
  return %1 : tensor<4xf64>
}
"""


def test_calls_to_public_functions_stay_calls():
    """Public callees are not inlined: each is one Relax function, called
    where the program calls it (a name with a dot included)."""
    import stablehlo_tvm

    irmodule = stablehlo_tvm.import_stablehlo(CALLS_PUBLIC_HELPER)
    assert {g.name_hint for g in irmodule.get_global_vars()} == {"main", "twice", "poly_step"}
    assert "poly_step(" in irmodule["twice"].script()
    (x,) = random_args([((4,), "float64")], seed=8)
    compiled = stablehlo_tvm.build(irmodule)

    def step(v):
        return v * v - v

    want = jax.jit(lambda v: (step(step(v)), step(step(step(v)))))(x)
    for got, expected in zip(compiled(x), want):
        np.testing.assert_allclose(got, np.asarray(expected), rtol=1e-12)
    # Called by its MLIR name, the dotted callee runs on its own too.
    np.testing.assert_allclose(compiled.call("poly.step", x), np.asarray(jax.jit(step)(x)), rtol=1e-12)


SCAN = """
func.func @main(%x: tensor<3x5xf32>, %init: tensor<3xf32>) -> (tensor<3x5xf32>, tensor<3x5xf32>, tensor<3xf32>) {
  %0:3 = chlo.scan(%x) inits(%init) dimension = 1 attributes {is_reverse = REVERSE} {
  ^bb0(%e: tensor<3xf32>, %acc: tensor<3xf32>):
    %s = stablehlo.add %e, %acc : tensor<3xf32>
    %m = stablehlo.maximum %e, %acc : tensor<3xf32>
    stablehlo.return %s, %m, %s : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
  } : (tensor<3x5xf32>, tensor<3xf32>) -> (tensor<3x5xf32>, tensor<3x5xf32>, tensor<3xf32>)
  return %0#0, %0#1, %0#2 : tensor<3x5xf32>, tensor<3x5xf32>, tensor<3xf32>
}
"""


@pytest.mark.parametrize("reverse", [False, True])
def test_chlo_scan_with_outputs_and_a_carry(reverse):
    """chlo.scan (JAX writes loops, not scans, so the program is text): the
    reference is the same recurrence with lax.scan under jax.jit."""
    import stablehlo_tvm

    x, init = random_args([((3, 5), "float32"), ((3,), "float32")], seed=11)

    def reference(x, init):
        def step(acc, e):
            s = e + acc
            return s, (s, jnp.maximum(e, acc))

        carry, (sums, maxes) = lax.scan(step, init, x.T, reverse=reverse)
        return sums.T, maxes.T, carry

    got = stablehlo_tvm.build(SCAN.replace("REVERSE", str(reverse).lower()))(x, init)
    for g, w in zip(got, jax.jit(reference)(x, init)):
        np.testing.assert_allclose(g, np.asarray(w), rtol=1e-6, atol=1e-6)


def test_each_iteration_calls_the_body_once():
    # The loop function unrolls iterations under nested Ifs; each body call
    # is bound once and read through its variable (an inline call would run
    # again at every read: 8x slower at 16 iterations per call).
    import stablehlo_tvm
    from stablehlo_tvm.emitter import _ITERATIONS_PER_CALL

    x = np.ones((4,), np.float32)
    mod = stablehlo_tvm.import_stablehlo(jax.jit(lambda x: lax.fori_loop(0, 100, lambda i, v: v * 1.01 + i, x)).lower(x))
    (loop,) = [f for g, f in mod.functions_items() if g.name_hint.endswith("_loop")]
    assert loop.script().count("_body(") == _ITERATIONS_PER_CALL
    assert tvm.relax.analysis.check_well_formed(mod)


def test_carried_arrays_are_updated_in_place_on_copies():
    # A scan's stacked output is written one row per iteration in place
    # (stablehlo-update-loop-slices-in-place); the loop starts from copies,
    # so neither the caller's array nor a constant initial value changes,
    # and calling again gives the same result. (Loops of more than 8 trips:
    # shorter ones are unrolled.)
    import stablehlo_tvm

    x = np.arange(48, dtype=np.float32).reshape(12, 4)

    def f(x):
        stacked = lax.scan(lambda h, row: (h + row, h * row), jnp.ones(4, jnp.float32), x)[1]
        row = lambda i: jnp.full((1, 4), i, jnp.float32)  # noqa: E731
        rewritten = lax.fori_loop(0, 12, lambda i, a: lax.dynamic_update_slice(a, row(i), (i, 0)), x)
        # Read by what makes the update: the read runs first, in place too.
        read = lax.fori_loop(0, 12, lambda i, a: lax.dynamic_update_slice(a, row(i) + a[i], (i, 0)), x)
        # Read by something the update does not wait for: not in place.
        def read_apart(i, c):
            a, total = c
            return lax.dynamic_update_slice(a, row(i), (i, 0)), total + a[(i + 1) % 12]

        apart = lax.fori_loop(0, 12, read_apart, (x, jnp.zeros(4, jnp.float32)))
        return stacked, rewritten, read, *apart

    lowered = jax.jit(f).lower(x)
    assert stablehlo_tvm.import_stablehlo(lowered).script().count("call_tir_inplace") == 3
    compiled = stablehlo_tvm.build(lowered)
    keep = x.copy()
    first = compiled(x)
    second = compiled(x)
    np.testing.assert_array_equal(x, keep)
    for a, b, want in zip(first, second, jax.jit(f)(x)):
        np.testing.assert_allclose(a, np.asarray(want), rtol=1e-6)
        np.testing.assert_array_equal(a, b)


def test_carried_arrays_scattered_into_are_updated_in_place_on_copies():
    # x.at[i].set / .add in a loop are single-input scatters of the carried
    # array: in place (a kernel writing the operand's buffer), on copies.
    import stablehlo_tvm

    x = np.arange(40, dtype=np.float32)
    idx = np.array([3, 3, 39, 0, 17], np.int32)

    def f(x, idx):
        written = lax.fori_loop(0, 40, lambda i, a: a.at[(i * 7) % 40].set(i.astype(jnp.float32)), x)
        added = lax.fori_loop(0, 10, lambda i, a: a.at[idx].add(1.0 + i), x)
        # Read by what makes the update: the read runs first, in place too.
        read = lax.fori_loop(0, 10, lambda i, a: a.at[idx].add(a[0]), x)
        # Read by something the update does not wait for: not in place.
        apart = lax.fori_loop(0, 10, lambda i, c: (c[0].at[idx].add(1.0), c[1] + c[0][idx]), (x, jnp.zeros(5, jnp.float32)))
        return written, added, read, *apart

    lowered = jax.jit(f).lower(x, idx)
    assert stablehlo_tvm.import_stablehlo(lowered).script().count("call_tir_inplace") == 3
    compiled = stablehlo_tvm.build(lowered)
    keep = x.copy()
    first = compiled(x, idx)
    second = compiled(x, idx)
    np.testing.assert_array_equal(x, keep)
    for a, b, want in zip(first, second, jax.jit(f)(x, idx)):
        np.testing.assert_array_equal(a, np.asarray(want))
        np.testing.assert_array_equal(a, b)


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads through /proc")
def test_calls_of_a_loop_start_no_threads():
    # Loops run on a thread with a deep stack; one for all calls, since each
    # new thread would start a TVM thread pool of its own that never exits.
    x, w = random_args([((4, 32, 256), "float32"), ((256, 256), "float32")])

    def rnn(x, w):
        return lax.scan(lambda h, xt: (jnp.tanh(xt + h @ w * 0.1), h), jnp.zeros((32, 256), jnp.float32), x)[1]

    compiled = stablehlo_tvm.build(jax.jit(rnn).lower(x, w))
    want = np.asarray(jax.jit(rnn)(x, w))
    compiled(x, w)
    threads = len(os.listdir("/proc/self/task"))
    for _ in range(5):
        np.testing.assert_allclose(compiled(x, w), want, rtol=1e-5, atol=1e-5)
    assert len(os.listdir("/proc/self/task")) == threads
