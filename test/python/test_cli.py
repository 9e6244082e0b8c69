"""The stablehlo-to-tvm command line tool on JAX output and on bad input."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import jax
import jax.numpy as jnp

from test_numerics import mlp

# The package installs the tool next to the interpreter.
TOOL = shutil.which("stablehlo-to-tvm", path=os.path.dirname(sys.executable)) or shutil.which("stablehlo-to-tvm")


def test_tool_is_installed():
    assert TOOL is not None, "stablehlo-to-tvm is not installed next to the interpreter"


def run(*args, input_text=None):
    return subprocess.run([TOOL, *args], input=input_text, capture_output=True, text=True, timeout=120)


def test_pipeline_on_jax_output(tmp_path):
    f32 = jnp.float32
    text = jax.jit(mlp).lower(
        jnp.zeros((2, 4), f32), jnp.zeros((4, 8), f32), jnp.zeros((8,), f32), jnp.zeros((8, 3), f32), jnp.zeros((3,), f32)
    ).as_text()
    path = tmp_path / "mlp.mlir"
    path.write_text(text)
    result = run(str(path), "--stablehlo-to-tvm-pipeline")
    assert result.returncode == 0, result.stderr
    assert "tvm.matmul" in result.stdout and "tvm.exp" in result.stdout
    assert "stablehlo." not in result.stdout


def test_no_flags_round_trips():
    text = "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.add %x, %x : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n"
    result = run("-", input_text=text)
    assert result.returncode == 0, result.stderr
    assert "stablehlo.add %arg0, %arg0 : tensor<2xf32>" in result.stdout


def test_malformed_input_reports_location(tmp_path):
    path = tmp_path / "bad.mlir"
    path.write_text("func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.add %x, %x\n  return %0 : tensor<2xf32>\n}\n")
    result = run(str(path))
    assert result.returncode != 0
    assert f"{path}:3:3: error:" in result.stderr or f"{path}:2:" in result.stderr
    assert result.returncode > 0  # an exit code, not a signal


def test_unsupported_op_is_reported_by_the_pipeline(tmp_path):
    path = tmp_path / "vendor.mlir"
    path.write_text(
        "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0 = stablehlo.custom_call @vendor_kernel(%x) : (tensor<4xf32>) -> tensor<4xf32>\n"
        "  return %0 : tensor<4xf32>\n}\n"
    )
    result = run(str(path), "--stablehlo-to-tvm-pipeline")
    assert result.returncode == 1
    assert "could not be imported into TVM; unsupported: stablehlo.custom_call @vendor_kernel" in result.stderr


def python_m(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "stablehlo_tvm", *args], capture_output=True, text=True, timeout=300, cwd=cwd
    )


def test_python_m_emits_runs_and_compiles(tmp_path):
    import numpy as np

    def f(x, w):
        return jnp.tanh(x @ w), x.sum()

    x = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    w = np.full((3, 4), 0.5, np.float32)
    (tmp_path / "m.mlir").write_text(jax.jit(f).lower(x, w).as_text())
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "w.npy", w)

    emitted = python_m("emit", "m.mlir", cwd=tmp_path)
    assert emitted.returncode == 0, emitted.stderr
    assert "@R.function" in emitted.stdout and "def main(" in emitted.stdout

    ran = python_m("run", "m.mlir", "x.npy", "w.npy", "-o", "out.npz", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    out = np.load(tmp_path / "out.npz")
    want = jax.jit(f)(x, w)
    np.testing.assert_allclose(out["arr_0"], want[0], rtol=1e-6)
    np.testing.assert_allclose(out["arr_1"], want[1], rtol=1e-6, atol=1e-6)

    compiled = python_m("compile", "m.mlir", "-o", "m.so", cwd=tmp_path)
    assert compiled.returncode == 0, compiled.stderr
    assert (tmp_path / "m.so").stat().st_size > 0


def test_python_m_reports_errors_with_locations(tmp_path):
    (tmp_path / "bad.mlir").write_text(
        "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
        "  %0 = stablehlo.foo %a : tensor<2xf32>\n"
        "  return %0 : tensor<2xf32>\n}\n"
    )
    done = python_m("run", "bad.mlir", cwd=tmp_path)
    assert done.returncode == 1
    assert "bad.mlir:2:8: error:" in done.stderr and "Traceback" not in done.stderr
