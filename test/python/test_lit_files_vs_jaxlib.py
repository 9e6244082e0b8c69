"""Every module written in the lit tests for the stablehlo and chlo dialects
(their `// -----` pieces) must read back in jaxlib exactly as jaxlib reads
the file itself, in our pretty and generic prints: the syntax we test is the
syntax JAX speaks. Files that jaxlib cannot read (expected errors) are skipped
by the checker."""

from __future__ import annotations

import glob
import os

import pytest

from stablehlo_tvm import roundtrip

HERE = os.path.dirname(__file__)
FILES = sorted(
    glob.glob(os.path.join(HERE, "..", "Dialect", "StableHLO", "*.mlir"))
    + glob.glob(os.path.join(HERE, "..", "Dialect", "CHLO", "*.mlir"))
)


@pytest.fixture(scope="module")
def oracle():
    return roundtrip.Oracle()


# Files jaxlib does not read, and why.
JAXLIB_CANNOT_READ = {
    "invalid.mlir": "verifier errors on purpose",
    "malformed.mlir": "syntax errors on purpose",
    "parser_hazard_index_array.mlir": "text refused before parsing, on purpose",
    "parser_hazard_nested_value.mlir": "a syntax error on purpose",
}


@pytest.mark.parametrize("path", FILES, ids=os.path.basename)
def test_lit_file_round_trips_in_jaxlib(oracle, path):
    result = roundtrip.check_file(oracle, path)
    if os.path.basename(path) in JAXLIB_CANNOT_READ:
        assert result["status"] == "skipped", result
    else:
        assert result["status"] == "pass", result
