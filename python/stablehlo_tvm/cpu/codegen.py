"""Machine code for a module's PrimFuncs on several threads.

`tvm.compile` lowers all of a module's PrimFuncs and hands them to LLVM as
one module, on one thread: that is about half of a typical build (TIR
lowering and LLVM took 1.4 of Flax ResNet's 2.7 s, 2.4 of a diffrax
solver's 3.9 s). TVM's passes and LLVM run without the GIL, so here the
PrimFuncs are dealt into parts of about equal size (the largest first, each
to the lightest part), each part is lowered and compiled on a thread of its
own, and the first part's library imports the others', where the VM finds
their functions. Exported libraries link all parts.

LLVM optimizes PrimFuncs that hold a `While` (loops made kernels, rejection
samplers) at its default, -O3, and the others at -O2, unless the target
sets "opt-level". Measured side by side (same process, alternating calls):
at -O2 the model suite's builds took 10-30% less time (DenseNet 10-12 ->
8.5-8.9 s, a Transformer training step 7.1-7.2 -> 5.6-6.6 s) and straight
kernels ran as fast or faster (MobileNet 0.84x the time, ResNet-50 0.94x),
while a gamma rejection sampler's loop kernel took 1.25-1.4x as long.
"""

from __future__ import annotations

import os
import threading

import tvm

# Threads beyond the machine's cores only add contention, and each part
# starts an LLVM module of its own.
_MAX_WORKERS = 8
_STACK_BYTES = 1 << 30  # as runtime._DEEP_STACK_BYTES


def build(mod: tvm.IRModule, target, relax_pipeline, workers: int | None = None):
    """What `tvm.compile(mod, target, relax_pipeline=...)` returns, with the
    PrimFuncs compiled in parallel on a CPU target."""
    from ..tvm_internals import vm_codegen, vm_link

    with target:
        mod = relax_pipeline(mod)
    builder, primfuncs, ext_libs, params = vm_codegen(mod)
    lib = None
    if primfuncs is not None:
        lib = compile_primfuncs(primfuncs, target, workers)
    return vm_link(builder, target, lib, ext_libs, params)


def compile_primfuncs(primfuncs: tvm.IRModule, target, workers: int | None = None):
    """One runtime library of `primfuncs` (compiled as `tvm.tirx.build`
    does), built in parts on up to `workers` threads; a part holding
    functions of both optimization levels is two modules."""
    from .fastmath import register

    register()
    if workers is None:
        workers = min(_MAX_WORKERS, len(os.sched_getaffinity(0)))
    functions = list(primfuncs.functions_items())
    # Each thread's part, balanced as a whole, is compiled as one module
    # for each of its optimization levels.
    jobs: list[list] = []
    count = 0
    for part in _balanced_parts(functions, max(1, min(workers, len(functions)))):
        jobs.append([])
        for group, group_target in _by_opt_level(part, target):
            jobs[-1].append((count, group, group_target))
            count += 1
    if count == 1:
        return _compiled(primfuncs, jobs[0][0][2])
    context = tvm.transform.PassContext.current()
    libs: list = [None] * count
    errors: list = []

    def compile_part(index: int) -> None:
        try:
            with context:  # the caller's options hold on this thread too
                for number, group, group_target in jobs[index]:
                    libs[number] = _compiled(tvm.IRModule(dict(group), attrs=primfuncs.attrs), group_target, number)
        except BaseException as error:  # noqa: BLE001 - raised by the caller
            errors.append(error)

    # TVM's passes recurse along nested statements: the compile thread's
    # deep stack (see runtime.py), for each of these too.
    previous = threading.stack_size(_STACK_BYTES)
    try:
        threads = [threading.Thread(target=compile_part, args=(k,), name=f"stablehlo_tvm-codegen-{k}") for k in range(1, len(jobs))]
        for thread in threads:
            thread.start()
    finally:
        threading.stack_size(previous)
    compile_part(0)
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    lib = libs[0]
    for other in libs[1:]:
        lib.import_module(other)
    return lib


def _compiled(part: tvm.IRModule, target, index: int = 0):
    """`part`'s runtime library with its machine code generated now, its
    parallel loops launched by the package's launcher (launcher.py).

    TVM's LLVM module optimizes the IR when built but generates machine
    code (its JIT) on the first function lookup: left alone, that happens
    when the VM is made on the first call, for all parts one after the
    other on the calling thread, and was most of a large build's time.
    Installing the launcher is such a lookup."""
    from . import launcher
    from .fastmath import TIR_PIPELINE

    part, installer = launcher.with_installer(part, index)
    lib = tvm.tirx.build(part, target=target, pipeline=TIR_PIPELINE)
    launcher.install(lib, installer)
    return lib


def _by_opt_level(functions: list, target) -> list[tuple[list, object]]:
    """`functions` ((GlobalVar, PrimFunc) pairs) grouped with the target each
    group compiles for: those with a `While` as `target` says (LLVM's
    default, -O3, when it says nothing), the others at -O2 unless `target`
    sets "opt-level"; empty groups left out."""
    from tvm import tirx

    from .tir_walk import has_node

    if target.kind.name != "llvm" or "opt-level" in target.attrs:
        return [(functions, target)]
    holds_loop = [has_node(func.body, tirx.While) for _, func in functions]
    loops = [pair for pair, loop in zip(functions, holds_loop) if loop]
    straight = [pair for pair, loop in zip(functions, holds_loop) if not loop]
    o2 = tvm.target.Target({**target.export(), "opt-level": 2})
    return [(group, group_target) for group, group_target in ((loops, target), (straight, o2)) if group]


def _balanced_parts(functions: list, count: int) -> list[list]:
    """`functions` ((GlobalVar, PrimFunc) pairs) in `count` parts of about
    equal size (statements), largest first into the lightest part."""
    from .tir_walk import statement_count

    if count == 1:
        return [functions]
    sized = sorted(((statement_count(func), k) for k, (_, func) in enumerate(functions)), reverse=True)
    parts: list[list] = [[] for _ in range(count)]
    loads = [0] * count
    for size, k in sized:
        lightest = loads.index(min(loads))
        parts[lightest].append(functions[k])
        loads[lightest] += size
    return [part for part in parts if part]
