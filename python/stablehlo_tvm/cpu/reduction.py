"""Reductions: softmax/layernorm-shaped functions (reductions and
element-wise blocks over the same rows) through TVM's dlight CPU rule; other
reductions are parallel over their rows and vectorized:

- along a contiguous row (the innermost loop reduces), by `lanes` partial
  results (rfactor) combined at the end of the row;
- across rows (the innermost loop is spatial), over that spatial axis, which
  keeps each element's order of accumulation.
"""

from __future__ import annotations

from tvm import s_tir, tirx
from tvm.s_tir.dlight.analysis import normalize_prim_func
from tvm.s_tir.dlight.cpu import Reduction
from tvm.target import Target

from .rule import CPURule, extent_of, fused, iterations, vectorizable
from .tir_walk import block_counts, loads_in, store_of
from .unchecked import UncheckedSchedule

# Rows shorter than this many vectors are reduced in order: partial sums
# reassociate, which is worth it only when the row is long.
_MIN_VECTORS_PER_ROW = 4

# dlight's rule schedules a row's few blocks (softmax, layer norm) and
# analyses the function on a schedule of its own, whose failed layout
# transforms of 0-d blocks print the whole function (see unchecked.py):
# 0.56 s declining three functions of 50-80 blocks in one build.
_MAX_ROW_BLOCKS = 16


class RowReduction(CPURule):
    # Whether the rule schedules only functions with a reduction (see schedule.first_rule_schedule).
    needs_reduction = True

    def __init__(self):
        self._rows = Reduction()

    def apply(self, func: tirx.PrimFunc, target: Target, tunable: bool):
        if block_counts(func)[0] <= _MAX_ROW_BLOCKS:
            sch = self._rows.apply(func, target, tunable)
            if sch is not None:
                return sch
        sch = UncheckedSchedule(func)
        blocks = normalize_prim_func(sch)
        if blocks is None or all(b.is_injective() for b in blocks):
            return None
        remaining = self.inline_all(sch, [b.block_rv for b in blocks if b.is_injective()])
        for info in blocks:
            block = info.block_rv
            if info.is_injective() and block not in remaining:
                continue
            dtype = sch.get(block).writes[0].source.dtype
            lanes = self.lanes(target, str(dtype))
            if info.is_injective() or not vectorizable(sch.get(block)):
                self._parallel_rows(sch, block, info)
            elif _reduces_contiguous_axis(sch, block):
                self._along_rows(sch, block, info, lanes)
            else:
                self._across_rows(sch, block, info, lanes)
        return sch

    @staticmethod
    def _parallel_rows(sch: s_tir.Schedule, block, info):
        """Leading spatial loops fused and shared among cores; returns the fused loop."""
        loops = sch.get_loops(block)
        spatial = [l for l, it in zip(loops, info.iters) if it.kind == "S"]
        if spatial and spatial == loops[: len(spatial)] and iterations(sch, spatial) > 1:
            rows = fused(sch, spatial)
            sch.parallel(rows)
            return rows
        return None

    def _along_rows(self, sch: s_tir.Schedule, block, info, lanes: int):
        loops = sch.get_loops(block)
        innermost = _fused_trailing_reductions(sch, loops, info)
        width = _dividing_width(extent_of(sch, innermost), lanes, _MIN_VECTORS_PER_ROW)
        if width is None:
            self._parallel_rows(sch, block, info)
            return
        _, lane = sch.split(innermost, [None, width])
        # The partial results' axis goes after the written buffer's own (a
        # 0-d result can come with a unit spatial loop: fewer axes than loops).
        rank = len(sch.get(block).writes[0].source.shape)
        partial = sch.rfactor(lane, factor_axis=min(rank, len([it for it in info.iters if it.kind == "S"])))
        rows = self._parallel_rows(sch, block, info)
        if rows is not None:
            sch.compute_at(partial, rows, preserve_unit_loops=False)
            # compute_at puts the lane loop (now spatial) outside the row loop.
            *_, lane, along = sch.get_loops(partial)
            sch.reorder(along, lane)
            first = along
        else:
            # No rows: a reduction over every axis, whose partial results
            # are initialized once, before all of its loops.
            loops = sch.get_loops(partial)
            first, lane = loops[0], loops[-1]
        sch.vectorize(lane)
        sch.decompose_reduction(partial, first)

    def _across_rows(self, sch: s_tir.Schedule, block, info, lanes: int):
        """Reduction loops outside the innermost spatial loop, which is split
        into vectors; the spatial loops outside them shared among cores."""
        spatial = [it.loop_rv for it in info.iters if it.kind == "S"]
        reduce = [it.loop_rv for it in info.iters if it.kind == "R"]
        if not spatial or len(spatial) + len(reduce) != len(info.iters):
            self._parallel_rows(sch, block, info)
            return
        *outer, inner = spatial
        width = _dividing_width(extent_of(sch, inner), lanes, 2)
        if width is not None:
            rest, inner = sch.split(inner, [None, width])
            outer.append(rest)
        sch.reorder(*outer, *reduce, inner)
        if outer and iterations(sch, outer) > 1:
            sch.parallel(fused(sch, outer))
        if width is not None:
            sch.vectorize(inner)  # before the init is split off: the loop carries it
        sch.decompose_reduction(block, reduce[0])


def _dividing_width(extent: int | None, lanes: int, vectors: int) -> int | None:
    """The widest vector of `lanes`, `lanes`/2 or `lanes`/4 elements (at least
    4) that divides `extent` at least `vectors` times: a row of 1,000 f32
    values is 125 vectors of 8, where 16 lanes would leave a tail and the
    row would be reduced one element at a time."""
    if extent is None:
        return None
    for width in (lanes, lanes // 2, lanes // 4):
        if width >= 4 and extent % width == 0 and extent >= vectors * width:
            return width
    return None


def _reduces_contiguous_axis(sch: s_tir.Schedule, block) -> bool:
    """Whether a load of the block is indexed last by a reduction variable
    (rows reduced along memory)."""
    stmt = sch.get(block)
    reduced = [iv.var for iv in stmt.iter_vars if iv.iter_type == tirx.IterVar.CommReduce]
    store = store_of(stmt)
    if store is None:
        return False
    return any(
        load.indices and isinstance(load.indices[-1], tirx.Var) and any(load.indices[-1].same_as(v) for v in reduced)
        for load in loads_in(store.value)
    )


def _fused_trailing_reductions(sch: s_tir.Schedule, loops: list, info):
    """The innermost loop, made one loop of all the reduction loops when
    they are the innermost ones: a sum over two axes (an image's, a 512 x 512
    matrix's) is then one long row split into vectors, where splitting only
    the last axis left the partial results' loops out of order and the
    reduction serial (2 x 512 x 512 values: 0.51 ms against 0.09 as one
    row)."""
    reduce = [it.loop_rv for it in info.iters if it.kind == "R"]
    trailing = loops[len(loops) - len(reduce) :]
    if len(reduce) < 2 or not all(sch.get(a).same_as(sch.get(b)) for a, b in zip(trailing, reduce)):
        return loops[-1]
    return sch.fuse(*trailing)
