"""Results of one domain stored by one block (cpu/joined_outputs.py): a
result another reads is substituted into its reader where the reader
reads it element for element, and nothing is joined where it does not."""

from __future__ import annotations

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
import tvm_ffi  # noqa: E402
from tvm import s_tir  # noqa: E402
from tvm.script import tirx as T  # noqa: E402

from stablehlo_tvm.cpu.joined_outputs import join_output_blocks  # noqa: E402


@T.prim_func(s_tir=True)
def _read_element_for_element(x: T.Buffer((8, 8), "float32"), a: T.Buffer((8, 8), "float32"), b: T.Buffer((8, 8), "float32")):
    T.func_attr({"tirx.noalias": True})
    for i, j in T.grid(8, 8):
        with T.sblock("a"):
            vi, vj = T.axis.remap("SS", [i, j])
            a[vi, vj] = x[vi, vj] * T.float32(2)
    for i, j in T.grid(8, 8):
        with T.sblock("b"):
            vi, vj = T.axis.remap("SS", [i, j])
            b[vi, vj] = a[vi, vj] + x[vi, vj]


@T.prim_func(s_tir=True)
def _read_transposed(x: T.Buffer((8, 8), "float32"), a: T.Buffer((8, 8), "float32"), b: T.Buffer((8, 8), "float32")):
    T.func_attr({"tirx.noalias": True})
    for i, j in T.grid(8, 8):
        with T.sblock("a"):
            vi, vj = T.axis.remap("SS", [i, j])
            a[vi, vj] = x[vi, vj] * T.float32(2)
    for i, j in T.grid(8, 8):
        with T.sblock("b"):
            vi, vj = T.axis.remap("SS", [i, j])
            b[vi, vj] = a[vj, vi] + x[vi, vj]


def _blocks(func) -> list:
    found = []
    tvm_ffi.structural_walk(func.body, [(s_tir.SBlock, found.append)])
    return [b for b in found if b.name_hint != "root"]


def _run(func):
    lib = tvm.tirx.build(tvm.IRModule({"main": func}), target="llvm")
    x = np.arange(64, dtype=np.float32).reshape(8, 8)
    a, b = tvm.runtime.tensor(np.zeros((8, 8), np.float32)), tvm.runtime.tensor(np.zeros((8, 8), np.float32))
    lib["main"](tvm.runtime.tensor(x), a, b)
    return x, a.numpy(), b.numpy()


def test_a_result_read_element_for_element_is_substituted_into_one_block():
    joined = join_output_blocks(_read_element_for_element)
    (block,) = _blocks(joined)
    assert len(block.writes) == 2
    assert all(region.source.name != "a" for region in block.reads)  # a's value, not a load of it
    x, a, b = _run(joined)
    np.testing.assert_array_equal(a, x * 2)
    np.testing.assert_array_equal(b, x * 3)


def test_a_result_read_at_other_indices_is_not_joined():
    assert join_output_blocks(_read_transposed).same_as(_read_transposed)
    x, a, b = _run(_read_transposed)
    np.testing.assert_array_equal(b, (x * 2).T + x)
