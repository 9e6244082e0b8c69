"""Python callbacks inside compiled programs: jax.pure_callback (and what
is built on it, such as equinox's run-time checks) calls the Python function
from TVM's code, with its exceptions raised at the call."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import stablehlo_tvm
from stablehlo_tvm import EmitError


def host_sin_cos(x):
    return np.sin(x), np.cos(x).astype(np.float32)


def program(x):
    shapes = (jax.ShapeDtypeStruct(x.shape, x.dtype), jax.ShapeDtypeStruct(x.shape, jnp.float32))
    s, c = jax.pure_callback(host_sin_cos, shapes, x)
    return s * 2 + c, jnp.sum(s)


def test_pure_callback_results_match_jax():
    x = np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4)
    got, want = stablehlo_tvm.jit(program)(x), jax.jit(program)(x)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)


def test_a_callback_inside_a_loop_runs_every_iteration():
    calls = []

    def record(i):
        calls.append(int(i))
        return np.float32(i) * 2

    def loop(x):
        def body(i, total):
            return total + jax.pure_callback(record, jax.ShapeDtypeStruct((), jnp.float32), i)

        return jax.lax.fori_loop(0, 5, body, x)

    assert float(stablehlo_tvm.jit(loop)(np.float32(1))) == 21.0
    assert calls == [0, 1, 2, 3, 4]


def test_an_exception_in_the_callback_reaches_the_caller():
    def check(x):
        if np.any(x < 0):
            raise ValueError("negative input")
        return x

    def guarded(x):
        return jax.pure_callback(check, jax.ShapeDtypeStruct(x.shape, x.dtype), x) + 1

    fast = stablehlo_tvm.jit(guarded)
    np.testing.assert_array_equal(fast(np.ones(3, np.float32)), np.full(3, 2, np.float32))
    with pytest.raises(Exception, match="negative input"):
        fast(-np.ones(3, np.float32))


def test_module_text_without_its_callbacks_is_a_clear_error():
    # The text names callback 0; the function itself lives in the process
    # that lowered it.
    lowered = jax.jit(program).lower(np.ones(3, np.float32))
    text = lowered.compiler_ir("stablehlo").operation.get_asm(print_generic_op_form=True)
    with pytest.raises(EmitError, match="calls back into Python"):
        stablehlo_tvm.import_stablehlo(text)


def test_printed_lowering_with_shardy_mesh_parses():
    # `Lowered.as_text()` spells the host callback's Shardy mesh in the sdy
    # dialect's own assembly: read, it is the same clear error, not a parse
    # failure about an unknown dialect.
    text = jax.jit(program).lower(np.ones(3, np.float32)).as_text()
    assert "sdy.mesh @" in text
    with pytest.raises(EmitError, match="calls back into Python"):
        stablehlo_tvm.import_stablehlo(text)


@pytest.mark.parametrize("xp", [np, jnp], ids=["numpy", "jax"])
def test_a_callback_that_calls_its_own_function_again(xp):
    # Small numpy arguments are copied into tensors reused by every call,
    # and a call with the same jax arrays as the last reuses its tensors; a
    # call made from inside a call (here through the callback) must not
    # overwrite the outer call's arguments, which are read after it, nor run
    # on the VM the outer call is running on.
    nested = []

    def host(v):
        if not nested:
            nested.append(True)
            np.testing.assert_array_equal(fast(xp.full(3, 7, xp.float32)), np.full(3, 14, np.float32))
            nested.pop()
        return v

    def program(x):
        y = jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x)
        return y + x

    fast = stablehlo_tvm.jit(program)
    x = xp.array([1, 2, 3], xp.float32)
    for _ in range(2):  # the second call repeats the first's arguments
        np.testing.assert_array_equal(fast(x), np.array([2, 4, 6], np.float32))


def test_debug_print_and_callback_run(capsys):
    # Callbacks without results (jax.debug.print, jax.debug.callback) in
    # the function's body run with the program's values; their tokens
    # (stablehlo-expose-effects) are not among the results.
    seen = []

    def program(x):
        jax.debug.print("sum {s}", s=jnp.sum(x))
        y = x * 2
        jax.debug.callback(lambda v: seen.append(float(v)), y[1])
        return y

    out = stablehlo_tvm.jit(program)(np.arange(3, dtype=np.float32))
    np.testing.assert_array_equal(out, np.arange(3, dtype=np.float32) * 2)
    assert "sum 3.0" in capsys.readouterr().out
    assert seen == [2.0]


def test_debug_print_inside_a_short_loop_prints_every_trip(capsys):
    # A counted loop of up to 8 trips is unrolled before effects are
    # exposed: its prints are prints of the function's body, in order.
    def program(x):
        return jax.lax.fori_loop(0, 3, lambda i, v: (jax.debug.print("i {i}", i=i), v + 1)[1], x)

    assert float(stablehlo_tvm.jit(program)(np.float32(2))) == 5.0
    assert capsys.readouterr().out.split() == ["i", "0", "i", "1", "i", "2"]


def test_debug_print_inside_a_loop_is_reported_with_its_reason():
    def program(x):
        return jax.lax.fori_loop(0, 9, lambda i, v: (jax.debug.print("i {i}", i=i), v + 1)[1], x)

    with pytest.raises(stablehlo_tvm.MLIRError, match="a callback without results, such as jax.debug.print, inside a loop"):
        stablehlo_tvm.jit(program)(np.float32(2))
