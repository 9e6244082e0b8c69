"""Questions about PrimFuncs answered by walking their TIR in C++
(tvm_ffi.structural_walk), calling back into Python only at the nodes
asked about: printing a function to search its text cost ten times more
(0.1 s a build on large modules)."""

from __future__ import annotations

import tvm_ffi
from tvm import s_tir, tirx
from tvm.ir.expr import Expr, StringImm, TensorLoad

_STATEMENTS = (tirx.BufferStore, tirx.Bind, tirx.For, tirx.While, tirx.IfThenElse, tirx.Evaluate)


def statement_count(func: tirx.PrimFunc) -> int:
    """How many statements `func` has: a measure of the work of lowering
    and compiling it."""
    count = [0]

    def seen(_stmt):
        count[0] += 1

    tvm_ffi.structural_walk(func.body, [(_STATEMENTS, seen)])
    return count[0]


def _reduces(block) -> bool:
    """Whether `block` reduces: it has a reduction axis or an init statement."""
    return block.init is not None or any(v.iter_type == tirx.IterVar.CommReduce for v in block.iter_vars)


def has_reduction(func: tirx.PrimFunc) -> bool:
    """Whether a block of `func` reduces."""

    def check(block):
        return tvm_ffi.VisitInterrupt(True) if _reduces(block) else None

    return tvm_ffi.structural_walk(func.body, [(s_tir.SBlock, check)], order="pre") is not None


def block_counts(func: tirx.PrimFunc) -> tuple[int, int]:
    """How many blocks `func` has below its root, and how many of them
    reduce: what rules can check before normalize_prim_func's analysis."""
    blocks, reductions = [-1], [0]  # the root is a block too

    def seen(block):
        blocks[0] += 1
        reductions[0] += _reduces(block)

    tvm_ffi.structural_walk(func.body, [(s_tir.SBlock, seen)])
    return blocks[0], reductions[0]


def scalar_blocks(func: tirx.PrimFunc) -> int | None:
    """How many blocks the root block of `func` holds when each is a
    spatial block of a scalar outside any loop (its axes of extent 1 bound
    to 0, no predicate); None otherwise. Such a function is in the form
    dlight's normalize_prim_func gives (there is no index to simplify),
    which that analysis confirms at about 3 ms a block: a scalar formula
    (lgamma's gradient in a log-density) is a hundred blocks."""
    root = func.body
    if not isinstance(root, s_tir.SBlockRealize):
        return None
    body = root.block.body
    nests = body.seq if isinstance(body, tirx.SeqStmt) else [body]
    for nest in nests:
        if not isinstance(nest, s_tir.SBlockRealize) or not (isinstance(nest.predicate, tirx.IntImm) and nest.predicate.value == 1):
            return None
        block = nest.block
        if block.init is not None:
            return None
        for var, value in zip(block.iter_vars, nest.iter_values):
            if var.iter_type != tirx.IterVar.DataPar or not _is_one(var.dom.extent):
                return None
            if not (isinstance(value, tirx.IntImm) and value.value == 0):
                return None
    return len(nests)


def _is_one(extent) -> bool:
    return isinstance(extent, tirx.IntImm) and extent.value == 1


def executed_stores(func: tirx.PrimFunc) -> int:
    """About how many elements one call of `func` writes: each store once
    per iteration of the loops around it (a loop of unknown extent or a
    While counted once, the longer branch of an if), a reduction's update
    once per element it writes rather than once per term it adds. A
    measure of the memory a kernel's call writes, and so of its work
    beyond the arithmetic of its reductions."""

    def walk(node) -> float:
        if isinstance(node, tirx.BufferStore):
            return 1.0
        if isinstance(node, tirx.For):
            extent = int(node.extent) if isinstance(node.extent, tirx.IntImm) else 1
            return extent * walk(node.body)
        if isinstance(node, tirx.SeqStmt):
            return sum(walk(stmt) for stmt in node.seq)
        if isinstance(node, tirx.IfThenElse):
            return max(walk(node.then_case), walk(node.else_case) if node.else_case is not None else 0.0)
        if isinstance(node, s_tir.SBlockRealize):
            return walk(node.block)
        if isinstance(node, s_tir.SBlock):
            terms = 1
            for var in node.iter_vars:
                if var.iter_type == tirx.IterVar.CommReduce and isinstance(var.dom.extent, tirx.IntImm):
                    terms *= max(int(var.dom.extent), 1)
            # the loops around a block run its reduction's terms too
            return (walk(node.body) + (walk(node.init) if node.init is not None else 0.0)) / terms
        if isinstance(node, (tirx.While, tirx.AttrStmt)):
            return walk(node.body)
        return 0.0

    return round(walk(func.body))


def store_of(block) -> tirx.BufferStore | None:
    """The last store a block's body makes (a block computes one)."""
    stores: list = []
    tvm_ffi.structural_walk(block.body, [(tirx.BufferStore, stores.append)])
    return stores[-1] if stores else None


def loads_in(expr) -> list:
    """The loads in `expr` (each with .source, the buffer, and .indices),
    nested ones (an index that is a load) too."""
    loads: list = []
    tvm_ffi.structural_walk(expr, [(TensorLoad, loads.append)])
    return loads


def operation_count(expr) -> int:
    """How many operations (arithmetic, comparisons, calls) `expr`
    computes, not counting those in the indices of its loads: what
    inlining it recomputes per element."""
    count = [0]

    def operation(_node):
        count[0] += 1

    skip = (tirx.Var, TensorLoad, tirx.IntImm, tirx.FloatImm, StringImm)
    tvm_ffi.structural_walk(expr, [(skip, lambda _: tvm_ffi.WalkResult.SKIP), (Expr, operation)], order="pre")
    return count[0]


def float_literals(expr) -> set:
    """The float constants in `expr`, as (dtype, value)."""
    found: set = set()
    tvm_ffi.structural_walk(expr, [(tirx.FloatImm, lambda imm: found.add((str(imm.ty), float(imm.value))))])
    return found


def has_node(root, types, accept=None) -> bool:
    """Whether `root` holds a node of `types` (for which `accept` holds)."""

    def check(node):
        return tvm_ffi.VisitInterrupt(True) if accept is None or accept(node) else None

    return tvm_ffi.structural_walk(root, [(types, check)], order="pre") is not None


def loop_in_vectorized_loop(func: tirx.PrimFunc) -> bool:
    """Whether a vectorized loop of `func` holds another loop."""

    def check(loop):
        return loop.kind == tirx.ForKind.VECTORIZED and has_node(loop.body, tirx.For)

    return has_node(func.body, tirx.For, check)
