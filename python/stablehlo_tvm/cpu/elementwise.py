"""Injective PrimFuncs (element-wise chains, broadcasts, transposes, copies):
inlined into one loop nest, outer axes fused and shared among cores, the
innermost axis vectorized; what cannot be inlined is computed inside the
output's loop where it can (CPURule.schedule_with_output)."""

from __future__ import annotations

from tvm import tirx
from tvm.s_tir.dlight.analysis import normalize_prim_func
from tvm.target import Target

from .rule import CPURule
from .unchecked import UncheckedSchedule


class Elementwise(CPURule):
    # Functions with a reduction are not element-wise (see schedule.first_rule_schedule).
    needs_reduction = False

    def apply(self, func: tirx.PrimFunc, target: Target, _tunable: bool):
        sch = UncheckedSchedule(func)
        blocks = normalize_prim_func(sch)
        if blocks is None or not blocks or not all(b.is_injective() for b in blocks):
            return None
        remaining = self.inline_all(sch, [b.block_rv for b in blocks[:-1]])
        last = blocks[-1].block_rv
        dtype = sch.get(last).writes[0].source.dtype if sch.get(last).writes else "float32"
        lanes = self.lanes(target, dtype)
        self.schedule_with_output(sch, remaining, last, lanes)
        return sch
