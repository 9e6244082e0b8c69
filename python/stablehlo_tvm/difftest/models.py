"""Models of generated elementwise programs (expressions, map bodies, single
ops), to tell XLA's departures from the import's.

Integers and booleans: the spec's semantics in Python integers, exact.
Widths wrap; division by zero gives -1 and remainder by zero the dividend;
INT_MIN / -1 is INT_MIN; shifts by the width or more give 0 (or copies of
the sign bit). Floats: each op in long double from exact inputs, a
reference a few orders of magnitude closer than either side."""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np

from .types import ElementType

_LINE = re.compile(r'(%\w+) = "([\w.]+)"\(([^)]*)\)(?: \{(.*)\})? :')


class _Int:
    def __init__(self, t: ElementType):
        self.bits = 1 if t.kind == "bool" else t.bits
        self.signed = t.kind == "sint"
        self.mask = (1 << self.bits) - 1

    def wrap(self, v: int) -> int:
        v &= self.mask
        if self.signed and v >> (self.bits - 1):
            v -= 1 << self.bits
        return v

    def pattern(self, v: int) -> int:
        return v & self.mask

    def unary(self, op: str, x: int) -> int | None:
        if op == "not":
            return self.wrap(~x)
        if op == "negate":
            return self.wrap(-x)
        if op == "abs":
            return self.wrap(abs(x))
        if op == "sign":
            return (x > 0) - (x < 0)
        if op == "popcnt":
            return bin(self.pattern(x)).count("1")
        if op == "count_leading_zeros":
            return self.bits - self.pattern(x).bit_length()
        return None

    def binary(self, op: str, x: int, y: int) -> int | None:
        w = self.wrap
        if self.bits == 1:  # booleans: add is or, multiply is and
            op = {"add": "or", "multiply": "and", "maximum": "or", "minimum": "and"}.get(op, op)
        if op == "add":
            return w(x + y)
        if op == "subtract":
            return w(x - y)
        if op == "multiply":
            return w(x * y)
        if op in ("divide", "remainder"):
            if y == 0:
                return w(-1) if op == "divide" else x
            if self.signed and x == -(1 << (self.bits - 1)) and y == -1:
                return x if op == "divide" else 0
            q = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
            return w(q) if op == "divide" else w(x - q * y)
        if op == "maximum":
            return max(x, y)
        if op == "minimum":
            return min(x, y)
        if op == "and":
            return w(x & y)
        if op == "or":
            return w(x | y)
        if op == "xor":
            return w(x ^ y)
        amount = self.pattern(y)
        if op == "shift_left":
            return 0 if amount >= self.bits else w(x << amount)
        if op == "shift_right_logical":
            return 0 if amount >= self.bits else w(self.pattern(x) >> amount)
        if op == "shift_right_arithmetic":
            signed = self.pattern(x) - ((1 << self.bits) if self.pattern(x) >> (self.bits - 1) else 0)
            return w(signed >> min(amount, self.bits - 1))
        return None


def _ops(lines: list[str]):
    """(result name, op name without dialect, operand names, attributes) of
    each generic-form line; None for a line of another form."""
    for line in lines:
        m = _LINE.match(line.strip())
        if not m:
            yield None
            continue
        operands = [o.strip() for o in m.group(3).split(",") if o.strip()]
        yield m.group(1), m.group(2).split(".", 1)[1], operands, m.group(4) or ""


def _run(lines: list[str], result: str, env: dict[str, Any], apply: Callable[[str, list, str], Any], watch: Callable[[str, Any, str, list], None] | None = None) -> Any:
    """`result` of `lines` with `env` bound, each op computed by
    `apply(op, args, attrs)` (None: not modelled, and so is the program);
    `watch(name, value, op, operand values)`, where given, sees each op."""
    for parsed in _ops(lines):
        if parsed is None:
            return None
        name, op, operands, attrs = parsed
        if any(o not in env for o in operands):
            return None
        value = apply(op, [env[o] for o in operands], attrs)
        if value is None:
            return None
        if watch is not None:
            watch(name, value, op, [env[o] for o in operands])
        env[name] = value
    return env.get(result)


def _direction(attrs: str) -> str:
    return re.search(r"comparison_direction (\w+)", attrs).group(1)


_COMPARE = {"EQ": int.__eq__, "NE": int.__ne__, "LT": int.__lt__, "LE": int.__le__, "GT": int.__gt__, "GE": int.__ge__}


def evaluate(lines: list[str], result: str, leaves: dict[str, np.ndarray], t: ElementType) -> np.ndarray | None:
    """`result` of the ops `lines` (generic form, elementwise, of type `t`
    or i1) with `leaves` bound; None where an op is not modelled."""
    model = _Int(t)
    shape = next(iter(leaves.values())).shape
    env = {name: [int(v) for v in np.asarray(a).reshape(-1).tolist()] for name, a in leaves.items()}

    def apply(op: str, args: list, attrs: str) -> list | None:
        if op == "compare":
            return [int(_COMPARE[_direction(attrs)](a, b)) for a, b in zip(*args)]
        if op == "select":
            return [a if p else b for p, a, b in zip(*args)]
        if len(args) == 1:
            out = [model.unary(op, a) for a in args[0]]
        elif len(args) == 2:
            out = [model.binary(op, a, b) for a, b in zip(*args)]
        else:
            return None
        return None if any(v is None for v in out) else out

    values = _run(lines, result, env, apply)
    if values is None:
        return None
    return np.array(values, dtype=object).astype(np.int64 if t.kind != "uint" else np.uint64).astype(t.dtype).reshape(shape)


def atan2(y, x):
    """The spec's atan2; of complex operands -i log((x + iy) / sqrt(x^2 + y^2))."""
    if np.iscomplexobj(y) or np.iscomplexobj(x):
        return -1j * np.log((x + 1j * y) / np.sqrt(x * x + y * y))
    return np.arctan2(y, x)


def _float_ops():
    """numpy's functions for the float ops of the table, which accept long
    double (scipy's special functions compute in float64)."""
    import scipy.special as sp

    with_f64 = lambda f: (lambda x: np.asarray(f(np.asarray(x).astype(np.complex128 if np.iscomplexobj(x) else np.float64))))  # noqa: E731
    unary = {
        "abs": np.abs, "negate": np.negative, "sign": np.sign, "exponential": np.exp, "exponential_minus_one": np.expm1,
        "log": np.log, "log_plus_one": np.log1p, "logistic": lambda x: 1 / (1 + np.exp(-x)), "sqrt": np.sqrt,
        "rsqrt": lambda x: 1 / np.sqrt(x), "cbrt": np.cbrt, "sine": np.sin, "cosine": np.cos, "tan": np.tan, "tanh": np.tanh,
        "floor": np.floor, "ceil": np.ceil, "round_nearest_even": np.rint,
        "round_nearest_afz": lambda x: np.where(np.abs(x - np.trunc(x)) == 0.5, x + np.sign(x) * 0.5, np.rint(x)),
        "sinh": np.sinh, "cosh": np.cosh, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
        "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh, "square": np.square, "conj": np.conj,
        "erf": with_f64(sp.erf), "erfc": with_f64(sp.erfc), "erf_inv": with_f64(sp.erfinv), "lgamma": with_f64(sp.gammaln),
        "digamma": with_f64(sp.digamma), "bessel_i1e": with_f64(sp.i1e),
    }
    binary = {
        "add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide, "remainder": np.fmod,
        "power": np.power, "maximum": np.maximum, "minimum": np.minimum, "atan2": atan2,
    }
    return unary, binary


_FLOAT_COMPARE = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal, "GT": np.greater, "GE": np.greater_equal}


def evaluate_float(lines: list[str], result: str, leaves: dict[str, np.ndarray], rounded_to: Any = None) -> np.ndarray | None:
    """`result` of the float or complex ops `lines`, each computed in long
    double from the leaves' exact values (no rounding in between, but
    that of long double; with `rounded_to`, each op's value rounded to that
    type, as the spec types every op's result); None where an op is not
    modelled."""
    unary, binary = _float_ops()
    env = {}
    for name, a in leaves.items():
        a = np.asarray(a)
        env[name] = a.astype(np.clongdouble if np.iscomplexobj(a) else np.longdouble)

    def apply(op: str, args: list, attrs: str) -> np.ndarray | None:
        try:
            if op == "compare":
                return _FLOAT_COMPARE[_direction(attrs)](*args)
            if op == "select":
                return np.where(*args)
            if len(args) == 1 and op in unary:
                return np.asarray(unary[op](args[0]))
            if len(args) == 2 and op in binary:
                return np.asarray(binary[op](*args))
        except TypeError:  # no such function for these types
            pass
        return None

    def apply_rounded(op: str, args: list, attrs: str) -> np.ndarray | None:
        value = apply(op, args, attrs)
        if value is None or value.dtype == bool:
            return value
        return value.astype(rounded_to).astype(value.dtype)

    with np.errstate(all="ignore"):
        return _run(lines, result, env, apply if rounded_to is None else apply_rounded)
