"""ScheduleFunctions: the module pass that gives every PrimFunc the first
CPU rule that fits. A rule that fails on a function it claimed leaves the
function to the next rule: an unscheduled PrimFunc is slow, never wrong.
With STABLEHLO_TVM_STRICT_RULES set (the tests set it), an error raised by
the package's own code in a rule is raised, not taken for a schedule the
rule cannot make: there it is a bug that only costs speed."""

from __future__ import annotations

import os
import traceback
from pathlib import Path

import tvm
from tvm import tirx

from .tir_walk import has_reduction


def default_rules() -> list:
    from .elementwise import Elementwise
    from .gemv import MatrixVector
    from .matmul import Matmul
    from .reduction import RowReduction
    from .vector_matrix import VectorMatrix

    # The products Matmul leaves (no row axis): a vector times a row-major
    # matrix accumulates along the rows (VectorMatrix); TVM's GEMV rule
    # takes the matrix-vector products.
    return [Matmul(), VectorMatrix(), MatrixVector(), RowReduction(), Elementwise()]


@tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.ScheduleFunctions")
class ScheduleFunctions:
    def __init__(self, target, rules=None):
        self.target = target
        self.rules = default_rules() if rules is None else rules

    def transform_module(self, mod: tvm.IRModule, _ctx) -> tvm.IRModule:
        from ..progress import phase

        updates = {}
        functions = [(g, f) for g, f in mod.functions_items() if isinstance(f, tirx.PrimFunc)]
        for k, (gvar, func) in enumerate(functions):
            phase(f"scheduling function {k + 1} of {len(functions)}")
            if func.attrs.get("tirx.is_scheduled", False):
                continue
            sch = first_rule_schedule(func, self.target, self.rules)
            if sch is not None:
                updates[gvar] = sch.mod["main"].with_attr("tirx.is_scheduled", True)
        for gvar, func in updates.items():
            mod[gvar] = func
        phase(f"generating code for {len(functions)} functions (LLVM)")
        return mod


def first_rule_schedule(func: tirx.PrimFunc, target, rules=None):
    """The schedule of the first rule that fits `func`, or None. Rules that
    say whether they need a reduction (`needs_reduction`) are not tried on
    functions that have none, or have one: each rule's analysis of the
    function (dlight's normalize_prim_func) took most of the scheduling
    time, most of it in rules that then declined."""
    reduces = has_reduction(func)
    for rule in default_rules() if rules is None else rules:
        needs = getattr(rule, "needs_reduction", None)
        if needs is not None and needs != reduces:
            continue
        try:
            sch = rule.apply(func, target, False)
        except Exception as error:  # noqa: BLE001 - see the module docstring
            if os.environ.get("STABLEHLO_TVM_STRICT_RULES") and _raised_by_the_package(error):
                raise
            sch = None
        if sch is not None:
            return sch
    return None


_PACKAGE = str(Path(__file__).resolve().parent.parent)


def _raised_by_the_package(error: BaseException) -> bool:
    frames = traceback.extract_tb(error.__traceback__)
    return bool(frames) and frames[-1].filename.startswith(_PACKAGE)
