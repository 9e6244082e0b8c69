"""Program generators, one per op family, from the StableHLO spec's
constraints: each draws element types the spec allows for the op, shapes of
rank 0 to 4 (0-sized dimensions included), attributes and region bodies,
and arguments that reach the edge cases.

A generator returns a `Case`: one function's body over arguments %a0...
Results of floating-point ops that are exact by the spec (data movement,
comparisons, maximum, ...) must match bit for bit (NaN matches NaN); others
within 3 ULP, the corpus's expect_close. Where a result depends on the order
of evaluation (reductions, dot products, convolutions) the arguments are
small integers, so every order gives the same exact result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from . import models, precise
from .types import BOOL, COMPLEX, FLOAT, INT, SINT, SMALL_FLOATS, TYPES, ElementType, tensor_type, values

Rng = np.random.Generator


@dataclass
class Case:
    family: str
    detail: str
    args: list[np.ndarray]
    arg_types: list[str]
    body: list[str]
    results: list[str]
    result_types: list[str]
    exact: bool = False
    # float64 (complex128) numpy reference of an elementwise op, to tell a
    # result of XLA's that is off from one of the import's.
    reference: Callable | None = None
    # An exact model of the results in numpy (args -> results) where XLA is
    # known to stray from the spec, and what it checks.
    model: Callable | None = None
    model_name: str = ""
    # A long-double evaluation of an elementwise float program (args ->
    # result), to judge composite expressions, whose cancellations amplify
    # either side's rounding past 3 ULP.
    float_model: Callable | None = None
    # A 2,200-bit evaluation of an elementwise float program at given flat
    # positions ((args, positions) -> values, None where not modelled), to
    # judge where long double cancels; `composite`: an expression, whose
    # cancellations amplify each op's rounding.
    precise: Callable | None = None
    composite: bool = False
    # A half-precision program evaluated op by op in long double, each op's
    # value rounded to the type (args -> result): the spec's typing, which
    # XLA:CPU skips inside its fusions (it keeps f16/bf16 chains in f32).
    stepwise_model: Callable | None = None
    # The same typing at 2,200 bits ((args, flat positions) -> values, None
    # where not modelled, precise.SINGULAR where an op of operands in the
    # type meets a pole or an indeterminate form; see precise.evaluate_typed).
    typed_precise: Callable | None = None
    # (args, flat positions, largest finite value, intermediates=False) -> per
    # position, whether an op's exact value (the result's included unless
    # `intermediates`) is beyond the type's range.
    beyond_range: Callable | None = None
    # (args, flat positions) -> per position, whether a complex op's exact
    # operand lies on its branch cut (see precise.on_branch_cut).
    on_branch_cut: Callable | None = None
    # (args, flat positions, eps) -> per position, the relative spread of
    # the result when each rounded op's value moves by eps (a composite's
    # first-order condition; see precise.rounding_spread).
    rounding_spread: Callable | None = None
    # Where XLA:CPU departs from the spec itself: (args, ours, xla) -> the
    # elements where the import follows the spec instead, and the reason.
    spec_departure: Callable | None = None
    # Transforms whose every output sums many inputs (fft): results agree
    # norm-wise, within this times the largest magnitude of XLA's result,
    # which is what FFT algorithms promise (not ULPs per element).
    norm_tolerance: float | None = None
    # What an evaluation in the type must round that the result is
    # ill-conditioned in (y log x of a complex power), and (args, flat
    # positions) -> per position, the relative error (in epsilons of the
    # type) that rounding implies: either side may land anywhere within it.
    rounding_bound: tuple[str, Callable] | None = None
    # Why XLA:CPU must not run the case (it would corrupt the process);
    # such a case is judged against its exact `model` alone.
    xla_unsafe: str | None = None
    notes: list[str] = field(default_factory=list)

    def function(self, name: str, private: bool = False) -> str:
        params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(self.arg_types))
        lines = [f"func.func {'private ' if private else ''}@{name}({params}) -> ({', '.join(self.result_types)}) {{"]
        lines += ["  " + line for line in self.body]
        lines.append(f"  return {', '.join(self.results)} : {', '.join(self.result_types)}")
        lines.append("}")
        return "\n".join(lines)


class _Body:
    """Builds a sequence of ops in generic form with fresh value names."""

    def __init__(self, prefix: str = "v") -> None:
        self.lines: list[str] = []
        self.prefix = prefix
        self.count = 0

    def op(self, name: str, operands: list[str], operand_types: list[str], result_type: str, attrs: str = "", regions: str = "") -> str:
        value = f"%{self.prefix}{self.count}"
        self.count += 1
        attr_text = f" {{{attrs}}}" if attrs else ""
        region_text = f" ({regions})" if regions else ""
        self.lines.append(f'{value} = "{name}"({", ".join(operands)}){region_text}{attr_text} : ({", ".join(operand_types)}) -> {result_type}')
        return value

    def constant(self, literal: str, result_type: str) -> str:
        value = f"%{self.prefix}{self.count}"
        self.count += 1
        self.lines.append(f"{value} = stablehlo.constant {literal} : {result_type}")
        return value


def _array(xs) -> str:
    return "array<i64" + (": " + ", ".join(str(int(x)) for x in xs) if len(xs) else "") + ">"


def _list(xs) -> str:
    return "[" + ", ".join(str(int(x)) for x in xs) + "]"


def _shape(rng: Rng, rank: int | None = None, max_elements: int = 96, zero: float = 0.04) -> tuple[int, ...]:
    if rank is None:
        rank = int(rng.choice([0, 1, 2, 2, 3, 3, 4]))
    while True:
        dims = tuple(int(rng.choice([0, 1, 2, 3, 4, 5, 7])) if rng.random() < zero else int(rng.choice([1, 2, 3, 4, 5, 7])) for _ in range(rank))
        if int(np.prod(dims, dtype=np.int64)) <= max_elements:
            return dims


def _pick(rng: Rng, names: list[str]) -> ElementType:
    return TYPES[str(rng.choice(names))]


# ---------------------------------------------------------------------------
# The elementwise table: the spec's element types for each op, and a float64
# reference for the ops whose results are rounded approximations.
# ---------------------------------------------------------------------------


def _logistic(x):
    with np.errstate(all="ignore"):
        return 1 / (1 + np.exp(-x))


def _cbrt(x):
    return np.cbrt(x) if not np.iscomplexobj(x) else x ** (1 / 3)


@dataclass(frozen=True)
class Elementwise:
    types: list[str]
    exact: bool = False
    reference: Callable | None = None
    result: str | None = None  # "i1", "part" (complex -> its component), or the operand type
    style: str = "any"


FLOATISH = FLOAT + COMPLEX
UNARY: dict[str, Elementwise] = {
    "abs": Elementwise(SINT + FLOAT + COMPLEX, exact=True, result="part"),
    "negate": Elementwise(INT + FLOATISH, exact=True),
    "sign": Elementwise(SINT + FLOATISH, exact=True),
    "not": Elementwise(BOOL + INT, exact=True),
    "exponential": Elementwise(FLOATISH, reference=np.exp),
    "exponential_minus_one": Elementwise(FLOATISH, reference=np.expm1),
    "log": Elementwise(FLOATISH, reference=np.log),
    "log_plus_one": Elementwise(FLOATISH, reference=np.log1p),
    "logistic": Elementwise(FLOATISH, reference=_logistic),
    "sqrt": Elementwise(FLOATISH, reference=np.sqrt),
    "rsqrt": Elementwise(FLOATISH, reference=lambda x: 1 / np.sqrt(x)),
    "cbrt": Elementwise(FLOAT, reference=_cbrt),
    "sine": Elementwise(FLOATISH, reference=np.sin),
    "cosine": Elementwise(FLOATISH, reference=np.cos),
    "tan": Elementwise(FLOATISH, reference=np.tan),
    "tanh": Elementwise(FLOATISH, reference=np.tanh),
    "floor": Elementwise(FLOAT, exact=True),
    "ceil": Elementwise(FLOAT, exact=True),
    "round_nearest_afz": Elementwise(FLOAT, exact=True),
    "round_nearest_even": Elementwise(FLOAT, exact=True),
    "is_finite": Elementwise(FLOAT, exact=True, result="i1"),
    "popcnt": Elementwise(INT, exact=True),
    "count_leading_zeros": Elementwise(INT, exact=True),
    "real": Elementwise(FLOAT + COMPLEX, exact=True, result="part"),
    "imag": Elementwise(FLOAT + COMPLEX, exact=True, result="part"),
}

def _scipy(name: str):
    def f(x):
        import scipy.special

        return getattr(scipy.special, name)(x)

    return f


# CHLO's elementwise ops (JAX's lowering emits them), by their full names.
UNARY.update({
    "chlo.sinh": Elementwise(FLOATISH, reference=np.sinh),
    "chlo.cosh": Elementwise(FLOATISH, reference=np.cosh),
    "chlo.tan": Elementwise(FLOATISH, reference=np.tan),
    "chlo.asin": Elementwise(FLOATISH, reference=np.arcsin),
    "chlo.acos": Elementwise(FLOATISH, reference=np.arccos),
    "chlo.atan": Elementwise(FLOATISH, reference=np.arctan),
    "chlo.asinh": Elementwise(FLOATISH, reference=np.arcsinh),
    "chlo.acosh": Elementwise(FLOATISH, reference=np.arccosh),
    "chlo.atanh": Elementwise(FLOATISH, reference=np.arctanh),
    "chlo.erf": Elementwise(FLOAT, reference=_scipy("erf")),
    "chlo.erfc": Elementwise(FLOAT, reference=_scipy("erfc")),
    "chlo.erf_inv": Elementwise(FLOAT, reference=_scipy("erfinv")),
    "chlo.lgamma": Elementwise(FLOAT, reference=_scipy("gammaln")),
    "chlo.digamma": Elementwise(FLOAT, reference=_scipy("digamma")),
    "chlo.bessel_i1e": Elementwise(FLOAT, reference=_scipy("i1e")),
    "chlo.square": Elementwise(FLOATISH, reference=np.square),
    "chlo.is_inf": Elementwise(FLOAT, exact=True, result="i1"),
    "chlo.is_neg_inf": Elementwise(FLOAT, exact=True, result="i1"),
    "chlo.is_pos_inf": Elementwise(FLOAT, exact=True, result="i1"),
    "chlo.conj": Elementwise(COMPLEX, exact=True),
})

BINARY: dict[str, Elementwise] = {
    "add": Elementwise(BOOL + INT + FLOATISH),
    "subtract": Elementwise(INT + FLOATISH),
    "multiply": Elementwise(BOOL + INT + FLOATISH),
    "divide": Elementwise(INT + FLOATISH),
    "remainder": Elementwise(INT + FLOAT),
    "power": Elementwise(INT + FLOATISH, reference=np.power),
    "maximum": Elementwise(BOOL + INT + FLOATISH, exact=True),
    "minimum": Elementwise(BOOL + INT + FLOATISH, exact=True),
    "and": Elementwise(BOOL + INT, exact=True),
    "or": Elementwise(BOOL + INT, exact=True),
    "xor": Elementwise(BOOL + INT, exact=True),
    "shift_left": Elementwise(INT, exact=True),
    "shift_right_arithmetic": Elementwise(INT, exact=True),
    "shift_right_logical": Elementwise(INT, exact=True),
    "atan2": Elementwise(FLOATISH, reference=models.atan2),
}
# add, subtract and multiply are exact on integers and round once on floats.
_ROUNDED_ONCE = {"add", "subtract", "multiply", "divide", "remainder"}


def _result_element(spec: Elementwise, t: ElementType) -> str:
    if spec.result == "i1":
        return "i1"
    if spec.result == "part":
        return t.part.name
    return t.name


def gen_unary(rng: Rng, op: str | None = None) -> Case:
    op = op or str(rng.choice(sorted(UNARY)))
    spec = UNARY[op]
    t = _pick(rng, spec.types)
    shape = _shape(rng)
    x = values(rng, t, shape)
    rt = tensor_type(shape, _result_element(spec, t))
    body = _Body()
    r = body.op(op if "." in op else f"stablehlo.{op}", ["%a0"], [tensor_type(shape, t.name)], rt)
    case = Case(op, t.name, [x], [tensor_type(shape, t.name)], body.lines, [r], [rt], exact=spec.exact or t.kind not in ("float", "complex"), reference=spec.reference)
    if t.is_int or t.kind == "bool":
        _attach_models(case, t, body.lines, r, ["%a0"])
    elif spec.reference is not None:
        _attach_precise(case, body.lines, r, ["%a0"], composite=False)
    return case


def _digamma_reflection_bound(args: list[np.ndarray], flat: list[int]) -> list[float]:
    """Below 1/2, psi(x) = psi(1 - x) - pi cot(pi x): each term rounded in
    the type (half an ULP, an ULP for the cotangent), the difference off by
    that much, relative to psi(x) itself where the terms cancel. 0 (no
    bound) from 1/2 on."""
    import mpmath

    x = args[0].reshape(-1)
    out = []
    for k in flat:
        v = float(x[k])
        if not (np.isfinite(v) and v < 0.5) or v == np.floor(v):
            out.append(0.0)
            continue
        terms = abs(float(mpmath.digamma(1 - v))) + abs(float(mpmath.pi * mpmath.cot(mpmath.pi * v)))
        value = abs(float(mpmath.digamma(v)))
        out.append(2 * terms / value + 4 if value > 0 else 0.0)
    return out


# Ops whose evaluation in the type must round an intermediate the result is
# ill-conditioned in (complex power: y log x; digamma below 1/2: its
# reflection's terms).
_ROUNDING_BOUNDS = {
    "stablehlo.power": ("y log x", lambda args, flat: _complex_power_bound(args, flat)),
    "chlo.digamma": ("the reflection psi(1 - x) - pi cot(pi x)", lambda args, flat: _digamma_reflection_bound(args, flat)),
}


def _integer_power(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x ** y in the type's modular arithmetic; a negative y gives 1 / x^|y|
    truncated (nonzero only for x = +-1)."""
    bits = x.dtype.itemsize * 8
    out = []
    for a, b in zip(x.reshape(-1).tolist(), y.reshape(-1).tolist()):
        a, b = int(a), int(b)
        if b < 0:
            v = 1 if a == 1 else ((-1) ** (-b) if a == -1 else 0)
        else:
            v = pow(a, b, 1 << bits)
        out.append(v % (1 << bits))
    return np.array(out, dtype=np.uint64).astype(x.dtype).reshape(x.shape)


def gen_binary(rng: Rng, op: str | None = None) -> Case:
    op = op or str(rng.choice(sorted(BINARY)))
    spec = BINARY[op]
    t = _pick(rng, spec.types)
    shape = _shape(rng)
    x, y = values(rng, t, shape), values(rng, t, shape)
    if op.startswith("shift") and t.is_int and rng.random() < 0.7:
        y = rng.integers(0, t.bits + 2, shape).astype(t.dtype)  # in range, the width, beyond
    tt = tensor_type(shape, t.name)
    body = _Body()
    r = body.op(f"stablehlo.{op}", ["%a0", "%a1"], [tt, tt], tt)
    exact = spec.exact or t.kind not in ("float", "complex") or (op in _ROUNDED_ONCE and t.kind == "float")
    case = Case(op, t.name, [x, y], [tt, tt], body.lines, [r], [tt], exact=exact, reference=spec.reference)
    if op == "power" and t.is_int and t.bits >= 8:
        # XLA:CPU squares for the exponent's low 6 bits only.
        case.model, case.model_name = (lambda a, b: [_integer_power(a, b)]), "modular integer power"
    if (t.is_int or t.kind == "bool") and op != "power":
        _attach_models(case, t, body.lines, r, ["%a0", "%a1"])
    elif t.kind in ("float", "complex") and not exact:
        _attach_precise(case, body.lines, r, ["%a0", "%a1"], composite=False)
    if op in ("minimum", "maximum") and t.kind == "complex":
        case.spec_departure = _lexicographic_departure(op)
    return case


def _lexicographic_departure(op: str) -> Callable:
    """XLA:CPU's complex minimum and maximum return the first operand
    where the real parts are equal (max(2 - 70i, 2 - i) is 2 - 70i); the
    spec orders complex numbers by (real, imaginary)."""

    def departure(args, ours, xla):
        a, b = args
        same_real = a.real == b.real
        take_a = (a.imag < b.imag) if op == "minimum" else (a.imag > b.imag)
        spec = np.where(take_a | (a.imag == b.imag), a, b)
        follows = same_real & ~np.isnan(a.imag) & ~np.isnan(b.imag) & (ours == spec) & (xla != spec)
        return follows, f"XLA:CPU's complex {op} takes the first operand where the real parts are equal (the spec orders by the imaginary parts there)"

    return departure


def _complex_power_bound(args: list[np.ndarray], flat: list[int]) -> list[float]:
    """x^y = exp(y log x): log x's parts are rounded (within an ULP each,
    as faithful log and atan2 round them), and the product w = y log x and
    its parts once more, so an evaluation in the type has w off by up to
    (|c| + |d|) (ulp(log|x|) + ulp(arg x)) + ulp(Re w) + ulp(Im w) for
    y = c + di: the result's relative error (exp turns w's absolute error
    into a relative one), here in epsilons, with 4 for exp, cos and sin
    themselves."""
    x, y = args[0].reshape(-1), args[1].reshape(-1)
    real = np.finfo(args[0].dtype).dtype
    eps = float(np.finfo(real).eps)
    out = []
    with np.errstate(all="ignore"):
        for k in flat:
            a, b = complex(x[k]), complex(y[k])
            if a == 0 or not (np.isfinite(a) and np.isfinite(b)):
                out.append(0.0)
                continue
            log_modulus, angle = np.log(abs(a)), np.angle(a)
            w = b * complex(log_modulus, angle)
            ulp = lambda v: float(np.spacing(real.type(abs(v)))) / eps
            bound = (abs(b.real) + abs(b.imag)) * (ulp(log_modulus) + ulp(angle)) + ulp(w.real) + ulp(w.imag) + 4
            out.append(bound if np.isfinite(bound) else 0.0)
    return out


_DIRECTIONS = ["EQ", "NE", "GE", "GT", "LE", "LT"]


def gen_compare(rng: Rng) -> Case:
    t = _pick(rng, BOOL + INT + FLOAT + COMPLEX)
    direction = str(rng.choice(_DIRECTIONS[:2] if t.kind == "complex" else _DIRECTIONS))
    if t.kind == "float":
        kind = str(rng.choice(["FLOAT", "TOTALORDER"]))
    elif t.kind == "complex":
        kind = "FLOAT"
    else:
        kind = "UNSIGNED" if t.kind in ("uint", "bool") else "SIGNED"
    shape = _shape(rng)
    x, y = values(rng, t, shape), values(rng, t, shape)
    if rng.random() < 0.5:  # equal elements exercise EQ/GE/LE
        mask = rng.random(shape) < 0.4
        y = np.where(mask, x, y).astype(t.dtype)
    tt = tensor_type(shape, t.name)
    body = _Body()
    attrs = f"comparison_direction = #stablehlo<comparison_direction {direction}>, compare_type = #stablehlo<comparison_type {kind}>"
    r = body.op("stablehlo.compare", ["%a0", "%a1"], [tt, tt], tensor_type(shape, "i1"), attrs)
    return Case("compare", f"{t.name} {direction} {kind}", [x, y], [tt, tt], body.lines, [r], [tensor_type(shape, "i1")], exact=True)


def gen_select(rng: Rng) -> Case:
    t = _pick(rng, BOOL + INT + FLOAT + COMPLEX)
    shape = _shape(rng)
    scalar_pred = rng.random() < 0.25
    pred = values(rng, TYPES["i1"], () if scalar_pred else shape)
    x, y = values(rng, t, shape), values(rng, t, shape)
    tt = tensor_type(shape, t.name)
    pt = tensor_type(pred.shape, "i1")
    body = _Body()
    r = body.op("stablehlo.select", ["%a0", "%a1", "%a2"], [pt, tt, tt], tt)
    return Case("select", f"{t.name}{' scalar pred' if scalar_pred else ''}", [pred, x, y], [pt, tt, tt], body.lines, [r], [tt], exact=True)


def _lexicographic_clamp(lo, x, hi):
    """The spec's clamp on complex numbers: minimum(maximum(x, lo), hi),
    ordered by real part, then imaginary part."""
    def first(p, q, sign):
        return np.where((sign * p.real > sign * q.real) | ((p.real == q.real) & (sign * p.imag > sign * q.imag)), p, q)

    lo, hi = np.broadcast_to(lo, x.shape), np.broadcast_to(hi, x.shape)
    return [first(first(x, lo, 1), hi, -1)]


def gen_clamp(rng: Rng) -> Case:
    t = _pick(rng, BOOL + INT + FLOAT + COMPLEX)
    shape = _shape(rng)
    lo_shape = () if rng.random() < 0.4 else shape
    hi_shape = () if rng.random() < 0.4 else shape
    lo, x, hi = values(rng, t, lo_shape), values(rng, t, shape), values(rng, t, hi_shape)
    types = [tensor_type(lo_shape, t.name), tensor_type(shape, t.name), tensor_type(hi_shape, t.name)]
    body = _Body()
    r = body.op("stablehlo.clamp", ["%a0", "%a1", "%a2"], types, types[1])
    case = Case("clamp", t.name, [lo, x, hi], types, body.lines, [r], [types[1]], exact=True)
    if t.name.startswith("complex"):
        # XLA:CPU orders complex numbers by real part alone in clamp (its
        # maximum and minimum are lexicographic).
        case.model, case.model_name = _lexicographic_clamp, "the spec's lexicographic clamp"
    return case


def _in_range(rng: Rng, source: ElementType, target: ElementType, shape) -> np.ndarray:
    """Float values a conversion to integer `target` defines (in range)."""
    info = np.iinfo(target.dtype) if target.bits >= 8 else None
    lo, hi = (int(info.min), int(info.max)) if info else ((-(1 << (target.bits - 1)), (1 << (target.bits - 1)) - 1) if target.kind == "sint" else (0, (1 << target.bits) - 1))
    # Stay where the source type represents every integer near the bounds.
    span = min(hi, 2 ** min(np.finfo(np.float32).nmant if source.bits == 32 else 10 if source.name == "f16" else 7 if source.name == "bf16" else 52, 60))
    low = max(lo, -span)
    v = rng.uniform(low - 0.99 if low > lo else low, min(hi, span) + 0.99 if min(hi, span) < hi else min(hi, span), shape)
    v = np.where(rng.random(shape) < 0.5, np.trunc(v), v)
    return np.clip(v, lo, hi).astype(source.dtype)


def gen_convert(rng: Rng) -> Case:
    names = BOOL + INT + FLOAT + COMPLEX
    source = _pick(rng, names)
    target = _pick(rng, names)
    if source.kind == "complex" and target.kind != "complex":
        target = _pick(rng, COMPLEX)  # the spec leaves complex -> real to be defined
    shape = _shape(rng)
    if source.kind == "float" and target.is_int:
        x = _in_range(rng, source, target, shape)
    elif source.kind == "float" and target.kind == "bool":
        x = values(rng, source, shape, "finite")
    else:
        x = values(rng, source, shape)
    st, tt = tensor_type(shape, source.name), tensor_type(shape, target.name)
    body = _Body()
    r = body.op("stablehlo.convert", ["%a0"], [st], tt)
    return Case("convert", f"{source.name} -> {target.name}", [x], [st], body.lines, [r], [tt], exact=True)


def gen_convert_small_float(rng: Rng) -> Case:
    """Round trips through the 8- and 4-bit float types (storage types)."""
    small = SMALL_FLOATS[str(rng.choice(sorted(SMALL_FLOATS)))]
    wide = _pick(rng, ["f16", "bf16", "f32", "f64"])
    shape = _shape(rng, rank=int(rng.integers(1, 3)))
    x = values(rng, wide, shape)
    wt, st = tensor_type(shape, wide.name), tensor_type(shape, small.name)
    body = _Body()
    narrow = body.op("stablehlo.convert", ["%a0"], [wt], st)
    back = body.op("stablehlo.convert", [narrow], [st], wt)
    return Case("convert_small_float", f"{wide.name} -> {small.name} -> {wide.name}", [x], [wt], body.lines, [back], [wt], exact=True)


def gen_small_float_arithmetic(rng: Rng) -> Case:
    """Arithmetic on the 8- and 4-bit float types, results of those types."""
    small = SMALL_FLOATS[str(rng.choice(sorted(SMALL_FLOATS)))]
    shape = _shape(rng, rank=int(rng.integers(1, 3)))
    op = str(rng.choice(["add", "subtract", "multiply", "divide", "maximum", "minimum", "negate", "abs", "dot_general", "select"]))
    style = "exact" if op == "dot_general" else "any"
    with np.errstate(all="ignore"):
        xs = [values(rng, TYPES["f32"], shape, style).astype(small.dtype) for _ in range(2)]
    st = tensor_type(shape, small.name)
    body = _Body()
    if op in ("negate", "abs"):
        r = body.op(f"stablehlo.{op}", ["%a0"], [st], st)
        return Case("small_float_arithmetic", f"{op} {small.name}", xs[:1], [st], body.lines, [r], [st], exact=True)
    if op == "dot_general":
        rt = tensor_type((), small.name)
        xs = [x.reshape(-1) for x in xs]
        st = tensor_type(xs[0].shape, small.name)
        r = body.op("stablehlo.dot_general", ["%a0", "%a1"], [st, st], rt, "dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>")
        return Case("small_float_arithmetic", f"{op} {small.name}", xs, [st, st], body.lines, [r], [rt], exact=True)
    if op == "select":
        pred = values(rng, TYPES["i1"], shape)
        pt = tensor_type(shape, "i1")
        r = body.op("stablehlo.select", ["%a0", "%a1", "%a2"], [pt, st, st], st)
        return Case("small_float_arithmetic", f"{op} {small.name}", [pred] + xs, [pt, st, st], body.lines, [r], [st], exact=True)
    r = body.op(f"stablehlo.{op}", ["%a0", "%a1"], [st, st], st)
    return Case("small_float_arithmetic", f"{op} {small.name}", xs, [st, st], body.lines, [r], [st], exact=True)


def gen_bitcast_convert(rng: Rng) -> Case:
    widths: dict[int, list[str]] = {}
    for name in INT + FLOAT + COMPLEX:
        if TYPES[name].bits >= 8:
            widths.setdefault(TYPES[name].bits, []).append(name)
    source = _pick(rng, [n for n in INT + FLOAT if TYPES[n].bits >= 8] + COMPLEX)
    # A complex type converts only to and from complex types (the spec's C1).
    compatible = lambda n: (TYPES[n].kind == "complex") == (source.kind == "complex")  # noqa: E731
    same = rng.random() < 0.6
    if same or source.kind == "complex":
        target = _pick(rng, [n for n in widths[source.bits] if compatible(n)])
    else:
        target = _pick(rng, [n for b, ns in widths.items() if b != source.bits and (max(b, source.bits) % min(b, source.bits) == 0) for n in ns if compatible(n)])
    shape = _shape(rng, rank=int(rng.integers(0, 3)))
    if source.bits < target.bits:
        shape = shape + (target.bits // source.bits,)
    x = values(rng, source, shape)
    out_shape = shape[:-1] if source.bits < target.bits else shape + ((source.bits // target.bits,) if source.bits > target.bits else ())
    st, tt = tensor_type(shape, source.name), tensor_type(out_shape, target.name)
    body = _Body()
    r = body.op("stablehlo.bitcast_convert", ["%a0"], [st], tt)
    # A NaN's payload is not kept by every conversion: compare the bits.
    return Case("bitcast_convert", f"{source.name} -> {target.name}", [x], [st], body.lines, [r], [tt], exact=True)


def gen_reduce_precision(rng: Rng) -> Case:
    t = _pick(rng, FLOAT)
    exponent = int(rng.integers(1, {16: 6, 32: 9, 64: 12}[t.bits] if t.name != "bf16" else 9))
    mantissa = int(rng.integers(0, {16: 11 if t.name == "f16" else 8, 32: 24, 64: 53}[t.bits]))
    shape = _shape(rng)
    x = values(rng, t, shape)
    tt = tensor_type(shape, t.name)
    body = _Body()
    r = body.op("stablehlo.reduce_precision", ["%a0"], [tt], tt, f"exponent_bits = {exponent} : i32, mantissa_bits = {mantissa} : i32")
    case = Case("reduce_precision", f"{t.name} e{exponent}m{mantissa}", [x], [tt], body.lines, [r], [tt], exact=True)
    if mantissa == 0:
        def departure(args, ours, xla):
            nan = np.isnan(args[0].astype(np.float64))
            return nan & np.isinf(ours.astype(np.float64)), "without mantissa bits the spec rounds NaN to an infinity (XLA:CPU keeps NaN)"

        case.spec_departure = departure
    return case


# ---------------------------------------------------------------------------
# Random expressions over the table: as tensor programs and as region bodies.
# ---------------------------------------------------------------------------

_BODY_UNARY = {k: v for k, v in UNARY.items() if v.result is None}
_BODY_BINARY = {k: v for k, v in BINARY.items()}


def _expression(rng: Rng, body: _Body, leaves: list[str], t: ElementType, ty: str, depth: int) -> tuple[str, bool]:
    """A random expression of type `t` over `leaves`; whether it is exact."""
    if depth == 0 or rng.random() < 0.25:
        return str(rng.choice(leaves)), True
    if rng.random() < 0.35:
        ops = [k for k, v in _BODY_UNARY.items() if t.name in v.types]
        op = str(rng.choice(ops))
        inner, exact = _expression(rng, body, leaves, t, ty, depth - 1)
        return body.op(op if "." in op else f"stablehlo.{op}", [inner], [ty], ty), exact and (UNARY[op].exact or t.kind not in ("float", "complex"))
    if rng.random() < 0.15 and t.kind != "complex":
        a, ea = _expression(rng, body, leaves, t, ty, depth - 1)
        b, eb = _expression(rng, body, leaves, t, ty, depth - 1)
        direction = str(rng.choice(_DIRECTIONS))
        kind = {"float": "FLOAT", "sint": "SIGNED"}.get(t.kind, "UNSIGNED")
        pred = body.op("stablehlo.compare", [a, b], [ty, ty], ty.replace(t.name + ">", "i1>"), f"comparison_direction = #stablehlo<comparison_direction {direction}>, compare_type = #stablehlo<comparison_type {kind}>")
        return body.op("stablehlo.select", [pred, a, b], [ty.replace(t.name + ">", "i1>"), ty, ty], ty), ea and eb
    # Integer power is tested on its own (XLA strays there; see gen_binary).
    ops = [k for k, v in _BODY_BINARY.items() if t.name in v.types and not (k == "power" and t.kind != "float" and t.kind != "complex")]
    op = str(rng.choice(ops))
    a, ea = _expression(rng, body, leaves, t, ty, depth - 1)
    b, eb = _expression(rng, body, leaves, t, ty, depth - 1)
    exact = ea and eb and (BINARY[op].exact or t.kind not in ("float", "complex"))
    return body.op(f"stablehlo.{op}", [a, b], [ty, ty], ty), exact


def gen_expression(rng: Rng) -> Case:
    """A random elementwise expression applied to tensors."""
    t = _pick(rng, BOOL + INT + FLOAT + COMPLEX)
    shape = _shape(rng)
    n = int(rng.integers(1, 4))
    tt = tensor_type(shape, t.name)
    body = _Body()
    r, exact = _expression(rng, body, [f"%a{i}" for i in range(n)], t, tt, int(rng.integers(1, 4)))
    if r.startswith("%a"):
        r = body.op("stablehlo.negate" if t.kind != "bool" else "stablehlo.not", [r], [tt], tt)
    case = Case("expression", t.name, [values(rng, t, shape) for _ in range(n)], [tt] * n, body.lines, [r], [tt], exact=exact)
    _attach_models(case, t, body.lines, r, [f"%a{i}" for i in range(n)])
    return case


def _attach_models(case: Case, t: ElementType, lines: list[str], result: str, leaves: list[str]) -> None:
    """Elementwise programs get a model (models.py): exact for integers and
    booleans, long double for floats and complex numbers."""
    if t.kind in ("float", "complex"):
        case.float_model = lambda *args: models.evaluate_float(lines, result, dict(zip(leaves, args)))
        if len(lines) > 1:
            case.stepwise_model = lambda *args: models.evaluate_float(lines, result, dict(zip(leaves, args)), rounded_to=t.dtype)
            real = np.zeros((), t.dtype).real.dtype
            case.typed_precise = lambda args, flat: precise.evaluate_typed(lines, result, dict(zip(leaves, args)), flat, real)
        _attach_precise(case, lines, result, leaves, composite=True)
    elif case.model is None:
        case.model = lambda *args: [models.evaluate(lines, result, dict(zip(leaves, args)), t)]
        case.model_name = "the spec's integer semantics"


def _attach_precise(case: Case, lines: list[str], result: str, leaves: list[str], composite: bool) -> None:
    case.precise = lambda args, flat: precise.evaluate(lines, result, dict(zip(leaves, args)), flat)
    case.beyond_range = lambda args, flat, largest, intermediates=False: precise.beyond_range(lines, result, dict(zip(leaves, args)), flat, largest, intermediates)
    case.on_branch_cut = lambda args, flat: precise.on_branch_cut(lines, result, dict(zip(leaves, args)), flat)
    if len(lines) > 1:
        case.rounding_spread = lambda args, flat, eps: precise.rounding_spread(lines, result, dict(zip(leaves, args)), flat, eps)
    case.composite = composite
    # A program of one op whose evaluation in the type is ill-conditioned
    # in an intermediate (whether an op's own case, an expression's or a
    # map body's) gets that op's rounding bound.
    if len(lines) != 1:
        return
    for name, (what, bound) in _ROUNDING_BOUNDS.items():
        head = f'"{name}"('
        if head not in lines[0] or ("complex<" in lines[0]) != (name == "stablehlo.power"):
            continue
        operands = lines[0].split(head, 1)[1].split(")", 1)[0].split(", ")
        if all(o in leaves for o in operands):
            positions = [leaves.index(o) for o in operands]
            case.rounding_bound = (what, lambda args, flat, bound=bound: bound([args[p] for p in positions], flat))
            return


def gen_map(rng: Rng) -> Case:
    """stablehlo.map with a random body from the table."""
    t = _pick(rng, BOOL + INT + FLOAT + COMPLEX)
    shape = _shape(rng, rank=int(rng.integers(1, 4)))
    n = int(rng.integers(1, 4))
    scalar = tensor_type((), t.name)
    inner = _Body("m")
    r, exact = _expression(rng, inner, [f"%x{i}" for i in range(n)], t, scalar, int(rng.integers(1, 4)))
    if r.startswith("%x"):
        r = inner.op("stablehlo.negate" if t.kind != "bool" else "stablehlo.not", [r], [scalar], scalar)
    block_args = ", ".join(f"%x{i}: {scalar}" for i in range(n))
    region = "{\n  ^bb0(" + block_args + "):\n" + "".join(f"    {l}\n" for l in inner.lines) + f'    "stablehlo.return"({r}) : ({scalar}) -> ()\n  }}'
    tt = tensor_type(shape, t.name)
    body = _Body()
    out = body.op("stablehlo.map", [f"%a{i}" for i in range(n)], [tt] * n, tt, f"dimensions = {_array(range(len(shape)))}", region)
    case = Case("map", t.name, [values(rng, t, shape) for _ in range(n)], [tt] * n, body.lines, [out], [tt], exact=exact)
    _attach_models(case, t, inner.lines, r, [f"%x{i}" for i in range(n)])
    return case


# ---------------------------------------------------------------------------
# Data movement
# ---------------------------------------------------------------------------

_ANY = BOOL + INT + FLOAT + COMPLEX


def gen_iota(rng: Rng) -> Case:
    t = _pick(rng, INT + FLOAT + COMPLEX)
    shape = _shape(rng, rank=int(rng.integers(1, 5)))
    dim = int(rng.integers(0, len(shape)))
    tt = tensor_type(shape, t.name)
    body = _Body()
    # The argument keeps the function's signature non-empty; iota takes none.
    r = body.op("stablehlo.iota", [], [], tt, f"iota_dimension = {dim} : i64")
    total = body.op("stablehlo.add", [r, "%a0"], [tt, tt], tt)
    zero = np.zeros(shape, t.dtype)
    return Case("iota", f"{t.name} dim {dim}", [zero], [tt], body.lines, [total], [tt], exact=True)


def gen_broadcast_in_dim(rng: Rng) -> Case:
    t = _pick(rng, _ANY)
    out = _shape(rng, rank=int(rng.integers(0, 5)))
    rank = int(rng.integers(0, len(out) + 1))
    dims = sorted(rng.choice(len(out), rank, replace=False).tolist()) if rank else []
    if rng.random() < 0.3 and rank > 1:
        dims = list(rng.permutation(dims))
    shape = tuple(out[d] if rng.random() < 0.7 else 1 for d in dims)
    x = values(rng, t, shape)
    st, tt = tensor_type(shape, t.name), tensor_type(out, t.name)
    body = _Body()
    r = body.op("stablehlo.broadcast_in_dim", ["%a0"], [st], tt, f"broadcast_dimensions = {_array(dims)}")
    return Case("broadcast_in_dim", t.name, [x], [st], body.lines, [r], [tt], exact=True)


def gen_reshape(rng: Rng) -> Case:
    t = _pick(rng, _ANY)
    shape = _shape(rng)
    n = int(np.prod(shape, dtype=np.int64))
    factors = [d for d in range(1, n + 1) if n and n % d == 0] or [1]
    out: list[int] = []
    rest = n
    for _ in range(int(rng.integers(0, 4))):
        if rest == 0:
            break
        f = int(rng.choice([d for d in factors if rest % d == 0]))
        out.append(f)
        rest //= f
    if rest != 1 or n == 0:
        out.append(rest)
    x = values(rng, t, shape)
    st, tt = tensor_type(shape, t.name), tensor_type(tuple(out), t.name)
    body = _Body()
    r = body.op("stablehlo.reshape", ["%a0"], [st], tt)
    return Case("reshape", t.name, [x], [st], body.lines, [r], [tt], exact=True)


def gen_transpose(rng: Rng) -> Case:
    t = _pick(rng, _ANY)
    shape = _shape(rng, rank=int(rng.integers(1, 5)))
    perm = rng.permutation(len(shape)).tolist()
    x = values(rng, t, shape)
    out = tuple(shape[p] for p in perm)
    st, tt = tensor_type(shape, t.name), tensor_type(out, t.name)
    body = _Body()
    r = body.op("stablehlo.transpose", ["%a0"], [st], tt, f"permutation = {_array(perm)}")
    return Case("transpose", t.name, [x], [st], body.lines, [r], [tt], exact=True)


def gen_reverse(rng: Rng) -> Case:
    t = _pick(rng, _ANY)
    shape = _shape(rng, rank=int(rng.integers(1, 5)))
    dims = sorted(rng.choice(len(shape), int(rng.integers(0, len(shape) + 1)), replace=False).tolist())
    x = values(rng, t, shape)
    st = tensor_type(shape, t.name)
    body = _Body()
    r = body.op("stablehlo.reverse", ["%a0"], [st], st, f"dimensions = {_array(dims)}")
    return Case("reverse", t.name, [x], [st], body.lines, [r], [st], exact=True)


def gen_slice(rng: Rng) -> Case:
    t = _pick(rng, _ANY)
    shape = _shape(rng, rank=int(rng.integers(1, 5)))
    starts, limits, strides = [], [], []
    for d in shape:
        s = int(rng.integers(0, d + 1))
        e = int(rng.integers(s, d + 1))
        starts.append(s)
        limits.append(e)
        strides.append(int(rng.integers(1, 4)))
    out = tuple(-(-(e - s) // k) for s, e, k in zip(starts, limits, strides))
    x = values(rng, t, shape)
    st, tt = tensor_type(shape, t.name), tensor_type(out, t.name)
    body = _Body()
    r = body.op("stablehlo.slice", ["%a0"], [st], tt, f"start_indices = {_array(starts)}, limit_indices = {_array(limits)}, strides = {_array(strides)}")
    return Case("slice", t.name, [x], [st], body.lines, [r], [tt], exact=True)


def gen_pad(rng: Rng) -> Case:
    t = _pick(rng, _ANY)
    shape = _shape(rng, rank=int(rng.integers(0, 5)))
    low, high, interior, out = [], [], [], []
    for d in shape:
        i = int(rng.integers(0, 3)) if d > 1 else 0
        size = d + max(d - 1, 0) * i
        lo = int(rng.integers(-min(size, 2), 3))
        hi = int(rng.integers(-min(size + lo, 2), 3))
        low.append(lo)
        high.append(hi)
        interior.append(i)
        out.append(size + lo + hi)
    x = values(rng, t, shape)
    v = values(rng, t, ())
    st, tt, vt = tensor_type(shape, t.name), tensor_type(tuple(out), t.name), tensor_type((), t.name)
    body = _Body()
    r = body.op("stablehlo.pad", ["%a0", "%a1"], [st, vt], tt, f"edge_padding_low = {_array(low)}, edge_padding_high = {_array(high)}, interior_padding = {_array(interior)}")
    return Case("pad", t.name, [x, v], [st, vt], body.lines, [r], [tt], exact=True)


def gen_concatenate(rng: Rng) -> Case:
    t = _pick(rng, _ANY)
    shape = _shape(rng, rank=int(rng.integers(1, 5)), max_elements=40)
    dim = int(rng.integers(0, len(shape)))
    n = int(rng.integers(1, 4))
    shapes = [shape[:dim] + (int(rng.choice([0, 1, 2, 3])) if rng.random() < 0.5 else shape[dim],) + shape[dim + 1 :] for _ in range(n)]
    xs = [values(rng, t, s) for s in shapes]
    types = [tensor_type(s, t.name) for s in shapes]
    out = shape[:dim] + (sum(s[dim] for s in shapes),) + shape[dim + 1 :]
    tt = tensor_type(out, t.name)
    body = _Body()
    r = body.op("stablehlo.concatenate", [f"%a{i}" for i in range(n)], types, tt, f"dimension = {dim} : i64")
    return Case("concatenate", t.name, xs, types, body.lines, [r], [tt], exact=True)


def _index_type(rng: Rng) -> ElementType:
    return _pick(rng, ["i8", "i16", "i32", "i64", "ui8", "ui32", "ui64"])


def _indices(rng: Rng, it: ElementType, n: int, bounds: list[int]) -> list[np.ndarray]:
    out = []
    for b in bounds[:n]:
        lo = 0 if it.kind == "uint" else -2
        hi = min(b + 2, int(np.iinfo(it.dtype).max))
        out.append(np.asarray(rng.integers(lo, hi + 1), dtype=it.dtype))
    return out


def gen_dynamic_slice(rng: Rng) -> Case:
    t = _pick(rng, _ANY)
    shape = _shape(rng, rank=int(rng.integers(1, 5)))
    sizes = [int(rng.integers(0, d + 1)) for d in shape]
    it = _index_type(rng)
    starts = _indices(rng, it, len(shape), list(shape))
    x = values(rng, t, shape)
    st, tt, scalar = tensor_type(shape, t.name), tensor_type(tuple(sizes), t.name), tensor_type((), it.name)
    body = _Body()
    r = body.op("stablehlo.dynamic_slice", ["%a0"] + [f"%a{i + 1}" for i in range(len(shape))], [st] + [scalar] * len(shape), tt, f"slice_sizes = {_array(sizes)}")
    return Case("dynamic_slice", f"{t.name} index {it.name}", [x] + starts, [st] + [scalar] * len(shape), body.lines, [r], [tt], exact=True)


def gen_dynamic_update_slice(rng: Rng) -> Case:
    t = _pick(rng, _ANY)
    shape = _shape(rng, rank=int(rng.integers(1, 5)))
    sizes = tuple(int(rng.integers(0, d + 1)) for d in shape)
    it = _index_type(rng)
    starts = _indices(rng, it, len(shape), list(shape))
    x, u = values(rng, t, shape), values(rng, t, sizes)
    st, ut, scalar = tensor_type(shape, t.name), tensor_type(sizes, t.name), tensor_type((), it.name)
    body = _Body()
    r = body.op("stablehlo.dynamic_update_slice", ["%a0", "%a1"] + [f"%a{i + 2}" for i in range(len(shape))], [st, ut] + [scalar] * len(shape), st)
    return Case("dynamic_update_slice", f"{t.name} index {it.name}", [x, u] + starts, [st, ut] + [scalar] * len(shape), body.lines, [r], [st], exact=True)


# ---------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------

# Bodies whose result does not depend on the order of evaluation on the
# arguments they get ("exact" values for add and multiply), with the
# identity the init value takes.
_MONOIDS = {
    "add": (BOOL + INT + FLOAT + COMPLEX, lambda t: 0),
    "multiply": (BOOL + INT + FLOAT + COMPLEX, lambda t: 1),
    "maximum": (BOOL + INT + FLOAT, lambda t: "min"),
    "minimum": (BOOL + INT + FLOAT, lambda t: "max"),
    "and": (BOOL + INT, lambda t: "ones"),
    "or": (BOOL + INT, lambda t: 0),
    "xor": (BOOL + INT, lambda t: 0),
}


def _identity(t: ElementType, which) -> np.ndarray:
    if which == "min":
        v = -np.inf if t.kind == "float" else (False if t.kind == "bool" else np.iinfo(t.dtype).min if t.bits >= 8 else (-(1 << (t.bits - 1)) if t.kind == "sint" else 0))
    elif which == "max":
        v = np.inf if t.kind == "float" else (True if t.kind == "bool" else np.iinfo(t.dtype).max if t.bits >= 8 else ((1 << (t.bits - 1)) - 1 if t.kind == "sint" else (1 << t.bits) - 1))
    elif which == "ones":
        v = True if t.kind == "bool" else (-1 if t.kind == "sint" else (np.iinfo(t.dtype).max if t.bits >= 8 else (1 << t.bits) - 1))
    else:
        v = which
    return np.asarray(v).astype(t.dtype)


def _monoid_region(rng: Rng, types: list[ElementType], name: str | None = None) -> tuple[str, list[str], bool]:
    """A reduction body over `types` (one per operand), returns (region,
    names of the monoids, composite). With two operands the body may be
    an arg-max/arg-min pair, built from compare and select."""
    inner = _Body("r")
    n = len(types)
    scalars = [tensor_type((), t.name) for t in types]
    params = [f"%x{i}: {scalars[i]}" for i in range(n)] + [f"%y{i}: {scalars[i]}" for i in range(n)]
    names = []
    if n == 2 and types[0].kind in ("float", "sint", "uint") and types[1].is_int and rng.random() < 0.6:
        # arg max: keep the larger value; on ties the smaller index.
        direction = str(rng.choice(["GT", "LT"]))
        kind = {"float": "FLOAT", "sint": "SIGNED", "uint": "UNSIGNED"}[types[0].kind]
        i1 = tensor_type((), "i1")
        better = inner.op("stablehlo.compare", ["%x0", "%y0"], [scalars[0]] * 2, i1, f"comparison_direction = #stablehlo<comparison_direction {direction}>, compare_type = #stablehlo<comparison_type {kind}>")
        same = inner.op("stablehlo.compare", ["%x0", "%y0"], [scalars[0]] * 2, i1, f"comparison_direction = #stablehlo<comparison_direction EQ>, compare_type = #stablehlo<comparison_type {kind}>")
        lower = inner.op("stablehlo.compare", ["%x1", "%y1"], [scalars[1]] * 2, i1, f"comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type {'SIGNED' if types[1].kind == 'sint' else 'UNSIGNED'}>")
        tie = inner.op("stablehlo.and", [same, lower], [i1, i1], i1)
        take = inner.op("stablehlo.or", [better, tie], [i1, i1], i1)
        v = inner.op("stablehlo.select", [take, "%x0", "%y0"], [i1, scalars[0], scalars[0]], scalars[0])
        k = inner.op("stablehlo.select", [take, "%x1", "%y1"], [i1, scalars[1], scalars[1]], scalars[1])
        results = [v, k]
        names = ["argmax" if direction == "GT" else "argmin"]
    else:
        results = []
        for i, t in enumerate(types):
            op = name or str(rng.choice([m for m, (ts, _) in _MONOIDS.items() if t.name in ts]))
            if op in ("maximum", "minimum") and t.kind in ("float", "sint", "uint") and rng.random() < 0.3:
                # the same monoid spelled as compare + select
                kind = {"float": "FLOAT", "sint": "SIGNED", "uint": "UNSIGNED"}[t.kind]
                direction = "GE" if op == "maximum" else "LE"
                p = inner.op("stablehlo.compare", [f"%x{i}", f"%y{i}"], [scalars[i]] * 2, tensor_type((), "i1"), f"comparison_direction = #stablehlo<comparison_direction {direction}>, compare_type = #stablehlo<comparison_type {kind}>")
                results.append(inner.op("stablehlo.select", [p, f"%x{i}", f"%y{i}"], [tensor_type((), "i1"), scalars[i], scalars[i]], scalars[i]))
                names.append(op + "(select)")
            else:
                results.append(inner.op(f"stablehlo.{op}", [f"%x{i}", f"%y{i}"], [scalars[i]] * 2, scalars[i]))
                names.append(op)
    region = "{\n  ^bb0(" + ", ".join(params) + "):\n" + "".join(f"    {l}\n" for l in inner.lines)
    region += f'    "stablehlo.return"({", ".join(results)}) : ({", ".join(scalars)}) -> ()\n  }}'
    return region, names, False


def _init_for(names: list[str], types: list[ElementType]) -> list[np.ndarray]:
    inits = []
    for i, t in enumerate(types):
        name = names[min(i, len(names) - 1)].replace("(select)", "")
        if name in ("argmax", "argmin"):
            inits.append(_identity(t, ("min" if name == "argmax" else "max") if i == 0 else "max"))
        else:
            inits.append(_identity(t, _MONOIDS[name][1](t)))
    return inits


def _reduction_operands(rng: Rng, shape) -> tuple[list[ElementType], list[np.ndarray]]:
    n = 2 if rng.random() < 0.3 else 1
    if n == 2:
        types = [_pick(rng, INT + FLOAT), _pick(rng, ["i32", "i64", "ui32"])]
        # distinct indices, so an arg max has one answer
        idx = rng.permutation(int(np.prod(shape, dtype=np.int64))).reshape(shape).astype(types[1].dtype)
        return types, [values(rng, types[0], shape, "exact" if rng.random() < 0.5 else "finite"), idx]
    t = _pick(rng, BOOL + INT + FLOAT + COMPLEX)
    return [t], [values(rng, t, shape, "exact")]


def _largest(t: ElementType) -> float:
    """The largest finite value of a float type (of a complex one's parts)."""
    import ml_dtypes

    return float(ml_dtypes.finfo(t.part.dtype if t.kind == "complex" else t.dtype).max)


def gen_reduce(rng: Rng) -> Case:
    shape = _shape(rng, rank=int(rng.integers(1, 5)))
    types, xs = _reduction_operands(rng, shape)
    region, names, _ = _monoid_region(rng, types)
    if names[0] not in ("argmax", "argmin"):
        # Each operand's values by its own body: max/min are exact on any
        # value, sums and products only on small integers.
        for i, name in enumerate(names):
            if name.startswith(("maximum", "minimum")) and types[i].kind == "float":
                xs[i] = values(rng, types[i], shape)
            elif name in ("add", "multiply"):
                xs[i] = values(rng, types[i], shape, "exact")
    dims = sorted(rng.choice(len(shape), int(rng.integers(0, len(shape) + 1)), replace=False).tolist())
    out = tuple(d for i, d in enumerate(shape) if i not in dims)
    group = int(np.prod([shape[d] for d in dims], dtype=np.int64))
    for i, name in enumerate(names):
        if name == "multiply" and types[i].kind in ("float", "complex") and 3.0**group > _largest(types[i]):
            # A product that can leave the range depends on the order (an
            # infinity times a zero is NaN): +-1 and 0 are exact in any order.
            xs[i] = np.sign(xs[i].real).astype(xs[i].dtype)
    inits = _init_for(names, types)
    n = len(types)
    in_types = [tensor_type(shape, t.name) for t in types]
    init_types = [tensor_type((), t.name) for t in types]
    out_types = [tensor_type(out, t.name) for t in types]
    body = _Body()
    result = "(" + ", ".join(out_types) + ")" if n > 1 else out_types[0]
    r = body.op("stablehlo.reduce", [f"%a{i}" for i in range(2 * n)], in_types + init_types, result, f"dimensions = {_array(dims)}", region)
    results = [f"{r}#{i}" for i in range(n)] if n > 1 else [r]
    if n > 1:
        body.lines[-1] = body.lines[-1].replace(f"{r} =", f"{r}:{n} =", 1)
    return Case("reduce", f"{'+'.join(t.name for t in types)} {'/'.join(names)} dims {dims}", xs + inits, in_types + init_types, body.lines, results, out_types, exact=True)


def gen_reduce_window(rng: Rng) -> Case:
    rank = int(rng.integers(1, 5))
    shape = _shape(rng, rank=rank, zero=0.02)
    types, xs = _reduction_operands(rng, shape)
    if len(types) == 2:  # one operand, of exact values
        types, xs = types[:1], [values(rng, types[0], shape, "exact")]
    region, names, _ = _monoid_region(rng, types)
    cumulative = int(rng.integers(0, rank)) if rng.random() < 0.3 else -1
    if cumulative >= 0:  # one long dimension, the others unwindowed
        shape = tuple(int(rng.choice([17, 40, 130])) if d == cumulative else min(n, 3) for d, n in enumerate(shape))
        types, xs = types[:1], [values(rng, types[0], shape, "exact")]
        if names[0] == "multiply" and xs[0].dtype != np.bool_:  # long products overflow, and then order matters
            xs = [np.sign(xs[0].real).astype(xs[0].dtype)]  # +-1 and 0: exact in any order
    window, strides, base, wdil, padding, out = [], [], [], [], [], []
    for d in shape:
        b = int(rng.choice([1, 1, 1, 2]))
        wd = int(rng.choice([1, 1, 2]))
        size = d + max(d - 1, 0) * (b - 1)
        lo, hi = int(rng.integers(0, 3)), int(rng.integers(0, 3))
        padded = size + lo + hi
        w = int(rng.integers(1, max(1, (padded - 1) // wd + 1) + 1)) if padded > 0 else 1
        span = (w - 1) * wd + 1
        if span > padded:
            hi += span - padded
            padded = span
        s = int(rng.integers(1, 4))
        if cumulative == len(window):  # JAX's cumulative form: a scan
            b, wd, s, w = 1, 1, 1, d + int(rng.integers(0, 2))
            lo, hi = (0, w - 1) if rng.random() < 0.5 else (w - 1, 0)
            padded, span = d + w - 1, w
        elif cumulative >= 0 and rng.random() < 0.8:  # the others unwindowed
            b, wd, s, w, lo, hi = 1, 1, 1, 1, 0, 0
            padded, span = d, 1
        window.append(w)
        strides.append(s)
        base.append(b)
        wdil.append(wd)
        padding.append((lo, hi))
        out.append((padded - span) // s + 1)
    inits = _init_for(names, types)
    t = types[0]
    it, vt, ot = tensor_type(shape, t.name), tensor_type((), t.name), tensor_type(tuple(out), t.name)
    attrs = (
        f"window_dimensions = {_array(window)}, window_strides = {_array(strides)}, base_dilations = {_array(base)}, "
        f"window_dilations = {_array(wdil)}, padding = dense<{[list(p) for p in padding]}> : tensor<{rank}x2xi64>"
    )
    body = _Body()
    r = body.op("stablehlo.reduce_window", ["%a0", "%a1"], [it, vt], ot, attrs, region)
    return Case("reduce_window", f"{t.name} {names[0]} w{window} s{strides} b{base} d{wdil} p{padding}", [xs[0], inits[0]], [it, vt], body.lines, [r], [ot], exact=True)


# ---------------------------------------------------------------------------
# Products
# ---------------------------------------------------------------------------

_PRECISIONS = ["DEFAULT", "HIGH", "HIGHEST"]


def gen_dot_general(rng: Rng) -> Case:
    t = _pick(rng, ["i1", "i8", "i16", "i32", "i64", "ui8", "ui32", "f16", "bf16", "f32", "f32", "f64", "complex<f32>", "complex<f64>"])
    nb, nc = int(rng.integers(0, 3)), int(rng.integers(0, 3))
    nl, nr = int(rng.integers(0, 3)), int(rng.integers(0, 3))
    size = lambda: int(rng.choice([1, 2, 3, 4, 5]))  # noqa: E731
    batch = [size() for _ in range(nb)]
    contract = [size() for _ in range(nc)]
    lfree = [size() for _ in range(nl)]
    rfree = [size() for _ in range(nr)]
    if int(np.prod(batch + contract + lfree + rfree)) > 600:
        return gen_dot_general(rng)
    lorder = rng.permutation(nb + nc + nl).tolist()
    rorder = rng.permutation(nb + nc + nr).tolist()
    # lorder[k]: the logical dimension at lhs position k (batch, contract, free)
    lsizes = (batch + contract + lfree)
    rsizes = (batch + contract + rfree)
    lshape = tuple(lsizes[i] for i in lorder)
    rshape = tuple(rsizes[i] for i in rorder)
    lpos = {logical: pos for pos, logical in enumerate(lorder)}
    rpos = {logical: pos for pos, logical in enumerate(rorder)}
    lb, rb = [lpos[i] for i in range(nb)], [rpos[i] for i in range(nb)]
    lc, rc = [lpos[nb + i] for i in range(nc)], [rpos[nb + i] for i in range(nc)]
    out = tuple(batch + [lshape[p] for p in sorted(lpos[nb + nc + i] for i in range(nl))] + [rshape[p] for p in sorted(rpos[nb + nc + i] for i in range(nr))])
    result_t = t
    if t.name in ("i8", "i16") and rng.random() < 0.5:
        result_t = TYPES["i32"]
    elif t.name in ("f16", "bf16") and rng.random() < 0.5:
        result_t = TYPES["f32"]
    x, y = values(rng, t, lshape, "exact"), values(rng, t, rshape, "exact")
    dims = "#stablehlo.dot<" + ", ".join(
        f"{k} = {_list(v)}" for k, v in [("lhs_batching_dimensions", lb), ("rhs_batching_dimensions", rb), ("lhs_contracting_dimensions", lc), ("rhs_contracting_dimensions", rc)] if v
    ) + ">"
    attrs = f"dot_dimension_numbers = {dims}"
    if rng.random() < 0.5:
        attrs += f", precision_config = [#stablehlo<precision {rng.choice(_PRECISIONS)}>, #stablehlo<precision {rng.choice(_PRECISIONS)}>]"
    lt, rt, ot = tensor_type(lshape, t.name), tensor_type(rshape, t.name), tensor_type(out, result_t.name)
    body = _Body()
    r = body.op("stablehlo.dot_general", ["%a0", "%a1"], [lt, rt], ot, attrs)
    return Case("dot_general", f"{t.name}->{result_t.name} b{lb}/{rb} c{lc}/{rc}", [x, y], [lt, rt], body.lines, [r], [ot], exact=True)


def gen_convolution(rng: Rng) -> Case:
    t = _pick(rng, ["i1", "i8", "i32", "f16", "bf16", "f32", "f32", "f64", "complex<f32>"])
    ns = int(rng.integers(1, 3))
    groups = int(rng.choice([1, 1, 2]))
    bgroups = 1 if groups > 1 else int(rng.choice([1, 1, 2]))
    batch = int(rng.integers(1, 3)) * bgroups
    fin = int(rng.integers(1, 3)) * groups
    fout = int(rng.integers(1, 3)) * groups * bgroups
    spatial = [int(rng.integers(1, 6)) for _ in range(ns)]
    kernel = [int(rng.integers(1, 4)) for _ in range(ns)]
    strides = [int(rng.integers(1, 3)) for _ in range(ns)]
    ldil = [int(rng.choice([1, 1, 2])) for _ in range(ns)]
    rdil = [int(rng.choice([1, 1, 2])) for _ in range(ns)]
    pads, out_spatial = [], []
    for d in range(ns):
        base = (spatial[d] - 1) * ldil[d] + 1
        span = (kernel[d] - 1) * rdil[d] + 1
        lo = int(rng.integers(-1 if base > 1 else 0, 3))
        hi = int(rng.integers(-1 if base > 1 else 0, 3))
        if base + lo + hi < span:
            hi += span - (base + lo + hi)
        pads.append([lo, hi])
        out_spatial.append((base + lo + hi - span) // strides[d] + 1)
    # Layouts: a random position for every dimension of each operand.
    def layout(letters: list[str]) -> tuple[list[str], list[int]]:
        order = rng.permutation(len(letters)).tolist()
        return [letters[i] for i in order], order

    in_letters, in_order = layout(["b", "f"] + [str(i) for i in range(ns)])
    k_letters, k_order = layout(["o", "i"] + [str(i) for i in range(ns)])
    out_letters, out_order = layout(["b", "f"] + [str(i) for i in range(ns)])
    in_sizes = {"b": batch, "f": fin, **{str(i): spatial[i] for i in range(ns)}}
    k_sizes = {"o": fout, "i": fin // groups, **{str(i): kernel[i] for i in range(ns)}}
    out_sizes = {"b": batch // bgroups, "f": fout, **{str(i): out_spatial[i] for i in range(ns)}}
    ishape = tuple(in_sizes[c] for c in in_letters)
    kshape = tuple(k_sizes[c] for c in k_letters)
    oshape = tuple(out_sizes[c] for c in out_letters)
    if int(np.prod(ishape)) * int(np.prod(kshape)) > 20000:
        return gen_convolution(rng)
    dn = f"#stablehlo.conv<[{', '.join(in_letters)}]x[{', '.join(k_letters)}]->[{', '.join(out_letters)}]>"
    attrs = (
        f"dimension_numbers = {dn}, window_strides = {_array(strides)}, padding = dense<{pads}> : tensor<{ns}x2xi64>, "
        f"lhs_dilation = {_array(ldil)}, rhs_dilation = {_array(rdil)}, feature_group_count = {groups} : i64, batch_group_count = {bgroups} : i64"
    )
    x, w = values(rng, t, ishape, "exact"), values(rng, t, kshape, "exact")
    it, kt, ot = tensor_type(ishape, t.name), tensor_type(kshape, t.name), tensor_type(oshape, t.name)
    body = _Body()
    r = body.op("stablehlo.convolution", ["%a0", "%a1"], [it, kt], ot, attrs)
    return Case("convolution", f"{t.name} {dn} s{strides} p{pads} ld{ldil} rd{rdil} g{groups} bg{bgroups}", [x, w], [it, kt], body.lines, [r], [ot], exact=True)


# ---------------------------------------------------------------------------
# Gather and scatter, with random dimension numbers
# ---------------------------------------------------------------------------


@dataclass
class _IndexedDims:
    operand_shape: tuple[int, ...]
    index_map: list[int]  # start_index_map / scatter_dims_to_operand_dims
    collapsed: list[int]  # collapsed_slice_dims / inserted_window_dims
    operand_batching: list[int]
    indices_batching: list[int]
    index_vector_dim: int
    indices_shape: tuple[int, ...]
    batch_shape: tuple[int, ...]  # the indices' shape without the index vector dimension
    window: list[int]  # slice sizes / window sizes per operand dimension
    offset_dims: list[int]  # offset_dims / update_window_dims
    result_shape: tuple[int, ...]


def _indexed_dims(rng: Rng) -> _IndexedDims:
    rank = int(rng.integers(1, 4))
    operand = _shape(rng, rank=rank, zero=0.0, max_elements=60)
    dims = list(range(rank))
    nbatching = int(rng.integers(0, 2)) if rank > 1 and rng.random() < 0.3 else 0
    operand_batching = sorted(rng.choice(dims, nbatching, replace=False).tolist()) if nbatching else []
    others = [d for d in dims if d not in operand_batching]
    k = int(rng.integers(1, len(others) + 1)) if others else 0
    index_map = [int(v) for v in rng.permutation(others)[:k]]
    collapsed = sorted(d for d in index_map if rng.random() < 0.5)
    nbatch = int(rng.integers(0, 3))
    batch_shape = list(_shape(rng, rank=nbatch, zero=0.03, max_elements=12))
    indices_batching: list[int] = []
    if operand_batching:
        # Each operand batching dimension pairs with one batch dimension of
        # the indices of the same size.
        while len(batch_shape) < len(operand_batching):
            batch_shape.append(1)
        positions = sorted(rng.choice(len(batch_shape), len(operand_batching), replace=False).tolist())
        for p, d in zip(positions, operand_batching):
            batch_shape[p] = operand[d]
        indices_batching_pos = positions
    ivd = int(rng.integers(0, len(batch_shape) + 1))
    vector_implicit = k == 1 and ivd == len(batch_shape) and rng.random() < 0.5
    indices_shape = list(batch_shape)
    if not vector_implicit:
        indices_shape.insert(ivd, k)
    if operand_batching:
        indices_batching = [p + (1 if not vector_implicit and p >= ivd else 0) for p in indices_batching_pos]
    window = []
    for d in dims:
        if d in collapsed or d in operand_batching:
            window.append(1)
        else:
            window.append(int(rng.integers(0 if rng.random() < 0.05 else 1, operand[d] + 1)))
    offsets = [d for d in dims if d not in collapsed and d not in operand_batching]
    result_rank = len(batch_shape) + len(offsets)
    offset_dims = sorted(rng.choice(result_rank, len(offsets), replace=False).tolist()) if offsets else []
    result = [0] * result_rank
    batch_iter = iter(batch_shape)
    offset_iter = iter(window[d] for d in offsets)
    for i in range(result_rank):
        result[i] = next(offset_iter) if i in offset_dims else next(batch_iter)
    return _IndexedDims(tuple(operand), index_map, collapsed, operand_batching, indices_batching, ivd, tuple(indices_shape), tuple(batch_shape), window, offset_dims, tuple(result))


def _start_indices(rng: Rng, d: _IndexedDims, it: ElementType) -> np.ndarray:
    lo = 0 if it.kind == "uint" else -2
    bounds = [d.operand_shape[m] for m in d.index_map]
    out = np.zeros(d.indices_shape, dtype=np.int64)
    k = len(d.index_map)
    flat = out.reshape(-1)
    vector_dim = d.index_vector_dim if len(d.indices_shape) > len(d.batch_shape) else None
    for pos in np.ndindex(*d.indices_shape) if d.indices_shape else [()]:
        which = pos[vector_dim] if vector_dim is not None else 0
        b = bounds[which] if which < k else 1
        out[pos] = rng.integers(lo, b + 2) if rng.random() < 0.3 else rng.integers(0, max(b, 1))
    del flat
    return out.astype(it.dtype)


def gen_gather(rng: Rng) -> Case:
    t = _pick(rng, _ANY)
    d = _indexed_dims(rng)
    it = _pick(rng, ["i32", "i64", "ui32", "i8"] if max(d.operand_shape) < 100 else ["i32", "i64"])
    x = values(rng, t, d.operand_shape)
    idx = _start_indices(rng, d, it)
    fields = [
        ("offset_dims", d.offset_dims), ("collapsed_slice_dims", d.collapsed), ("operand_batching_dims", d.operand_batching),
        ("start_indices_batching_dims", d.indices_batching), ("start_index_map", d.index_map),
    ]
    dn = "#stablehlo.gather<" + ", ".join(f"{k} = {_list(v)}" for k, v in fields if v) + f"{', ' if any(v for _, v in fields) else ''}index_vector_dim = {d.index_vector_dim}>"
    attrs = f"dimension_numbers = {dn}, slice_sizes = {_array(d.window)}, indices_are_sorted = false"
    xt, itt, ot = tensor_type(d.operand_shape, t.name), tensor_type(d.indices_shape, it.name), tensor_type(d.result_shape, t.name)
    body = _Body()
    r = body.op("stablehlo.gather", ["%a0", "%a1"], [xt, itt], ot, attrs)
    return Case("gather", f"{t.name} {dn} sizes {d.window}", [x, idx], [xt, itt], body.lines, [r], [ot], exact=True)


def gen_scatter(rng: Rng) -> Case:
    t = _pick(rng, BOOL + INT + FLOAT + COMPLEX)
    d = _indexed_dims(rng)
    it = _pick(rng, ["i32", "i64", "ui32"])
    x = values(rng, t, d.operand_shape, "exact")
    idx = _start_indices(rng, d, it)
    updates_shape = d.result_shape
    u = values(rng, t, updates_shape, "exact")
    single = int(np.prod(d.batch_shape, dtype=np.int64)) <= 1
    ops = [m for m, (ts, _) in _MONOIDS.items() if t.name in ts and m != "xor"] + (["replace"] if single else [])
    op = str(rng.choice(ops))
    scalar = tensor_type((), t.name)
    if op == "replace":
        region = "{\n  ^bb0(%x0: " + scalar + ", %y0: " + scalar + '):\n    "stablehlo.return"(%y0) : (' + scalar + ") -> ()\n  }"
    else:
        region, _, _ = _monoid_region(rng, [t], op)
    if op in ("maximum", "minimum") and t.kind == "float":
        x, u = values(rng, t, d.operand_shape), values(rng, t, updates_shape)
    fields = [
        ("update_window_dims", d.offset_dims), ("inserted_window_dims", d.collapsed), ("input_batching_dims", d.operand_batching),
        ("scatter_indices_batching_dims", d.indices_batching), ("scatter_dims_to_operand_dims", d.index_map),
    ]
    dn = "#stablehlo.scatter<" + ", ".join(f"{k} = {_list(v)}" for k, v in fields if v) + f"{', ' if any(v for _, v in fields) else ''}index_vector_dim = {d.index_vector_dim}>"
    attrs = f"scatter_dimension_numbers = {dn}, indices_are_sorted = false, unique_indices = false"
    xt, itt, ut = tensor_type(d.operand_shape, t.name), tensor_type(d.indices_shape, it.name), tensor_type(updates_shape, t.name)
    body = _Body()
    r = body.op("stablehlo.scatter", ["%a0", "%a1", "%a2"], [xt, itt, ut], xt, attrs, region)
    return Case("scatter", f"{t.name} {op} {dn}", [x, idx, u], [xt, itt, ut], body.lines, [r], [xt], exact=True)


# ---------------------------------------------------------------------------
# Sort and select_and_scatter
# ---------------------------------------------------------------------------


def gen_sort(rng: Rng) -> Case:
    shape = _shape(rng, rank=int(rng.integers(1, 4)))
    dim = int(rng.integers(0, len(shape)))
    long = rng.random() < 0.35  # long slices (merged, not insertion sorted)
    if long:
        shape = tuple(int(rng.choice([17, 31, 32, 33, 64, 100, 257])) if d == dim else min(n, 3) for d, n in enumerate(shape))
    n = int(rng.integers(1, 4))
    types = [_pick(rng, BOOL + INT + FLOAT) for _ in range(n)]
    if long:  # XLA corrupts its heap sorting long sub-byte slices
        types = [t if t.bits >= 8 or t.kind == "bool" else TYPES["i8" if t.kind == "int" else "ui8"] for t in types]
    nkeys = int(rng.integers(1, n + 1))
    inner = _Body("s")
    i1 = tensor_type((), "i1")
    scalars = [tensor_type((), t.name) for t in types]
    xs = []
    kinds = []
    for i, t in enumerate(types):
        if t.kind == "float":
            kind = str(rng.choice(["FLOAT", "TOTALORDER"]))
        else:
            kind = "UNSIGNED" if t.kind in ("uint", "bool") else "SIGNED"
        kinds.append(kind)
        # Under FLOAT a NaN has no place in the order: keys stay finite.
        x = values(rng, t, shape, "finite" if kind == "FLOAT" and i < nkeys else "any")
        if i < nkeys and t.kind != "bool" and rng.random() < 0.5:
            x = np.take(x.reshape(-1), rng.integers(0, max(x.size, 1), x.size) if x.size else []).reshape(shape).astype(t.dtype)  # repeated keys
        xs.append(x)
    # Lexicographic order over the keys, each ascending or descending.
    decided = None
    directions = [""] * nkeys
    for i in reversed(range(nkeys)):
        direction = directions[i] = str(rng.choice(["LT", "GT"]))
        less = inner.op("stablehlo.compare", [f"%x{i}", f"%y{i}"], [scalars[i]] * 2, i1, f"comparison_direction = #stablehlo<comparison_direction {direction}>, compare_type = #stablehlo<comparison_type {kinds[i]}>")
        if decided is None:
            decided = less
        else:
            eq = inner.op("stablehlo.compare", [f"%x{i}", f"%y{i}"], [scalars[i]] * 2, i1, f"comparison_direction = #stablehlo<comparison_direction EQ>, compare_type = #stablehlo<comparison_type {kinds[i]}>")
            both = inner.op("stablehlo.and", [eq, decided], [i1, i1], i1)
            decided = inner.op("stablehlo.or", [less, both], [i1, i1], i1)
    params = ", ".join(f"%x{i}: {scalars[i]}, %y{i}: {scalars[i]}" for i in range(n))
    region = "{\n  ^bb0(" + params + "):\n" + "".join(f"    {l}\n" for l in inner.lines) + f'    "stablehlo.return"({decided}) : ({i1}) -> ()\n  }}'
    tts = [tensor_type(shape, t.name) for t in types]
    body = _Body()
    result = "(" + ", ".join(tts) + ")" if n > 1 else tts[0]
    # Stable: equal keys keep their order, so every operand has one answer.
    r = body.op("stablehlo.sort", [f"%a{i}" for i in range(n)], tts, result, f"dimension = {dim} : i64, is_stable = true", region)
    if n > 1:
        body.lines[-1] = body.lines[-1].replace(f"{r} =", f"{r}:{n} =", 1)
    results = [f"{r}#{i}" for i in range(n)] if n > 1 else [r]
    case = Case("sort", f"{'+'.join(t.name for t in types)} keys {nkeys} {kinds[:nkeys]} dim {dim}", xs, tts, body.lines, results, tts, exact=True)
    case.model, case.model_name = (lambda *a: _stable_sort(list(a), dim, nkeys, directions, kinds)), "numpy's stable sort"
    if any(t.bits == 2 for t in types):
        # Even two rows of ui2 (seed 61, case 79558): malloc then aborts or,
        # with TVM's crash handler, deadlocks the process.
        case.xla_unsafe = "XLA:CPU's sort of 2-bit elements corrupts its heap"
    return case


def _sort_key(x: np.ndarray, kind: str, direction: str) -> np.ndarray:
    """Integers ordered as the comparator orders `x` ascending."""
    if kind == "TOTALORDER":
        width = x.dtype.itemsize * 8
        bits = x.view(f"uint{width}").astype(object)
        sign = 1 << (width - 1)
        key = np.vectorize(lambda b: -(int(b) & (sign - 1)) - 1 if int(b) & sign else int(b), otypes=[object])(bits) if x.size else bits
    elif kind == "FLOAT":
        key = x.astype(np.float64)
    else:
        key = x.astype(object) if x.dtype.kind in "iu" or x.dtype.name in ("int2", "int4", "uint2", "uint4") else x.astype(np.int64)
        key = np.vectorize(int, otypes=[object])(key) if x.size else key
    ranks = np.unique(key.reshape(-1), return_inverse=True)[1].reshape(x.shape) if x.size else np.zeros(x.shape, np.int64)
    return -ranks if direction == "GT" else ranks


def _stable_sort(xs: list[np.ndarray], dim: int, nkeys: int, directions: list[str], kinds: list[str]) -> list[np.ndarray]:
    keys = [_sort_key(xs[i], kinds[i], directions[i]) for i in range(nkeys)]
    moved = [np.moveaxis(k, dim, -1) for k in keys]
    order = np.lexsort(moved[::-1], axis=-1) if xs[0].size else np.zeros(np.moveaxis(xs[0], dim, -1).shape, np.int64)
    return [np.moveaxis(np.take_along_axis(np.moveaxis(x, dim, -1), order, axis=-1), -1, dim) for x in xs]


def gen_select_and_scatter(rng: Rng) -> Case:
    t = _pick(rng, INT + FLOAT)
    rank = int(rng.integers(1, 4))
    shape = _shape(rng, rank=rank, zero=0.0)
    window, strides, padding, out = [], [], [], []
    for d in shape:
        lo, hi = int(rng.integers(0, 2)), int(rng.integers(0, 2))
        w = int(rng.integers(1, d + lo + hi + 1))
        s = int(rng.integers(1, 3))
        window.append(w)
        strides.append(s)
        padding.append([lo, hi])
        out.append((d + lo + hi - w) // s + 1)
    kind = {"float": "FLOAT", "sint": "SIGNED", "uint": "UNSIGNED"}[t.kind]
    direction = str(rng.choice(["GE", "GT", "LE", "LT"]))
    # Distinct operand values: the selected element is then the same in every
    # order of visiting the window (GE and GT differ only on ties).
    n = int(np.prod(shape))
    x = (rng.permutation(n).reshape(shape) - n // 2).astype(t.dtype) if t.kind != "uint" else rng.permutation(n).reshape(shape).astype(t.dtype)
    if t.bits < 8 or (t.name == "bf16" and n > 256) or (t.kind == "uint" and t.bits == 8 and n > 255) or (t.name == "i8" and n > 255):
        return gen_select_and_scatter(rng)
    source = values(rng, t, tuple(out), "exact")
    init = np.zeros((), t.dtype)
    scalar = tensor_type((), t.name)
    i1 = tensor_type((), "i1")
    select = "{\n  ^bb0(%x: " + scalar + ", %y: " + scalar + "):\n"
    select += f'    %p = "stablehlo.compare"(%x, %y) {{comparison_direction = #stablehlo<comparison_direction {direction}>, compare_type = #stablehlo<comparison_type {kind}>}} : ({scalar}, {scalar}) -> {i1}\n'
    select += f'    "stablehlo.return"(%p) : ({i1}) -> ()\n  }}'
    scatter = "{\n  ^bb0(%x: " + scalar + ", %y: " + scalar + "):\n"
    scatter += f'    %s = "stablehlo.add"(%x, %y) : ({scalar}, {scalar}) -> {scalar}\n'
    scatter += f'    "stablehlo.return"(%s) : ({scalar}) -> ()\n  }}'
    xt, st = tensor_type(shape, t.name), tensor_type(tuple(out), t.name)
    attrs = f"window_dimensions = {_array(window)}, window_strides = {_array(strides)}, padding = dense<{padding}> : tensor<{rank}x2xi64>"
    body = _Body()
    r = body.op("stablehlo.select_and_scatter", ["%a0", "%a1", "%a2"], [xt, st, scalar], xt, attrs, select + ", " + scatter)
    return Case("select_and_scatter", f"{t.name} {direction} w{window} s{strides} p{padding}", [x, source, init], [xt, st, scalar], body.lines, [r], [xt], exact=True)


_FFT_LENGTHS = [1, 2, 3, 4, 5, 7, 8, 12, 16, 31, 64, 65, 96, 100, 127, 128, 243, 256, 257, 1000, 1031, 2048, 4099]


def gen_fft(rng: Rng) -> Case:
    """stablehlo.fft of every type, 1 to 3 axes, lengths short (one DFT
    product) and from 64 points (the runtime's transform): powers of two,
    mixed radices, primes past its radices (Bluestein) and long lines (its
    four steps)."""
    kind = str(rng.choice(["FFT", "IFFT", "RFFT", "IRFFT"]))
    part = str(rng.choice(["f32", "f32", "f64"]))
    naxes = int(rng.choice([1, 1, 1, 2, 3]))
    lengths = [int(rng.choice(_FFT_LENGTHS[:10])) for _ in range(naxes - 1)]
    lengths.append(int(rng.choice(_FFT_LENGTHS)))
    batch = [int(rng.integers(0, 4)) if rng.random() < 0.1 else int(rng.integers(1, 4)) for _ in range(int(rng.integers(0, 3)))]
    if int(np.prod(batch + lengths)) > 20000:
        return gen_fft(rng)
    operand, result = batch + lengths, batch + lengths
    if kind == "RFFT":
        result[-1] = lengths[-1] // 2 + 1
    if kind == "IRFFT":
        operand[-1] = lengths[-1] // 2 + 1
    in_t = part if kind == "RFFT" else f"complex<{part}>"
    out_t = part if kind == "IRFFT" else f"complex<{part}>"
    x = values(rng, TYPES[in_t], tuple(operand), "unit")
    it, ot = tensor_type(tuple(operand), in_t), tensor_type(tuple(result), out_t)
    body = _Body()
    r = body.op("stablehlo.fft", ["%a0"], [it], ot, f"fft_type = #stablehlo<fft_type {kind}>, fft_length = array<i64: {', '.join(map(str, lengths))}>")
    tolerance = 1e-5 if part == "f32" else 1e-13
    return Case("fft", f"{kind} {in_t} {lengths} batch {batch}", [x], [it], body.lines, [r], [ot], norm_tolerance=tolerance)


# ---------------------------------------------------------------------------
# The families and how often each is drawn
# ---------------------------------------------------------------------------

FAMILIES: dict[str, tuple[float, Callable[[Rng], Case]]] = {
    "unary": (6, gen_unary),
    "binary": (6, gen_binary),
    "compare": (2, gen_compare),
    "select": (1, gen_select),
    "clamp": (1, gen_clamp),
    "convert": (3, gen_convert),
    "convert_small_float": (1, gen_convert_small_float),
    "small_float_arithmetic": (1, gen_small_float_arithmetic),
    "bitcast_convert": (1, gen_bitcast_convert),
    "reduce_precision": (1, gen_reduce_precision),
    "expression": (3, gen_expression),
    "map": (2, gen_map),
    "iota": (1, gen_iota),
    "broadcast_in_dim": (1, gen_broadcast_in_dim),
    "reshape": (1, gen_reshape),
    "transpose": (1, gen_transpose),
    "reverse": (1, gen_reverse),
    "slice": (1, gen_slice),
    "pad": (1, gen_pad),
    "concatenate": (1, gen_concatenate),
    "dynamic_slice": (1, gen_dynamic_slice),
    "dynamic_update_slice": (1, gen_dynamic_update_slice),
    "reduce": (3, gen_reduce),
    "reduce_window": (2, gen_reduce_window),
    "dot_general": (3, gen_dot_general),
    "convolution": (2, gen_convolution),
    "gather": (2, gen_gather),
    "scatter": (2, gen_scatter),
    "sort": (2, gen_sort),
    "select_and_scatter": (1, gen_select_and_scatter),
    "fft": (1, gen_fft),
}


def generate(seed: int, index: int, families: list[str] | None = None) -> Case:
    """Case `index` of the run seeded `seed`: the same arguments give the
    same program and inputs on every machine."""
    rng = np.random.default_rng([seed, index])
    names = families or sorted(FAMILIES)
    weights = np.array([FAMILIES[n][0] for n in names], dtype=float)
    family = names[int(rng.choice(len(names), p=weights / weights.sum()))]
    case = FAMILIES[family][1](rng)
    case.notes.append(f"seed {seed} index {index}")
    return case
