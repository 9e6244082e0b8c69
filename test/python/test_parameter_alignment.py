"""Kernel parameters are declared aligned to their elements
(cpu/parameter_alignment.py): LLVM then moves their vectors with unaligned
instructions, and a kernel computes right on an argument at any address a
numpy array may start at; buffers a kernel allocates keep TVM's 64 bytes."""

from __future__ import annotations

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
import tvm_ffi  # noqa: E402
from tvm import s_tir  # noqa: E402
from tvm.script import tirx as T  # noqa: E402

from stablehlo_tvm.cpu import fastmath, host_target  # noqa: E402
from stablehlo_tvm.cpu.parameter_alignment import parameters_aligned_to_elements  # noqa: E402


@T.prim_func(s_tir=True)
def _scaled_sum(a: T.Buffer((1024,), "float32"), b: T.Buffer((1024,), "int16"), c: T.Buffer((1024,), "float32")):
    T.func_attr({"tirx.noalias": True})
    twice = T.sblock_alloc_buffer((1024,), "float32")
    for i in T.vectorized(1024):
        with T.sblock("twice"):
            v = T.axis.remap("S", [i])
            twice[v] = a[v] * T.float32(2)
    for i in T.vectorized(1024):
        with T.sblock("sum"):
            v = T.axis.remap("S", [i])
            c[v] = twice[v] + T.Cast("float32", b[v])


def test_parameters_are_aligned_to_their_elements_and_allocations_keep_64_bytes():
    rewritten = parameters_aligned_to_elements(_scaled_sum)
    assert [p.data_alignment for p in _scaled_sum.params] == [64, 64, 64]
    assert [p.data_alignment for p in rewritten.params] == [4, 2, 4]
    # Every use of a parameter is the rewritten one.
    used = set()
    tvm_ffi.structural_walk(rewritten.body, [(tvm.tirx.BufferStore, lambda s: used.add(s.buffer))])
    assert rewritten.params[2] in used and _scaled_sum.params[2] not in used
    allocated = []
    tvm_ffi.structural_walk(rewritten.body, [(s_tir.SBlock, lambda block: allocated.extend(block.alloc_buffers))])
    assert [b.data_alignment for b in allocated] == [64]
    assert parameters_aligned_to_elements(rewritten).same_as(rewritten)


@pytest.mark.parametrize("offset", [1, 2, 3, 7])
def test_a_kernel_reads_and_writes_arguments_off_64_byte_boundaries(offset):
    fastmath.register()
    lib = tvm.tirx.build(tvm.IRModule({"main": _scaled_sum}), target=host_target(), pipeline=fastmath.TIR_PIPELINE)
    rng = np.random.default_rng(offset)
    a_storage = np.zeros(1024 + 64, np.float32)
    b_storage = np.zeros(1024 + 64, np.int16)
    c_storage = np.zeros(1024 + 64, np.float32)
    a, b, c = a_storage[offset : offset + 1024], b_storage[offset : offset + 1024], c_storage[offset : offset + 1024]
    a[...] = rng.standard_normal(1024)
    b[...] = rng.integers(-100, 100, 1024)
    assert all(x.ctypes.data % 64 != 0 for x in (a, b, c)) or offset % 16 == 0
    lib["main"](*(tvm_ffi.from_dlpack(x, require_alignment=x.dtype.alignment) for x in (a, b, c)))
    np.testing.assert_array_equal(c, a * 2 + b.astype(np.float32))
