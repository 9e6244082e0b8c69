"""ShareEqualPrimFuncs: fused PrimFuncs equal but for their names become one.

FuseTIR makes one PrimFunc of fused groups that are alike, but PrimFuncs
made apart before fusion stay apart though equal: ConvAsMatmul makes each
convolution's patch gather a function of its own (DenseNet had 367
PrimFuncs of 313 kinds, Haiku's ResNet-18 68 of 59). Functions equal in
all but their global symbol (buffers, body and attributes) are scheduled
and compiled once: every call of a duplicate calls the first of its kind,
and the duplicates are dropped.
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import relax, tirx
from tvm.relax.expr_functor import PyExprMutator, mutator

from .bindings import rewrite_functions


def _duplicates(mod: tvm.IRModule) -> dict:
    """Each PrimFunc equal to an earlier one (ignoring its global symbol),
    mapped to that one's GlobalVar."""
    kinds: dict[int, list] = {}
    duplicate_of: dict = {}
    for gvar, func in mod.functions_items():
        if not isinstance(func, tirx.PrimFunc):
            continue
        plain = func.without_attr("global_symbol") if func.attrs is not None and "global_symbol" in func.attrs else func
        alike = kinds.setdefault(tvm_ffi.structural_hash(plain, map_free_vars=True), [])
        first = next((other for other, other_plain in alike if tvm_ffi.structural_equal(plain, other_plain, map_free_vars=True)), None)
        if first is None:
            alike.append((gvar, plain))
        else:
            duplicate_of[gvar] = first
    return duplicate_of


@tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.ShareEqualPrimFuncs")
def ShareEqualPrimFuncs(mod: tvm.IRModule, _ctx) -> tvm.IRModule:  # noqa: N802 - a pass
    duplicate_of = _duplicates(mod)
    if not duplicate_of:
        return mod

    @mutator
    class _Callers(PyExprMutator):
        def visit_global_var_(self, op: tvm.ir.GlobalVar):
            return duplicate_of.get(op, op)

    mod = rewrite_functions(_Callers(mod), mod)
    for gvar in duplicate_of:
        del mod[gvar]
    return mod


__all__ = ["ShareEqualPrimFuncs"]
