"""Importing a program that closes over a large array (weights captured by
a jitted function): time and peak memory of import_stablehlo on the
jax.stages.Lowered, each size in a fresh process.

jaxlib prints such a constant as hex (twice its bytes, held twice while it
is printed), which the core then parses; the import now takes large
constants out of jaxlib's storage instead (a view, no copy), and the one
copy left is TVM's own tensor. Peak: the resident high-water mark (VmHWM),
reset just before the import, minus the resident size then; TVM's modules
are loaded before.

    .venv/bin/python benchmarks/large_constant.py [MiB ...]
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

_MEASURE = """
import re, sys, time
import numpy as np, jax
import stablehlo_tvm, tvm, tvm.relax
from stablehlo_tvm.cpu.fastmath import register
register()
def status(key):
    with open("/proc/self/status") as f:
        return int(re.search(key + r":\\s+(\\d+) kB", f.read()).group(1)) * 1024
mib = int(sys.argv[1])
w = np.random.default_rng(0).standard_normal(mib * 2**18, dtype=np.float32)
lowered = jax.jit(lambda x: w * x).lower(np.float32(2))
time.sleep(2)  # JAX's own transfer of the constant, done in the background
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")
base = status("VmRSS")
start = time.perf_counter()
module = stablehlo_tvm.import_stablehlo(lowered)
seconds = time.perf_counter() - start
print(seconds, status("VmHWM") - base)
"""


def main() -> None:
    rows = []
    for mib in [int(a) for a in sys.argv[1:]] or [256, 1024]:
        out = subprocess.run([sys.executable, "-c", _MEASURE, str(mib)], check=True, capture_output=True, text=True)
        seconds, peak = (float(v) for v in out.stdout.split())
        row = {"constant_mib": mib, "import_s": round(seconds, 2), "peak_above_base_mib": round(peak / 2**20),
               "peak_over_constant": round(peak / (mib * 2**20), 2)}
        rows.append(row)
        print(json.dumps(row), flush=True)
    out = Path("benchmarks/results")
    out.mkdir(parents=True, exist_ok=True)
    (out / "large_constant.json").write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
