"""Int8MatmulOnVnni: int8 x int8 matrix products summed in int32 (quantized
code: AQT-style `preferred_element_type=int32` products, quantized
dot_general and convolution) on AVX-512 VNNI's vpdpbusd, which multiplies
64 byte pairs and adds them into 16 int32 lanes in one instruction.

vpdpbusd takes one operand unsigned: A's bytes are read as a + 128 (their
sign bit flipped), and the surplus 128 * sum_k B[k, n] is subtracted by
starting each sum at -128 * sum_k B[k, n]. B is packed once per call into
16-column panels of 4-row groups, so one 64-byte load is a 16 x 4 tile.
The sums are exact (int32 wrap-around included), so results equal the
generic integer schedule's bit for bit.

Products qualify with static shapes, a 2-D B, K a multiple of 4, and a
target with avx512vnni; others keep the generic schedule.
"""

from __future__ import annotations

import functools

import tvm
from tvm import relax

from .matmuls import rewrite_matmuls, static_shape

# Rows of A sharing one loaded B tile, and 16-column panels per tile: 4 x 2
# accumulators of 16 lanes, 2 B loads and 4 A broadcasts per 4-deep step.
_ROWS = 4
_PANELS = 2
_OPAQUE = 8  # FuseOps fuses nothing into these functions


def _pack_primfunc(k: int, n: int):
    """B[K, N] -> (panels[N/16, K/4, 64], start[N/16 * 16]): panels[p, g,
    4 * j + t] = B[4 g + t, 16 p + j] (0 past N); start = -128 * column sums.
    Four panels side by side read whole 64-byte lines of B's rows."""
    from tvm import tirx

    full = n // 16
    generic = _symbolic_pack(next(b for b in (4, 2, 1) if full % b == 0))
    b, packed, start = generic.params
    return generic.specialize(
        {
            b: tirx.decl_buffer((k, n), "int8", name="b"),
            packed: tirx.decl_buffer(((n + 15) // 16, k // 4, 64), "int8", name="packed"),
            start: tirx.decl_buffer((((n + 15) // 16) * 16,), "int32", name="start"),
        }
    )


@functools.cache
def _symbolic_pack(block: int):
    """The pack for any K and N taking `block` panels at a time (parsed
    once: TVMScript took a fifth of a second for each shape)."""
    from tvm.script import tirx as T

    from ..tvm_internals import TIRScript

    # Byte 4 j + t of a packed tile is byte j of row t: the 4 x 16 tile
    # transposed, one shuffle of the 4 rows' loads.
    interleave = [16 * (i % 4) + i // 4 for i in range(64)]

    @TIRScript.prim_func(s_tir=True)
    def pack(b_handle: T.handle, packed_handle: T.handle, start_handle: T.handle):
        T.func_attr({"tirx.noalias": True})
        k = T.int32()
        n = T.int32()
        panels = T.int32()  # (n + 15) // 16
        groups = T.int32()  # k // 4
        columns = T.int32()  # panels * 16
        b = T.match_buffer(b_handle, (k, n), "int8")
        packed = T.match_buffer(packed_handle, (panels, groups, 64), "int8")
        start = T.match_buffer(start_handle, (columns,), "int32")
        with T.sblock("root"):
            for blk in T.parallel(n // 16 // block):
                sums = T.alloc_local((block, 16), "int32")
                for q in T.unroll(block):
                    sums[q, T.ramp(0, 1, 16)] = T.broadcast(T.int32(0), 16)
                for g in range(groups):
                    for q in T.unroll(block):
                        r0 = b[g * 4, T.ramp((blk * block + q) * 16, 1, 16)]
                        r1 = b[g * 4 + 1, T.ramp((blk * block + q) * 16, 1, 16)]
                        r2 = b[g * 4 + 2, T.ramp((blk * block + q) * 16, 1, 16)]
                        r3 = b[g * 4 + 3, T.ramp((blk * block + q) * 16, 1, 16)]
                        packed[blk * block + q, g, T.ramp(0, 1, 64)] = T.Shuffle([r0, r1, r2, r3], interleave)
                        sums[q, T.ramp(0, 1, 16)] = (
                            sums[q, T.ramp(0, 1, 16)]
                            + T.Cast("int32x16", r0)
                            + T.Cast("int32x16", r1)
                            + T.Cast("int32x16", r2)
                            + T.Cast("int32x16", r3)
                        )
                for q in T.unroll(block):
                    start[T.ramp((blk * block + q) * 16, 1, 16)] = sums[q, T.ramp(0, 1, 16)] * T.broadcast(T.int32(-128), 16)
            # The last, partial panel: zeros past N.
            for p in range(n // 16, panels):
                for j in range(16):
                    start[p * 16 + j] = 0
                for g, t, j in T.grid(groups, 4, 16):
                    packed[p, g, j * 4 + t] = T.if_then_else(p * 16 + j < n, b[g * 4 + t, T.min(p * 16 + j, n - 1)], T.int8(0))
                    start[p * 16 + j] = start[p * 16 + j] - T.Cast("int32", packed[p, g, j * 4 + t]) * 128

    return pack


def _vnni_primfunc(rows: int, k: int, n: int):
    """C[rows, N] = A[rows, K] . B, from B's panels and column starts."""
    from tvm import tirx

    panels = (n + 15) // 16
    mr = _ROWS
    while rows % mr:
        mr //= 2
    generic = _symbolic_vnni(mr, _PANELS if panels % _PANELS == 0 else 1)
    a, packed, start, c = generic.params
    return generic.specialize(
        {
            a: tirx.decl_buffer((rows, k), "int8", name="a"),
            packed: tirx.decl_buffer((panels, k // 4, 64), "int8", name="packed"),
            start: tirx.decl_buffer((panels * 16,), "int32", name="start"),
            c: tirx.decl_buffer((rows, n), "int32", name="c"),
        }
    )


@functools.cache
def _symbolic_vnni(mr: int, per_tile: int):
    """The product for any shape, `mr` rows of A and `per_tile` panels a
    tile (parsed once)."""
    from tvm.script import tirx as T

    from ..tvm_internals import TIRScript

    @TIRScript.prim_func(s_tir=True)
    def vnni(a_handle: T.handle, packed_handle: T.handle, start_handle: T.handle, c_handle: T.handle):
        rows = T.int32()
        k = T.int32()
        n = T.int32()
        panels = T.int32()
        groups = T.int32()
        columns = T.int32()
        a = T.match_buffer(a_handle, (rows, k), "int8")
        packed = T.match_buffer(packed_handle, (panels, groups, 64), "int8")
        start = T.match_buffer(start_handle, (columns,), "int32")
        c = T.match_buffer(c_handle, (rows, n), "int32")
        T.func_attr({"tirx.noalias": True})
        with T.sblock("root"):
            for tile in T.parallel(panels // per_tile):
                for r in range(rows // mr):
                    acc = T.alloc_local((mr, per_tile, 16), "int32")
                    for i in T.unroll(mr):
                        for j in T.unroll(per_tile):
                            acc[i, j, T.ramp(0, 1, 16)] = start[T.ramp((tile * per_tile + j) * 16, 1, 16)]
                    for g in range(groups):
                        for i in T.unroll(mr):
                            for j in T.unroll(per_tile):
                                acc[i, j, T.ramp(0, 1, 16)] = T.call_llvm_pure_intrin(
                                    T.llvm_lookup_intrinsic_id("llvm.x86.avx512.vpdpbusd.512"),
                                    acc[i, j, T.ramp(0, 1, 16)],
                                    # A's 4 bytes, sign bits flipped (a + 128 as
                                    # unsigned), in every 32-bit lane.
                                    T.reinterpret(
                                        T.broadcast(
                                            T.reinterpret(
                                                T.bitwise_xor(a[r * mr + i, T.ramp(g * 4, 1, 4)], T.broadcast(T.int8(-128), 4)),
                                                dtype="int32",
                                            ),
                                            16,
                                        ),
                                        dtype="int8x64",
                                    ),
                                    packed[tile * per_tile + j, g, T.ramp(0, 1, 64)],
                                    dtype="int32x16",
                                )
                    for i in T.unroll(mr):
                        for j in T.unroll(per_tile):
                            for lane in range(16):
                                if (tile * per_tile + j) * 16 + lane < n:
                                    c[r * mr + i, (tile * per_tile + j) * 16 + lane] = acc[i, j, lane]

    return vnni


def _kernel(func):
    """A PrimFunc as written here: scheduled already, fused with nothing,
    named by the module it joins."""
    return func.without_attr("global_symbol").with_attrs({"op_pattern": _OPAQUE, "tirx.is_scheduled": True})


def supported(target) -> bool:
    from tvm.target.codegen import target_has_features

    try:
        return bool(target_has_features("avx512vnni", target)) and bool(target_has_features("avx512bw", target))
    except Exception:  # noqa: BLE001 - a target LLVM cannot describe
        return False


def _on_vnni(rewriter, call):
    a, b = call.args
    if not isinstance(call.ty, relax.TensorType) or call.ty.dtype != "int32":
        return None
    if a.ty.dtype != "int8" or b.ty.dtype != "int8":
        return None
    sa, sb, sc = static_shape(a), static_shape(b), static_shape(call)
    if sa is None or sb is None or sc is None or len(sa) < 2 or len(sb) != 2:
        return None
    k, n = sb
    if k % 4 or k == 0 or n == 0 or sa[-1] != k:
        return None
    rows = 1
    for d in sa[:-1]:
        rows *= d
    if rows == 0:
        return None
    bb = rewriter.builder_
    pack = bb.add_func(_kernel(_pack_primfunc(k, n)), "int8_pack")
    panels = (n + 15) // 16
    packed = bb.emit(
        relax.call_tir(
            pack,
            [b],
            out_ty=[relax.TensorType([panels, k // 4, 64], "int8"), relax.TensorType([panels * 16], "int32")],
        )
    )
    vnni = bb.add_func(_kernel(_vnni_primfunc(rows, k, n)), "int8_matmul_vnni")
    flat = bb.emit(relax.op.reshape(a, [rows, k])) if len(sa) != 2 else a
    product = bb.emit(
        relax.call_tir(
            vnni,
            [flat, bb.emit(relax.TupleGetItem(packed, 0)), bb.emit(relax.TupleGetItem(packed, 1))],
            out_ty=relax.TensorType([rows, n], "int32"),
        )
    )
    return relax.op.reshape(product, sc) if len(sc) != 2 else product


@tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.Int8MatmulOnVnni")
def Int8MatmulOnVnni(mod: tvm.IRModule, _ctx) -> tvm.IRModule:
    target = tvm.target.Target.current(allow_none=True)
    if target is None or not supported(target):
        return mod
    return rewrite_matmuls(mod, _on_vnni)
