"""Reductions: softmax/layernorm-shaped functions (reductions and
element-wise blocks over the same rows) through TVM's dlight CPU rule; a
lone reduction is parallel over its rows."""

from __future__ import annotations

from tvm import s_tir, tirx
from tvm.s_tir.dlight.analysis import normalize_prim_func
from tvm.s_tir.dlight.cpu import Reduction
from tvm.target import Target

from .rule import CPURule, iterations


class RowReduction(CPURule):
    def __init__(self):
        self._rows = Reduction()

    def apply(self, func: tirx.PrimFunc, target: Target, tunable: bool):
        sch = self._rows.apply(func, target, tunable)
        if sch is not None:
            return sch
        sch = s_tir.Schedule(func)
        blocks = normalize_prim_func(sch)
        if blocks is None or all(b.is_injective() for b in blocks):
            return None
        remaining = self.inline_all(sch, [b.block_rv for b in blocks if b.is_injective()])
        for info in blocks:
            block = info.block_rv
            if info.is_injective() and block not in remaining:
                continue
            loops = sch.get_loops(block)
            spatial = [l for l, it in zip(loops, info.iters) if it.kind == "S"]
            if spatial and spatial == loops[: len(spatial)] and iterations(sch, spatial) > 1:
                sch.parallel(sch.fuse(*spatial) if len(spatial) > 1 else spatial[0])
        return sch
