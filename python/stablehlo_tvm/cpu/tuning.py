"""Optional tuning: MetaSchedule searches schedules for the fused PrimFuncs
that carry the work, and a database on disk keeps the best of them.

Each tuned workload also gets this package's rule schedule measured the same
way and stored as a record beside MetaSchedule's, so the database's best is
never slower than the untuned build, as far as the measurements can tell.
A workload the database already holds is not tuned again.

Candidates are compiled in this process: the fast transcendentals
(`fastmath.register`) are process-wide op attributes a worker process would
not have, and MetaSchedule's default builder starts a fresh worker that
imports TVM's tensor intrinsics (tens of seconds) for every batch.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import tvm
from tvm import s_tir
from tvm.ir.utils import derived_object
from tvm.s_tir import meta_schedule as ms


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
    """

    trials: int = 200
    database: str | os.PathLike | None = None
    min_flops: float = 1e5
    trials_per_round: int = 16
    progress: bool = True


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
    rules_us: float | None  # the rules' schedule, measured by the tuner's runner
    best_us: float | None  # the database's best after tuning
    tuned_now: bool  # False: the database already held it


def tune(fused: tvm.IRModule, target, tuning: Tuning):
    """Tunes the PrimFuncs of `fused` (a Relax module after FuseTIR) that are
    not in the database yet; returns the database (a MetaSchedule
    JSONDatabase) and a `TunedWorkload` per workload."""
    directory = database_directory(tuning, target)
    directory.mkdir(parents=True, exist_ok=True)
    database = ms.database.JSONDatabase(work_dir=str(directory))
    tasks = [
        task
        for task in ms.relax_integration.extract_tasks(fused, target)
        if _flops(task.dispatched[0]) >= tuning.min_flops
    ]
    pending = [task for task in tasks if not _has_record(database, task)]
    if tuning.progress:
        print(
            f"stablehlo_tvm: {len(tasks)} workloads worth tuning, {len(tasks) - len(pending)} in "
            f"{directory}, tuning {len(pending)} with {tuning.trials} trials",
            flush=True,
        )
    rules_us: dict[str, float | None] = {}
    if pending:
        with tempfile.TemporaryDirectory(prefix="stablehlo_tvm-tune-") as scratch, _meta_schedule_log(tuning.progress):
            builder = InProcessBuilder(scratch)
            runner = ms.runner.LocalRunner(timeout_sec=60)
            contexts, weights = ms.relax_integration.extracted_tasks_to_tune_contexts(pending, str(directory / "logs"))
            started = time.perf_counter()
            ms.tune_tasks(
                tasks=contexts,
                task_weights=weights,
                work_dir=str(directory / "logs"),
                max_trials_global=tuning.trials,
                num_trials_per_iter=tuning.trials_per_round,
                builder=builder,
                runner=runner,
                database=database,
                cost_model="xgb",
            )
            for task in pending:
                rules_us[task.task_name] = _commit_rules_schedule(task, target, database, builder, runner)
            if tuning.progress:
                print(f"stablehlo_tvm: tuned in {time.perf_counter() - started:.0f} s", flush=True)
    report = [
        TunedWorkload(
            task.task_name,
            _flops(task.dispatched[0]),
            rules_us.get(task.task_name),
            _best_us(database, task),
            task.task_name in rules_us,
        )
        for task in tasks
    ]
    if tuning.progress:
        for line in report:
            print(f"  {line.name[:60]:60s} best {line.best_us or float('nan'):10.1f} us"
                  + (f" (rules {line.rules_us:.1f} us)" if line.rules_us else ""), flush=True)
    return database, report


@derived_object
class InProcessBuilder(ms.builder.PyBuilder):
    """Compiles candidates here (see the module docstring), exporting each
    into a directory of its own under `directory` for the runner's process."""

    def __init__(self, directory: str):
        super().__init__()
        self.directory = directory

    def build(self, build_inputs):
        from tvm.support.tar import tar
        from tvm.s_tir.transform import RemoveWeightLayoutRewriteBlock

        results = []
        for item in build_inputs:
            try:
                mod = RemoveWeightLayoutRewriteBlock(skip_tensor_rewrite=True)(item.mod)
                library = tvm.compile(mod, target=item.target)
                # MetaSchedule removes a candidate's directory once measured.
                path = os.path.join(tempfile.mkdtemp(dir=self.directory), "candidate.tar")
                library.export_library(path, fcompile=tar)
                results.append(ms.builder.BuilderResult(path, None))
            except Exception as error:  # noqa: BLE001 - a failed candidate is a result
                results.append(ms.builder.BuilderResult(None, f"{type(error).__name__}: {error}"))
        return results


def _commit_rules_schedule(task, target, database, builder, runner) -> float | None:
    """Measures the rules' schedule of `task` with the tuner's builder and
    runner and stores it as one more record (a replayable trace)."""
    from .schedule import first_rule_schedule

    mod = task.dispatched[0]
    func = mod["main"]
    sch = first_rule_schedule(func, target)
    if sch is None:
        return None
    built = builder.build([ms.builder.BuilderInput(sch.mod, target)])[0]
    if built.error_msg is not None:
        return None
    args_info = ms.arg_info.ArgInfo.from_prim_func(func)
    future = runner.run([ms.runner.RunnerInput(built.artifact_path, device_type="cpu", args_info=args_info)])[0]
    measured = future.result()
    if measured.error_msg is not None or not measured.run_secs:
        return None
    run_secs = [float(s) for s in measured.run_secs]
    database.commit_tuning_record(
        ms.database.TuningRecord(
            sch.trace,
            database.commit_workload(mod),
            run_secs,
            target,
            args_info,
        )
    )
    return 1e6 * sum(run_secs) / len(run_secs)


def _has_record(database, task) -> bool:
    return database.has_workload(task.dispatched[0]) and bool(_top(database, task))


def _top(database, task):
    return database.get_top_k(database.commit_workload(task.dispatched[0]), 1)


def _best_us(database, task) -> float | None:
    top = _top(database, task)
    if not top or not top[0].run_secs:
        return None
    secs = [float(s) for s in top[0].run_secs]
    return 1e6 * sum(secs) / len(secs)


def _flops(mod: tvm.IRModule) -> float:
    try:
        return float(s_tir.analysis.estimate_tir_flops(mod))
    except Exception:  # noqa: BLE001 - unknown loop extents: worth tuning
        return float("inf")


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
