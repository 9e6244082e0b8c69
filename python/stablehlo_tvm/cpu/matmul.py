"""Matmul-shaped PrimFuncs (matmul, batch matmul, dot_general, dense) with
their fused prologue and epilogue: a register-tiled, vectorized, parallel
schedule.

The block C[S.., I, J] += A[S.., I, K] * B[S.., K or J ..] is tiled into
MR x NR register tiles (NR a multiple of the SIMD width along J, which must be
C's innermost axis). B is read in place, or for deep products packed panel
by panel into a K x NR buffer reused by every row tile; the accumulator
lives in a local tile (registers once LLVM unrolls it), and the epilogue
(bias, activation, where) is fused into the tile's write-back. Work is
shared among cores over batch and J panels.
"""

from __future__ import annotations

from tvm import s_tir, tirx
from tvm.s_tir.dlight.gpu.matmul import IterKind, detect_iter_traits
from tvm.target import Target

from .rule import CPURule, divisor_at_most, extent_of, fused, vectorizable

# Rows of A whose products share one loaded row of B, by SIMD registers.
_ROWS_WITH_32_REGISTERS = 8
_ROWS_WITH_16_REGISTERS = 4
# K is walked in chunks of this many (measured: 128 beats 256 and 512).
_K_CHUNK = 128
# Below this many rows of A, packing B costs more than it saves.
_PACK_MIN_ROWS = 16
# B is packed only where one panel's K rows lie on this many 4 KiB pages or
# more: read in place, such a deep panel misses the TLB on every row
# (128 x 4096 x 1024: 9.0 ms in place, 6.6 packed; 64 x 4096 x 4096: 20 /
# 15). Shallower panels stay in cache and the copy was pure cost (16 x 64 x
# 256, an LSTM step: 12.9 -> 10.4 us; 784 x 1152 x 128: 1.7 -> 1.3 ms;
# 16 x 1024 x 1024: 340 -> 250 us; 1024^3 as fast either way).
_PACK_B_MIN_PAGES = 2048
_PAGE_BYTES = 4096
# A core's L2 cache, as far as the loop order assumes.
_L2_BYTES = 1 << 20


class Matmul(CPURule):
    # Whether the rule schedules only functions with a reduction (see schedule.first_rule_schedule).
    needs_reduction = True

    def apply(self, func: tirx.PrimFunc, target: Target, _tunable: bool):
        found = self.with_one_reduction(func)  # one product
        if found is None:
            return None
        sch, blocks, main = found
        traits = detect_iter_traits(sch.get(main))
        if traits is None:
            return None
        block_traits = traits[3]
        lanes = self.lanes(target, sch.get(main).writes[0].source.dtype)
        # Inlining other blocks leaves the matmul's own loops as they are, so
        # its shape is checked first.
        loops = sch.get_loops(main)
        iter_vars = sch.get(main).iter_vars
        if len(loops) != len(iter_vars):
            return None
        kinds = [t.kind for t in block_traits]
        # J must be the innermost axis of C for stores and B loads to vectorize.
        c_write = sch.get(main).writes[0]
        if not c_write.region or not _last_index_is(c_write.region[-1].min, iter_vars, kinds, IterKind.kIter_J):
            return None

        # Prologue and epilogue blocks are computed inline where possible.
        others = [b.block_rv for b in blocks if b.is_injective()]
        remaining = self.inline_all(sch, others)
        # Symbolic row and column counts (a build for every size) are padded
        # to whole register tiles: A's and B's values read through the
        # padding condition, the product computed for every padded row and
        # column, those that exist copied out. Without it, each tile is
        # guarded and its accumulator is no longer registers (the symbolic
        # MLP ran 2.3x the per-size build). A symbolic depth is walked whole.
        i_var = _last_var_of_kind(sch.get(main), kinds, IterKind.kIter_I)
        j_var = next((v for v in iter_vars if v.var.same_as(c_write.region[-1].min)), None)
        symbolic_m = i_var is not None and not isinstance(i_var.dom.extent, tirx.IntImm)
        symbolic_n = j_var is not None and not isinstance(j_var.dom.extent, tirx.IntImm)
        # Columns that not even half a vector divides (a classifier's 10
        # outputs) are padded to whole vectors too: left as they were, the
        # tile's columns were a scalar loop (16 x 12544 times 12544 x 10:
        # 0.4 ms; 256 x 512 times 512 x 100: 2x XLA's time). Multiples of
        # half a vector (24 channels) ran as fast unpadded.
        half = max(lanes // 2, 1)
        pad_n = symbolic_n or (
            j_var is not None and int(j_var.dom.extent) % half != 0 and vectorizable(sch.get(main))
        )
        # An epilogue joins the tile's write-back when it is C's only reader
        # (and C is not padded).
        epilogue = [b for b in remaining if self.is_consumer_of(sch, b, main)]
        epilogue = epilogue if len(epilogue) == 1 and len(sch.get_consumers(main)) == 1 and not (symbolic_m or pad_n) else []
        rest = [b for b in remaining if b not in epilogue]
        if rest and not epilogue and sch.get(rest[-1]).same_as(sch.get(blocks[-1].block_rv)):
            # A longer epilogue (GELU's erfc): element-wise after the product.
            self.schedule_with_output(sch, rest[:-1], rest[-1], lanes)
        else:
            for block in rest:  # element-wise loop nests of their own
                self.schedule_at_root(sch, block, lanes)
        rows = _ROWS_WITH_32_REGISTERS if lanes * _bits(c_write.source.dtype) >= 512 else _ROWS_WITH_16_REGISTERS
        padded = [(i_var.var, rows)] if symbolic_m else []
        if pad_n:
            padded.append((j_var.var, 2 * lanes if symbolic_n else lanes))
        b_copy = None
        if padded:
            # B's padded copy is kept apart when its columns are padded.
            b_index = _b_operand(sch.get(main), kinds, iter_vars) if pad_n else None
            done, b_copy = self._pad(sch, main, padded, lanes, b_index)
            if not done:
                return None

        loops = sch.get_loops(main)
        by_kind = {k: [l for l, kind in zip(loops, kinds) if kind == k] for k in IterKind}

        # One I and one J axis are tiled (J: C's innermost); further I and J
        # axes (a batch only one operand has) are walked outside like batches,
        # so that every tile's write-back is one rectangle of C.
        i_loops, j_loops = by_kind[IterKind.kIter_I], by_kind[IterKind.kIter_J]
        j_last = _loop_of_index(c_write.region[-1].min, iter_vars, loops)
        j_rest = [l for l in j_loops if not sch.get(l).same_as(sch.get(j_last))]
        outer = by_kind[IterKind.kIter_S] + by_kind[IterKind.kIter_T] + i_loops[:-1] + j_rest
        sch.reorder(*outer, i_loops[-1], j_last, *by_kind[IterKind.kIter_K])
        i, j = i_loops[-1], j_last
        k = fused(sch, by_kind[IterKind.kIter_K])
        m, n, depth = extent_of(sch, i), extent_of(sch, j), extent_of(sch, k)
        if (m is None and not symbolic_m) or (n is None and not symbolic_n):
            return None
        symbolic = symbolic_m or symbolic_n or depth is None
        # Symbolic counts, padded above, are whole numbers of register tiles.
        nr = 2 * lanes if symbolic_n else divisor_at_most(n, 2 * lanes, multiple_of=lanes) or divisor_at_most(n, lanes)
        mr = rows if symbolic_m else divisor_at_most(m, rows)
        kc = 1 if depth is None else divisor_at_most(depth, _K_CHUNK)
        io, ii = sch.split(i, [None, mr])
        jo, ji = sch.split(j, [None, nr])
        ko, ki = sch.split(k, [None, kc])
        bits = _bits(c_write.source.dtype)
        panels = symbolic_n or n // nr > 1
        # By column panels, A is streamed once per panel; when A is large and
        # all of B fits in L2 (few panels: an im2col's patches times the
        # weights), by row tiles instead, B packed whole once.
        by_rows = not symbolic and n // nr > 1 and m * depth * bits // 8 > _L2_BYTES // 2 and depth * n * bits // 8 <= _L2_BYTES // 2
        if by_rows:
            sch.reorder(*outer, io, jo, ko, ki, ii, ji)
        else:
            sch.reorder(*outer, jo, io, ko, ki, ii, ji)

        # Accumulate the tile locally, then write it back with the epilogue.
        self.accumulate_in_registers(sch, main, jo if by_rows else io, epilogue[0] if epilogue else None, lanes)
        # Vectorized and unrolled while it is still one reduction block; the
        # initialization split off afterwards keeps these loop kinds.
        sch.unroll(ii)
        if nr % lanes == 0 and vectorizable(sch.get(main)):
            sch.vectorize(ji)
        if by_rows:
            self._pack_b(sch, main, kinds, iter_vars, nr)
        else:
            if b_copy is not None:  # B's padded copy, a panel at a time
                sch.compute_at(b_copy, jo, preserve_unit_loops=True)
                self.vectorize_innermost(sch, b_copy, lanes)
            elif (symbolic_m or m >= _PACK_MIN_ROWS) and panels and _deep_panels(depth, n, bits):
                b_index = _b_operand(sch.get(main), kinds, iter_vars)
                if b_index is not None:
                    packed = sch.cache_read(main, b_index, "global")
                    sch.compute_at(packed, jo, preserve_unit_loops=True)
                    self.vectorize_innermost(sch, packed, lanes)
        sch.parallel(fused(sch, [*outer, io if by_rows else jo]))
        sch.decompose_reduction(main, ko)
        return sch

    @classmethod
    def _pad(cls, sch: s_tir.Schedule, main, padded: list, lanes: int, b_index):
        """Pads `main`'s axes in `padded` ((variable, multiple) pairs). The
        copy out is inlined into C's reader (or is an element-wise loop nest
        when C is the output); the copies in are inlined into the product's
        reads, except B's (read `b_index`, given when its columns are
        padded): read through the padding condition, B's vector loads would
        go scalar, so that copy is returned to be made panel by panel (as B
        is packed). Returns (whether padded, that copy or None)."""
        factors = [next((f for var, f in padded if var.same_as(v.var)), 1) for v in sch.get(main).iter_vars]
        producers = {sch.get(b).name_hint for b in sch.get_producers(main)}
        consumers = {sch.get(b).name_hint for b in sch.get_consumers(main)}
        try:
            sch.pad_einsum(main, factors)
        except Exception:  # noqa: BLE001 - a block pad_einsum does not take
            return False, None
        b_buffer = sch.get(main).reads[b_index].source if b_index is not None else None
        b_copy = None
        for block in sch.get_producers(main):
            if sch.get(block).name_hint in producers:
                continue
            if b_buffer is not None and any(w.source.same_as(b_buffer) for w in sch.get(block).writes):
                b_copy = block
                continue
            try:
                sch.compute_inline(block)
            except Exception:  # noqa: BLE001
                cls.schedule_at_root(sch, block, lanes)
        for block in sch.get_consumers(main):
            if sch.get(block).name_hint in consumers:
                continue
            try:
                sch.compute_inline(block)
            except Exception:  # noqa: BLE001 - the output itself
                cls.schedule_at_root(sch, block, lanes)
        return True, b_copy

    @staticmethod
    def _pack_b(sch: s_tir.Schedule, main, kinds, iter_vars, nr: int) -> None:
        """B row-major in J repacked as [J / NR, K, NR] once: each panel's
        K x NR values contiguous."""
        b_index = _b_operand(sch.get(main), kinds, iter_vars)
        read = sch.get(main).reads[b_index] if b_index is not None else None
        j_vars = [v.var for v, k in zip(iter_vars, kinds) if k == IterKind.kIter_J]
        if read is None or len(read.region) < 2 or not any(read.region[-1].min.same_as(v) for v in j_vars):
            return
        packed = sch.cache_read(main, b_index, "global")
        sch.transform_layout(packed, ("write", 0), lambda *x: (*x[:-2], x[-1] // nr, x[-2], x[-1] % nr))


def _deep_panels(depth, n, bits: int) -> bool:
    """Whether a K x NR panel of a row-major K x N matrix B spans
    `_PACK_B_MIN_PAGES` pages (a symbolic K or N: assumed so)."""
    if depth is None or n is None:
        return True
    return depth * min(n * bits // 8, _PAGE_BYTES) // _PAGE_BYTES >= _PACK_B_MIN_PAGES


def _last_var_of_kind(block, kinds, kind):
    """The block's last iteration variable of `kind` (the one tiled)."""
    found = [v for v, k in zip(block.iter_vars, kinds) if k == kind]
    return found[-1] if found else None


def _bits(dtype: str) -> int:
    import tvm

    return tvm.DataType(dtype).bits


def _last_index_is(index, iter_vars, kinds, kind) -> bool:
    return any(index.same_as(v.var) and k == kind for v, k in zip(iter_vars, kinds))


def _loop_of_index(index, iter_vars, loops):
    return next(l for v, l in zip(iter_vars, loops) if index.same_as(v.var))


def _b_operand(block, kinds, iter_vars) -> int | None:
    """Which read of `block` is B: the one indexed by J and K."""
    j_vars = {v.var for v, k in zip(iter_vars, kinds) if k == IterKind.kIter_J}
    for n, read in enumerate(block.reads):
        used = {v for r in read.region for v in tirx.analysis.undefined_vars(r.min)}
        if used & j_vars:
            return n
    return None
