"""LegalizeOnce: TVM's LegalizeOps, each distinct operator call legalized once.

JAX programs repeat their operators on the same shapes (a transformer's
layers, a DenseNet's blocks, jax.random's threefry rounds): 70-95% of a
large module's calls legalize to a PrimFunc equal to an earlier one, which
the BlockBuilder then finds equal and drops, after TE has built it (about
half a millisecond a call, 1-1.6 s of such builds). Here a call whose
operator, attributes, operand types and result type are an earlier call's
is that call's `call_tir` of the same PrimFunc, on its own operands.

Only calls whose legalization is one `call_tir` of their own operands are
reused (not one that binds other values first, takes TIR variables of a
symbolic shape, or reads a constant operand, whose value a legalization
may build in), and only from a call whose operands are distinct variables:
in `add(x, x)`'s call_tir of (x, x) nothing says which field is which
operand, and read as the first twice it would make `add(y, z)` add y to
itself."""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import relax

from .bindings import operators_called

_CALL_TIR = tvm.ir.Op.get("relax.call_tir")


def LegalizeOnce(custom: dict):  # noqa: N802 - a pass
    """LegalizeOps(`custom`), with the memo above for every operator the
    module calls."""

    @tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.LegalizeOnce")
    def legalize(mod: tvm.IRModule, _ctx) -> tvm.IRModule:
        # The memo is this run's: the PrimFuncs it names are in this module.
        memo: dict = {}
        legalizers = dict(custom)
        for name in operators_called(mod):
            function = custom.get(name) or tvm.ir.Op.get(name).get_attr("FLegalize")
            if function is not None:
                legalizers[name] = _once(name, function, memo)
        return relax.transform.LegalizeOps(legalizers)(mod)

    return legalize


def _once(name: str, function, memo: dict):
    def legalize(bb: relax.BlockBuilder, call: relax.Call) -> relax.Expr:
        key = _key(name, call)
        if key is None:
            return function(bb, call)
        for earlier, positions, result in memo.get(key, ()):
            if _same_kind(call, earlier):
                operands = _operands(call)
                fields = [operands[k] for k in positions]
                return relax.Call(result.op, [result.args[0], relax.Tuple(fields)], result.attrs, result.ty_args)
        result = function(bb, call)
        positions = _positions(call, result)
        if positions is not None:
            memo.setdefault(key, []).append((call, positions, result))
        return result

    return legalize


def _operands(call: relax.Call) -> list:
    """The call's operands, a tuple operand's fields in its place."""
    out = []
    for arg in call.args:
        out.extend(arg.fields if isinstance(arg, relax.Tuple) else [arg])
    return out


def _key(name: str, call: relax.Call):
    parts = [name, tvm_ffi.structural_hash(call.attrs), tvm_ffi.structural_hash(call.ty)]
    for arg in call.args:
        if isinstance(arg, relax.Tuple):
            if not all(isinstance(f, relax.Var) for f in arg.fields):
                return None
            parts.append(tuple(tvm_ffi.structural_hash(f.ty) for f in arg.fields))
        elif isinstance(arg, relax.Var):
            parts.append(tvm_ffi.structural_hash(arg.ty))
        elif isinstance(arg, tvm.ir.expr.Constant):
            return None
        else:  # a shape, a PrimValue, a string, a dtype: by value
            parts.append(("value", tvm_ffi.structural_hash(arg)))
    return tuple(parts)


def _same_kind(call: relax.Call, earlier: relax.Call) -> bool:
    """What the key hashed, compared (hashes may collide)."""
    if not (tvm_ffi.structural_equal(call.attrs, earlier.attrs) and tvm_ffi.structural_equal(call.ty, earlier.ty)):
        return False
    if len(call.args) != len(earlier.args):
        return False
    for a, b in zip(call.args, earlier.args):
        if isinstance(a, relax.Tuple):
            if not isinstance(b, relax.Tuple) or len(a.fields) != len(b.fields):
                return False
            if not all(tvm_ffi.structural_equal(x.ty, y.ty) for x, y in zip(a.fields, b.fields)):
                return False
        elif isinstance(a, relax.Var):
            if not isinstance(b, relax.Var) or not tvm_ffi.structural_equal(a.ty, b.ty):
                return False
        elif not tvm_ffi.structural_equal(a, b):
            return False
    return True


def _positions(call: relax.Call, result) -> list[int] | None:
    """Where each operand of `result`'s call_tir is among the call's
    operands, when `result` is a call_tir of them alone, else None."""
    if not (isinstance(result, relax.Call) and result.op.same_as(_CALL_TIR) and len(result.args) == 2):
        return None
    fields = result.args[1]
    if not isinstance(fields, relax.Tuple):
        return None
    operands = _operands(call)
    if any(operands[i].same_as(operands[j]) for i in range(len(operands)) for j in range(i)):
        return None
    positions = []
    for field in fields.fields:
        at = next((k for k, o in enumerate(operands) if field.same_as(o)), None)
        if at is None:
            return None
        positions.append(at)
    return positions
