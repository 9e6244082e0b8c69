"""Times every workload with jax.jit and with the TVM build of its StableHLO,
in the same process on the same inputs, checks that they agree, and writes
JSON plus a markdown table.

    .venv/bin/python benchmarks/run.py                  # untuned default build
    .venv/bin/python benchmarks/run.py --tune 200       # and tuned, side by side
    .venv/bin/python benchmarks/run.py --only matmul_512 --repeat 30

Times are medians of per-call times over `--repeat` rounds; in each round
XLA and TVM run back to back, so a noisy neighbour slows both alike. TVM is
built twice: by default (large products inside loops on OpenBLAS) and with
`blas=True` (every large product on OpenBLAS). Before each timed block the
process sleeps briefly, so that the other side's idle workers (TVM's and
XLA's pools spin a while after work) have parked and do not take its
cores.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import jax
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import stablehlo_tvm  # noqa: E402
from workloads import workloads  # noqa: E402


# Longer than TVM's and XLA's workers spin after their last task.
_SETTLE_S = 0.05


def _calls_per_round(run, budget_s: float = 0.02) -> int:
    start = time.perf_counter()
    run()
    once = max(time.perf_counter() - start, 1e-6)
    return max(1, min(1000, int(budget_s / once)))


def _per_call(run, n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        run()
    return (time.perf_counter() - start) / n


def measure(workload, repeat: int, tuning=None) -> dict:
    """XLA, the untuned TVM build and (with `tuning`) the tuned one, timed in
    the same rounds."""
    jitted = jax.jit(workload.function)
    device_args = [jax.device_put(a) for a in workload.args]

    def run_xla():
        jax.block_until_ready(jitted(*device_args))

    start = time.perf_counter()
    irmodule = stablehlo_tvm.import_stablehlo(jitted.lower(*workload.args))
    row = {"workload": workload.name, "import_s": time.perf_counter() - start, "agree": True, "max_abs_error": 0.0}
    want = jax.tree_util.tree_leaves(jitted(*workload.args))
    runs = {"xla": run_xla}
    # "own": every large product on the BLAS (build(..., blas=True)); the
    # default puts only those inside loops there.
    builds = {"tvm": {}, "own": {"blas": True}}
    if tuning is not None:
        builds["tuned"] = {"tune": tuning}
    for name, options in builds.items():
        start = time.perf_counter()
        compiled = stablehlo_tvm.build(irmodule, **options)
        row[{"tvm": "build_s", "own": "own_build_s", "tuned": "tune_s"}[name]] = time.perf_counter() - start
        got = compiled(*workload.args)
        got = list(got) if isinstance(got, tuple) else [got]
        error = max(float(np.max(np.abs(np.asarray(w) - g))) for w, g in zip(want, got))
        row["max_abs_error"] = max(row["max_abs_error"], error)
        row["agree"] &= all(np.allclose(g, np.asarray(w), rtol=workload.rtol, atol=workload.atol) for w, g in zip(want, got))
        runs[name] = compiled.runner(*workload.args)

    for run in runs.values():  # warm up
        for _ in range(3):
            run()
    calls = {name: _calls_per_round(run) for name, run in runs.items()}
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            time.sleep(_SETTLE_S)
            times[name].append(_per_call(run, calls[name]))
    for name in runs:
        row[f"{name}_ms"] = statistics.median(times[name]) * 1e3
        if workload.flops:
            row[f"{name}_gflops"] = workload.flops / row[f"{name}_ms"] / 1e6
    row["ratio"] = row["xla_ms"] / row["tvm_ms"]
    row["own_ratio"] = row["xla_ms"] / row["own_ms"]
    if "tuned" in runs:
        row["tuned_ratio"] = row["xla_ms"] / row["tuned_ms"]
    return row


def _geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(x) for x in values) / len(values))


def markdown(rows: list[dict], title: str) -> str:
    tuned = all("tuned_ms" in r for r in rows)
    extra = " tuned ms | XLA/tuned | tuning s |" if tuned else ""
    lines = [
        f"### {title}",
        "",
        "| workload | XLA ms | TVM ms | XLA/TVM | all-BLAS ms | XLA/all-BLAS |" + extra
        + " XLA GFLOPS | TVM GFLOPS | build s | agree (max abs err) |",
        "|---|---:|---:|---:|---:|---:|" + ("---:|---:|---:|" if tuned else "") + "---:|---:|---:|---|",
    ]
    for r in rows:
        gf = lambda k: f"{r[k]:.1f}" if k in r else "–"  # noqa: E731
        columns = f" {r['tuned_ms']:.3f} | {r['tuned_ratio']:.2f} | {r['tune_s']:.0f} |" if tuned else ""
        lines.append(
            f"| {r['workload']} | {r['xla_ms']:.3f} | {r['tvm_ms']:.3f} | {r['ratio']:.2f} | {r['own_ms']:.3f} | "
            f"{r['own_ratio']:.2f} |{columns} {gf('xla_gflops')} | "
            f"{gf('tvm_gflops')} | {r['build_s']:.1f} | {'yes' if r['agree'] else 'NO'} ({r['max_abs_error']:.1e}) |"
        )
    ratios = [r["ratio"] for r in rows]
    lowest = min(rows, key=lambda r: r["ratio"])
    own = min(rows, key=lambda r: r["own_ratio"])
    lines += [
        "",
        f"geomean XLA/TVM: **{_geomean(ratios):.2f}**, lowest {lowest['ratio']:.2f} ({lowest['workload']})",
        f"geomean XLA/all-BLAS (every large product on OpenBLAS, `blas=True`): **{_geomean([r['own_ratio'] for r in rows]):.2f}**, "
        f"lowest {own['own_ratio']:.2f} ({own['workload']})",
    ]
    if tuned:
        tuned_ratios = [r["tuned_ratio"] for r in rows]
        lowest = min(rows, key=lambda r: r["tuned_ratio"])
        lines += [
            f"geomean XLA/tuned: **{_geomean(tuned_ratios):.2f}**, lowest {lowest['tuned_ratio']:.2f} ({lowest['workload']}); "
            f"tuning {sum(r['tune_s'] for r in rows) / 60:.0f} min in all"
        ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="*", help="workload names (default: all)")
    parser.add_argument("--repeat", type=int, default=15, help="timing rounds (median)")
    parser.add_argument("--out", default="benchmarks/results", help="directory for JSON and markdown")
    parser.add_argument("--tune", type=int, metavar="TRIALS", help="also build tuned, with this many MetaSchedule trials a workload")
    parser.add_argument("--database", help="tuning database directory (default: stablehlo_tvm's cache)")
    args = parser.parse_args()
    tuning = None
    if args.tune:
        tuning = stablehlo_tvm.Tuning(trials=args.tune, database=args.database)

    rows = []
    for workload in workloads():
        if args.only and workload.name not in args.only:
            continue
        row = measure(workload, args.repeat, tuning)
        rows.append(row)
        tuned = f"  tuned {row['tuned_ms']:8.3f} ms ratio {row['tuned_ratio']:5.2f}" if tuning else ""
        print(
            f"{row['workload']:28s} XLA {row['xla_ms']:8.3f} ms  TVM {row['tvm_ms']:8.3f} ms  "
            f"ratio {row['ratio']:5.2f}  all-BLAS {row['own_ms']:8.3f} ms ratio {row['own_ratio']:5.2f}{tuned}  "
            f"build {row['build_s']:5.1f} s  agree {row['agree']}",
            flush=True,
        )
    mode = "untuned default build" if tuning is None else f"untuned and tuned ({args.tune} trials a workload)"
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    stem = "untuned" if tuning is None else "tuned"
    machine = {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(), "jax": jax.__version__}
    (out / f"{stem}.json").write_text(json.dumps({"mode": mode, "machine": machine, "rows": rows}, indent=2) + "\n")
    table = markdown(rows, f"{mode}, {machine['cores']} cores, median of {args.repeat} rounds")
    (out / f"{stem}.md").write_text(table)
    print(table)
    if not all(r["agree"] for r in rows):
        raise SystemExit("some workloads disagree with jax.jit")


if __name__ == "__main__":
    main()
