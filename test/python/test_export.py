"""Compiled.export_library: one shared library that a plain TVM runtime
runs in a fresh process, without this package."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import stablehlo_tvm
from stablehlo_tvm import Error

_RUN_ALONE = textwrap.dedent(
    """
    import sys
    import numpy as np
    import tvm
    from tvm import relax

    assert "stablehlo_tvm" not in sys.modules
    vm = relax.VirtualMachine(tvm.runtime.load_module(sys.argv[1]), tvm.cpu())
    x = np.load(sys.argv[2])
    np.save(sys.argv[3], vm["main"](tvm.runtime.tensor(x)).numpy())
    """
)


def mlp(x):
    w = jnp.asarray(np.linspace(-1, 1, 16 * 8, dtype=np.float32).reshape(16, 8))
    return jax.nn.softmax(jnp.tanh(x @ w), axis=-1)


def test_exported_library_runs_without_the_package(tmp_path):
    x = np.random.default_rng(0).standard_normal((4, 16)).astype(np.float32)
    compiled = stablehlo_tvm.build(mlp, x)
    library = tmp_path / "mlp.so"
    compiled.export_library(library)
    np.testing.assert_allclose(_run_alone(library, x, tmp_path), np.asarray(jax.jit(mlp)(x)), rtol=1e-5, atol=1e-6)


def test_a_build_that_needs_this_package_is_refused(tmp_path):
    a = np.eye(4, dtype=np.float32) * 4
    compiled = stablehlo_tvm.build(jnp.linalg.cholesky, a)
    with pytest.raises(Error, match="stablehlo_tvm.lapack.potrf"):
        compiled.export_library(tmp_path / "cholesky.so")
    assert not (tmp_path / "cholesky.so").exists()


def test_llvm_means_tvms_generic_cpu_and_default_means_this_one():
    from stablehlo_tvm.cpu import resolve_target

    assert "mcpu" not in resolve_target("llvm").attrs
    assert "mcpu" in resolve_target(None).attrs and "mcpu" in resolve_target("host").attrs
    x = np.ones((4, 16), np.float32)
    np.testing.assert_allclose(stablehlo_tvm.build(mlp, x, target="llvm")(x), np.asarray(jax.jit(mlp)(x)), rtol=1e-5)


def _run_alone(library, x, tmp_path) -> np.ndarray:
    """`library`'s main on `x` in a child process that has only TVM."""
    np.save(tmp_path / "x.npy", x)
    code = "import sys; sys.path = [p for p in sys.path if 'stablehlo' not in p and p != '']\n" + _RUN_ALONE
    done = subprocess.run(
        [sys.executable, "-c", code, str(library), str(tmp_path / "x.npy"), str(tmp_path / "y.npy")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return np.load(tmp_path / "y.npy")


def test_a_loop_of_kernels_exports_and_runs_long_on_an_ordinary_thread(tmp_path):
    # The loop is one PrimFunc (cpu/loops.py): no recursion, whatever its length.
    def scan(x):
        return jax.lax.fori_loop(0, 200_000, lambda i, a: a * 0.5 + 1.0, x)

    x = np.ones(4, np.float32)
    compiled = stablehlo_tvm.build(scan, x)
    compiled.export_library(tmp_path / "scan.so")
    np.testing.assert_allclose(_run_alone(tmp_path / "scan.so", x, tmp_path), np.asarray(jax.jit(scan)(x)), rtol=1e-6)


def test_a_module_with_recursive_loops_is_refused_unless_recursion_is_allowed(tmp_path):
    # TVM's own pipeline (schedule=False) keeps loops recursive Relax functions.
    def scan(x):
        return jax.lax.fori_loop(0, 100, lambda i, a: a * 0.5 + 1.0, x)

    x = np.ones(4, np.float32)
    compiled = stablehlo_tvm.build(scan, x, schedule=False)
    with pytest.raises(Error, match="allow_recursion=True"):
        compiled.export_library(tmp_path / "scan.so")
    compiled.export_library(tmp_path / "scan.so", allow_recursion=True)
    assert (tmp_path / "scan.so").stat().st_size > 0
