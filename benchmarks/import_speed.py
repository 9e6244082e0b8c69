"""Import speed and memory: import_stablehlo (parse + pipeline + emit)
against jaxlib merely parsing the same text, on a module with ~10k ops and
on one with ~100 MB of constants.

Time: the machine's speed drifts by 2x over seconds, so the ratio is taken
within one process, where both run back to back (in alternating order from
process to process); the median of the paired ratios is reported. Memory:
each side in a fresh process of its own, median of five by time. Peak
memory is the process's resident high-water mark (VmHWM), reset just before
the timed call, minus the resident size at that moment: the text read from
disk already sits in memory, and reading it peaked higher still.

    .venv/bin/python benchmarks/import_speed.py
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

_MAKE = {
    "ops_10k": """
import jax, jax.numpy as jnp, numpy as np
def f(x, w):
    for _ in range(2000):  # 5 ops a step
        x = jnp.tanh(x * w + 1.0) - x
    return x
x = np.ones((8, 8), np.float32)
print(jax.jit(f).lower(x, x).as_text())
""",
    "constants_100mb": """
import jax, jax.numpy as jnp, numpy as np
c = np.random.default_rng(0).standard_normal(25_000_000).astype(np.float32)  # 100 MB
print(jax.jit(lambda x: x + c).lower(np.ones(c.shape, np.float32)).as_text())
""",
}

_MEASURE = """
import re, sys, time
def status(key):
    with open("/proc/self/status") as f:
        return int(re.search(key + r":\\s+(\\d+) kB", f.read()).group(1)) * 1024
def reset_peak():
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    return status("VmRSS")
path, order = sys.argv[1], sys.argv[2].split(",")
text = open(path).read()
# Set-up out of the timers: jaxlib's context, and TVM's Python modules,
# which load once per process (seconds), by a tiny import.
from jax._src.interpreters import mlir
from jax._src.lib.mlir import ir
context = mlir.make_ir_context()
if "import_stablehlo" in order:
    import stablehlo_tvm, tvm
    stablehlo_tvm.import_stablehlo(
        "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\\n"
        "  %0 = stablehlo.add %x, %x : tensor<2xf32>\\n  return %0 : tensor<2xf32>\\n}"
    )
for how in order:
    base = reset_peak()
    start = time.perf_counter()
    if how == "jaxlib":
        with context:
            module = ir.Module.parse(text)
    else:
        module = stablehlo_tvm.import_stablehlo(text)
    seconds = time.perf_counter() - start
    print(how, seconds, status("VmHWM") - base, base)
    del module
"""


def _measure(path: Path, *order: str) -> dict[str, list[float]]:
    out = subprocess.run([sys.executable, "-c", _MEASURE, str(path), ",".join(order)], check=True, capture_output=True, text=True).stdout
    return {line.split()[0]: [float(v) for v in line.split()[1:]] for line in out.splitlines()}


_RUNS = 5
_PAIRS = 9


def main() -> None:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in _MAKE.items():
            path = Path(tmp) / f"{name}.mlir"
            path.write_text(subprocess.run([sys.executable, "-c", make], check=True, capture_output=True, text=True).stdout)
            text = path.read_text()
            row = {"module": name, "text_bytes": len(text), "ops": text.count(" = ")}
            for how in ("jaxlib", "import_stablehlo"):
                measured = sorted(_measure(path, how)[how] for _ in range(_RUNS))
                seconds, peak, base = measured[_RUNS // 2]  # median by time
                row[f"{how}_s"] = seconds
                row[f"{how}_peak_above_base_bytes"] = peak
            ratios = []
            for run in range(_PAIRS):
                order = ("jaxlib", "import_stablehlo")[:: 1 if run % 2 == 0 else -1]
                both = _measure(path, *order)
                ratios.append(both["import_stablehlo"][0] / both["jaxlib"][0])
            row["paired_ratios"] = sorted(ratios)
            row["ratio"] = statistics.median(ratios)
            rows.append(row)
            print(json.dumps(row), flush=True)
    out = Path("benchmarks/results")
    out.mkdir(parents=True, exist_ok=True)
    (out / "import_speed.json").write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
