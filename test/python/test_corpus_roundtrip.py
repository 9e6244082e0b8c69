"""The shared conformance corpus through the jaxlib round-trip check: every
file jaxlib can read must come back from our dialect exactly as jaxlib reads
it, in pretty and in generic form. Skips when the corpus is not beside the
repository."""

from __future__ import annotations

import collections
import os

import pytest

from stablehlo_tvm import roundtrip
from stablehlo_tvm.corpus import iter_mlir_files

CORPUS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "conformance", "stablehlo", "testdata")




@pytest.mark.skipif(not os.path.isdir(CORPUS), reason=f"conformance corpus not found at {CORPUS}")
def test_every_readable_corpus_file_round_trips():
    oracle = roundtrip.Oracle()
    results = [roundtrip.check_file(oracle, path) for path in iter_mlir_files([CORPUS])]
    statuses = collections.Counter(r["status"] for r in results)
    failures = [f"{r['file']}: {r['status']}: {r['message']}" for r in results if r["status"] not in ("pass", "skipped")]
    assert statuses["pass"] > 1500, statuses
    assert not failures, "\n".join(failures[:20])


def test_checker_catches_a_mismatch(monkeypatch):
    # The negative control: were our printer to change the program (here,
    # add becomes subtract), the check must fail.
    from stablehlo_tvm import _core

    real_parse = _core.Module.parse

    class Mangled:
        def __init__(self, module):
            self.module = module

        def to_text(self, generic=False):
            return self.module.to_text(generic=generic).replace("stablehlo.add", "stablehlo.subtract")

    oracle = roundtrip.Oracle()
    text = "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.add %x, %x : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n"
    assert roundtrip.check_text(oracle, text, "ok")["status"] == "pass"

    class FakeModule:
        @staticmethod
        def parse(text, name):
            return Mangled(real_parse(text, name))

    monkeypatch.setattr(_core, "Module", FakeModule)
    assert roundtrip.check_text(oracle, text, "mangled")["status"] == "generic-mismatch"
