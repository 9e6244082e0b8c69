"""SequencesAsKernels: a run of kernel calls on small tensors becomes one
PrimFunc.

The VM spends about half a microsecond on each kernel call (argument
checks, the call, allocating its outputs). JAX programs around solvers and
samplers compute on scalars and small vectors in hundreds of separate
kernels (a diffrax solve has over 200 outside its loop), where that is
nearly all the time. So after LoopsAsKernels, each maximal run of
consecutive bindings of a dataflow block that are kernel calls whose
results are small (at most `SMALL_ELEMENTS` elements each), packed calls,
calls of loops made kernels, or tuples of those, becomes one `call_tir` of
a PrimFunc running them in order (relax_to_tir inlines them). Its inputs
are the values the run reads from before it, its outputs the values it
defines that are read after it. Kernels on larger tensors stay separate
calls: their own work dwarfs the call, and the VM's memory planner reuses
their buffers.
"""

from __future__ import annotations

import tvm
from tvm import relax, s_tir, tirx

from .relax_to_tir import _CALL_DPS_PACKED, _CALL_TIR, LOOP_ATTRIBUTE, NotAKernel, StatementBuilder, is_kernel_call, seq

# Results larger than this (elements) keep their kernel a call of its own.
SMALL_ELEMENTS = 16384


@tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.SequencesAsKernels")
def SequencesAsKernels(mod: tvm.IRModule, _ctx) -> tvm.IRModule:  # noqa: N802 - a pass
    builder = relax.BlockBuilder(mod)
    for gvar, func in list(mod.functions.items()):
        if isinstance(func, relax.Function) and isinstance(func.body, relax.SeqExpr):
            rewritten = _Function(mod, builder, gvar.name_hint).rewrite(func)
            if rewritten is not None:
                builder.update_func(gvar, rewritten)
    return builder.get()


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
            return True
        if isinstance(value.op, tvm.ir.GlobalVar):
            callee = self.mod[value.op]
            return isinstance(callee, relax.Function) and (
                LOOP_ATTRIBUTE not in (callee.attrs or {}) or is_kernel_call(callee)
            )
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
                grouped = self.group(run, uses) if _calls(run) >= 2 else None
                if grouped is None:
                    bindings.extend(run)
                else:
                    bindings.extend(grouped)
                    changed = True
                run = []
                if binding is not None:
                    bindings.append(binding)
            blocks.append(relax.DataflowBlock(bindings))
        if not changed:
            return None
        new_body = relax.SeqExpr(blocks, body.body)
        return self.builder.normalize(relax.Function(func.params, new_body, func.ret_ty, func.is_pure, func.attrs))

    def group(self, run: list, uses: dict):
        """The bindings that replace `run`: one kernel call and the values
        read after it taken from its results; None when it cannot be one."""
        group = _Group(self.mod)
        env: dict = {}
        stmts: list = []
        try:
            for binding in run:
                env[binding.var] = group.value(binding.value, binding.var.ty, env, stmts)
        except NotAKernel:
            return None
        inside = {b.var for b in run}
        escaping = [b.var for b in run if any(user not in inside for user in uses.get(b.var, ()))]
        outputs: list = []  # buffers the PrimFunc writes for the caller
        for var in escaping:
            for buffer in _flat(env[var]):
                if any(buffer.same_as(b) for b in group.allocated) and not any(buffer.same_as(o) for o in outputs):
                    outputs.append(buffer)
        if not outputs:
            return None
        allocated = [b for b in group.allocated if not any(b.same_as(o) for o in outputs)]
        block = s_tir.SBlock([], [], [], "root", seq(stmts), alloc_buffers=allocated)
        root = s_tir.SBlockRealize([], True, block)
        params = [b for _, b in group.inputs] + [b for _, b in group.constants] + outputs
        kernel = tirx.PrimFunc(params, root).with_attrs({"tirx.noalias": True, "tirx.is_scheduled": True})
        self.count += 1
        kernel_gvar = self.builder.add_func(kernel, f"{self.name}_sequence{self.count}")
        args = [expr for expr, _ in group.inputs] + [c for c, _ in group.constants]
        types = [relax.TensorType(relax.ShapeExpr([int(d) for d in o.shape]), str(o.dtype)) for o in outputs]
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
        return bindings


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
