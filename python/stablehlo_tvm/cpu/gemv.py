"""Matrix-vector products: TVM's dlight GEMV rule, given only the functions
it can schedule.

That rule inlines every spatial block of a function before it looks at what
the function computes, with no regard to how often each value is read: on a
long element-wise formula (erf_inv's Newton steps, digamma) the inlined
expression doubles with each level and the rule never returns. Here it sees
only functions with one reduction and few other blocks, the shape it
schedules (a product and its epilogue)."""

from __future__ import annotations

from tvm import s_tir, tirx
from tvm.s_tir.dlight.analysis import normalize_prim_func
from tvm.s_tir.dlight.cpu import GEMV
from tvm.target import Target

from .tir_walk import block_counts, loop_in_vectorized_loop
from .unchecked import UncheckedSchedule

# A product, its bias, activation and casts.
_MAX_BLOCKS = 8


class MatrixVector(GEMV):
    # Whether the rule schedules only functions with a reduction (see schedule.first_rule_schedule).
    needs_reduction = True

    def apply(self, func: tirx.PrimFunc, target: Target, tunable: bool):
        count, reductions = block_counts(func)  # before the analysis
        if count > _MAX_BLOCKS or reductions != 1:
            return None
        blocks = normalize_prim_func(UncheckedSchedule(func))
        if not blocks or len(blocks) > _MAX_BLOCKS or sum(not b.is_injective() for b in blocks) != 1:
            return None
        sch = super().apply(func, target, tunable)
        # A column vector's product (x[k, 0]) vectorized over the matrix's
        # rows with the reduction inside, unrolled, is every lane a strided
        # load: that took LLVM minutes for a 128x128 matrix (RowReduction
        # schedules it instead).
        if sch is None or loop_in_vectorized_loop(sch.mod["main"]):
            return None
        return sch
