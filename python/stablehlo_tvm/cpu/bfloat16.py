"""Conversions to bfloat16 that stay rounded through TVM's lowering.

TVM computes bfloat16 in float32 and, lowering, drops a cast pair
f32 -> bf16 -> f32 it meets inside an expression: converting an f32 to
bfloat16 and back gave the f32 unchanged, so the rounding mixed-precision
code asks for (compute in f32, keep activations in bf16) vanished wherever
the two converts fused. Here a conversion of f32 to bfloat16 rounds the
value in f32 first, with integer operations no pass removes; the cast that
follows is then exact, whether it survives or not."""

from __future__ import annotations

import tvm
from tvm import relax, te, tirx


_TVM_LEGALIZE = tvm.ir.Op.get("relax.astype").get_attr("FLegalize")


def legalize_astype(bb: relax.BlockBuilder, call: relax.Call) -> relax.Expr:
    """`relax.astype`'s legalization: TVM's, except from float32 to
    bfloat16 (see the module docstring)."""
    from ..kernels import round_to_bfloat16

    source = call.args[0]
    if call.attrs.dtype != "bfloat16" or not isinstance(source.ty, relax.TensorType) or source.ty.dtype != "float32":
        return _TVM_LEGALIZE(bb, call)

    def rounded(x: te.Tensor):
        return te.compute(x.shape, lambda *i: tirx.Cast("bfloat16", round_to_bfloat16(x(*i))), name="round_bfloat16")

    return bb.call_te(rounded, source)
