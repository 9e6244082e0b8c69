"""build(..., tune=...): MetaSchedule tunes the workloads, the rules' own
schedule is measured beside its candidates, the database on disk is reused
without tuning again, and its best schedules are the ones compiled."""

from __future__ import annotations

import jax
import numpy as np
import pytest
import tvm
import tvm_ffi
from tvm import relax
from tvm.s_tir import meta_schedule as ms

import stablehlo_tvm
from stablehlo_tvm.cpu import fuse, host_target
from stablehlo_tvm.cpu.tuning import as_tuning, database_directory, tune


def _dense_relu(a, b):
    return jax.nn.relu(a @ b) + 1.0


def _args():
    rng = np.random.default_rng(0)
    return rng.standard_normal((64, 128), np.float32), rng.standard_normal((128, 64), np.float32)


@pytest.fixture(scope="module")
def tuned(tmp_path_factory):
    """One small tuning run shared by the tests: (database directory, build)."""
    directory = tmp_path_factory.mktemp("tuning")
    lowered = jax.jit(_dense_relu).lower(*_args())
    compiled = stablehlo_tvm.build(lowered, tune=stablehlo_tvm.Tuning(trials=8, trials_per_round=4, database=directory, progress=False))
    return directory, lowered, compiled


def test_tuned_build_matches_jax(tuned):
    _, _, compiled = tuned
    np.testing.assert_allclose(compiled(*_args()), jax.jit(_dense_relu)(*_args()), rtol=1e-5, atol=1e-5)


def test_fastest_of_rules_and_candidates_is_chosen(tuned):
    directory, lowered, _ = tuned
    target = host_target()
    [workload] = tuned[2].tuning_report
    assert "matmul" in workload.name and workload.tuned_now
    assert workload.rules_us is not None and workload.tuned_us is not None
    assert workload.chosen == ("rules" if workload.rules_us <= workload.tuned_us else "tuned")
    assert workload.chosen_us == min(workload.rules_us, workload.tuned_us)
    # MetaSchedule's candidates (some may fail to build) in one database, the
    # choice alone in another.
    candidates = ms.database.JSONDatabase(work_dir=str(database_directory(stablehlo_tvm.Tuning(database=directory), target)))
    assert 1 <= len(candidates.get_all_tuning_records()) <= 8
    chosen, report = tune(fuse(stablehlo_tvm.import_stablehlo(lowered), target), target, stablehlo_tvm.Tuning(trials=8, database=directory, progress=False))
    [record] = chosen.get_all_tuning_records()
    assert 1e6 * float(record.run_secs[0]) == pytest.approx(min(workload.rules_us, workload.tuned_us))
    assert [(line.tuned_now, line.chosen) for line in report] == [(False, "chosen earlier")]
    assert report[0].chosen_us == pytest.approx(min(workload.rules_us, workload.tuned_us))


def test_second_build_reuses_the_database(tuned, monkeypatch):
    directory, lowered, _ = tuned

    def no_tuning(**_):
        raise AssertionError("a workload in the database was tuned again")

    monkeypatch.setattr(ms, "tune_tasks", no_tuning)
    compiled = stablehlo_tvm.build(lowered, tune=stablehlo_tvm.Tuning(trials=8, database=directory, progress=False))
    np.testing.assert_allclose(compiled(*_args()), jax.jit(_dense_relu)(*_args()), rtol=1e-5, atol=1e-5)


def test_best_record_is_the_schedule_compiled(tuned):
    directory, lowered, _ = tuned
    target = host_target()
    fused = fuse(stablehlo_tvm.import_stablehlo(lowered), target)
    database, _ = tune(fused, target, stablehlo_tvm.Tuning(trials=8, database=directory, progress=False))
    [task] = [t for t in ms.relax_integration.extract_tasks(fused, target) if "matmul" in t.task_name]
    best = database.query_schedule(task.dispatched[0], target, task.task_name)
    with target, database:
        applied = relax.transform.MetaScheduleApplyDatabase()(fused)[task.task_name]
    assert applied.attrs.get("tirx.is_scheduled", False)
    assert tvm_ffi.structural_equal(applied.body, best.mod["main"].body)


def test_tune_argument_is_checked():
    assert as_tuning(None) is None
    assert as_tuning(50).trials == 50
    for bad in (0, -3, True, "many", 2.5):
        with pytest.raises(TypeError, match="tune must be"):
            as_tuning(bad)


def test_a_candidate_that_compiles_too_long_fails_and_the_builder_goes_on(tmp_path):
    # A candidate over the timeout is a failed build, not a hang; within
    # the timeout, candidates build in the one worker, each in a directory
    # of its own.
    from tvm import te

    from stablehlo_tvm.cpu.tuning import _worker_builder

    a = te.placeholder((64,), name="a")
    b = te.compute((64,), lambda i: a[i] + 1.0, name="b")
    mod = tvm.IRModule({"main": te.create_prim_func([a, b])})
    item = ms.builder.BuilderInput(mod, host_target())
    with _worker_builder(str(tmp_path), timeout=0.001) as builder:
        (result,) = builder.build([item])
    assert result.artifact_path is None
    assert "compilation took over 0.001 s" in result.error_msg
    with _worker_builder(str(tmp_path), timeout=120) as builder:
        first, second = builder.build([item, item])
    for built in (first, second):
        assert built.error_msg is None, built.error_msg
        assert built.artifact_path.startswith(str(tmp_path))
    assert first.artifact_path != second.artifact_path


def _long_chain(x):
    # A Lennard-Jones-like force formula: one fused workload of many blocks.
    for k in range(12):
        r = jax.numpy.sqrt(x * x + 1.0 + k)
        x = jax.numpy.where(r > 1.5, x / r, x * r) - 0.5 * x
    return x


def test_workloads_of_many_blocks_keep_the_rules_schedule(tmp_path, monkeypatch):
    # MetaSchedule took minutes building the design space of a 97-block
    # element-wise chain before its first candidate; such workloads are
    # not tuned (`Tuning.max_blocks`), so tuning them runs no search.
    from stablehlo_tvm.cpu import tuning as tuning_module

    def no_search(**_):
        raise AssertionError("a workload of more than max_blocks blocks was tuned")

    monkeypatch.setattr(ms, "tune_tasks", no_search)
    x = np.random.default_rng(1).standard_normal((256, 256)).astype(np.float32)
    target = host_target()
    fused = fuse(stablehlo_tvm.import_stablehlo(jax.jit(_long_chain).lower(x)), target)
    # (min_flops leaves out the chain's smaller part, which the fusion
    # splits off.)
    options = stablehlo_tvm.Tuning(trials=4, database=tmp_path, progress=False, min_flops=2e6)
    [task] = [t for t in ms.relax_integration.extract_tasks(fused, target) if tuning_module._flops(t.dispatched[0]) >= options.min_flops]
    assert tuning_module._blocks(task.dispatched[0]) > options.max_blocks
    _, report = tune(fused, target, options)
    assert report == []
    compiled = stablehlo_tvm.build(jax.jit(_long_chain).lower(x), tune=options)
    np.testing.assert_allclose(compiled(x), jax.jit(_long_chain)(x), rtol=2e-5, atol=1e-5)
