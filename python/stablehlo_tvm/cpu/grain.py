"""SerialSmallParallelLoops: a parallel loop over less work than
`PARALLEL_GRAIN` runs on one thread.

Waking TVM's thread pool costs microseconds; a kernel of a few dozen
elements is done in nanoseconds. The rules check the grain where they
parallelize an element-wise nest, but a product's or a reduction's rows, and
the parallel loops of the import's own kernels (scf.parallel), are shared
among cores whatever their size. This pass is the one check for all: after
scheduling, and after LoopsAsKernels has put a loop's kernels in one
function, where a parallel loop would wake the pool once per iteration:
there the grain is `LOOP_PARALLEL_GRAIN`.
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import s_tir, tirx

from .rule import PARALLEL_GRAIN

# Work of unknown size (a symbolic extent, a while loop) counts as plenty.
_UNKNOWN = PARALLEL_GRAIN


def work(stmt) -> int:
    """Innermost iterations `stmt` runs (statements count 1 each)."""
    if isinstance(stmt, tirx.For):
        extent = stmt.extent
        if not isinstance(extent, tirx.IntImm):
            return _UNKNOWN
        return int(extent.value) * work(stmt.body)
    if isinstance(stmt, tirx.SeqStmt):
        return sum(work(s) for s in stmt.seq)
    if isinstance(stmt, s_tir.SBlockRealize):
        return work(stmt.block)
    if isinstance(stmt, s_tir.SBlock):
        return work(stmt.body) + (work(stmt.init) if stmt.init is not None else 0)
    if isinstance(stmt, tirx.IfThenElse):
        return max(work(stmt.then_case), work(stmt.else_case) if stmt.else_case is not None else 0)
    if isinstance(stmt, tirx.While):
        return _UNKNOWN
    body = getattr(stmt, "body", None)
    return work(body) if isinstance(body, tirx.Stmt) else 1


# Inside a loop kernel's While the pool is woken once per iteration, and
# the launching thread waits each time for every worker: a scan's step
# shares its products and element-wise kernels only when they are this
# large (some 50-100 us on one core). Measured on the model suite's loop
# programs against 16,384 here (one run each, quiet machine, ratio to XLA):
# the Flax LSTM scan 0.49 -> 2.56, particle filter 0.51 -> 1.19, jax-md
# 1.18 -> 1.50, scipy cg 2.21 -> 2.95, the other six within noise; with one
# busy process beside it, a Haiku LSTM's 20 steps went from 4-20 ms a call
# to 0.015. (Outside loops the grain stays PARALLEL_GRAIN: at this one, a
# ViT ran at 0.80 of XLA's speed instead of 1.76.)
LOOP_PARALLEL_GRAIN = 1 << 19


def _serial_below(grain: int):
    def serial_if_small(loop):
        if loop.kind != tirx.ForKind.PARALLEL or work(loop) >= grain:
            return loop
        return tirx.For(
            loop.loop_var, loop.min, loop.extent, tirx.ForKind.SERIAL, loop.body, loop.thread_binding, loop.annotations
        )

    return serial_if_small


_serial_if_small = _serial_below(PARALLEL_GRAIN)
_serial_in_loop = _serial_below(LOOP_PARALLEL_GRAIN)


def _serial_loop_body(loop):
    body = tvm_ffi.structural_map(loop.body, [(tirx.For, _serial_in_loop)])
    return loop if body.same_as(loop.body) else tirx.While(loop.condition, body)


@tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.SerialSmallParallelLoops")
def SerialSmallParallelLoops(mod: tvm.IRModule, _ctx) -> tvm.IRModule:  # noqa: N802 - a pass
    updates = {}
    for gvar, func in mod.functions.items():
        if isinstance(func, tirx.PrimFunc):
            body = tvm_ffi.structural_map(func.body, [(tirx.For, _serial_if_small), (tirx.While, _serial_loop_body)])
            if not body.same_as(func.body):
                updates[gvar] = func.with_body(body)
    for gvar, func in updates.items():
        mod[gvar] = func
    return mod
