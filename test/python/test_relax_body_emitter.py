"""The C++ Relax body emitter (python/RelaxBodyEmitter.h): the types it sets
instead of Relax's inference, the ops it hands back to Python, its errors."""

from __future__ import annotations

import gc

import numpy as np
import pytest
import tvm
import tvm_ffi
from tvm import relax

import stablehlo_tvm
from stablehlo_tvm import _core, emitter
from stablehlo_tvm.errors import MLIRError

# MLIR element type -> TVM dtype.
_DTYPES = {
    "f16": "float16",
    "bf16": "bfloat16",
    "f32": "float32",
    "f64": "float64",
    "i1": "bool",
    "i8": "int8",
    "i32": "int32",
    "i64": "int64",
    "ui8": "uint8",
    "ui32": "uint32",
}


def _inferred(relax_name: str, args: list):
    """The type Relax's own inference gives the call; None if it rejects it."""
    bb = relax.BlockBuilder()
    bb.begin_scope(args)
    try:
        return bb.normalize(getattr(relax.op, relax_name)(*args)).ty
    except Exception:  # TVM raises its own error types
        return None
    finally:
        bb.end_scope()


def test_the_direct_ops_are_the_elementwise_ones():
    names = _core.directly_emitted_ops()
    assert names == sorted(names)
    for name in ["tvm.add", "tvm.tanh", "tvm.exp", "tvm.logical_not", "tvm.atan2"]:
        assert name in names
    # Attributes, another result type, or regions: Python builds these.
    for name in ["tvm.flip", "tvm.equal", "tvm.astype", "tvm.sum", "tvm.constant", "tvm.case"]:
        assert name not in names


@pytest.mark.parametrize("name", _core.directly_emitted_ops())
def test_relax_infers_the_type_the_direct_emitter_sets(name, monkeypatch):
    # For every element type, the dialect accepts the op exactly when Relax
    # does, and the type the emitter sets is the one Relax infers.
    relax_name = name.removeprefix("tvm.")
    arity = int(tvm.ir.Op.get("relax." + relax_name).num_inputs)
    handed_back = []
    monkeypatch.setattr(emitter._Emitter, "emit_ops", lambda self, bb, ops, values: handed_back.append(ops))
    for mlir_type, dtype in _DTYPES.items():
        t = f"tensor<2x3x{mlir_type}>"
        text = (
            f"func.func @main({', '.join(f'%a{i}: {t}' for i in range(arity))}) -> {t} {{\n"
            f"  %0 = {name} {', '.join(f'%a{i}' for i in range(arity))} : ({', '.join([t] * arity)}) -> {t}\n"
            f"  return %0 : {t}\n}}"
        )
        inferred = _inferred(relax_name, [relax.Var(f"x{i}", relax.TensorType([2, 3], dtype)) for i in range(arity)])
        try:
            module = _core.Module.parse(text)
        except MLIRError:
            assert inferred is None, f"{name} on {dtype}: the dialect rejects what Relax accepts"
            continue
        assert inferred is not None, f"{name} on {dtype}: the dialect accepts what Relax rejects"
        main = emitter.emit_module(module.functions(ops=False), module)["main"]
        binding = main.body.blocks[0].bindings[0]
        assert binding.value.op.name == "relax." + relax_name
        assert tvm_ffi.structural_equal(binding.var.ty, inferred), f"{name} on {dtype}"
    assert handed_back == []


def test_ops_are_handed_back_between_direct_ones():
    # Direct ops, a constant and a reduction (handed back), a switch whose
    # branches use values from outside (handed back with them): one function.
    import jax
    import jax.numpy as jnp
    from jax import lax

    def f(x, k):
        y = jnp.tanh(x * 2.0) + x
        s = jnp.sum(y, axis=0)
        z = lax.switch(k, [lambda: y * s, lambda: y - s, lambda: -y])
        return jnp.exp(z) - y

    x = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)
    for k in range(3):
        got = stablehlo_tvm.build(stablehlo_tvm.import_stablehlo(f, x, np.int32(k)))(x, np.int32(k))
        np.testing.assert_allclose(got, jax.jit(f)(x, np.int32(k)), rtol=1e-5, atol=1e-6)


def test_an_error_in_a_handed_back_op_is_raised_as_it_is(capfd):
    # The walk of the constant fails (no TVM dtype for f8): the caller gets
    # that error, not TVM's wrapping of it, and TVM prints nothing.
    t = "tensor<2xf32>"
    text = f"""func.func @main(%a: {t}) -> {t} {{
  %0 = tvm.add %a, %a : ({t}, {t}) -> {t}
  %c = tvm.constant dense<1.0> : tensor<2xf8E4M3FN>
  %1 = tvm.multiply %0, %0 : ({t}, {t}) -> {t}
  return %1 : {t}
}}"""
    module = _core.Module.parse(text)
    with pytest.raises(MLIRError, match="unsupported constant element type f8E4M3FN"):
        emitter.emit_module(module.functions(ops=False), module)
    gc.collect()
    assert capfd.readouterr().err == ""


def test_the_module_is_passed_as_itself_and_checked():
    # The FFI function takes the _core.Module object (TVM's FFI holds a
    # reference to it for the call), not an address: anything else is a
    # clear error, and so is a function the module does not have.
    emit = tvm_ffi.get_global_func("stablehlo_tvm.emit_relax_body")
    for wrong in (12345, "main", object()):
        with pytest.raises(Exception, match="expected a (Python object|stablehlo_tvm._core.Module)"):
            emit(wrong, "main", relax.BlockBuilder(), [], [], lambda *args: [])
    module = _core.Module.parse("func.func @main() { return }")
    with pytest.raises(Exception, match="no function @nope"):
        emit(module, "nope", relax.BlockBuilder(), [], [], lambda *args: [])


def test_each_handed_back_op_comes_with_its_description():
    # One walk: the C++ emitter describes the ops it hands back as it
    # reaches them; nothing is looked up again by index.
    t = "tensor<2xf32>"
    text = f"""func.func @main(%a: {t}) -> {t} {{
  %0 = tvm.add %a, %a : ({t}, {t}) -> {t}
  %1 = tvm.reshape %0 {{shape = array<i64: 2>}} : ({t}) -> {t}
  %2 = tvm.multiply %1, %1 : ({t}, {t}) -> {t}
  return %2 : {t}
}}"""
    module = _core.Module.parse(text)
    seen = []
    real = emitter._Emitter.emit_ops

    def spy(self, bb, ops, values, emitted=None):
        seen.extend(op["name"] for op in ops)
        return real(self, bb, ops, values, emitted)

    emitter._Emitter.emit_ops = spy
    try:
        mod = emitter.emit_module(module.functions(ops=False), module)
    finally:
        emitter._Emitter.emit_ops = real
    assert seen == ["tvm.reshape"]
    assert "R.reshape" in mod.script() and "R.multiply" in mod.script()
