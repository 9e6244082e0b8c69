"""Bad input gets the project's own exceptions (stablehlo_tvm.Error), never
an empty module, a foreign exception or a crash: empty and wrong-format
input, damaged artifacts, modules with nothing to build, and calls with
arguments the compiled signature does not take. Also every jax.export form
(Exported.serialize() bytes and files, paths of any suffix)."""

from __future__ import annotations

import os

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import tvm

import stablehlo_tvm
from stablehlo_tvm import CallError, Error, InputError


def _f(x):
    return jnp.sin(x) * 2


_X = np.linspace(-1, 1, 3, dtype=np.float32)


@pytest.fixture(scope="module")
def exported():
    return jax.export.export(jax.jit(_f))(_X)


@pytest.fixture(scope="module")
def compiled():
    return stablehlo_tvm.build(_f, _X)


@pytest.mark.parametrize(
    "source,message",
    [
        ("", "empty input"),
        ("  \n\t", "empty input"),
        (b"", "empty input"),
        (bytes(range(256)), "neither MLIR text, MLIR bytecode"),
        ("module {}", "no public function"),
        ("/nonexistent/model.mlir", "cannot read /nonexistent/model.mlir"),
        (42, "cannot import StableHLO from int"),
    ],
    ids=["empty-str", "blank", "empty-bytes", "garbage", "no-function", "missing-file", "int"],
)
def test_input_of_no_readable_form_is_an_input_error(source, message):
    with pytest.raises(InputError, match=message):
        stablehlo_tvm.import_stablehlo(source)


def test_a_damaged_portable_artifact_is_an_input_error(exported):
    artifact = exported.mlir_module_serialized
    for damaged in (artifact[: len(artifact) // 2], artifact[:40] + b"\0" * 20 + artifact[60:]):
        with pytest.raises(InputError, match="not a readable StableHLO portable artifact"):
            stablehlo_tvm.import_stablehlo(damaged)


def test_every_jax_export_form_imports(exported, tmp_path):
    want = np.asarray(jax.jit(_f)(_X))
    serialized = exported.serialize()
    (tmp_path / "model.jax").write_bytes(serialized)
    (tmp_path / "model.txt").write_text(jax.jit(_f).lower(_X).as_text())
    for source in (serialized, bytearray(serialized), tmp_path / "model.jax", str(tmp_path / "model.txt"), exported):
        np.testing.assert_allclose(stablehlo_tvm.build(source)(_X), want, rtol=1e-6)


def test_a_module_without_the_entry_is_an_error():
    with pytest.raises(InputError, match="no Relax function to build"):
        stablehlo_tvm.build(tvm.IRModule())
    with pytest.raises(InputError, match="no Relax function 'predict'"):
        stablehlo_tvm.build(_f, _X, entry="predict")
    compiled = stablehlo_tvm.build(_f, _X)
    with pytest.raises(CallError, match="no function 'predict'"):
        compiled.call("predict", _X)


@pytest.mark.parametrize(
    "args,message",
    [
        ((None,), r"argument 0: expected float32\[3\], got object\[\]"),
        (("abc",), r"argument 0: expected float32\[3\], got str96\[\]"),
        ((), "takes 1 arguments, 0 were given"),
        ((_X, _X), "takes 1 arguments, 2 were given"),
        ((np.ones(4, np.float32),), r"expected float32\[3\], got float32\[4\]"),
        ((np.ones((3, 1), np.float32),), r"expected float32\[3\], got float32\[3x1\]"),
        ((np.ones(3),), r"expected float32\[3\], got float64\[3\]"),
    ],
    ids=["none", "str", "too-few", "too-many", "shape", "rank", "dtype"],
)
def test_a_call_with_arguments_the_signature_does_not_take_is_a_call_error(compiled, args, message):
    with pytest.raises(CallError, match=message):
        compiled(*args)
    # The module is still usable afterwards.
    np.testing.assert_allclose(compiled(_X), np.asarray(jax.jit(_f)(_X)), rtol=1e-6)


def test_every_error_type_is_the_packages_own():
    for error in (stablehlo_tvm.MLIRError, stablehlo_tvm.EmitError, InputError, CallError):
        assert issubclass(error, Error)
    # ...and the built-in kind a caller may already catch.
    assert issubclass(InputError, ValueError) and issubclass(CallError, TypeError)


def test_a_target_whose_device_is_missing_is_an_error_before_compiling(monkeypatch):
    import stablehlo_tvm.api
    import stablehlo_tvm.runtime

    target = tvm.target.Target("cuda")
    if tvm.runtime.device(target.get_target_device_type(), 0).exist:
        pytest.skip("this machine has the device")

    def unreachable(*args):
        raise AssertionError("imported or compiled for a device that is not there")

    monkeypatch.setattr(stablehlo_tvm.api, "import_stablehlo", unreachable)
    monkeypatch.setattr(stablehlo_tvm.runtime, "_compile", unreachable)
    with pytest.raises(Error, match=r"target 'cuda' runs on cuda:0, which this machine does not have"):
        stablehlo_tvm.build(_f, _X, target=target)


def test_the_device_follows_a_cpu_target():
    compiled = stablehlo_tvm.build(_f, _X, target="llvm")
    assert compiled.device == tvm.cpu()
    np.testing.assert_allclose(compiled(_X), np.asarray(jax.jit(_f)(_X)), rtol=1e-6)


@pytest.mark.parametrize(
    "text",
    [
        # An attribute nested 100,000 deep.
        "func.func @f() -> tensor<1xf32> {\n  %0 = stablehlo.constant dense<" + "[" * 100000 + "1.0" + "]" * 100000 + "> : tensor<1xf32>\n  return %0 : tensor<1xf32>\n}",
        # Regions nested 20,000 deep.
        "func.func @f(%p: tensor<i1>) {\n" + '"stablehlo.if"(%p) ({' * 20000 + "}) : (tensor<i1>) -> ()" * 20000 + "\n  return\n}",
    ],
    ids=["attribute", "regions"],
)
def test_input_nested_deeper_than_the_parser_survives_is_refused(text):
    # The parser recurses once per level: without the limit the process died
    # of a stack overflow.
    with pytest.raises(stablehlo_tvm.MLIRError, match=r"<string>:\d+:\d+: error: nesting deeper than 512"):
        stablehlo_tvm.import_stablehlo(text)


_NESTED_VALUE_USE = """func.func @scan(%x: tensor<4xi32>, %init: tensor<i32>) -> (tensor<4xi32>, tensor<i32>) {
  %s = stablehlo.add %e, %acc : tensor<i32>
  %0:2 = chlo.scan(%x) inits(%init) dimension = 0 {
  ^bb0(%e: tensor<i32>, %acc: tensor<i32>):
    stablehlo.return %s, %s : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>
"""


def test_a_use_of_a_value_a_later_region_defines_is_refused():
    # MLIR's parser resolved %e to the scan body's argument; the scan's
    # failed parse then freed that body while the add still used it, and
    # the cleanup wrote into freed memory. In a child process with glibc's
    # heap checks, so corruption would abort it there, not here.
    import subprocess
    import sys

    script = (
        "import stablehlo_tvm, sys\n"
        "try:\n"
        "    stablehlo_tvm.import_stablehlo(sys.stdin.read())\n"
        "except stablehlo_tvm.MLIRError as error:\n"
        "    print(error)\n"
        "stablehlo_tvm.import_stablehlo('func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\\n  return %x : tensor<2xf32>\\n}')\n"
        "print('next import fine')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], input=_NESTED_VALUE_USE, capture_output=True, text=True,
        env={**os.environ, "MALLOC_CHECK_": "3"}, timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "<string>:2:22: error: use of value '%e' that a region nested below it defines: refused" in done.stdout
    assert "next import fine" in done.stdout


def test_a_dense_array_of_index_is_refused():
    # MLIR's parser read a bit width `index` does not have: the process died.
    text = (
        "func.func @f(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {\n"
        '  %0 = "stablehlo.transpose"(%x) {permutation = array<index: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>\n'
        "  return %0 : tensor<3x2xf32>\n}"
    )
    with pytest.raises(stablehlo_tvm.MLIRError, match=r"<string>:2:49: error: a dense array of index elements: refused"):
        stablehlo_tvm.import_stablehlo(text)


@pytest.mark.parametrize("spelling", ["array<\0\0index: 1, 0>", "array <index: 1, 0>", "array<// note\n index: 1, 0>", "array\0<\tindex: 1, 0>"])
def test_a_dense_array_of_index_is_refused_however_the_lexer_spaces_it(spelling):
    # The lexer skips NUL characters, line breaks and comments between
    # tokens (libFuzzer put NULs between `array<` and `index`).
    text = (
        "func.func @f(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {\n"
        f'  %0 = "stablehlo.transpose"(%x) {{permutation = {spelling}}} : (tensor<2x3xf32>) -> tensor<3x2xf32>\n'
        "  return %0 : tensor<3x2xf32>\n}"
    )
    with pytest.raises(stablehlo_tvm.MLIRError, match=r"<string>:2:49: error: a dense array of index elements: refused"):
        stablehlo_tvm.import_stablehlo(text)


def test_the_tool_refuses_deep_nesting_too(tmp_path):
    import subprocess

    from stablehlo_tvm import fuzz

    path = tmp_path / "deep.mlir"
    path.write_text("func.func @f() {\n" + "[" * 5000 + "\n}")
    done = subprocess.run([fuzz._default_tool(), str(path)], capture_output=True, text=True)
    assert done.returncode == 1
    assert "deep.mlir:2:512: error: nesting deeper than 512" in done.stderr
