"""Optional tuning: MetaSchedule searches schedules for the fused PrimFuncs
that carry the work, and a database on disk keeps the best of them.

For each workload, MetaSchedule's best few candidates and this package's rule
schedule are then measured against each other in alternating rounds and the
fastest is stored as the workload's chosen schedule: tuning does not make a
workload slower than the untuned build, as far as measurements can tell. A
workload with a chosen schedule is not tuned again.

Candidates are compiled in one worker process kept for the whole tuning,
started with the fast transcendentals registered (`fastmath.register`, op
attributes of a process): MetaSchedule's default builder starts a fresh
worker that imports TVM's tensor intrinsics (tens of seconds) for every
batch. A worker can be stopped where compiling in this process could not:
MetaSchedule samples some schedules whose compilation does not finish (an
inlined elementwise chain after a matmul grew for over ten minutes); after
`Tuning.build_timeout` seconds such a candidate is a failed one and the
worker starts again.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import tvm
from tvm import s_tir, tirx
from tvm.ir.utils import derived_object
from tvm.s_tir import meta_schedule as ms

from .tir_walk import block_counts


@dataclass(frozen=True)
class Tuning:
    """How `build(..., tune=...)` tunes.

    trials: MetaSchedule's measured candidates, over all workloads not yet in
        the database.
    database: a directory; default ``$XDG_CACHE_HOME/stablehlo_tvm/tuning``
        (``~/.cache/...``), one database per target inside it.
    min_flops: workloads estimated below this many floating-point operations
        keep the rules' schedule untuned (copies, reshapes, small reductions).
    trials_per_round: candidates measured for a workload at a time.
    progress: MetaSchedule's per-round log and a summary on stdout.
    build_timeout: seconds a candidate may take to compile.
    max_blocks: workloads of more blocks keep the rules' schedule untuned:
        long fused element-wise chains (a Lennard-Jones force of 97 blocks),
        which MetaSchedule's search inlines back into the rules' loop and
        whose design space it took minutes to build before the first
        candidate (a jax-md program did not finish tuning in 15 minutes).
    """

    trials: int = 200
    database: str | os.PathLike | None = None
    min_flops: float = 1e5
    trials_per_round: int = 16
    progress: bool = True
    build_timeout: float = 60.0
    max_blocks: int = 32


def as_tuning(tune) -> Tuning | None:
    """`build`'s ``tune`` argument: None, a trial budget or a `Tuning`."""
    if tune is None or tune is False:
        return None
    if isinstance(tune, Tuning):
        return tune
    if isinstance(tune, int) and not isinstance(tune, bool) and tune > 0:
        return Tuning(trials=tune)
    raise TypeError(f"tune must be None, a positive number of trials or a Tuning, not {tune!r}")


def database_directory(tuning: Tuning, target) -> Path:
    """The database for `target` under the tuning's directory: schedules
    measured for one CPU (or one set of target options) are not another's."""
    root = tuning.database
    if root is None:
        cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
        root = Path(cache) / "stablehlo_tvm" / "tuning"
    key = hashlib.sha256(str(target).encode()).hexdigest()[:16]
    return Path(root) / key


@dataclass(frozen=True)
class TunedWorkload:
    name: str
    flops: float
    rules_us: float | None  # the rules' schedule, median of the final comparison
    tuned_us: float | None  # MetaSchedule's best candidates, likewise
    chosen: str  # "rules" or "tuned"; "chosen earlier" when the database held it
    chosen_us: float | None  # the chosen schedule's time as recorded
    tuned_now: bool


# The final comparison: MetaSchedule's best few by its own quick measurements
# (one sample each: the minimum of many is biased low) against the rules'
# schedule, each measured in several alternating rounds.
_FINALISTS = 3
_ROUNDS = 3
_FINAL_EVALUATOR = {"number": 1, "repeat": 5, "min_repeat_ms": 50}


def tune(fused: tvm.IRModule, target, tuning: Tuning):
    """Tunes the PrimFuncs of `fused` (a Relax module after FuseTIR) for
    which no schedule has been chosen yet; returns the database of chosen
    schedules (a MetaSchedule JSONDatabase, one record per workload) and a
    `TunedWorkload` per workload."""
    directory = database_directory(tuning, target)
    (directory / "chosen").mkdir(parents=True, exist_ok=True)
    # Every candidate MetaSchedule measured; the chosen schedules apart.
    candidates = ms.database.JSONDatabase(work_dir=str(directory))
    chosen = ms.database.JSONDatabase(work_dir=str(directory / "chosen"))
    tasks = [
        task
        for task in ms.relax_integration.extract_tasks(fused, target)
        if _flops(task.dispatched[0]) >= tuning.min_flops and _blocks(task.dispatched[0]) <= tuning.max_blocks
    ]
    pending = [task for task in tasks if not _best(chosen, task)]
    if tuning.progress:
        print(
            f"stablehlo_tvm: {len(tasks)} workloads worth tuning, {len(tasks) - len(pending)} in "
            f"{directory}, tuning {len(pending)} with {tuning.trials} trials",
            flush=True,
        )
    report = {}
    if pending:
        with contextlib.ExitStack() as stack:
            scratch = stack.enter_context(tempfile.TemporaryDirectory(prefix="stablehlo_tvm-tune-"))
            stack.enter_context(_meta_schedule_log(tuning.progress))
            search_runner, final_runner = stack.enter_context(_runners())
            builder = stack.enter_context(_worker_builder(scratch, tuning.build_timeout))
            # Candidates from an earlier run that stopped before choosing stand.
            search = [task for task in pending if not _best(candidates, task)]
            # MetaSchedule writes its logs under <work_dir>/logs.
            contexts, weights = ms.relax_integration.extracted_tasks_to_tune_contexts(search, str(directory))
            started = time.perf_counter()
            if search:
                ms.tune_tasks(
                    tasks=contexts,
                    task_weights=weights,
                    work_dir=str(directory),
                    max_trials_global=tuning.trials,
                    num_trials_per_iter=tuning.trials_per_round,
                    builder=builder,
                    runner=search_runner,
                    database=candidates,
                    cost_model="xgb",
                )
            for task in pending:
                report[task.task_name] = _choose(task, target, candidates, chosen, builder, final_runner)
            if tuning.progress:
                print(f"stablehlo_tvm: tuned in {time.perf_counter() - started:.0f} s", flush=True)
    lines = []
    for task in tasks:
        if task.task_name in report:
            lines.append(report[task.task_name])
            continue
        best = _best(chosen, task)[0]
        lines.append(
            TunedWorkload(task.task_name, _flops(task.dispatched[0]), None, None, "chosen earlier", _mean_us(best.run_secs), False)
        )
    if tuning.progress:
        for line in lines:
            measured = (("rules", line.rules_us), ("tuned", line.tuned_us), ("chosen", line.chosen_us))
            times = " ".join(f"{k} {v:.1f} us" for k, v in measured if v is not None)
            print(f"  {line.name[:60]:60s} {line.chosen:14s} {times}", flush=True)
    return chosen, lines


def _choose(task, target, candidates, chosen, builder, runner) -> TunedWorkload:
    """Measures the rules' schedule and MetaSchedule's best few in alternating
    rounds and stores the fastest, by median, in `chosen`."""
    from .schedule import first_rule_schedule

    mod = task.dispatched[0]
    func = mod["main"]
    entries = []  # (kind, trace, schedule's module)
    rules = first_rule_schedule(func, target)
    if rules is not None:
        entries.append(("rules", rules.trace, rules.mod))
    for record in candidates.get_top_k(candidates.commit_workload(mod), _FINALISTS):
        sch = s_tir.Schedule(mod)
        record.trace.apply_to_schedule(sch, remove_postproc=False)
        entries.append(("tuned", record.trace, sch.mod))
    built = builder.build([ms.builder.BuilderInput(m, target) for _, _, m in entries])
    args_info = ms.arg_info.ArgInfo.from_prim_func(func)
    samples: list[list[float]] = [[] for _ in entries]
    runnable = [i for i, b in enumerate(built) if b.error_msg is None]
    for _ in range(_ROUNDS):
        futures = runner.run([ms.runner.RunnerInput(built[i].artifact_path, "cpu", args_info) for i in runnable])
        for i, future in zip(runnable, futures):
            result = future.result()
            if result.error_msg is None and result.run_secs:
                samples[i].extend(float(s) for s in result.run_secs)
    medians = [statistics.median(s) if s else float("inf") for s in samples]
    fastest = {kind: min((m for (k, _, _), m in zip(entries, medians) if k == kind), default=float("inf")) for kind in ("rules", "tuned")}
    winner = min(range(len(entries)), key=lambda i: medians[i]) if entries else None
    if winner is not None and medians[winner] != float("inf"):
        chosen.commit_tuning_record(
            ms.database.TuningRecord(entries[winner][1], chosen.commit_workload(mod), [medians[winner]], target, args_info)
        )
    finite = lambda v: 1e6 * v if v != float("inf") else None  # noqa: E731
    return TunedWorkload(
        task.task_name,
        _flops(mod),
        finite(fastest["rules"]),
        finite(fastest["tuned"]),
        entries[winner][0] if winner is not None else "none",
        finite(medians[winner]) if winner is not None else None,
        True,
    )


def _compile_candidate(mod: tvm.IRModule, target, directory: str) -> str:
    """In the builder's worker: compiles a candidate and exports it into a
    directory of its own under `directory` (MetaSchedule removes that
    directory once the candidate is measured); returns the file."""
    from tvm.s_tir.transform import RemoveWeightLayoutRewriteBlock
    from tvm.support.tar import tar

    mod = RemoveWeightLayoutRewriteBlock(skip_tensor_rewrite=True)(mod)
    library = tvm.compile(mod, target=target)
    path = os.path.join(tempfile.mkdtemp(dir=directory), "candidate.tar")
    library.export_library(path, fcompile=tar)
    return path


def _start_builder_worker() -> None:
    from .fastmath import register

    register()


@contextlib.contextmanager
def _worker_builder(directory: str, timeout: float):
    """A WorkerBuilder and its worker process, for the tuning's duration."""
    from tvm.support.popen_pool import PopenPoolExecutor

    pool = PopenPoolExecutor(max_workers=1, timeout=timeout, initializer=_start_builder_worker)
    try:
        yield WorkerBuilder(directory, pool, timeout)
    finally:
        pool.shutdown(wait=True)


@derived_object
class WorkerBuilder(ms.builder.PyBuilder):
    """Compiles candidates in `pool`'s worker (see the module docstring),
    each within `timeout`, the pool's own, exporting each under `directory`
    for the runner's process; `_worker_builder` makes both."""

    def __init__(self, directory: str, pool, timeout: float):
        super().__init__()
        self.directory = directory
        self.pool = pool
        self.timeout = timeout

    def build(self, build_inputs):
        futures = [self.pool.submit(_compile_candidate, item.mod, item.target, self.directory) for item in build_inputs]
        results = []
        for future in futures:
            try:
                results.append(ms.builder.BuilderResult(future.result(), None))
            except TimeoutError:
                results.append(ms.builder.BuilderResult(None, f"compilation took over {self.timeout:g} s"))
            except Exception as error:  # noqa: BLE001 - a failed candidate is a result
                results.append(ms.builder.BuilderResult(None, f"{type(error).__name__}: {error}"))
        return results


def _best(database, task) -> list:
    mod = task.dispatched[0]
    if not database.has_workload(mod):
        return []
    return database.get_top_k(database.commit_workload(mod), 1)


def _mean_us(run_secs) -> float | None:
    secs = [float(s) for s in run_secs or []]
    return 1e6 * sum(secs) / len(secs) if secs else None


def _blocks(mod: tvm.IRModule) -> int:
    return sum(block_counts(f)[0] for f in mod.functions.values() if isinstance(f, tirx.PrimFunc))


def _flops(mod: tvm.IRModule) -> float:
    try:
        return float(s_tir.analysis.estimate_tir_flops(mod))
    except Exception:  # noqa: BLE001 - unknown loop extents: worth tuning
        return float("inf")


@contextlib.contextmanager
def _runners():
    """MetaSchedule's quick runner and the final comparison's; their worker
    processes end with the tuning, not whenever they are collected (an idle
    TVM worker beside the built program would share its cores)."""
    runners = (
        ms.runner.LocalRunner(timeout_sec=60),
        ms.runner.LocalRunner(timeout_sec=120, evaluator_config=ms.runner.EvaluatorConfig(**_FINAL_EVALUATOR)),
    )
    try:
        yield runners
    finally:
        for runner in runners:
            runner.pool.shutdown(wait=True)


@contextlib.contextmanager
def _meta_schedule_log(progress: bool):
    # MetaSchedule's console handler takes this logger's level; ERROR also
    # silences its complaint about a level above INFO.
    logger = logging.getLogger("tvm.s_tir.meta_schedule")
    level = logger.level
    logger.setLevel(logging.INFO if progress else logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


__all__ = ["Tuning", "TunedWorkload", "as_tuning", "database_directory", "tune"]
