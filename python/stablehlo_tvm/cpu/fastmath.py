"""Vectorizable float32 exp, tanh and erf for LLVM CPU targets.

TVM lowers these intrinsics to libm calls (erf, and exp once vectorized:
LLVM splits a vector exp into scalar expf calls) or to a fast tanh that is
tens of ULP off. These rules expand them into arithmetic LLVM vectorizes,
accurate to a few ULP (test/python/test_fastmath.py measures it):

- exp: n = round(x / ln 2), r = x - n ln 2 in two parts (Cody and Waite),
  a degree-7 Taylor polynomial for e^r (|r| <= ln 2 / 2, truncation below
  1e-8), times 2^n built from exponent bits in two factors so that results
  down to the subnormals are reached.
- tanh: x + x^3 R(x^2) for |x| < 0.625, else 1 - 2 / (e^{2|x|} + 1).
- erf: x (2/sqrt(pi) + x^2 R(x^2)) for |x| < 1, else 1 - e^{-x^2} erfcx(|x|)
  with erfcx a rational function of |x|; 1 beyond 4. (R, rational, carries
  only the correction, so its rounding is scaled down.)

The rational coefficients come from scripts/fit_fastmath.py (least relative
error, below 4e-9 on each interval). Other dtypes keep TVM's lowering.
"""

from __future__ import annotations

import math
import threading

import tvm
from tvm import tirx

_TANH_SMALL = ((-0.3333333331578607, -0.0017373445163034519, 6.021374889894541e-05), (1.0, 0.4052119884446645))
_ERF_SMALL = (
    (-0.37612638878807725, 0.0013521107346169403, -0.003162414488992437, 0.00018230791650612627),
    (1.0, 0.2964051196784867, 0.02590142873217216),
)
_ERFC_SCALED = (
    (1.0006465795901143, 0.6806386196357237, 0.20876758924143254, -0.00032747150936809346, 1.4355182144094155e-05),
    (1.0, 1.8131217951673442, 1.2423640459369634, 0.36409379241119527),
)
# ln 2 split so that n * _LN2_HIGH is exact for |n| < 2^15.
_LN2_HIGH = 0.693359375
_LN2_LOW = math.log(2) - 0.693359375
_EXP_MAX = 88.72283172607421875  # the largest float32 x with finite e^x
_EXP_MIN = -103.972084045410156  # below it e^x rounds to 0


class _Float32:
    """Constants and helpers for float32 expressions of `lanes` lanes."""

    def __init__(self, dtype: str, lets=None):
        # How a formula names the values it reads twice: Let expressions by
        # default, or the caller's (statements, in kernels; see `expand`).
        self.lets = lets or _Lets
        self.lanes = tvm.DataType(dtype).lanes
        self.float = dtype
        self.int = "int32" if self.lanes == 1 else f"int32x{self.lanes}"

    def c(self, value: float):
        return tirx.const(value, self.float)

    def i(self, value: int):
        return tirx.const(value, self.int)

    def polynomial(self, coefficients, v):
        result = self.c(coefficients[-1])
        for k in reversed(coefficients[:-1]):
            result = result * v + self.c(k)
        return result

    def rational(self, pq, v):
        return self.polynomial(pq[0], v) / self.polynomial(pq[1], v)

    def pow2(self, n):
        """2^n for integer n in [-126, 127], from the exponent bits."""
        return tirx.reinterpret(self.float, tirx.shift_left(n + self.i(127), self.i(23)))

    def exp(self, x):
        let = self.lets()
        x = let(x)
        finite = tirx.Select(x != x, self.c(0.0), x)  # keeps NaN out of the integer part
        clamped = tirx.Select(finite > self.c(_EXP_MAX), self.c(_EXP_MAX), finite)
        clamped = let(tirx.Select(clamped < self.c(_EXP_MIN - 1.0), self.c(_EXP_MIN - 1.0), clamped))
        nf = let(tirx.floor(clamped * self.c(1 / math.log(2)) + self.c(0.5)))
        r = let(clamped - nf * self.c(_LN2_HIGH) - nf * self.c(_LN2_LOW))
        p = self.polynomial([1.0 / math.factorial(k) for k in range(8)], r)
        n = let(tirx.Cast(self.int, nf))
        half = let(tirx.shift_right(n, self.i(1)))  # floor(n / 2): both factors stay in range
        result = p * self.pow2(half) * self.pow2(n - half)
        result = tirx.Select(x > self.c(_EXP_MAX), self.c(math.inf), result)
        result = tirx.Select(x < self.c(_EXP_MIN), self.c(0.0), result)
        return let.around(tirx.Select(x != x, x, result))

    def tanh(self, x):
        let = self.lets()
        x = let(x)
        a = let(tirx.Select(x < self.c(0.0), -x, x))
        s = let(a * a)
        small = a + a * s * self.rational(_TANH_SMALL, s)
        large = self.c(1.0) - self.c(2.0) / (self.exp(a + a) + self.c(1.0))
        magnitude = let(tirx.Select(a < self.c(0.625), small, large))
        result = tirx.Select(x < self.c(0.0), -magnitude, magnitude)
        return let.around(tirx.Select(x == self.c(0.0), x, result))  # keeps -0

    def erf(self, x):
        let = self.lets()
        x = let(x)
        a = let(tirx.Select(x < self.c(0.0), -x, x))
        s = let(a * a)
        small = a * (self.c(2 / math.sqrt(math.pi)) + s * self.rational(_ERF_SMALL, s))
        clamped = let(tirx.Select(a > self.c(4.0), self.c(4.0), a))
        large = self.c(1.0) - self.exp(-(clamped * clamped)) * self.rational(_ERFC_SCALED, clamped)
        large = tirx.Select(a > self.c(4.0), self.c(1.0), large)
        magnitude = let(tirx.Select(a < self.c(1.0), small, large))
        result = tirx.Select(x < self.c(0.0), -magnitude, magnitude)
        return let.around(tirx.Select(x == self.c(0.0), x, result))


class _Lets:
    """Names the values a formula reads more than once. Without a name, an
    argument that is itself an expression (softmax's x - max) is computed at
    every read; and each name is bound exactly once, as TVM's simplifier
    requires of Let."""

    def __init__(self):
        self.bindings = []

    def __call__(self, value):
        var = tirx.Var(f"v{len(self.bindings)}", str(value.ty))
        self.bindings.append((var, value))
        return var

    def around(self, body):
        for var, value in reversed(self.bindings):
            body = tirx.Let(var, value, body)
        return body


class _Binds:
    """Names values with Bind statements, appended to `stmts` in the order
    the formula computes them. TVM's LLVM codegen rejects a Bind whose value
    holds a Let (it binds the Let's variable twice), which is what the
    intrinsic rule below would make of `v = exp(x)` in a kernel."""

    def __init__(self, stmts: list):
        self.stmts = stmts

    def __call__(self, value):
        var = tirx.Var(f"f{len(self.stmts)}", str(value.ty))
        self.stmts.append(tirx.Bind(var, value))
        return var

    def around(self, body):
        return body


EXPANDED = ("exp", "tanh", "erf")


def expand(name: str, x, stmts: list):
    """The formula for float32 `name` (one of EXPANDED) of scalar `x`, its
    named values bound by statements appended to `stmts`."""
    return getattr(_Float32("float32", lets=lambda: _Binds(stmts)), name)(x)


def _rule(name: str):
    op = tvm.ir.Op.get(f"tirx.{name}")
    previous = op.get_attr("llvm.FLowerIntrinsic") or op.get_attr("default.FLowerIntrinsic")

    def lower(call):
        dtype = str(call.ty)
        if dtype.split("x")[0] == "float32":
            return getattr(_Float32(dtype), name)(call.args[0])
        if previous is None:
            return call
        if tvm.DataType(dtype).lanes == 1:
            return previous(call)
        return _lane_by_lane(call, previous)

    return lower


def _lane_by_lane(call, lower_scalar):
    """A vector call of a function the target has only for scalars, one
    scalar call per lane (f64 erf: a libm call each)."""
    lanes = tvm.DataType(str(call.ty)).lanes
    scalar = str(call.ty).split("x")[0]
    parts = [
        lower_scalar(tirx.call_intrin(scalar, call.op, *[tirx.Shuffle([a], [i]) for a in call.args]))
        for i in range(lanes)
    ]
    return tirx.Shuffle(parts, list(range(lanes)))


_REGISTERED = False
# Calls TVM's loop vectorizer does not know as element-wise; a loop holding
# one is left scalar whole. Their lowerings (below and TVM's `x != x` for
# isnan) take vectors.
_MADE_VECTORIZABLE = ("erf", "isnan")


def register() -> None:
    """Installs the rules (once per process, whichever thread asks first) for
    the llvm target, above TVM's."""
    global _REGISTERED
    with _REGISTERING:
        if _REGISTERED:
            return
        for name in ("exp", "tanh", "erf"):
            tirx.op.register_intrin_lowering(f"tirx.{name}", "llvm", f=_rule(name), level=100)
        for name in _MADE_VECTORIZABLE:
            tvm.ir.register_op_attr(f"tirx.{name}", "TVectorizable", True)
        _REGISTERED = True


_REGISTERING = threading.Lock()
