"""Kernel parameters aligned to their elements, not to 64 bytes.

TVM declares a PrimFunc's buffers 64-byte aligned, what its own allocator
gives, and LLVM, told so, moves parameters' vectors with aligned
instructions (vmovaps), which fault at any other address. A numpy array is
aligned to its element only (malloc gives 16 bytes; a view may start
anywhere), so every such argument was copied before each call. Declared
aligned to their elements, parameters take any aligned numpy array in
place; the unaligned moves LLVM emits instead cost the same on the 64-byte
aligned tensors the VM allocates. Buffers a kernel allocates keep TVM's
alignment."""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx
from tvm.tirx.buffer import is_buffer_var


def element_alignment(dtype) -> int:
    """Bytes a `dtype` element is aligned to (1 for sub-byte types)."""
    return max(1, tvm.DataType(str(dtype)).bits // 8)


def _twin(buffer: tirx.Buffer) -> tirx.Buffer:
    return tirx.decl_buffer(
        buffer.shape,
        buffer.dtype,
        name=buffer.name,
        strides=buffer.strides,
        elem_offset=buffer.elem_offset,
        scope=buffer.scope(),
        data_alignment=element_alignment(buffer.dtype),
        offset_factor=buffer.offset_factor,
    )


def parameters_aligned_to_elements(func: tirx.PrimFunc) -> tirx.PrimFunc:
    """`func` with each buffer parameter declared aligned to its element."""
    twins = {
        p: _twin(p)
        for p in func.params
        if is_buffer_var(p) and p.data_alignment > element_alignment(p.dtype)
    }
    if not twins:
        return func
    # (A buffer is a variable of buffer type: every use maps with it.)
    body = tvm_ffi.structural_map(func.body, [(tirx.Buffer, lambda buffer: twins.get(buffer, buffer))])
    params = [twins.get(p, p) for p in func.params]
    return tirx.PrimFunc(params, body, ret_type=func.ret_type, attrs=func.attrs, span=func.span)


@tirx.transform.prim_func_pass(opt_level=0, name="stablehlo_tvm.ParametersAlignedToElements")
def ParametersAlignedToElements(func: tirx.PrimFunc, mod: tvm.IRModule, ctx) -> tirx.PrimFunc:  # noqa: N802 (a pass, named as TVM's are)
    return parameters_aligned_to_elements(func)
