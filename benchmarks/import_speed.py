"""Import speed and memory: import_stablehlo (parse + pipeline + emit)
against jaxlib merely parsing the same text, on a module with ~10k ops and
on one with ~100 MB of constants. Each measurement runs in a fresh process.
Peak memory is the process's resident high-water mark (VmHWM), reset just
before the timed call, minus the resident size at that moment: the text
read from disk already sits in memory, and reading it peaked higher still.

    .venv/bin/python benchmarks/import_speed.py
"""

from __future__ import annotations

import json
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
path, how = sys.argv[1], sys.argv[2]
text = open(path).read()
if how == "jaxlib":
    from jax._src.interpreters import mlir
    from jax._src.lib.mlir import ir
    context = mlir.make_ir_context()
    base = reset_peak()
    start = time.perf_counter()
    with context:
        module = ir.Module.parse(text)
else:
    import stablehlo_tvm, tvm
    # Loading TVM's Python modules happens once per process (seconds): a tiny
    # import first, as jaxlib's context is made before its timer starts.
    stablehlo_tvm.import_stablehlo(
        "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\\n"
        "  %0 = stablehlo.add %x, %x : tensor<2xf32>\\n  return %0 : tensor<2xf32>\\n}"
    )
    base = reset_peak()
    start = time.perf_counter()
    module = stablehlo_tvm.import_stablehlo(text)
seconds = time.perf_counter() - start
print(seconds, status("VmHWM") - base, base)
"""


def main() -> None:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in _MAKE.items():
            path = Path(tmp) / f"{name}.mlir"
            path.write_text(subprocess.run([sys.executable, "-c", make], check=True, capture_output=True, text=True).stdout)
            text = path.read_text()
            row = {"module": name, "text_bytes": len(text), "ops": text.count(" = ")}
            for how in ("jaxlib", "import_stablehlo"):
                runs = []
                for _ in range(3):
                    out = subprocess.run([sys.executable, "-c", _MEASURE, str(path), how], check=True, capture_output=True, text=True).stdout
                    runs.append([float(v) for v in out.split()])
                runs.sort()
                seconds, peak, base = runs[1]  # median by time
                row[f"{how}_s"] = seconds
                row[f"{how}_peak_above_base_bytes"] = peak
            row["ratio"] = row["import_stablehlo_s"] / row["jaxlib_s"]
            rows.append(row)
            print(json.dumps(row), flush=True)
    out = Path("benchmarks/results")
    out.mkdir(parents=True, exist_ok=True)
    (out / "import_speed.json").write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
