"""The tvm dialect, walked into a Relax IRModule.

Each tvm op is exactly one Relax construct: ``tvm.X`` is ``tvm.relax.op.X``
called with the op's operands as positional arguments and its attributes as
keyword arguments. The few ops whose Relax form is not such a call are listed
in ``_SPECIAL``. No semantic decision is made here: the C++ pipeline already
chose every operator, shape and dtype, and each value emitted here is checked
against the result type the pipeline computed. Elementwise ops are built by
the C++ emitter (python/RelaxBodyEmitter.h), which hands the rest back here.
"""

from __future__ import annotations

import functools

from typing import Any, Callable

import numpy as np

from ._core import ATTRIBUTES
from .dtypes import numpy_dtype
from .errors import EmitError

def elements_to_numpy(value: tuple) -> np.ndarray:
    """A dense attribute from the C++ walk as numpy: a view of its storage."""
    data, shape, dtype, splat = value
    flat = np.frombuffer(data, dtype=np.uint8).view(numpy_dtype(dtype))
    if splat:
        return np.broadcast_to(flat[0], shape)
    return flat.reshape(shape)


def _is_elements(value: Any) -> bool:
    return isinstance(value, tuple) and len(value) == 4 and isinstance(value[2], str)


@functools.lru_cache(maxsize=None)
def _relax_op(name: str) -> Callable[..., Any]:
    from tvm import relax

    target: Any = relax.op
    for part in name.split("."):
        target = getattr(target, part, None)
        if target is None:
            raise EmitError(f"tvm.relax.op has no operator '{name}'")
    return target


def _emit_constant(emitter, bb, operands, attributes, op):
    from tvm import relax

    value = attributes["value"]
    if value.ndim == 0 and value.dtype.kind == "f" and not np.isfinite(value):
        # TVMScript prints a non-finite scalar as R.const("nan") and cannot
        # parse that back; a one-element tensor prints as metadata, which
        # round-trips (script(show_meta=True)).
        vector = bb.emit(relax.const(_constant_tensor(value.reshape(1))))
        return relax.op.reshape(vector, ())
    return relax.const(_constant_tensor(value))


def _constant_tensor(value: np.ndarray):
    """The TVM Tensor of a constant. Read-only arrays view MLIR's attribute
    storage and are copied (TVM wants 64-byte aligned data). Large
    constants arrive writable, in 64-byte-aligned blobs of their own
    (LargeConstants.h), and TVM takes them as they are."""
    import tvm

    if value.flags.writeable and value.flags.c_contiguous and value.ctypes.data % 64 == 0:
        try:
            return tvm.runtime.from_dlpack(value)
        except BufferError:  # a dtype DLPack lacks (numpy's bfloat16)
            pass
    # A Tensor, not the array, for relax.const: it would narrow a 0-d
    # int64/float64 array to its default dtype, and copy every array twice.
    return tvm.runtime.tensor(np.asarray(value, order="C"))


def _emit_concat(emitter, bb, operands, attributes, op):
    from tvm import relax

    return relax.op.concat(relax.Tuple(operands), **attributes)


def _emit_kernel(emitter, bb, operands, attributes, op):
    from tvm import relax

    from .kernels import kernel_primfunc

    result_infos = [type_info for _, type_info in op["results"]]
    # Trailing operands: the sizes of the results' dynamic dimensions.
    dynamic = sum(list(shape).count(-1) for shape, _, _ in result_infos if shape is not None)
    operands, sizes = (operands[: len(operands) - dynamic], iter(operands[len(operands) - dynamic :])) if dynamic else (operands, iter(()))
    operand_infos = [(None, operand.ty.dtype, str(operand.ty)) for operand in operands]
    where = _where(op)
    out = [
        relax.TensorType([next(sizes) if d == -1 else d for d in shape], dtype) if shape is not None and -1 in shape else _tensor_type((shape, dtype, text), where)
        for shape, dtype, text in result_infos
    ]
    # Opaque to operator fusion (8 is TVM's kOpaque): a kernel keeps its own
    # loop nest, which FuseTIR cannot merge with legalized operators. It is
    # scheduled as written: the CPU rules find no blocks in it to schedule,
    # and their analysis of a long chain of Binds ran for minutes.
    in_place = [int(i) for i in attributes.get("in_place", [])]
    func = kernel_primfunc(op, operand_infos, result_infos, in_place).with_attrs({"op_pattern": 8, "tirx.is_scheduled": True})
    gvar = emitter.module.add_func(func, attributes["name"])
    out_ty = out[0] if len(out) == 1 else out
    if in_place:
        return relax.call_tir_inplace(gvar, operands, in_place, out_ty=out_ty)
    return relax.call_tir(gvar, operands, out_ty=out_ty)


def _emit_matmul(emitter, bb, operands, attributes, op):
    from tvm import relax

    if not attributes.pop("rounded_products", False):
        return relax.op.matmul(*operands, **attributes)
    from .kernels import rounded_products_matmul_primfunc

    lhs, rhs = operands
    dtype = str(lhs.ty.dtype)
    shape = [*lhs.ty.shape.values[:-1], rhs.ty.shape.values[-1]]
    func = rounded_products_matmul_primfunc(list(lhs.ty.shape.values), list(rhs.ty.shape.values), dtype)
    gvar = emitter.module.add_func(func, "matmul_rounded_products")
    return relax.call_tir(gvar, [lhs, rhs], out_ty=relax.TensorType(shape, dtype))


def _emit_update_slice_in_place(emitter, bb, operands, attributes, op):
    from tvm import relax

    from .kernels import update_slice_primfunc

    operand, update, *starts = operands
    shape = tuple(int(d) for d in operand.ty.shape)
    update_shape = tuple(int(d) for d in update.ty.shape)
    func = update_slice_primfunc(shape, update_shape, str(operand.ty.dtype))
    func = func.with_attrs({"op_pattern": 8, "tirx.is_scheduled": True})
    gvar = emitter.module.add_func(func, "update_slice_in_place")
    return relax.call_tir_inplace(gvar, [operand, update, *starts], 0, out_ty=operand.ty)


def _copy(emitter, bb, value):
    from tvm import relax

    from .kernels import copy_primfunc

    shape = tuple(int(d) for d in value.ty.shape)
    func = copy_primfunc(shape, str(value.ty.dtype)).with_attrs({"op_pattern": 8, "tirx.is_scheduled": True})
    gvar = emitter.module.add_func(func, "copy")
    return bb.emit(relax.call_tir(gvar, [value], out_ty=value.ty))


_ITERATIONS_PER_CALL = 16
# On a loop's Relax function: [its condition function, its body function].
LOOP_ATTRIBUTE = "stablehlo_tvm.loop"
# On a module with loops the build may leave as recursive functions.
LOOPS_ATTRIBUTE = "stablehlo_tvm.has_loops"


def _emit_while(emitter, bb, operands, attributes, op):
    """A loop: private functions for its regions and one that calls itself
    under an If while the condition holds; the call returns the carried
    values as a tuple."""
    from tvm import relax

    cond_block, body_block = (region[0] for region in op["regions"])
    types = [operand.ty for operand in operands]
    base = emitter.unique("while")
    emitter.has_loops = True
    cond = emitter.region_function(f"{base}_cond", cond_block, types, as_tuple=False)
    body = emitter.region_function(f"{base}_body", body_block, types, as_tuple=True)
    params = [relax.Var(f"carried{i}", ty) for i, ty in enumerate(types)]
    loop = emitter.module.add_func(relax.Function(params, relax.Tuple(params)), f"{base}_loop")
    # Each call runs up to _ITERATIONS_PER_CALL iterations (nested Ifs)
    # before calling itself again: the recursion, a native stack frame per
    # call, is that many times shallower than the loop.
    # Each body call is bound to a variable: the next iteration reads its
    # results through it (an inline call would be evaluated at each read).
    def iterate(state, remaining):
        step = relax.Var("step", relax.TupleType(types))
        binding = relax.BindingBlock([relax.VarBinding(step, relax.Call(body, state))])
        after = [relax.TupleGetItem(step, i) for i in range(len(state))]
        more = relax.Call(loop, after) if remaining == 1 else iterate(after, remaining - 1)
        return relax.If(relax.Call(cond, state), relax.SeqExpr([binding], more), relax.Tuple(state))

    loop_bb = relax.BlockBuilder()
    with loop_bb.function(f"{base}_loop", params, private=True):
        loop_bb.emit_func_output(iterate(list(params), _ITERATIONS_PER_CALL))
    # Names its condition and body for the CPU pipeline, which makes a loop
    # of kernel calls one PrimFunc (cpu/loops.py).
    loop_func = loop_bb.get()[f"{base}_loop"].with_attr(LOOP_ATTRIBUTE, [cond.name_hint, body.name_hint])
    emitter.module.update_func(loop, loop_func)
    # The body writes these in place (tvm.update_slice_in_place): the loop
    # gets buffers of its own.
    operands = list(operands)
    for index in attributes.get("copied_inits", []):
        operands[index] = _copy(emitter, bb, operands[index])
    return relax.Call(loop, operands)


def _free_values(blocks: list[dict]) -> list[int]:
    """Ids of the values `blocks` (and what they nest) use but do not define,
    in order of first use."""
    defined: set[int] = set()
    used: list[int] = []
    for block in blocks:
        _note_values(block, defined, used)
    return list(dict.fromkeys(i for i in used if i not in defined))


def _note_values(block: dict, defined: set[int], used: list[int]) -> None:
    """Adds the ids `block` (and what it nests) defines and uses."""
    defined.update(arg_id for arg_id, _ in block["arguments"])
    for op in block["ops"]:
        used.extend(op["operands"])
        defined.update(value_id for value_id, _ in op["results"])
        for region in op["regions"]:
            for nested in region:
                _note_values(nested, defined, used)


def _emit_case(emitter, bb, operands, attributes, op):
    """One private function per branch, taking the values it uses from the
    enclosing function, and a selector function that calls one of them
    through nested Ifs (the last branch when the index is out of range); the
    call returns the results as a tuple."""
    from tvm import relax

    (index,) = operands
    base = emitter.unique("case")
    blocks = [region[0] for region in op["regions"]]
    captured = _free_values(blocks)
    outer = [emitter.current_values[i] for i in captured]
    types = [value.ty for value in outer]
    branches = [
        emitter.region_function(f"{base}_branch{k}", block, [], as_tuple=True, captured=list(zip(captured, types)))
        for k, block in enumerate(blocks)
    ]
    index_param = relax.Var("index", index.ty)
    params = [relax.Var(f"captured{i}", ty) for i, ty in enumerate(types)]

    def choose(k):
        call = relax.Call(branches[k], params)
        if k == len(branches) - 1:
            return call
        is_k = relax.op.equal(index_param, relax.const(np.int32(k)))
        return relax.If(is_k, call, choose(k + 1))

    select_bb = relax.BlockBuilder()
    with select_bb.function(f"{base}_select", [index_param] + params, private=True):
        select_bb.emit_func_output(choose(0))
    select = emitter.module.add_func(select_bb.get()[f"{base}_select"], f"{base}_select")
    return relax.Call(select, [index] + outer)


def _emit_call(emitter, bb, operands, attributes, op):
    from tvm import relax

    return relax.Call(emitter.functions[attributes["callee"]], operands)


def _emit_call_dps_packed(emitter, bb, operands, attributes, op):
    from tvm import relax, tirx

    from . import callbacks
    from .lapack import register

    where = _where(op)
    values = [int(v) for v in attributes["scalars"]]
    if attributes["function"].startswith("stablehlo_tvm.lapack."):
        register()
    elif attributes["function"] == callbacks.PACKED_FUNCTION:
        values = [callbacks.resolve(values[0], emitter.callbacks, where)]
    out = [_tensor_type(type_info, where) for _, type_info in op["results"]]
    scalars = [relax.prim_value(tirx.IntImm("int64", v)) for v in values]
    return relax.call_dps_packed(attributes["function"], list(operands) + scalars, out_ty=out[0] if len(out) == 1 else out)


def _emit_take(emitter, bb, operands, attributes, op):
    from tvm import relax

    # The import's indices are in range by construction; "clip" keeps a
    # wrong one in bounds too (and TVM warns at every "fast" take).
    x, indices = operands
    return relax.op.take(x, indices, axis=attributes["axis"], mode="clip")


def _with_sizes(shape: list, sizes: list) -> list:
    """A shape attribute (-1 where dynamic) with its symbolic sizes in."""
    if not sizes:
        return shape  # at most one -1, which Relax infers
    given = iter(sizes)
    return [next(given) if d == -1 else d for d in shape]


def _emit_reshape(emitter, bb, operands, attributes, op):
    from tvm import relax

    x, *sizes = operands
    return relax.op.reshape(x, _with_sizes(list(attributes["shape"]), sizes))


def _emit_broadcast_to(emitter, bb, operands, attributes, op):
    from tvm import relax

    x, *sizes = operands
    return relax.op.broadcast_to(x, relax.ShapeExpr(_with_sizes(list(attributes["shape"]), sizes)))


def _emit_dynamic_slice(emitter, bb, operands, attributes, op):
    import tvm
    from tvm import relax, tirx

    x, *rest = operands
    shape = list(attributes["shape"])
    starts, sizes = rest[: len(shape)], _with_sizes(shape, rest[len(shape) :])
    sizes = [tirx.IntImm("int64", n) if isinstance(n, int) else n for n in sizes]
    dims = x.ty.shape
    # A size no larger than its dimension, which a size read from data
    # (tvm.tensor_to_size) need not be: checked when not evident.
    too_big = [(n, d) for n, d in zip(sizes, dims) if not emitter.sizes.can_prove(tirx.LE(n, d))]
    if too_big:
        fits = functools.reduce(tirx.And, [tirx.LE(n, d) for n, d in too_big])
        x = bb.emit(
            relax.op.call_pure_packed(
                "stablehlo_tvm.shape_assertion",
                x,
                fits,
                tvm.ir.StringImm(f"{_where(op)}: a slice larger than the array it is taken from"),
                ty_args=[x.ty],
            )
        )
    # Clamped into the operand, as StableHLO clamps a window's start, so
    # the window is in bounds (and Relax's shape rule stays simple).
    begin = [tirx.min(tirx.max(s, 0), d - n) for s, d, n in zip(starts, dims, sizes)]
    sliced = bb.emit(relax.op.strided_slice(x, list(range(len(shape))), begin, [b + n for b, n in zip(begin, sizes)], assume_inbound=True))
    return bb.match_cast(sliced, relax.TensorType(sizes, x.ty.dtype))


def _emit_arange(emitter, bb, operands, attributes, op):
    from tvm import relax

    start, end, step = attributes["start"], attributes["end"], attributes["step"]
    if operands:  # a symbolic count of elements
        end = start + operands[0] * step
    return relax.op.arange(start, end, step, attributes["dtype"])


def _emit_size_tensor(emitter, bb, operands, attributes, op):
    from tvm import relax

    (size,) = operands
    vector = bb.emit(relax.op.shape_to_tensor(relax.ShapeExpr([size])))
    scalar = bb.emit(relax.op.reshape(vector, ()))
    return relax.op.astype(scalar, op["results"][0][1][1])


def _emit_shape_assertion(emitter, bb, operands, attributes, op):
    import tvm
    from tvm import relax

    x, predicate, *args = operands
    return relax.op.call_pure_packed(
        "stablehlo_tvm.shape_assertion", x, predicate, tvm.ir.StringImm(attributes["message"]), *args, ty_args=[x.ty]
    )


# tvm ops whose Relax form is not relax.op.<name>(*operands, **attributes).
_SPECIAL: dict[str, Callable[..., Any]] = {
    "reshape": _emit_reshape,
    "broadcast_to": _emit_broadcast_to,
    "arange": _emit_arange,
    "dynamic_slice": _emit_dynamic_slice,
    "size_tensor": _emit_size_tensor,
    "shape_assertion": _emit_shape_assertion,
    "constant": _emit_constant,
    "concat": _emit_concat,
    "kernel": _emit_kernel,
    "matmul": _emit_matmul,
    "while": _emit_while,
    "update_slice_in_place": _emit_update_slice_in_place,
    "case": _emit_case,
    "call": _emit_call,
    "call_dps_packed": _emit_call_dps_packed,
    "take": _emit_take,
}

# Special ops whose Relax call returns a tuple even for one result.
_TUPLE_RESULTS = {"while", "case"}


def _tensor_type(type_info: tuple, where: str):
    from tvm import relax

    shape, dtype, text = type_info
    if shape is None or dtype is None:
        raise EmitError(f"{where}: type {text} has no TVM equivalent")
    return relax.TensorType(list(shape), dtype)


class _SymbolicDims:
    """The shape variables of a function's dynamic argument dimensions:
    one per name in `tvm.dim_symbols` (stablehlo-symbolize-shapes), shared
    by the dimensions that name; a fresh one where it names none."""

    def __init__(self, names, make_variable):
        self.names = names or []
        self.make_variable = make_variable
        self.variables: dict[str, Any] = {}

    def tensor_type(self, position: int, type_info: tuple, where: str):
        from tvm import relax

        shape, dtype, text = type_info
        if shape is None or -1 not in shape:
            return _tensor_type(type_info, where)
        names = list(self.names[position]) if position < len(self.names) else []
        dims = []
        for d, size in enumerate(shape):
            if size != -1:
                dims.append(size)
                continue
            name = str(names[d]) if d < len(names) else f"arg{position}_{d}"
            if name not in self.variables:
                self.variables[name] = self.make_variable(name)
            dims.append(self.variables[name])
        return relax.TensorType(dims, dtype)


def _where(op: dict) -> str:
    """Where an op came from, for messages: its location and name."""
    return f"{op.get('location', '<unknown>')}: {op.get('name', '<no op>')}"


def _check_type(value, type_info: tuple, where: str) -> None:
    """A dynamic dimension (-1) matches any size, symbolic or not."""
    from tvm import tirx

    shape, dtype, text = type_info
    ty = value.ty
    dims = list(ty.shape) if getattr(ty, "shape", None) is not None else None
    got_shape = None if dims is None else [int(d) if isinstance(d, tirx.IntImm) else str(d) for d in dims]
    if (
        ty.dtype != dtype
        or shape is None
        or got_shape is None
        or len(got_shape) != len(shape)
        or any(e != -1 and g != e for g, e in zip(got_shape, shape))
    ):
        if got_shape is None and shape is not None and -1 in shape:
            raise EmitError(
                f"{where}: Relax could not infer the dynamic shape {text} (sizes it cannot prove equal); "
                "build this program with shapes='specialize'"
            )
        raise EmitError(f"{where}: Relax produced {got_shape} {ty.dtype}, the tvm dialect says {text}")


def _check_types(emitted: list[tuple]) -> None:
    """Checks each (value, type_info, op) against the type the pipeline
    computed: one structural comparison for them all (through the FFI, a
    shape read dimension by dimension took a third of the import), then one
    by one only to name the first that differs."""
    from tvm_ffi import structural_equal

    if not emitted:
        return
    got = [value.ty for value, _, _ in emitted]
    try:
        expected = [_EXPECTED_TYPES[type_info[2]] for _, type_info, _ in emitted]
    except KeyError:  # a type seen for the first time, or one TVM lacks
        expected = [_expected_type(type_info) for _, type_info, _ in emitted]
    if all(e is not None for e in expected) and structural_equal(got, expected):
        return
    for value, type_info, op in emitted:
        _check_type(value, type_info, _where(op))


_EXPECTED_TYPES: dict[str, Any] = {}


def _expected_type(type_info: tuple):
    """The Relax type of a (shape, dtype, text) triple, None where there is
    none; cached by the text, which names the type."""
    shape, dtype, text = type_info
    ty = _EXPECTED_TYPES.get(text)
    if ty is None and shape is not None and dtype is not None and -1 not in shape:
        from tvm import relax

        ty = _EXPECTED_TYPES[text] = relax.TensorType(list(shape), dtype)
    return ty


def _convert_attribute(value: Any) -> Any:
    if _is_elements(value):
        return elements_to_numpy(value)
    return value


@functools.cache  # made at first use: TVM is imported late
def _size_ops() -> dict[str, Callable[[list, dict], Any]]:
    """The ops on symbolic sizes (`index`, and `i1` predicates) as TIR
    expressions: tvm.dim reads the Relax type of its operand, arith ops
    are the shape arithmetic stablehlo-symbolize-shapes made."""
    from tvm import tirx

    def constant(operands, attrs):
        value = attrs["value"]
        return tirx.const(bool(value), "bool") if isinstance(value, bool) else tirx.IntImm("int64", int(value))

    def compare(operands, attrs):
        a, b = operands
        kind = attrs["predicate"].lstrip("su") if attrs["predicate"] not in ("eq", "ne") else attrs["predicate"]
        return {"eq": tirx.EQ, "ne": tirx.NE, "lt": tirx.LT, "le": tirx.LE, "gt": tirx.GT, "ge": tirx.GE}[kind](a, b)

    def binary(fn):
        return lambda operands, attrs: fn(*operands)

    def logical(int_fn, bool_fn):
        return lambda operands, attrs: (bool_fn if str(operands[0].ty) == "bool" else int_fn)(*operands)

    return {
        "tvm.dim": lambda operands, attrs: operands[0].ty.shape[int(attrs["dim"])],
        "arith.constant": constant,
        "arith.addi": binary(lambda a, b: a + b),
        "arith.subi": binary(lambda a, b: a - b),
        "arith.muli": binary(lambda a, b: a * b),
        "arith.divsi": binary(tirx.truncdiv),
        "arith.floordivsi": binary(tirx.floordiv),
        "arith.divui": binary(tirx.truncdiv),
        "arith.remsi": binary(tirx.truncmod),
        "arith.remui": binary(tirx.truncmod),
        "arith.maxsi": binary(tirx.max),
        "arith.maxui": binary(tirx.max),
        "arith.minsi": binary(tirx.min),
        "arith.minui": binary(tirx.min),
        "arith.andi": logical(tirx.bitwise_and, tirx.And),
        "arith.ori": logical(tirx.bitwise_or, tirx.Or),
        "arith.xori": logical(tirx.bitwise_xor, lambda a, b: tirx.NE(a, b)),
        "arith.cmpi": compare,
        "arith.select": binary(tirx.Select),
    }


_COMPLEX_SIGNATURE = (ATTRIBUTES["complex_arguments"], ATTRIBUTES["complex_results"])
_NARROW_SIGNATURE = (ATTRIBUTES["narrow_results"], ATTRIBUTES["small_float_results"])


class _Emitter:
    """Emits tvm-dialect functions into one module builder; regions of
    control-flow ops become private functions of the same module.

    A function walked into dicts with its ops is emitted from them. One
    walked without (`_core.Module.functions(ops=False)`) is emitted by the
    C++ emitter (python/RelaxBodyEmitter.h) from `source`, the module it came
    from, which hands each op it does not build itself back to `emit_ops`."""

    def __init__(self, source=None):
        from tvm import relax, sym

        from .tvm_internals import block_builder_api

        self.relax = relax
        # What BlockBuilder.emit calls once it has turned Python tuples into
        # Relax ones; an emitted expression is never a Python tuple.
        self.emit_binding = block_builder_api()[0]
        self.source = source
        self.module = relax.BlockBuilder()
        self.count = 0
        self.has_loops = False
        self.current_values: dict[int, Any] = {}
        # (GlobalVar, function) of the functions `finish` adds.
        self.pending: list[tuple[Any, Any]] = []
        # GlobalVars by MLIR symbol (TVM renames 'a.b' to 'a_b').
        self.functions: dict[str, Any] = {}
        # The Python functions the module's host callbacks call, by index.
        self.callbacks: tuple = ()
        # What is known of the symbolic sizes: each is a size (>= 0).
        self.sizes = sym.Analyzer()

    def size_variable(self, name: str):
        """A new shape variable, known to the analyzer as a size."""
        from tvm import ir, tirx

        variable = tirx.Var(name, "int64")
        self.sizes.bind(variable, ir.Range.from_min_extent(tirx.IntImm("int64", 0), tirx.IntImm("int64", 1 << 62)))
        return variable

    def unique(self, hint: str) -> str:
        self.count += 1
        return f"{hint}{self.count}"

    def emit_ops(self, bb, ops: list[dict], values: dict[int, Any], emitted: list[tuple] | None = None) -> None:
        """Emits `ops` into `bb`'s current dataflow block and checks the
        types of what it emitted; given `emitted`, it adds them there for the
        caller to check instead."""
        relax = self.relax
        emit = self.emit_binding
        check = emitted is None
        # (value, type_info, op): what _check_types compares.
        emitted = [] if emitted is None else emitted
        op: dict = {}
        self.current_values = values
        try:
            for op in ops:
                op_name: str = op["name"]
                operands = [values[i] for i in op["operands"]]
                size_op = _size_ops().get(op_name)
                if size_op is not None:
                    # A symbolic size: a TIR expression, nothing emitted.
                    values[op["results"][0][0]] = self.sizes.simplify(size_op(operands, op["attributes"]))
                    continue
                if op_name == "tvm.tensor_to_size":
                    values[op["results"][0][0]] = self.bind_size(bb, operands[0])
                    continue
                if not op_name.startswith("tvm."):
                    raise EmitError(f"{_where(op)}: not an op of the tvm dialect")
                relax_name = op_name[len("tvm.") :]
                attributes = op["attributes"]
                if attributes:
                    attributes = {k: _convert_attribute(v) for k, v in attributes.items()}
                special = _SPECIAL.get(relax_name)
                if special is not None:
                    expr = special(self, bb, operands, attributes, op)
                    # Back from the values of any region it emitted.
                    self.current_values = values
                else:
                    expr = _relax_op(relax_name)(*operands, **attributes)
                results = op["results"]
                var = emit(bb, expr, "")
                if len(results) == 1 and relax_name not in _TUPLE_RESULTS:
                    value_id, type_info = results[0]
                    emitted.append((var, type_info, op))
                    values[value_id] = var
                    continue
                # Several results: the Relax call returns them as a tuple.
                for index, (value_id, type_info) in enumerate(results):
                    item = emit(bb, relax.TupleGetItem(var, index), "")
                    emitted.append((item, type_info, op))
                    values[value_id] = item
        except EmitError:
            raise
        except Exception as error:
            # Relax rejected an op: a type that differs earlier explains it
            # better than Relax's message does.
            _check_types(emitted)
            raise EmitError(f"{_where(op)}: {error}") from error
        if check:
            _check_types(emitted)

    def region_function(self, name: str, block: dict, types: list, as_tuple: bool, captured=()):
        """A private function of a region's block: its arguments (then the
        `captured` (id, type) values of the enclosing function) in, what its
        terminator yields out (a tuple when `as_tuple`)."""
        from tvm import relax

        params = [relax.Var(f"arg{i}", ty) for i, ty in enumerate(types)]
        values = {arg_id: param for (arg_id, _), param in zip(block["arguments"], params)}
        for i, (value_id, ty) in enumerate(captured):
            param = relax.Var(f"captured{i}", ty)
            params.append(param)
            values[value_id] = param

        def body(bb):
            self.emit_ops(bb, block["ops"][:-1], values)
            outputs = [values[i] for i in block["ops"][-1]["operands"]]
            return relax.Tuple(outputs) if as_tuple or len(outputs) != 1 else outputs[0]

        return self.add_function(name, params, body, {})

    def bind_size(self, bb, scalar):
        """A shape variable bound to the integer `scalar` (a rank-0
        tensor) holds when the function runs; a negative value is 0."""
        from tvm import relax, tirx

        wide = bb.emit(relax.op.astype(scalar, "int64")) if scalar.ty.dtype != "int64" else scalar
        size = bb.emit(relax.op.maximum(wide, relax.const(0, "int64")))
        shape = bb.emit(relax.op.tensor_to_shape(bb.emit(relax.op.reshape(size, [1]))))
        variable = self.size_variable(self.unique("size"))
        bb.match_cast(shape, relax.ShapeType([variable]))
        return variable

    def emit_function(self, function: dict) -> None:
        """Adds one public func.func of the tvm dialect to the module."""
        from tvm import relax

        name = function["name"]
        params = []
        values: dict[int, Any] = {}
        symbols = _SymbolicDims(function["attributes"].get(ATTRIBUTES["dim_symbols"]), self.size_variable)
        for i, (value_id, type_info) in enumerate(function["arguments"]):
            var = relax.Var(f"arg{i}", symbols.tensor_type(i, type_info, f"@{name} argument {i}"))
            params.append(var)
            values[value_id] = var

        def body(bb):
            if "ops" in function:
                self.emit_ops(bb, function["ops"], values)
                outputs = [values[i] for i in function["returns"]]
            else:
                outputs = self.emit_body(bb, name, params)
            return outputs[0] if len(outputs) == 1 else relax.Tuple(outputs)

        # How complex values were split into real pairs (stablehlo-lower-complex),
        # for callers to split arguments and join results.
        attrs = {key: [int(i) for i in function["attributes"][key]] for key in _COMPLEX_SIGNATURE if key in function["attributes"]}
        # Results that only keep debug callbacks alive (stablehlo-expose-effects).
        if ATTRIBUTES["effect_results"] in function["attributes"]:
            attrs[ATTRIBUTES["effect_results"]] = int(function["attributes"][ATTRIBUTES["effect_results"]])
        # Results of 2- and 4-bit integers held in 8 bits
        # (stablehlo-widen-sub-byte-integers) and of f8/f6/f4 values held in
        # f32 (stablehlo-lower-small-floats).
        for key in _NARROW_SIGNATURE:
            if key in function["attributes"]:
                attrs[key] = [str(t) for t in function["attributes"][key]]
        # Equalities of symbolic dimensions with JAX's messages, which the
        # caller checks before Relax's own check of the shapes on entry.
        if ATTRIBUTES["dim_checks"] in function["attributes"]:
            attrs[ATTRIBUTES["dim_checks"]] = [
                [[int(n) for pair in check["dims"] for n in pair], [int(n) for pair in check["args"] for n in pair], str(check["message"])]
                for check in function["attributes"][ATTRIBUTES["dim_checks"]]
            ]
        attrs["global_symbol"] = name
        self.functions[name] = self.add_function(name, params, body, attrs)

    def emit_body(self, bb, name: str, params: list) -> list:
        """Emits the body of `source`'s function `name` into `bb`'s dataflow
        block; returns the values it returns."""
        import tvm_ffi

        errors: list[BaseException] = []
        # What the ops passed back emitted, checked once at the end.
        emitted: list[tuple] = []

        def emit_op(op: dict | BaseException, *ids_and_values) -> list:
            # One op the C++ emitter hands back, described in its walk
            # (or the error describing it raised): [value, type] per result.
            try:
                if isinstance(op, BaseException):
                    raise op
                values = dict(zip(ids_and_values[::2], ids_and_values[1::2]))
                self.emit_ops(bb, [op], values, emitted)
                return [x for value_id, _ in op["results"] for x in (values[value_id], values[value_id].ty)]
            except BaseException as error:
                errors.append(error)
                raise

        emit = tvm_ffi.get_global_func("stablehlo_tvm.emit_relax_body")
        try:
            outputs = list(emit(self.source, name, bb, params, [p.ty for p in params], emit_op))
        except Exception as error:
            if errors:  # the op's own error, not TVM's wrapping of it
                raise errors[0] from None
            raise EmitError(f"@{name}: {error}") from error
        _check_types(emitted)
        return outputs

    def add_function(self, name: str, params: list, body: Callable[[Any], Any], attrs: dict):
        """Adds the Relax function whose `body(bb)` emits its ops into a
        dataflow block and returns its output; returns its GlobalVar.

        The module's builder holds a stand-in with the same signature: the
        builder deduplicates the functions it is given by structural hash,
        which for a function of 10k ops took a tenth of the import. The
        function itself joins the module in `finish`."""
        from tvm import relax

        from .tvm_internals import block_builder_api, set_type

        _, begin_dataflow_block, end_block = block_builder_api()
        bb = relax.BlockBuilder()
        bb.begin_scope(params)
        begin_dataflow_block(bb)
        try:
            out = bb.emit_output(body(bb))
        finally:
            # Also when `body` raises: a builder dropped with a block open
            # warns on stderr.
            block = end_block(bb)
        bb.end_scope()
        # Not bb.normalize, which revisits every binding (a tenth of a large
        # import): the sequence's type is the output's, with the shape
        # variables bound inside it (bind_size's match_casts) erased, as the
        # normalizer would; only the parameters' are the caller's to see.
        defined = {v: v for p in params for v in relax.analysis.definable_tir_vars_in_type(p.ty)}
        bound_inside = any(v not in defined for v in relax.analysis.tir_vars_in_type(out.ty))
        ty = relax.analysis.erase_to_well_defined(out.ty, defined) if bound_inside else out.ty
        seq = relax.SeqExpr([block], out)
        set_type(seq, ty)
        func = relax.Function(params, seq, ty, is_pure=True, attrs=_dict_attrs(attrs) if attrs else None)
        # A name of its own makes each stand-in distinct to the deduplication.
        stand_in = relax.Function.create_empty(params, func.ret_ty, attrs=_dict_attrs({**attrs, "stablehlo_tvm.stand_in": name}))
        gvar = self.module.add_func(stand_in, name)
        self.pending.append((gvar, func))
        return gvar

    def finish(self):
        """The module: what the builder holds, stand-ins replaced."""
        from tvm import relax

        module = self.module.get()
        for gvar, func in self.pending:
            module.update_func(gvar, func)
        # A kernel named for its op may have taken a public function's name
        # first: each public function gets its own name back (as the VM
        # looks it up), the kernel another.
        return relax.transform.NormalizeGlobalVar()(module)


def _dict_attrs(attrs: dict):
    import tvm

    return tvm.ir.make_node("ir.DictAttrs", **attrs)


def _callees_first(functions: list[dict]) -> list[dict]:
    """`functions` ordered so that each comes after the functions it calls
    (a Relax call needs its callee's GlobalVar)."""
    by_name = {f["name"]: f for f in functions}
    ordered: list[dict] = []
    state: dict[str, str] = {}
    for function in functions:
        _visit_callees_first(function, by_name, state, ordered)
    return ordered


# At module level, not nested in _callees_first: a nested function that
# calls itself is a reference cycle, and it held the whole walk (and, through
# the constants' views, the MLIR module) until the cycle collector ran.
def _visit_callees_first(function: dict, by_name: dict, state: dict, ordered: list) -> None:
    name = function["name"]
    if state.get(name) == "done":
        return
    if state.get(name) == "visiting":
        raise EmitError(f"@{name} calls itself (recursion has no Relax form here)")
    state[name] = "visiting"
    for callee in function["callees"]:
        if callee in by_name:
            _visit_callees_first(by_name[callee], by_name, state, ordered)
    state[name] = "done"
    ordered.append(function)


def emit_module(functions: list[dict], source=None, callbacks: tuple = ()):
    """A Relax IRModule with one function per public func.func; `source` is
    the `_core.Module` of functions walked without their ops, `callbacks`
    the Python functions its host callbacks call, by index."""
    emitter = _Emitter(source)
    emitter.callbacks = tuple(callbacks)
    for function in _callees_first([f for f in functions if f["public"]]):
        emitter.emit_function(function)
    module = emitter.finish()
    if emitter.has_loops:
        module = module.with_attr(LOOPS_ATTRIBUTE, True)
    return module
