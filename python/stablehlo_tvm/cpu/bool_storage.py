"""Boolean buffers a kernel allocates hold their values as int8.

TVM's StorageRewrite shares the memory of allocations of one byte per
element whatever their dtype, and then types the loads of a shared bool
buffer by the other allocation's dtype: a fused kernel with a bool mask and
an int8 temporary (T5Gemma's attention: the mask beside a reduce-or held in
int8) failed to compile with "dtype mismatch on BufferStore: buffer's dtype
is bool ... RHS's dtype is int8x16". Stored as int8 (what LLVM's code holds
a bool in anyway), every such allocation has the same dtype: stores convert
to int8, loads convert back to bool. Parameters keep their dtype: the
rewrite never shares them."""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import s_tir, tirx
from tvm.ir.expr import TensorLoad


def _int8_twin(buffer: tirx.Buffer) -> tirx.Buffer:
    return tirx.decl_buffer(
        buffer.shape,
        "int8",
        name=buffer.name,
        strides=buffer.strides,
        elem_offset=buffer.elem_offset,
        scope=buffer.scope(),
        data_alignment=buffer.data_alignment,
        offset_factor=buffer.offset_factor,
    )


def _allocated_bools(func: tirx.PrimFunc) -> dict:
    found = {}

    def seen(block):
        for buffer in block.alloc_buffers:
            if buffer.dtype == "bool":
                found[buffer] = _int8_twin(buffer)

    tvm_ffi.structural_walk(func.body, [(s_tir.SBlock, seen)])
    return found


def bools_as_int8(func: tirx.PrimFunc) -> tirx.PrimFunc:
    """`func` with every bool buffer its blocks allocate held as int8."""
    twins = _allocated_bools(func)
    if not twins:
        return func
    int8s = set(twins.values())

    # Post-order: a load or store sees its buffer already replaced.
    def load(node):
        if node.source not in int8s:
            return node
        held = tirx.BufferLoad(node.source, node.indices)  # typed int8 (x lanes)
        return tirx.Cast(str(held.ty.dtype).replace("int8", "bool"), held)

    def store(node):
        if node.buffer not in int8s:
            return node
        value = node.value
        if isinstance(value, tirx.Cast) and isinstance(value.value, TensorLoad) and value.value.source in int8s:
            # A mask copied from another: its byte as it is.
            return tirx.BufferStore(node.buffer, value.value, node.indices)
        return tirx.BufferStore(node.buffer, tirx.Cast(str(value.ty.dtype).replace("bool", "int8"), value), node.indices)

    # (A buffer is a variable of buffer type: the first entry maps them.)
    body = tvm_ffi.structural_map(
        func.body,
        [(tirx.Buffer, lambda buffer: twins.get(buffer, buffer)), (TensorLoad, load), (tirx.BufferStore, store)],
    )
    return func.with_body(body)


@tirx.transform.prim_func_pass(opt_level=0, name="stablehlo_tvm.BoolsAsInt8")
def BoolsAsInt8(func: tirx.PrimFunc, mod: tvm.IRModule, ctx) -> tirx.PrimFunc:  # noqa: N802 (a pass, named as TVM's are)
    return bools_as_int8(func)
