"""Injective PrimFuncs (element-wise chains, broadcasts, transposes, copies):
inlined into one loop nest, outer axes fused and shared among cores, the
innermost axis vectorized; what cannot be inlined is computed inside the
output's loop where it can (CPURule.schedule_with_output)."""

from __future__ import annotations

from tvm import tirx
from tvm.s_tir.dlight.analysis import normalize_prim_func
from tvm.target import Target

from .joined_outputs import join_output_blocks
from .rule import CPURule
from .tir_walk import scalar_blocks
from .unchecked import UncheckedSchedule


class Elementwise(CPURule):
    # Functions with a reduction are not element-wise (see schedule.first_rule_schedule).
    needs_reduction = False

    def apply(self, func: tirx.PrimFunc, target: Target, _tunable: bool):
        sch = UncheckedSchedule(join_output_blocks(func))
        # Scalar blocks are already in the normal form: normalize_prim_func
        # would take a third of a second to say so for a scalar formula of
        # a hundred blocks (lgamma's gradient in a log-density).
        count = scalar_blocks(func)
        if count:
            blocks = list(sch.get_child_blocks(sch.get_sblock(func.body.block.name_hint)))
            if len(blocks) != count:
                return None
        else:
            infos = normalize_prim_func(sch)
            if not infos or not all(b.is_injective() for b in infos):
                return None
            blocks = [b.block_rv for b in infos]
        remaining = self.inline_all(sch, blocks[:-1])
        last = blocks[-1]
        dtype = sch.get(last).writes[0].source.dtype if sch.get(last).writes else "float32"
        lanes = self.lanes(target, dtype)
        self.schedule_with_output(sch, remaining, last, lanes)
        return sch
