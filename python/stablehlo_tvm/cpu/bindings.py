"""Walks over Relax functions in normal form."""

from __future__ import annotations

import tvm
from tvm import relax


def bound_values(expr):
    """The values `expr`'s bindings bind, in branches and local functions
    too. In normal form every call is one of them: walking bindings is a
    tenth of the cost of visiting every node from Python (0.4 s on a large
    sampler)."""
    if isinstance(expr, relax.SeqExpr):
        for block in expr.blocks:
            for binding in block.bindings:
                yield binding.value
                yield from bound_values(binding.value)
        yield expr.body
        yield from bound_values(expr.body)
    elif isinstance(expr, relax.If):
        yield from bound_values(expr.true_branch)
        yield from bound_values(expr.false_branch)
    elif isinstance(expr, relax.Function):
        yield from bound_values(expr.body)


def var_bindings(expr) -> list:
    """The variable bindings of `expr`, in branches too, as a list: a walk
    of the bindings alone with a stack (structural_walk's visit of every
    node, or generators nested as deep as diffrax's branches, took 0.1 s
    of a large build)."""
    found, pending = [], [expr]
    while pending:
        expr = pending.pop()
        if isinstance(expr, relax.SeqExpr):
            for block in expr.blocks:
                for binding in block.bindings:
                    if isinstance(binding, relax.VarBinding):
                        found.append(binding)
                        if isinstance(binding.value, (relax.If, relax.SeqExpr)):
                            pending.append(binding.value)
            pending.append(expr.body)
        elif isinstance(expr, relax.If):
            pending += [expr.true_branch, expr.false_branch]
    return found


def module_bound_values(mod: tvm.IRModule):
    """`bound_values` of every Relax function of `mod`."""
    for func in mod.functions.values():
        if isinstance(func, relax.Function):
            yield from bound_values(func.body)


def operators_called(mod: tvm.IRModule) -> set:
    """The names of the Relax operators `mod`'s functions call."""
    return {
        value.op.name
        for value in module_bound_values(mod)
        if isinstance(value, relax.Call) and isinstance(value.op, tvm.ir.Op)
    }


def is_op(expr, name: str) -> bool:
    """Whether `expr` calls the Relax operator `name` ("relax.add")."""
    return isinstance(expr, relax.Call) and isinstance(expr.op, tvm.ir.Op) and expr.op.name == name


def bound_to(mutator, expr):
    """The value a variable of the function `mutator` visits is bound to,
    else `expr` itself."""
    if isinstance(expr, relax.Var):
        bound = mutator.lookup_binding(expr)
        if bound is not None:
            return bound
    return expr


def rewrite_functions(rewriter, mod: tvm.IRModule, which=None) -> tvm.IRModule:
    """`mod` with the Relax functions `which(gvar)` accepts (all, without
    it) visited by `rewriter` (a PyExprMutator made over `mod`), and what its
    builder added."""
    for gvar, func in mod.functions_items():
        if isinstance(func, relax.Function) and (which is None or which(gvar)):
            rewriter.builder_.update_func(gvar, rewriter.visit_expr(func))
    return rewriter.builder_.finalize()
