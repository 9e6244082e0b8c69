"""AllocateUnusedOutputs: a kernel's outputs its one caller never reads are
allocated inside the kernel instead of by the VM.

A loop made one PrimFunc (LoopsAsKernels) writes every carried value to an
output, and a run of kernels made one (SequencesAsKernels) every value read
after it; the VM allocates each output on every call (about a tenth of a
microsecond for the tensor, as much for its storage, and as much again to
release it). Backpropagation through a diffrax solve loops over 57 carried
values of which the caller reads one. Here each such output becomes a buffer
of the PrimFunc's root block, which TVM allocates on the stack or from its
workspace pool, and the call returns only what is read.

Only PrimFuncs called once (a change of the function is a change of every
call) whose outputs are read through TupleGetItem are rewritten (outputs
written in place of an input, by call_tir_inplace, stay); a buffer
passed by address to a packed function stays an output (relax_to_tir's
`primfunc` says why).
"""

from __future__ import annotations

import collections

import tvm
import tvm_ffi
from tvm import relax, s_tir, tirx
from tvm.ir.expr import Call
from tvm.relax.expr_functor import PyExprMutator, mutator

from .bindings import module_bound_values, rewrite_functions
from .relax_to_tir import _CALL_TIR, _CALL_TIR_INPLACE, call_kernel


def _kernel_call(value) -> bool:
    return isinstance(value, relax.Call) and (value.op.same_as(_CALL_TIR) or value.op.same_as(_CALL_TIR_INPLACE))


@tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.AllocateUnusedOutputs")
def AllocateUnusedOutputs(mod: tvm.IRModule, _ctx) -> tvm.IRModule:  # noqa: N802 - a pass
    calls = collections.Counter(
        value.args[0] for value in module_bound_values(mod) if _kernel_call(value)
    )
    rewriter = _Rewriter(mod)
    rewriter.once = {gvar for gvar, count in calls.items() if count == 1}
    rewriter.read = _read_outputs(mod)
    rewriter.replacements = {}  # old tuple variable -> (new variable, old index -> new index)
    result = rewrite_functions(rewriter, mod)
    # The kernels replaced are no longer called.
    return relax.transform.DeadCodeElimination()(result) if rewriter.changed else mod


def _read_outputs(mod: tvm.IRModule) -> dict:
    """For each variable a tuple-valued call_tir is bound to: the indices
    read through TupleGetItem, or None when the tuple is used as a whole."""
    read: dict = {}
    tuples: set = set()

    def visit(expr):
        if isinstance(expr, relax.VarBinding) and _kernel_call(expr.value):
            if isinstance(expr.var.ty, relax.TupleType):
                tuples.add(expr.var)

    def uses(expr):
        if isinstance(expr, relax.TupleGetItem) and isinstance(expr.tuple_value, relax.Var):
            read.setdefault(expr.tuple_value, set())
            if read[expr.tuple_value] is not None:
                read[expr.tuple_value].add(int(expr.index))
            return tvm_ffi.WalkResult.SKIP
        if isinstance(expr, relax.Var):
            read[expr] = None  # used as a whole
        return None

    for func in mod.functions.values():
        if isinstance(func, relax.Function):
            tvm_ffi.structural_walk(func, [(relax.VarBinding, visit)], order="pre")
            for binding_value in _values_and_returns(func):
                tvm_ffi.structural_walk(binding_value, [((relax.TupleGetItem, relax.Var), uses)], order="pre")
    return {var: read.get(var, set()) for var in tuples}


def _values_and_returns(func: relax.Function):
    """What reads variables in `func`: bound values and block bodies, never
    a binding itself. (bindings.bound_values yields a branch whole, whose
    walk would meet the variables its bindings define and take each for a
    use of the whole tuple.)"""
    stack = [func.body]
    while stack:
        expr = stack.pop()
        if isinstance(expr, relax.SeqExpr):
            for block in expr.blocks:
                for binding in block.bindings:
                    if isinstance(binding, relax.MatchCast):
                        yield binding.value
                    elif isinstance(binding.value, (relax.If, relax.SeqExpr, relax.Function)):
                        stack.append(binding.value)
                    else:
                        yield binding.value
            stack.append(expr.body)
        elif isinstance(expr, relax.If):
            yield expr.cond
            stack.extend([expr.true_branch, expr.false_branch])
        elif isinstance(expr, relax.Function):
            stack.append(expr.body)
        else:
            yield expr


@mutator
class _Rewriter(PyExprMutator):
    changed = False

    def visit_var_binding_(self, binding):
        value = binding.value
        if (
            _kernel_call(value)
            and value.args[0] in self.once
            and isinstance(binding.var.ty, relax.TupleType)
            and self.read.get(binding.var) is not None
        ):
            rewritten = self._without_unread(binding.var, value)
            if rewritten is not None:
                return
        super().visit_var_binding_(binding)

    def visit_tuple_getitem_(self, op):
        replaced = self.replacements.get(op.tuple_value)
        if replaced is None:
            return super().visit_tuple_getitem_(op)
        new_var, positions = replaced
        position = positions[int(op.index)]
        return new_var if position is None else relax.TupleGetItem(new_var, position)

    def _without_unread(self, var, call):
        gvar = call.args[0]
        func = self.builder_.get()[gvar]
        fields = list(var.ty.fields)
        read = self.read[var]
        if not isinstance(func, tirx.PrimFunc) or len(call.args) != 2:
            return None
        # Outputs written in place of an input (call_tir_inplace) are that
        # input's buffer and stay; the others follow the arguments.
        in_place = [int(i) for i in call.attrs.inplace_indices] if call.op.same_as(_CALL_TIR_INPLACE) else [-1] * len(fields)
        fresh = [k for k in range(len(fields)) if in_place[k] < 0]
        first_output = len(func.params) - len(fresh)
        param_of = {k: first_output + i for i, k in enumerate(fresh)}
        unread = [k for k in fresh if k not in read]
        if not unread:
            return None
        movable = _movable_outputs(func, [param_of[k] for k in unread])
        if not movable:
            return None
        kept = [k for k in range(len(fields)) if k not in param_of or param_of[k] not in movable]
        if not kept:
            return None
        # A GlobalVar of its own (a GlobalVar's type is its function's
        # signature; the builder names it `<name>1`): the old kernel, no
        # longer called, goes with dead code.
        new_gvar = self.builder_.add_func(_allocated_inside(func, movable), gvar.name_hint)
        types = [fields[k] for k in kept]
        args = [self.visit_expr(arg) for arg in call.args[1].fields]
        new_call = call_kernel(new_gvar, args, types if len(types) > 1 else types[0], [in_place[k] for k in kept])
        # A dataflow block's output stays one.
        if self.builder_.current_block_is_dataflow() and not isinstance(var, relax.DataflowVar):
            new_var = self.builder_.emit_output(new_call, str(var.name))
        else:
            new_var = self.builder_.emit(new_call, str(var.name))
        single = len(types) == 1
        positions = {k: (None if single else i) for i, k in enumerate(kept)}
        self.replacements[var] = (new_var, positions)
        self.changed = True
        return new_var


def _movable_outputs(func: tirx.PrimFunc, params: list[int]) -> set[int]:
    """Which of the parameters `params` (output buffers) can become buffers
    of the root block: of static shape, not passed to a packed function by
    address."""
    body = func.body
    if not (isinstance(body, s_tir.SBlockRealize) and body.block.name_hint == "root"):
        return set()
    by_address: list = []

    def packed(call):
        if isinstance(call.op, tvm.ir.Op) and str(call.op.name) == "tirx.tvm_stack_make_array":
            tvm_ffi.structural_walk(call.args[0], [(tirx.Var, by_address.append)])

    tvm_ffi.structural_walk(body, [(Call, packed)])
    movable = set()
    for index in params:
        buffer = func.params[index]
        # A symbolic size is defined by the parameters that hold it.
        static = all(isinstance(d, tirx.IntImm) for d in buffer.shape)
        if isinstance(buffer.ty, tirx.BufferType) and static and not any(buffer.same_as(v) for v in by_address):
            movable.add(index)
    return movable


def _allocated_inside(func: tirx.PrimFunc, moved: set[int]) -> tirx.PrimFunc:
    """`func` with the parameters `moved` allocated by its root block."""
    buffers = [func.params[k] for k in sorted(moved)]
    params = [p for k, p in enumerate(func.params) if k not in moved]
    realize = func.body
    block = realize.block
    root = s_tir.SBlock(
        block.iter_vars,
        block.reads,
        block.writes,
        block.name_hint,
        block.body,
        block.init,
        list(block.alloc_buffers) + buffers,
        block.match_buffers,
        block.annotations,
    )
    body = s_tir.SBlockRealize(realize.iter_values, realize.predicate, root)
    return tirx.PrimFunc(params, body, func.ret_type, func.attrs)
