"""The tvm dialect, walked into a Relax IRModule.

Each tvm op is exactly one Relax construct: ``tvm.X`` is ``tvm.relax.op.X``
called with the op's operands as positional arguments and its attributes as
keyword arguments. The few ops whose Relax form is not such a call are listed
in ``_SPECIAL``. No semantic decision is made here: the C++ pipeline already
chose every operator, shape and dtype, and each emitted value is checked
against the result type the pipeline computed.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .errors import EmitError

_NUMPY_DTYPES = {
    "bool": np.bool_,
    "int8": np.int8,
    "int16": np.int16,
    "int32": np.int32,
    "int64": np.int64,
    "uint8": np.uint8,
    "uint16": np.uint16,
    "uint32": np.uint32,
    "uint64": np.uint64,
    "float16": np.float16,
    "float32": np.float32,
    "float64": np.float64,
}


def numpy_dtype(dtype: str) -> np.dtype:
    """The numpy dtype of a TVM dtype name (bfloat16 via ml_dtypes)."""
    if dtype == "bfloat16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(_NUMPY_DTYPES[dtype])


def elements_to_numpy(value: tuple) -> np.ndarray:
    """A dense attribute from the C++ walk as numpy: a view of its storage."""
    data, shape, dtype, splat = value
    flat = np.frombuffer(data, dtype=np.uint8).view(numpy_dtype(dtype))
    if splat:
        return np.broadcast_to(flat[0], shape)
    return flat.reshape(shape)


def _is_elements(value: Any) -> bool:
    return isinstance(value, tuple) and len(value) == 4 and isinstance(value[2], str)


def _relax_op(name: str) -> Callable[..., Any]:
    from tvm import relax

    target: Any = relax.op
    for part in name.split("."):
        target = getattr(target, part, None)
        if target is None:
            raise EmitError(f"tvm.relax.op has no operator '{name}'")
    return target


def _emit_constant(bb, operands, attributes, op):
    from tvm import relax

    value = np.asarray(attributes["value"], order="C")
    # relax.const would narrow a 0-d int64/float64 array to its default dtype.
    return relax.const(value, dtype=str(value.dtype))


def _emit_concat(bb, operands, attributes, op):
    from tvm import relax

    return relax.op.concat(relax.Tuple(operands), **attributes)


def _emit_kernel(bb, operands, attributes, op):
    from tvm import relax

    from .kernels import kernel_primfunc

    operand_types = [operand.ty for operand in operands]
    operand_infos = [(tuple(int(d) for d in t.shape), t.dtype, str(t)) for t in operand_types]
    result_infos = [type_info for _, type_info in op["results"]]
    where = f"{op['location']}: tvm.kernel"
    out = [_tensor_type(type_info, where) for type_info in result_infos]
    func = kernel_primfunc(op, operand_infos, result_infos)
    gvar = bb.add_func(func, attributes["name"])
    return relax.call_tir(gvar, operands, out_ty=out[0] if len(out) == 1 else out)


# tvm ops whose Relax form is not relax.op.<name>(*operands, **attributes).
_SPECIAL: dict[str, Callable[..., Any]] = {
    "constant": _emit_constant,
    "concat": _emit_concat,
    "kernel": _emit_kernel,
}


def _tensor_type(type_info: tuple, where: str):
    from tvm import relax

    shape, dtype, text = type_info
    if shape is None or dtype is None:
        raise EmitError(f"{where}: type {text} has no TVM equivalent")
    return relax.TensorType(list(shape), dtype)


def _check_type(value, type_info: tuple, where: str) -> None:
    shape, dtype, text = type_info
    ty = value.ty
    got_shape = [int(d) for d in ty.shape] if getattr(ty, "shape", None) is not None else None
    if ty.dtype != dtype or got_shape != list(shape):
        raise EmitError(f"{where}: Relax produced {got_shape} {ty.dtype}, the tvm dialect says {text}")


def _convert_attribute(value: Any) -> Any:
    if _is_elements(value):
        return elements_to_numpy(value)
    return value


_COMPLEX_SIGNATURE = ("tvm.complex_arguments", "tvm.complex_results")


def emit_function(bb, function: dict) -> None:
    """Adds one func.func of the tvm dialect to the BlockBuilder's module."""
    from tvm import relax

    name = function["name"]
    params = []
    values: dict[int, Any] = {}
    for i, (value_id, type_info) in enumerate(function["arguments"]):
        var = relax.Var(f"arg{i}", _tensor_type(type_info, f"@{name} argument {i}"))
        params.append(var)
        values[value_id] = var

    # How complex values were split into real pairs (stablehlo-lower-complex),
    # for callers to split arguments and join results.
    attrs = {key: [int(i) for i in function["attributes"][key]] for key in _COMPLEX_SIGNATURE if key in function["attributes"]}
    with bb.function(name, params, attrs=attrs or None):
        with bb.dataflow():
            for op in function["ops"]:
                op_name: str = op["name"]
                where = f"{op['location']}: {op_name}"
                if not op_name.startswith("tvm."):
                    raise EmitError(f"{where}: not an op of the tvm dialect")
                relax_name = op_name[len("tvm.") :]
                operands = [values[i] for i in op["operands"]]
                attributes = {k: _convert_attribute(v) for k, v in op["attributes"].items()}
                if relax_name in _SPECIAL:
                    expr = _SPECIAL[relax_name](bb, operands, attributes, op)
                else:
                    expr = _relax_op(relax_name)(*operands, **attributes)
                results = op["results"]
                var = bb.emit(expr)
                if len(results) == 1:
                    value_id, type_info = results[0]
                    _check_type(var, type_info, where)
                    values[value_id] = var
                    continue
                # Several results: the Relax operator returns them as a tuple.
                for index, (value_id, type_info) in enumerate(results):
                    item = bb.emit(relax.TupleGetItem(var, index))
                    _check_type(item, type_info, where)
                    values[value_id] = item
            outputs = [values[i] for i in function["returns"]]
            result = outputs[0] if len(outputs) == 1 else relax.Tuple(outputs)
            out = bb.emit_output(result)
        bb.emit_func_output(out)


def emit_module(functions: list[dict]):
    """A Relax IRModule with one function per public func.func."""
    from tvm import relax

    bb = relax.BlockBuilder()
    for function in functions:
        if function["public"]:
            emit_function(bb, function)
    return bb.get()
