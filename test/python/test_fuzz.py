"""A short run of the mutation fuzzer (stablehlo_tvm.fuzz) over the lit
tests: corrupted input gives diagnostics, never a crash or a hang. The
long run is `python -m stablehlo_tvm.fuzz test/ --iterations N`."""

from __future__ import annotations

import os
import stat

import pytest

from stablehlo_tvm import fuzz

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
TOOL = fuzz._default_tool()

pytestmark = pytest.mark.skipif(not os.path.exists(TOOL), reason="the stablehlo-to-tvm tool is not built")


def test_short_fuzz_run_finds_nothing():
    corpus = fuzz.seeds([os.path.join(ROOT, "test")])
    assert len(corpus) > 100
    findings = list(fuzz.fuzz(TOOL, corpus, iterations=150, seed=12345, timeout=30))
    assert findings == [], [(f["mode"], f["what"], f["stderr"][:300], f["input"][:2000]) for f in findings]


def test_short_api_fuzz_run_finds_nothing():
    # The same mutations through import_stablehlo: exceptions, never a dead
    # or hung process. The long run: `python -m stablehlo_tvm.fuzz --api`.
    corpus = fuzz.seeds([os.path.join(ROOT, "test")])
    findings = list(fuzz.fuzz_api(corpus, iterations=300, seed=54321, timeout=60))
    assert findings == [], [(f["what"], f["input"][:2000]) for f in findings]


def test_a_dying_api_worker_is_a_finding(tmp_path, monkeypatch):
    # Negative control: a worker process that dies on a request is reported,
    # and the run goes on with a new one.
    (tmp_path / "dying_worker.py").write_text("import os, sys\nsys.stdin.readline()\nos._exit(9)\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    findings = list(fuzz.fuzz_api(["func.func @f() { return }"], iterations=2, seed=1, timeout=60, worker_module="dying_worker"))
    assert [f["what"] for f in findings] == ["process died (exit 9)"] * 2


def test_a_crashing_tool_is_a_finding(tmp_path):
    # Negative control: a run ended by a signal must be reported.
    tool = tmp_path / "crashes"
    tool.write_text("#!/bin/sh\nkill -SEGV $$\n")
    tool.chmod(tool.stat().st_mode | stat.S_IEXEC)
    assert fuzz.run_tool(str(tool), "func.func @f() { return }", [], timeout=10) == ("signal 11", "")


def test_mutations_are_reproducible():
    corpus = fuzz.seeds([os.path.join(ROOT, "test", "Transforms", "refine_shapes.mlir")])
    import random

    a = [fuzz._mutate(corpus[0], random.Random(7), ["stablehlo.add"]) for _ in range(3)]
    b = [fuzz._mutate(corpus[0], random.Random(7), ["stablehlo.add"]) for _ in range(3)]
    assert a == b and any(m != corpus[0] for m in a)
