"""LoopsAsKernels: a loop whose functions are only kernel calls runs as one
PrimFunc with a TIR `While`.

The import writes a `stablehlo.while` as a private Relax function that calls
its condition and body functions and then itself (see the emitter), so every
iteration dispatches each fused kernel through the VM and allocates its
outputs: microseconds per kernel, against nanoseconds for the kernel's own
work in the small bodies of solvers, samplers and scans. After fusion and
scheduling, this pass rewrites such a loop into one PrimFunc:

- the carried values live in the PrimFunc's output buffers (copied in from
  its inputs first), the body's intermediates in buffers allocated once;
- the condition's and the body's kernels are inlined in order, each with its
  buffer parameters replaced by the loop function's buffers;
- after the body, results that are not already in place are copied back
  into the carried buffers (through a temporary when one carried value
  moves to another position), and the condition runs again.

The loop's Relax function then is one `call_tir` of that PrimFunc, and a
loop inside another loop's body is inlined like any other kernel, so
nested loops become nested `While`s. A loop whose functions do anything
else (branches, calls of other Relax functions, symbolic shapes) is left
as it is; calls of packed functions (BLAS, LAPACK, host callbacks) stay
calls, made from the PrimFunc.
"""

from __future__ import annotations

import logging

import tvm
import tvm_ffi
from tvm import relax, s_tir, tirx

# The attribute the emitter puts on a loop's Relax function:
# [condition function, body function].
LOOP_ATTRIBUTE = "stablehlo_tvm.loop"

_log = logging.getLogger(__name__)
_TensorConstant = tvm.ir.expr.GenericConst
_CALL_TIR = tvm.ir.Op.get("relax.call_tir")
_CALL_TIR_INPLACE = tvm.ir.Op.get("relax.call_tir_inplace")
_CALL_DPS_PACKED = tvm.ir.Op.get("relax.call_dps_packed")


# Calls of Relax functions inlined one in another (a case in a case ...).
_MAX_CALL_DEPTH = 64


class _NotAKernel(Exception):
    """The loop does something a PrimFunc does not express."""


@tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.LoopsAsKernels")
class LoopsAsKernels:
    """The pass; `outcome`, when given, gets "loops_left": the names of the
    loop functions that still call themselves, and why."""

    def __init__(self, outcome: dict | None = None):
        self.outcome = outcome

    def transform_module(self, mod: tvm.IRModule, _ctx) -> tvm.IRModule:
        mod, left = loops_as_kernels(mod)
        if self.outcome is not None:
            self.outcome["loops_left"] = left
        return mod


def loops_as_kernels(mod: tvm.IRModule) -> tuple[tvm.IRModule, dict]:
    """`mod` with every loop it can as one PrimFunc, and the others' names
    with the reason."""
    loops = {
        gvar: [str(name) for name in func.attrs[LOOP_ATTRIBUTE]]
        for gvar, func in mod.functions.items()
        if isinstance(func, relax.Function) and func.attrs is not None and LOOP_ATTRIBUTE in func.attrs
    }
    # Inner loops first: an outer body calls the inner loop's function,
    # which is a kernel call once the inner loop is one.
    converted: dict = {}
    left: dict = {}
    progress = True
    while progress:
        progress = False
        for gvar, (cond_name, body_name) in loops.items():
            if gvar in converted:
                continue
            try:
                kernel, constants = _LoopKernel(mod, converted).build(mod[gvar], cond_name, body_name)
            except _NotAKernel as reason:
                left[gvar] = str(reason)
                continue
            left.pop(gvar, None)
            builder = relax.BlockBuilder(mod)
            kernel_gvar = builder.add_func(kernel, f"{gvar.name_hint}_kernel")
            builder.update_func(gvar, _calling(builder, mod[gvar], kernel_gvar, constants))
            mod = builder.get()
            converted[gvar] = (kernel_gvar, constants)
            progress = True
    for gvar, reason in left.items():
        _log.info("loop %s stays in the VM: %s", gvar.name_hint, reason)
    if converted:
        mod = relax.transform.DeadCodeElimination()(mod)
    return mod, {gvar.name_hint: reason for gvar, reason in left.items()}


def _calling(builder, loop: relax.Function, kernel: tvm.ir.GlobalVar, constants: list) -> relax.Function:
    """`loop` rewritten as one call of its kernel."""
    params = list(loop.params)
    types = [param.ty for param in params]
    call = relax.call_tir(kernel, params + constants, out_ty=types)
    return builder.normalize(relax.Function(params, relax.SeqExpr([], call), loop.ret_ty, attrs=loop.attrs))


def _static_shape(ty) -> list[int]:
    if not isinstance(ty, relax.TensorType) or not isinstance(ty.shape, relax.ShapeExpr):
        raise _NotAKernel("a shape that is not static")
    try:
        return [int(d) for d in ty.shape.values]
    except (TypeError, ValueError):
        raise _NotAKernel("a shape that is not static") from None


def _call_to(func: relax.Function, callee: str):
    """The first call of the function named `callee` in `func`'s body."""
    found = []

    def visit(expr):
        if not found and isinstance(expr, relax.Call) and isinstance(expr.op, tvm.ir.GlobalVar):
            if expr.op.name_hint == callee:
                found.append(expr)

    relax.analysis.post_order_visit(func.body, visit)
    if not found:
        raise _NotAKernel(f"no call of {callee}")
    return found[0]


class _LoopKernel:
    """Builds the PrimFunc of one loop."""

    def __init__(self, mod: tvm.IRModule, converted: dict):
        self.mod = mod
        self.converted = converted  # loop function -> (kernel, constants)
        self.allocated: list = []
        self.constants: list = []  # (tensor constant, buffer)
        self.count = 0
        self.calling: list = []  # the Relax functions being inlined

    def build(self, loop: relax.Function, cond_name: str, body_name: str):
        carried = [self.buffer(param.ty, f"carried{i}") for i, param in enumerate(loop.params)]
        inputs = [self.buffer(param.ty, f"init{i}") for i, param in enumerate(loop.params)]
        position = {param: i for i, param in enumerate(loop.params)}

        def arguments(call):
            # The condition and body functions may have lost parameters they
            # do not use; the loop's first call of each says which remain.
            if not all(isinstance(arg, relax.Var) and arg in position for arg in call.args):
                raise _NotAKernel("the condition or body is called with values other than the carried ones")
            return [carried[position[arg]] for arg in call.args]

        cond_args = arguments(_call_to(loop, cond_name))
        body_args = arguments(_call_to(loop, body_name))
        cond_func, body_func = self.function(cond_name), self.function(body_name)
        cond_stmts, cond_value = self.run(cond_func, cond_args)
        if not isinstance(cond_value, tirx.Buffer):
            raise _NotAKernel("the condition is not one tensor")
        # The condition runs again after every iteration (inlined anew: a
        # statement may not appear twice) and leaves its value where the
        # While reads it.
        cond_again, again_value = self.run(cond_func, cond_args)
        if not again_value.same_as(cond_value):
            cond_again.append(self.copy(again_value, cond_value))
        body_stmts, results = self.run(body_func, body_args)
        if not isinstance(results, list) or len(results) != len(carried):
            raise _NotAKernel("the body does not yield every carried value")
        copy_in = [self.copy(source, dest) for source, dest in zip(inputs, carried)]
        iteration = body_stmts + self.copy_back(results, carried) + cond_again
        loop_stmt = tirx.While(tirx.BufferLoad(cond_value, []), _seq(iteration))
        body = _seq(copy_in + cond_stmts + [loop_stmt])
        root = s_tir.SBlockRealize([], True, s_tir.SBlock([], [], [], "root", body, alloc_buffers=self.allocated))
        params = inputs + [buffer for _, buffer in self.constants] + carried
        func = tirx.PrimFunc(params, root).with_attrs({"tirx.noalias": True, "tirx.is_scheduled": True})
        return func, [constant for constant, _ in self.constants]

    def function(self, name: str) -> relax.Function:
        func = self.mod[name]
        if not isinstance(func, relax.Function):
            raise _NotAKernel(f"{name} is not a Relax function")
        return func

    def buffer(self, ty, name: str):
        return tirx.decl_buffer([tirx.IntImm("int64", d) for d in _static_shape(ty)], ty.dtype, name)

    def temporary(self, ty):
        self.count += 1
        buffer = self.buffer(ty, f"t{self.count}")
        self.allocated.append(buffer)
        return buffer

    def constant(self, constant):
        for known, buffer in self.constants:
            if known.same_as(constant):
                return buffer
        buffer = self.buffer(constant.ty, f"const{len(self.constants)}")
        self.constants.append((constant, buffer))
        return buffer

    def run(self, func: relax.Function, args: list):
        """The statements computing `func` on `args` (buffers) and its result
        (a buffer or a list)."""
        if len(self.calling) > _MAX_CALL_DEPTH or any(func.same_as(f) for f in self.calling):
            raise _NotAKernel("a recursive call")
        self.calling.append(func)
        stmts: list = []
        result = self.sequence(func.body, func.ret_ty, dict(zip(func.params, args)), stmts)
        self.calling.pop()
        return stmts, result

    def sequence(self, body, ty, env: dict, stmts: list):
        """A function's or a branch's body, its statements added to `stmts`."""
        if not isinstance(body, relax.SeqExpr):
            return self.value(body, ty, env, stmts)
        for block in body.blocks:
            for binding in block.bindings:
                if not isinstance(binding, relax.VarBinding):
                    raise _NotAKernel("a binding that is not a plain variable binding")
                env[binding.var] = self.value(binding.value, binding.var.ty, env, stmts)
        return self.value(body.body, ty, env, stmts)

    def branch(self, expr: relax.If, ty, env: dict, stmts: list):
        """An If as an IfThenElse; each branch leaves its result in the same
        buffers."""
        condition = self.value(expr.cond, expr.cond.ty, env, stmts)
        if not isinstance(condition, tirx.Buffer) or _static_shape(expr.cond.ty) != []:
            raise _NotAKernel("a branch on something other than one boolean")
        results = self.outputs(ty)
        cases = []
        for case in (expr.true_branch, expr.false_branch):
            case_stmts: list = []
            value = self.sequence(case, ty, dict(env), case_stmts)
            values = value if isinstance(value, list) else [value]
            if len(values) != len(results) or not all(isinstance(v, tirx.Buffer) for v in values):
                raise _NotAKernel("a branch whose result is not tensors")
            case_stmts += [self.copy(v, r) for v, r in zip(values, results)]
            cases.append(_seq(case_stmts))
        stmts.append(tirx.IfThenElse(tirx.BufferLoad(condition, []), *cases))
        return results if isinstance(ty, relax.TupleType) else results[0]

    def value(self, expr, ty, env: dict, stmts: list):
        if isinstance(expr, relax.Var):
            if expr not in env:
                raise _NotAKernel("a value used before it is defined")
            return env[expr]
        if isinstance(expr, _TensorConstant):
            return self.constant(expr)
        if isinstance(expr, relax.Tuple):
            return [self.value(field, field.ty, env, stmts) for field in expr.fields]
        if isinstance(expr, relax.TupleGetItem):
            whole = self.value(expr.tuple_value, None, env, stmts)
            if not isinstance(whole, list):
                raise _NotAKernel("a tuple item of something other than a tuple")
            return whole[expr.index]
        if isinstance(expr, relax.Call):
            return self.call(expr, ty, env, stmts)
        if isinstance(expr, relax.If):
            return self.branch(expr, ty, env, stmts)
        raise _NotAKernel(f"an expression of kind {type(expr).__name__}")

    def outputs(self, ty) -> list:
        types = list(ty.fields) if isinstance(ty, relax.TupleType) else [ty]
        return [self.temporary(t) for t in types]

    def call(self, call: relax.Call, ty, env: dict, stmts: list):
        def tensors(args):
            if isinstance(args, relax.Expr):  # a call's argument tuple
                if not isinstance(args, relax.Tuple):
                    raise _NotAKernel("a tuple argument that is not written out")
                args = args.fields
            values = [self.value(arg, arg.ty, env, stmts) for arg in args]
            if not all(isinstance(v, tirx.Buffer) for v in values):
                raise _NotAKernel("a call argument that is not a tensor")
            return values

        single = not isinstance(ty, relax.TupleType)
        if call.op.same_as(_CALL_TIR) or call.op.same_as(_CALL_TIR_INPLACE):
            if len(call.args) > 2:  # symbolic shape arguments
                raise _NotAKernel("a kernel call with symbolic shape arguments")
            callee = self.mod[call.args[0]]
            inputs = tensors(call.args[1])
            outputs = self.outputs(ty)
            if call.op.same_as(_CALL_TIR_INPLACE):
                # Outputs written in place are the inputs' buffers and not
                # parameters of the PrimFunc.
                in_place = [int(i) for i in call.attrs.inplace_indices]
                fresh = [out for out, index in zip(outputs, in_place) if index < 0]
                stmts.append(_inline(callee, inputs + fresh))
                outputs = [inputs[index] if index >= 0 else out for out, index in zip(outputs, in_place)]
            else:
                stmts.append(_inline(callee, inputs + outputs))
            return outputs[0] if single else outputs
        if call.op.same_as(_CALL_DPS_PACKED):
            if not isinstance(call.args[1], relax.Tuple):
                raise _NotAKernel("a packed call whose arguments are not written out")
            arguments = []
            for arg in call.args[1].fields:
                if isinstance(arg, tvm.ir.expr.Constant) and not isinstance(arg, _TensorConstant):
                    arguments.append(arg)  # a scalar (relax.prim_value)
                else:
                    arguments.extend(tensors([arg]))
            outputs = self.outputs(ty)
            stmts.append(tirx.Evaluate(_call_packed(call.args[0].global_symbol, arguments + outputs)))
            return outputs[0] if single else outputs
        if isinstance(call.op, tvm.ir.GlobalVar) and call.op in self.converted:
            kernel, constants = self.converted[call.op]
            inputs = tensors(call.args) + [self.constant(c) for c in constants]
            outputs = self.outputs(ty)
            stmts.append(_inline(self.mod[kernel], inputs + outputs))
            return outputs
        if isinstance(call.op, tvm.ir.GlobalVar) and isinstance(self.mod[call.op], relax.Function):
            # A case's selector and branches: their statements in place.
            callee = self.mod[call.op]
            if callee.attrs is not None and LOOP_ATTRIBUTE in callee.attrs:
                raise _NotAKernel(f"a call of {call.op.name_hint}, a loop that is not a kernel")
            args = [self.value(arg, arg.ty, env, stmts) for arg in call.args]
            if not all(isinstance(a, tirx.Buffer) for a in args):
                raise _NotAKernel("a call argument that is not a tensor")
            callee_stmts, result = self.run(callee, args)
            stmts.extend(callee_stmts)
            return result
        callee = call.op.name_hint if isinstance(call.op, tvm.ir.GlobalVar) else getattr(call.op, "name", call.op)
        raise _NotAKernel(f"a call of {callee}")

    def copy(self, source, dest):
        from ..kernels import copy_primfunc

        shape = [int(d) for d in dest.shape]
        return _inline(copy_primfunc(tuple(shape), str(dest.dtype), parallel=False), [source, dest])

    def copy_back(self, results: list, carried: list) -> list:
        """Statements that leave `results` in `carried`: a carried buffer
        that moves to another position goes through a temporary first, as
        its old value is still to be read."""
        stmts: list = []
        staged = list(results)
        for k, result in enumerate(results):
            if any(result.same_as(c) for j, c in enumerate(carried) if j != k):
                staged[k] = self.temporary_like(result)
                stmts.append(self.copy(result, staged[k]))
        for result, dest in zip(staged, carried):
            if not result.same_as(dest):
                stmts.append(self.copy(result, dest))
        return stmts

    def temporary_like(self, buffer):
        self.count += 1
        copy = tirx.decl_buffer(list(buffer.shape), buffer.dtype, f"t{self.count}")
        self.allocated.append(copy)
        return copy


def _inline(func: tirx.PrimFunc, buffers: list):
    """`func`'s body with its buffer parameters replaced by `buffers`, its own
    definitions renewed (a function inlined twice defines new variables)."""
    func = s_tir.renew_defs(func)
    if len(func.params) != len(buffers):
        raise _NotAKernel("a kernel whose parameters do not match its call")
    table = dict(zip(func.params, buffers))
    return tvm_ffi.structural_map(func.body, [(tirx.Buffer, lambda buffer: table.get(buffer, buffer))])


def _call_packed(name: str, args: list):
    """A call of the packed function `name`: buffers are passed as DLTensors
    with their (compact) strides, which TVM's FFI requires of a tensor of
    rank 1 or more; other arguments as they are."""
    from tvm.ir import Call, Op, PointerType, PrimType

    def shape(values):
        return Call("tirx.tvm_stack_make_shape", values, ret_ty=PointerType(PrimType("int64")))

    def pack(buffer):
        dims = [int(d) for d in buffer.shape]
        strides = [tirx.IntImm("int64", _product(dims[k + 1 :])) for k in range(len(dims))]
        fields = [
            tirx.buffer_data(buffer),
            shape(list(buffer.shape)),
            shape(strides) if dims else 0,
            len(dims),
            tvm.runtime.const(0, dtype=str(buffer.dtype)),
            0,
        ]
        return Call(Op.get("tirx.tvm_stack_make_array"), fields, ret_ty="handle")

    packed = [pack(arg) if isinstance(arg, tirx.Buffer) else arg for arg in args]
    return Call(Op.get("tirx.tvm_call_packed"), [name, *packed], ret_ty="int32")


def _product(values) -> int:
    result = 1
    for value in values:
        result *= value
    return result


def _seq(stmts: list):
    return stmts[0] if len(stmts) == 1 else tirx.SeqStmt(stmts)
