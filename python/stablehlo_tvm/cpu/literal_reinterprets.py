"""Reinterpretations of the literal 0 made literals, before code generation.

Wrapping integer arithmetic (kernels.wrapping) reads 32-bit operands
through a reinterpretation, which TVM's simplifier does not look through.
Where the simplifier folds such an operand to the literal 0 (x - x), TVM's
LLVM code generator takes reinterpret(0) for a null pointer and refuses
any other result type. Zero's bits are zero in every type, so the pass, the
last before code generation, writes the literal of the result's type."""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx

_CALL = type(tirx.call_intrin("int32", "tirx.reinterpret", tirx.IntImm("int32", 0)))


def _literal(call):
    if call.op.name != "tirx.reinterpret" or len(call.args) != 1:
        return call
    operand = call.args[0]
    if not isinstance(operand, tirx.IntImm) or operand.value != 0:
        return call
    name = getattr(call.ty, "dtype", None)  # none for a pointer: that one is the generator's
    if name is None:
        return call
    dtype = tvm.DataType(str(name))
    if dtype.lanes != 1:
        return call
    if dtype.type_code in (tvm.DataTypeCode.INT, tvm.DataTypeCode.UINT):
        return tirx.IntImm(str(name), 0)
    if dtype.type_code == tvm.DataTypeCode.FLOAT:
        return tirx.FloatImm(str(name), 0.0)
    return call


@tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.LiteralReinterprets")
def LiteralReinterprets(mod: tvm.IRModule, _ctx) -> tvm.IRModule:  # noqa: N802 - a pass
    """Every PrimFunc of `mod` with reinterpret(0) as a literal of its type."""
    changed = {}
    for gvar, func in mod.functions_items():
        if isinstance(func, tirx.PrimFunc):
            mapped = tvm_ffi.structural_map(func, (_CALL, _literal))
            if not mapped.same_as(func):
                changed[gvar] = mapped
    if not changed:
        return mod
    functions = dict(mod.functions_items())
    functions.update(changed)
    return tvm.IRModule(functions, attrs=mod.attrs)
