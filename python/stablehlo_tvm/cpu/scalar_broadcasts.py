"""BroadcastScalarsPerUse: a scalar broadcast to a tensor that several
operators read is broadcast once per reader.

FuseOps fuses a producer into its consumer only when that consumer is its
only one, so a `broadcast_to` of a scalar that three element-wise ops read
stays a kernel of its own that writes the whole tensor, which the three
then read back: inside a loop, once per iteration (jax-md's periodic
displacement broadcasts its box size to every particle pair, 64 x 64 x 3,
three times a step). Broadcast per reader, each copy fuses into its reader
as a scalar load. The scalar itself is still computed once.
"""

from __future__ import annotations

import collections

import tvm
from tvm import relax
from tvm.relax.expr_functor import PyExprMutator, PyExprVisitor, mutator, visitor

_BROADCAST = "relax.broadcast_to"


def _scalar_broadcast(value) -> bool:
    if not (isinstance(value, relax.Call) and isinstance(value.op, tvm.ir.Op) and value.op.name == _BROADCAST):
        return False
    info = value.args[0].ty
    if not isinstance(info, relax.TensorType) or not isinstance(info.shape, relax.ShapeExpr):
        return False
    # The import reshapes a scalar to rank (1, ..., 1) before broadcasting it.
    return all(isinstance(d, tvm.tirx.IntImm) and int(d) == 1 for d in info.shape.values)


@visitor
class _Uses(PyExprVisitor):
    """How often each variable is read, and which variables are read other
    than as the argument of an operator call in a dataflow block."""

    def __init__(self):
        super().__init__()
        self.count = collections.Counter()
        self.elsewhere = set()
        self._in_call_args = 0

    def visit_var_(self, var):
        self.count[var] += 1
        if not self._in_call_args:
            self.elsewhere.add(var)

    def visit_dataflow_var_(self, var):
        self.visit_var_(var)

    def visit_call_(self, call):
        if isinstance(call.op, tvm.ir.Op):
            self._in_call_args += 1
            for arg in call.args:
                if isinstance(arg, relax.Var):
                    self.visit_expr(arg)
                else:
                    self._in_call_args -= 1
                    self.visit_expr(arg)
                    self._in_call_args += 1
            self._in_call_args -= 1
        else:
            self._in_call_args, outer = 0, self._in_call_args
            super().visit_call_(call)
            self._in_call_args = outer


@mutator
class _PerUse(PyExprMutator):
    def __init__(self, mod, shared: dict):
        super().__init__(mod)
        self.shared = shared  # broadcast variable -> its call

    def visit_var_binding_(self, binding):
        if binding.var in self.shared:
            return  # re-emitted at each reader
        value = binding.value
        if isinstance(value, relax.Call) and isinstance(value.op, tvm.ir.Op) and any(a in self.shared for a in value.args):
            args = [self.builder_.emit(self.visit_expr(self.shared[a])) if a in self.shared else a for a in value.args]
            value = relax.Call(value.op, args, value.attrs, value.ty_args, value.span)
            binding = relax.VarBinding(binding.var, value)
        super().visit_var_binding_(binding)


def _shared_broadcasts(func: relax.Function) -> dict:
    uses = _Uses()
    uses.visit_expr(func)
    shared = {}
    for block in func.body.blocks if isinstance(func.body, relax.SeqExpr) else ():
        if not isinstance(block, relax.DataflowBlock):
            continue
        for binding in block.bindings:
            var = binding.var
            if _scalar_broadcast(binding.value) and uses.count[var] > 1 and var not in uses.elsewhere:
                shared[var] = binding.value
    return shared


@tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.BroadcastScalarsPerUse")
def BroadcastScalarsPerUse(mod: tvm.IRModule, _ctx) -> tvm.IRModule:
    for gv, func in list(mod.functions.items()):
        if not isinstance(func, relax.Function):
            continue
        shared = _shared_broadcasts(func)
        if shared:
            rewritten = _PerUse(mod, shared).visit_expr(func)
            mod[gv] = rewritten
    return mod
