"""The spec's integer and boolean elementwise semantics in Python integers:
an exact model of a generated expression (or map body) to tell XLA's
departures from the import's. Widths wrap; division by zero gives -1 and
remainder by zero the dividend; INT_MIN / -1 is INT_MIN; shifts by the
width or more give 0 (or copies of the sign bit)."""

from __future__ import annotations

import re

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


_COMPARE = {"EQ": int.__eq__, "NE": int.__ne__, "LT": int.__lt__, "LE": int.__le__, "GT": int.__gt__, "GE": int.__ge__}


def evaluate(lines: list[str], result: str, leaves: dict[str, np.ndarray], t: ElementType) -> np.ndarray | None:
    """`result` of the ops `lines` (generic form, elementwise, of type `t`
    or i1) with `leaves` bound; None where an op is not modelled."""
    model = _Int(t)
    shape = next(iter(leaves.values())).shape
    env = {name: [int(v) for v in np.asarray(a).reshape(-1).tolist()] for name, a in leaves.items()}
    for line in lines:
        m = _LINE.match(line.strip())
        if not m:
            return None
        name, op, operands, attrs = m.group(1), m.group(2).split(".", 1)[1], [o.strip() for o in m.group(3).split(",") if o.strip()], m.group(4) or ""
        if any(o not in env for o in operands):
            return None
        args = [env[o] for o in operands]
        if op == "compare":
            direction = re.search(r"comparison_direction (\w+)", attrs).group(1)
            env[name] = [int(_COMPARE[direction](a, b)) for a, b in zip(*args)]
        elif op == "select":
            env[name] = [a if p else b for p, a, b in zip(*args)]
        elif len(args) == 1:
            out = [model.unary(op, a) for a in args[0]]
            if any(v is None for v in out):
                return None
            env[name] = out
        elif len(args) == 2:
            out = [model.binary(op, a, b) for a, b in zip(*args)]
            if any(v is None for v in out):
                return None
            env[name] = out
        else:
            return None
    if result not in env:
        return None
    return np.array(env[result], dtype=object).astype(np.int64 if t.kind != "uint" else np.uint64).astype(t.dtype).reshape(shape)
