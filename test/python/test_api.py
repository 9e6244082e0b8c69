"""import_stablehlo's input forms, its errors, and the walk of the tvm dialect."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import tvm
from jax import lax

import stablehlo_tvm
from stablehlo_tvm import _core
from stablehlo_tvm.emitter import elements_to_numpy

from conftest import random_args


def f(x, w):
    return jax.nn.relu(x @ w) * 2.0


ARGS = random_args([((3, 5), "float32"), ((5, 4), "float32")])
EXPECTED = np.asarray(jax.jit(f)(*ARGS))


def _run(irmodule):
    assert isinstance(irmodule, tvm.IRModule)
    np.testing.assert_allclose(stablehlo_tvm.build(irmodule)(*ARGS), EXPECTED, rtol=1e-5, atol=1e-6)


def test_from_lowered():
    _run(stablehlo_tvm.import_stablehlo(jax.jit(f).lower(*ARGS)))


def test_from_text_pretty_and_with_locations():
    lowered = jax.jit(f).lower(*ARGS)
    _run(stablehlo_tvm.import_stablehlo(lowered.as_text()))
    _run(stablehlo_tvm.import_stablehlo(lowered.as_text(debug_info=True)))


def test_from_jaxlib_module():
    _run(stablehlo_tvm.import_stablehlo(jax.jit(f).lower(*ARGS).compiler_ir("stablehlo")))


def test_from_path(tmp_path):
    path = tmp_path / "f.mlir"
    path.write_text(jax.jit(f).lower(*ARGS).as_text())
    _run(stablehlo_tvm.import_stablehlo(path))
    _run(stablehlo_tvm.import_stablehlo(str(path)))


def test_from_callable_and_example_args():
    _run(stablehlo_tvm.import_stablehlo(f, *ARGS))
    np.testing.assert_allclose(stablehlo_tvm.build(f, *ARGS)(*ARGS), EXPECTED, rtol=1e-5, atol=1e-6)


def test_from_exported_portable_artifact():
    exported = jax.export.export(jax.jit(f))(*ARGS)
    _run(stablehlo_tvm.import_stablehlo(exported))
    _run(stablehlo_tvm.import_stablehlo(exported.mlir_module_serialized))  # VHLO bytecode


def test_main_signature():
    irmodule = stablehlo_tvm.import_stablehlo(jax.jit(f).lower(*ARGS))
    main = irmodule["main"]
    assert [tuple(int(d) for d in p.ty.shape) for p in main.params] == [(3, 5), (5, 4)]
    assert [p.ty.dtype for p in main.params] == ["float32", "float32"]


def test_constants_reach_tvm():
    table = np.arange(12, dtype=np.float32).reshape(3, 4)
    g = lambda x: x + table  # noqa: E731
    (x,) = random_args([((3, 4), "float32")])
    np.testing.assert_array_equal(stablehlo_tvm.build(g, x)(x), x + table)


def test_dense_constants_are_views_of_mlir_storage():
    text = "func.func @main() -> tensor<2x3xf32> {\n  %0 = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>\n  return %0 : tensor<2x3xf32>\n}"
    module = stablehlo_tvm.import_to_tvm_dialect(text)
    (op,) = module.functions()[0]["ops"]
    assert op["name"] == "tvm.constant"
    data, shape, dtype, splat = op["attributes"]["value"]
    assert (shape, dtype, splat) == ((2, 3), "float32", False)
    assert isinstance(data, np.ndarray) and not data.flags.owndata  # no copy of the attribute's bytes
    np.testing.assert_array_equal(elements_to_numpy(op["attributes"]["value"]), [[1, 2, 3], [4, 5, 6]])


def test_unknown_op_raises_with_its_location():
    text = textwrap.dedent(
        """\
        func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
          %0 = stablehlo.frobnicate %x : tensor<2xf32>
          return %0 : tensor<2xf32>
        }
        """
    )
    with pytest.raises(stablehlo_tvm.MLIRError) as info:
        stablehlo_tvm.import_stablehlo(text)
    assert "stablehlo.frobnicate" in str(info.value)
    assert "<string>:2:8" in info.value.locations


def test_malformed_text_raises():
    with pytest.raises(stablehlo_tvm.MLIRError) as info:
        stablehlo_tvm.import_stablehlo("func.func @main(%x: tensor<2xf32> {")
    assert info.value.diagnostics[0][0] == "error"
    assert info.value.locations[0].startswith("<string>:1:")


def test_every_unsupported_op_is_listed_at_once():
    text = textwrap.dedent(
        """\
        func.func @main(%x: tensor<4xf32>, %c: tensor<4xcomplex<f32>>) -> (tensor<4xi1>, tensor<4xcomplex<f32>>) {
          %0 = stablehlo.custom_call @opaque(%x) : (tensor<4xf32>) -> tensor<4xi1>
          %1 = stablehlo.cbrt %c : tensor<4xcomplex<f32>>
          return %0, %1 : tensor<4xi1>, tensor<4xcomplex<f32>>
        }
        """
    )
    with pytest.raises(stablehlo_tvm.MLIRError) as info:
        stablehlo_tvm.import_stablehlo(text)
    message = str(info.value)
    assert "unsupported: stablehlo.custom_call @opaque, stablehlo.cbrt" in message
    assert "(no lowering of this op on complex numbers)" in message
    assert "<string>:2:8" in info.value.locations and "<string>:3:8" in info.value.locations


def test_unsupported_jax_op_points_at_python_source():
    def g(x):
        return jax.lax.linalg.tridiagonal(x)  # LAPACK sytrd is not supported yet

    with pytest.raises(stablehlo_tvm.MLIRError) as info:
        stablehlo_tvm.import_stablehlo(jax.jit(g).lower(np.zeros((4, 4), np.float32)))
    assert "stablehlo.custom_call @lapack_ssytrd_ffi" in str(info.value)
    assert any(loc.startswith(__file__) for loc in info.value.locations)


def test_invalid_pipeline_raises():
    module = _core.Module.parse("module {}")
    with pytest.raises(stablehlo_tvm.MLIRError, match="invalid pass pipeline"):
        module.run_pipeline("builtin.module(no-such-pass)")


@pytest.mark.parametrize("dtype", ["float32", "int8", "float64", "bfloat16"])
def test_large_constants_are_used_by_tvm_where_they_lie(dtype):
    # A constant of 1 MiB or more is decoded once into a 64-byte-aligned blob
    # of the module; TVM's Tensor is that memory (no copy), except for the
    # dtypes DLPack cannot carry from numpy (bfloat16), which are copied.
    import ml_dtypes
    from tvm import relax

    from stablehlo_tvm.emitter import emit_module

    numpy_dtype = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    table = np.random.default_rng(0).integers(-100, 100, (1024, 1100)).astype(numpy_dtype)
    g = lambda x: x * table + table  # noqa: E731
    (x,) = random_args([((1024, 1100), "float32")])
    x = x.astype(numpy_dtype)
    text = jax.jit(g).lower(x).as_text()
    module = stablehlo_tvm.import_to_tvm_dialect(text)
    assert "dense_resource<" in str(module)
    (constant,) = [op for op in module.functions()[0]["ops"] if op["name"] == "tvm.constant"]
    walked = elements_to_numpy(constant["attributes"]["value"])
    np.testing.assert_array_equal(walked, table)
    assert walked.ctypes.data % 64 == 0
    relax_module = emit_module(module.functions())
    found = []
    relax.analysis.post_order_visit(relax_module["main"], lambda e: found.append(e) if isinstance(e, tvm.ir.expr.GenericConst) else None)
    assert found
    for emitted in found:  # the one constant, once per use
        if dtype == "bfloat16":
            np.testing.assert_array_equal(emitted.value.numpy(), table)
        else:
            assert np.from_dlpack(emitted.value).ctypes.data == walked.ctypes.data
    actual = stablehlo_tvm.build(text)(x).astype(np.float64)
    expected = np.asarray(jax.jit(g)(x)).astype(np.float64)
    # bfloat16: XLA rounds x * table + table once, TVM after each op: one
    # ulp of x * table apart (|x * table| < 512, an ulp is at most 2).
    np.testing.assert_allclose(actual, expected, rtol=2**-7 if dtype == "bfloat16" else 0, atol=2 if dtype == "bfloat16" else 0)


@pytest.mark.parametrize("dtype", ["float32", "int8", "uint16", "float16", "float64"])
def test_large_constants_of_a_jax_program_are_not_printed(dtype):
    # jaxlib's printer elides them; the core gets views of jaxlib's storage
    # instead of twice their size in hex.
    from stablehlo_tvm.inputs import to_source

    numpy_dtype = np.dtype(dtype)
    table = np.random.default_rng(0).integers(0, 100, (300, 400)).astype(numpy_dtype)
    g = lambda x: x * table + table[::-1]  # noqa: E731
    x = np.full((300, 400), 3, numpy_dtype)
    lowered = jax.jit(g).lower(x)
    source = to_source(lowered)
    assert len(source.constants) == 2 and len(source.text) < table.nbytes
    for _, data in source.constants:
        assert data.dtype == np.uint8 and data.size == table.nbytes
    actual = stablehlo_tvm.build(lowered)(x)
    np.testing.assert_array_equal(np.asarray(actual).astype(np.float64), np.asarray(jax.jit(g)(x)).astype(np.float64))


def test_constants_jaxlib_elides_of_other_types_are_printed():
    # Booleans are bit-packed in MLIR, complex numbers are pairs and
    # jaxlib gives no buffer of bfloat16: such constants are printed in
    # full, and the program imports as before.
    import ml_dtypes

    from stablehlo_tvm.inputs import to_source

    mask = np.arange(100_000) % 3 == 0
    z = (np.arange(100_000) + 1j * np.arange(100_000)[::-1]).astype(np.complex64)
    b = np.arange(100_000).astype(ml_dtypes.bfloat16)
    g = lambda x: (jnp.where(mask, x, -x), z * x, b * x.astype(b.dtype))  # noqa: E731
    x = np.linspace(-1, 1, 100_000, dtype=np.float32)
    lowered = jax.jit(g).lower(x)
    source = to_source(lowered)
    assert source.constants == () and "__elided__" not in source.text
    got = stablehlo_tvm.build(lowered)(x)
    want = jax.jit(g)(x)
    np.testing.assert_array_equal(got[0], np.asarray(want[0]))
    np.testing.assert_allclose(got[1], np.asarray(want[1]), rtol=1e-6)
    # One bfloat16 ulp: XLA rounds x's cast and the product once, in f32.
    np.testing.assert_allclose(got[2].astype(np.float32), np.asarray(want[2]).astype(np.float32), rtol=2**-7)


def test_a_constant_without_data_is_an_error():
    text = "func.func @main() -> tensor<4xf32> {\n  %0 = stablehlo.constant dense_resource<weights> : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}"
    with pytest.raises(stablehlo_tvm.MLIRError, match="constant weights has no data"):
        stablehlo_tvm.import_stablehlo(text)


def test_errors_never_abort_the_interpreter():
    # Bad input in a child interpreter: it must end with an exception, not a signal.
    code = textwrap.dedent(
        """\
        import stablehlo_tvm
        for text in ["", "%0 = ", "func.func @f(", "\\x00\\xff", "module { func.func @main() { return } }"]:
            try:
                stablehlo_tvm.import_stablehlo(text)
            except stablehlo_tvm.Error:  # MLIRError, or InputError for the empty text
                pass
        print("survived")
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "survived" in result.stdout


def test_sharded_program_imports_on_one_device():
    from jax.sharding import AxisType, NamedSharding
    from jax.sharding import PartitionSpec as P

    mesh = jax.make_mesh((1,), ("x",), axis_types=(AxisType.Auto,))
    sharding = NamedSharding(mesh, P("x"))

    @jax.jit
    def g(x):
        return jax.lax.with_sharding_constraint(x * 2.0, sharding) + 1.0

    x = jax.device_put(np.arange(4, dtype=np.float32), sharding)
    lowered = g.lower(x)
    assert "sdy." in lowered.as_text()
    np.testing.assert_allclose(stablehlo_tvm.build(lowered)(np.asarray(x)), np.asarray(g(x)))


def test_large_boolean_constant_from_jax():
    # jaxlib prints large i1 constants as a hex blob, one byte per element.
    mask = np.arange(300) % 3 == 0
    g = lambda x: jnp.where(mask, x, -x)  # noqa: E731
    x = np.linspace(-1, 1, 300, dtype=np.float32)
    assert 'dense<"0x' in jax.jit(g).lower(x).as_text()
    np.testing.assert_array_equal(stablehlo_tvm.build(g, x)(x), np.where(mask, x, -x))


def test_emitted_types_are_checked_against_the_pipeline():
    # Every Relax value the emitter builds must have the type the tvm
    # dialect computed; a mismatch is an EmitError naming both, and the op
    # where it happened, even among many that agree.
    from tvm import relax

    from stablehlo_tvm.emitter import _check_types
    from stablehlo_tvm.errors import EmitError

    var = relax.Var("x", relax.TensorType([2, 3], "float32"))
    agrees = (var, ((2, 3), "float32", "tensor<2x3xf32>"), {"location": "a.mlir:1:1", "name": "tvm.add"})
    _check_types([agrees, agrees])
    for shape, dtype, text in [((3, 2), "float32", "tensor<3x2xf32>"), ((2, 3), "float16", "tensor<2x3xf16>"), (None, None, "tensor<2x3xcomplex<f32>>")]:
        differs = (var, (shape, dtype, text), {"location": "a.mlir:2:5", "name": "tvm.negative"})
        with pytest.raises(EmitError, match=r"a.mlir:2:5: tvm.negative: Relax produced \[2, 3\] float32, the tvm dialect says " + re.escape(text)):
            _check_types([agrees, differs, agrees])


def test_an_op_relax_rejects_is_an_emit_error_at_its_location():
    from tvm import relax

    from stablehlo_tvm.emitter import _Emitter
    from stablehlo_tvm.errors import EmitError

    emitter = _Emitter()
    x = relax.Var("x", relax.TensorType([2, 3], "float32"))
    y = relax.Var("y", relax.TensorType([4, 5], "float32"))
    op = {"name": "tvm.add", "operands": [0, 1], "results": [(2, ((2, 3), "float32", "tensor<2x3xf32>"))], "attributes": {}, "location": "model.mlir:7:3", "regions": []}
    bb = emitter.module
    with bb.function("f", [x, y]):
        with bb.dataflow():
            with pytest.raises(EmitError, match=r"^model.mlir:7:3: tvm.add: .*broadcast"):
                emitter.emit_ops(bb, [op], {0: x, 1: y})
            out = bb.emit_output(x)
        bb.emit_func_output(out)

def test_a_rejected_op_in_a_module_is_an_emit_error_and_nothing_more(capfd):
    # The function being built when Relax rejects an op is dropped cleanly:
    # the error carries the op's location and TVM prints nothing.
    from stablehlo_tvm.emitter import emit_module
    from stablehlo_tvm.errors import EmitError

    t, u = ((2, 3), "float32", "tensor<2x3xf32>"), ((4, 5), "float32", "tensor<4x5xf32>")
    op = {"name": "tvm.add", "operands": [0, 1], "results": [(2, t)], "attributes": {}, "location": "model.mlir:7:3", "regions": []}
    function = {"name": "main", "public": True, "attributes": {}, "arguments": [(0, t), (1, u)], "results": [t], "returns": [2], "callees": [], "ops": [op]}
    with pytest.raises(EmitError, match=r"^model.mlir:7:3: tvm.add: .*broadcast"):
        emit_module([function])
    import gc

    gc.collect()
    assert capfd.readouterr().err == ""


def test_public_functions_of_one_signature_stay_apart():
    # Functions join the module under signature-only stand-ins; functions
    # that share a signature, or even a body, keep their own entries.
    text = textwrap.dedent(
        """
        func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
          %0 = stablehlo.add %x, %x : tensor<3xf32>
          return %0 : tensor<3xf32>
        }
        func.func @g(%x: tensor<3xf32>) -> tensor<3xf32> {
          %0 = stablehlo.multiply %x, %x : tensor<3xf32>
          return %0 : tensor<3xf32>
        }
        func.func @h(%x: tensor<3xf32>) -> tensor<3xf32> {
          %0 = stablehlo.add %x, %x : tensor<3xf32>
          return %0 : tensor<3xf32>
        }
        """
    )
    module = stablehlo_tvm.import_stablehlo(text)
    assert sorted(gv.name_hint for gv in module.get_global_vars()) == ["f", "g", "h"]
    for name in "fgh":
        assert module[name].attrs["global_symbol"] == name
        assert "stablehlo_tvm.stand_in" not in module[name].attrs
    assert tvm.relax.analysis.check_well_formed(module)
    vm = tvm.relax.VirtualMachine(tvm.compile(module, target="llvm"), tvm.cpu())
    x = np.array([1.0, 2.0, 3.0], np.float32)
    np.testing.assert_array_equal(vm["f"](tvm.runtime.tensor(x)).numpy(), x + x)
    np.testing.assert_array_equal(vm["g"](tvm.runtime.tensor(x)).numpy(), x * x)
    np.testing.assert_array_equal(vm["h"](tvm.runtime.tensor(x)).numpy(), x + x)


def test_an_import_leaves_its_walk_to_reference_counting():
    # The walk's dicts go as soon as the import returns: held in a reference
    # cycle they waited for the cycle collector, and with them, through the
    # constants' views, the whole MLIR module.
    import gc

    def f(x, i):
        x = lax.fori_loop(0, 3, lambda _, v: v * 2.0 + 1.0, x)
        return lax.switch(i, [jnp.sin, jnp.cos, lambda v: v + 3.0], x)

    text = jax.jit(f).lower(np.ones(4, np.float32), np.int32(1)).as_text()
    stablehlo_tvm.import_stablehlo(text)  # first-time setup out of the way
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        stablehlo_tvm.import_stablehlo(text)
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        walked = [o for o in gc.garbage if isinstance(o, dict) and ("operands" in o or "ops" in o)]
        assert walked == []
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()


def test_tvmscript_round_trip_with_non_finite_constants():
    # softmax's -inf, a NaN and an inf: TVMScript prints a non-finite
    # scalar constant as R.const("nan"), which it cannot parse back.
    def f(x):
        y = jax.nn.softmax(x)
        return jnp.where(x > 5, jnp.float32(np.inf), y), jnp.where(x < 1, jnp.float32(np.nan), y)

    x = np.linspace(0, 8, 4, dtype=np.float32)
    irmodule = stablehlo_tvm.import_stablehlo(jax.jit(f).lower(x))
    parsed = tvm.script.from_source(irmodule.script(show_meta=True))
    tvm.ir.assert_structural_equal(parsed, irmodule)
    for got, want in zip(stablehlo_tvm.build(parsed)(x), jax.jit(f)(x)):
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_build_progress_on_stderr(capfd):
    x = np.ones((4, 4), np.float32)
    stablehlo_tvm.build(lambda x: jnp.tanh(x) @ x, x, progress=True)
    err = capfd.readouterr().err
    assert "stablehlo_tvm: build: " in err and "stablehlo_tvm: build done in" in err
    # A quick build is silent by default.
    stablehlo_tvm.build(lambda x: x + 1, x)
    assert "stablehlo_tvm:" not in capfd.readouterr().err


def test_a_function_named_like_one_of_its_kernels_is_called():
    # The kernel of the reduce_window op takes the name "reduce_window"
    # first; the function is still called by its own name.
    text = """
    func.func @reduce_window(%x: tensor<4xi64>) -> tensor<2xi64> {
      %zero = stablehlo.constant dense<0> : tensor<i64>
      %0 = "stablehlo.reduce_window"(%x, %zero) ({
        ^bb0(%a: tensor<i64>, %b: tensor<i64>):
          %s = stablehlo.add %a, %b : tensor<i64>
          stablehlo.return %s : tensor<i64>
      }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xi64>, tensor<i64>) -> tensor<2xi64>
      return %0 : tensor<2xi64>
    }
    """
    compiled = stablehlo_tvm.build(textwrap.dedent(text), entry="reduce_window")
    np.testing.assert_array_equal(compiled(np.array([1, 2, 3, 4], np.int64)), [3, 7])
