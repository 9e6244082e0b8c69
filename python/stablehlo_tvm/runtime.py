"""build: compile a Relax module with TVM and call it like a function."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from .errors import CallError, Error, InputError


class Compiled:
    """A compiled entry function: takes array-likes, returns numpy arrays
    (a tuple when the function has several results). Safe to call from
    several threads at once: each runs its own VirtualMachine."""

    def __init__(self, executable, device, entry: str, irmodule, tuning_report=None):
        self.executable = executable
        self.device = device
        self.entry = entry
        self.irmodule = irmodule
        # build(..., tune=...): a stablehlo_tvm.cpu.tuning.TunedWorkload per workload.
        self.tuning_report = tuning_report
        # Loops are recursive Relax functions: each iteration is a native
        # stack frame of the VM, so such modules run on a thread with room.
        attrs = irmodule.attrs
        self._recursive = bool(attrs is not None and attrs.get(LOOPS_ATTRIBUTE, False))
        # name -> (Relax name, complex argument and result positions,
        # parameter (shape, dtype)s), resolved on the first call.
        self._signatures: dict[str, tuple[str, set[int], set[int], list]] = {}
        # A VirtualMachine holds the registers and memory of the call it
        # runs, so each calling thread gets its own over the one executable.
        self._per_thread = threading.local()

    def _thread_functions(self) -> dict[str, tuple[Any, set[int], set[int], list]]:
        """This thread's VM functions by name, with their signatures; the
        thread's VM is made on its first call."""
        local = self._per_thread
        if not hasattr(local, "functions"):
            from tvm import relax

            local.vm = relax.VirtualMachine(self.executable, self.device)
            local.functions = {}
        return local.functions

    def __call__(self, *args: Any):
        return self.call(self.entry, *args)

    def call(self, name: str, *args: Any):
        """Calls another function of the module by name."""
        run, complex_results = self._bind(name, args)
        result = run()
        outputs = [result.numpy()] if hasattr(result, "numpy") else [r.numpy() for r in result]
        if complex_results:
            outputs = [_join_complex(*g) if len(g) == 2 else g[0] for g in complex_pairs(outputs, complex_results)]
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def runner(self, *args: Any, name: str | None = None):
        """A callable that runs the function on ``args`` already on the device
        and leaves its results there: what a benchmark times."""
        return self._bind(name or self.entry, args)[0]

    def _bind(self, name: str, args: tuple):
        """A call of `name` on `args`, ready to run (on a deep stack when the
        module has loops), and the positions of its complex results."""
        function, tensors, complex_results = self._prepare(name, args)
        if self._recursive:
            return (lambda: _LOOP_THREAD.call(function, *tensors)), complex_results
        return (lambda: function(*tensors)), complex_results

    def _prepare(self, name: str, args: tuple) -> tuple[Any, list, set[int]]:
        import tvm

        functions = self._thread_functions()
        if name not in functions:
            if name not in self._signatures:
                self._signatures[name] = self._resolve(name)
            relax_name, complex_args, complex_results, params = self._signatures[name]
            functions[name] = (self._per_thread.vm[relax_name], complex_args, complex_results, params)
        function, complex_args, complex_results, params = functions[name]
        if len(args) + len(complex_args) != len(params):
            raise CallError(f"@{name} takes {len(params) - len(complex_args)} arguments, {len(args)} were given")
        arrays = []
        for i, a in enumerate(args):
            # order="C" copies only when needed and, unlike
            # ascontiguousarray, keeps 0-d arrays 0-d.
            a = np.asarray(a, order="C")
            if a.dtype.name in _SUB_BYTE:
                # 2- and 4-bit integers are held in 8 bits (stablehlo-widen-sub-byte-integers).
                a = a.astype(_SUB_BYTE[a.dtype.name])
            # TVM has no complex dtype: complex values travel as (real, imag).
            parts = [np.asarray(a.real, order="C"), np.asarray(a.imag, order="C")] if i in complex_args else [a]
            for part in parts:
                expected = params[len(arrays)]
                shape, dtype = expected if expected is not None else (part.shape, part.dtype.name)
                if part.dtype.name != dtype or part.ndim != len(shape) or any(
                    d is not None and d != n for d, n in zip(shape, part.shape)
                ):
                    want = "x".join("?" if d is None else str(d) for d in shape)
                    raise CallError(
                        f"@{name} argument {i}: expected {dtype}[{want}], got {a.dtype.name}[{'x'.join(map(str, a.shape))}]"
                    )
                arrays.append(part)
        return function, [tvm.runtime.tensor(a, self.device) for a in arrays], complex_results

    def _resolve(self, name: str) -> tuple[str, set[int], set[int], list]:
        """The name of the Relax function the program calls `name`, how its
        complex values were split, and the (shape, dtype) of each parameter
        (None for a dimension not known)."""
        import tvm

        relax_name = _relax_name(self.irmodule, name)
        if relax_name is None:
            raise CallError(f"the module has no function {name!r}")
        function = self.irmodule[relax_name]
        attrs = function.attrs
        complex_args = {int(i) for i in attrs.get("tvm.complex_arguments", [])} if attrs is not None else set()
        complex_results = {int(i) for i in attrs.get("tvm.complex_results", [])} if attrs is not None else set()
        params = []
        for param in function.params:
            ty = param.ty
            dims = getattr(getattr(ty, "shape", None), "values", None)
            if not isinstance(ty, tvm.relax.TensorType) or dims is None:
                params.append(None)  # not a tensor of known rank: TVM checks it
                continue
            params.append((tuple(int(d) if isinstance(d, tvm.tirx.IntImm) else None for d in dims), str(ty.dtype)))
        return relax_name, complex_args, complex_results, params


def _relax_name(irmodule, name: str) -> str | None:
    """The name of `irmodule`'s Relax function that the program calls `name`
    (TVM renames symbols such as 'f.impl'; the original stays the function's
    global_symbol), or None."""
    from tvm import relax

    for gvar, function in irmodule.functions.items():
        if not isinstance(function, relax.Function):
            continue
        attrs = function.attrs
        if gvar.name_hint == name or (attrs is not None and attrs.get("global_symbol") == name):
            return gvar.name_hint
    return None


LOOPS_ATTRIBUTE = "stablehlo_tvm.has_loops"

_SUB_BYTE = {"int2": np.int8, "int4": np.int8, "uint2": np.uint8, "uint4": np.uint8}

# A recursive call takes ~1.3 KiB of native stack and runs up to 16 loop
# iterations (see emitter._emit_while): 1 GiB is room for about ten million.
# TVM's passes recurse along a program's dataflow too (FuseOps overflowed
# the main thread's 8 MiB on a chain of 42,000 element-wise ops). It is
# reserved address space, not memory, until used.
_DEEP_STACK_BYTES = 1 << 30


class _DeepStackThread:
    """One long-lived thread with a deep stack that runs what it is given in
    turn. TVM's thread pool belongs to the thread that first runs parallel
    code: a new thread each time would start a new pool each time, whose
    workers never exit."""

    def __init__(self, name: str):
        self._name = name
        self._lock = threading.Lock()
        self._executor = None

    def call(self, function, *args):
        if threading.current_thread().name.startswith(self._name):
            return function(*args)  # already there (a call from inside a call)
        with self._lock:
            if self._executor is None:
                from concurrent.futures import ThreadPoolExecutor

                # The executor starts its one thread at the first submit.
                previous = threading.stack_size(_DEEP_STACK_BYTES)
                try:
                    self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=self._name)
                    future = self._executor.submit(function, *args)
                finally:
                    threading.stack_size(previous)
            else:
                future = self._executor.submit(function, *args)
        return future.result()


# Calls of modules with loops.
_LOOP_THREAD = _DeepStackThread("stablehlo_tvm-loop")
# Compilation, one build at a time: TVM also keeps some compilation state
# per process, not per thread (TOPI's tag scope, which legalization enters).
_COMPILE_THREAD = _DeepStackThread("stablehlo_tvm-compile")


def complex_pairs(flat: list, complex_positions) -> list:
    """`flat` (a function's results as the import split them) regrouped by
    original position: [real, imag] where `complex_positions` says the result
    was complex, [item] elsewhere."""
    grouped, k = [], 0
    while k < len(flat):
        n = 2 if len(grouped) in complex_positions else 1
        grouped.append(list(flat[k : k + n]))
        k += n
    return grouped


def _join_complex(real: np.ndarray, imag: np.ndarray) -> np.ndarray:
    value = np.empty(real.shape, np.result_type(real.dtype, np.complex64))
    value.real, value.imag = real, imag
    return value


def build(
    source: Any,
    *example_args: Any,
    target: Any = None,
    entry: str | None = None,
    schedule: bool = True,
    tune: Any = None,
    blas: bool | str = "loops",
) -> Compiled:
    """Compiles ``source`` (a ``tvm.IRModule`` or anything ``import_stablehlo``
    takes) and returns a callable over its entry function.

    ``entry``: the function the callable runs ("main" by default, looked
    up at the first call; a name given here must exist). ``target``
    defaults to this machine's CPU (named, with its core count).
    On CPUs, convolutions become matrix products, TVM fuses operators and
    every fused PrimFunc is scheduled by ``stablehlo_tvm.cpu``'s rules
    (``schedule=False``: TVM's default pipeline, TIR left as legalized).
    ``blas``: which large float32/float64 matrix products run on the
    OpenBLAS numpy ships, in TVM's thread pool: ``"loops"`` those inside
    loops (where it was measured faster; elsewhere TVM's code, which fuses
    a product's epilogue, was), ``True`` all, ``False`` none (a module
    exported to run without this package needs that). See
    docs/performance.md.

    ``tune``: a number of MetaSchedule trials or a ``stablehlo_tvm.Tuning``.
    Workloads not yet in the tuning database (on disk, see ``Tuning``) are
    tuned and stored; every workload it holds gets its best schedule, which
    includes the rules' own, measured alongside."""
    import tvm

    from .api import import_stablehlo
    from .cpu import resolve_target, size_thread_pool
    from .cpu.tuning import as_tuning

    size_thread_pool()
    target = resolve_target(target)
    # The device follows the target; one this machine lacks is an error now,
    # not after importing and compiling.
    device = tvm.runtime.device(target.get_target_device_type(), 0)
    if not device.exist:
        raise Error(f"target {target.kind.name!r} runs on {device}, which this machine does not have")
    irmodule = source if isinstance(source, tvm.IRModule) else import_stablehlo(source, *example_args)
    if not any(isinstance(f, tvm.relax.Function) for f in irmodule.functions.values()):
        raise InputError("the module has no Relax function to build")
    # The default entry is looked up at the first call: a module of several
    # public functions (a conformance program's) may have no "main".
    if entry is not None and _relax_name(irmodule, entry) is None:
        raise InputError(f"the module has no Relax function {entry!r} to build")
    tuning = as_tuning(tune)
    executable, report = _COMPILE_THREAD.call(_compile, irmodule, target, schedule, tuning, blas)
    return Compiled(executable, device, entry or "main", irmodule, report)


def _compile(irmodule, target, schedule: bool, tuning, blas):
    """tvm.compile with this package's CPU pipeline (and tuning): the
    executable and the tuning report."""
    import tvm

    from .cpu import cpu_pipeline, fuse
    from .cpu.tuning import tune as tune_workloads

    to_compile, pipeline, report = irmodule, "default", None
    if target.kind.name == "llvm" and schedule:
        database = None
        if tuning is not None:
            to_compile = fuse(irmodule, target, blas)
            database, report = tune_workloads(to_compile, target, tuning)
        pipeline = cpu_pipeline(target, database, fused=tuning is not None, blas=blas)
    elif tuning is not None:
        raise ValueError(f"tuning needs a CPU target with schedules on, not {target} (schedule={schedule})")
    return tvm.compile(to_compile, target=target, relax_pipeline=pipeline), report
