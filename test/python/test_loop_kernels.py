"""Loops as one PrimFunc (cpu/loops.py) and small parallel loops made serial
(cpu/grain.py): which loops become kernels, and that they compute what
jax.jit does, in the cases where the copies in and out of the carried
buffers could go wrong."""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import tvm
import tvm_ffi
from jax import lax
from tvm import relax
from tvm.script import tirx as T

import stablehlo_tvm
from conftest import assert_matches_jax, random_args
from stablehlo_tvm.cpu import resolve_target
from stablehlo_tvm.cpu.grain import SerialSmallParallelLoops
from stablehlo_tvm.cpu.rule import PARALLEL_GRAIN
from stablehlo_tvm.cpu.pipeline import cpu_pipeline


def _lowered(fn, *args) -> tuple[tvm.IRModule, dict]:
    """The module after the CPU pipeline, and the pipeline's outcome."""
    target = resolve_target(None)
    outcome: dict = {}
    with target:
        mod = cpu_pipeline(target, outcome=outcome)(stablehlo_tvm.import_stablehlo(jax.jit(fn).lower(*args)))
    return mod, outcome


def _kernels(mod) -> list[str]:
    # `<loop>_loop_kernel`, or `<loop>_loop_kernel1` once outputs no caller
    # reads were allocated inside it (cpu/unused_outputs.py).
    return sorted(gv.name_hint for gv, f in mod.functions.items() if re.search(r"_loop_kernel\d*$", gv.name_hint))


def test_a_fori_loop_is_one_primfunc_with_a_while():
    def f(x):
        return lax.fori_loop(0, 50, lambda i, c: c * 0.9 + jnp.sin(c) * 0.1 + i, x)

    (x,) = random_args([((8,), "float32")])
    mod, outcome = _lowered(f, x)
    assert outcome["loops_left"] == {}
    (kernel,) = _kernels(mod)
    assert "while " in mod[kernel].script()
    assert_matches_jax(f, x)


def test_what_every_iteration_shares_is_computed_before_the_loop():
    """A decoding loop closes over weights (JAX carries them unchanged):
    the transpose of an embedding and a layer's slice of stacked weights
    are computed once before the loop (stablehlo-hoist-loop-invariants),
    not copied in every iteration of the loop kernel."""

    def f(emb, layers, x):
        def body(i, v):
            w = layers[1]
            return jnp.tanh(v @ w) @ emb.T @ emb * 0.01 + i

        return lax.fori_loop(0, 12, body, x)

    emb, layers, x = random_args([((48, 32), "float32"), ((2, 32, 32), "float32"), ((32,), "float32")])
    mod, outcome = _lowered(f, emb, layers, x)
    assert outcome["loops_left"] == {}
    (loop,) = [f.script() for f in mod.functions.values() if isinstance(f, tvm.tirx.PrimFunc) and "while " in f.script()]
    before, body = loop[: loop.index("while ")], loop[loop.index("while ") :]
    assert "T_transpose" in before and "strided_slice" in before
    assert "T_transpose" not in body and "strided_slice" not in body, body
    assert_matches_jax(f, emb, layers, x, rtol=1e-5, atol=1e-5)


def test_a_loop_of_heavy_kernels_stays_in_the_vm_and_a_light_one_does_not():
    """Kernels that store ~260,000 elements a call gain nothing from one
    PrimFunc (dispatch is noise beside them); the same body on 64 elements
    is a loop kernel."""

    def f(x):
        return lax.fori_loop(0, 12, lambda i, c: jnp.sin(c) * 0.5 + jnp.cos(c[::-1]) * 0.25, x)

    (big,) = random_args([((512, 512), "float32")])
    mod, outcome = _lowered(f, big)
    ((loop, reason),) = outcome["loops_left"].items()
    assert "a call on average" in reason
    assert _kernels(mod) == []
    assert_matches_jax(f, big)
    (small,) = random_args([((8, 8), "float32")])
    mod, outcome = _lowered(f, small)
    assert outcome["loops_left"] == {}
    assert len(_kernels(mod)) == 1


def test_executed_stores_counts_each_store_once_per_iteration():
    from stablehlo_tvm.cpu.tir_walk import executed_stores

    @T.prim_func
    def kernel(a: T.Buffer((4, 8), "float32"), b: T.Buffer((8,), "float32")):
        for i, j in T.grid(4, 8):
            a[i, j] = T.float32(0)
        for j in range(8):
            if j < 4:
                b[j] = T.float32(1)
            else:
                b[j] = T.float32(2)
                b[j] = b[j] + T.float32(1)

    assert executed_stores(kernel) == 4 * 8 + 8 * 2


def test_executed_stores_counts_a_reduction_once_per_element_it_writes():
    from stablehlo_tvm.cpu.tir_walk import executed_stores

    @T.prim_func(s_tir=True)
    def matmul(a: T.Buffer((16, 64), "float32"), b: T.Buffer((64, 32), "float32"), c: T.Buffer((16, 32), "float32")):
        for i, j, k in T.grid(16, 32, 64):
            with T.sblock("c"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    c[vi, vj] = T.float32(0)
                c[vi, vj] = c[vi, vj] + a[vi, vk] * b[vk, vj]

    # the update once per element, the init once per element
    assert executed_stores(matmul) == 2 * 16 * 32


def test_a_recurrent_loop_of_small_matmuls_is_one_kernel():
    """An LSTM step's two 16 x 64 x 256 products: 260,000 multiply-adds an
    iteration but 8K elements written, so dispatch matters and the loop is
    one PrimFunc."""

    def f(xs, w, u, b):
        def step(carry, x):
            h, c = carry
            z = x @ w + h @ u + b
            i, g, o, forget = jnp.split(z, 4, axis=-1)
            c = jax.nn.sigmoid(forget) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            h = jax.nn.sigmoid(o) * jnp.tanh(c)
            return (h, c), h

        zeros = jnp.zeros((16, 64), jnp.float32)
        return lax.scan(step, (zeros, zeros), xs)[1]

    xs, w, u, b = random_args([((40, 16, 64), "float32"), ((64, 256), "float32"), ((64, 256), "float32"), ((256,), "float32")])
    args = xs, w / 8, u / 8, b  # weights scaled as initializers do: 40 steps stay out of saturation
    mod, outcome = _lowered(f, *args)
    assert outcome["loops_left"] == {}, outcome["loops_left"]
    assert len(_kernels(mod)) == 1
    assert_matches_jax(f, *args)


def test_nested_loops_and_branches_become_one_kernel():
    def f(x):
        def outer(i, c):
            inner = lax.fori_loop(0, 9, lambda j, d: d + jnp.cos(d) * j, c)
            return lax.cond(i % 2 == 0, lambda: inner * 0.5, lambda: inner - 1.0)

        return lax.fori_loop(0, 9, outer, x)

    (x,) = random_args([((5,), "float64")])
    mod, outcome = _lowered(f, x)
    assert outcome["loops_left"] == {}
    (kernel,) = _kernels(mod)  # the outer loop's, with the inner one inlined
    assert mod[kernel].script().count("while ") == 2
    assert_matches_jax(f, x)


def test_carried_values_that_swap_places():
    # Each iteration's results read the other carried value: copied back
    # through a temporary, not over a value still to be read.
    def f(a, b):
        return lax.fori_loop(0, 10, lambda i, c: (c[1], c[0] * 2.0 + 1.0, c[1]), (a, b, a))

    a, b = random_args([((4,), "float32"), ((4,), "float32")])
    assert_matches_jax(f, a, b)


def test_a_loop_that_never_runs_returns_its_inputs():
    def f(x, n):
        return lax.while_loop(lambda c: c[1] < n, lambda c: (c[0] * 3.0, c[1] + 1), (x, 0))

    (x,) = random_args([((3, 2), "float32")])
    for n in (0, 4):
        assert_matches_jax(f, x, np.int32(n))


def test_a_data_dependent_while_loop():
    def newton_sqrt(a):
        def body(state):
            x, _ = state
            nxt = 0.5 * (x + a / x)
            return nxt, jnp.max(jnp.abs(nxt - x))

        return lax.while_loop(lambda s: s[1] > 1e-12, body, (a, jnp.array(1.0, a.dtype)))[0]

    a = np.abs(random_args([((16,), "float64")])[0]) + 0.5
    assert_matches_jax(newton_sqrt, a, rtol=1e-12)


def test_a_scan_writing_its_stacked_output_in_place_runs_as_a_kernel():
    def f(xs, h):
        return lax.scan(lambda h, x: (jnp.tanh(h + x), h * 2.0), h, xs)

    xs, h = random_args([((20, 6), "float32"), ((6,), "float32")])
    mod, outcome = _lowered(f, xs, h)
    assert outcome["loops_left"] == {}
    compiled = stablehlo_tvm.build(jax.jit(f).lower(xs, h))
    first, second = compiled(xs, h), compiled(xs, h)  # the loop starts from copies each call
    for got, again, want in zip(first, second, jax.jit(f)(xs, h)):
        np.testing.assert_allclose(got, np.asarray(want), rtol=1e-5, atol=1e-6)
        np.testing.assert_array_equal(got, again)


def test_a_loop_that_stays_recursive_says_why():
    from stablehlo_tvm.cpu.loops import loops_as_kernels

    def f(x):
        return lax.fori_loop(0, 10, lambda i, c: c + 1.0, x)

    (x,) = random_args([((3,), "float32")])
    mod = stablehlo_tvm.import_stablehlo(jax.jit(f).lower(x))
    # Before fusion the body calls Relax operators, not kernels.
    _, left = loops_as_kernels(mod)
    assert list(left) == ["while1_loop"] and left["while1_loop"] == "a call of relax.less"


def _parallel_copy(n: int):
    @T.prim_func(private=True, s_tir=True)
    def copy(a: T.Buffer((n, 4), "float32"), b: T.Buffer((n, 4), "float32")):
        for i in T.parallel(n):
            for j in range(4):
                b[i, j] = a[i, j]

    return copy


def _kinds(func) -> list:
    found = []
    tvm_ffi = __import__("tvm_ffi")
    tvm_ffi.structural_map(func.body, [(tvm.tirx.For, lambda loop: found.append(loop.kind) or loop)])
    return found


def test_small_parallel_loops_run_serially_and_large_ones_stay_parallel():
    mod = tvm.IRModule({"small": _parallel_copy(7), "large": _parallel_copy(PARALLEL_GRAIN // 4)})
    mod = SerialSmallParallelLoops(mod)
    assert tvm.tirx.ForKind.PARALLEL not in _kinds(mod["small"])
    assert tvm.tirx.ForKind.PARALLEL in _kinds(mod["large"])


def _copy_in_a_loop_and_after_it(rows: int):
    @T.prim_func(private=True, s_tir=True)
    def copies(a: T.Buffer((rows, 512), "float32"), b: T.Buffer((rows, 512), "float32"), c: T.Buffer((1,), "int32")):
        while c[0] < 10:
            for i in T.parallel(rows):
                for j in range(512):
                    b[i, j] = a[i, j] + b[i, j]
            c[0] = c[0] + 1
        for i in T.parallel(rows):
            for j in range(512):
                b[i, j] = a[i, j]

    return copies


def test_a_loop_kernel_shares_an_iteration_only_when_it_is_large():
    # 64 x 512 is PARALLEL_GRAIN's worth: shared after the loop, but inside
    # the While it would wake the pool every iteration for as much work.
    from stablehlo_tvm.cpu.grain import LOOP_PARALLEL_GRAIN

    rows = PARALLEL_GRAIN // 512 * 2
    assert rows * 512 < LOOP_PARALLEL_GRAIN
    func = SerialSmallParallelLoops(tvm.IRModule({"f": _copy_in_a_loop_and_after_it(rows)}))["f"]
    loop, after = func.body.seq if isinstance(func.body, tvm.tirx.SeqStmt) else func.body.block.body.seq
    assert tvm.tirx.ForKind.PARALLEL not in _kinds(tvm.tirx.PrimFunc([], loop))
    assert tvm.tirx.ForKind.PARALLEL in _kinds(tvm.tirx.PrimFunc([], after))
    big = SerialSmallParallelLoops(tvm.IRModule({"f": _copy_in_a_loop_and_after_it(LOOP_PARALLEL_GRAIN // 512)}))["f"]
    assert _kinds(big).count(tvm.tirx.ForKind.PARALLEL) == 2


def _called_by_main(mod) -> list[str]:
    """The PrimFuncs main calls, once per call."""
    text = mod["main"].script()
    names = [gv.name_hint for gv, f in mod.functions.items() if isinstance(f, tvm.tirx.PrimFunc)]
    return [name for name in names for _ in re.finditer(rf"\b{name}\(", text)]


def test_small_kernels_run_as_one_sequence():
    # A softmax, a normalization and a branch on scalars: several kernels
    # (reductions do not fuse with what reads them), one call.
    def f(x, t):
        p = jax.nn.softmax(x)
        z = (x - x.mean()) / (x.std() + 1e-6)
        w = lax.cond(t > 0, lambda: p * t, lambda: z - t)
        return w, x, jnp.cumsum(z)

    x, t = random_args([((64,), "float32"), ((), "float32")])
    mod, _ = _lowered(f, x, t)
    (called,) = _called_by_main(mod)
    assert called.startswith("main_sequence")
    for sign in (1.0, -1.0):
        assert_matches_jax(f, x, np.float32(sign * abs(t)), rtol=1e-5, atol=1e-5)


def test_a_sequence_writes_its_small_constants_instead_of_taking_them():
    # Each parameter is an argument the VM passes at every call: constants
    # of a few elements are stored into the kernel's own buffers at its
    # start (as stores, not immediates the simplifier would fold), with
    # their values exact: -0.0 keeps its sign, NaN stays a parameter.
    def f(x, t):
        a = jnp.where(x > 0.5, x * 3.0, -0.0)
        b = jnp.sum(a) * t + jnp.array([1.0, 2.0, 3.0], jnp.float32)
        return a, b, jnp.int32(7) * jnp.argmax(b) - 1

    def g(x, t):
        a, b, i = f(x, t)
        return a, jnp.where(b > 1e6, jnp.nan, b), i

    x, t = random_args([((8,), "float32"), ((), "float32")])
    mod, _ = _lowered(f, x, t)
    (called,) = _called_by_main(mod)
    params = [p.name for p in mod[called].params]
    assert not [p for p in params if p.startswith("const")], params
    got = stablehlo_tvm.jit(f)(x, t)
    assert np.all(np.signbit(got[0]) == np.signbit(jax.jit(f)(x, t)[0]))
    assert_matches_jax(f, x, t)
    assert_matches_jax(g, x, t)
    assert_matches_jax(g, x, np.float32(1e7))  # the NaN branch


def test_kernels_with_large_results_stay_calls_of_their_own():
    from stablehlo_tvm.cpu.sequences import SMALL_ELEMENTS

    def f(x):
        return jnp.sin(x) * x.std()

    (x,) = random_args([((SMALL_ELEMENTS * 2,), "float32")])
    mod, _ = _lowered(f, x)
    called = _called_by_main(mod)
    # The reductions to a scalar may share a sequence; the product does not.
    assert len(called) >= 2 and any(not name.startswith("main_sequence") for name in called)
    assert_matches_jax(f, x, rtol=1e-5, atol=1e-6)


def test_a_kernel_given_one_value_twice_keeps_nan_and_infinity():
    # Inlined with both parameters the same buffer, x == x and x - x would
    # be folded to true and 0 by TVM's simplifier.
    def f(x):
        return x == x, x - x, jnp.cumsum(x) * 0.0

    x = np.array([np.nan, np.inf, -np.inf, 1.0], np.float32)
    assert_matches_jax(f, x)


def test_lapack_calls_chained_inside_a_loop_and_a_sequence():
    # geqrf's factor goes to orgqr by address only: it must keep its size.
    def f(a):
        step = lambda i, m: jnp.linalg.qr(m)[0] @ m + 0.1 * i  # noqa: E731
        q, r = jnp.linalg.qr(a)
        return lax.fori_loop(0, 3, step, a), q, r

    (a,) = random_args([((2, 4, 4), "float64")])
    assert_matches_jax(f, a, rtol=1e-9, atol=1e-9)


def test_carried_values_the_caller_never_reads_are_allocated_by_the_kernel():
    # A loop carrying values of which the caller reads one (the import
    # drops the three the result does not depend on; the counter and four
    # others remain): the others become buffers of the kernel's root block,
    # not outputs the VM allocates on every call (cpu/unused_outputs.py).
    # The values are larger than a sequence takes in, so the loop stays a
    # call of its own.
    def f(x):
        def body(i, c):
            a, b, d, e, g, h, k, m = c
            return (a * 0.5 + b, b + d * 0.1, d - e, e * 0.9, g + a, h * k, k + 1.0, m + a.sum())

        carried = (x, x + 1, x * 2, x - 1, x * 0.5, x + 3, x * 0.1, x.sum())
        return lax.fori_loop(0, 10, body, carried)[4]

    (x,) = random_args([((160, 128), "float32")])
    mod, outcome = _lowered(f, x)
    assert outcome["loops_left"] == {}
    (kernel,) = _kernels(mod)
    func = mod[kernel]
    carried_inside = [b for b in func.body.block.alloc_buffers if str(b.name).startswith("carried")]
    carried_outputs = [p for p in func.params if str(p.name).startswith("carried")]
    initial = [p for p in func.params if str(p.name).startswith("init")]
    # The values that start from tensors made for the loop live in those
    # (cpu/loops.py), the one the caller reads among them; the counter and
    # the value starting from the argument x are copied in, and as nobody
    # reads them, into buffers of the kernel: the VM allocates no output.
    assert carried_outputs == [] and len(carried_inside) == 2 and len(initial) >= 6
    assert_matches_jax(f, x)


def test_a_loop_carries_large_values_in_the_tensors_made_for_it():
    # A scan's stacked outputs start as zeros the size of the sequence:
    # carried in those zeros' own buffer, not copied in at every call. A
    # value read again after the loop (z) or an argument (x) is copied.
    def f(x, y):
        zeros = jnp.zeros((64, 512), jnp.float32) + y[0, 0]
        z = jnp.ones((64, 512), jnp.float32) * y[1, 1]

        def body(i, c):
            a, b, w = c
            return a.at[i].set(x[i] * i), b.at[i].add(a[i]), w * 0.5 + a

        a, b, w = lax.fori_loop(0, 64, body, (zeros, z, x))
        return a, b, w, z.sum()

    x, y = random_args([((64, 512), "float32"), ((4, 4), "float32")])
    mod, outcome = _lowered(f, x, y)
    assert outcome["loops_left"] == {}
    (kernel,) = _kernels(mod)
    large = [str(p.name) for p in mod[kernel].params if [int(d) for d in p.shape] == [64, 512]]
    # zeros, z (through a copy of its own: it is read again), x as w's start
    # and x as the closed-over value: only w, which starts from the
    # argument and changes, gets an output buffer of its own to copy into.
    assert sorted(n.rstrip("0123456789") for n in large) == ["carried", "init", "init", "init", "init"], large
    assert_matches_jax(f, x, y)


def test_outputs_the_caller_returns_stay_outputs():
    # The loop's two values returned as they are stay outputs: the one
    # starting from the argument x is copied into an output, x * 2 is
    # carried in its own tensor (a call_tir_inplace output); only the
    # counter, which nobody reads, is the kernel's own.
    def f(x):
        return lax.fori_loop(0, 10, lambda i, c: (c[0] * 0.5 + c[1], c[1] - 0.1 * c[0]), (x, x * 2))

    (x,) = random_args([((160, 128), "float32")])
    mod, _ = _lowered(f, x)
    (kernel,) = _kernels(mod)
    func = mod[kernel]
    assert len([b for b in func.body.block.alloc_buffers if str(b.name).startswith("carried")]) == 1
    assert len([p for p in func.params if str(p.name).startswith("carried")]) == 1
    assert_matches_jax(f, x)


def _stablehlo_loops(fn, *args) -> int:
    return str(stablehlo_tvm.import_to_tvm_dialect(jax.jit(fn).lower(*args))).count("tvm.while")


@pytest.mark.parametrize(
    "start, stop, step",
    [(0, 5, 1), (3, 11, 2), (-4, 4, 3), (0, 0, 1), (7, 2, 1), (0, 8, 1)],
)
def test_counted_loops_of_few_trips_run_unrolled(start, stop, step):
    """A fori_loop of at most 8 trips is its body once per trip, the index a
    constant in each (stablehlo-unroll-short-loops); nine trips keep the loop."""

    def f(x, m):
        def body(i, c):
            x, acc = c
            x = jnp.tanh(x @ m) + i.astype(x.dtype)
            return x, acc ^ (i * 2654435761 % 1024).astype(jnp.int32)

        return lax.fori_loop(start, stop, body, (x, jnp.int32(0))) if step == 1 else lax.fori_loop(
            0, len(range(start, stop, step)), lambda k, c: body(start + k * step, c), (x, jnp.int32(0))
        )

    x, m = random_args([((4, 8), "float32"), ((8, 8), "float32")])
    assert _stablehlo_loops(f, x, m) == 0
    assert_matches_jax(f, x, m)

    def nine(x, m):
        return lax.fori_loop(0, 9, lambda i, x: jnp.tanh(x @ m), x)

    assert _stablehlo_loops(nine, x, m) == 1
    assert_matches_jax(nine, x, m)


def test_shifts_by_constants_in_and_out_of_range_match_jax():
    def f(x, y):
        return (
            x << jnp.uint32(13),
            x >> jnp.uint32(31),
            x << jnp.uint32(32),
            x >> jnp.array([0, 1, 33, 7], jnp.uint32),
            y >> jnp.int32(5),
            lax.shift_right_logical(y, jnp.int32(28)),
            lax.shift_right_arithmetic(y, jnp.int32(40)),
        )

    x = np.array([1, 0x80000001, 0xFFFFFFFF, 12345], np.uint32)
    y = np.array([-1, -2**31, 2**31 - 1, 99], np.int32)
    assert_matches_jax(f, x, y)


def test_an_unrolled_loop_returns_its_final_counter():
    # lax.while_loop with the counter among its results: after unrolling,
    # the counter's last step is what the loop returned.
    def f(x):
        def cond(c):
            return c[0] < 7

        def body(c):
            i, v = c
            return i + 3, v * 1.5 + i.astype(v.dtype)

        return lax.while_loop(cond, body, (jnp.int32(-2), x))

    (x,) = random_args([((6,), "float32")])
    assert _stablehlo_loops(f, x) == 0
    assert_matches_jax(f, x)


def test_a_reshape_is_no_tensor_of_its_own_to_carry_in():
    # A kernel that only reshapes becomes a view of its operand
    # (RewriteDataflowReshape, after the loops): a loop must not carry a
    # value in place of one, or it would write its operand.
    from tvm import te, topi

    from stablehlo_tvm.cpu.bindings import var_bindings
    from stablehlo_tvm.cpu.loops import _makes_a_tensor

    builder = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorType((4, 8), "float32"))
    with builder.function("main", [x]):
        with builder.dataflow():
            reshaped = builder.emit_te(topi.reshape, x, (8, 4))
            computed = builder.emit_te(topi.exp, x)
            result = builder.emit_output(relax.Tuple([reshaped, computed]))
        builder.emit_func_output(result)
    mod = builder.get()
    made = {b.var: b.value for b in var_bindings(mod["main"].body)}
    assert not _makes_a_tensor(mod, made[reshaped])
    assert _makes_a_tensor(mod, made[computed])
    assert not _makes_a_tensor(mod, made[result])


@T.prim_func(s_tir=True)
def _row_stage(a: T.Buffer((16, 64), "float32"), b: T.Buffer((16, 64), "float32")):
    T.func_attr({"tirx.noalias": True})
    doubled = T.sblock_alloc_buffer((16, 64))
    for i in range(16):
        for j in range(64):
            with T.sblock("doubled"):
                vi, vj = T.axis.remap("SS", [i, j])
                doubled[vi, vj] = a[vi, vj] * T.float32(2)
        for j in range(64):
            with T.sblock("b"):
                vi, vj = T.axis.remap("SS", [i, j])
                b[vi, vj] = doubled[vi, vj] + T.float32(1)


def _allocated_shapes(func) -> list:
    from tvm import s_tir

    shapes: list = []
    tvm_ffi.structural_walk(func.body, [(s_tir.SBlock, lambda block: shapes.extend([int(d) for d in b.shape] for b in block.alloc_buffers))])
    return shapes


def test_kernels_are_compacted_before_they_are_inlined():
    # The CPU lowering leaves CompactBufferAllocation out for the PrimFuncs
    # relax_to_tir builds, so a stage computed at a loop of a kernel they
    # inline is compacted when inlined: one row here, not the tensor.
    from stablehlo_tvm.cpu.relax_to_tir import STATEMENTS_ATTRIBUTE, compacted

    assert _allocated_shapes(_row_stage) == [[16, 64]]
    assert _allocated_shapes(compacted(_row_stage)) == [[1, 64]]
    statements = _row_stage.with_attr(STATEMENTS_ATTRIBUTE, True)
    assert compacted(statements).same_as(statements)
    # What the lowering then compiles computes the same.
    lib = tvm.tirx.build(tvm.IRModule({"main": compacted(_row_stage)}), target="llvm")
    a = np.arange(16 * 64, dtype=np.float32).reshape(16, 64)
    b = tvm.runtime.tensor(np.zeros((16, 64), np.float32))
    lib["main"](tvm.runtime.tensor(a), b)
    np.testing.assert_array_equal(b.numpy(), a * 2 + 1)


def test_the_lowering_compacts_every_primfunc_but_those_built_from_statements():
    from stablehlo_tvm.cpu.fastmath import _CompactedUnlessStatements
    from stablehlo_tvm.cpu.relax_to_tir import STATEMENTS_ATTRIBUTE, block_planning

    mod = tvm.IRModule(
        {
            "plain": _row_stage.with_attr("global_symbol", "plain"),
            "statements": _row_stage.with_attrs({"global_symbol": "statements", STATEMENTS_ATTRIBUTE: True}),
        }
    )
    planned = tvm.transform.Sequential(block_planning())(mod)
    shapes = {gvar.name_hint: _allocated_shapes(func) for gvar, func in _CompactedUnlessStatements()(planned).functions_items()}
    assert shapes == {"plain": [[1, 64]], "statements": [[16, 64]]}
