"""Runs generated programs on XLA:CPU and through the import, compares the
results, explains or reduces each difference, and reports.

Programs run in batches: one module whose @main calls every case of the
batch (each a private function), compiled once by XLA and once by TVM. A
batch the import refuses, or that fails to build or run, is retried case
by case, so every verdict belongs to one program; a worker that dies or
hangs has its batch retried the same way in a new worker.
"""

from __future__ import annotations

import os
import re
import sys
import time
from typing import Any, Callable

import numpy as np

from .. import workers
from ..conformance import ulp_distance
from .ops import Case, generate

_MODULE = "stablehlo_tvm.difftest"
from .types import TYPES, ElementType, mlir_literal

# ---------------------------------------------------------------------------
# Comparison
# ---------------------------------------------------------------------------


def _parts(x: np.ndarray) -> list[np.ndarray]:
    return [x.real, x.imag] if np.iscomplexobj(x) else [x]


def _ulps(a: np.ndarray, e: np.ndarray) -> np.ndarray:
    return ulp_distance(a, e).astype(np.float64)


def _is_float(x: np.ndarray) -> bool:
    return x.dtype.kind in "fc" or x.dtype.name in ("bfloat16",) or x.dtype.name.startswith("float8")


def mismatches(actual: np.ndarray, expected: np.ndarray, exact: bool) -> np.ndarray:
    """Elements of `actual` that differ from `expected`: integers exactly;
    floats bit for bit (`exact`) or within 3 ULP, NaN matching NaN and
    non-finite values matching exactly; complex numbers part by part."""
    if not _is_float(expected):
        return actual != expected
    bad = np.zeros(expected.shape, dtype=bool)
    for a, e in zip(_parts(actual), _parts(expected)):
        a64, e64 = a.astype(np.float64), e.astype(np.float64)
        both_nan = np.isnan(a64) & np.isnan(e64)
        finite = np.isfinite(a64) & np.isfinite(e64)
        if exact:
            differ = ulp_distance(a, e) != 0
        else:
            differ = np.where(finite, _ulps(a, e) > 3, a64 != e64)
        bad |= np.asarray(differ, dtype=bool) & ~both_nan
    return bad


def normwise_mismatches(actual: np.ndarray, expected: np.ndarray, tolerance: float) -> np.ndarray:
    """Elements farther from `expected` than `tolerance` times its largest
    finite magnitude; non-finite values must match (NaN matching NaN)."""
    a, e = actual.astype(np.complex128), expected.astype(np.complex128)
    finite = np.isfinite(a) & np.isfinite(e)
    scale = float(np.max(np.abs(e[finite]), initial=0.0))
    bad = np.where(finite, np.abs(a - e) > tolerance * scale, False)
    both_nan = np.isnan(a) & np.isnan(e)
    return bad | (~finite & ~both_nan & (a != e))


def _subnormal(x: np.ndarray) -> np.ndarray:
    """Values XLA:CPU flushes: subnormal in their own type or, for types
    narrower than float32, in float32, which XLA computes them in (2^-127,
    f8E8M0FNU's smallest value, is a float32 subnormal: flushed to zero,
    which that type cannot hold, it becomes NaN)."""
    out = np.zeros(x.shape, dtype=bool)
    if not _is_float(x):
        return out
    import ml_dtypes

    for p in _parts(x):
        tiny = float(ml_dtypes.finfo(p.dtype).smallest_normal)
        if p.dtype.itemsize < 4:
            tiny = max(tiny, float(np.finfo(np.float32).smallest_normal))
        v = np.abs(p.astype(np.float64))
        out |= (v > 0) & (v < tiny)
    return out


def explain(case: Case, actual: np.ndarray, expected: np.ndarray, bad: np.ndarray) -> str | None:
    """Why the differing elements differ, when every one of them has a
    known reason; None otherwise.

    - "XLA flushes subnormals": XLA:CPU runs with denormals flushed to
      zero. Differences where XLA's result is zero and ours subnormal, or
      where an argument of an elementwise op is subnormal.
    - "XLA less accurate": an elementwise op with a float64 reference
      where the import's result is within 3 ULP of the reference and
      XLA's is not.
    """
    reasons = []
    remaining = bad.copy()
    if case.spec_departure is not None:
        spec, why = case.spec_departure(case.args, actual, expected)
        if (remaining & spec).any():
            reasons.append(why)
            remaining &= ~spec
    elementwise = all(a.shape == expected.shape for a in case.args) and case.args
    flushed = np.zeros_like(bad)
    if _is_float(expected):
        # Part by part: each differing part is XLA's zero where ours is
        # subnormal (or the parts agree).
        flushed = np.ones_like(bad)
        for a, e in zip(_parts(actual), _parts(expected)):
            same = ~mismatches(a, e, case.exact)
            zero = e == 0
            if e.dtype.name == "float8_e8m0fnu":
                # No zero in the type: XLA's flushed result is NaN.
                zero = np.isnan(e.astype(np.float32))
            flushed &= same | (_subnormal(a) & zero)
    if elementwise:
        for a in case.args:
            if _is_float(a):
                flushed = flushed | _subnormal(a)
    if (remaining & flushed).any():
        reasons.append("XLA flushes subnormals")
        remaining &= ~flushed
    if remaining.any() and case.reference is not None and elementwise and _is_float(expected):
        ref = None
        # x86's 80-bit long double first: float64 references are themselves
        # a few ULP off for f64 results.
        for real, complex_ in ((np.longdouble, np.clongdouble), (np.float64, np.complex128)):
            wide = [a.astype(complex_ if np.iscomplexobj(a) else real) for a in case.args]
            try:
                with np.errstate(all="ignore"):
                    ref = np.asarray(case.reference(*wide)).astype(expected.dtype)
                break
            except TypeError:  # no such function for these types
                continue
        if ref is None:
            return "; ".join(reasons) if reasons and not remaining.any() else None
        ours_good = ~mismatches(actual, ref, exact=False)
        xla_bad = mismatches(expected, ref, exact=False)
        # Neither within 3 ULP: the import no further from the reference.
        no_worse = np.ones_like(bad)
        for a, e, r in zip(_parts(actual), _parts(expected), _parts(ref)):
            # (XLA's NaN or infinity is no distance to be as close as.)
            xla_finite = np.isfinite(e.astype(np.float64))
            no_worse &= ((_ulps(a, r) <= _ulps(e, r)) & xla_finite) | ~mismatches(a, e, case.exact)
        if (remaining & ours_good & xla_bad).any():
            reasons.append("XLA further than 3 ULP from a long-double reference, the import within")
        if (remaining & ours_good & ~xla_bad).any():
            reasons.append("both within 3 ULP of a long-double reference, on either side")
        if (remaining & ~ours_good & no_worse).any():
            reasons.append("both further than 3 ULP from a long-double reference, the import no further")
        remaining &= ~(ours_good | no_worse)
    if remaining.any() and case.float_model is not None and _is_float(expected):
        ref = _model_values(case.float_model, case.args, expected)
        if ref is not None:
            closer = np.ones_like(bad)
            for a, e, r in zip(_parts(actual), _parts(expected), _parts(ref)):
                ours_err, xla_err = _ulps(a, r), _ulps(e, r)
                same = ~mismatches(a, e, case.exact)
                # A composite's cancellations amplify each op's last-ULP
                # differences: within twice XLA's distance (plus 3 ULP).
                xla_finite = np.isfinite(e.astype(np.float64))
                closer &= same | (~mismatches(a, r, False)) | ((ours_err <= 2 * xla_err + 3) & xla_finite)
            if (remaining & closer).any():
                reasons.append("the import as close to a long-double evaluation as XLA (within twice its distance)")
                remaining &= ~closer
    if remaining.any() and case.stepwise_model is not None:
        ref = _model_values(case.stepwise_model, case.args, expected)
        if ref is not None:
            typed = ~mismatches(actual, ref, exact=False)
            if (remaining & typed).any():
                reasons.append(
                    "the import within 3 ULP of the ops evaluated one by one, each value rounded to the type "
                    + ("(XLA keeps half-precision intermediates in float32)" if expected.real.dtype.itemsize < 4
                       else "(the spec types each op's result; XLA keeps some intermediates wider or rewrites them: log(exp(x)) to x)")
                )
                remaining &= ~typed
    if remaining.any() and case.typed_precise is not None and _is_float(expected):
        typed, singular = _typed_precise_verdicts(case, actual, expected, remaining)
        if typed.any():
            reasons.append("the import within 3 ULP of the ops evaluated one by one at 2,200 bits, each value rounded to the type (the spec's typing, where long double cancels)")
            remaining &= ~typed
        if singular.any():
            reasons.append("an op whose operands, each rounded to the type, are at its pole or an indeterminate form (atan2 at x^2 + y^2 = 0): both results non-finite")
            remaining &= ~singular
    if remaining.any() and case.precise is not None and _is_float(expected):
        closer = _no_further_than_xla(case, actual, expected, remaining)
        if closer.any():
            reasons.append(
                "the import as close to a 2,200-bit evaluation as XLA (within twice its distance)"
                if case.composite
                else "the import no further than XLA from a 2,200-bit evaluation"
            )
            remaining &= ~closer
    if remaining.any() and np.iscomplexobj(expected):
        import ml_dtypes

        largest = float(ml_dtypes.finfo(expected.real.dtype).max)  # beyond_range's bound
        # Both results non-finite where complex arithmetic meets infinities:
        # which parts are NaN or infinite is not specified (C's Annex G
        # recovers infinities, XLA's formulas make NaNs).
        both = ~np.isfinite(actual) & ~np.isfinite(expected) & remaining
        if both.any() and elementwise:
            given = np.zeros_like(bad)
            text = "\n".join(case.body)
            for i, a in enumerate(case.args):
                if np.iscomplexobj(a) and re.search(rf"%a{i}\b", text):
                    given |= ~np.isfinite(a)
            if (both & given).any():
                reasons.append("complex arithmetic on an argument's infinite or NaN part (both results non-finite)")
                remaining &= ~(both & given)
                both &= ~given
        if both.any() and case.beyond_range is not None:
            over = _flagged(both, lambda positions: case.beyond_range(case.args, positions, largest))
            if over.any():
                reasons.append("an op's exact value is beyond the type's range (both results non-finite)")
                remaining &= ~over
        # An intermediate beyond the range is, in the type, an infinity that
        # keeps only its quadrant (C99 Annex G): the ops after it have no
        # determined value. Where XLA's result is not finite either (it
        # gave up there), the import's is not judged.
        after = ~np.isfinite(expected) & remaining
        if after.any() and case.beyond_range is not None:
            over = _flagged(after, lambda positions: case.beyond_range(case.args, positions, largest, True))
            if over.any():
                reasons.append("a complex intermediate's exact value is beyond the type's range, an infinity of no determined direction there; XLA's result not finite")
                remaining &= ~over
    if remaining.any() and np.iscomplexobj(expected) and not case.exact:
        residue = _rounding_residue_parts(actual, expected) & remaining
        if residue.any():
            reasons.append("complex results within 4 epsilons of each other relative to their modulus, differing in a part below that (a part no evaluation in the type resolves)")
            remaining &= ~residue
    if remaining.any() and np.iscomplexobj(expected) and case.on_branch_cut is not None:
        cut = _flagged(remaining, lambda positions: case.on_branch_cut(case.args, positions))
        if cut.any():
            reasons.append("an op's exact operand is on its branch cut (the value turns on the sign of a zero the exact evaluation does not have)")
            remaining &= ~cut
    if remaining.any() and case.rounding_bound is not None and case.precise is not None:
        within = _both_within_rounding_bound(case, actual, expected, remaining)
        if within.any():
            reasons.append(f"both within the error rounding {case.rounding_bound[0]} in the type implies (from a 2,200-bit evaluation)")
            remaining &= ~within
    if remaining.any() and case.rounding_spread is not None and case.precise is not None and _is_float(expected):
        within = _both_within_rounding_spread(case, actual, expected, remaining)
        if within.any():
            reasons.append("both within 3 ULP per op carried to the result (the composite's first-order condition, from a 2,200-bit evaluation)")
            remaining &= ~within
    return "; ".join(reasons) if reasons and not remaining.any() else None


def _rounding_residue_parts(actual: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """Complex elements whose parts differ only where they are below 4
    epsilons of the modulus (-pi - 2.6e-22i against -pi - 0i): a formula
    evaluated in the type leaves a residue of that size in a part whose
    value is smaller, so its ULPs mean nothing. Both results finite and
    within 4 epsilons of each other, relative to the modulus."""
    eps = float(np.finfo(expected.real.dtype).eps)
    a, e = actual.astype(np.complex128), expected.astype(np.complex128)
    with np.errstate(all="ignore"):
        modulus = np.maximum(np.abs(a), np.abs(e))
        limit = 4 * eps * modulus
        finite = np.isfinite(a) & np.isfinite(e) & (modulus > 0)
        close = np.abs(a - e) <= limit
        real_ok = ~mismatches(actual.real, expected.real, False) | (np.maximum(np.abs(a.real), np.abs(e.real)) <= limit)
        imag_ok = ~mismatches(actual.imag, expected.imag, False) | (np.maximum(np.abs(a.imag), np.abs(e.imag)) <= limit)
    return finite & close & real_ok & imag_ok


def _flagged(where: np.ndarray, flags_at: Callable) -> np.ndarray:
    """The elements of `where` that `flags_at(flat positions)` (a 2,200-bit
    evaluation's per-position verdicts) marks; none without mpmath."""
    positions = np.flatnonzero(where).tolist()
    out = np.zeros(where.size, dtype=bool)
    try:
        flags = flags_at(positions)
    except ImportError:  # mpmath (the test extra) is not installed
        return out.reshape(where.shape)
    out[[p for p, f in zip(positions, flags) if f]] = True
    return out.reshape(where.shape)


def _typed_precise_verdicts(case: Case, actual: np.ndarray, expected: np.ndarray, where: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Of the elements `where`: those where the import is within 3 ULP of
    `case.typed_precise`, and those where that evaluation meets a
    singularity and both results are not finite."""
    from .precise import SINGULAR

    within, singular = np.zeros(where.size, dtype=bool), np.zeros(where.size, dtype=bool)
    positions = np.flatnonzero(where).tolist()
    try:
        values = case.typed_precise(case.args, positions)
    except ImportError:  # mpmath (the test extra) is not installed
        values = [None] * len(positions)
    flat_a, flat_e = actual.reshape(-1), expected.reshape(-1)
    for k, value in zip(positions, values):
        if value is None:
            continue
        a = flat_a[k : k + 1]
        if value is SINGULAR:
            singular[k] = not np.isfinite(a[0]) and not np.isfinite(flat_e[k])
        else:
            with np.errstate(over="ignore"):
                ref = np.asarray([value]).astype(expected.dtype)
            within[k] = not mismatches(a, ref, exact=False)[0]
    return within.reshape(where.shape), singular.reshape(where.shape)


def _model_values(model: Callable, args: list, expected: np.ndarray) -> np.ndarray | None:
    """A model's result in the result's type; None where it has none."""
    try:
        ref = model(*args)
    except Exception:
        return None
    if ref is None or np.shape(ref) != expected.shape:
        return None
    with np.errstate(all="ignore"):
        return np.asarray(ref).astype(expected.dtype)


def _both_within_rounding_spread(case: Case, actual: np.ndarray, expected: np.ndarray, where: np.ndarray) -> np.ndarray:
    """Of the elements `where`, those where both sides are within 3 ULP of
    each op's value carried to the result (three times
    `case.rounding_spread`), plus 4 epsilons, of a 2,200-bit evaluation."""
    return _both_within(case, actual, expected, where, lambda positions, eps: [None if s is None else 3 * s / eps + 4 for s in case.rounding_spread(case.args, positions, eps)])


def _both_within_rounding_bound(case: Case, actual: np.ndarray, expected: np.ndarray, where: np.ndarray) -> np.ndarray:
    """Of the elements `where`, those where both sides are within
    `case.rounding_bound` of a 2,200-bit evaluation."""
    return _both_within(case, actual, expected, where, lambda positions, eps: case.rounding_bound[1](case.args, positions))


def _both_within(case: Case, actual: np.ndarray, expected: np.ndarray, where: np.ndarray, bounds: Callable) -> np.ndarray:
    """Of the elements `where`, those where both the import and XLA are
    within `bounds(positions, eps)` epsilons (relative distance
    |a - r| / |r|) of a 2,200-bit evaluation r (the import alone where
    XLA's is not finite); a bound of 0 or None, a zero or non-finite r, or
    a non-finite result of ours is not."""
    import ml_dtypes

    out = np.zeros(where.shape, dtype=bool)
    positions = np.flatnonzero(where).tolist()
    eps = float(ml_dtypes.finfo(expected.real.dtype).eps)
    try:
        refs = case.precise(case.args, positions)
        limits = bounds(positions, eps)
    except ImportError:  # mpmath (the test extra) is not installed
        return out
    flat_a, flat_e, flat_out = actual.reshape(-1), expected.reshape(-1), out.reshape(-1)
    for k, r, limit in zip(positions, refs, limits):
        if r is None or not limit or r == 0 or not np.isfinite(r):
            continue
        a, e = complex(flat_a[k]), complex(flat_e[k])
        if not (np.isfinite(a.real) and np.isfinite(a.imag)):
            continue
        # XLA's NaN or infinity where the value is finite is XLA's miss:
        # the import's alone is judged there.
        sides = [a, e] if np.isfinite(e.real) and np.isfinite(e.imag) else [a]
        flat_out[k] = max(abs(v - r) for v in sides) / abs(r) <= limit * eps
    return out


def _no_further_than_xla(case: Case, actual: np.ndarray, expected: np.ndarray, where: np.ndarray) -> np.ndarray:
    """Of the elements `where`, those the import computes no further from a
    2,200-bit evaluation than XLA does: in ULPs of a real result, in relative
    distance |a - r| / |r| of a complex one (where a part near zero has no
    meaningful ULPs). An expression may be twice as far, plus 3 ULP (4
    epsilons), as composite references allow above; a non-finite result
    of ours where the value is finite never is."""
    out = np.zeros(where.shape, dtype=bool)
    positions = np.flatnonzero(where)
    try:
        refs = case.precise(case.args, positions.tolist())
    except ImportError:  # mpmath (the test extra) is not installed
        return out
    complex_ = np.iscomplexobj(expected)
    eps = float(np.finfo(expected.real.dtype).eps) if expected.dtype.kind in "fc" else float(np.finfo(np.float32).eps)
    tiny = float(np.finfo(expected.real.dtype).tiny) if complex_ else 0.0
    flat_a, flat_e, flat_out = actual.reshape(-1), expected.reshape(-1), out.reshape(-1)
    for k, r in zip(positions, refs):
        if r is None:
            continue
        a, e = flat_a[k], flat_e[k]
        with np.errstate(over="ignore"):  # beyond the range: an infinity
            rounded = np.asarray(r).astype(expected.dtype)
        if not mismatches(np.asarray(a).reshape(1), rounded.reshape(1), exact=True)[0]:
            # The 2,200-bit value rounded to the type, infinities included
            # (a result beyond the range).
            flat_out[k] = True
            continue
        if complex_:
            a, e = complex(a), complex(e)
            if not (np.isfinite(a.real) and np.isfinite(a.imag) and np.isfinite(r)):
                continue
            # Below the normal range a result's precision is absolute (the
            # subnormals' spacing): distances relative to the smallest
            # normal there.
            scale = max(abs(r), tiny) or 1.0
            ours, xla = abs(a - r) / scale, abs(e - r) / scale
            slack = 4 * eps
        else:
            if not (np.isfinite(float(a)) and np.isfinite(r)):
                continue
            ref = rounded
            ours = float(_ulps(np.asarray(a).reshape(1), ref.reshape(1))[0])
            xla = float(_ulps(np.asarray(e).reshape(1), ref.reshape(1))[0]) if np.isfinite(float(e)) else np.inf
            slack = 3
        if not np.isfinite(xla):
            # XLA's result is not finite where the value is: there is no
            # distance of its to be as close as, only the slack.
            flat_out[k] = ours <= slack
            continue
        flat_out[k] = ours <= slack or ours <= (2 * xla + slack if case.composite else xla)
    return out


# ---------------------------------------------------------------------------
# Running one batch
# ---------------------------------------------------------------------------


def batch_module(cases: list[Case]) -> tuple[str, list[np.ndarray]]:
    """One module running every case: @main takes all their arguments and
    returns all their results."""
    funcs = [c.function(f"case{k}", private=True) for k, c in enumerate(cases)]
    params, calls, results, result_types, args = [], [], [], [], []
    for k, c in enumerate(cases):
        names = []
        for t, a in zip(c.arg_types, c.args):
            names.append(f"%p{len(params)}")
            params.append(f"{names[-1]}: {t}")
            args.append(a)
        n = len(c.result_types)
        value = f"%r{k}"
        calls.append(f"  {value}{':' + str(n) if n > 1 else ''} = func.call @case{k}({', '.join(names)}) : ({', '.join(c.arg_types)}) -> ({', '.join(c.result_types)})")
        results += [f"{value}#{i}" for i in range(n)] if n > 1 else [value]
        result_types += c.result_types
    main = [f"func.func @main({', '.join(params)}) -> ({', '.join(result_types)}) {{"] + calls
    main.append(f"  return {', '.join(results)} : {', '.join(result_types)}")
    main.append("}")
    return "module {\n" + "\n".join(funcs + ["\n".join(main)]) + "\n}\n", args


def _split(outputs: list[np.ndarray], cases: list[Case]) -> list[list[np.ndarray]]:
    out, i = [], 0
    for c in cases:
        out.append(outputs[i : i + len(c.result_types)])
        i += len(c.result_types)
    return out


def _run_xla(text: str, args: list[np.ndarray]) -> list[np.ndarray]:
    from .. import xla

    return xla.run(text, args)


def _run_import(text: str, args: list[np.ndarray]) -> list[np.ndarray]:
    from .. import build

    compiled = build(text, progress=False)
    outputs = compiled(*args)
    if not isinstance(outputs, tuple):
        outputs = (outputs,)
    return [np.asarray(o) for o in outputs]


def _first_line(e: Exception) -> str:
    lines = [l.strip() for l in str(e).splitlines() if l.strip()]
    unsupported = next((l for l in lines if "could not be imported" in l), None)
    if unsupported:
        return "unsupported: " + unsupported.split("unsupported: ", 1)[-1][:300]
    # An MLIRError's first line names the error; its diagnostic follows.
    line = lines[1] if len(lines) > 1 and len(lines[0]) < 40 else (lines[0] if lines else "")
    return f"{type(e).__name__}: {line[:300]}"


def _agrees_with_model(case: Case, ours: list[np.ndarray]) -> bool:
    """Whether the import's results equal the case's exact numpy model."""
    if case.model is None:
        return False
    try:
        model = [np.asarray(m) for m in case.model(*case.args)]
    except Exception:
        return False
    return all(a.shape == m.shape and not mismatches(a, m.astype(a.dtype), True).any() for a, m in zip(ours, model))


def _by_model(case: Case, ours: list[np.ndarray], theirs: list[np.ndarray]) -> str | None:
    """A reason when the case's exact numpy model agrees with the import and
    not with XLA."""
    if not _agrees_with_model(case, ours):
        return None
    return f"XLA differs from {case.model_name}; the import agrees with it"


def judge(case: Case, ours: list[np.ndarray], theirs: list[np.ndarray]) -> dict[str, Any]:
    if len(ours) != len(theirs):
        return {"status": "mismatch", "message": f"{len(ours)} results, XLA {len(theirs)}"}
    reasons = []
    for i, (a, e) in enumerate(zip(ours, theirs)):
        if a.shape != e.shape or a.dtype != e.dtype:
            return {"status": "mismatch", "message": f"result {i}: {a.dtype}{list(a.shape)} where XLA gives {e.dtype}{list(e.shape)}"}
        bad = normwise_mismatches(a, e, case.norm_tolerance) if case.norm_tolerance else mismatches(a, e, case.exact)
        if not bad.any():
            continue
        reason = explain(case, a, e, bad) or _by_model(case, ours, theirs)
        if reason is None:
            where = tuple(int(v) for v in np.argwhere(bad)[0]) if bad.ndim else ()
            return {"status": "mismatch", "message": f"result {i}: {int(bad.sum())} of {bad.size} differ; at {list(where)}: {a[where]!r} where XLA gives {e[where]!r}"}
        reasons.append(reason)
    if reasons:
        return {"status": "explained", "message": "; ".join(sorted(set(reasons)))}
    return {"status": "pass", "message": ""}


def _stage(name: str) -> None:
    """Tells the parent which side runs next: a worker that dies in XLA
    is XLA's crash, not the import's."""
    if _REPORT_STAGES:
        workers.report_stage(name)


_REPORT_STAGES = False


def run_cases(cases: list[Case]) -> list[dict[str, Any]]:
    """Verdicts for `cases`, run as one batch and, where that fails, one
    by one."""
    if any(c.xla_unsafe for c in cases):
        safe = iter(run_cases([c for c in cases if not c.xla_unsafe]))
        return [_judge_by_model_alone(c) if c.xla_unsafe else next(safe) for c in cases]
    if not cases:
        return []
    text, args = batch_module(cases)
    try:
        _stage("xla")
        theirs = _split(_run_xla(text, args), cases)
    except Exception as e:
        if len(cases) == 1:
            return [{"status": "xla-error", "message": _first_line(e)}]
        return [v for c in cases for v in run_cases([c])]
    try:
        _stage("import")
        ours = _split(_run_import(text, args), cases)
    except Exception as e:
        if len(cases) == 1:
            message = _first_line(e)
            return [{"status": "unsupported" if message.startswith("unsupported") else "error", "message": message}]
        return [v for c in cases for v in run_cases([c])]
    return [judge(c, o, t) for c, o, t in zip(cases, ours, theirs)]


def _judge_by_model_alone(case: Case) -> dict[str, Any]:
    """A case XLA must not run: the import against the case's exact model."""
    text, args = batch_module([case])
    try:
        _stage("import")
        ours = _run_import(text, args)
    except Exception as e:
        message = _first_line(e)
        return {"status": "unsupported" if message.startswith("unsupported") else "error", "message": message}
    if not _agrees_with_model(case, ours):
        return {"status": "mismatch", "message": f"differs from {case.model_name} (XLA not run: {case.xla_unsafe})"}
    return {"status": "explained", "message": f"XLA not run ({case.xla_unsafe}); equal to {case.model_name}"}


# ---------------------------------------------------------------------------
# Reduction and replay files
# ---------------------------------------------------------------------------


def _plain(a: np.ndarray) -> np.ndarray:
    return np.zeros_like(a) if a.dtype != np.bool_ else np.zeros(a.shape, bool)


def reduce_case(case: Case, budget: int = 16) -> Case:
    """`case` with as many argument elements as possible set to zero while
    it still mismatches (halves, then quarters, ... of each argument)."""
    import copy

    def fails(c: Case) -> bool:
        try:
            return run_cases([c])[0]["status"] == "mismatch"
        except Exception:
            return False

    best = copy.deepcopy(case)
    tries = 0
    for k, arg in enumerate(best.args):
        if arg.size <= 1:
            continue
        chunk = max(1, arg.size // 2)
        while chunk >= 1 and tries < budget:
            start = 0
            while start < arg.size and tries < budget:
                trial = copy.deepcopy(best)
                flat = trial.args[k].reshape(-1).copy()
                zero = _plain(flat[start : start + chunk])
                if np.array_equal(flat[start : start + chunk], zero):
                    start += chunk
                    continue
                flat[start : start + chunk] = zero
                trial.args[k] = flat.reshape(arg.shape)
                tries += 1
                if fails(trial):
                    best = trial
                start += chunk
            chunk //= 2
    return best


def _element_name(t: str) -> str:
    """The element type of a tensor type's spelling."""
    return re.match(r"tensor<(?:\d+x)*(.*)>$", t).group(1)


def _literal(a: np.ndarray, type_text: str) -> str:
    name = _element_name(type_text)
    t = TYPES.get(name)
    if a.size == 0:
        return "dense<>"
    return mlir_literal(a, t) if t else mlir_literal(a, ElementType(name, a.dtype, "float", a.dtype.itemsize * 8))


def replay_file(case: Case, expected: list[np.ndarray]) -> str:
    """`case` as a self-checking program in the corpus's form: @main calls
    @inputs and @expected and checks the case's results with
    check.expect_eq (integers) or check.expect_close (floats)."""
    n, m = len(case.args), len(case.result_types)
    lines = [f"// {case.family}: {case.detail} ({'; '.join(case.notes)})", "module {", case.function("case", private=True)]
    lines.append(f"func.func private @inputs() -> ({', '.join(case.arg_types)}) {{")
    for i, (a, t) in enumerate(zip(case.args, case.arg_types)):
        lines.append(f"  %c{i} = stablehlo.constant {_literal(a, t)} : {t}")
    lines.append(f"  return {', '.join(f'%c{i}' for i in range(n))} : {', '.join(case.arg_types)}\n}}")
    lines.append(f"func.func private @expected() -> ({', '.join(case.result_types)}) {{")
    for i, (e, t) in enumerate(zip(expected, case.result_types)):
        lines.append(f"  %c{i} = stablehlo.constant {_literal(e, t)} : {t}")
    lines.append(f"  return {', '.join(f'%c{i}' for i in range(m))} : {', '.join(case.result_types)}\n}}")
    lines.append("func.func @main() {")
    lines.append(f"  %in{':' + str(n) if n > 1 else ''} = func.call @inputs() : () -> ({', '.join(case.arg_types)})")
    lines.append(f"  %ex{':' + str(m) if m > 1 else ''} = func.call @expected() : () -> ({', '.join(case.result_types)})")
    ins = [f"%in#{i}" for i in range(n)] if n > 1 else ["%in"]
    lines.append(f"  %r{':' + str(m) if m > 1 else ''} = func.call @case({', '.join(ins)}) : ({', '.join(case.arg_types)}) -> ({', '.join(case.result_types)})")
    for i, t in enumerate(case.result_types):
        r, e = (f"%r#{i}", f"%ex#{i}") if m > 1 else ("%r", "%ex")
        element = _element_name(t)
        check = "expect_close" if element.startswith(("f", "bf", "complex")) else "expect_eq"
        lines.append(f"  stablehlo.custom_call @check.{check}({r}, {e}) {{has_side_effect = true}} : ({t}, {t}) -> ()")
    lines.append("  return\n}\n}\n")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Workers and the whole run
# ---------------------------------------------------------------------------


def run_batch(seed: int, indices: list[int], families: list[str] | None, out_dir: str | None, reduce: bool) -> list[dict[str, Any]]:
    cases, results = [], []
    for i in indices:
        try:
            cases.append((i, generate(seed, i, families)))
        except Exception as e:  # a generator's own bug: that case alone
            results.append({"index": i, "family": "?", "detail": "", "types": [], "status": "error", "message": f"generator: {type(e).__name__}: {e}"[:300]})
    verdicts = run_cases([c for _, c in cases]) if cases else []
    for (i, case), verdict in zip(cases, verdicts):
        result = {"index": i, "family": case.family, "detail": case.detail, "types": sorted({_element_name(t) for t in case.arg_types + case.result_types}), **verdict}
        if verdict["status"] == "mismatch" and out_dir:
            small = reduce_case(case) if reduce else case
            try:
                text, args = batch_module([small])
                expected = _run_xla(text, args)
                path = os.path.join(out_dir, f"{case.family}-{seed}-{i}.mlir")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(replay_file(small, expected))
                result["file"] = path
            except Exception as e:  # the verdict stands without a file
                result["file_error"] = _first_line(e)
        results.append(result)
    return results


def _handle(task: dict[str, Any]) -> list[dict[str, Any]]:
    if task.get("import_only"):
        # Was a crash the import's? Run it without XLA in the process.
        case = generate(task["seed"], task["indices"][0], task["families"])
        text, args = batch_module([case])
        try:
            _run_import(text, args)
            return [{"status": "import-ok"}]
        except Exception as e:
            return [{"status": "error", "message": _first_line(e)}]
    try:
        return run_batch(task["seed"], task["indices"], task["families"], task["out"], task["reduce"])
    except Exception as e:
        import traceback

        where = traceback.extract_tb(e.__traceback__)[-1]
        message = f"runner: {type(e).__name__}: {e} ({os.path.basename(where.filename)}:{where.lineno})"[:300]
        return [{"index": i, "family": "?", "detail": "", "types": [], "status": "error", "message": message} for i in task["indices"]]


def _worker_main() -> int:
    import jax  # noqa: F401  (loaded before TVM, as in user programs)

    global _REPORT_STAGES
    _REPORT_STAGES = True
    return workers.serve(_handle)


def _run_in(worker: "workers.Worker", task: dict[str, Any], timeout: float) -> list[dict[str, Any]] | str:
    """The batch's verdicts, or why the worker gave none."""
    reply = worker.request(task, timeout)
    if not isinstance(reply, workers.Failure):
        return reply
    if reply.kind == "timeout":
        return f"timeout in {reply.stage} (over {timeout:.0f} s)"
    return f"crash in {reply.stage} (exit {reply.exit_code})"


def run(seed: int, count: int, start: int = 0, batch: int = 32, jobs: int = 1, families: list[str] | None = None,
        out_dir: str | None = None, reduce: bool = True, timeout: float = 600.0, progress: bool = False,
        indices: list[int] | None = None) -> list[dict[str, Any]]:
    """Generates and runs cases start .. start+count-1 of `seed` (or the
    cases `indices`)."""
    import queue
    import threading

    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
    if indices is None:
        indices = list(range(start, start + count))
    count = len(indices)
    tasks: queue.Queue[list[int]] = queue.Queue()
    for s in range(0, count, batch):
        tasks.put(indices[s : s + batch])
    results: list[dict[str, Any]] = []
    lock = threading.Lock()
    began = time.perf_counter()

    def slot() -> None:
        worker = workers.Worker(_MODULE)
        while True:
            try:
                indices = tasks.get_nowait()
            except queue.Empty:
                break
            if not worker.alive():
                worker = workers.Worker(_MODULE)
            task = {"seed": seed, "indices": indices, "families": families, "out": out_dir, "reduce": reduce}
            verdicts = _run_in(worker, task, timeout * max(1, len(indices) // 8))
            if isinstance(verdicts, str):
                if len(indices) > 1:  # find the case that did it
                    for i in indices:
                        tasks.put([i])
                    continue
                case = generate(seed, indices[0], families)
                status = "crash" if verdicts.startswith("crash") else "timeout"
                if " in xla " in verdicts:  # the oracle's failure: not judged
                    status = "xla-error"
                elif status == "crash":
                    # XLA can corrupt the heap (sub-byte sorts) and the import
                    # trip over it later: the import alone decides.
                    worker = workers.Worker(_MODULE)
                    alone = _run_in(worker, {"seed": seed, "indices": indices, "families": families, "import_only": True}, timeout)
                    if isinstance(alone, list) and alone[0]["status"] == "import-ok":
                        status, verdicts = "xla-error", "crash after XLA ran; the import alone runs"
                verdicts = [{"index": indices[0], "family": case.family, "detail": case.detail, "types": [], "status": status, "message": verdicts}]
                if out_dir:
                    path = os.path.join(out_dir, f"{case.family}-{seed}-{indices[0]}-{status}.mlir")
                    with open(path, "w", encoding="utf-8") as f:
                        f.write(case.function("main") + "\n")
                    verdicts[0]["file"] = path
            with lock:
                results.extend(verdicts)
                if progress:
                    done = len(results)
                    bad = sum(r["status"] in ("mismatch", "crash", "timeout", "error") for r in results)
                    print(f"[{done}/{count}] {done / (time.perf_counter() - began):.1f}/s, {bad} failing", file=sys.stderr, flush=True)
        worker.close()

    threads = [threading.Thread(target=slot) for _ in range(max(1, jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted(results, key=lambda r: r["index"])
