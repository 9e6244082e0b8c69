"""A 2,200-bit evaluation of generated float and complex elementwise programs
(single ops, expressions, map bodies), element by element with mpmath.

The long-double references in models.py settle most differences, but not
where a formula cancels: complex atan2 is -i log((x + iy) / sqrt(x^2 + y^2))
by the spec, whose imaginary part is the log of a number near 1, and f64 special
functions (erfc, lgamma, digamma, i1e) whose float64 references are
themselves a few ULP off. At 2,200 bits the reference is exact to far below
either side's rounding, so "which side is closer" has an answer.

Elements with a non-finite argument or reference are not evaluated (None):
mpmath does not follow IEEE's or C99 Annex G's special values."""

from __future__ import annotations

import math
import re
from typing import Any, Callable

import numpy as np

from . import models

_BITS = 2200


def _mp():
    import mpmath

    return mpmath


def _table() -> tuple[dict[str, Callable], dict[str, Callable]]:
    mp = _mp()

    def sign(x):
        if isinstance(x, mp.mpc):
            return x / abs(x) if x != 0 else x
        return mp.sign(x)

    def atan2(y, x):
        if isinstance(y, mp.mpc) or isinstance(x, mp.mpc):
            return -1j * mp.log((x + 1j * y) / mp.sqrt(x * x + y * y))
        return mp.atan2(y, x)

    def lgamma(x):
        return mp.inf if x <= 0 and x == mp.floor(x) else mp.log(abs(mp.gamma(x)))

    def digamma(x):
        return mp.nan if x <= 0 and x == mp.floor(x) else mp.digamma(x)

    def cbrt(x):
        return mp.sign(x) * mp.cbrt(abs(x))

    def lexicographic(pick):
        # The spec orders complex numbers by (real, imag).
        def f(x, y):
            key = lambda z: (mp.re(z), mp.im(z))  # noqa: E731
            return pick(x, y, key=key)

        return f

    def power(x, y):
        if isinstance(x, mp.mpc) or isinstance(y, mp.mpc):
            return mp.mpc(1) if x == 0 and y == 0 else mp.exp(y * mp.log(x))
        return mp.power(x, y)

    # compare and select are in evaluate's apply.
    unary = {
        "negate": lambda x: -x, "abs": abs, "sign": sign, "square": lambda x: x * x,
        "exponential": mp.exp, "exponential_minus_one": mp.expm1, "log": mp.log, "log_plus_one": mp.log1p,
        "logistic": lambda x: 1 / (1 + mp.exp(-x)), "sqrt": mp.sqrt, "rsqrt": lambda x: 1 / mp.sqrt(x),
        "cbrt": cbrt, "sine": mp.sin, "cosine": mp.cos, "tan": mp.tan, "tanh": mp.tanh,
        "sinh": mp.sinh, "cosh": mp.cosh, "asin": mp.asin, "acos": mp.acos, "atan": mp.atan,
        "asinh": mp.asinh, "acosh": mp.acosh, "atanh": mp.atanh, "conj": mp.conj,
        "erf": mp.erf, "erfc": mp.erfc, "erf_inv": mp.erfinv,
        "lgamma": lgamma, "digamma": digamma,
        "bessel_i1e": lambda x: mp.besseli(1, x) * mp.exp(-abs(x)),
        "floor": mp.floor, "ceil": mp.ceil,
    }
    binary = {
        "add": lambda x, y: x + y, "subtract": lambda x, y: x - y, "multiply": lambda x, y: x * y,
        "divide": lambda x, y: x / y, "power": power, "atan2": atan2,
        "remainder": mp.fmod, "maximum": lexicographic(max), "minimum": lexicographic(min),
    }
    return unary, binary


def _real_valued(ops: dict[str, Callable]) -> dict[str, Callable]:
    """The table for real programs: an op whose value is complex (sqrt of a
    negative number) gives NaN, as IEEE functions do."""
    mp = _mp()

    def wrap(f):
        def g(*xs):
            v = f(*xs)
            if isinstance(v, mp.mpc):
                return v.real if v.imag == 0 else mp.nan
            return v

        return g

    return {k: wrap(f) for k, f in ops.items()}


_COMPARE = {"EQ": "__eq__", "NE": "__ne__", "LT": "__lt__", "LE": "__le__", "GT": "__gt__", "GE": "__ge__"}


def _exact(x: Any, complex_: bool):
    """`x` as an mpmath number, infinities and NaN kept (see _evaluations:
    which ops take them)."""
    mp = _mp()
    if complex_:
        z = complex(x)
        return mp.mpc(z.real, z.imag)
    return mp.mpf(float(x))


def _parts_of(a) -> list:
    """The real numbers `a` is made of: itself, or a complex one's parts."""
    mp = _mp()
    return [a.real, a.imag] if isinstance(a, mp.mpc) else [a]


def _is_nan(a) -> bool:
    return not isinstance(a, bool) and any(_mp().isnan(p) for p in _parts_of(a))


def _nan(complex_: bool):
    mp = _mp()
    return mp.mpc(mp.nan, mp.nan) if complex_ else mp.nan


def _is_one(a) -> bool:
    """1 to the evaluation's precision (sign(atan2(z, z)) comes out as
    1 + 2^-2000 i or so)."""
    mp = _mp()
    return not _is_nan(a) and mp.isfinite(abs(a)) and abs(a - 1) <= mp.mpf(2) ** -1000


# Ops that order or pick their operands, infinite ones too (the minimum of
# an infinite value and a finite one is the finite one): the rest, given an
# infinity, are not modelled (NaN, any op carries; see _evaluations).
_ORDER_OPS = frozenset(["maximum", "minimum", "select", "compare"])


def _finite(a) -> bool:
    return isinstance(a, bool) or all(_mp().isfinite(p) for p in _parts_of(a))


def evaluate(lines: list[str], result: str, leaves: dict[str, np.ndarray], flat: list[int]) -> list[complex | float | None]:
    """`result` of the elementwise program `lines` (generic form) at the
    flat positions `flat`, each rounded to float64 (complex128) from 200
    bits; None where the program is not modelled there."""
    complex_ = any(np.iscomplexobj(a) for a in leaves.values())
    return [_rounded(value, complex_) for value in _evaluations(lines, result, leaves, flat, None)]


# What `evaluate_typed` gives where an op meets its singularity: a pole or
# an indeterminate form (atan2 at x^2 + y^2 = 0) of operands in the type.
SINGULAR = "singular"


def evaluate_typed(lines: list[str], result: str, leaves: dict[str, np.ndarray], flat: list[int], real_dtype) -> list:
    """`result` at the flat positions `flat`, each op evaluated at 2,200
    bits from operands in the type and its value rounded to the type (each
    part to `real_dtype`; beyond the range, an infinity), as the spec types
    every op's result: the long-double model's typed form, without its
    cancellations (complex atan2 near 1 cancels in long double). SINGULAR
    where an op meets a pole or an indeterminate form of such operands;
    None where the program is not modelled (an infinite operand)."""
    complex_ = any(np.iscomplexobj(a) for a in leaves.values())
    return [
        value if value is SINGULAR else _rounded(value, complex_)
        for value in _evaluations(lines, result, leaves, flat, None, rounded_to=np.dtype(real_dtype))
    ]


def _in_type(value, real_dtype):
    """`value` rounded to the type, part by part (2,200 bits to float64 to
    the type: the double rounding is below the judge's ULPs)."""
    mp = _mp()
    if isinstance(value, bool):
        return value

    def part(p):
        with np.errstate(over="ignore", under="ignore"):
            return mp.mpf(float(np.float64(float(p)).astype(real_dtype)))

    if isinstance(value, mp.mpc):
        return mp.mpc(part(value.real), part(value.imag))
    return part(value)


def beyond_range(lines: list[str], result: str, leaves: dict[str, np.ndarray], flat: list[int], largest: float, intermediates: bool = False) -> list[bool]:
    """Whether, at each of the flat positions `flat`, an op of `lines`
    (the result's included unless `intermediates`) has an exact value with
    a part beyond `largest` (the type's largest finite value): evaluated in
    the type, that op overflows, whatever the result's exact value is."""
    mp = _mp()
    found = [False] * len(flat)
    current = [0]

    def watch(name: str, value, op: str, operands: list) -> None:
        if isinstance(value, bool) or (intermediates and name == result):
            return
        parts = (value.real, value.imag) if isinstance(value, mp.mpc) else (value,)
        if any(mp.isinf(p) or abs(p) > largest for p in parts):
            found[current[0]] = True

    for _ in _evaluations(lines, result, leaves, flat, watch, current):
        pass
    return found


# Complex ops and the part of the real axis their branch cut lies on
# (operand index, lowest, highest): there the value depends on the sign of
# the operand's zero imaginary part.
_BRANCH_CUTS = {
    "sqrt": (0, -math.inf, 0), "rsqrt": (0, -math.inf, 0), "log": (0, -math.inf, 0),
    "log_plus_one": (0, -math.inf, -1), "power": (0, -math.inf, 0), "cbrt": (0, -math.inf, 0),
}


def on_branch_cut(lines: list[str], result: str, leaves: dict[str, np.ndarray], flat: list[int]) -> list[bool]:
    """Whether, at each of the flat positions `flat`, a complex op of
    `lines` takes an exact operand on its branch cut (real, with an exactly
    zero imaginary part, on the cut's side): evaluated in any precision its
    value, and the result's, turns on that zero's sign, which the exact
    evaluation does not have."""
    mp = _mp()
    found = [False] * len(flat)
    current = [0]

    def watch(name: str, value, op: str, operands: list) -> None:
        cut = _BRANCH_CUTS.get(op)
        if cut is None or len(operands) <= cut[0]:
            return
        z = operands[cut[0]]
        # Zero to the evaluation's precision (a formula's exact zero comes
        # out as 2^-2000 or so).
        if isinstance(z, mp.mpc) and abs(z.imag) <= abs(z) * mp.mpf(2) ** -1000 and cut[1] < z.real < cut[2]:
            found[current[0]] = True

    for _ in _evaluations(lines, result, leaves, flat, watch, current):
        pass
    return found


# Ops whose value needs no rounding: perturbing them tells nothing.
_EXACT_OPS = frozenset(["negate", "abs", "conj", "select", "compare", "sign", "floor", "ceil", "maximum", "minimum", "real", "imag"])


def rounding_spread(lines: list[str], result: str, leaves: dict[str, np.ndarray], flat: list[int], eps: float) -> list[float | None]:
    """At each of the flat positions `flat`: how far the result moves,
    relative to its exact value, when each rounded op's value (each part
    of a complex one) is moved by `eps` of itself (times what the op itself
    must round inside: _inner_condition), one at a time, summed: the
    first-order spread of an evaluation that rounds every op once (a
    composite's condition). None where the result is not modelled, zero or
    not finite."""
    mp = _mp()
    complex_ = any(np.iscomplexobj(a) for a in leaves.values())
    ops = [parsed[1] if parsed else None for parsed in models._ops(lines)]
    # A complex sign (z / |z|) and abs (a hypotenuse) are rounded.
    exact_ops = _EXACT_OPS - {"sign", "abs"} if complex_ else _EXACT_OPS
    rounded_ops = [j for j, op in enumerate(ops) if op is not None and op not in exact_ops]
    with mp.workprec(_BITS):
        exact = list(_evaluations(lines, result, leaves, flat, None))
        spread = [mp.mpf(0)] * len(flat)
        for j in rounded_ops:
            for part in ((0, 1) if complex_ else (0,)):
                def perturb(index, value, op, args, j=j, part=part):
                    if index != j or isinstance(value, bool):
                        return value
                    step = eps * _inner_condition(op, args)
                    if isinstance(value, mp.mpc):
                        return mp.mpc(value.real * (1 + step), value.imag) if part == 0 else mp.mpc(value.real, value.imag * (1 + step))
                    return value * (1 + step)

                for i, moved in enumerate(_evaluations(lines, result, leaves, flat, None, None, perturb)):
                    if exact[i] is not None and moved is not None and not isinstance(moved, bool):
                        spread[i] += abs(moved - exact[i])
        out: list[float | None] = []
        for value, total in zip(exact, spread):
            if value is None or isinstance(value, bool) or value == 0 or not mp.isfinite(abs(value)):
                out.append(None)
            else:
                out.append(float(total / abs(value)))
    return out


def _inner_condition(op: str, args: list) -> float:
    """How many of its own epsilons an op's value is off when evaluated in
    the type from exact operands: 1 for most; a complex power carries the
    rounding of y log x (|c| + |d|)(|log|x|| + |arg x|) + |y log x| times
    (ulp(v) <= eps |v|; difftest.ops._complex_power_bound in ULPs), digamma
    below 1/2 its reflection's cancelling terms."""
    mp = _mp()
    try:
        if op == "power" and any(isinstance(a, mp.mpc) for a in args):
            x, y = mp.mpc(args[0]), mp.mpc(args[1])
            if x == 0:
                return 1.0
            log_x = mp.log(x)
            w = y * log_x
            return float((abs(y.real) + abs(y.imag)) * (abs(log_x.real) + abs(log_x.imag)) + abs(w.real) + abs(w.imag) + 4)
        if op == "digamma" and not isinstance(args[0], mp.mpc) and args[0] < mp.mpf(0.5):
            x = args[0]
            value = abs(mp.digamma(x))
            if value == 0:
                return 1.0
            return float(2 * (abs(mp.digamma(1 - x)) + abs(mp.pi * mp.cot(mp.pi * x))) / value + 4)
    except (ValueError, ZeroDivisionError, OverflowError):
        return 1.0
    return 1.0


# Operands beyond 2^4096 (no float's range reaches 2^1024) are not modelled.
_HUGE_BITS = 4096


def _evaluations(lines, result, leaves, flat, watch, current=None, perturb=None, rounded_to=None):
    """The 2,200-bit values of `result` at `flat` (None where not
    modelled); `watch(name, value, op, operands)` sees every op's value,
    and `perturb(op index, value, op, operands)`, where given, replaces it.
    `rounded_to` (a real dtype): each op's value rounded to the type, and an op
    at a singularity of finite operands yields SINGULAR (see `evaluate_typed`)."""
    mp = _mp()
    unary, binary = _table()
    complex_ = any(np.iscomplexobj(a) for a in leaves.values())
    if not complex_:
        unary, binary = _real_valued(unary), _real_valued(binary)
    # Only the leaves the program reads.
    text = "\n".join(lines)
    used = {name: a for name, a in leaves.items() if re.search(re.escape(name) + r"\b", text)}
    with mp.workprec(_BITS):
        for i, k in enumerate(flat):
            if current is not None:
                current[0] = i
            env = {name: _exact(np.asarray(a).reshape(-1)[k], complex_) for name, a in used.items()}

            def compute(op: str, args: list, attrs: str):
                # Far beyond any float's range (an exp of an exp): not
                # modelled, as reducing it for a trigonometric function
                # would take pi to millions of digits.
                if any(not isinstance(a, bool) and a != 0 and mp.isfinite(abs(a)) and mp.mag(a) > _HUGE_BITS for a in args):
                    return None
                if op == "power" and (_is_one(args[0]) or (not _is_nan(args[1]) and args[1] == 0)):
                    # 1^y and x^0 are 1 whatever the other operand, NaN
                    # included (pow's rule, the import's and XLA's).
                    return mp.mpc(1) if complex_ else mp.mpf(1)
                if any(_is_nan(a) for a in args):
                    # NaN in, NaN out (IEEE), for the rule above to meet.
                    if op == "compare":
                        return models._direction(attrs) == "NE"
                    if op != "select":
                        return _nan(complex_)
                elif op not in _ORDER_OPS and not all(_finite(a) for a in args):
                    return None
                if op == "compare":
                    return getattr(args[0], _COMPARE[models._direction(attrs)])(args[1])
                if op == "select":
                    return args[1] if args[0] else args[2]
                table = unary if len(args) == 1 else binary
                if op not in table:
                    return None
                try:
                    value = table[op](*args)
                except (ValueError, ZeroDivisionError, OverflowError):
                    if rounded_to is not None and op != "remainder":
                        raise _Singular from None
                    return None
                if rounded_to is None or isinstance(value, bool):
                    return value
                if not _finite(value) and not _is_nan(value):
                    raise _Singular  # a pole: finite operands, an infinite value
                return _in_type(value, rounded_to)

            index = [-1]

            def apply(op: str, args: list, attrs: str):
                index[0] += 1
                value = compute(op, args, attrs)
                return value if perturb is None or value is None else perturb(index[0], value, op, args)

            try:
                value = models._run(lines, result, env, apply, watch)
            except _Singular:
                yield SINGULAR
                continue
            # A NaN result is not modelled (the rules compare with numbers).
            yield None if value is None or _is_nan(value) else value


class _Singular(Exception):
    """An op of a typed evaluation at a pole or an indeterminate form."""


def _rounded(value, complex_: bool) -> complex | float | None:
    """The value rounded to float64 (complex128): beyond the range, an
    infinity, as rounding to the type gives; None where it is NaN or not a
    number at all."""
    mp = _mp()
    if value is None or isinstance(value, bool):
        return None
    try:
        if complex_:
            z = complex(mp.mpc(value))
            return None if math.isnan(z.real) or math.isnan(z.imag) else z
        v = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(v) else v
