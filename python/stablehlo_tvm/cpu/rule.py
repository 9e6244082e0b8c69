"""What the CPU schedule rules share: the target test, SIMD width, inlining
and vectorizing helpers."""

from __future__ import annotations

import itertools

import tvm_ffi
from tvm import s_tir, tirx
from tvm.ir import Op
from tvm.ir.expr import Call, TensorLoad
from tvm.s_tir.dlight.analysis import normalize_prim_func
from tvm.s_tir.dlight.base import ScheduleRule
from tvm.target import Target

from .target import vector_lanes
from .tir_walk import block_counts, float_literals, has_node, loads_in, operation_count, store_of
from .unchecked import UncheckedSchedule


class CPURule(ScheduleRule):
    """A rule for LLVM CPU targets; `apply` returns None when it does not fit."""

    def is_target_available(self, target: Target) -> bool:
        return target.kind.name == "llvm"

    @staticmethod
    def lanes(target: Target, dtype: str) -> int:
        import tvm

        bits = tvm.DataType(dtype).bits
        return vector_lanes(target, bits if bits >= 8 else 8)

    @staticmethod
    def with_one_reduction(func: tirx.PrimFunc):
        """(schedule, normalized blocks, the reduction block) of a function
        with exactly one reduction (a product and what it fuses), else
        None. Reductions are counted before the analysis, which costs
        milliseconds a block."""
        if block_counts(func)[1] != 1:
            return None
        sch = UncheckedSchedule(func)
        blocks = normalize_prim_func(sch)
        if blocks is None:
            return None
        reductions = [b for b in blocks if not b.is_injective()]
        if len(reductions) != 1:
            return None
        return sch, blocks, reductions[0].block_rv

    @staticmethod
    def inline_all(sch: s_tir.Schedule, blocks: list) -> list:
        """Inlines what is worth it, into consumers or else into producers,
        and returns the blocks that stay (see `worth_inlining`)."""
        blocks = list(blocks)
        progress = True
        while progress:
            progress = False
            for block in list(blocks):
                consumers = sch.get_consumers(block)
                if worth_inlining(sch, block) and all(
                    fold_safe(sch, block, c) for c in consumers
                ) and not _grows_too_large(sch, block, consumers):
                    try:
                        sch.compute_inline(block)
                    except Exception:  # noqa: BLE001 - the schedule says why it cannot
                        continue
                    blocks.remove(block)
                    progress = True
            for block in list(blocks):
                # The producer's buffer disappears: no other reader may need it.
                producers = sch.get_producers(block)
                if not reads_each_once(sch, block) or any(len(sch.get_consumers(p)) != 1 for p in producers):
                    continue
                if not all(fold_safe(sch, block, p) and not _divides_integers(sch.get(p)) for p in producers):
                    continue
                try:
                    sch.reverse_compute_inline(block)
                except Exception:  # noqa: BLE001
                    continue
                blocks.remove(block)
                progress = True
        return blocks

    @staticmethod
    def schedule_at_root(sch: s_tir.Schedule, block, lanes: int) -> None:
        """An element-wise loop nest of its own: innermost axis vectorized,
        the others fused and shared among cores when there is enough work."""
        loops = sch.get_loops(block)
        if not loops:
            return
        # An innermost axis shorter than a vector (xyz coordinates: arrays of
        # shape (n, n, 3)) is fused with the one around it, where every
        # access stays contiguous along the fused axis.
        if len(loops) > 2 and vectorizable(sch.get(block)) and _fuses_contiguously(sch, block, loops, lanes):
            sch.fuse(loops[-2], loops[-1])
            loops = sch.get_loops(block)
        if _transposes(sch, block, loops, lanes):
            # Tiles of lanes x lanes: the rows a tile reads stay in cache
            # while it writes its rows (whole rows read 512 cache lines per
            # row written: a 512 x 512 transpose took 0.33 ms).
            row, column = loops[-2:]
            row_outer, row_inner = sch.split(row, [None, lanes])
            column_outer, column_inner = sch.split(column, [None, lanes])
            sch.reorder(row_outer, column_outer, row_inner, column_inner)
            sch.vectorize(column_inner)
        else:
            CPURule.vectorize_innermost(sch, block, lanes)
        loops = sch.get_loops(block)
        outer = [l for l in loops if sch.get(l).kind == tirx.ForKind.SERIAL]
        # Fused up to the first symbolic extent after the outermost: the
        # fused index is divided by the extents inside it, which must be
        # constants to stay cheap.
        shared = outer[:1] + list(itertools.takewhile(lambda l: extent_of(sch, l) is not None, outer[1:]))
        if outer and iterations(sch, loops, symbolic=PARALLEL_GRAIN) >= PARALLEL_GRAIN:
            sch.parallel(fused(sch, shared))

    @staticmethod
    def schedule_with_output(sch: s_tir.Schedule, producers: list, last, lanes: int) -> None:
        """`last` at root (see schedule_at_root); each of `producers` (the
        blocks left after inlining, in order) computed a vector at a time
        inside its outer loop, so that values read many times live in
        registers rather than in whole intermediate arrays, or else at root."""
        CPURule.schedule_at_root(sch, last, lanes)
        loops = sch.get_loops(last)
        # Inside the vector loop itself a producer's buffer would shrink to one lane.
        outer = loops[0] if loops and sch.get(loops[0]).kind != tirx.ForKind.VECTORIZED else None
        for block in reversed(producers):
            if outer is None or not _compute_at(sch, block, outer):
                CPURule.schedule_at_root(sch, block, lanes)
            elif len(sch.get_loops(block)) > 1:  # a loop of its own below the shared one
                CPURule.vectorize_innermost(sch, block, lanes)

    @staticmethod
    def accumulate_in_registers(sch: s_tir.Schedule, main, tile, epilogue, lanes: int) -> None:
        """A product's tile accumulated in a local buffer under the loop
        `tile` and written back there, with `epilogue` (C's one element-wise
        reader, or None) applied as it is written."""
        local = sch.cache_write(main, 0, "local")
        sch.reverse_compute_at(local, tile, preserve_unit_loops=True)
        if epilogue is not None:
            try:
                sch.reverse_compute_inline(epilogue)
            except Exception:  # noqa: BLE001 - an epilogue that is not element-wise
                sch.reverse_compute_at(epilogue, tile, preserve_unit_loops=True)
                CPURule.vectorize_innermost(sch, epilogue, lanes)
        CPURule.vectorize_innermost(sch, local, lanes)

    @staticmethod
    def is_consumer_of(sch: s_tir.Schedule, block, producer) -> bool:
        return any(sch.get(c).same_as(sch.get(block)) for c in sch.get_consumers(producer))

    @staticmethod
    def vectorize_innermost(sch: s_tir.Schedule, block, lanes: int) -> None:
        """Vectorizes the innermost loop of `block` by a divisor of its extent
        up to `lanes` (none when the extent is odd or unknown)."""
        loops = sch.get_loops(block)
        if not loops or not vectorizable(sch.get(block)):
            return
        extent = extent_of(sch, loops[-1])
        if extent is None or extent < 2:
            return
        width = divisor_at_most(extent, lanes)
        if width < 2:
            return
        if width < extent:
            _, loops_inner = sch.split(loops[-1], [extent // width, width])
            sch.vectorize(loops_inner)
        else:
            sch.vectorize(loops[-1])


# What must stay scalar: intrinsics LLVM's code generator cannot emit on
# vectors (TVM lowers them to scalar libm calls after vectorization), and
# integer division and remainder, whose guarded divisor (the import never
# divides by 0 or INT_MIN by -1) LLVM's scalarized vector division no longer
# respects: vectorized, test_integer_division_edge_cases_do_not_trap traps.
# The intrinsics here; the divisions are `_scalar_only`'s node types.
_SCALAR_ONLY_CALLS = frozenset({"tirx.sinh", "tirx.cosh"})


# Fewer elements than this are not worth waking another thread for.
PARALLEL_GRAIN = 16384
# A producer read more than once per consumer element is inlined only when
# its own computation is about this small (operations: a broadcast or a
# constant has none, a cast one, rsqrt(v + eps) * scale three): inlining
# copies the expression into every read, so chains of multiply-read
# formulas (tanh, lgamma, NaN-propagating max) would grow exponentially.
_SMALL_EXPRESSION = 3
# A producer whose elements are each read by this many consumer elements or
# more is computed once into its own buffer, unless it is small.
_REUSED = 8


# No consumer's stores grow past this many operations by inlining. Small
# producers are inlined into every read, and a long chain of them each read
# twice (a special function's series over a group of elementwise_groups)
# made one store of 89,200 operations, which TIR's simplifier and CSE took
# minutes over.
LARGEST_EXPRESSION = 1024


def _stores(block) -> list:
    found: list = []
    tvm_ffi.structural_walk(block.body, [(tirx.BufferStore, found.append)])
    return found


def _grows_too_large(sch: s_tir.Schedule, block, consumers) -> bool:
    """Whether inlining `block` would make a consumer's stores larger than
    LARGEST_EXPRESSION (every copy counted: what TIR's passes then walk)."""
    stmt = sch.get(block)
    store = store_of(stmt)
    if store is None or len(stmt.writes) != 1:
        return False
    size = operation_count(store.value)
    written = stmt.writes[0].source
    for consumer in consumers:
        consumer = sch.get(consumer)
        stores = _stores(consumer)
        reads = sum(load.source.same_as(written) for s in stores for load in loads_in(s.value))
        if sum(operation_count(s.value) for s in stores) + reads * size > LARGEST_EXPRESSION:
            return True
    return False


def worth_inlining(sch: s_tir.Schedule, block) -> bool:
    stmt = sch.get(block)
    if len(stmt.writes) != 1 or _divides_integers(stmt):
        # An integer division stays scalar (see _SCALAR_ONLY_CALLS) in a
        # block of its own: inlined, its consumers would go scalar with it.
        return False
    store = store_of(stmt)
    if store is None or operation_count(store.value) <= _SMALL_EXPRESSION:
        return True
    written = stmt.writes[0].source
    consumers = sch.get_consumers(block)
    if sum(_loads_of(sch.get(c), written) for c in consumers) > 1:
        return False
    # Read once per element of a consumer that has many more elements (a
    # per-row value under a broadcast): inlined, it would be recomputed for
    # each of them. Softmax's NaN-propagating row maximum cost 4x its exp.
    size = domain_size(stmt)
    return size is None or all((domain_size(sch.get(c)) or 0) < _REUSED * size for c in consumers)


def domain_size(block) -> int | None:
    """How many instances of `block` run (None when not static)."""
    size = 1
    for var in block.iter_vars:
        if not isinstance(var.dom.extent, tirx.IntImm):
            return None
        size *= int(var.dom.extent)
    return size


def _transposes(sch: s_tir.Schedule, block, loops, lanes: int) -> bool:
    """Whether `block` (vectorizable, its two innermost loops serial, directly
    nested, of static extents that are multiples of `lanes`) stores along
    its two innermost variables and loads a buffer indexed by them swapped:
    a transpose of its last two axes."""
    if len(loops) < 2 or not vectorizable(sch.get(block)):
        return False
    inner, outer = sch.get(loops[-1]), sch.get(loops[-2])
    if outer.kind != tirx.ForKind.SERIAL or inner.kind != tirx.ForKind.SERIAL or not outer.body.same_as(inner):
        return False
    if any(extent_of(sch, l) is None or extent_of(sch, l) % lanes for l in loops[-2:]):
        return False
    variables = sch.get(block).iter_vars
    store = store_of(sch.get(block))
    if len(variables) < 2 or store is None:
        return False
    row, column = (v.var for v in variables[-2:])

    def ends_with(indices, first, second) -> bool:
        return len(indices) >= 2 and all(
            isinstance(index, tirx.Var) and index.same_as(v) for index, v in zip(indices[-2:], (first, second))
        )

    return ends_with(store.indices, row, column) and any(
        ends_with(load.indices, column, row) for load in loads_in(store)
    )


def _fuses_contiguously(sch: s_tir.Schedule, block, loops, lanes: int) -> bool:
    """Whether `block`'s two innermost loops (directly nested, serial, the
    innermost shorter than `lanes`, the outermost loop left for producers
    computed inside it) fuse into one of whole vectors along which each
    buffer access is
    contiguous or constant: each index list either ends with the block's
    two innermost variables or holds neither (a gather along the fused
    axis, x[i, k] of (i, j, k), made products slower)."""
    inner, outer = sch.get(loops[-1]), sch.get(loops[-2])
    extent, outer_extent = extent_of(sch, loops[-1]), extent_of(sch, loops[-2])
    if extent is None or extent >= lanes or outer_extent is None:
        return False
    # Only into whole vectors of 8 lanes or more: odd widths (a 3 x 3 kernel
    # fused to 9) made a training step's convolution gradients slower.
    if divisor_at_most(extent * outer_extent, lanes, multiple_of=min(8, lanes)) == 0:
        return False
    if outer.kind != tirx.ForKind.SERIAL or inner.kind != tirx.ForKind.SERIAL or not outer.body.same_as(inner):
        return False
    variables = sch.get(block).iter_vars
    if len(variables) < 2:
        return False
    last = [v.var for v in variables[-2:]]
    store = store_of(sch.get(block))
    if store is None:
        return False
    for indices in [store.indices] + [load.indices for load in loads_in(store)]:
        if any(has_node(index, TensorLoad) for index in indices):
            continue  # a gather: its index is the load to look at
        ends_with_last = len(indices) >= 2 and all(
            isinstance(index, tirx.Var) and index.same_as(v) for index, v in zip(indices[-2:], last)
        )
        if not ends_with_last and any(has_node(index, tirx.Var, lambda u: any(u.same_as(v) for v in last)) for index in indices):
            return False
    return True


def _loads_of(block, buffer) -> int:
    """How many times a store of `block` loads `buffer`, at most. A block
    that stores several results (joined_outputs) computes them in one loop
    body, where the copies of an inlined value in different stores are one
    common subexpression."""
    return max((sum(load.source.same_as(buffer) for load in loads_in(store.value)) for store in _stores(block)), default=0)


def _adds_floats(sch: s_tir.Schedule, block) -> bool:
    stmt = sch.get(block)
    store = store_of(stmt)
    if store is None or not any("float" in str(w.source.dtype) for w in stmt.writes):
        return False
    return has_node(store.value, (tirx.Add, tirx.Sub)) or any(value < 0 for _, value in float_literals(store.value))


def _atoms(sch: s_tir.Schedule, block) -> set:
    """The buffers a block's store loads and the float literals it holds."""
    store = store_of(sch.get(block))
    if store is None:
        return set()
    return {str(load.source.name) for load in loads_in(store.value)} | float_literals(store.value)


def fold_safe(sch: s_tir.Schedule, inlined, into) -> bool:
    """Whether inlining `inlined` into `into` keeps float formulas intact.

    TVM's simplifier treats float addition as exact: once one expression
    holds (1 + x) - 1 it folds it to x, which destroys exact corrections
    (log1p, expm1, compensated sums). Its rules cancel structurally equal
    terms, so two float sums are merged only when they share no load and no
    literal (Horner's rule, say, merges; (1 + x) - 1 does not).
    """
    if not (_adds_floats(sch, inlined) and _adds_floats(sch, into)):
        return True
    link = {w.source.name for b in (inlined, into) for w in sch.get(b).writes}
    return not ((_atoms(sch, inlined) - link) & (_atoms(sch, into) - link))


def reads_each_once(sch: s_tir.Schedule, block) -> bool:
    """Whether `block` loads every buffer it reads once (reverse inlining
    copies the producer's expression into each load); a buffer it also
    writes counts that write as a load."""
    stmt = sch.get(block)
    store = store_of(stmt)
    if store is None:
        return True
    loaded = [load.source for load in loads_in(store.value)]
    return all(sum(b.same_as(r.source) for b in loaded) + store.buffer.same_as(r.source) <= 1 for r in stmt.reads)


def vectorizable(block) -> bool:
    # Vector code over loaded booleans mixes i8 (memory) and i1 (compares)
    # operands in one LLVM instruction, which LLVM's verifier rejects; a
    # boolean the innermost axis does not index stays a scalar there (a
    # per-column mask of a ReLU or max-pool gradient: 430K elements went one
    # at a time).
    if any(str(r.source.dtype) == "bool" and _indexed_by_innermost(block, r) for r in block.reads):
        return False
    if _broadcasts_bfloat16(block):
        return False
    return not has_node(block.body, (tirx.Div, tirx.Mod, Call), _scalar_only)


def _divides_integers(block) -> bool:
    """Whether `block` divides integers or takes their remainder."""
    return has_node(block.body, (tirx.Div, tirx.Mod), _scalar_only)


def _scalar_only(node) -> bool:
    if isinstance(node, Call):
        return isinstance(node.op, Op) and str(node.op.name) in _SCALAR_ONLY_CALLS
    if isinstance(node, tirx.Div):
        return str(node.ty).startswith(("int", "uint"))
    return True  # tirx.Mod: truncated remainder


def _indexed_by_innermost(block, region) -> bool:
    """Whether the innermost iteration variable of `block` (the one
    vectorized) appears in the indices of the buffer region `region` (or
    the block has no iteration variables to tell)."""
    if not block.iter_vars:
        return True
    from tvm.tirx.analysis import undefined_vars

    innermost = block.iter_vars[-1].var
    return any(
        innermost.same_as(v) for r in region.region for v in undefined_vars(r.min, []) + undefined_vars(r.extent, [])
    )


def _broadcasts_bfloat16(block) -> bool:
    """Whether `block` stores a bfloat16 value that does not vary along its
    innermost axis: vectorized, that is a bfloat16 broadcast, which TVM's
    BF16StorageLegalize leaves as bfloat16 beside the uint16 it makes of
    the buffers (and then fails)."""
    store = block.body
    if not isinstance(store, tirx.BufferStore) or str(store.buffer.dtype) != "bfloat16" or not block.iter_vars:
        return False
    from tvm.tirx.analysis import undefined_vars

    innermost = block.iter_vars[-1].var
    return not any(innermost.same_as(v) for v in undefined_vars(store.value, []))


def fused(sch: s_tir.Schedule, loops: list):
    """`loops` as one loop (a single loop as it is)."""
    return loops[0] if len(loops) == 1 else sch.fuse(*loops)


def extent_of(sch: s_tir.Schedule, loop) -> int | None:
    extent = sch.get(loop).extent
    return int(extent) if isinstance(extent, tirx.IntImm) else None


def iterations(sch: s_tir.Schedule, loops, symbolic: int = 1) -> int:
    """How many times `loops` run their body, an extent unknown until run
    time (a symbolic size) counted as `symbolic`: 1 where the count bounds
    a copy, a large number where it decides sharing among cores (a build
    for every size is for sizes that are worth it, as on the BLAS)."""
    total = 1
    for loop in loops:
        total *= extent_of(sch, loop) or symbolic
    return total


def divisor_at_most(n: int, limit: int, multiple_of: int = 1) -> int:
    """The largest divisor of `n` that is at most `limit` and a multiple of
    `multiple_of`; 0 when there is none (1 always divides)."""
    for d in range(min(n, limit), 0, -1):
        if n % d == 0 and d % multiple_of == 0:
            return d
    return 0


def _compute_at(sch: s_tir.Schedule, block, loop) -> bool:
    """compute_at, where it computes each element of `block` once: a
    producer read with a halo or across (a padded input under im2col
    slices) would be recomputed at many iterations."""
    domain = iterations(sch, sch.get_loops(block))
    trial = sch.copy()
    try:
        trial.compute_at(block, loop, preserve_unit_loops=False)
    except Exception:  # noqa: BLE001 - not element-wise: it keeps a loop nest of its own
        return False
    loops = trial.get_loops(block)
    if any(extent_of(trial, l) is None for l in loops) or iterations(trial, loops) > domain:
        return False
    sch.compute_at(block, loop, preserve_unit_loops=False)
    return True
