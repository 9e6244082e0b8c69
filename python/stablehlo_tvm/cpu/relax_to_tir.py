"""Relax as TIR statements: what LoopsAsKernels and SequencesAsKernels build
their PrimFuncs from.

`StatementBuilder` walks Relax functions whose bindings are kernel calls
(`call_tir`, `call_tir_inplace`), packed calls (`call_dps_packed`), tuples,
constants, `If`s and calls of other such functions, and writes them as TIR
statements over buffers: each scheduled kernel inlined with its buffer
parameters substituted (`tvm_ffi.structural_map`) and its own definitions
renewed (`s_tir.renew_defs`), each intermediate a buffer allocated once.
Anything else raises `NotAKernel` with the reason. TVM 0.27 cannot call one
PrimFunc from another (a `Call` of a GlobalVar becomes a packed call that
fails its argument check at run time), which is why kernels are inlined.
"""

from __future__ import annotations

import math

import numpy as np
import tvm
import tvm_ffi
from tvm import relax, s_tir, tirx

from ..emitter import LOOP_ATTRIBUTE

# Marks the PrimFuncs built here. Their own buffers are whole tensors, and
# the kernels they inline were compacted before (`compacted`), so the CPU
# lowering leaves CompactBufferAllocation out for them: its time grows
# faster than the function (a diffrax solve's 2,461 statements in one
# kernel: 4.3 s of a 7 s build).
STATEMENTS_ATTRIBUTE = "stablehlo_tvm.statements"

_TensorConstant = tvm.ir.expr.GenericConst
_CALL_TIR = tvm.ir.Op.get("relax.call_tir")
_CALL_TIR_INPLACE = tvm.ir.Op.get("relax.call_tir_inplace")
_CALL_DPS_PACKED = tvm.ir.Op.get("relax.call_dps_packed")

# Calls of Relax functions inlined one in another (a case in a case ...).
_MAX_CALL_DEPTH = 64

# Constants of at most this many elements are written into the PrimFunc
# (see `StatementBuilder.stored_constants`), of these dtypes, whose values
# TIR's literals hold exactly.
LITERAL_ELEMENTS = 16
_LITERAL_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "float32", "float64")


class NotAKernel(Exception):
    """The Relax code does something a PrimFunc does not express."""


def static_shape(ty) -> list[int]:
    if not isinstance(ty, relax.TensorType) or not isinstance(ty.shape, relax.ShapeExpr):
        raise NotAKernel("a shape that is not static")
    try:
        return [int(d) for d in ty.shape.values]
    except (TypeError, ValueError):
        raise NotAKernel("a shape that is not static") from None


def tensor_type(buffer) -> relax.TensorType:
    """The Relax type of a tensor held in `buffer`."""
    return relax.TensorType(relax.ShapeExpr([int(d) for d in buffer.shape]), str(buffer.dtype))


class StatementBuilder:
    """Buffers and statements for one PrimFunc. `kernels`: loop functions
    made PrimFuncs, each with its constants, scratch buffer types and the
    positions of the carried values it keeps in their initial values'
    buffers; a call of one is inlined as a call of its kernel."""

    def __init__(self, mod: tvm.IRModule, kernels: dict | None = None):
        self.mod = mod
        self.kernels = kernels or {}
        self.allocated: list = []
        self.constants: list = []  # (tensor constant, buffer)
        self.count = 0
        self.calling: list = []  # the Relax functions being inlined
        self.by_address: list = []  # buffers passed to packed functions

    def primfunc(self, params: list, stmts: list) -> tuple[tirx.PrimFunc, list]:
        """The PrimFunc of `stmts` over `params` and scratch buffers, and
        those scratch buffers: the buffers packed functions read or write
        that are not parameters, which the caller allocates. Allocated in
        the PrimFunc, such a buffer is only used through its address, which
        TVM's StorageRewrite does not count: it shrank a LAPACK factor to
        the size of a boolean mask it shared memory with. The other buffers
        used are allocated by the root block."""
        own = [b for b in self.allocated if not any(b.same_as(p) for p in params)]
        scratch = [b for b in own if any(b.same_as(a) for a in self.by_address)]
        in_block = [b for b in own if not any(b.same_as(a) for a in scratch)]
        root = s_tir.SBlockRealize([], True, s_tir.SBlock([], [], [], "root", seq(stmts), alloc_buffers=in_block))
        func = tirx.PrimFunc(params + scratch, root)
        return func.with_attrs({"tirx.noalias": True, "tirx.is_scheduled": True, STATEMENTS_ATTRIBUTE: True}), scratch

    def function(self, name: str) -> relax.Function:
        func = self.mod[name]
        if not isinstance(func, relax.Function):
            raise NotAKernel(f"{name} is not a Relax function")
        return func

    def buffer(self, ty, name: str):
        return tirx.decl_buffer([tirx.IntImm("int64", d) for d in static_shape(ty)], ty.dtype, name)

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

    def stored_constants(self) -> tuple[list, list]:
        """(the constants passed as parameters, the statements that write
        the others): a small constant is stored into a buffer of the
        PrimFunc's own at its start, not passed: every parameter is one
        more argument the VM passes at every call (a diffrax step's
        sequence kernels took 13-33 scalar constants each). Stored, not
        used as immediates: TVM's simplifier folds immediates as if
        arithmetic were exact (scalar_operands.py)."""
        passed, stmts = [], []
        for constant, buffer in self.constants:
            dtype = str(buffer.dtype)
            shape = [int(d) for d in buffer.shape]
            if dtype not in _LITERAL_DTYPES or math.prod(shape) > LITERAL_ELEMENTS:
                passed.append((constant, buffer))
                continue
            values = constant.value.numpy()
            if values.dtype.kind == "f" and np.isnan(values).any():
                passed.append((constant, buffer))  # a literal NaN loses its payload
                continue
            self.allocated.append(buffer)
            for index in np.ndindex(*shape):
                value = values[index].item()
                literal = tirx.const(value, dtype)
                stmts.append(tirx.BufferStore(buffer, literal, [tirx.IntImm("int64", i) for i in index]))
        return passed, stmts

    def run(self, func: relax.Function, args: list):
        """The statements computing `func` on `args` (buffers) and its result
        (a buffer or a list)."""
        if len(self.calling) > _MAX_CALL_DEPTH or any(func.same_as(f) for f in self.calling):
            raise NotAKernel("a recursive call")
        self.calling.append(func)
        stmts: list = []
        try:
            result = self.sequence(func.body, func.ret_ty, dict(zip(func.params, args)), stmts)
        finally:  # a sequence goes on after a binding it could not take
            self.calling.pop()
        return stmts, result

    def sequence(self, body, ty, env: dict, stmts: list):
        """A function's or a branch's body, its statements added to `stmts`."""
        if not isinstance(body, relax.SeqExpr):
            return self.value(body, ty, env, stmts)
        for block in body.blocks:
            for binding in block.bindings:
                if not isinstance(binding, relax.VarBinding):
                    raise NotAKernel("a binding that is not a plain variable binding")
                env[binding.var] = self.value(binding.value, binding.var.ty, env, stmts)
        return self.value(body.body, ty, env, stmts)

    def branch(self, expr: relax.If, ty, env: dict, stmts: list):
        """An If as an IfThenElse; each branch leaves its result in the same
        buffers."""
        condition = self.value(expr.cond, expr.cond.ty, env, stmts)
        if not isinstance(condition, tirx.Buffer) or static_shape(expr.cond.ty) != []:
            raise NotAKernel("a branch on something other than one boolean")
        results = self.outputs(ty)
        cases = []
        for case in (expr.true_branch, expr.false_branch):
            case_stmts: list = []
            value = self.sequence(case, ty, dict(env), case_stmts)
            values = value if isinstance(value, list) else [value]
            if len(values) != len(results) or not all(isinstance(v, tirx.Buffer) for v in values):
                raise NotAKernel("a branch whose result is not tensors")
            case_stmts += [self.copy(v, r) for v, r in zip(values, results)]
            cases.append(seq(case_stmts))
        stmts.append(tirx.IfThenElse(tirx.BufferLoad(condition, []), *cases))
        return results if isinstance(ty, relax.TupleType) else results[0]

    def value(self, expr, ty, env: dict, stmts: list):
        if isinstance(expr, relax.Var):
            if expr not in env:
                env[expr] = self.free(expr)
            return env[expr]
        if isinstance(expr, _TensorConstant):
            return self.constant(expr)
        if isinstance(expr, relax.Tuple):
            return [self.value(field, field.ty, env, stmts) for field in expr.fields]
        if isinstance(expr, relax.TupleGetItem):
            whole = self.value(expr.tuple_value, None, env, stmts)
            if not isinstance(whole, list):
                raise NotAKernel("a tuple item of something other than a tuple")
            return whole[expr.index]
        if isinstance(expr, relax.Call):
            return self.call(expr, ty, env, stmts)
        if isinstance(expr, relax.If):
            return self.branch(expr, ty, env, stmts)
        raise NotAKernel(f"an expression of kind {type(expr).__name__}")

    def free(self, var: relax.Var):
        """The value of a variable defined outside what is being built."""
        raise NotAKernel(f"{var.name_hint} is used before it is defined")

    def outputs(self, ty) -> list:
        types = list(ty.fields) if isinstance(ty, relax.TupleType) else [ty]
        return [self.temporary(t) for t in types]

    def call(self, call: relax.Call, ty, env: dict, stmts: list):
        def tensors(args):
            if isinstance(args, relax.Expr):  # a call's argument tuple
                if not isinstance(args, relax.Tuple):
                    raise NotAKernel("a tuple argument that is not written out")
                args = args.fields
            values = [self.value(arg, arg.ty, env, stmts) for arg in args]
            if not all(isinstance(v, tirx.Buffer) for v in values):
                raise NotAKernel("a call argument that is not a tensor")
            return values

        single = not isinstance(ty, relax.TupleType)
        if call.op.same_as(_CALL_TIR) or call.op.same_as(_CALL_TIR_INPLACE):
            if len(call.args) > 2:  # symbolic shape arguments
                raise NotAKernel("a kernel call with symbolic shape arguments")
            callee = self.mod[call.args[0]]
            inputs = tensors(call.args[1])
            if not call.op.same_as(_CALL_TIR_INPLACE):
                inputs = self.distinct(inputs, stmts)
            outputs = self.outputs(ty)
            if call.op.same_as(_CALL_TIR_INPLACE):
                # Outputs written in place are the inputs' buffers and not
                # parameters of the PrimFunc.
                in_place = [int(i) for i in call.attrs.inplace_indices]
                fresh = [out for out, index in zip(outputs, in_place) if index < 0]
                stmts.append(inline(callee, inputs + fresh))
                outputs = [inputs[index] if index >= 0 else out for out, index in zip(outputs, in_place)]
            else:
                stmts.append(inline(callee, inputs + outputs))
            return outputs[0] if single else outputs
        if call.op.same_as(_CALL_DPS_PACKED):
            if not isinstance(call.args[1], relax.Tuple):
                raise NotAKernel("a packed call whose arguments are not written out")
            arguments = []
            for arg in call.args[1].fields:
                if isinstance(arg, tvm.ir.expr.Constant) and not isinstance(arg, _TensorConstant):
                    arguments.append(arg)  # a scalar (relax.prim_value)
                else:
                    arguments.extend(tensors([arg]))
            outputs = self.outputs(ty)
            stmts.append(tirx.Evaluate(call_packed(call.args[0].global_symbol, arguments + outputs)))
            self.by_address.extend(b for b in arguments + outputs if isinstance(b, tirx.Buffer))
            return outputs[0] if single else outputs
        if isinstance(call.op, tvm.ir.GlobalVar) and call.op in self.kernels:
            kernel, constants, scratch_types, in_place = self.kernels[call.op]
            inputs = self.distinct(tensors(call.args) + [self.constant(c) for c in constants], stmts)
            outputs = self.outputs(ty)
            scratch = [self.temporary(t) for t in scratch_types]
            self.by_address.extend(scratch)
            # Carried values the loop keeps in their initial values' buffers
            # are not parameters of its kernel (as call_tir_inplace).
            fresh = [out for k, out in enumerate(outputs) if k not in in_place]
            stmts.append(inline(kernel, inputs + fresh + scratch))
            return [inputs[k] if k in in_place else out for k, out in enumerate(outputs)]
        if isinstance(call.op, tvm.ir.GlobalVar) and isinstance(self.mod[call.op], relax.Function):
            # A case's selector and branches: their statements in place.
            callee = self.mod[call.op]
            if callee.attrs is not None and LOOP_ATTRIBUTE in callee.attrs:
                raise NotAKernel(f"a call of {call.op.name_hint}, a loop that is not a kernel")
            args = [self.value(arg, arg.ty, env, stmts) for arg in call.args]
            if not all(isinstance(a, tirx.Buffer) for a in args):
                raise NotAKernel("a call argument that is not a tensor")
            callee_stmts, result = self.run(callee, args)
            stmts.extend(callee_stmts)
            return result
        callee = call.op.name_hint if isinstance(call.op, tvm.ir.GlobalVar) else getattr(call.op, "name", call.op)
        raise NotAKernel(f"a call of {callee}")

    def distinct(self, buffers: list, stmts: list) -> list:
        """`buffers` with each repeated one replaced by a copy: a kernel
        whose two parameters became one buffer would read `x[i] == x[i]`,
        which TVM's simplifier folds to true (and `x[i] - x[i]` to 0), wrong
        for NaN and infinities."""
        result: list = []
        for buffer in buffers:
            if any(buffer.same_as(seen) for seen in result):
                copy = self.temporary_like(buffer)
                stmts.append(self.copy(buffer, copy))
                buffer = copy
            result.append(buffer)
        return result

    def copy(self, source, dest):
        from ..kernels import copy_primfunc

        shape = [int(d) for d in dest.shape]
        return inline(copy_primfunc(tuple(shape), str(dest.dtype), parallel=False), [source, dest])

    def temporary_like(self, buffer):
        return self.temporary(tensor_type(buffer))



def inline(func: tirx.PrimFunc, buffers: list):
    """`func`'s body with its buffer parameters replaced by `buffers`, its own
    definitions renewed (a function inlined twice defines new variables),
    its own buffers compacted."""
    func = s_tir.renew_defs(compacted(func))
    if len(func.params) != len(buffers):
        raise NotAKernel("a kernel whose parameters do not match its call")
    table = dict(zip(func.params, buffers))
    return tvm_ffi.structural_map(func.body, [(tirx.Buffer, lambda buffer: table.get(buffer, buffer))])


def call_kernel(kernel, args: list, out_ty, in_place: list):
    """A call of the PrimFunc `kernel` on `args` returning `out_ty` (a list
    of types: a tuple): call_tir_inplace where an output is written in
    place of an input (`in_place`: per output, that input's position or
    -1), else call_tir."""
    if any(index >= 0 for index in in_place):
        indices = in_place if isinstance(out_ty, list) else in_place[0]
        return relax.call_tir_inplace(kernel, relax.Tuple(args), indices, out_ty=out_ty)
    return relax.call_tir(kernel, args, out_ty=out_ty)


def block_planning() -> list:
    """The CPU lowering's passes that make blocks ready for
    CompactBufferAllocation (cpu/fastmath.py runs them on every PrimFunc,
    `compacted` on a kernel before it is inlined)."""
    return [
        s_tir.transform.LowerInitBlock(),
        s_tir.transform.PlanAndUpdateBufferAllocationLocation(),
        s_tir.transform.ConvertBlocksToOpaque(),
    ]


def compacted(func: tirx.PrimFunc) -> tirx.PrimFunc:
    """`func` with the buffers its blocks allocate shrunk to what they use,
    by the passes the CPU lowering runs up to CompactBufferAllocation (a
    schedule's stage computed at a loop allocates the whole tensor; the
    accumulator tile LLVM keeps in registers is that buffer compacted).
    Functions built here are compacted already."""
    if func.attrs is not None and STATEMENTS_ATTRIBUTE in func.attrs:
        return func
    allocates = []
    tvm_ffi.structural_walk(func.body, [(s_tir.SBlock, lambda block: allocates.append(True) if block.alloc_buffers else None)])
    if not allocates:
        return func
    passes = tvm.transform.Sequential([*block_planning(), s_tir.transform.CompactBufferAllocation()])
    return passes(tvm.IRModule({"main": func}))["main"]


def call_packed(name: str, args: list):
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


def seq(stmts: list):
    return stmts[0] if len(stmts) == 1 else tirx.SeqStmt(stmts)
