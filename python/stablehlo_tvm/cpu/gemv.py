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

# A product, its bias, activation and casts.
_MAX_BLOCKS = 8


class MatrixVector(GEMV):
    # Whether the rule schedules only functions with a reduction (see schedule.first_rule_schedule).
    needs_reduction = True

    def apply(self, func: tirx.PrimFunc, target: Target, tunable: bool):
        blocks = normalize_prim_func(s_tir.Schedule(func))
        if not blocks or len(blocks) > _MAX_BLOCKS or sum(not b.is_injective() for b in blocks) != 1:
            return None
        sch = super().apply(func, target, tunable)
        if sch is None or _loops_in_vector(sch.mod["main"].script()):
            return None
        return sch


def _loops_in_vector(text: str) -> bool:
    """Whether a vectorized loop holds another loop. The rule vectorizes a
    column vector's product (x[k, 0]) over the matrix's rows with the
    reduction inside, unrolled: every lane a strided load, which took LLVM
    minutes for a 128x128 matrix (RowReduction schedules it instead)."""
    vector_depth = None
    for line in text.splitlines():
        depth = len(line) - len(line.lstrip())
        if vector_depth is not None and depth <= vector_depth:
            vector_depth = None
        stripped = line.lstrip()
        if vector_depth is not None and stripped.startswith("for "):
            return True
        if vector_depth is None and stripped.startswith("for ") and "T.vectorized(" in stripped:
            vector_depth = depth
    return False
