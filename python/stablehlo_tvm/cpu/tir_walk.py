"""Questions about PrimFuncs answered by walking their TIR in C++
(tvm_ffi.structural_walk), calling back into Python only at the nodes
asked about: printing a function to search its text cost ten times more
(0.1 s a build on large modules)."""

from __future__ import annotations

import tvm_ffi
from tvm import s_tir, tirx

_STATEMENTS = (tirx.BufferStore, tirx.Bind, tirx.For, tirx.While, tirx.IfThenElse, tirx.Evaluate)


def statement_count(func: tirx.PrimFunc) -> int:
    """How many statements `func` has: a measure of the work of lowering
    and compiling it."""
    count = [0]

    def seen(_stmt):
        count[0] += 1

    tvm_ffi.structural_walk(func.body, [(_STATEMENTS, seen)])
    return count[0]


def has_reduction(func: tirx.PrimFunc) -> bool:
    """Whether a block of `func` reduces: it has a reduction axis or an
    init statement."""

    def check(block):
        if block.init is not None or any(v.iter_type == tirx.IterVar.CommReduce for v in block.iter_vars):
            return tvm_ffi.VisitInterrupt(True)
        return None

    return tvm_ffi.structural_walk(func.body, [(s_tir.SBlock, check)], order="pre") is not None
