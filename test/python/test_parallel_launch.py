"""The package's parallel-loop launcher (python/ParallelLaunch.cpp): compiled
libraries launch their parallel loops through it, every chunk of a loop runs
once whatever its extent, and it serves several calling threads, one thread,
or, when asked, gives way to TVM's own launcher."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import stablehlo_tvm
from stablehlo_tvm import _core


def _layer(x, w):
    return jnp.tanh(x @ w) * 2.0 + 1.0


def _args():
    rng = np.random.default_rng(0)
    return rng.standard_normal((256, 256)).astype(np.float32), rng.standard_normal((256, 256)).astype(np.float32)


def test_compiled_parallel_loops_run_on_the_package_launcher():
    x, w = _args()
    f = stablehlo_tvm.jit(_layer)
    f(x, w)  # built, first run
    before = _core.parallel_launches()
    got = f(x, w)
    assert _core.parallel_launches() > before
    np.testing.assert_allclose(got, jax.jit(_layer)(x, w), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("extent", [1, 3, 7, 8, 9, 1000, 4099])
def test_every_chunk_of_a_parallel_loop_runs_once(extent):
    import tvm
    from tvm import te

    from stablehlo_tvm.cpu.codegen import compile_primfuncs
    from stablehlo_tvm.cpu.target import host_target

    a = te.placeholder((extent, 16), "float32", "a")
    b = te.compute((extent, 16), lambda i, j: a[i, j] * 2.0 + 1.0, name="b")
    func = te.create_prim_func([a, b]).with_attr("global_symbol", "double_plus_one")
    sch = tvm.s_tir.Schedule(func)
    block = sch.get_sblock("b")
    outer, _ = sch.get_loops(block)
    sch.parallel(outer)
    lib = compile_primfuncs(tvm.IRModule({"double_plus_one": sch.mod["main"]}), host_target())
    x = np.arange(extent * 16, dtype=np.float32).reshape(extent, 16)
    out = tvm.runtime.tensor(np.full((extent, 16), -1, np.float32))
    before = _core.parallel_launches()
    lib["double_plus_one"](tvm.runtime.tensor(x), out)
    # A loop of one iteration is no loop once TVM has simplified it.
    assert _core.parallel_launches() == before + (extent > 1)
    np.testing.assert_array_equal(out.numpy(), x * 2 + 1)


def test_large_fourier_transforms_share_the_same_launcher():
    # The runtime's radix transform splits one this large among threads.
    x = np.random.default_rng(1).standard_normal((512, 512)).astype(np.float32)
    f = stablehlo_tvm.jit(jnp.fft.fft2)
    f(x)
    before = _core.parallel_launches()
    got = f(x)
    assert _core.parallel_launches() > before
    np.testing.assert_allclose(got, jax.jit(jnp.fft.fft2)(x), rtol=1e-3, atol=1e-2)


def test_threads_calling_at_once_each_get_their_results():
    x, w = _args()
    f = stablehlo_tvm.jit(_layer)
    want = np.asarray(jax.jit(_layer)(x, w))
    errors = []
    barrier = threading.Barrier(4)

    def run(k):
        barrier.wait()
        for _ in range(20):
            got = f(x * (k + 1), w)
            if not np.allclose(got, np.asarray(jax.jit(_layer)(x * (k + 1), w)), rtol=1e-4, atol=1e-4):
                errors.append(k)
                return

    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    np.testing.assert_allclose(f(x, w), want, rtol=1e-5, atol=1e-5)


_CHILD = """
import numpy as np, jax, jax.numpy as jnp, stablehlo_tvm
from stablehlo_tvm import _core
rng = np.random.default_rng(0)
x = rng.standard_normal((256, 256)).astype(np.float32)
f = lambda x: jnp.tanh(x @ x) + 1.0
np.testing.assert_allclose(stablehlo_tvm.jit(f)(x), jax.jit(f)(x), rtol=1e-5, atol=1e-5)
print("launches", _core.parallel_launches())
"""


@pytest.mark.parametrize(
    "environment, launched",
    [({"TVM_NUM_THREADS": "1"}, True), ({"STABLEHLO_TVM_PARALLEL_LAUNCH": "tvm"}, False)],
    ids=["one-thread", "tvm-launcher"],
)
def test_one_thread_and_tvm_launcher(environment, launched):
    env = dict(os.environ, **environment)
    done = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    count = int(done.stdout.split("launches")[-1])
    assert (count > 0) == launched


def test_loop_kernels_compile_at_llvm_default_level_the_others_at_o2():
    import tvm
    from tvm.script import tirx as T

    from stablehlo_tvm.cpu.codegen import _by_opt_level, compile_primfuncs
    from stablehlo_tvm.cpu.target import host_target

    @T.prim_func
    def halve_until_small(a: T.Buffer((1,), "float32"), b: T.Buffer((1,), "float32")):
        T.func_attr({"global_symbol": "halve_until_small"})
        b[0] = a[0]
        while b[0] > T.float32(1):
            b[0] = b[0] * T.float32(0.5)

    @T.prim_func
    def double(a: T.Buffer((4,), "float32"), b: T.Buffer((4,), "float32")):
        T.func_attr({"global_symbol": "double"})
        for i in range(4):
            b[i] = a[i] * T.float32(2)

    functions = list(tvm.IRModule({"halve_until_small": halve_until_small, "double": double}).functions_items())
    target = host_target()
    groups = {tuple(gvar.name_hint for gvar, _ in group): group_target for group, group_target in _by_opt_level(functions, target)}
    assert set(groups) == {("halve_until_small",), ("double",)}
    assert "opt-level" not in groups[("halve_until_small",)].attrs
    assert int(groups[("double",)].attrs["opt-level"]) == 2
    # A target that says its level is used for every function.
    three = tvm.target.Target({**target.export(), "opt-level": 3})
    ((group, group_target),) = _by_opt_level(functions, three)
    assert len(group) == 2 and int(group_target.attrs["opt-level"]) == 3

    # Both groups' libraries are found through the one returned, as the VM looks.
    lib = compile_primfuncs(tvm.IRModule({"halve_until_small": halve_until_small, "double": double}), target, workers=1)
    out = tvm.runtime.tensor(np.zeros(1, np.float32))
    found = {name: lib.get_function(name, query_imports=True) for name in ("halve_until_small", "double")}
    found["halve_until_small"](tvm.runtime.tensor(np.array([37.0], np.float32)), out)
    assert out.numpy()[0] == np.float32(37.0 / 64)
    out4 = tvm.runtime.tensor(np.zeros(4, np.float32))
    found["double"](tvm.runtime.tensor(np.arange(4, dtype=np.float32)), out4)
    np.testing.assert_array_equal(out4.numpy(), np.arange(4) * 2)
