"""Times every workload with jax.jit and with the TVM build of its StableHLO,
in the same process on the same inputs, checks that they agree, and writes
JSON plus a markdown table.

    .venv/bin/python benchmarks/run.py                  # untuned default build
    .venv/bin/python benchmarks/run.py --only matmul_512 --repeat 30

Times are medians of per-call times over `--repeat` rounds; in each round
XLA and TVM run back to back, so a noisy neighbour slows both alike.
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


def measure(workload, repeat: int) -> dict:
    jitted = jax.jit(workload.function)
    device_args = [jax.device_put(a) for a in workload.args]

    def run_xla():
        jax.block_until_ready(jitted(*device_args))

    start = time.perf_counter()
    irmodule = stablehlo_tvm.import_stablehlo(jitted.lower(*workload.args))
    imported = time.perf_counter()
    compiled = stablehlo_tvm.build(irmodule)
    built = time.perf_counter()

    want = jax.tree_util.tree_leaves(jitted(*workload.args))
    got = compiled(*workload.args)
    got = list(got) if isinstance(got, tuple) else [got]
    error = max(float(np.max(np.abs(np.asarray(w) - g))) for w, g in zip(want, got))
    agree = all(np.allclose(g, np.asarray(w), rtol=workload.rtol, atol=workload.atol) for w, g in zip(want, got))

    run_tvm = compiled.runner(*workload.args)
    for run in (run_xla, run_tvm):  # warm up
        for _ in range(3):
            run()
    n_xla, n_tvm = _calls_per_round(run_xla), _calls_per_round(run_tvm)
    xla, tvm = [], []
    for _ in range(repeat):
        xla.append(_per_call(run_xla, n_xla))
        tvm.append(_per_call(run_tvm, n_tvm))
    xla_ms, tvm_ms = statistics.median(xla) * 1e3, statistics.median(tvm) * 1e3
    row = {
        "workload": workload.name,
        "xla_ms": xla_ms,
        "tvm_ms": tvm_ms,
        "ratio": xla_ms / tvm_ms,
        "import_s": imported - start,
        "build_s": built - imported,
        "max_abs_error": error,
        "agree": agree,
    }
    if workload.flops:
        row["xla_gflops"] = workload.flops / xla_ms / 1e6
        row["tvm_gflops"] = workload.flops / tvm_ms / 1e6
    return row


def markdown(rows: list[dict], title: str) -> str:
    lines = [
        f"### {title}",
        "",
        "| workload | XLA ms | TVM ms | XLA/TVM | XLA GFLOPS | TVM GFLOPS | build s | agree (max abs err) |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        gf = lambda k: f"{r[k]:.1f}" if k in r else "–"  # noqa: E731
        lines.append(
            f"| {r['workload']} | {r['xla_ms']:.3f} | {r['tvm_ms']:.3f} | {r['ratio']:.2f} | {gf('xla_gflops')} | "
            f"{gf('tvm_gflops')} | {r['build_s']:.1f} | {'yes' if r['agree'] else 'NO'} ({r['max_abs_error']:.1e}) |"
        )
    ratios = [r["ratio"] for r in rows]
    geomean = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
    lines += ["", f"geomean XLA/TVM: **{geomean:.2f}**, lowest {min(ratios):.2f} ({min(rows, key=lambda r: r['ratio'])['workload']})"]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="*", help="workload names (default: all)")
    parser.add_argument("--repeat", type=int, default=15, help="timing rounds (median)")
    parser.add_argument("--out", default="benchmarks/results", help="directory for JSON and markdown")
    args = parser.parse_args()

    rows = []
    for workload in workloads():
        if args.only and workload.name not in args.only:
            continue
        row = measure(workload, args.repeat)
        rows.append(row)
        print(
            f"{row['workload']:28s} XLA {row['xla_ms']:8.3f} ms  TVM {row['tvm_ms']:8.3f} ms  "
            f"ratio {row['ratio']:5.2f}  build {row['build_s']:5.1f} s  agree {row['agree']}",
            flush=True,
        )
    mode = "untuned default build"
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    stem = "untuned"
    machine = {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(), "jax": jax.__version__}
    (out / f"{stem}.json").write_text(json.dumps({"mode": mode, "machine": machine, "rows": rows}, indent=2) + "\n")
    table = markdown(rows, f"{mode}, {machine['cores']} cores, median of {args.repeat} rounds")
    (out / f"{stem}.md").write_text(table)
    print(table)
    if not all(r["agree"] for r in rows):
        raise SystemExit("some workloads disagree with jax.jit")


if __name__ == "__main__":
    main()
