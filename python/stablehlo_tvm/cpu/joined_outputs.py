"""Several results of an element-wise PrimFunc over one domain, stored by
one block.

An element-wise function with several results (elementwise_groups: a
complex value's real and imaginary parts) has a loop nest per result, and
an intermediate both read can be inlined into neither nor computed inside
either's loop: it stays a whole array in memory. With the results' stores
in one block, every intermediate is a producer of that block alone, and
rule.Elementwise inlines it or computes it a row at a time inside the one
loop nest, as for a function of one result."""

from __future__ import annotations

import tvm_ffi
from tvm import s_tir, tirx
from tvm.ir.expr import TensorLoad


def _nest(stmt):
    """(loops, block realize) of a perfect loop nest around one block whose
    bindings are its loop variables in order, or None."""
    loops = []
    while isinstance(stmt, tirx.For):
        if stmt.kind != tirx.ForKind.SERIAL or not (isinstance(stmt.min, tirx.IntImm) and int(stmt.min) == 0):
            return None
        loops.append(stmt)
        stmt = stmt.body
    if not isinstance(stmt, s_tir.SBlockRealize):
        return None
    if len(stmt.iter_values) != len(loops) or any(not v.same_as(l.loop_var) for v, l in zip(stmt.iter_values, loops)):
        return None
    if not (isinstance(stmt.predicate, tirx.IntImm) and int(stmt.predicate) == 1):
        return None
    return loops, stmt


def _store_only(block) -> bool:
    return (
        isinstance(block.body, tirx.BufferStore)
        and block.init is None
        and not block.alloc_buffers
        and not block.match_buffers
        and len(block.writes) == 1
        and all(v.iter_type == tirx.IterVar.DataPar for v in block.iter_vars)
    )


def _readers(statements: list) -> dict:
    """Buffer -> the positions of the statements whose blocks read it."""
    readers: dict = {}
    for position, stmt in enumerate(statements):

        def reads(block, position=position):
            for region in block.reads:
                readers.setdefault(region.source, set()).add(position)

        tvm_ffi.structural_walk(stmt, [(s_tir.SBlock, reads)])
    return readers


def _joinable(statements: list, outputs: set) -> list:
    """The positions of the most result stores of one domain that can be
    one block: each read, if at all, only by stores among them."""
    by_domain: dict = {}
    written: dict = {}  # position -> the result it stores
    for position, stmt in enumerate(statements):
        nest = _nest(stmt)
        if nest is None:
            continue
        loops, realize = nest
        block = realize.block
        if not _store_only(block) or block.writes[0].source not in outputs:
            continue
        domain = tuple(int(l.extent) if isinstance(l.extent, tirx.IntImm) else None for l in loops)
        if None not in domain:
            by_domain.setdefault(domain, []).append(position)
            written[position] = block.writes[0].source
    candidates = [positions for positions in by_domain.values() if len(positions) > 1]
    if not candidates:
        return []  # most functions: one result (their readers not walked)
    readers = _readers(statements)
    best: list = []
    for positions in candidates:
        chosen = set(positions)
        changed = True
        while changed:  # a store read outside the set leaves it, and so may what it reads
            changed = False
            for position in sorted(chosen):
                if not readers.get(written[position], set()) <= chosen:
                    chosen.discard(position)
                    changed = True
        if len(chosen) > len(best):
            best = sorted(chosen)
    return best


def join_output_blocks(func: tirx.PrimFunc) -> tirx.PrimFunc:
    """`func` with the stores of its results that share a domain in one
    block (where the last of them was), a result another of them reads
    substituted into its reader; `func` itself where there are not two
    such, or where a substitution would make a store too large."""
    from .rule import LARGEST_EXPRESSION
    from .tir_walk import operation_count

    root = func.body
    if not isinstance(root, s_tir.SBlockRealize) or not isinstance(root.block.body, tirx.SeqStmt):
        return func
    outputs = {p for p in func.params if isinstance(p, tirx.Buffer)}
    statements = list(root.block.body.seq)
    joined = _joinable(statements, outputs)
    if len(joined) < 2:
        return func
    last_loops, last = _nest(statements[joined[-1]])
    base = last.block
    indices = [v.var for v in base.iter_vars]
    values: dict = {}  # a joined result -> its value at `indices`
    # Loads of a joined result at other indices than its own (an exception
    # raised in a structural_map callback reaches here as a RuntimeError).
    elsewhere: list = []

    def substituted(load):
        value = values.get(load.source)
        if value is None:
            return load
        if len(load.indices) != len(indices) or any(not i.same_as(v) for i, v in zip(load.indices, indices)):
            elsewhere.append(load)
            return load
        return value

    stores, reads, writes = [], [], []
    for position in joined:
        block = _nest(statements[position])[1].block
        table = {v.var: b.var for v, b in zip(block.iter_vars, base.iter_vars)}

        def renamed(node, table=table):
            return tvm_ffi.structural_map(node, [(tirx.Var, lambda var: table.get(var, var))])

        store = renamed(block.body)
        value = tvm_ffi.structural_map(store.value, [(TensorLoad, substituted)])
        if elsewhere or operation_count(value) > LARGEST_EXPRESSION:
            return func
        values[store.buffer] = value
        stores.append(tirx.BufferStore(store.buffer, value, store.indices))
        reads += [renamed(r) for r in block.reads if r.source not in values]
        writes += [renamed(w) for w in block.writes]
    block = s_tir.SBlock(base.iter_vars, reads, writes, base.name_hint, tirx.SeqStmt(stores), annotations=base.annotations)
    stmt = s_tir.SBlockRealize(last.iter_values, last.predicate, block)
    for loop in reversed(last_loops):
        stmt = tirx.For(loop.loop_var, loop.min, loop.extent, loop.kind, stmt, loop.thread_binding, loop.annotations)
    kept = [s for k, s in enumerate(statements) if k not in joined[:-1]]
    kept[kept.index(statements[joined[-1]])] = stmt
    body = s_tir.SBlock(
        root.block.iter_vars,
        root.block.reads,
        root.block.writes,
        root.block.name_hint,
        kept[0] if len(kept) == 1 else tirx.SeqStmt(kept),
        root.block.init,
        root.block.alloc_buffers,
        root.block.match_buffers,
        root.block.annotations,
    )
    return func.with_body(s_tir.SBlockRealize(root.iter_values, root.predicate, body))
