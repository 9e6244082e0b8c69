"""Vectorizable float32 exp, log, tanh and erf, and float64 exp and log,
for LLVM CPU targets.

TVM lowers these intrinsics to libm calls (erf, and exp and log once
vectorized: LLVM splits a vector exp into scalar expf calls) or to a fast
tanh that is tens of ULP off. Here they are formulas LLVM vectorizes,
accurate to a few ULP (test/python/test_fastmath.py measures it):

- exp: n = round(x / ln 2), r = x - n ln 2 in two parts (Cody and Waite),
  a Taylor polynomial for e^r (|r| <= ln 2 / 2; degree 7 in float32,
  truncation below 1e-8, 13 in float64, below 5e-18), times 2^n built from
  exponent bits in two factors so that results down to the subnormals are
  reached.
- log: x = 2^e m with m in [sqrt(1/2), sqrt(2)) (subnormals scaled by 2^23
  or 2^52 first), f = m - 1, s = f / (2 + f) and log m = 2 atanh(s) =
  f - (f^2/2 - s (f^2/2 + R(s^2))) with R the atanh series to s^8 in
  float32 (truncation below 1e-9), to s^22 in float64 (below 1e-19), plus
  e ln 2 in two parts (the low one added before f). float64: 0.75 ULP at
  most, and log1p over it 2; vectorized, where libm's log was a call per
  lane (f32 lgamma, computed in float64, calls it four times).
- tanh: x + x^3 R(x^2) for |x| < 0.625, else 1 - 2 / (e^{2|x|} + 1).
- erf: x (2/sqrt(pi) + x^2 R(x^2)) for |x| < 1, else 1 - e^{-x^2} erfcx(|x|)
  with erfcx a rational function of |x|; 1 beyond 4. (R, rational, carries
  only the correction, so its rounding is scaled down.)

The rational coefficients come from scripts/fit_fastmath.py (least relative
error, below 4e-9 on each interval). Other dtypes keep TVM's lowering.

Each formula is written once (`_Formulas`) over two ways to spell its
arithmetic. In the project's builds (`TIR_PIPELINE`) a call becomes a call
of an LLVM function, defined in LLVM IR text the module links and LLVM
inlines: TVM's analyzer-based passes never see the formula. Spelled as TIR
expressions instead, every select and let-bound value of it is
re-simplified under the conditions above it by the intrinsic lowering: one
vector tanh took 0.1 s to lower, erf 0.25 s, and tanh of tanh minutes. The
TIR spelling remains for builds outside that pipeline (tuning's).
"""

from __future__ import annotations

import functools
import math
import struct
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
# ln 2 - _LN2_HIGH from ln 2's digits (math.log(2) - _LN2_HIGH would carry
# log(2)'s own rounding, 2e-17, which float64's exp multiplies by n <= 1075).
_LN2_LOW = -2.12194440054690582767878541824e-4
_EXP_MAX = 88.72283172607421875  # the largest float32 x with finite e^x
_EXP_MIN = -103.972084045410156  # below it e^x rounds to 0

class _Precision:
    """What exp and log need to know of a float format: `degree` of exp's
    Taylor polynomial, `log_terms` of log's atanh series after s."""

    def __init__(self, bits, mantissa, bias, exp_max, exp_min, degree, log_terms, float_ir, int_ir):
        self.bits, self.mantissa, self.bias = bits, mantissa, bias
        self.exp_max, self.exp_min, self.degree, self.log_terms = exp_max, exp_min, degree, log_terms
        self.float_ir, self.int_ir = float_ir, int_ir
        # The bits of sqrt(2) in this format, where log's mantissa range ends.
        packed = struct.pack("<f" if bits == 32 else "<d", math.sqrt(2))
        self.sqrt2_bits = struct.unpack("<I" if bits == 32 else "<Q", packed)[0]


_PRECISIONS = {
    # log: s^2 <= 0.0295 on [sqrt(1/2), sqrt(2)); the series' remainder after
    # 4 terms is below 1e-9, after 11 below 1e-19.
    32: _Precision(32, 23, 127, _EXP_MAX, _EXP_MIN, 7, 4, "float", "i32"),
    # Largest finite e^x, smallest x whose e^x is not 0 (the subnormals);
    # degree 13 leaves the Taylor remainder below 5e-18 on |r| <= ln 2 / 2.
    64: _Precision(64, 52, 1023, 709.782712893383973096, -745.1332191019412, 13, 11, "double", "i64"),
}

EXPANDED = ("exp", "log", "tanh", "erf")
# The float64 formulas (the others keep TVM's lowering: libm's erf, tanh,
# ... are already faster than XLA's on float64).
EXPANDED_F64 = ("exp", "log")


class _Formulas:
    """The formulas, over float values of `lanes` lanes (float32, and
    float64 for exp). A subclass says how to spell constants, conversions,
    selects and named values; the values themselves take Python's
    arithmetic and comparison operators."""

    lanes: int
    precision: _Precision

    def name(self, value):
        """`value`, computed once however often the formula reads it."""
        return value

    def polynomial(self, coefficients, v):
        result = self.c(coefficients[-1])
        for k in reversed(coefficients[:-1]):
            result = result * v + self.c(k)
        return result

    def rational(self, pq, v):
        return self.polynomial(pq[0], v) / self.polynomial(pq[1], v)

    def pow2(self, n):
        """2^n for an integer n within the normal exponents, from the
        exponent bits."""
        p = self.precision
        return self.as_float(self.shift_left(n + self.i(p.bias), self.i(p.mantissa)))

    def exp(self, x):
        p = self.precision
        x = self.name(x)
        finite = self.select(x != x, self.c(0.0), x)  # keeps NaN out of the integer part
        clamped = self.select(finite > self.c(p.exp_max), self.c(p.exp_max), finite)
        clamped = self.name(self.select(clamped < self.c(p.exp_min - 1.0), self.c(p.exp_min - 1.0), clamped))
        nf = self.name(self.floor(clamped * self.c(1 / math.log(2)) + self.c(0.5)))
        r = self.name(clamped - nf * self.c(_LN2_HIGH) - nf * self.c(_LN2_LOW))
        poly = self.polynomial([1.0 / math.factorial(k) for k in range(p.degree + 1)], r)
        n = self.name(self.to_int(nf))
        half = self.name(self.shift_right(n, self.i(1)))  # floor(n / 2): both factors stay in range
        result = poly * self.pow2(half) * self.pow2(n - half)
        result = self.select(x > self.c(p.exp_max), self.c(math.inf), result)
        result = self.select(x < self.c(p.exp_min), self.c(0.0), result)
        return self.select(x != x, x, result)

    def log(self, x):
        p = self.precision
        x = self.name(x)
        subnormal = self.name(x < self.c(2.0 ** (1 - p.bias)))
        bits = self.name(self.as_int(self.select(subnormal, x * self.c(2.0**p.mantissa), x)))
        e = self.shift_right(bits, self.i(p.mantissa)) - self.select(subnormal, self.i(p.bias + p.mantissa), self.i(p.bias))
        m = self.name(self.bit_or(self.bit_and(bits, self.i((1 << p.mantissa) - 1)), self.i(p.bias << p.mantissa)))
        above = self.name(m > self.i(p.sqrt2_bits))
        f = self.name(self.as_float(self.select(above, m - self.i(1 << p.mantissa), m)) - self.c(1.0))
        ef = self.name(self.to_float(self.select(above, e + self.i(1), e)))
        s = self.name(f / (self.c(2.0) + f))
        z = self.name(s * s)
        series = z * self.polynomial([2 / (2 * k + 1) for k in range(1, p.log_terms + 1)], z)
        half_square = self.name(self.c(0.5) * f * f)
        # log m = f - (f^2/2 - s (f^2/2 + R)), with e ln 2's low part added
        # before f: one rounding less where e ln 2 and log m cancel.
        low = s * (half_square + series) + ef * self.c(_LN2_LOW)
        result = ef * self.c(_LN2_HIGH) - ((half_square - low) - f)
        result = self.select(x == self.c(0.0), self.c(-math.inf), result)
        result = self.select(x < self.c(0.0), self.c(math.nan), result)
        result = self.select(x == self.c(math.inf), x, result)
        return self.select(x != x, x, result)

    def tanh(self, x):
        x = self.name(x)
        a = self.name(self.select(x < self.c(0.0), -x, x))
        s = self.name(a * a)
        small = a + a * s * self.rational(_TANH_SMALL, s)
        large = self.c(1.0) - self.c(2.0) / (self.exp(a + a) + self.c(1.0))
        magnitude = self.name(self.select(a < self.c(0.625), small, large))
        result = self.select(x < self.c(0.0), -magnitude, magnitude)
        return self.select(x == self.c(0.0), x, result)  # keeps -0

    def erf(self, x):
        x = self.name(x)
        a = self.name(self.select(x < self.c(0.0), -x, x))
        s = self.name(a * a)
        small = a * (self.c(2 / math.sqrt(math.pi)) + s * self.rational(_ERF_SMALL, s))
        clamped = self.name(self.select(a > self.c(4.0), self.c(4.0), a))
        large = self.c(1.0) - self.exp(-(clamped * clamped)) * self.rational(_ERFC_SCALED, clamped)
        large = self.select(a > self.c(4.0), self.c(1.0), large)
        magnitude = self.name(self.select(a < self.c(1.0), small, large))
        result = self.select(x < self.c(0.0), -magnitude, magnitude)
        return self.select(x == self.c(0.0), x, result)


class _TIRFormulas(_Formulas):
    """The formulas as TIR expressions of dtype `dtype`; named values are
    Let expressions (an argument that is itself an expression, softmax's
    x - max, is then computed once; each name is bound exactly once, as
    TVM's simplifier requires of Let)."""

    def __init__(self, dtype: str):
        self.lanes = tvm.DataType(dtype).lanes
        self.precision = _PRECISIONS[tvm.DataType(dtype).bits]
        self.float = dtype
        scalar = f"int{self.precision.bits}"
        self.int = scalar if self.lanes == 1 else f"{scalar}x{self.lanes}"
        self.bindings: list = []

    def formula(self, name: str, x):
        body = getattr(self, name)(x)
        for var, value in reversed(self.bindings):
            body = tirx.Let(var, value, body)
        return body

    def name(self, value):
        var = tirx.Var(f"v{len(self.bindings)}", str(value.ty))
        self.bindings.append((var, value))
        return var

    def c(self, value: float):
        return tirx.const(value, self.float)

    def i(self, value: int):
        return tirx.const(value, self.int)

    def floor(self, x):
        return tirx.floor(x)

    def to_int(self, x):
        return tirx.Cast(self.int, x)

    def shift_left(self, x, k):
        return tirx.shift_left(x, k)

    def shift_right(self, x, k):
        return tirx.shift_right(x, k)

    def as_float(self, bits):
        return tirx.reinterpret(self.float, bits)

    def as_int(self, x):
        return tirx.reinterpret(self.int, x)

    def to_float(self, n):
        return tirx.Cast(self.float, n)

    def bit_and(self, x, y):
        return tirx.bitwise_and(x, y)

    def bit_or(self, x, y):
        return tirx.bitwise_or(x, y)

    def select(self, condition, if_true, if_false):
        return tirx.Select(condition, if_true, if_false)


class _IRValue:
    """A value of an LLVM IR function being written: an SSA name or a
    constant, with its type."""

    __slots__ = ("function", "text", "type", "kind", "factors")
    __hash__ = None

    def __init__(self, function, text: str, type_: str, kind: str):
        self.function, self.text, self.type, self.kind = function, text, type_, kind
        self.factors = None  # (a, b) of a float product a * b

    def _binary(self, float_op: str, int_op: str, other: "_IRValue") -> "_IRValue":
        op = float_op if self.kind == "float" else int_op
        return self.function.emit(f"{op} {self.type} {self.text}, {other.text}", self.type, self.kind)

    def _compare(self, predicate: str, other: "_IRValue") -> "_IRValue":
        if self.kind == "int":
            compare = f"icmp {_SIGNED[predicate]}"
        else:
            compare = f"fcmp {predicate}"
        return self.function.emit(f"{compare} {self.type} {self.text}, {other.text}", self.function.type("i1"), "bool")

    def __add__(self, other):
        # A product plus a value is one fused multiply-add, as TVM's code
        # generator makes of the same formula in TIR (Horner steps).
        product = self.factors or other.factors
        if self.kind == "float" and product is not None:
            addend = other if self.factors else self
            return self.function.fused_multiply_add(*product, addend)
        return self._binary("fadd", "add", other)

    def __sub__(self, other):
        return self._binary("fsub", "sub", other)

    def __mul__(self, other):
        product = self._binary("fmul", "mul", other)
        if self.kind == "float":
            product.factors = (self, other)
        return product

    def __truediv__(self, other):
        return self._binary("fdiv", "sdiv", other)

    def __neg__(self):
        return self.function.emit(f"fneg {self.type} {self.text}", self.type, self.kind)

    def __lt__(self, other):
        return self._compare("olt", other)

    def __gt__(self, other):
        return self._compare("ogt", other)

    def __eq__(self, other):
        return self._compare("oeq", other)

    def __ne__(self, other):
        return self._compare("une", other)


# Integer comparisons for the ordered float predicates.
_SIGNED = {"olt": "slt", "ogt": "sgt", "oeq": "eq", "une": "ne"}


class _IRFormulas(_Formulas):
    """The formula `name` as an LLVM IR function of float32 vectors of
    `lanes` lanes (a scalar for 1), always inlined where it is called."""

    def __init__(self, name: str, lanes: int, bits: int = 32):
        self.lanes = lanes
        self.precision = _PRECISIONS[bits]
        self.lines: list[str] = []
        self.declarations: set[str] = set()
        self.symbol = symbol(name, lanes, bits)
        result = getattr(self, name)(_IRValue(self, "%x", self.type("float"), "float"))
        self.lines.append(f"ret {result.type} {result.text}")

    def text(self) -> str:
        float_type = self.type("float")
        body = "\n  ".join(self.lines)
        return f"define internal {float_type} @{self.symbol}({float_type} %x) alwaysinline {{\n  {body}\n}}\n"

    def type(self, scalar: str) -> str:
        """The IR type of `scalar` ("float", "i32", "i1") in this precision
        (float32 or float64 and their same-width integers), over the lanes."""
        scalar = {"float": self.precision.float_ir, "i32": self.precision.int_ir}.get(scalar, scalar)
        return scalar if self.lanes == 1 else f"<{self.lanes} x {scalar}>"

    def suffix(self) -> str:
        bits = self.precision.bits
        return f"f{bits}" if self.lanes == 1 else f"v{self.lanes}f{bits}"

    def emit(self, instruction: str, type_: str, kind: str) -> _IRValue:
        name = f"%t{len(self.lines)}"
        self.lines.append(f"{name} = {instruction}")
        return _IRValue(self, name, type_, kind)

    def _splat(self, scalar_type: str, literal: str) -> str:
        if self.lanes == 1:
            return literal
        return "<" + ", ".join([f"{scalar_type} {literal}"] * self.lanes) + ">"

    def c(self, value: float):
        # LLVM spells a float constant as the hex of the double it equals.
        exact = struct.unpack("<f", struct.pack("<f", value))[0] if self.precision.bits == 32 else float(value)
        literal = "0x%016X" % struct.unpack("<Q", struct.pack("<d", exact))[0]
        return _IRValue(self, self._splat(self.precision.float_ir, literal), self.type("float"), "float")

    def i(self, value: int):
        return _IRValue(self, self._splat(self.precision.int_ir, str(value)), self.type("i32"), "int")

    def floor(self, x):
        intrinsic = f"llvm.floor.{self.suffix()}"
        self.declarations.add(f"declare {x.type} @{intrinsic}({x.type})")
        return self.emit(f"call {x.type} @{intrinsic}({x.type} {x.text})", x.type, "float")

    def fused_multiply_add(self, a, b, c):
        intrinsic = f"llvm.fmuladd.{self.suffix()}"
        self.declarations.add(f"declare {a.type} @{intrinsic}({a.type}, {a.type}, {a.type})")
        return self.emit(f"call {a.type} @{intrinsic}({a.type} {a.text}, {b.type} {b.text}, {c.type} {c.text})", a.type, "float")

    def to_int(self, x):
        return self.emit(f"fptosi {x.type} {x.text} to {self.type('i32')}", self.type("i32"), "int")

    def shift_left(self, x, k):
        return self.emit(f"shl {x.type} {x.text}, {k.text}", x.type, "int")

    def shift_right(self, x, k):
        return self.emit(f"ashr {x.type} {x.text}, {k.text}", x.type, "int")

    def as_float(self, bits):
        return self.emit(f"bitcast {bits.type} {bits.text} to {self.type('float')}", self.type("float"), "float")

    def as_int(self, x):
        return self.emit(f"bitcast {x.type} {x.text} to {self.type('i32')}", self.type("i32"), "int")

    def to_float(self, n):
        return self.emit(f"sitofp {n.type} {n.text} to {self.type('float')}", self.type("float"), "float")

    def bit_and(self, x, y):
        return self.emit(f"and {x.type} {x.text}, {y.text}", x.type, "int")

    def bit_or(self, x, y):
        return self.emit(f"or {x.type} {x.text}, {y.text}", x.type, "int")

    def select(self, condition, if_true, if_false):
        return self.emit(
            f"select {condition.type} {condition.text}, {if_true.type} {if_true.text}, {if_false.type} {if_false.text}",
            if_true.type,
            if_true.kind,
        )


def symbol(name: str, lanes: int, bits: int = 32) -> str:
    """The LLVM function that computes `name` on `lanes` lanes of floats of
    `bits` bits."""
    return f"stablehlo_tvm_{name}_f{bits}" if lanes == 1 else f"stablehlo_tvm_{name}_f{bits}x{lanes}"


def llvm_module(needed) -> str:
    """LLVM IR text defining the functions for each (name, lanes, bits) in
    `needed`."""
    functions = [_llvm_function(*key) for key in sorted(needed)]
    declarations = sorted(set().union(*(declared for declared, _ in functions)))
    return "\n".join(declarations + [text for _, text in functions])


@functools.cache
def _llvm_function(name: str, lanes: int, bits: int = 32) -> tuple[frozenset, str]:
    """(the intrinsics it declares, its text): written once per process."""
    function = _IRFormulas(name, lanes, bits)
    return frozenset(function.declarations), function.text()


# The formulas a build on this thread calls, while `TIR_PIPELINE`'s
# intrinsic lowering runs (None elsewhere: the TIR spelling is used).
_LINKING = threading.local()


def _rule(name: str):
    op = tvm.ir.Op.get(f"tirx.{name}")
    previous = op.get_attr("llvm.FLowerIntrinsic") or op.get_attr("default.FLowerIntrinsic")

    def lower(call):
        dtype = str(call.ty)
        scalar = dtype.split("x")[0]
        if scalar == "float32" or (scalar == "float64" and name in EXPANDED_F64):
            lanes, bits = tvm.DataType(dtype).lanes, tvm.DataType(dtype).bits
            needed = getattr(_LINKING, "needed", None)
            if needed is not None:
                needed.add((name, lanes, bits))
                return tirx.call_pure_extern(dtype, symbol(name, lanes, bits), call.args[0])
            return _TIRFormulas(dtype).formula(name, call.args[0])
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


def _linking_formulas(finalize_host):
    """TVM's host finalization (`finalize_host`, which lowers intrinsics),
    with the formulas the lowering called linked into the module: the
    LLVM IR rides on a pragma_import_llvm attribute of one function, which
    TVM's LLVM code generator parses and links before optimizing.

    The argument checks of the packed-function entries are dropped
    (SkipAssert): only the VM calls these functions, with tensors the
    Relax program's own checks (or its allocations) have given the right
    shapes, and the checks were most of the machine code of kernels with
    many arguments (a fused optimizer update with 150 buffers: 17,000 of
    26,000 lines of LLVM IR, 3.7 s of its 4.4 s of code generation). They
    are dropped before the host finalization: LowerIntrin's analyzer holds
    each assertion as a constraint over the rest of the body, and its
    queries scanned them all (a 63-argument diffrax kernel's 535 checks:
    LowerIntrin 1.4 s, 0.16 s without them)."""

    def run(mod: tvm.IRModule, _ctx) -> tvm.IRModule:
        _LINKING.needed = set()
        try:
            mod = finalize_host()(tvm.tirx.transform.SkipAssert()(mod))
            needed = _LINKING.needed
        finally:
            _LINKING.needed = None
        if not needed:
            return mod
        gvar, func = next((g, f) for g, f in mod.functions_items() if isinstance(f, tirx.PrimFunc))
        pragma = tirx.AttrStmt(tirx.const(0, "int32"), "pragma_import_llvm", tvm.ir.StringImm(llvm_module(needed)), func.body)
        mod = tvm.IRModule(dict(mod.functions_items()), attrs=mod.attrs)
        mod[gvar] = func.with_body(pragma)
        return mod

    return tvm.transform.module_pass(run, opt_level=0, name="stablehlo_tvm.LinkFastMath")


TIR_PIPELINE = "stablehlo_tvm"


def _tir_pipeline():
    from .literal_reinterprets import LiteralReinterprets

    _, finalize_host, finalize_device = tvm.tirx.get_tir_pipeline("default")

    def finalize():
        return tvm.transform.Sequential([_linking_formulas(finalize_host), LiteralReinterprets])

    return _cpu_lowering(), finalize, finalize_device


def _cpu_lowering():
    """TVM's default TIR lowering for a CPU: without the passes for GPU
    threads, shared memory and tensor cores, which find nothing here, and
    without HoistIfThenElse and the RemoveNoOp after it (LLVM unswitches
    loops and drops dead code itself). A diffrax loop kernel of 992
    statements lowered in 3.2 s, 1.5 s of them in those: two RemoveNoOp
    runs of 0.5 s each and a StmtSimplify inside the hoisting. Builds
    measured A/B: a diffrax gradient 8.7 -> 7.7 s, array statistics 3.2 ->
    1.8 s, the rest unchanged; run times unchanged."""
    from tvm import s_tir

    from .bool_storage import BoolsAsInt8
    from .parameter_alignment import ParametersAlignedToElements
    from .relax_to_tir import block_planning

    @tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.CPULowering")
    def lowering(mod: tvm.IRModule, ctx) -> tvm.IRModule:
        config = ctx.config
        passes = [
            ParametersAlignedToElements,  # numpy's arrays passed in place
            BoolsAsInt8,  # before StorageRewrite shares bool and int8 memory
            s_tir.transform.CanonicalizeLoop(),
            *block_planning(),
            _CompactedUnlessStatements(),
            s_tir.transform.LowerMatchBuffer(),
            s_tir.transform.StmtSimplify(),
            s_tir.transform.LowerOpaqueBlock(),
            tirx.transform.FlattenBuffer(),
            tirx.transform.BF16ComputeLegalize(),
            tirx.transform.NarrowDataType(32),
            s_tir.transform.LoopPartition(),
            tirx.transform.VectorizeLoop(not bool(config.get("tirx.disable_vectorize", False))),
            tirx.transform.StorageRewrite(),
            tirx.transform.UnrollLoop(),
            tirx.transform.StmtSimplify(),
            s_tir.transform.RewriteUnsafeSelect(),
            tirx.transform.CommonSubexprElim(),
            tirx.transform.FP8ComputeLegalize(),
            tirx.transform.VerifyMemory(),
            tirx.transform.AnnotateEntryFunc(),
            tirx.transform.SplitHostDevice(),
            tirx.transform.MakePackedAPI(),
            tirx.transform.FP8StorageLegalize(),
            tirx.transform.BF16StorageLegalize(),
        ]
        return tvm.transform.Sequential(passes)(mod)

    return lowering


def _CompactedUnlessStatements():  # noqa: N802 (a pass, named as TVM's are)
    """CompactBufferAllocation on the module's PrimFuncs but those
    relax_to_tir built (see STATEMENTS_ATTRIBUTE there)."""
    from tvm import s_tir

    from .relax_to_tir import STATEMENTS_ATTRIBUTE

    compact = s_tir.transform.CompactBufferAllocation()

    def run(mod: tvm.IRModule, _ctx) -> tvm.IRModule:
        functions = list(mod.functions_items())
        others = {g: f for g, f in functions if not (isinstance(f, tirx.PrimFunc) and f.attrs is not None and STATEMENTS_ATTRIBUTE in f.attrs)}
        if len(others) == len(functions):
            return compact(mod)
        if others:
            done = dict(compact(tvm.IRModule(others, attrs=mod.attrs)).functions_items())
            functions = [(g, done.get(g, f)) for g, f in functions]
        return tvm.IRModule(dict(functions), attrs=mod.attrs)

    return tvm.transform.module_pass(run, opt_level=0, name="stablehlo_tvm.CompactedUnlessStatements")


_REGISTERED = False
# Calls TVM's loop vectorizer does not know as element-wise; a loop holding
# one is left scalar whole. Their lowerings (below and TVM's `x != x` for
# isnan) take vectors.
_MADE_VECTORIZABLE = ("erf", "isnan")


def register() -> None:
    """Installs the rules (once per process, whichever thread asks first) for
    the llvm target, above TVM's, and the TIR pipeline `TIR_PIPELINE` that
    links their formulas."""
    global _REGISTERED
    with _REGISTERING:
        if _REGISTERED:
            return
        for name in EXPANDED:
            tirx.op.register_intrin_lowering(f"tirx.{name}", "llvm", f=_rule(name), level=100)
        tvm.tirx.register_tir_pipeline(TIR_PIPELINE, _tir_pipeline)
        for name in _MADE_VECTORIZABLE:
            tvm.ir.register_op_attr(f"tirx.{name}", "TVectorizable", True)
        _REGISTERED = True


_REGISTERING = threading.Lock()
