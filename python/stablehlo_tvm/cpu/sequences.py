"""SequencesAsKernels: a run of kernel calls on small tensors becomes one
PrimFunc.

The VM spends about half a microsecond on each kernel call (argument
checks, the call, allocating its outputs). JAX programs around solvers and
samplers compute on scalars and small vectors in hundreds of separate
kernels (a diffrax solve has over 200 outside its loop), where that is
nearly all the time. So after LoopsAsKernels, each maximal run of
consecutive bindings of a dataflow block that are kernel calls whose
results and tensor operands are small (at most `SMALL_ELEMENTS` elements
each), packed calls,
calls of other Relax functions (a case) that are not loops, or tuples of
those, up to `MAX_CALLS` calls and `MAX_WEIGHT` statements, becomes one `call_tir` of
a PrimFunc running them in order (relax_to_tir inlines them). Its inputs
are the values the run reads from before it, its outputs the values it
defines that are read after it. Kernels on larger tensors stay separate
calls: their own work dwarfs the call, and the VM's memory planner reuses
their buffers.
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import relax, tirx

from .relax_to_tir import _CALL_DPS_PACKED, _CALL_TIR, LOOP_ATTRIBUTE, NotAKernel, StatementBuilder, seq, tensor_type

# Results larger than this (elements) keep their kernel a call of its own.
SMALL_ELEMENTS = 16384

# The most calls, and statements (stores, bindings, loops), one sequence
# holds: TVM's lowering of a PrimFunc (CompactBufferAllocation,
# LowerIntrin, the simplifier) takes time superlinear in its size. A diffrax
# solve's 230 calls in one function took 14 s to compile; 32 calls of about
# 450 statements, 1.3 s.
MAX_CALLS = 32
MAX_WEIGHT = 400


@tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.SequencesAsKernels")
def SequencesAsKernels(mod: tvm.IRModule, _ctx) -> tvm.IRModule:  # noqa: N802 - a pass
    builder = relax.BlockBuilder(mod)
    changed = False
    for gvar, func in list(mod.functions.items()):
        if isinstance(func, relax.Function) and isinstance(func.body, relax.SeqExpr):
            rewritten = _Function(mod, builder, gvar.name_hint).rewrite(func)
            if rewritten is not None:
                builder.update_func(gvar, rewritten)
                changed = True
    # The kernels and functions now inlined are compiled only if still called.
    return relax.transform.DeadCodeElimination()(builder.get()) if changed else mod


def _small(ty) -> bool:
    types = list(ty.fields) if isinstance(ty, relax.TupleType) else [ty]
    for t in types:
        if not isinstance(t, relax.TensorType) or not isinstance(t.shape, relax.ShapeExpr):
            return False
        count = 1
        for d in t.shape.values:
            if not isinstance(d, tirx.IntImm):
                return False
            count *= int(d.value)
        if count > SMALL_ELEMENTS:
            return False
    return True


class _Function:
    """Finds and rewrites the runs of one Relax function."""

    def __init__(self, mod: tvm.IRModule, builder: relax.BlockBuilder, name: str):
        self.mod = mod
        self.builder = builder
        self.name = name
        self.count = 0

    def groupable(self, binding) -> bool:
        if not isinstance(binding, relax.VarBinding):
            return False
        value = binding.value
        if isinstance(value, (relax.Tuple, relax.TupleGetItem)):
            return True
        if not isinstance(value, relax.Call) or not _small(binding.var.ty):
            return False
        if value.op.same_as(_CALL_TIR) or value.op.same_as(_CALL_DPS_PACKED):
            # A small result of a large operand (a graph's 2000 x 64
            # features times 64 x 8 weights) is a kernel's worth of work,
            # which a sequence runs on one thread, unvectorized: 0.45 ms
            # where the call of its own takes 0.08.
            arguments = value.args[1]
            if not isinstance(arguments, relax.Tuple):
                return True
            return all(_small(a.ty) for a in arguments.fields if isinstance(a.ty, relax.TensorType))
        if isinstance(value.op, tvm.ir.GlobalVar):
            callee = self.mod[value.op]
            # A loop left recursive stays a call of its own.
            return isinstance(callee, relax.Function) and LOOP_ATTRIBUTE not in (callee.attrs or {})
        return False

    def rewrite(self, func: relax.Function):
        """`func` with its runs as kernels; None when it has none."""
        body = func.body
        uses = _uses(func)
        blocks, changed = [], False
        for block in body.blocks:
            if not isinstance(block, relax.DataflowBlock):
                blocks.append(block)
                continue
            bindings, run = [], []
            for binding in list(block.bindings) + [None]:
                if binding is not None and self.groupable(binding):
                    run.append(binding)
                    continue
                while run:
                    replacement, taken = self.group(run, uses)
                    taken = max(taken, 1)
                    if replacement is None:
                        bindings.extend(run[:taken])
                    else:
                        bindings.extend(replacement)
                        changed = True
                    run = run[taken:]
                if binding is not None:
                    bindings.append(binding)
            blocks.append(relax.DataflowBlock(bindings))
        if not changed:
            return None
        new_body = relax.SeqExpr(blocks, body.body)
        return self.builder.normalize(relax.Function(func.params, new_body, func.ret_ty, func.is_pure, func.attrs))

    def group(self, run: list, uses: dict):
        """(the bindings that replace the first bindings of `run`, how many):
        one kernel call and the values read after it taken from its results.
        The sequence ends before a binding that cannot be in it or would
        make it too large; with fewer than two calls there is no
        replacement (None)."""
        group = _Group(self.mod)
        env: dict = {}
        stmts: list = []
        taken = calls = weight = 0
        for binding in run:
            saved = (len(stmts), len(group.allocated), len(group.inputs), len(group.constants), dict(env), len(group.by_address))
            try:
                value = group.value(binding.value, binding.var.ty, env, stmts)
            except NotAKernel:
                value = None
            added = sum(_weight(stmt) for stmt in stmts[saved[0] :])
            is_call = isinstance(binding.value, relax.Call)
            if value is None or (calls and (calls + is_call > MAX_CALLS or weight + added > MAX_WEIGHT)):
                del stmts[saved[0] :], group.allocated[saved[1] :], group.inputs[saved[2] :], group.constants[saved[3] :]
                del group.by_address[saved[5] :]
                env = saved[4]
                break
            env[binding.var] = value
            taken, calls, weight = taken + 1, calls + is_call, weight + added
        run = run[:taken]
        if calls < 2:
            return None, taken
        inside = {b.var for b in run}
        escaping = [b.var for b in run if any(user not in inside for user in uses.get(b.var, ()))]
        outputs: list = []  # buffers the PrimFunc writes for the caller
        for var in escaping:
            for buffer in _flat(env[var]):
                if any(buffer.same_as(b) for b in group.allocated) and not any(buffer.same_as(o) for o in outputs):
                    outputs.append(buffer)
        if not outputs:
            return None, taken
        passed, stored = group.stored_constants()
        params = [b for _, b in group.inputs] + [b for _, b in passed] + outputs
        kernel, scratch = group.primfunc(params, stored + stmts)
        outputs = outputs + scratch  # allocated by the caller, results no one reads
        self.count += 1
        kernel_gvar = self.builder.add_func(kernel, f"{self.name}_sequence{self.count}")
        args = [expr for expr, _ in group.inputs] + [c for c, _ in passed]
        types = [tensor_type(o) for o in outputs]
        # call_tir gives one output as a tensor, several as a tuple.
        single = len(types) == 1
        result_ty = types[0] if single else relax.TupleType(types)
        result = relax.DataflowVar(f"{self.name}_sequence{self.count}", result_ty)
        bindings = [relax.VarBinding(result, relax.call_tir(kernel_gvar, args, out_ty=types[0] if single else types))]

        def expr_of(value):
            if isinstance(value, list):
                return relax.Tuple([expr_of(v) for v in value])
            for k, out in enumerate(outputs):
                if value.same_as(out):
                    return result if single else relax.TupleGetItem(result, k)
            for expr, buffer in group.inputs + group.constants:
                if value.same_as(buffer):
                    return expr
            raise AssertionError("a value the sequence neither reads nor writes")

        bindings += [relax.VarBinding(var, expr_of(env[var])) for var in escaping]
        return bindings, taken


class _Group(StatementBuilder):
    """A run's statements; what it reads from before it becomes inputs."""

    def __init__(self, mod):
        super().__init__(mod)
        self.inputs: list = []  # (Relax expression, buffer)

    def free(self, var: relax.Var):
        return self.input(var, var.ty)

    def input(self, expr, ty):
        if isinstance(ty, relax.TupleType):
            return [self.input(relax.TupleGetItem(expr, k), t) for k, t in enumerate(ty.fields)]
        buffer = self.buffer(ty, f"in{len(self.inputs)}")
        self.inputs.append((expr, buffer))
        return buffer


def _weight(stmt) -> int:
    """How many stores, bindings and loops `stmt` holds."""
    count = [0]

    def one(_node):
        count[0] += 1

    tvm_ffi.structural_walk(stmt, [((tirx.BufferStore, tirx.Bind, tirx.For), one)])
    return count[0]


def _flat(value) -> list:
    return [b for v in value for b in _flat(v)] if isinstance(value, list) else [value]


def _calls(run: list) -> int:
    return sum(isinstance(b.value, relax.Call) for b in run)


_RESULT = "the function's result"


def _uses(func: relax.Function) -> dict:
    """For each variable, the variables whose bindings read it (or
    `_RESULT`)."""
    uses: dict = {}

    def reader(owner):
        def visit(expr):
            if isinstance(expr, relax.Var):
                uses.setdefault(expr, set()).add(owner)

        return visit

    for block in func.body.blocks:
        for binding in block.bindings:
            relax.analysis.post_order_visit(binding.value, reader(binding.var))
    relax.analysis.post_order_visit(func.body.body, reader(_RESULT))
    return uses
