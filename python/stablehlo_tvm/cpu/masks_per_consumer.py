"""MasksPerConsumer: a boolean mask (a comparison, or a logical operator of
masks) that several operators read is computed again for each of them.

Fusion bounds a fused function's size (pipeline.MAX_FUSED_OPS), so a long
formula (a special function's series, its recurrences and reflection) is
cut into several functions; a mask computed in one and chosen by in others
crosses as a tensor of booleans, and code that loads booleans is not
vectorized (rule.vectorizable). digamma of 65,536 floats took 2.2 ms that
way against 0.4 ms fused whole. A comparison is one instruction: each
reader's copy fuses into the reader's function, and only the compared
floats cross between functions.

Only masks of at least `MIN_ELEMENTS` elements, where vector code is what
is at stake: copying the masks of a scalar line search (optax's L-BFGS,
rank-0 comparisons read by several selects) made that program's result
wrong, through a later stage not yet found, while the module the copies
make is right (it runs right through TVM's own pipeline)."""

from __future__ import annotations

import tvm
from tvm import relax, tirx
from tvm.relax.expr_functor import PyExprMutator, mutator

from .bindings import rewrite_functions

_MASKS = {
    f"relax.{name}"
    for name in (
        "equal",
        "not_equal",
        "less",
        "less_equal",
        "greater",
        "greater_equal",
        "logical_and",
        "logical_or",
        "logical_xor",
        "logical_not",
        "isnan",
        "isinf",
        "isfinite",
    )
}


# Masks smaller than this are shared as they are.
MIN_ELEMENTS = 1024


def _is_mask(value) -> bool:
    if not (isinstance(value, relax.Call) and isinstance(value.op, tvm.ir.Op) and value.op.name in _MASKS):
        return False
    ty = value.ty
    if not isinstance(ty, relax.TensorType) or ty.shape is None:
        return False
    elements = 1
    for size in ty.shape:
        if not isinstance(size, tirx.IntImm):
            return False
        elements *= int(size)
    return elements >= MIN_ELEMENTS


@mutator
class _Rewriter(PyExprMutator):
    def __init__(self, mod, masks: dict):
        super().__init__(mod)
        # Masks read by more than one call: variable -> the call binding it.
        self.masks = masks

    def visit_call_(self, call):
        if not any(isinstance(a, relax.Var) and a in self.masks for a in call.args):
            return super().visit_call_(call)
        args = [self._copy(a) if isinstance(a, relax.Var) and a in self.masks else self.visit_expr(a) for a in call.args]
        return relax.Call(self.visit_expr(call.op), args, call.attrs, call.ty_args, call.span)

    def _copy(self, var):
        """A new binding computing the mask `var` (and the shared masks it
        reads) for one reader."""
        value = self.masks[var]
        args = [self._copy(a) if isinstance(a, relax.Var) and a in self.masks else self.visit_expr(a) for a in value.args]
        return self.builder_.emit(relax.Call(value.op, args, value.attrs, value.ty_args, value.span))


def _blocks(expr):
    """The binding blocks of `expr`, in branches and local functions too."""
    pending = [expr]
    while pending:
        expr = pending.pop()
        if isinstance(expr, relax.SeqExpr):
            for block in expr.blocks:
                yield block
                pending += [b.value for b in block.bindings if isinstance(b.value, (relax.If, relax.SeqExpr, relax.Function))]
            pending.append(expr.body)
        elif isinstance(expr, relax.If):
            pending += [expr.true_branch, expr.false_branch]
        elif isinstance(expr, relax.Function):
            pending.append(expr.body)


def _reads(bindings) -> dict:
    """How many call arguments each variable is, in `bindings`."""
    count: dict = {}
    for binding in bindings:
        value = binding.value
        if isinstance(value, relax.Call):
            for arg in value.args:
                if isinstance(arg, relax.Var):
                    count[arg] = count.get(arg, 0) + 1
    return count


def _shared_masks(func: relax.Function) -> dict:
    """Masks that several calls of their own dataflow block read and no
    call outside it (whose copies could not read the block's variables)."""
    blocks = list(_blocks(func.body))
    everywhere = _reads([b for block in blocks for b in block.bindings])
    shared = {}
    for block in blocks:
        if not isinstance(block, relax.DataflowBlock):
            continue
        inside = _reads(block.bindings)
        for binding in block.bindings:
            if _is_mask(binding.value) and inside.get(binding.var, 0) > 1 and inside[binding.var] == everywhere[binding.var]:
                shared[binding.var] = binding.value
    return shared


@tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.MasksPerConsumer")
def MasksPerConsumer(mod: tvm.IRModule, _ctx) -> tvm.IRModule:
    masks = {}
    for func in mod.functions.values():
        if isinstance(func, relax.Function):
            masks.update(_shared_masks(func))
    if not masks:
        return mod
    return rewrite_functions(_Rewriter(mod, masks), mod)
