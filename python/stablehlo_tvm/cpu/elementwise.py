"""Injective PrimFuncs (element-wise chains, broadcasts, transposes, copies):
inlined into one loop nest, outer axes fused and shared among cores, the
innermost axis vectorized. What cannot be inlined (values read many times)
is computed a vector at a time inside the last block's loop, so that it
lives in registers rather than in whole intermediate arrays."""

from __future__ import annotations

from tvm import s_tir, tirx
from tvm.s_tir.dlight.analysis import normalize_prim_func
from tvm.target import Target

from .rule import CPURule, extent_of, iterations


class Elementwise(CPURule):
    def apply(self, func: tirx.PrimFunc, target: Target, _tunable: bool):
        sch = s_tir.Schedule(func)
        blocks = normalize_prim_func(sch)
        if blocks is None or not blocks or not all(b.is_injective() for b in blocks):
            return None
        remaining = self.inline_all(sch, [b.block_rv for b in blocks[:-1]])
        last = blocks[-1].block_rv
        dtype = sch.get(last).writes[0].source.dtype if sch.get(last).writes else "float32"
        lanes = self.lanes(target, dtype)
        self.schedule_at_root(sch, last, lanes)
        loops = sch.get_loops(last)
        # A vector's worth of each producer per iteration of the outer loop;
        # inside the vector loop itself its buffer would shrink to one lane.
        outer = loops[0] if loops and sch.get(loops[0]).kind != tirx.ForKind.VECTORIZED else None
        for block in reversed(remaining):
            if outer is None or not _compute_at(sch, block, outer):
                self.schedule_at_root(sch, block, lanes)
            elif len(sch.get_loops(block)) > 1:  # a loop of its own below the shared one
                self.vectorize_innermost(sch, block, lanes)
        return sch


def _compute_at(sch: s_tir.Schedule, block, loop) -> bool:
    """compute_at, where it computes each element of `block` once: a
    producer read with a halo or across (a padded input under im2col
    slices) would be recomputed at many iterations."""
    domain = iterations(sch, sch.get_loops(block))
    trial = sch.copy()
    try:
        trial.compute_at(block, loop, preserve_unit_loops=False)
    except Exception:  # noqa: BLE001 - not element-wise: it keeps a loop nest of its own
        return False
    loops = trial.get_loops(block)
    if any(extent_of(trial, l) is None for l in loops) or iterations(trial, loops) > domain:
        return False
    sch.compute_at(block, loop, preserve_unit_loops=False)
    return True
