"""The differential tester (stablehlo_tvm.difftest): a quick sample of
generated programs against XLA, its own checks (reproducible generation,
judging that can fail, replay files the conformance runner reads), and the
fixes it led to, each as a program compared with XLA or jax.jit."""

from __future__ import annotations

import json

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest

import stablehlo_tvm
from stablehlo_tvm import difftest, xla
from stablehlo_tvm.difftest import precise
from stablehlo_tvm.difftest import runner as difftest_run
from stablehlo_tvm.difftest.ops import FAMILIES, generate

FAILING = ("mismatch", "error", "crash", "timeout")


def test_quick_sample_agrees_with_xla():
    """240 programs of every family, 40 to a build, as the long run makes
    them: each agrees with XLA or differs only where it has a stated reason
    (XLA's flushed subnormals, XLA's own documented departures)."""
    failing = []
    for start in range(0, 240, 40):
        cases = [generate(7, i) for i in range(start, start + 40)]
        for i, (case, verdict) in enumerate(zip(cases, difftest.run_cases(cases))):
            if verdict["status"] in FAILING:
                failing.append(f"case {start + i} {case.family} {case.detail}: {verdict['status']}: {verdict['message']}")
    assert not failing, "\n".join(failing)


def test_generation_is_reproducible():
    for i in range(20):
        a, b = generate(3, i), generate(3, i)
        assert a.function("main") == b.function("main")
        assert all(np.array_equal(x, y, equal_nan=x.dtype.kind in "fc") for x, y in zip(a.args, b.args))


def test_generated_float_products_stay_in_range_in_any_order():
    """A reduce whose body multiplies floats is judged exactly: its values
    keep every partial product, in any order, within the type's range (20
    values of up to 3 in f16 overflow, and an infinity times a zero is NaN,
    as seed 88's case 1517 found)."""
    from stablehlo_tvm.difftest.types import TYPES

    checked = 0
    for index in range(1500):  # 1426 is one such program before
        case = generate(88, index, ["reduce"])
        type_names, body_names, _, dims_text = case.detail.split(" ", 3)
        dims = tuple(int(d) for d in dims_text.strip("[]").split(",") if d.strip())
        for name, op, x in zip(type_names.split("+"), body_names.split("/"), case.args):
            if op != "multiply" or TYPES[name].kind not in ("float", "complex"):
                continue
            magnitudes = np.abs(x.astype(np.complex128))
            # The largest partial product: every factor above 1 of a group.
            worst = np.prod(np.maximum(magnitudes, 1.0), axis=dims) if dims else magnitudes
            assert np.all(worst <= float(ml_dtypes.finfo(x.real.dtype).max)), (index, case.detail)
            checked += 1
    assert checked >= 50


def test_every_family_generates():
    for family in FAMILIES:
        case = generate(11, 0, [family])
        assert case.family == family or family in ("unary", "binary")
        assert "func.func @main" in case.function("main")


def test_a_wrong_result_is_a_mismatch(monkeypatch):
    """Negative control: an import that is off by one is caught."""
    real = difftest_run._run_import

    def off_by_one(text, args):
        return [np.asarray(r) + np.asarray(1).astype(np.asarray(r).dtype) if np.asarray(r).dtype.kind in "iuf" else r for r in real(text, args)]

    monkeypatch.setattr(difftest_run, "_run_import", off_by_one)
    cases = [generate(5, i, ["binary"]) for i in range(6)]
    verdicts = difftest.run_cases(cases)
    assert any(v["status"] == "mismatch" for v in verdicts)


def test_judging_semantics():
    f = np.array([1.0, np.nan, np.inf, 0.0], np.float32)
    assert not difftest.mismatches(f, f.copy(), exact=True).any()
    near = np.nextafter(np.nextafter(f, np.float32(np.inf)), np.float32(np.inf))
    assert difftest.mismatches(near, f, exact=True)[0]
    assert not difftest.mismatches(near, f, exact=False)[0]  # 2 ULP
    assert difftest.mismatches(np.array([-np.inf], np.float32), np.array([np.inf], np.float32), exact=False)[0]
    assert difftest.mismatches(np.array([3], np.int8), np.array([4], np.int8), exact=False)[0]


def test_fft_results_are_judged_norm_wise(monkeypatch):
    """FFT results are compared within a tolerance of the largest magnitude
    (every output sums all inputs); a result 0.1% off is still caught."""
    e = np.array([100 + 0j, 1e-6 + 1e-6j, np.nan], np.complex64)
    near = e + np.complex64(5e-4)  # 5e-6 of the largest, far from e[1] in ULPs
    assert not difftest_run.normwise_mismatches(near, e, 1e-5).any()
    assert difftest_run.normwise_mismatches(e * np.complex64(1.001), e, 1e-5)[0]
    assert difftest_run.normwise_mismatches(np.array([np.inf], np.float32), np.array([1.0], np.float32), 1e-5)[0]

    real = difftest_run._run_import
    monkeypatch.setattr(difftest_run, "_run_import", lambda text, args: [np.asarray(r) * 1.001 for r in real(text, args)])
    cases = [generate(5, i, ["fft"]) for i in range(6)]
    assert all(v["status"] == "mismatch" for case, v in zip(cases, difftest.run_cases(cases)) if np.abs(case.args[0]).max() > 0)


def test_replay_file_runs_in_the_conformance_runner(tmp_path):
    from stablehlo_tvm.conformance import run_program

    case = generate(2, 0, ["binary"])
    text, args = difftest_run.batch_module([case])
    expected = xla.run(text, args)
    assert run_program(difftest_run.replay_file(case, expected), "replay")["status"] == "pass"
    wrong = [np.asarray(e) for e in expected]
    wrong[0] = np.zeros_like(wrong[0]) if wrong[0].size and wrong[0].any() else np.ones_like(wrong[0])
    if wrong[0].size:
        assert run_program(difftest_run.replay_file(case, wrong), "replay")["status"] == "fail"


# ---------------------------------------------------------------------------
# What the tester found, as programs
# ---------------------------------------------------------------------------


def _against_xla(text, *args, exact=True):
    ours = stablehlo_tvm.build(text)(*args)
    ours = ours if isinstance(ours, tuple) else (ours,)
    theirs = xla.run(text, list(args))
    for a, e in zip(ours, theirs):
        a = np.asarray(a)
        assert a.dtype == e.dtype and a.shape == e.shape
        bad = difftest.mismatches(a, e, exact)
        assert not bad.any(), f"{a[bad]} where XLA gives {e[bad]}"


def test_division_by_zero_in_a_region_body_does_not_trap():
    # TVM simplified the safe divisor back to the operand in the branch it
    # then evaluated unconditionally: SIGFPE.
    text = """func.func @main(%x: tensor<6xui8>, %y: tensor<6xui8>, %s: tensor<6xi32>, %t: tensor<6xi32>) -> (tensor<6xui8>, tensor<6xi32>) {
      %0 = "stablehlo.map"(%x, %y) ({
      ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
        %r = stablehlo.remainder %a, %b : tensor<ui8>
        stablehlo.return %r : tensor<ui8>
      }) {dimensions = array<i64: 0>} : (tensor<6xui8>, tensor<6xui8>) -> tensor<6xui8>
      %1 = "stablehlo.map"(%s, %t) ({
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %q = stablehlo.divide %a, %b : tensor<i32>
        stablehlo.return %q : tensor<i32>
      }) {dimensions = array<i64: 0>} : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
      return %0, %1 : tensor<6xui8>, tensor<6xi32>
    }"""
    x = np.array([7, 0, 255, 9, 1, 200], np.uint8)
    y = np.array([0, 0, 7, 3, 0, 201], np.uint8)
    s = np.array([5, -(2**31), -(2**31), 0, 7, -9], np.int32)
    t = np.array([0, -1, 0, 0, 2, -2], np.int32)
    _against_xla(text, x, y, s, t)


@pytest.mark.parametrize("element", ["ui8", "ui16", "i32", "i64"])
def test_division_by_a_provably_zero_divisor_builds(element):
    """x / (y - y) and x % (y - y): the divisor TVM proves 0. A selected
    safe divisor was folded to that 0 in the branch that assumes it is not
    (TVM's constant folder then refuses the build); the nudged one is 1
    there. INT_MIN / -1 and INT_MIN % -1 too, and ordinary quotients."""
    text = f"""func.func @main(%x: tensor<6x{element}>, %y: tensor<6x{element}>) -> (tensor<6x{element}>, tensor<6x{element}>, tensor<6x{element}>, tensor<6x{element}>) {{
      %n = stablehlo.not %x : tensor<6x{element}>
      %z = stablehlo.subtract %y, %y : tensor<6x{element}>
      %q = stablehlo.divide %n, %z : tensor<6x{element}>
      %r = stablehlo.remainder %n, %z : tensor<6x{element}>
      %d = stablehlo.divide %x, %y : tensor<6x{element}>
      %m = stablehlo.remainder %x, %y : tensor<6x{element}>
      return %q, %r, %d, %m : tensor<6x{element}>, tensor<6x{element}>, tensor<6x{element}>, tensor<6x{element}>
    }}"""
    dtype = np.dtype({"ui8": np.uint8, "ui16": np.uint16, "i32": np.int32, "i64": np.int64}[element])
    info = np.iinfo(dtype)
    x = np.array([7, 0, info.max, info.min, info.min, 9], dtype)
    y = np.array([0, 3, 7, np.array(-1).astype(dtype), 2, 0], dtype)
    _against_xla(text, x, y)


def test_the_program_that_trapped_in_an_integer_remainder_runs(tmp_path):
    """Seed 86 case 89956, an i64 map body (-(x * x)) % sign(x << y), killed
    its worker with SIGFPE: TVM marks signed arithmetic no-wrap, and LLVM
    dropped a guard the remainder's divisor needed. Signed division now
    runs on unsigned magnitudes. Run by the tester itself (its workers are
    processes of their own, so a trap is a 'crash' verdict, not the end of
    this test run)."""
    out = tmp_path / "out"
    (result,) = difftest_run.run(86, 1, 89956, 1, 1, None, str(out), False)
    assert result["status"] in ("pass", "explained"), result


def test_float_remainder_and_unsigned_shift_in_region_bodies():
    text = """func.func @main(%x: tensor<5xf64>, %y: tensor<5xf64>, %n: tensor<5xi32>) -> (tensor<5xf64>, tensor<5xi32>) {
      %0 = "stablehlo.map"(%x, %y) ({
      ^bb0(%a: tensor<f64>, %b: tensor<f64>):
        %r = stablehlo.remainder %a, %b : tensor<f64>
        stablehlo.return %r : tensor<f64>
      }) {dimensions = array<i64: 0>} : (tensor<5xf64>, tensor<5xf64>) -> tensor<5xf64>
      %1 = "stablehlo.map"(%n) ({
      ^bb0(%a: tensor<i32>):
        %d = stablehlo.divide %a, %a : tensor<i32>
        %m = stablehlo.minimum %a, %a : tensor<i32>
        %s = stablehlo.shift_left %d, %m : tensor<i32>
        stablehlo.return %s : tensor<i32>
      }) {dimensions = array<i64: 0>} : (tensor<5xi32>) -> tensor<5xi32>
      return %0, %1 : tensor<5xf64>, tensor<5xi32>
    }"""
    x = np.array([5.5, -7.25, 1e300, 3.0, -0.0])
    y = np.array([2.0, 2.0, 3.0, np.inf, 1.0])
    n = np.array([0, 3, -1, 31, 40], np.int32)
    _against_xla(text, x, y, n)


def test_max_reduction_keeps_nan_with_an_argument_init():
    text = """func.func @main(%x: tensor<3x4xf32>, %init: tensor<f32>) -> tensor<3xf32> {
      %0 = stablehlo.reduce(%x init: %init) applies stablehlo.maximum across dimensions = [1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<3xf32>
      return %0 : tensor<3xf32>
    }"""
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    x[1, 2] = np.nan
    _against_xla(text, x, np.float32(-np.inf))


def test_sub_byte_shifts_and_result_types():
    x = np.array([0, 1, 7, 8, 15], ml_dtypes.uint4)
    s = np.array([1, 3, 1, 1, 5], ml_dtypes.uint4)
    text = """func.func @main(%x: tensor<5xui4>, %s: tensor<5xui4>) -> tensor<5xui4> {
      %0 = stablehlo.shift_right_arithmetic %x, %s : tensor<5xui4>
      return %0 : tensor<5xui4>
    }"""
    _against_xla(text, x, s)
    out = stablehlo_tvm.build(text)(x, s)
    assert out.dtype == ml_dtypes.uint4


def test_small_float_types_through_jit():
    def f(x, y):
        z = (x.astype(jnp.float32) * 3.3 + y).astype(jnp.float8_e4m3fn)
        return z, (z.astype(jnp.float32) - y).astype(jnp.float8_e5m2), jnp.dot(z, z)

    rng = np.random.default_rng(0)
    x = rng.standard_normal(16).astype(ml_dtypes.float8_e4m3fn)
    y = (rng.standard_normal(16) * 100).astype(np.float32)
    y[:3] = [np.nan, 1e6, -0.0]
    want = jax.jit(f)(x, y)
    got = stablehlo_tvm.jit(f)(x, y)
    for a, e in zip(got, want):
        e = np.asarray(e)
        assert np.asarray(a).dtype == e.dtype
        np.testing.assert_array_equal(np.asarray(a).view(np.uint8), e.view(np.uint8))



def test_f8e8m0fnu_smallest_value_is_explained_as_xla_flushing_it():
    """XLA computes f8E8M0FNU in float32 with subnormals flushed: 2^-127,
    the type's smallest value, becomes 0, which the type cannot hold (NaN).
    The import keeps it, as the spec does; the judge says so, and still
    calls a difference at a normal value a mismatch."""
    e8 = ml_dtypes.float8_e8m0fnu
    x = np.array([2.0**-127, 2.0**-126, 1.0], e8)
    y = np.array([1.0, 1.0, 2.0], e8)
    xla_result = np.asarray(jax.jit(jnp.minimum)(x, y))
    assert np.isnan(xla_result[0].astype(np.float32)) and xla_result[1] == x[1]
    ours = np.asarray(stablehlo_tvm.jit(jnp.minimum)(x, y))
    np.testing.assert_array_equal(ours.astype(np.float32), [2.0**-127, 2.0**-126, 1.0])
    case = generate(5, 0, ["small_float_arithmetic"])
    case.args = [x, y]
    bad = difftest.mismatches(ours, xla_result, exact=True)
    assert bad.tolist() == [True, False, False]
    assert difftest_run.explain(case, ours, xla_result, bad) == "XLA flushes subnormals"
    wrong = ours.copy()
    wrong[2] = e8(4.0)
    bad = difftest.mismatches(wrong, xla_result, exact=True)
    assert difftest_run.explain(case, wrong, xla_result, bad) is None
    # A product of normal values that is 2^-127: XLA flushes the result.
    product = np.asarray(jax.jit(jnp.multiply)(x[1:2], np.array([0.5], e8)))
    assert np.isnan(product.astype(np.float32)[0])
    ours = np.array([2.0**-127], e8)
    case.args = [x[1:2], np.array([0.5], e8)]
    bad = difftest.mismatches(ours, product, exact=True)
    assert difftest_run.explain(case, ours, product, bad) == "XLA flushes subnormals"

@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_functions_at_extreme_arguments(dtype):
    """Within 3 ULP per part of long-double references (XLA is not, on some
    of these), where parts near the largest float once overflowed to NaN."""
    big = float(np.finfo(np.float32 if dtype == "complex64" else np.float64).max)
    z = np.array([complex(-108.6, big), complex(-0.16, -big), complex(108.43, 0.188), complex(big / 2, 1e-3),
                  complex(0.5, 0.25), complex(-2.0, 1e-20), complex(25.0, -1.0), complex(-75.99, 0.576)], dtype)
    functions = {
        "tanh": (jnp.tanh, np.tanh), "tan": (jnp.tan, np.tan), "sqrt": (jnp.sqrt, np.sqrt),
        "rsqrt": (jax.lax.rsqrt, lambda v: 1 / np.sqrt(v)), "arcsin": (jnp.arcsin, np.arcsin),
        "arccosh": (jnp.arccosh, np.arccosh), "arctanh": (jnp.arctanh, np.arctanh),
    }
    got = stablehlo_tvm.jit(lambda z: tuple(f(z) for f, _ in functions.values()))(z)
    with np.errstate(all="ignore"):
        wide = z.astype(np.clongdouble)
        for (name, (_, reference)), a in zip(functions.items(), got):
            ref = np.asarray(reference(wide)).astype(dtype)
            bad = difftest.mismatches(np.asarray(a), ref, exact=False)
            assert not bad.any(), f"{name}: {np.asarray(a)[bad]} where the reference is {ref[bad]}"


def test_complex_order_conj_iota_map():
    def f(z, w):
        return jnp.maximum(z, w), jnp.minimum(z, w), jnp.conj(z), jnp.arange(4, dtype=z.dtype)

    z = np.array([1 + 2j, 1 + 3j, np.nan + 0j, -1 - 1j], np.complex64)
    w = np.array([1 + 1j, 0 + 9j, 2 + 0j, -1 - 1j], np.complex64)
    got = stablehlo_tvm.jit(f)(z, w)
    want = jax.jit(f)(z, w)
    for a, e in zip(got, want):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(e))
    text = """func.func @main(%x: tensor<3xcomplex<f64>>) -> tensor<3xcomplex<f64>> {
      %0 = "stablehlo.map"(%x) ({
      ^bb0(%a: tensor<complex<f64>>):
        %e = stablehlo.exponential %a : tensor<complex<f64>>
        %m = stablehlo.multiply %e, %a : tensor<complex<f64>>
        stablehlo.return %m : tensor<complex<f64>>
      }) {dimensions = array<i64: 0>} : (tensor<3xcomplex<f64>>) -> tensor<3xcomplex<f64>>
      return %0 : tensor<3xcomplex<f64>>
    }"""
    _against_xla(text, np.array([0.5 + 1j, -2 + 0.1j, 3 - 4j]), exact=False)


def test_float_subtraction_of_a_value_from_itself_keeps_nan():
    def f(x):
        return jnp.sin(x - x)

    x = np.array([np.nan, np.inf, -np.inf, 1.5, -0.0], np.float32)
    np.testing.assert_array_equal(np.asarray(stablehlo_tvm.jit(f)(x)), np.asarray(jax.jit(f)(x)))


def test_subtracting_a_selects_arm_keeps_nan():
    """where(c, a, b) - b is NaN where b is infinite and c false (TVM's
    simplifier makes it where(c, a - b, 0)); complex x - x and
    x - minimum(x, x) keep each part's NaN apart; so does the difference of
    a value computed twice."""

    def f(a, b, z):
        # (a * b) - (a * b): two products, one value after CSE.
        return jnp.where(a * a < b, a * a, b) - b, jnp.where(a > 0, a, b) - a, z - z, z - jnp.minimum(z, z), a * b - a * b, z * z - z * z

    a = np.array([1.0, -np.inf, np.inf, 2.0, np.nan], np.float32)
    b = np.array([-np.inf, -np.inf, 0.5, np.inf, 1.0], np.float32)
    z = np.array([complex(1, np.inf), complex(-np.inf, 2), complex(np.nan, 0), 3 - 4j, 0j], np.complex64)
    for got, want in zip(stablehlo_tvm.jit(f)(a, b, z), jax.jit(f)(a, b, z)):
        got, want = np.asarray(got), np.asarray(want)
        assert not difftest.mismatches(got, want, exact=True).any(), (got, want)


def test_cbrt_sinh_cosh_accuracy():
    x = np.array([6.98e36, -1.7e-45, 3e-39, -2.2e-5, 0.7, 25.0, 89.1, -89.3, -0.0], np.float32)

    def f(x):
        return jnp.cbrt(x), jnp.sinh(x), jnp.cosh(x)

    got = stablehlo_tvm.jit(f)(x)
    wide = x.astype(np.float64)
    for a, ref in zip(got, (np.cbrt(wide), np.sinh(wide), np.cosh(wide))):
        with np.errstate(over="ignore"):
            assert not difftest.mismatches(np.asarray(a), ref.astype(np.float32), exact=False).any()


def test_lgamma_near_its_zeros_and_at_tiny_arguments():
    import scipy.special

    x = np.array([1.0, 2.0, 1.9881425328429962, 0.75, 2.4, -2.2250738585072014e-308, -1e-300, 3e-310])
    got = np.asarray(stablehlo_tvm.jit(jax.lax.lgamma)(x))
    assert got[0] == 0 and got[1] == 0
    # From the series about 2 in 50-digit decimal arithmetic (SciPy and
    # glibc are 1-2 ULP off here, XLA 13).
    assert got[2] == -0.0049676999601686721778688675639128613
    assert not difftest.mismatches(got[3:], scipy.special.gammaln(x[3:]), exact=False).any()


def test_empty_reductions_and_large_expm1():
    empty = """func.func @main(%x: tensor<1x0x2xbf16>, %init: tensor<bf16>) -> tensor<1xbf16> {
      %0 = stablehlo.reduce(%x init: %init) applies stablehlo.minimum across dimensions = [1, 2] : (tensor<1x0x2xbf16>, tensor<bf16>) -> tensor<1xbf16>
      return %0 : tensor<1xbf16>
    }"""
    _against_xla(empty, np.zeros((1, 0, 2), ml_dtypes.bfloat16), np.asarray(np.inf, ml_dtypes.bfloat16))
    big = """func.func @main(%x: tensor<3xbf16>) -> tensor<3xbf16> {
      %0 = stablehlo.exponential_minus_one %x : tensor<3xbf16>
      return %0 : tensor<3xbf16>
    }"""
    _against_xla(big, np.array([88.5, -100.0, 1e-3], ml_dtypes.bfloat16))


def test_map_bodies_of_any_elementwise_op_and_empty_operands():
    # CHLO math, select and compare in a body (the scalar translator had no
    # erf_inv or square); a pad and a dot_general of empty operands.
    body = """func.func @main(%x: tensor<2x3xbf16>, %y: tensor<2x3xf64>) -> (tensor<2x3xbf16>, tensor<2x3xf64>) {
      %0 = "stablehlo.map"(%x) ({
      ^bb0(%a: tensor<bf16>):
        %e = chlo.erf_inv %a : tensor<bf16> -> tensor<bf16>
        stablehlo.return %e : tensor<bf16>
      }) {dimensions = array<i64: 0, 1>} : (tensor<2x3xbf16>) -> tensor<2x3xbf16>
      %1 = "stablehlo.map"(%y) ({
      ^bb0(%a: tensor<f64>):
        %s = chlo.square %a : tensor<f64> -> tensor<f64>
        %p = stablehlo.compare GT, %s, %a : (tensor<f64>, tensor<f64>) -> tensor<i1>
        %m = stablehlo.select %p, %s, %a : tensor<i1>, tensor<f64>
        %r = stablehlo.exponential %m : tensor<f64>
        stablehlo.return %r : tensor<f64>
      }) {dimensions = array<i64: 0, 1>} : (tensor<2x3xf64>) -> tensor<2x3xf64>
      return %0, %1 : tensor<2x3xbf16>, tensor<2x3xf64>
    }"""
    x = np.array([[0.5, -0.25, 0.9], [0.0, -0.99, 0.1]], ml_dtypes.bfloat16)
    y = np.array([[0.5, -2.0, 1.5], [0.0, 3.0, -0.1]])
    _against_xla(body, x, y, exact=False)
    pad = """func.func @main(%x: tensor<0x1xi32>, %v: tensor<i32>) -> tensor<2x4xi32> {
      %0 = stablehlo.pad %x, %v, low = [1, 2], high = [1, 1], interior = [0, 0] : (tensor<0x1xi32>, tensor<i32>) -> tensor<2x4xi32>
      return %0 : tensor<2x4xi32>
    }"""
    _against_xla(pad, np.zeros((0, 1), np.int32), np.int32(7))
    dot = """func.func @main(%a: tensor<0xf32>, %b: tensor<0xf32>) -> tensor<f32> {
      %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<0xf32>, tensor<0xf32>) -> tensor<f32>
      return %0 : tensor<f32>
    }"""
    _against_xla(dot, np.zeros(0, np.float32), np.zeros(0, np.float32))


def test_float_compared_with_itself_keeps_nan():
    def f(x):
        return jnp.where(x == x, x, 5.0), x <= x, x[0] >= x[0], x != x

    x = np.array([np.nan, 1.0, np.inf], np.float32)
    for a, e in zip(stablehlo_tvm.jit(f)(x), jax.jit(f)(x)):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(e))


def test_unsigned_subtraction_and_integer_chains_in_map_bodies():
    # Once region-body kernels: TVM proved x >> x to be 0 and folded the
    # unsigned 0 - x to 0; a sign/not/shift chain failed its constant
    # folder ("cannot make uint from negative value"). Maps of elementwise
    # bodies are tensor ops now.
    unsigned = """func.func @main(%x: tensor<4xui64>) -> tensor<4xui64> {
      %0 = "stablehlo.map"(%x) ({
      ^bb0(%a: tensor<ui64>):
        %s = stablehlo.shift_right_logical %a, %a : tensor<ui64>
        %d = stablehlo.subtract %s, %a : tensor<ui64>
        stablehlo.return %d : tensor<ui64>
      }) {dimensions = array<i64: 0>} : (tensor<4xui64>) -> tensor<4xui64>
      return %0 : tensor<4xui64>
    }"""
    _against_xla(unsigned, np.array([6, 0, 1, 2**63], np.uint64))
    chain = """func.func @main(%x: tensor<6xi16>) -> tensor<6xi16> {
      %0 = "stablehlo.map"(%x) ({
      ^bb0(%a: tensor<i16>):
        %s = stablehlo.sign %a : tensor<i16>
        %n = stablehlo.not %a : tensor<i16>
        %l = stablehlo.shift_left %s, %n : tensor<i16>
        %m = stablehlo.maximum %a, %a : tensor<i16>
        %t = stablehlo.sign %m : tensor<i16>
        %r = stablehlo.remainder %l, %t : tensor<i16>
        stablehlo.return %r : tensor<i16>
      }) {dimensions = array<i64: 0>} : (tensor<6xi16>) -> tensor<6xi16>
      return %0 : tensor<6xi16>
    }"""
    _against_xla(chain, np.array([-3, -1, 0, 1, 15, -32768], np.int16))


def test_runs_in_pieces_merge_into_one_report(tmp_path):
    from stablehlo_tvm.difftest.__main__ import main

    pieces = []
    for k, statuses in enumerate([["pass", "explained"], ["mismatch", "pass"]]):
        path = tmp_path / f"results{k}.jsonl"
        rows = [
            {"index": 2 * k + i, "family": "add", "detail": "", "types": ["f32"], "status": s, "message": "m" if s != "pass" else ""}
            for i, s in enumerate(statuses)
        ]
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
        pieces.append(str(path))
    assert main(["--seed", "7", "--merge", *pieces, "--out", str(tmp_path / "out")]) == 1  # one mismatch
    report = (tmp_path / "out" / "report.md").read_text()
    assert "4 generated programs (seed 7)" in report
    assert "2 exactly or within 3 ULP, 1 with every difference explained; 1 mismatch" in report
    with pytest.raises(SystemExit, match="more than one"):
        main(["--seed", "7", "--merge", pieces[0], pieces[0], "--out", str(tmp_path / "again")])


@pytest.mark.parametrize(
    "body, element, init, shape",
    [
        ("minimum", "i1", True, (0, 1, 7)),  # all() of nothing
        ("maximum", "i1", False, (0, 1, 7)),  # any() of nothing
        ("and", "i1", True, (2, 0)),
        ("maximum", "f32", -1.5, (3, 0)),
        ("add", "i32", 7, (0,)),
    ],
)
def test_reductions_of_nothing_are_the_init_value(body, element, init, shape):
    dims = ", ".join(str(d) for d in range(len(shape)))
    spelled = "x".join(map(str, shape))
    text = f"""func.func @main(%a: tensor<{spelled}x{element}>, %i: tensor<{element}>) -> tensor<{element}> {{
  %r = stablehlo.reduce(%a init: %i) applies stablehlo.{body} across dimensions = [{dims}] : (tensor<{spelled}x{element}>, tensor<{element}>) -> tensor<{element}>
  return %r : tensor<{element}>
}}"""
    dtype = {"i1": np.bool_, "f32": np.float32, "i32": np.int32}[element]
    got = stablehlo_tvm.build(text)(np.zeros(shape, dtype), np.array(init, dtype))
    assert got == np.array(init, dtype)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_atan2_without_the_formulas_cancellation(dtype):
    """atan2 of complex operands is -i log((x + iy) / sqrt(x^2 + y^2)): the
    log of a number near 1, which XLA and the formula as written compute
    to 1e-11 relative error in f64 (and overflow to NaN for parts near the
    largest float). Within 4 epsilons (normwise) of a 2200-bit evaluation,
    and never further from it than XLA."""
    rng = np.random.default_rng(7)
    scales = 10.0 ** rng.uniform(-3, 3, (4, 64))
    y = (rng.normal(size=64) * scales[0] + 1j * rng.normal(size=64) * scales[1]).astype(dtype)
    x = (rng.normal(size=64) * scales[2] + 1j * rng.normal(size=64) * scales[3]).astype(dtype)
    big = float(np.finfo(y.real.dtype).max)
    y[:3] = [complex(-8.97, 0.56), complex(105.7, -1.0), complex(-0.45, 0.0)]
    x[:3] = [complex(big, 1.29), complex(big, -0.9), complex(284.05, -4.75)]
    element = "complex<f32>" if dtype == "complex64" else "complex<f64>"
    t = f"tensor<64x{element}>"
    text = f"func.func @main(%y: {t}, %x: {t}) -> {t} {{\n  %r = stablehlo.atan2 %y, %x : {t}\n  return %r : {t}\n}}\n"
    ours = np.asarray(stablehlo_tvm.build(text)(y, x))
    (theirs,) = xla.run(text, [y, x])
    lines = ['%r = "stablehlo.atan2"(%y, %x) : (t, t) -> t']
    reference = np.array(precise.evaluate(lines, "%r", {"%y": y, "%x": x}, list(range(64))), dtype=np.complex128)
    eps = float(np.finfo(y.real.dtype).eps)
    ours_error = np.abs(ours - reference) / np.abs(reference)
    xla_error = np.abs(theirs.astype(np.complex128) - reference) / np.abs(reference)
    assert (ours_error <= 4 * eps).all(), ours_error.max()
    assert (ours_error <= np.where(np.isfinite(xla_error), xla_error, np.inf) + eps).all()


def test_complex_sqrt_of_an_infinite_imaginary_part():
    """C99: sqrt(a +- inf i) = inf +- inf i for every a (NaN too); the
    half-angle formula made inf / inf = NaN of one part."""
    z = np.array([complex(-1.27, -np.inf), complex(0.67, -np.inf), complex(np.nan, np.inf), complex(-np.inf, np.inf)])
    got = np.asarray(stablehlo_tvm.jit(jnp.sqrt)(z))
    want = np.array([complex(np.inf, -np.inf), complex(np.inf, -np.inf), complex(np.inf, np.inf), complex(np.inf, np.inf)])
    assert np.array_equal(got, want), got


def test_a_200_bit_reference_judges_where_long_double_cancels():
    """f64 erfc near 1.45: scipy's float64 value is the reference's own
    last digits; the 2,200-bit evaluation says which side is nearer."""
    lines = ['%r = "chlo.erfc"(%x) : (t) -> t']
    (value,) = precise.evaluate(lines, "%r", {"%x": np.array([1.453436719004561])}, [0])
    assert value == 0.039833638122787805
    lines = ['%r = "stablehlo.log"(%x) : (t) -> t']
    assert precise.evaluate(lines, "%r", {"%x": np.array([-1.0, np.inf])}, [0, 1]) == [None, None]


def test_complex_division_and_exp_special_values():
    """C99 Annex G where Smith's division gives NaN: nonzero / 0 is an
    infinity, finite / infinite a zero, infinite / finite an infinity;
    exp(a + 0i) keeps its zero imaginary part where e^a overflows. jax.jit
    agrees on all but the infinite dividend, where XLA's imaginary part is
    infinite and its real part NaN."""
    f32max = float(np.finfo(np.float32).max)
    x = np.array([1 + 0j, -3.4e38 + 1.7j, 2 - 77.7j, -175.3 - np.inf * 1j], np.complex64)
    y = np.array([0j, complex(np.inf, np.nan), complex(3.3, -np.inf), -162.1 - 1e-38j], np.complex64)
    z = np.array([complex(f32max, 0.0), complex(-87.34, 0.7), complex(1.0, -0.0)], np.complex64)

    def f(x, y, z):
        return x / y, jnp.exp(z)

    quotient, exponential = (np.asarray(v) for v in stablehlo_tvm.jit(f)(x, y, z))
    want_q, want_e = (np.asarray(v) for v in jax.jit(f)(x, y, z))
    np.testing.assert_array_equal(quotient[:3], want_q[:3])
    assert quotient[3] == complex(np.inf, np.inf)
    assert exponential[0] == complex(np.inf, 0.0)
    # XLA flushes e^-87.34 (subnormal in f32) to zero; the import does not.
    np.testing.assert_allclose(exponential[1], np.exp(np.complex128(z[1])), rtol=1e-6)
    np.testing.assert_array_equal(exponential[2], want_e[2])


def test_float64_erfc_ulp_error():
    """Within 3 ULP of mpmath's erfc over [-6, 27.5] (1 - erf lost 5 bits at
    1.45 and 15 at 3; XLA's exp(-x^2) of a rounded x^2 is hundreds of ULP
    off beyond 20), and the special values jax.jit gives."""
    mpmath = pytest.importorskip("mpmath")
    grid = np.concatenate([np.linspace(-6, 27.5, 1500), [0.4999999, 0.5, 1.453436719004561, 2.0, 4.0, np.nextafter(4.0, 0)]])
    specials = np.array([0.0, -0.0, 30.0, -30.0, np.inf, -np.inf, np.nan])
    f = jax.jit(jax.lax.erfc)
    with jax.enable_x64(True):
        got = np.asarray(stablehlo_tvm.jit(jax.lax.erfc)(grid))
        got_specials = np.asarray(stablehlo_tvm.jit(jax.lax.erfc)(specials))
        want_specials = np.asarray(f(specials))
    with mpmath.workprec(200):
        want = np.array([float(mpmath.erfc(mpmath.mpf(float(v)))) for v in grid])
    ulps = np.abs(got - want) / np.spacing(want)
    worst = int(np.argmax(ulps))
    assert ulps[worst] <= 3, f"erfc({grid[worst]!r}) = {got[worst]!r}, want {want[worst]!r}"
    np.testing.assert_array_equal(got_specials, want_specials)


def test_float64_erf_inv_ulp_error():
    """Within 2 ULP of mpmath's inverse erf over (-1, 1), to 1e-9 of +-1
    (the last Newton step's residual as (1 - |y|) - erfc(|x|): 7 ULP at
    y = 0.998 before), and +-1 give +-inf."""
    mpmath = pytest.importorskip("mpmath")
    grid = np.concatenate([np.linspace(-0.999, 0.999, 801), [0.9981371956512293, 0.9875133960396355, 0.6304732296689064, 0.5, 1 - 1e-6, -(1 - 1e-9), 1e-300]])
    with jax.enable_x64(True):
        got = np.asarray(stablehlo_tvm.jit(jax.lax.erf_inv)(grid))
        ends = np.asarray(stablehlo_tvm.jit(jax.lax.erf_inv)(np.array([1.0, -1.0])))
    with mpmath.workprec(200):
        want = np.array([float(mpmath.erfinv(mpmath.mpf(float(v)))) for v in grid])
    ulps = np.abs(got - want) / np.spacing(np.abs(want))
    worst = int(np.argmax(ulps))
    assert ulps[worst] <= 2, f"erf_inv({grid[worst]!r}) = {got[worst]!r}, want {want[worst]!r}"
    np.testing.assert_array_equal(ends, [np.inf, -np.inf])


@pytest.mark.parametrize("name", ["lgamma", "digamma", "bessel_i1e"])
def test_float64_lgamma_digamma_ulp_error(name):
    """Within 3 ULP of mpmath for x > 0 (a Lanczos sum was 20 ULP off at
    lgamma(2.8); summing 1/y up to 10 cancelled next to digamma's zero;
    I1's power series times exp(-y) was 10 ULP off near 24; XLA: up to
    2,000 ULP), and the special values jax.jit gives."""
    mpmath = pytest.importorskip("mpmath")
    f = getattr(jax.lax, name)
    exact = {
        "lgamma": lambda v: mpmath.log(abs(mpmath.gamma(v))),
        "digamma": mpmath.digamma,
        "bessel_i1e": lambda v: mpmath.besseli(1, v) * mpmath.exp(-v),
    }[name]
    grid = np.concatenate([np.linspace(0.01, 30, 700), np.geomspace(30, 1e300, 60), np.geomspace(1e-300, 0.01, 60), [1.4616321449683622]])
    specials = np.array([1.0, 2.0, -1.0, -2.0, -100.0, np.inf, np.nan, 0.0, -0.0])
    with jax.enable_x64(True):
        got = np.asarray(stablehlo_tvm.jit(f)(grid))
        got_specials = np.asarray(stablehlo_tvm.jit(f)(specials))
        want_specials = np.asarray(jax.jit(f)(specials))
    with mpmath.workprec(200):
        want = np.array([float(exact(mpmath.mpf(float(v)))) for v in grid])
    ulps = np.abs(got - want) / np.spacing(np.abs(want))
    worst = int(np.argmax(ulps))
    assert ulps[worst] <= 3, f"{name}({grid[worst]!r}) = {got[worst]!r}, want {want[worst]!r}"
    np.testing.assert_allclose(got_specials, want_specials, rtol=1e-15)
    assert np.array_equal(np.signbit(got_specials), np.signbit(want_specials))


def test_complex_power_modulus_rounds_once():
    """x^y as |x|^c e^(-d arg x) (cos t, sin t), t = c arg x + d log|x|:
    e^(Re(y log x)) carried the rounding of c log|x| into the modulus (2e-14
    relative for 0.01^40). Within 4 epsilons of a 300-bit value, or where
    rounding |x| itself is amplified c times (5^150), no further than XLA;
    special values as jax.jit has them."""
    mpmath = pytest.importorskip("mpmath")
    x = np.array([5 + 1e-3j, 0.01 + 1e-5j, 1e10 + 1j, 3 - 2e-4j])
    y = np.array([150 + 0j, 40 + 0.5j, 7 - 0.01j, -300 + 2j])
    with jax.enable_x64(True):
        got = np.asarray(stablehlo_tvm.jit(jnp.power)(x, y))
        special_x = np.array([0j, 0j, 1 + 0j, complex(np.inf, 0), complex(np.nan, 1), 2 + 0j])
        special_y = np.array([0j, 2 + 0j, complex(np.nan, 0), 1 + 0j, 1 + 0j, 0j])
        got_special = np.asarray(stablehlo_tvm.jit(jnp.power)(special_x, special_y))
        theirs = np.asarray(jax.jit(jnp.power)(x, y))
        want_special = np.asarray(jax.jit(jnp.power)(special_x, special_y))
    with mpmath.workprec(300):
        want = np.array([complex(mpmath.exp(mpmath.mpc(b) * mpmath.log(mpmath.mpc(a)))) for a, b in zip(x, y)])
    error = np.abs(got - want) / np.abs(want)
    xla_error = np.abs(theirs - want) / np.abs(want)
    assert (error <= np.maximum(4 * np.finfo(np.float64).eps, 1.5 * xla_error)).all(), (error, xla_error)
    assert (error[1:3] <= 4 * np.finfo(np.float64).eps).all(), error
    np.testing.assert_array_equal(got_special, want_special)


def test_complex_power_differences_within_the_rounding_of_y_log_x_are_explained():
    """A complex power is as accurate as y log x can be rounded: either side
    may land anywhere within (|c| + |d|) ulp(log x) of the exact value. A
    difference within that bound on both sides is explained; a result
    outside it (here 100 times the bound) still is a mismatch."""
    pytest.importorskip("mpmath")
    case = next(c for c in (generate(86, i, ["binary"]) for i in range(5000)) if c.family == "power" and c.detail == "complex<f64>")
    x = np.array([[-4.414362242787028 + 56.535019444665835j, 1.5 - 0.25j]])
    y = np.array([[-0.04977070595308956 - 4.30582842524812j, 0.5 + 0.5j]])
    case.args = [x, y]
    exact = np.array(precise.evaluate(case.body, case.results[0], {"%a0": x, "%a1": y}, [0, 1]))
    bound = np.array(case.rounding_bound[1](case.args, [0, 1]))
    eps = np.finfo(np.float64).eps
    assert 10 < bound[0] < 60 and bound[1] < 12, bound
    # XLA 2 epsilons off, the import 12 (both within the first bound).
    xla_result = (exact * (1 + 2 * eps)).reshape(1, 2)
    ours = (exact * np.array([1 + 12 * eps, 1 + 2 * eps])).reshape(1, 2)
    bad = difftest.mismatches(ours, xla_result, exact=False)
    assert bad.tolist() == [[True, False]]
    assert "rounding y log x" in difftest_run.explain(case, ours, xla_result, bad)
    ours[0, 0] = exact[0] * (1 + 100 * bound[0] * eps)
    assert difftest_run.explain(case, ours, xla_result, difftest.mismatches(ours, xla_result, exact=False)) is None


def test_digamma_differences_within_its_reflections_rounding_are_explained():
    """Below 1/2, digamma is psi(1 - x) - pi cot(pi x): where the terms
    cancel (psi(-83.777) is 0.46 from terms of 4.4 and 4.0), rounding them
    puts either side up to ~40 epsilons off. Within that, a difference is
    explained; beyond it, and from 1/2 on (no bound), it is not."""
    pytest.importorskip("mpmath")
    case = next(c for c in (generate(86, i, ["unary"]) for i in range(5000)) if c.family == "chlo.digamma" and c.detail == "f64")
    x = np.array([-83.77735256012156, 2.5])
    case.args = [x]
    case.reference = None  # judged by the 2,200-bit evaluation alone
    exact = np.array(precise.evaluate(case.body, case.results[0], {"%a0": x}, [0, 1]))
    bound = np.array(case.rounding_bound[1](case.args, [0, 1]))
    eps = np.finfo(np.float64).eps
    assert 10 < bound[0] < 100 and bound[1] == 0, bound
    xla_result = exact * (1 + np.array([eps, 0]))
    ours = exact * (1 + np.array([8 * eps, 0]))
    bad = difftest.mismatches(ours, xla_result, exact=False)
    assert bad.tolist() == [True, False]
    assert "reflection" in difftest_run.explain(case, ours, xla_result, bad)
    ours[0] = exact[0] * (1 + 100 * bound[0] * eps)
    assert difftest_run.explain(case, ours, xla_result, difftest.mismatches(ours, xla_result, exact=False)) is None
    ours = exact * (1 + np.array([0, 8 * eps]))
    assert difftest_run.explain(case, ours, xla_result, difftest.mismatches(ours, xla_result, exact=False)) is None


def _judged(case, ours, xla_result, differing):
    """The judge's reason for `ours` against `xla_result` (None: a
    mismatch), after checking which elements differ at all."""
    bad = difftest.mismatches(ours, xla_result, exact=False)
    assert bad.tolist() == differing
    return difftest_run.explain(case, ours, xla_result, bad)


def _expression_case(lines_of, n_args, args, element="complex<f32>"):
    """An `expression` case over `element` arguments `args` whose body
    `lines_of(body, type)` builds (returning the result's name)."""
    from stablehlo_tvm.difftest import ops
    from stablehlo_tvm.difftest.types import TYPES

    t = TYPES[element]
    tt = ops.tensor_type(args[0].shape, t.name)
    body = ops._Body()
    r = lines_of(body, tt)
    case = ops.Case("expression", t.name, list(args), [tt] * n_args, body.lines, [r], [tt])
    ops._attach_models(case, t, body.lines, r, [f"%a{i}" for i in range(n_args)])
    return case


def test_non_finite_complex_results_are_explained_only_where_infinities_meet():
    """(a0 + a0) * a1 in complex<f32>: where a0 is near the largest float
    the sum overflows, though the exact product is finite, and where a0 has
    an infinite part: both sides non-finite (NaN or infinity in different
    parts) is explained there. Elsewhere a non-finite result stays a
    mismatch, as does a finite difference. Also: the 2,200-bit
    value rounded to the type (infinite beyond the range) explains a result
    equal to it, and a leaf the program does not read may be infinite."""
    pytest.importorskip("mpmath")
    big = np.float32(3e38)
    a0 = np.array([complex(big, 1), complex(np.inf, 1), 2 + 1j, complex(1e38, 1e38)], np.complex64)
    a1 = np.array([1e-30 + 0j, 1 + 0j, 3 - 1j, 1e30 + 1e30j], np.complex64)
    a2 = np.array([complex(np.inf, 0)] * 4, np.complex64)  # not read

    def lines(body, tt):
        s = body.op("stablehlo.add", ["%a0", "%a0"], [tt, tt], tt)
        return body.op("stablehlo.multiply", [s, "%a1"], [tt, tt], tt)

    case = _expression_case(lines, 3, [a0, a1, a2])
    # These rules alone (long double does not overflow; the ops evaluated
    # one by one in the type would explain the last by themselves).
    case.float_model = case.stepwise_model = case.typed_precise = None
    nan, inf = np.float32(np.nan), np.float32(np.inf)
    ours = np.array([complex(inf, inf), complex(inf, inf), 14 + 2j, complex(0, inf)], np.complex64)
    xla_result = np.array([complex(nan, nan), complex(nan, inf), 14 + 2j, complex(nan, inf)], np.complex64)
    bad = difftest.mismatches(ours, xla_result, exact=False)
    assert bad.tolist() == [True, True, False, True]
    reason = difftest_run.explain(case, ours, xla_result, bad)
    assert "beyond the type's range" in reason and "argument's infinite or NaN part" in reason
    # The last one's exact value, (2e38 + 2e38i)(1e30 + 1e30i) = 4e68i,
    # rounds to 0 + inf i: equal to it, explained as such.
    assert "2,200-bit" in reason
    overflowed = ours.copy()
    overflowed[2] = complex(inf, 1)  # no infinity meets there: not explained
    bad = difftest.mismatches(overflowed, xla_result, exact=False)
    assert difftest_run.explain(case, overflowed, xla_result, bad) is None
    off = ours.copy()
    off[2] = 14.5 + 2j
    bad = difftest.mismatches(off, xla_result, exact=False)
    assert difftest_run.explain(case, off, xla_result, bad) is None


def test_half_precision_chains_are_judged_with_each_op_rounded_to_the_type():
    """sinh(x * y) in bf16: the spec types the product bf16 (29.33 rounds
    to 29.375) and sinh amplifies that rounding 29 times; XLA keeps the
    product in f32. A result within 3 ULP of the ops evaluated one by one,
    each rounded to bf16, is explained; one twice that is not."""
    x = np.array([2.84375, 1.5], ml_dtypes.bfloat16)
    y = np.array([10.3125, 2.0], ml_dtypes.bfloat16)

    def lines(body, tt):
        p = body.op("stablehlo.multiply", ["%a0", "%a1"], [tt, tt], tt)
        return body.op("chlo.sinh", [p], [tt], tt)

    case = _expression_case(lines, 2, [x, y], element="bf16")
    stepwise = np.sinh(np.float64(np.asarray(x[0] * y[0], ml_dtypes.bfloat16)))
    ours = np.array([stepwise, np.sinh(3.0)], ml_dtypes.bfloat16)
    xla_result = np.array([np.sinh(np.float64(x[0]) * np.float64(y[0])), np.sinh(3.0)], ml_dtypes.bfloat16)
    bad = difftest.mismatches(ours, xla_result, exact=False)
    assert bad.tolist() == [True, False]
    assert "each value rounded to the type" in difftest_run.explain(case, ours, xla_result, bad)
    # Twice the value: beyond even what rounding each op once allows (sinh
    # carries the product's 0.4% 29 times: 3 x 30 bf16 epsilons is 70%).
    ours[0] = ml_dtypes.bfloat16(float(stepwise) * 2)
    bad = difftest.mismatches(ours, xla_result, exact=False)
    assert difftest_run.explain(case, ours, xla_result, bad) is None


def test_an_intermediate_leaving_the_range_is_judged_with_each_op_rounded_to_the_type():
    """log(exp(x)) in f32 at x = -161: exp underflows to 0 in the type and
    log(0) is -inf, as the spec types each op; XLA rewrites the pair to x.
    The typed result is explained; another value is not."""
    x = np.array([-161.0, 1.5], np.float32)

    def lines(body, tt):
        e = body.op("stablehlo.exponential", ["%a0"], [tt], tt)
        return body.op("stablehlo.log", [e], [tt], tt)

    case = _expression_case(lines, 1, [x], element="f32")
    ours = np.array([-np.inf, 1.5], np.float32)
    xla_result = np.array([-161.0, 1.5], np.float32)
    bad = difftest.mismatches(ours, xla_result, exact=False)
    assert bad.tolist() == [True, False]
    assert "each value rounded to the type" in difftest_run.explain(case, ours, xla_result, bad)
    ours[0] = -160.0
    bad = difftest.mismatches(ours, xla_result, exact=False)
    assert difftest_run.explain(case, ours, xla_result, bad) is None


def _only_rule(case, keep):
    """`case` with only the judge's model `keep` (and what the rules
    before it need), so that one rule is tested alone."""
    for name in ("float_model", "stepwise_model", "precise", "rounding_spread", "on_branch_cut", "beyond_range", "typed_precise"):
        if name not in keep:
            setattr(case, name, None)
    return case


def test_typed_evaluation_at_2200_bits_where_long_double_cancels():
    """atan2(-a0, a1) in complex64 at a1 = 3.4e38 + 88i, a0 = -50.9i: the
    value is 1.49e-37i, the ratio in the spec's formula 1 + 1e-75, which
    long double rounds to 1 (so its model says 0). Ours equal to the value
    in the type is explained by the ops evaluated at 2,200 bits, each rounded
    to the type; twice that is not."""
    mp = pytest.importorskip("mpmath")
    a0 = np.array([complex(0, -50.855713), 1 + 1j], np.complex64)
    a1 = np.array([complex(3.4028235e38, 87.86436), 2 + 0j], np.complex64)

    def lines(body, tt):
        n = body.op("stablehlo.negate", ["%a0"], [tt], tt)
        return body.op("stablehlo.atan2", [n, "%a1"], [tt, tt], tt)

    case = _only_rule(_expression_case(lines, 2, [a0, a1]), {"typed_precise"})
    with mp.workdps(200):
        x, y = mp.mpc(float(a1[0].real), float(a1[0].imag)), mp.mpc(0, 50.855712890625)
        value = complex(-1j * mp.log((x + 1j * y) / mp.sqrt(x * x + y * y)))
    assert abs(value.imag - 1.4945e-37) < 1e-40 and abs(value.real) < 1e-60  # the real part rounds to 0
    # The premise: long double's spec formula gives 0 there.
    long = np.clongdouble(complex(a1[0])), np.clongdouble(50.855712890625j)
    assert -1j * np.log((long[0] + 1j * long[1]) / np.sqrt(long[0] ** 2 + long[1] ** 2)) == 0
    nan, inf = np.float32(np.nan), np.float32(np.inf)
    ours = np.array([value, 0.5 + 0.25j], np.complex64)
    xla_result = np.array([complex(nan, inf), 0.5 + 0.25j], np.complex64)
    reason = _judged(case, ours, xla_result, [True, False])
    assert "2,200 bits, each value rounded to the type" in reason
    ours[0] = complex(0, 2 * value.imag)
    assert _judged(case, ours, xla_result, [True, False]) is None


def test_a_pole_of_operands_in_the_type_explains_non_finite_results_only():
    """atan2(sign(a0), a1) in complex64 at a0 = 2.5i, a1 = 1: sign is i
    exactly, x + iy and x^2 + y^2 are 0, the formula's log(0/0): both
    results non-finite there are explained; a finite result of ours is not,
    nor non-finite results where the operands are not at the pole."""
    pytest.importorskip("mpmath")
    a0 = np.array([2.5j, 2.5j], np.complex64)
    a1 = np.array([1 + 0j, 2 + 0j], np.complex64)

    def lines(body, tt):
        s = body.op("stablehlo.sign", ["%a0"], [tt], tt)
        return body.op("stablehlo.atan2", [s, "%a1"], [tt, tt], tt)

    case = _only_rule(_expression_case(lines, 2, [a0, a1]), {"typed_precise"})
    nan, inf = np.float32(np.nan), np.float32(np.inf)
    ours = np.array([complex(-0.0, inf), complex(inf, 0)], np.complex64)
    xla_result = np.array([complex(nan, nan), complex(nan, nan)], np.complex64)
    # At the pole: explained; where atan2(i, 2) is finite: not.
    assert _judged(case, ours, xla_result, [True, True]) is None
    ours[1] = xla_result[1] = 0.5 + 0.5j
    assert "pole or an indeterminate form" in _judged(case, ours, xla_result, [True, False])
    ours[0] = 1.5 + 3j
    assert _judged(case, ours, xla_result, [True, False]) is None


def test_after_a_complex_intermediate_beyond_the_range_the_result_is_not_judged_where_xla_gave_up():
    """tan(x^x / x) in complex64 at x = 50.4 + 63i: x^x (1e71) is beyond
    f32, an infinity with only its quadrant in the type, and the sign of
    tan's imaginary part (the value's is +i) turns on the direction it lost.
    Where XLA's result is NaN, ours (-i) is explained; where XLA's is
    finite, it is not; nor is a finite result of ours where only the
    result itself is beyond the range."""
    pytest.importorskip("mpmath")
    x = np.array([50.369175 + 62.96728j, 1 + 1j], np.complex64)

    def lines(body, tt):
        p = body.op("stablehlo.power", ["%a0", "%a0"], [tt, tt], tt)
        q = body.op("stablehlo.divide", [p, "%a0"], [tt, tt], tt)
        return body.op("chlo.tan", [q], [tt], tt)

    case = _only_rule(_expression_case(lines, 1, [x]), {"beyond_range"})
    nan = np.float32(np.nan)
    ours = np.array([-1j, 0.25 + 0.5j], np.complex64)
    xla_result = np.array([complex(nan, nan), 0.25 + 0.5j], np.complex64)
    assert "beyond the type's range" in _judged(case, ours, xla_result, [True, False])
    xla_result[0] = 1j
    assert _judged(case, ours, xla_result, [True, False]) is None

    big = np.array([complex(1e30, 1e30), 1 + 1j], np.complex64)

    def product(body, tt):
        n = body.op("stablehlo.negate", ["%a0"], [tt], tt)
        return body.op("stablehlo.multiply", [n, "%a0"], [tt, tt], tt)

    case = _only_rule(_expression_case(product, 1, [big]), {"beyond_range"})
    ours = np.array([1 + 1j, -2j], np.complex64)
    xla_result = np.array([complex(nan, nan), -2j], np.complex64)
    assert _judged(case, ours, xla_result, [True, False]) is None


def test_a_complex_sign_counts_as_rounded_in_the_first_order_condition():
    """power(sign(log1p(z)), z) in complex64 at z = 74 - 0.67i: sign is
    z / |z|, off by an epsilon, and the power carries that 74 times; both
    results within that spread are explained (with sign taken as exact
    they were not), one ten times as far is not."""
    pytest.importorskip("mpmath")
    a0 = np.array([74.16346 - 0.66537637j, 1 + 1j], np.complex64)

    def lines(body, tt):
        l = body.op("stablehlo.log_plus_one", ["%a0"], [tt], tt)
        s = body.op("stablehlo.sign", [l], [tt], tt)
        return body.op("stablehlo.power", [s, "%a0"], [tt, tt], tt)

    case = _expression_case(lines, 1, [a0])
    case.float_model = case.stepwise_model = None  # the first-order rule alone
    ours = np.array([0.9871362 - 0.15119025j, 0], np.complex64)
    xla_result = np.array([0.98712647 - 0.15118867j, 0], np.complex64)
    assert "first-order condition" in _judged(case, ours, xla_result, [True, False])
    ours[0] = 0.9872 - 0.1512j
    assert _judged(case, ours, xla_result, [True, False]) is None
    # Against a NaN of XLA's, the import's result alone is held to it.
    xla_result[0] = complex(np.nan, np.nan)
    ours[0] = 0.9871362 - 0.15119025j
    assert "first-order condition" in _judged(case, ours, xla_result, [True, False])
    ours[0] = 0.9872 - 0.1512j
    assert _judged(case, ours, xla_result, [True, False]) is None


def test_an_infinite_operand_a_minimum_passes_over_is_evaluated():
    """rsqrt(atan2(minimum(a1, a0), a0)): the minimum is a0 (a smaller
    real part) though a1 is -inf i, so the 2,200-bit evaluation goes on
    with a0, whose atan2(z, z) lies on rsqrt's cut: explained there; a
    difference off the cut is not."""
    pytest.importorskip("mpmath")
    a0 = np.array([-0.28864902 + 1.1345747j, 1 + 1j], np.complex64)
    a1 = np.array([complex(0, -np.inf), 5 + 0j], np.complex64)

    def lines(body, tt):
        m = body.op("stablehlo.minimum", ["%a1", "%a0"], [tt, tt], tt)
        a = body.op("stablehlo.atan2", [m, "%a0"], [tt, tt], tt)
        return body.op("stablehlo.rsqrt", [a], [tt], tt)

    # The rules before the branch cut's alone (the typed evaluation,
    # without signed zeros, happens to take ours's side of the cut).
    case = _expression_case(lines, 2, [a0, a1])
    case.typed_precise = None
    ours = np.array([-0.65147j, 1.1283792 + 0j], np.complex64)
    xla_result = np.array([4.9e-08 + 0.65147j, 1.1283792 + 0j], np.complex64)
    assert "branch cut" in _judged(case, ours, xla_result, [True, False])
    ours[1] = 1.2 + 0j
    assert _judged(case, ours, xla_result, [True, True]) is None


def test_a_complex_part_below_the_rounding_of_the_modulus_is_explained():
    """-pi - 2.6e-22i against -pi - 0i: the imaginary part is below an
    epsilon of the modulus, a residue any formula in complex64 leaves; a
    part of 1e-5 (above that), or a real part 1e-6 off, stays a mismatch."""
    z = np.array([-1 + 0j, 1 + 1j], np.complex64)

    def lines(body, tt):
        return body.op("stablehlo.atan2", ["%a0", "%a0"], [tt, tt], tt)

    case = _expression_case(lines, 1, [z])
    case.float_model = case.stepwise_model = case.precise = None  # this rule alone
    case.rounding_spread = case.on_branch_cut = case.beyond_range = None
    xla_result = np.array([-np.pi - 0j, 0.7853982 + 0j], np.complex64)
    for part, explained in ((-2.6e-22j, True), (-1e-5j, False), (1e-6, False)):
        ours = xla_result.copy()
        ours[0] += part
        bad = difftest.mismatches(ours, xla_result, exact=False)
        assert bad.tolist() == [True, False]
        reason = difftest_run.explain(case, ours, xla_result, bad)
        assert (reason is not None and "below that" in reason) == explained, (part, reason)


def test_one_to_a_nan_power_is_one_where_the_exact_base_is_one():
    """power(sign(atan2(z, z)), y / rsqrt(w)) with w NaN: the exact base is
    1 (atan2(z, z) is pi/4 for Re z > 0) and 1^y is 1 for any y, NaN
    included; XLA's base, 1 + 1e-16i, gives NaN. The 2,200-bit evaluation
    carries the NaN to the power: 1 is explained there, 2 is not."""
    pytest.importorskip("mpmath")
    z = np.array([3.141592653589793 - 18.82902303568662j, 1 + 1j])
    y = np.array([2.193048890324344 - 4.598946432754401j, 2 + 0j])
    w = np.array([complex(67.75282241394706, np.nan), 4 + 0j])

    def lines(body, tt):
        a = body.op("stablehlo.atan2", ["%a0", "%a0"], [tt, tt], tt)
        s = body.op("stablehlo.sign", [a], [tt], tt)
        r = body.op("stablehlo.rsqrt", ["%a2"], [tt], tt)
        e = body.op("stablehlo.divide", ["%a1", r], [tt, tt], tt)
        return body.op("stablehlo.power", [s, e], [tt, tt], tt)

    case = _expression_case(lines, 3, [z, y, w], element="complex<f64>")
    case.typed_precise = None  # (which applies the same rule in the type)
    ours = np.array([1 + 0j, 1 + 0j])
    xla_result = np.array([complex(np.nan, np.nan), 1 + 0j])
    assert "2,200-bit" in _judged(case, ours, xla_result, [True, False])
    ours[0] = 2 + 0j
    assert _judged(case, ours, xla_result, [True, False]) is None


def test_xla_nan_is_no_distance_to_be_as_close_as():
    """sqrt(x * x - 20) in f32: at x = 4 the value is NaN, and a finite
    result of ours (2) against XLA's NaN is not explained by any "as close
    as XLA" rule (an infinite distance of XLA's made any result close
    enough); at x = 5, ours equal to the value (sqrt 5) against a NaN is."""
    x = np.array([4.0, 5.0, 6.0], np.float32)

    def lines(body, tt):
        p = body.op("stablehlo.multiply", ["%a0", "%a0"], [tt, tt], tt)
        c = body.op("stablehlo.subtract", [p, "%a1"], [tt, tt], tt)
        return body.op("stablehlo.sqrt", [c], [tt], tt)

    twenty = np.full(3, 20.0, np.float32)
    case = _expression_case(lines, 2, [x, twenty], element="f32")
    xla_result = np.array([np.nan, np.nan, 4.0], np.float32)
    ours = np.array([2.0, np.sqrt(np.float32(5)), 4.0], np.float32)
    bad = difftest.mismatches(ours, xla_result, exact=False)
    assert bad.tolist() == [True, True, False]
    assert difftest_run.explain(case, ours, xla_result, bad) is None
    pytest.importorskip("mpmath")
    only_second = np.array([False, True, False])
    assert difftest_run.explain(case, ours, xla_result, only_second) is not None


def test_subnormal_complex_results_are_judged_by_absolute_precision():
    """atan2(y, x) with x the largest double: the value, -3.75e-309i, is
    subnormal, where a result's precision is the subnormals' spacing, not
    a relative one. Against XLA's NaN + inf i, the import's result a few
    spacings off the value is explained; 1e-310 off is not."""
    pytest.importorskip("mpmath")
    y = np.array([2.2250738585072014e-308 - 0.6747747137465202j, 1 + 1j])
    x = np.array([1.7976931348623157e308 + 2.2250738585072014e-308j, 1 + 1j])

    def lines(body, tt):
        return body.op("stablehlo.atan2", ["%a0", "%a1"], [tt, tt], tt)

    case = _expression_case(lines, 2, [y, x], element="complex<f64>")
    xla_result = np.array([complex(np.nan, np.inf), np.arctan2(1, 1) + 0j])
    for off, explained in ((1e-323, True), (1e-310, False)):
        ours = np.array([complex(0, -3.75355893984766e-309 + off), np.arctan2(1, 1) + 0j])
        bad = difftest.mismatches(ours, xla_result, exact=False)
        assert bad.tolist() == [True, False]
        assert (difftest_run.explain(case, ours, xla_result, bad) is not None) == explained, off


def test_results_on_a_branch_cut_are_explained():
    """rsqrt(atan2(z, z)): atan2(z, z) is pi/4 or -3 pi/4 with an exactly
    zero imaginary part, and rsqrt of -3 pi/4 is +-0.65 i by that zero's
    sign, which rounding anywhere decides. A difference there is explained;
    at pi/4 (off the cut) it is not."""
    pytest.importorskip("mpmath")
    z = np.array([-0.28864902 + 1.1345747j, 1 + 1j], np.complex64)

    def lines(body, tt):
        a = body.op("stablehlo.atan2", ["%a0", "%a0"], [tt, tt], tt)
        return body.op("stablehlo.rsqrt", [a], [tt], tt)

    case = _expression_case(lines, 1, [z])
    case.typed_precise = None  # (without signed zeros, on ours's side of the cut)
    ours = np.array([-0.65147j, 1.1283792 + 0j], np.complex64)
    xla_result = np.array([4.9e-08 + 0.65147j, 1.1283792 + 0j], np.complex64)
    bad = difftest.mismatches(ours, xla_result, exact=False)
    assert bad.tolist() == [True, False]
    assert "branch cut" in difftest_run.explain(case, ours, xla_result, bad)
    ours[1] = 1.2 + 0j
    bad = difftest.mismatches(ours, xla_result, exact=False)
    assert difftest_run.explain(case, ours, xla_result, bad) is None


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_log1p_near_minus_one(dtype):
    """log1p(z) near z = -1: log1p(2a + a^2 + b^2) / 2 amplified that sum's
    rounding 1 / |1 + z|^2 times (9 ULP at z = -0.906); log|1 + z| is
    exact-argument there. Real parts within 4 ULP of a 300-bit value, as
    elsewhere on the plane."""
    mpmath = pytest.importorskip("mpmath")
    z = np.array([-0.9061096327987312 - 0j, -1.1314334628542926 - 0.19507893373442903j, -0.999 + 1e-3j,
                  -1.5 + 0.25j, 0.3 - 0.2j, 1e-9 + 1e-9j, 3e20 - 1e20j], dtype)
    got = np.asarray(stablehlo_tvm.jit(jnp.log1p)(z))
    real = got.real.dtype
    with mpmath.workprec(300):
        want = np.array([float(mpmath.log(abs(1 + mpmath.mpc(complex(v))))) for v in z]).astype(real)
    ulps = np.abs(got.real.astype(np.float64) - want) / np.spacing(np.abs(want).astype(real)).astype(np.float64)
    assert (ulps <= 4).all(), ulps


def test_composite_differences_within_each_ops_rounding_carried_through_are_explained():
    """exp(x * y) in f64 with x * y = 100: the product's rounding (an
    epsilon of 100) moves the result 100 epsilons, so two evaluations that
    each round every op may differ by that much. Within three times that
    spread of a 2,200-bit evaluation on both sides, a difference is
    explained; a result 100 times further is not, nor is one at a small
    product, where the spread is a few epsilons."""
    pytest.importorskip("mpmath")
    x = np.array([12.5, 0.5])
    y = np.array([8.0, 0.25])

    def lines(body, tt):
        p = body.op("stablehlo.multiply", ["%a0", "%a1"], [tt, tt], tt)
        return body.op("stablehlo.exponential", [p], [tt], tt)

    case = _expression_case(lines, 2, [x, y], element="f64")
    case.reference = case.float_model = None  # the 2,200-bit rules alone
    eps = np.finfo(np.float64).eps
    exact = np.exp(np.longdouble(x) * np.longdouble(y)).astype(np.float64)
    xla_result = exact * (1 + np.array([20, 0]) * eps)
    ours = exact * (1 - np.array([60, 0]) * eps)
    bad = difftest.mismatches(ours, xla_result, exact=False)
    assert bad.tolist() == [True, False]
    assert "first-order condition" in difftest_run.explain(case, ours, xla_result, bad)
    ours[0] = exact[0] * (1 - 10000 * eps)
    assert difftest_run.explain(case, ours, xla_result, difftest.mismatches(ours, xla_result, exact=False)) is None
    ours = exact * (1 - np.array([0, 60]) * eps)
    assert difftest_run.explain(case, ours, xla_result, difftest.mismatches(ours, xla_result, exact=False)) is None


@pytest.mark.parametrize("op", ["minimum", "maximum"])
def test_complex_extrema_order_lexicographically_where_xla_does_not(op):
    """The spec orders complex numbers by (real, imaginary); XLA:CPU returns
    the first operand where the real parts are equal. The import follows
    the spec, and the judge names the departure; a wrong pick where the
    real parts differ is still a mismatch."""
    from stablehlo_tvm.difftest import ops

    a = np.array([2 - 70j, 2 - 1j, 1 + 5j, 3 + 0j])
    b = np.array([2 - 1j, 2 - 70j, 1 + 3j, -1 + 9j])
    case = _expression_case(lambda body, tt: body.op(f"stablehlo.{op}", ["%a0", "%a1"], [tt, tt], tt), 2, [a, b], element="complex<f64>")
    case.family, case.exact = op, True
    case.spec_departure = ops._lexicographic_departure(op)
    text, args = difftest_run.batch_module([case])
    ours, xla_result = difftest_run._run_import(text, args)[0], difftest_run._run_xla(text, args)[0]
    key = lambda z: (z.real, z.imag)
    pick = min if op == "minimum" else max
    np.testing.assert_array_equal(ours, [pick(x, y, key=key) for x, y in zip(a, b)])
    bad = difftest.mismatches(ours, xla_result, exact=True)
    assert bad.any()  # XLA:CPU departs on this input
    assert "real parts are equal" in difftest_run.explain(case, ours, xla_result, bad)
    wrong = ours.copy()
    wrong[3] = b[3] if ours[3] == a[3] else a[3]
    bad = difftest.mismatches(wrong, xla_result, exact=True)
    assert difftest_run.explain(case, wrong, xla_result, bad) is None


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_sqrt_and_rsqrt_where_the_modulus_overflows(dtype):
    """|z| of parts both near the largest float overflows: sqrt(z) was
    inf, rsqrt(z) 0; sqrt(z) is taken from z / 4 there. The same as jax.jit
    at the extremes and within 2 ULP of numpy on ordinary values."""
    big = np.finfo(np.float32 if dtype == "complex64" else np.float64).max
    z = np.array([complex(-big, -big), complex(big, big), complex(big, -1), complex(-1, big), 3 - 4j, -0.5 + 1e-30j], dtype)
    f = lambda z: (jnp.sqrt(z), jax.lax.rsqrt(z))
    got, want = stablehlo_tvm.jit(f)(z), jax.jit(f)(z)
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert np.isfinite(g).all()
        np.testing.assert_allclose(g, w, rtol=4 * np.finfo(g.real.dtype).eps)
    grid = (np.random.default_rng(0).standard_normal((2, 200)) * 10.0 ** np.random.default_rng(1).integers(-20, 20, (2, 200)))
    grid = (grid[0] + 1j * grid[1]).astype(dtype)
    np.testing.assert_allclose(np.asarray(stablehlo_tvm.jit(jnp.sqrt)(grid)), np.sqrt(grid.astype(np.complex128)).astype(dtype), rtol=2 * np.finfo(grid.real.dtype).eps)


def test_sorts_xla_would_corrupt_are_judged_by_the_model():
    """XLA:CPU's sort of 2-bit elements corrupts its heap (seed 61, case
    79558: malloc aborts later, or TVM's crash handler deadlocks the
    worker). Such a case is never given to XLA; it is judged against
    numpy's stable sort, and a wrong import still fails."""
    case = generate(61, 79558)
    assert case.xla_unsafe and case.args[0].dtype == ml_dtypes.uint2
    (verdict,) = difftest_run.run_cases([case])
    assert verdict["status"] == "explained" and "XLA not run" in verdict["message"], verdict
    case.model = lambda *a: [np.flip(a[0], axis=0)]
    (verdict,) = difftest_run.run_cases([case])
    assert verdict["status"] == "mismatch", verdict
