"""Vector-matrix products (v @ W, W row-major): the output's columns are
W's contiguous axis, so a vector of columns accumulates along the rows.

Matmul tiles rows of the output, which a vector times a matrix does not
have once the unit row is normalized away, and TVM's GEMV rule reduces
each output element over a vector of rows: every lane a load a row apart
(a 64 x 192 weight: 3.1 us a product in a decoding loop, XLA 1.1). Here a
tile of columns (two vectors) accumulates in registers over every row,
each step one broadcast element of v times a contiguous piece of W's row,
and the epilogue (bias, activation) is applied as the tile is written."""

from __future__ import annotations

from tvm import tirx
from tvm.target import Target

from .rule import PARALLEL_GRAIN, CPURule, divisor_at_most, extent_of, fused, iterations, vectorizable


class VectorMatrix(CPURule):
    # Whether the rule schedules only functions with a reduction (see schedule.first_rule_schedule).
    needs_reduction = True

    def apply(self, func: tirx.PrimFunc, target: Target, _tunable: bool):
        found = self.with_one_reduction(func)
        if found is None:
            return None
        sch, blocks, main = found
        block = sch.get(main)
        loops = sch.get_loops(main)
        if len(loops) != len(block.iter_vars) or not vectorizable(block):
            return None
        spatial = [v.var for v in block.iter_vars if v.iter_type == tirx.IterVar.DataPar]
        reduced = [v.var for v in block.iter_vars if v.iter_type == tirx.IterVar.CommReduce]
        write = block.writes[0]
        if not reduced or not write.region:
            return None
        column = write.region[-1].min
        if not any(column.same_as(v) for v in spatial):
            return None
        if not _reads_a_matrix_by_rows(block, column, reduced):
            return None
        lanes = self.lanes(target, write.source.dtype)
        j = next(loop for v, loop in zip(block.iter_vars, loops) if v.var.same_as(column))
        n = extent_of(sch, j)
        nr = divisor_at_most(n, 2 * lanes, multiple_of=lanes) if n else 0
        if not nr:
            return None
        others = [b.block_rv for b in blocks if b.is_injective()]
        remaining = self.inline_all(sch, others)
        epilogue = [b for b in remaining if self.is_consumer_of(sch, b, main)]
        epilogue = epilogue if len(epilogue) == 1 and len(sch.get_consumers(main)) == 1 else []
        for b in remaining:
            if b not in epilogue:
                self.schedule_at_root(sch, b, lanes)

        loops = sch.get_loops(main)
        batch = [l for l, v in zip(loops, block.iter_vars) if v.iter_type == tirx.IterVar.DataPar and not v.var.same_as(column)]
        rows = [l for l, v in zip(loops, block.iter_vars) if v.iter_type == tirx.IterVar.CommReduce]
        sch.reorder(*batch, j, *rows)
        k = fused(sch, rows)
        jo, ji = sch.split(j, [None, nr])
        sch.reorder(*batch, jo, k, ji)
        self.accumulate_in_registers(sch, main, jo, epilogue[0] if epilogue else None, lanes)
        sch.vectorize(ji)
        outer = [*batch, jo]
        if iterations(sch, [*outer, k]) * nr >= PARALLEL_GRAIN:
            sch.parallel(fused(sch, outer))
        sch.decompose_reduction(main, k)
        return sch


def _reads_a_matrix_by_rows(block, column, reduced) -> bool:
    """Whether a read of `block` is indexed last by the output's column and
    elsewhere by a reduced variable: W[k, j], W's rows walked by the
    reduction and its contiguous axis by the output's columns."""
    for read in block.reads:
        if not read.region or not read.region[-1].min.same_as(column):
            continue
        used = [v for r in read.region[:-1] for v in tirx.analysis.undefined_vars(r.min)]
        if any(u.same_as(r) for u in used for r in reduced):
            return True
    return False
