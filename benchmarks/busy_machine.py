"""Model-suite cases on a machine other work keeps busy: the package's
parallel-loop launcher against TVM's, XLA timed in the same processes.

    .venv/bin/python benchmarks/busy_machine.py                 # one busy process
    .venv/bin/python benchmarks/busy_machine.py --busy 0        # the machine as it is
    .venv/bin/python benchmarks/busy_machine.py --only flax_vit int8_mlp --rounds 3

Each case runs as benchmarks/models.py runs it (a child process, XLA and TVM
timed back to back), `--busy` processes spinning on the CPU meanwhile, once
with each launcher per round (STABLEHLO_TVM_PARALLEL_LAUNCH=tvm keeps TVM's),
the launchers alternating. Reported: medians over the rounds of XLA's time
and TVM's with each launcher, and the ratios XLA / TVM. Writes
benchmarks/results/busy_machine.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
sys.path.insert(0, str(HERE))
from models import _child  # noqa: E402 - the suite's own child runner

# Cases whose kernels run in parallel, large and small, and loops.
DEFAULT_CASES = [
    "flax_vit", "flax_nnx_cnn", "keras_cnn", "equinox_mlp", "int8_mlp",
    "scipy_gp_regression", "flax_lstm_scan", "jax_md_lennard_jones",
]
LAUNCHERS = {"package": {}, "tvm": {"STABLEHLO_TVM_PARALLEL_LAUNCH": "tvm"}}


def _busy(count: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def _run(case: str, repeat: int, busy: int, environment: dict) -> dict:
    spinning = _busy(busy)
    try:
        return _child(case, repeat, 900, environment)
    finally:
        for process in spinning:
            process.kill()
            process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="*", help=f"cases (default: {' '.join(DEFAULT_CASES)})")
    parser.add_argument("--busy", type=int, default=1, help="processes spinning meanwhile")
    parser.add_argument("--rounds", type=int, default=2, help="runs per case and launcher")
    parser.add_argument("--repeat", type=int, default=9, help="timed rounds in each run")
    options = parser.parse_args()
    lines = [
        f"{options.busy} busy process(es), medians of {options.rounds} runs per launcher",
        "",
        "| case | XLA ms | TVM ms, package launcher | TVM ms, TVM's launcher | ratio, package | ratio, TVM's | agree |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for case in options.only or DEFAULT_CASES:
        runs: dict[str, list[dict]] = {name: [] for name in LAUNCHERS}
        for _ in range(options.rounds):
            for name, environment in LAUNCHERS.items():
                row = _run(case, options.repeat, options.busy, environment)
                print(json.dumps({"launcher": name, **row}), flush=True)
                runs[name].append(row)
        ok = {name: [r for r in rows if "error" not in r and "skipped" not in r] for name, rows in runs.items()}
        if not ok["package"] or not ok["tvm"]:
            failed = next(r for rows in runs.values() for r in rows if "error" in r or "skipped" in r)
            lines.append(f"| {case} | | | | | | {failed.get('error') or failed.get('skipped')} |")
            continue
        xla = statistics.median(r["xla_ms"] for rows in ok.values() for r in rows)
        package = statistics.median(r["tvm_ms"] for r in ok["package"])
        tvm = statistics.median(r["tvm_ms"] for r in ok["tvm"])
        agree = all(r["agree"] for rows in ok.values() for r in rows)
        lines.append(
            f"| {case} | {xla:.3f} | {package:.3f} | {tvm:.3f} | {xla / package:.2f} | {xla / tvm:.2f} | {'yes' if agree else '**no**'} |"
        )
    markdown = "\n".join(lines)
    print(markdown)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "busy_machine.md").write_text(markdown + "\n")


if __name__ == "__main__":
    main()
