"""Element types of the StableHLO spec as the differential tester uses them:
the MLIR spelling, the numpy dtype arguments travel in, and random values
that reach each type's edge cases (NaN, signed zero, infinities, subnormals,
the extreme integers)."""

from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np


@dataclass(frozen=True)
class ElementType:
    name: str  # as MLIR spells it: i32, ui8, bf16, complex<f32>
    dtype: np.dtype
    kind: str  # "bool", "sint", "uint", "float", "complex"
    bits: int

    @property
    def is_int(self) -> bool:
        return self.kind in ("sint", "uint")

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def part(self) -> "ElementType":
        """A complex type's component type; any other type itself."""
        return TYPES["f32" if self.name == "complex<f32>" else "f64"] if self.kind == "complex" else self


def _t(name: str, dtype, kind: str, bits: int) -> ElementType:
    return ElementType(name, np.dtype(dtype), kind, bits)


TYPES: dict[str, ElementType] = {
    t.name: t
    for t in [
        _t("i1", np.bool_, "bool", 1),
        _t("i2", ml_dtypes.int2, "sint", 2),
        _t("i4", ml_dtypes.int4, "sint", 4),
        _t("i8", np.int8, "sint", 8),
        _t("i16", np.int16, "sint", 16),
        _t("i32", np.int32, "sint", 32),
        _t("i64", np.int64, "sint", 64),
        _t("ui2", ml_dtypes.uint2, "uint", 2),
        _t("ui4", ml_dtypes.uint4, "uint", 4),
        _t("ui8", np.uint8, "uint", 8),
        _t("ui16", np.uint16, "uint", 16),
        _t("ui32", np.uint32, "uint", 32),
        _t("ui64", np.uint64, "uint", 64),
        _t("f16", np.float16, "float", 16),
        _t("bf16", ml_dtypes.bfloat16, "float", 16),
        _t("f32", np.float32, "float", 32),
        _t("f64", np.float64, "float", 64),
        _t("complex<f32>", np.complex64, "complex", 64),
        _t("complex<f64>", np.complex128, "complex", 128),
    ]
}

# The 8-bit and narrower floats: storage types, converted to and from.
SMALL_FLOATS: dict[str, ElementType] = {
    t.name: t
    for t in [
        _t("f8E4M3FN", ml_dtypes.float8_e4m3fn, "float", 8),
        _t("f8E5M2", ml_dtypes.float8_e5m2, "float", 8),
        _t("f8E4M3FNUZ", ml_dtypes.float8_e4m3fnuz, "float", 8),
        _t("f8E5M2FNUZ", ml_dtypes.float8_e5m2fnuz, "float", 8),
        _t("f8E4M3B11FNUZ", ml_dtypes.float8_e4m3b11fnuz, "float", 8),
        _t("f8E3M4", ml_dtypes.float8_e3m4, "float", 8),
        _t("f8E4M3", ml_dtypes.float8_e4m3, "float", 8),
        _t("f8E8M0FNU", ml_dtypes.float8_e8m0fnu, "float", 8),
        _t("f4E2M1FN", ml_dtypes.float4_e2m1fn, "float", 4),
    ]
}

BOOL = ["i1"]
SINT = ["i2", "i4", "i8", "i16", "i32", "i64"]
UINT = ["ui2", "ui4", "ui8", "ui16", "ui32", "ui64"]
INT = SINT + UINT
FLOAT = ["f16", "bf16", "f32", "f64"]
COMPLEX = ["complex<f32>", "complex<f64>"]


def tensor_type(shape: tuple[int, ...], element: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


def _int_range(t: ElementType) -> tuple[int, int]:
    if t.kind == "sint":
        return -(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1
    return 0, (1 << t.bits) - 1


def _float_specials(t: ElementType) -> list[float]:
    info = ml_dtypes.finfo(t.dtype)
    tiny, smallest = float(info.smallest_normal), float(info.smallest_subnormal)
    big = float(info.max)
    return [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, tiny, -tiny, smallest, -smallest * 3, big, -big, 2.0, np.pi]


def values(rng: np.random.Generator, t: ElementType, shape: tuple[int, ...], style: str = "any") -> np.ndarray:
    """Random values of type `t`. `style`:
    "any": mostly ordinary values with about one element in six special;
    "exact": small integers (sums and products of a few stay exact in
    every float type, so results do not depend on evaluation order);
    "finite": like "any" without NaN or infinities;
    "unit": in [-1, 1] (no specials);
    "positive": ordinary positive values."""
    n = int(np.prod(shape, dtype=np.int64))
    if t.kind == "complex":
        out = np.empty(shape, t.dtype)
        out.real = values(rng, t.part, shape, style)
        out.imag = values(rng, t.part, shape, style)
        return out
    if t.kind == "bool":
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    if t.is_int:
        lo, hi = _int_range(t)
        if style == "exact":
            small = rng.integers(max(lo, -3), min(hi, 3) + 1, n)
            return small.astype(t.dtype).reshape(shape)
        if style == "positive":
            lo = 1
        out = rng.integers(max(lo, -12), min(hi, 12) + 1, n).astype(np.int64)
        full = rng.random(n) < 0.3
        if full.any():
            wide = rng.integers(lo, hi, full.sum(), endpoint=True, dtype=np.uint64 if t.kind == "uint" and t.bits == 64 else np.int64)
            out = out.astype(object)
            out[full] = [int(v) for v in wide]
        edge = rng.random(n) < 0.1
        if edge.any():
            out = np.asarray(out, dtype=object)
            edges = [lo, hi, 0, 1, lo + 1, hi - 1] if style != "positive" else [hi, 1]
            out[edge] = [edges[int(k)] for k in rng.integers(0, len(edges), edge.sum())]
        return np.array([int(v) for v in np.asarray(out).ravel()], dtype=object).astype(t.dtype).reshape(shape) if n else np.zeros(shape, t.dtype)
    # floats
    if style == "exact":
        return rng.integers(-3, 4, n).astype(np.float64).astype(t.dtype).reshape(shape)
    if style == "unit":
        return rng.uniform(-1, 1, n).astype(t.dtype).reshape(shape)
    scale = rng.choice([1.0, 4.0, 100.0], n)
    out = rng.standard_normal(n) * scale
    if style == "positive":
        out = np.abs(out) + 0.01
    elif style in ("any", "finite"):
        special = rng.random(n) < 1 / 6
        choices = [v for v in _float_specials(t) if style == "any" or np.isfinite(v)]
        if special.any():
            out[special] = rng.choice(choices, special.sum())
    with np.errstate(over="ignore"):
        return out.astype(t.dtype).reshape(shape)


def mlir_literal(value: np.ndarray, t: ElementType) -> str:
    """`value` as a dense elements literal of type `t` (exact bits)."""
    value = np.ascontiguousarray(value)
    if t.kind == "bool" or (t.is_int and t.bits < 8):
        spell = (lambda v: "true" if v else "false") if t.kind == "bool" else (lambda v: str(int(v)))

        def nested(a: np.ndarray) -> str:
            return "[" + ", ".join(nested(x) for x in a) + "]" if a.ndim else spell(a)

        return f"dense<{nested(value)}>"
    return 'dense<"0x' + value.reshape(-1).tobytes().hex().upper() + '">'
