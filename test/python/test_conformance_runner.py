"""The conformance runner judges programs with the corpus's check semantics:
its verdicts are tested here on programs written for the purpose, including
the negative control (a program checked against its own inputs must fail),
and on a fixed sample of the shared corpus when it is present."""

from __future__ import annotations

import os
import textwrap

import numpy as np
import pytest

from stablehlo_tvm import conformance

HERE = os.path.dirname(__file__)
CORPUS = os.path.join(HERE, "..", "..", "..", "shared", "conformance", "stablehlo", "testdata")


def program(body: str, check: str = "expect_close", expected: str = "dense<[1.0, 2.0, 3.0]>") -> str:
    return textwrap.dedent(
        f"""\
        module @m {{
          func.func public @main() -> tensor<3xf32> {{
            %0 = call @inputs() : () -> tensor<3xf32>
            %1 = call @expected() : () -> tensor<3xf32>
            {body}
            stablehlo.custom_call @check.{check}(%2, %1) {{has_side_effect = true}} : (tensor<3xf32>, tensor<3xf32>) -> ()
            return %2 : tensor<3xf32>
          }}
          func.func private @inputs() -> tensor<3xf32> {{
            %c = stablehlo.constant dense<[-1.0, 2.0, -3.0]> : tensor<3xf32>
            return %c : tensor<3xf32>
          }}
          func.func private @expected() -> tensor<3xf32> {{
            %c = stablehlo.constant {expected} : tensor<3xf32>
            return %c : tensor<3xf32>
          }}
        }}
        """
    )


def test_passing_program():
    result = conformance.run_program(program("%2 = stablehlo.abs %0 : tensor<3xf32>"), "abs")
    assert result["status"] == "pass", result
    assert result["ops"] == ["stablehlo.abs", "stablehlo.constant"]
    assert result["dtypes"] == ["float32"]


def test_negative_control_expected_replaced_by_inputs_fails():
    text = program("%2 = stablehlo.abs %0 : tensor<3xf32>").replace("call @expected()", "call @inputs()")
    result = conformance.run_program(text, "abs-negative")
    assert result["status"] == "fail", result
    assert "check 0 (expect_close)" in result["message"]


# The judgements stablehlo-expose-checks gives the custom_call forms.
EQ = {"kind": "expect_eq"}
CLOSE = {"kind": "expect_close", "min_ulp_difference": 0, "max_ulp_difference": 3}
ALMOST_EQ = {"kind": "expect_almost_eq", "tolerance": 1e-3}


def test_expect_eq_is_exact_and_nan_is_unequal():
    ok, _ = conformance.judge(EQ, np.array([1.0, -0.0], np.float32), np.array([1.0, 0.0], np.float32))
    assert ok
    ok, _ = conformance.judge(EQ, np.array([np.nan], np.float32), np.array([np.nan], np.float32))
    assert not ok
    ok, _ = conformance.judge(EQ, np.array([1, 2], np.int8), np.array([1, 3], np.int8))
    assert not ok


def test_expect_close_counts_ulps():
    x = np.array([1.0, 100.0, -3.5], np.float32)
    three_up = np.nextafter(np.nextafter(np.nextafter(x, np.inf), np.inf), np.inf)
    assert conformance.judge(CLOSE, three_up, x)[0]
    assert not conformance.judge(CLOSE, np.nextafter(three_up, np.inf), x)[0]
    # NaN matches NaN; infinities must match exactly.
    assert conformance.judge(CLOSE, np.array([np.nan, np.inf]), np.array([np.nan, np.inf]))[0]
    assert not conformance.judge(CLOSE, np.array([np.inf]), np.array([-np.inf]))[0]
    # Across zero: the smallest subnormals either side are 2 ULP apart.
    for dtype in (np.float16, np.float32, np.float64):
        tiny = np.nextafter(dtype(0), dtype(1))
        assert conformance.judge(CLOSE, np.array([tiny]), np.array([-tiny]))[0]
        assert conformance.judge(CLOSE, np.array([-0.0], dtype), np.array([0.0], dtype))[0]
        assert conformance.judge(CLOSE, np.array([tiny * 2]), np.array([-tiny]))[0]  # 3 ULP
        assert not conformance.judge(CLOSE, np.array([tiny * 3]), np.array([-tiny]))[0]
        # Far apart on one side of zero, and across it.
        assert not conformance.judge(CLOSE, np.array([1.0], dtype), np.array([2.0], dtype))[0]
        assert not conformance.judge(CLOSE, np.array([1e-3], dtype), np.array([-1e-3], dtype))[0]


def test_expect_almost_eq_tolerance_and_complex():
    a = np.array([1.0 + 2.0j], np.complex64)
    assert conformance.judge(ALMOST_EQ, a + 0.0009, a)[0]
    assert not conformance.judge(ALMOST_EQ, a + 0.002j, a)[0]


def test_expect_almost_eq_infinities_match_only_themselves():
    inf = np.array([np.inf, -np.inf])
    assert conformance.judge(ALMOST_EQ, inf, inf)[0]
    assert not conformance.judge(ALMOST_EQ, -inf, inf)[0]
    assert not conformance.judge(ALMOST_EQ, np.array([1e308, 1.0]), np.array([np.inf, 1.0]))[0]


CHECK_DIALECT_PROGRAM = """
func.func @eq_const() {
  %0 = stablehlo.constant dense<[1, -2]> : tensor<2xi32>
  %1 = stablehlo.abs %0 : tensor<2xi32>
  check.expect_eq_const %1, dense<[1, 2]> : tensor<2xi32>
  func.return
}
func.func @almost_eq() {
  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf64>
  %1 = stablehlo.sqrt %0 : tensor<2xf64>
  check.expect_almost_eq_const %1, dense<[1.0, 1.4142]> : tensor<2xf64>
  check.expect_almost_eq_const %1, dense<[1.0, 1.41]> : tensor<2xf64> {tolerance = 0.01 : f64}
  func.return
}
"""


def test_check_dialect_programs_use_their_own_tolerances():
    """Functions without @main are each an entry; tolerances come from the ops."""
    result = conformance.run_program(CHECK_DIALECT_PROGRAM, "check-dialect")
    assert result["status"] == "pass", result
    assert result["dtypes"] == ["float64", "int32"]
    # The default tolerance (1e-4) rejects 1.41 for sqrt(2); the stated 0.01 accepts it.
    tight = CHECK_DIALECT_PROGRAM.replace("dense<[1.0, 1.4142]>", "dense<[1.0, 1.41]>")
    result = conformance.run_program(tight, "check-dialect-tight")
    assert result["status"] == "fail", result
    assert "@almost_eq check 0 (expect_almost_eq)" in result["message"]
    wrong = CHECK_DIALECT_PROGRAM.replace("dense<[1, 2]>", "dense<[1, -2]>")
    assert conformance.run_program(wrong, "check-dialect-wrong")["status"] == "fail"


def test_crash_and_timeout_are_results(tmp_path):
    path = tmp_path / "hang.mlir"
    path.write_text(program("%2 = stablehlo.abs %0 : tensor<3xf32>"))
    (result,) = conformance.run_files([str(path)], jobs=1, timeout=0.001)
    assert result["status"] == "timeout"
    # The ops come from the text when no worker could report them.
    assert result["ops"] == ["stablehlo.abs", "stablehlo.constant"]
    (result,) = conformance.run_files([str(path)], jobs=1, timeout=300)
    assert result["status"] == "pass", result


SAMPLE = os.path.join(HERE, "conformance_sample.txt")


def _sample() -> list[tuple[str, str]]:
    entries = []
    with open(SAMPLE) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                name, _, expectation = line.partition(" ")
                entries.append((name, expectation.strip() or "pass"))
    return entries


@pytest.mark.skipif(not os.path.isdir(CORPUS), reason=f"conformance corpus not found at {CORPUS}")
def test_corpus_sample():
    """A fixed sample of the corpus; each file is listed with the status it
    must have (pass unless said otherwise, with the reason in a comment)."""
    entries = _sample()
    results = conformance.run_files([os.path.join(CORPUS, name) for name, _ in entries], jobs=2, timeout=300)
    wrong = [
        f"{name}: expected {expectation}, got {r['status']} ({r['message']})"
        for (name, expectation), r in zip(entries, results)
        if r["status"] != expectation
    ]
    assert not wrong, "\n".join(wrong)
