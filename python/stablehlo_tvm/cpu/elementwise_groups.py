"""ElementwiseGroups: element-wise functions of one shape that fusion left
apart, joined into one function with several results.

TVM's FuseOps joins an operator to the operator that post-dominates it. A
value read on the way to two results has no such operator when the results
are a function's or an opaque call's arguments: the real and imaginary
parts of a complex value (stablehlo-lower-complex's pairs) are the common
case. A complex division ran as 27 functions, each a loop over the whole
array with an array in memory between them (128 x 65 values: 57 us; XLA's
whole call 50 us). Joined, its results are stored by one block
(joined_outputs) and the values they share are inlined into it or computed
a row at a time inside its loop (rule.Elementwise): 30 us.

Joined are calls, in one dataflow block, of element-wise or broadcast
functions (op_pattern at most kBroadcast) whose one result has the same
static shape of at least MIN_ELEMENTS, where one reads another's result
and that result has other readers too, while the group stays convex (no
path leaves it and comes back) and holds at most MAX_GROUP_OPS operators.
Results read outside the group are the joined function's results."""

from __future__ import annotations

import heapq
import itertools
import math

import tvm
from tvm import relax, tirx

from .bindings import var_bindings

_BROADCAST = 1  # TVM's OpPatternKind: kElemWise 0, kBroadcast 1

# Arrays smaller than this are left as fusion made them: their intermediate
# arrays stay in cache, and loop kernels of scalars and short vectors
# (samplers' steps) ran no faster joined, some slower.
MIN_ELEMENTS = 1024
# The most operators a joined function holds: twice what fusion puts in one
# (pipeline.MAX_FUSED_OPS), enough for a complex division's 137 (rule's
# LARGEST_EXPRESSION bounds what inlining then makes of them).
MAX_GROUP_OPS = 192


def _shape(ty):
    if not isinstance(ty, relax.TensorType) or ty.shape is None:
        return None
    dims = []
    for size in ty.shape:
        if not isinstance(size, tirx.IntImm):
            return None
        dims.append(int(size))
    return tuple(dims)


def _tir_calls(func: relax.Function):
    """The call_tir values of a primitive function's body, or None when it
    binds anything else."""
    calls = []
    for block in func.body.blocks:
        for binding in block.bindings:
            value = binding.value
            if not (isinstance(value, relax.Call) and value.op.same_as(_CALL_TIR)):
                return None
            calls.append(value)
    return calls


_CALL_TIR = tvm.ir.Op.get("relax.call_tir")


class _Kinds:
    """Which callees are element-wise: how many operators a call of each
    stands for, None where it is not element-wise."""

    def __init__(self, mod: tvm.IRModule):
        self.mod = mod
        self.cache: dict = {}

    def _prim_elementwise(self, gv) -> bool:
        func = self.mod[gv]
        if not isinstance(func, tirx.PrimFunc) or func.attrs is None or "op_pattern" not in func.attrs:
            return False
        return int(func.attrs["op_pattern"]) <= _BROADCAST

    def ops(self, value) -> int | None:
        if not isinstance(value, relax.Call):
            return None
        if value.op.same_as(_CALL_TIR):
            callee = value.args[0]
            key = ("tir", callee)
        elif isinstance(value.op, relax.GlobalVar):
            callee = value.op
            key = ("relax", callee)
        else:
            return None
        if key not in self.cache:
            self.cache[key] = self._count(key[0], callee)
        return self.cache[key]

    def _count(self, kind: str, callee) -> int | None:
        if kind == "tir":
            return 1 if self._prim_elementwise(callee) else None
        func = self.mod[callee]
        if not isinstance(func, relax.Function) or func.attrs is None or not func.attrs.get("Primitive"):
            return None
        calls = _tir_calls(func)
        if not calls or not all(self._prim_elementwise(c.args[0]) for c in calls):
            return None
        return len(calls)


def _vars_in(expr, found: list) -> None:
    """The variables `expr` reads (with repeats)."""
    if isinstance(expr, relax.Var):
        found.append(expr)
    elif isinstance(expr, relax.Call):
        for arg in expr.args:
            _vars_in(arg, found)
    elif isinstance(expr, relax.Tuple):
        for field in expr.fields:
            _vars_in(field, found)
    elif isinstance(expr, relax.TupleGetItem):
        _vars_in(expr.tuple_value, found)
    elif isinstance(expr, (relax.If, relax.SeqExpr, relax.Function)):
        found.extend(relax.analysis.free_vars(expr))


def _call_inputs(value: relax.Call) -> list:
    """The arguments of an element-wise call: call_tir's tuple, or the
    primitive function's own."""
    if value.op.same_as(_CALL_TIR):
        args = value.args[1]
        return list(args.fields) if isinstance(args, relax.Tuple) else [args]
    return list(value.args)


def _groups(bindings: list, kinds: _Kinds, uses: dict, limit: int) -> list:
    """Groups (lists of binding positions, two or more) to join. A call
    joins the groups of the calls it reads (of its shape) through a value
    read more than once, and they join each other, when neither reaches the
    other or the call through a value outside them. (A value read once that
    fusion left apart from its reader was cut there for size: a long
    formula's chain of functions, which joined would only be larger.)"""
    parent: list = []  # union-find over group ids

    def find(g: int) -> int:
        while parent[g] != g:
            parent[g] = parent[parent[g]]
            g = parent[g]
        return g

    members: list = []  # group id -> positions (at the root)
    shape_of: list = []
    size_of: list = []
    group_of: dict = {}  # variable -> group id (find() for the current one)
    depends: dict = {}  # variable -> group ids it depends on
    after: list = []  # group id -> group ids its members depend on
    for position, binding in enumerate(bindings):
        value = binding.value
        reads: list = []
        _vars_in(value, reads)
        deps = set()
        for var in reads:
            deps |= depends.get(var, set())
        ops = kinds.ops(value) if isinstance(binding, relax.VarBinding) else None
        shape = _shape(binding.var.ty) if ops is not None else None
        if shape is None or math.prod(shape) < MIN_ELEMENTS:
            depends[binding.var] = deps
            continue
        inputs = [a for a in _call_inputs(value) if isinstance(a, relax.Var)]
        joined: list = []
        size = ops
        for var in inputs:
            g = group_of.get(var)
            if g is None or uses.get(var, 0) < 2:
                continue
            g = find(g)
            if g in joined or shape_of[g] != shape or size + size_of[g] > limit:
                continue
            # Convex: no input of the call outside the groups reaches g, and
            # no group joined so far reaches g or is reached from it.
            outside = [x for x in inputs if group_of.get(x) is None or find(group_of[x]) not in joined + [g]]
            if any(g in {find(d) for d in depends.get(x, ())} for x in outside):
                continue
            if any(g in {find(d) for d in after[j]} or j in {find(d) for d in after[g]} for j in joined):
                continue
            joined.append(g)
            size += size_of[g]
        if joined:
            root = joined[0]
            for g in joined[1:]:
                parent[g] = root
                members[root] += members[g]
                after[root] |= after[g]
            size_of[root] = size
        else:
            root = len(members)
            parent.append(root)
            members.append([])
            shape_of.append(shape)
            size_of.append(ops)
            after.append(set())
        members[root].append(position)
        after[root] |= {d for d in deps if find(d) != root}
        group_of[binding.var] = root
        deps.add(root)
        depends[binding.var] = deps
    return [sorted(members[g]) for g in range(len(members)) if find(g) == g and len(members[g]) > 1]


def _joined_function(bb: relax.BlockBuilder, mod: tvm.IRModule, name: str, calls: list, inputs: list, outputs: list):
    """A primitive function of `calls` ((variable, value) in order; those
    of `mod`'s functions) over `inputs`, returning the variables `outputs`."""
    params = [relax.Var(f"p{i}", x.ty) for i, x in enumerate(inputs)]
    with bb.function(name, params, {"Primitive": True}, private=True):
        with bb.dataflow():
            env = {x: p for x, p in zip(inputs, params) if isinstance(x, relax.Var)}
            constants = [(x, p) for x, p in zip(inputs, params) if not isinstance(x, relax.Var)]

            def arg(x, local):
                if isinstance(x, relax.Var):
                    return local.get(x, env.get(x))
                return next((p for c, p in constants if c.same_as(x)), x)

            for var, value in calls:
                if value.op.same_as(_CALL_TIR):
                    args = relax.Tuple([arg(x, {}) for x in _call_inputs(value)])
                    env[var] = bb.emit(relax.Call(value.op, [value.args[0], args], value.attrs, value.ty_args))
                    continue
                func = mod[value.op]
                local = {p: arg(x, {}) for p, x in zip(func.params, value.args)}
                for block in func.body.blocks:
                    for binding in block.bindings:
                        inner = binding.value
                        args = relax.Tuple([arg(x, local) for x in _call_inputs(inner)])
                        local[binding.var] = bb.emit(relax.Call(inner.op, [inner.args[0], args], inner.attrs, inner.ty_args))
                env[var] = local[func.body.body]
            result = bb.emit_output(env[outputs[0]] if len(outputs) == 1 else relax.Tuple([env[v] for v in outputs]))
        return bb.emit_func_output(result)


def _rewrite_block(bb, block: relax.DataflowBlock, kinds: _Kinds, uses: dict, limit: int, numbers) -> relax.DataflowBlock:
    """`block` with its groups (`_groups`) each one call of a joined
    function (named with the next of `numbers`), in an order its reads
    allow."""
    bindings = list(block.bindings)
    groups = _groups(bindings, kinds, uses, limit)
    if not groups:
        return block
    member_of = {p: k for k, group in enumerate(groups) for p in group}
    new_bindings: dict = {}  # item -> bindings
    for k, group in enumerate(groups):
        calls = [(bindings[p].var, bindings[p].value) for p in group]
        mine = {var for var, _ in calls}
        inputs, seen, inner_reads = [], set(), {}
        for _, value in calls:
            for x in _call_inputs(value):
                if isinstance(x, relax.Var):
                    if x in mine:
                        inner_reads[x] = inner_reads.get(x, 0) + 1
                        continue
                    if x in seen:
                        continue
                    seen.add(x)
                inputs.append(x)
        outputs = [var for var, _ in calls if uses.get(var, 0) > inner_reads.get(var, 0)]
        if not outputs:
            outputs = [calls[-1][0]]
        gv = _joined_function(bb, kinds.mod, f"fused_elementwise_group{next(numbers)}", calls, inputs, outputs)
        call = relax.Call(gv, inputs)
        if len(outputs) == 1:
            new_bindings[("group", k)] = [relax.VarBinding(outputs[0], call)]
        else:
            joined = relax.DataflowVar("joined", relax.TupleType([v.ty for v in outputs]))
            new_bindings[("group", k)] = [relax.VarBinding(joined, call)] + [
                relax.VarBinding(v, relax.TupleGetItem(joined, i)) for i, v in enumerate(outputs)
            ]
    # Items in an order their reads allow, as near the old one as may be: a
    # group where its last member was.
    item_of_var: dict = {}
    key: dict = {}
    for position, binding in enumerate(bindings):
        item = ("group", member_of[position]) if position in member_of else ("binding", position)
        item_of_var[binding.var] = item
        key[item] = position
        if item[0] == "binding":
            new_bindings[item] = [binding]
    needs: dict = {item: set() for item in key}
    for position, binding in enumerate(bindings):
        item = item_of_var[binding.var]
        reads: list = []
        _vars_in(binding.value, reads)
        for var in reads:
            source = item_of_var.get(var)
            if source is not None and source != item:
                needs[item].add(source)
    waiting = {item: len(sources) for item, sources in needs.items()}
    readers: dict = {item: [] for item in key}
    for item, sources in needs.items():
        for source in sources:
            readers[source].append(item)
    ready = [(key[item], item) for item, n in waiting.items() if n == 0]
    heapq.heapify(ready)
    ordered = []
    while ready:
        _, item = heapq.heappop(ready)
        ordered += new_bindings[item]
        for reader in readers[item]:
            waiting[reader] -= 1
            if waiting[reader] == 0:
                heapq.heappush(ready, (key[reader], reader))
    if len(ordered) < sum(len(b) for b in new_bindings.values()):
        return block  # not convex after all: left as it was
    return relax.DataflowBlock(ordered, block.span)


def _uses(func: relax.Function) -> dict:
    """How many times each variable of `func` is read."""
    count: dict = {}
    found: list = []
    for binding in var_bindings(func.body):
        _vars_in(binding.value, found)
    _vars_in(func.body.body, found)
    for var in found:
        count[var] = count.get(var, 0) + 1
    return count


@tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.ElementwiseGroups")
def ElementwiseGroups(mod: tvm.IRModule, _ctx) -> tvm.IRModule:
    kinds = _Kinds(mod)
    bb = relax.BlockBuilder(mod)
    numbers = itertools.count(1)
    changed = {}
    for gv, func in mod.functions.items():
        if not isinstance(func, relax.Function) or (func.attrs is not None and func.attrs.get("Primitive")):
            continue
        if not isinstance(func.body, relax.SeqExpr):
            continue
        uses = None
        blocks = []
        for block in func.body.blocks:
            if isinstance(block, relax.DataflowBlock):
                if uses is None:
                    uses = _uses(func)
                block = _rewrite_block(bb, block, kinds, uses, MAX_GROUP_OPS, numbers)
            blocks.append(block)
        if any(not new.same_as(old) for new, old in zip(blocks, func.body.blocks)):
            body = relax.SeqExpr(blocks, func.body.body, func.body.span)
            changed[gv] = relax.Function(func.params, body, func.ret_ty, func.is_pure, func.attrs, func.span)
    if not changed:
        return mod
    out = bb.get()
    for gv, func in changed.items():
        out[gv] = func
    return relax.transform.Normalize()(out)
