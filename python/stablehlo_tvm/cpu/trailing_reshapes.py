"""TrailingReshapesAsViews: a reshape that only products, packed calls and
returns read stays out of fusion, so that it becomes a view of its operand
(RewriteDataflowReshape) instead of the last step of the kernel before it.

FuseOps fuses an injective reshape into the element-wise kernel that
computes its operand. When nothing element-wise reads the reshape, that
gains nothing and costs a second pass over the kernel's result: the schedule
writes the element-wise values to a buffer of the root block, then copies
them to the output through the reshape's division and modulo indices, which
LLVM vectorizes as gathers. A CNN's LayerNorm and ReLU before its flatten
into the classifier took 218 us on 16 x 14 x 14 x 64 floats fused with the
flatten, 79 us without it. Readers that fuse their operands (element-wise
kernels and reductions) keep the reshape: fused there it saves a buffer.
"""

from __future__ import annotations

import tvm
from tvm import relax, tirx
from tvm.relax.expr_functor import PyExprMutator, mutator

from .bindings import rewrite_functions, var_bindings

_CALL_TIR = tvm.ir.Op.get("relax.call_tir")
# relay's OpPatternKind: injective kernels fuse into their readers; from
# kOutEWiseFusable on, a kernel does not fuse its operands' producers.
_INJECTIVE = 2
_OUT_ELEMWISE_FUSABLE = 4
_OPAQUE = 8


def _pattern(mod: tvm.IRModule, gvar) -> int | None:
    func = mod[gvar] if isinstance(gvar, tvm.ir.GlobalVar) else None
    if not isinstance(func, tirx.PrimFunc) or func.attrs is None or "op_pattern" not in func.attrs:
        return None
    return int(func.attrs["op_pattern"])


def _trailing_reshapes(mod: tvm.IRModule) -> tuple[set, set]:
    """The variables bound to reshapes no fusing kernel reads, and the
    functions binding them."""
    reshapes: dict = {}  # variable -> the Relax function binding it
    fused_readers: set = set()
    patterns: dict = {}  # callee -> (op_pattern, whether a reshape)

    def binding(node, function) -> None:
        value = node.value
        if not (isinstance(value, relax.Call) and value.op.same_as(_CALL_TIR)):
            return
        callee = value.args[0]
        known = patterns.get(callee)
        if known is None:
            pattern = _pattern(mod, callee)
            known = patterns[callee] = (pattern, pattern == _INJECTIVE and relax.analysis.has_reshape_pattern(mod[callee]))
        pattern, reshape = known
        if reshape:
            reshapes[node.var] = function
        if pattern is not None and pattern < _OUT_ELEMWISE_FUSABLE:
            operands = value.args[1]
            for operand in operands.fields if isinstance(operands, relax.Tuple) else [operands]:
                if isinstance(operand, relax.Var):
                    fused_readers.add(operand)

    for gvar, func in mod.functions_items():
        if isinstance(func, relax.Function):
            for node in var_bindings(func.body):
                binding(node, gvar)
    trailing = {var for var in reshapes if var not in fused_readers}
    return trailing, {reshapes[var] for var in trailing}


@mutator
class _Rewriter(PyExprMutator):
    def visit_var_binding_(self, binding):
        if binding.var not in self.trailing:
            return super().visit_var_binding_(binding)
        call = binding.value
        callee = call.args[0]
        view = self.views.get(callee)
        if view is None:
            func = self.builder_.get()[callee].with_attr("op_pattern", _OPAQUE)
            view = self.views[callee] = self.builder_.add_func(func, f"{callee.name_hint}_view")
        operands = [self.visit_expr(arg) for arg in call.args[1:]]
        value = self.builder_.normalize(relax.Call(call.op, [view, *operands], call.attrs, call.ty_args, call.span))
        self.builder_.emit_normalized(relax.VarBinding(binding.var, value))


@tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.TrailingReshapesAsViews")
def TrailingReshapesAsViews(mod: tvm.IRModule, _ctx) -> tvm.IRModule:  # noqa: N802 - a pass
    trailing, functions = _trailing_reshapes(mod)
    if not trailing:
        return mod
    rewriter = _Rewriter(mod)
    rewriter.trailing = trailing
    rewriter.views = {}
    return rewrite_functions(rewriter, mod, lambda gvar: gvar in functions)
