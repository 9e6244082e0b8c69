"""What the passes that move matrix products to other kernels share: a
mutator that offers each `relax.matmul` to a rewrite, and static shapes."""

from __future__ import annotations

from typing import Callable

import tvm
from tvm import relax
from tvm.relax.expr_functor import PyExprMutator, mutator

from .bindings import rewrite_functions


def static_shape(expr) -> list[int] | None:
    """`expr`'s shape as integers; None unless a tensor of static shape."""
    shape = expr.ty.shape if isinstance(expr.ty, relax.TensorType) else None
    if not isinstance(shape, relax.ShapeExpr):
        return None
    try:
        return [int(v) for v in shape.values]
    except TypeError:
        return None


@mutator
class _MatmulRewriter(PyExprMutator):
    def __init__(self, mod, rewrite):
        super().__init__(mod)
        self._rewrite = rewrite

    def visit_call_(self, call):
        call = super().visit_call_(call)
        if isinstance(call.op, tvm.ir.Op) and call.op.name == "relax.matmul":
            rewritten = self._rewrite(self, call)
            if rewritten is not None:
                return rewritten
        return call


def rewrite_matmuls(mod: tvm.IRModule, rewrite: Callable, functions: set[str] | None = None) -> tvm.IRModule:
    """`mod` with each matmul of its Relax functions (those named in
    `functions`, else all) replaced by `rewrite(mutator, call)` unless that
    is None. The mutator's builder_ emits and adds functions."""
    which = None if functions is None else (lambda gvar: gvar.name_hint in functions)
    return rewrite_functions(_MatmulRewriter(mod, rewrite), mod, which)
