"""LoopsAsKernels: a loop whose functions are only kernel calls runs as one
PrimFunc with a TIR `While`.

The import writes a `stablehlo.while` as a private Relax function that calls
its condition and body functions and then itself (see the emitter), so every
iteration dispatches each fused kernel through the VM and allocates its
outputs: microseconds per kernel, against nanoseconds for the kernel's own
work in the small bodies of solvers, samplers and scans. After fusion and
scheduling, this pass rewrites such a loop into one PrimFunc:

- the carried values live in the PrimFunc's output buffers (copied in from
  its inputs first), the body's intermediates in buffers allocated once;
- the condition's and the body's kernels are inlined in order, each with its
  buffer parameters replaced by the loop function's buffers;
- after the body, results that are not already in place are copied back
  into the carried buffers (through a temporary when one carried value
  moves to another position), and the condition runs again.

The loop's Relax function then is one `call_tir` of that PrimFunc, and a
loop inside another loop's body is inlined like any other kernel, so
nested loops become nested `While`s. Branches become `IfThenElse`s; calls
of packed functions (BLAS, LAPACK, host callbacks) stay calls, made from
the PrimFunc (see relax_to_tir). A loop whose functions do anything else
(symbolic shapes, Relax operators left unlowered) stays a recursive Relax
function, and the pass says which and why. So does a loop whose kernels
each do so much work a call (`_HEAVY_KERNEL_STORES`, or in all:
`_HEAVY_ITERATION_STORES`) that the VM's few
microseconds of dispatch are noise beside it: as one PrimFunc such a body
gained nothing and took LLVM minutes (a spectral solver's 40 FFT kernels:
the same 7 ms a call, 16 s of build instead of 2.6).
"""

from __future__ import annotations

import logging

import tvm
import tvm_ffi
from tvm import relax, tirx
from tvm.relax.expr_functor import PyExprMutator, mutator

from .bindings import bound_values, rewrite_functions, var_bindings
from .relax_to_tir import _CALL_DPS_PACKED, _CALL_TIR, LOOP_ATTRIBUTE, NotAKernel, StatementBuilder, call_kernel, seq, tensor_type
from .sequences import _small
from .sequences import _uses as _readers
from .tir_walk import executed_stores

_log = logging.getLogger(__name__)

# A loop stays in the VM when its kernels write this many elements a call
# on average (~16 us of work each, against ~2 us of dispatch), or this
# many in all per iteration: LLVM's time on one function grows faster than
# its size, and such bodies gain little from being one. A reduction counts
# the elements it writes: an LSTM step's 16 x 64 x 256 products are 4K
# elements, and its loop ran 1.9x faster as one function.
_HEAVY_KERNEL_STORES = 1 << 15
_HEAVY_ITERATION_STORES = 1 << 22
_CALL_TIR_OPS = (tvm.ir.Op.get("relax.call_tir"), tvm.ir.Op.get("relax.call_tir_inplace"))


@tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.LoopsAsKernels")
class LoopsAsKernels:
    """The pass; `outcome`, when given, gets "loops_left": the names of the
    loop functions that still call themselves, and why."""

    def __init__(self, outcome: dict | None = None):
        self.outcome = outcome

    def transform_module(self, mod: tvm.IRModule, _ctx) -> tvm.IRModule:
        mod, left = loops_as_kernels(mod)
        if self.outcome is not None:
            self.outcome["loops_left"] = left
        return mod


def loops_as_kernels(mod: tvm.IRModule) -> tuple[tvm.IRModule, dict]:
    """`mod` with every loop it can as one PrimFunc, and the others' names
    with the reason."""
    loops = {
        gvar: [str(name) for name in func.attrs[LOOP_ATTRIBUTE]]
        for gvar, func in mod.functions.items()
        if isinstance(func, relax.Function) and func.attrs is not None and LOOP_ATTRIBUTE in func.attrs
    }
    # Inner loops first: an outer body calls the inner loop's function,
    # which is a kernel call once the inner loop is one.
    converted: dict = {}  # loop function -> (kernel, constants, scratch types, in-place positions)
    left: dict = {}
    in_place = _fresh_initial_values(mod, loops)
    heavy = {gvar: reason for gvar, names in loops.items() if (reason := _heavy_kernels(mod, names))}
    progress = True
    while progress:
        progress = False
        for gvar, (cond_name, body_name) in loops.items():
            if gvar in converted or gvar in heavy:
                continue
            try:
                builder = _LoopKernel(mod, converted)
                kernel, constants = builder.build(mod[gvar], cond_name, body_name, in_place[gvar])
            except NotAKernel as reason:
                left[gvar] = str(reason)
                continue
            left.pop(gvar, None)
            converted[gvar] = (kernel, constants, builder.scratch_types, in_place[gvar])
            progress = True
    left.update(heavy)
    for gvar, reason in left.items():
        _log.info("loop %s stays in the VM: %s", gvar.name_hint, reason)
    if converted:
        mod = relax.transform.DeadCodeElimination()(_calling_kernels(mod, converted))
    return mod, {gvar.name_hint: reason for gvar, reason in left.items()}


def _fresh_initial_values(mod: tvm.IRModule, loops) -> dict:
    """Per loop function, the positions of the carried values that every
    call starts from a tensor made for it alone: computed by a kernel or
    packed call in the caller and read nowhere else. The loop's kernel
    carries such a value in that tensor (call_tir_inplace) instead of
    copying it in: a scan's stacked outputs start as zeros the size of the
    whole sequence (a two-layer LSTM's backward pass: 25 of 385 KB each),
    and the copy was one more pass over all of them at every call. Small
    values are copied as before: a loop whose values are all small stays a
    call_tir, which SequencesAsKernels joins with its neighbours."""
    fresh: dict = {gvar: None for gvar in loops}
    for caller, func in mod.functions_items():
        if not isinstance(func, relax.Function):
            continue
        bindings = var_bindings(func.body)
        calls = [
            b for b in bindings
            if isinstance(b.value, relax.Call) and isinstance(b.value.op, tvm.ir.GlobalVar) and b.value.op in fresh and not b.value.op.same_as(caller)
        ]
        if not calls:
            continue
        made = {b.var: b.value for b in bindings}
        readers = _readers(func)
        for binding in calls:
            call = binding.value
            params = mod[call.op].params
            positions = {
                k
                for k, arg in enumerate(call.args)
                if isinstance(arg, relax.Var)
                and readers.get(arg) == {binding.var}
                and sum(a.same_as(arg) for a in call.args) == 1
                and _makes_a_tensor(mod, made.get(arg))
                and not _small(arg.ty)
                and k < len(params)
                and tvm_ffi.structural_equal(arg.ty, params[k].ty)
            }
            known = fresh[call.op]
            fresh[call.op] = positions if known is None else known & positions
    return {gvar: sorted(found or ()) for gvar, found in fresh.items()}


def _makes_a_tensor(mod: tvm.IRModule, value) -> bool:
    """Whether `value` is a kernel or packed call, whose output is a tensor
    of its own: not a tuple item or another variable, nor a kernel that
    only reshapes (RewriteDataflowReshape makes it a view of its operand)."""
    if not isinstance(value, relax.Call) or not isinstance(value.ty, relax.TensorType):
        return False
    if value.op.same_as(_CALL_DPS_PACKED):
        return True
    if not value.op.same_as(_CALL_TIR):
        return False
    kernel = mod[value.args[0]]
    return isinstance(kernel, tirx.PrimFunc) and not relax.analysis.has_reshape_pattern(kernel)


def _heavy_kernels(mod: tvm.IRModule, names) -> str | None:
    """Why the kernels the functions `names` call are too heavy to gain from
    one PrimFunc, or None."""
    work = []
    defined = {gvar.name_hint for gvar in mod.get_global_vars()}
    for name in names:
        func = mod[name] if name in defined else None
        if not isinstance(func, relax.Function):
            return None
        for value in bound_values(func.body):
            if isinstance(value, relax.Call) and value.op in _CALL_TIR_OPS:
                kernel = mod[value.args[0]]
                if isinstance(kernel, tirx.PrimFunc):
                    work.append(executed_stores(kernel))
    total = sum(work)
    if work and (total >= _HEAVY_KERNEL_STORES * len(work) or total >= _HEAVY_ITERATION_STORES):
        return f"its {len(work)} kernels write {total} elements an iteration, {total // len(work)} a call on average: dispatching them is a small part of the work"
    return None


def _calling_kernels(mod: tvm.IRModule, converted: dict) -> tvm.IRModule:
    """`mod` with the loops' kernels added and every call of a loop a call
    of its kernel (a call of a Relax function would check and allocate each
    carried value once more)."""
    rewriter = _CallsOfLoops(mod)
    rewriter.calls = {
        loop: (rewriter.builder_.add_func(kernel, f"{loop.name_hint}_kernel"), constants, [p.ty for p in mod[loop].params], scratch, in_place)
        for loop, (kernel, constants, scratch, in_place) in converted.items()
    }
    return rewrite_functions(rewriter, mod, lambda gvar: gvar not in converted)


@mutator
class _CallsOfLoops(PyExprMutator):
    def visit_call_(self, call):
        call = super().visit_call_(call)
        if isinstance(call.op, tvm.ir.GlobalVar) and call.op in self.calls:
            kernel, constants, types, scratch, in_place = self.calls[call.op]
            indices = [k if k in in_place else -1 for k in range(len(types))] + [-1] * len(scratch)
            kernel_call = call_kernel(kernel, list(call.args) + constants, types + scratch, indices)
            if not scratch:
                return kernel_call
            # The carried values, without the scratch buffers.
            results = self.builder_.emit(kernel_call)
            return relax.Tuple([relax.TupleGetItem(results, k) for k in range(len(types))])
        return call


def _call_to(func: relax.Function, callee: str):
    """The first call of the function named `callee` in `func`'s body."""
    for value in bound_values(func.body):
        if isinstance(value, relax.Call) and isinstance(value.op, tvm.ir.GlobalVar) and value.op.name_hint == callee:
            return value
    raise NotAKernel(f"no call of {callee}")


class _LoopKernel(StatementBuilder):
    """Builds the PrimFunc of one loop."""

    def build(self, loop: relax.Function, cond_name: str, body_name: str, in_place=()):
        """The loop's PrimFunc and its constants; the carried values at
        positions `in_place` live in their initial values' buffers."""
        inputs = [self.buffer(param.ty, f"init{i}") for i, param in enumerate(loop.params)]
        carried = [inputs[i] if i in in_place else self.buffer(param.ty, f"carried{i}") for i, param in enumerate(loop.params)]
        position = {param: i for i, param in enumerate(loop.params)}

        def arguments(call):
            # The condition and body functions may have lost parameters they
            # do not use; the loop's first call of each says which remain.
            if not all(isinstance(arg, relax.Var) and arg in position for arg in call.args):
                raise NotAKernel("the condition or body is called with values other than the carried ones")
            return [carried[position[arg]] for arg in call.args]

        cond_args = arguments(_call_to(loop, cond_name))
        body_args = arguments(_call_to(loop, body_name))
        cond_func, body_func = self.function(cond_name), self.function(body_name)
        cond_stmts, cond_value = self.run(cond_func, cond_args)
        if not isinstance(cond_value, tirx.Buffer):
            raise NotAKernel("the condition is not one tensor")
        # The condition runs again after every iteration (inlined anew: a
        # statement may not appear twice) and leaves its value where the
        # While reads it.
        cond_again, again_value = self.run(cond_func, cond_args)
        if not again_value.same_as(cond_value):
            cond_again.append(self.copy(again_value, cond_value))
        body_stmts, results = self.run(body_func, body_args)
        if not isinstance(results, list) or len(results) != len(carried):
            raise NotAKernel("the body does not yield every carried value")
        copy_in = [self.copy(source, dest) for source, dest in zip(inputs, carried) if not source.same_as(dest)]
        iteration = body_stmts + self.copy_back(results, carried) + cond_again
        loop_stmt = tirx.While(tirx.BufferLoad(cond_value, []), seq(iteration))
        passed, stored = self.stored_constants()
        params = inputs + [buffer for _, buffer in passed] + [c for c, i in zip(carried, inputs) if not c.same_as(i)]
        func, scratch = self.primfunc(params, stored + copy_in + cond_stmts + [loop_stmt])
        self.scratch_types = [tensor_type(b) for b in scratch]
        return func, [constant for constant, _ in passed]

    def copy_back(self, results: list, carried: list) -> list:
        """Statements that leave `results` in `carried`: a carried buffer
        that moves to another position goes through a temporary first, as
        its old value is still to be read."""
        stmts: list = []
        staged = list(results)
        for k, result in enumerate(results):
            if any(result.same_as(c) for j, c in enumerate(carried) if j != k):
                staged[k] = self.temporary_like(result)
                stmts.append(self.copy(result, staged[k]))
        for result, dest in zip(staged, carried):
            if not result.same_as(dest):
                stmts.append(self.copy(result, dest))
        return stmts

