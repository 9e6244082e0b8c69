"""ScalarOperands: a constant or a computed scalar broadcast to a full tensor,
when an element-wise operator reads it beside an operand of the full shape,
becomes the scalar itself (Relax's element-wise operators broadcast).

StableHLO spells every scalar operand as a broadcast_in_dim, and CSE merges
equal ones, so one broadcast feeds several operators. Fusion materialized
such broadcasts as kernels of their own (a log_ndtr of 100,000 elements
wrote 13 broadcasts of f64 constants, each 0.8 MB, before its one fused
kernel read them); as scalars they are immediates in the fused kernel. The
broadcasts left unread go with the pipeline's next dead-code elimination.

Float constants, and zeros only where they are compared or chosen: TVM's
simplifier folds immediates as if arithmetic were exact; a float zero makes
`x * 0` zero for infinite and NaN x, and `x + 0` keep the sign of a zero x.
Integer constants only where they are compared or chosen, and not where a
division or remainder reads the result, however indirectly: an integer one
let the simplifier split a guarded divisor `x / select(b == 0, 1, b)` into
`select(b == 0, x, x / b)`, which divides by zero (a trap) in the lanes the
guard was for (and an immediate in the guard's comparisons did as much).
The shifts' guards, `where(s >= 32, 0, x << s)`, are what integer scalars
are for: full tensors of 32 and 0 that every round of a Threefry loop read.

A computed rank-0 value broadcast to a full tensor (a key word of the
Threefry hash, a step size) is read as that value: it is no immediate the
simplifier could rewrite, and as a broadcast it was a kernel writing the
whole tensor (CSE shares one broadcast of a key word among all the hash's
rounds, so it could not fuse into them): fifteen of them, a million
elements each, were a third of a 1024 x 1024 uniform draw.
"""

from __future__ import annotations

import numpy as np
import tvm
import tvm_ffi
from tvm import relax
from tvm.relax.expr_functor import PyExprMutator, mutator

from .bindings import bound_to, is_op, rewrite_functions

# Operators that only compare or choose: any constant is safe as a scalar
# (a ReLU's 0 in a maximum too).
_CHOOSING = {
    f"relax.{name}"
    for name in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "where", "maximum", "minimum")
}

# Element-wise operators that broadcast their operands as numpy does.
_BROADCASTING = {
    f"relax.{name}"
    for name in (
        "add",
        "subtract",
        "multiply",
        "divide",
        "floor_divide",
        "power",
        "maximum",
        "minimum",
        "mod",
        "floor_mod",
        "equal",
        "not_equal",
        "less",
        "less_equal",
        "greater",
        "greater_equal",
        "logical_and",
        "logical_or",
        "logical_xor",
        "bitwise_and",
        "bitwise_or",
        "bitwise_xor",
        "left_shift",
        "right_shift",
        "where",
    )
}


# Operators that divide: what their operands are computed from keeps its
# integer constants as tensors (see the module docstring).
_DIVIDING = {f"relax.{name}" for name in ("divide", "floor_divide", "mod", "floor_mod")}


@mutator
class _Rewriter(PyExprMutator):
    def __init__(self, mod):
        super().__init__(mod)
        self._divided: set = set()  # variables a division reads, directly or not
        self._binding = None

    def visit_function_(self, func):
        self._divided = _read_by_divisions(func)
        return super().visit_function_(func)

    def visit_var_binding_(self, binding):
        self._binding = binding.var
        super().visit_var_binding_(binding)

    def visit_call_(self, call):
        binding = self._binding
        call = super().visit_call_(call)
        if not isinstance(call.op, tvm.ir.Op) or call.op.name not in _BROADCASTING:
            return call
        call = self.builder_.normalize(call)
        shape = call.ty.shape if isinstance(call.ty, relax.TensorType) else None
        if shape is None:
            return call
        full = [_has_shape(arg, shape) for arg in call.args]
        args = list(call.args)
        choosing = call.op.name in _CHOOSING
        integers = choosing and binding is not None and binding not in self._divided
        for k, arg in enumerate(call.args):
            scalar = self._broadcast_scalar(arg, choosing, integers)
            # Another operand keeps the result's shape.
            if scalar is not None and any(f for j, f in enumerate(full) if j != k):
                args[k] = scalar
        if all(a.same_as(b) for a, b in zip(args, call.args)):
            return call
        return relax.Call(call.op, args, call.attrs, call.ty_args, call.span)

    def _broadcast_scalar(self, arg, zero_allowed: bool, integers: bool = False):
        """The rank-0 value `arg` broadcasts when it is computed (not
        bfloat16: as a scalar operand it changed the rounding of the bf16
        arithmetic the build legalizes, a third of a bf16 formula's
        elements off jax.jit's), or the one-element float constant it
        broadcasts (or
        integer, when `integers`) as a rank-0 constant (a float zero only
        when `zero_allowed`)."""
        value = bound_to(self, arg)
        if not is_op(value, "relax.broadcast_to"):
            return None
        source = value.args[0]
        if is_op(bound_to(self, source), "relax.reshape"):
            source = bound_to(self, source).args[0]
        if isinstance(source, relax.Var) and _rank(source) == 0 and source.ty.dtype != "bfloat16":
            return source
        source = bound_to(self, source)
        if not isinstance(source, tvm.ir.expr.GenericConst):
            return None
        data = source.value.numpy()
        if data.size != 1:
            return None
        if data.dtype.kind == "f":
            if data.item() == 0 and not zero_allowed:
                return None
        elif not (integers and data.dtype.kind in "iu"):
            return None
        return relax.const(np.asarray(data).reshape(()), str(data.dtype))


def _read_by_divisions(func) -> set:
    """The variables of `func` that a division or remainder reads, directly
    or through the values computed from them."""
    bindings = [b for block in func.body.blocks for b in block.bindings if isinstance(b, relax.VarBinding)]
    divided: set = set()
    for binding in reversed(bindings):
        value = binding.value
        if not isinstance(value, relax.Call):
            continue
        if binding.var in divided or (isinstance(value.op, tvm.ir.Op) and value.op.name in _DIVIDING):
            divided.update(arg for arg in value.args if isinstance(arg, relax.Var))
    return divided


def _rank(expr) -> int | None:
    ty = expr.ty
    return len(ty.shape) if isinstance(ty, relax.TensorType) and ty.shape is not None else None


def _has_shape(expr, shape) -> bool:
    ty = expr.ty
    return isinstance(ty, relax.TensorType) and ty.shape is not None and tvm_ffi.structural_equal(ty.shape, shape)


@tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.ScalarOperands")
def ScalarOperands(mod: tvm.IRModule, _ctx) -> tvm.IRModule:
    return rewrite_functions(_Rewriter(mod), mod)
