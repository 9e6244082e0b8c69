"""Integer add, subtract, multiply, negate and abs that wrap, through TVM's
lowering.

StableHLO's integer arithmetic wraps around; TVM compiles 32- and 64-bit
integer arithmetic with LLVM's no-wrap flags, and LLVM, reasoning from
them, folded what does wrap: an unsigned `0 - clz(x)` to 0, `x >= x + y`
to `y == 0`, `x * x` to a non-negative value. These legalizations compute
each such op in the integer twice as wide and truncate (`kernels.wrapping`),
inside the op's own block: the Relax graph, and so fusion and scheduling,
stay as they were, and LLVM narrows each op back to one instruction
without the flags."""

from __future__ import annotations

from typing import Callable

import tvm
from tvm import relax, te, tirx

_BINARY = {"relax.add": "add", "relax.subtract": "subtract", "relax.multiply": "multiply"}
_UNARY = {"relax.negative": "negative", "relax.abs": "abs"}


def _read(tensor: te.Tensor, out_rank: int, index: tuple, out_shape) -> tirx.PrimExpr:
    """`tensor` read at the output's `index`, broadcast as NumPy does (a
    scalar operand, or dimensions of 1)."""
    offset = out_rank - len(tensor.shape)
    at = []
    for axis, extent in enumerate(tensor.shape):
        unit = isinstance(extent, tirx.IntImm) and extent.value == 1
        wide = not (isinstance(out_shape[offset + axis], tirx.IntImm) and out_shape[offset + axis].value == 1)
        at.append(tirx.IntImm(extent.dtype, 0) if unit and wide else index[offset + axis])
    return tensor(*at)


def _legalize(op: str, fallback: Callable) -> Callable:
    from ..kernels import flagged_integer, wrapping

    def legalize(bb: relax.BlockBuilder, call: relax.Call) -> relax.Expr:
        out = call.ty
        operands = list(call.args)
        if not (
            isinstance(out, relax.TensorType)
            and out.shape is not None
            and flagged_integer(out.dtype)
            and all(isinstance(x.ty, relax.TensorType) and str(x.ty.dtype) == str(out.dtype) and x.ty.shape is not None for x in operands)
        ):
            return fallback(bb, call)

        def compute(*tensors: te.Tensor) -> te.Tensor:
            shape = list(out.shape.values)
            return te.compute(
                shape,
                lambda *i: wrapping(op, *[_read(t, len(shape), i, shape) for t in tensors]),
                name=f"wrapping_{op}",
            )

        return bb.call_te(compute, *operands)

    return legalize


def legalizations(others: dict) -> dict:
    """`others` (LegalizeOps' legalizations by operator name) with these
    for the integer ops of 32 bits or more; other types go on to `others`'
    or TVM's own."""
    out = dict(others)
    for name, op in {**_BINARY, **_UNARY}.items():
        fallback = others.get(name) or tvm.ir.Op.get(name).get_attr("FLegalize")
        out[name] = _legalize(op, fallback)
    return out
