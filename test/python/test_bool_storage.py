"""Kernels that allocate both bool and int8 buffers compile and compute
right (cpu/bool_storage.py): TVM's StorageRewrite shares the memory of
one-byte allocations and typed a copied mask's load as int8, which failed
to compile (T5Gemma's attention masks beside a reduce-or held in int8)."""

from __future__ import annotations

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
import tvm_ffi  # noqa: E402
from tvm import s_tir  # noqa: E402
from tvm.script import tirx as T  # noqa: E402

from stablehlo_tvm.cpu import fastmath  # noqa: E402
from stablehlo_tvm.cpu.bool_storage import bools_as_int8  # noqa: E402


@T.prim_func(s_tir=True)
def _any_and_mask(a: T.Buffer((256,), "int32"), c: T.Buffer((256,), "float32"), d: T.Buffer((16,), "int8")):
    T.func_attr({"tirx.noalias": True})
    rows_any = T.sblock_alloc_buffer((16,), "int8")
    mask = T.sblock_alloc_buffer((256,), "bool")
    copied = T.sblock_alloc_buffer((256,), "bool")
    for i, k in T.grid(16, 16):
        with T.sblock("any"):
            v, r = T.axis.remap("SR", [i, k])
            with T.init():
                rows_any[v] = T.int8(-128)
            rows_any[v] = T.max(rows_any[v], T.Cast("int8", a[v * 16 + r] > 0))
    for i in range(16):
        with T.sblock("any_out"):
            v = T.axis.remap("S", [i])
            d[v] = rows_any[v]
    for i in T.vectorized(256):
        with T.sblock("mask"):
            v = T.axis.remap("S", [i])
            mask[v] = a[v] != 3
    for i in T.vectorized(256):
        with T.sblock("copy"):
            v = T.axis.remap("S", [i])
            copied[v] = mask[v]
    for i in T.vectorized(256):
        with T.sblock("mask_out"):
            v = T.axis.remap("S", [i])
            c[v] = T.Cast("float32", copied[v])


def test_bool_and_int8_allocations_in_one_kernel_compile_and_compute():
    fastmath.register()
    lib = tvm.tirx.build(tvm.IRModule({"main": _any_and_mask}), target="llvm", pipeline=fastmath.TIR_PIPELINE)
    a = np.arange(256, dtype=np.int32) - 100
    c, d = tvm.runtime.tensor(np.zeros(256, np.float32)), tvm.runtime.tensor(np.zeros(16, np.int8))
    lib["main"](tvm.runtime.tensor(a), c, d)
    np.testing.assert_array_equal(c.numpy(), (a != 3).astype(np.float32))
    np.testing.assert_array_equal(d.numpy(), (a.reshape(16, 16) > 0).any(axis=1).astype(np.int8))


def test_allocated_masks_are_held_as_int8_and_parameters_keep_their_dtype():
    rewritten = bools_as_int8(_any_and_mask)
    allocated = []
    tvm_ffi.structural_walk(rewritten.body, [(s_tir.SBlock, lambda block: allocated.extend(b.dtype for b in block.alloc_buffers))])
    assert sorted(map(str, allocated)) == ["int8", "int8", "int8"]
    assert [str(p.dtype) for p in rewritten.params] == ["int32", "float32", "int8"]
    assert bools_as_int8(rewritten).same_as(rewritten)  # nothing left to hold
