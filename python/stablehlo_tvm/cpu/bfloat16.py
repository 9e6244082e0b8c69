"""bfloat16 that rounds where StableHLO says it does, through TVM's lowering.

TVM computes bfloat16 in float32 and, lowering, drops a cast pair
f32 -> bf16 -> f32 it meets inside an expression. Converting an f32 to
bfloat16 and back gave the f32 unchanged, so the rounding mixed-precision
code asks for (compute in f32, keep activations in bf16) vanished wherever
the two converts fused; and a fused chain of bfloat16 ops was computed in
f32 and rounded once, where XLA rounds every op. Here a conversion of f32
to bfloat16, and each bfloat16 add, subtract, multiply and divide, round
the f32 value first, with integer operations no pass removes; the cast
that follows is then exact, whether it survives or not."""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import relax, te, tirx


_TVM_LEGALIZE = tvm.ir.Op.get("relax.astype").get_attr("FLegalize")


def legalize_astype(bb: relax.BlockBuilder, call: relax.Call) -> relax.Expr:
    """`relax.astype`'s legalization: TVM's, except from float32 to
    bfloat16 (see the module docstring)."""
    source = call.args[0]
    if call.attrs.dtype != "bfloat16" or not isinstance(source.ty, relax.TensorType) or source.ty.dtype != "float32":
        return _TVM_LEGALIZE(bb, call)

    return bb.call_te(lambda x: _rounded(x.shape, lambda *i: x(*i), "round_bfloat16"), source)


def _rounded(shape, wide, name: str) -> te.Tensor:
    """bfloat16 elements of `shape`: the f32 `wide(*index)`, rounded."""
    from ..kernels import round_to_bfloat16

    return te.compute(shape, lambda *i: tirx.Cast("bfloat16", round_to_bfloat16(wide(*i))), name=name)


# bfloat16 arithmetic computed in f32 and rounded after each op, as XLA
# does ((x * x) * x rounded once differed from XLA in a quarter of the
# elements). StableHLO's operands have one shape, so each op stays one
# block, as TVM's legalization makes it.
_ARITHMETIC = {
    "relax.add": lambda a, b: a + b,
    "relax.subtract": lambda a, b: a - b,
    "relax.multiply": lambda a, b: a * b,
    "relax.divide": lambda a, b: a / b,
}


def _legalize_arithmetic(name: str):
    default = tvm.ir.Op.get(name).get_attr("FLegalize")
    apply = _ARITHMETIC[name]

    def legalize(bb: relax.BlockBuilder, call: relax.Call) -> relax.Expr:
        a, b = call.args
        same = (
            isinstance(call.ty, relax.TensorType)
            and call.ty.dtype == "bfloat16"
            and all(isinstance(x.ty, relax.TensorType) and x.ty.dtype == "bfloat16" for x in (a, b))
            and tvm_ffi.structural_equal(a.ty.shape, b.ty.shape)
            and a.ty.shape is not None
        )
        if not same:
            return default(bb, call)

        def rounded(x: te.Tensor, y: te.Tensor):
            def wide(*i):
                return apply(tirx.Cast("float32", x(*i)), tirx.Cast("float32", y(*i)))

            return _rounded(x.shape, wide, name.split(".")[-1])

        return bb.call_te(rounded, a, b)

    return legalize


def legalizations() -> dict:
    """This module's legalizations, for LegalizeOps."""
    return {"relax.astype": legalize_astype, **{name: _legalize_arithmetic(name) for name in _ARITHMETIC}}
