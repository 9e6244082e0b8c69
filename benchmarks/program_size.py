"""Import and build time against program size: a JAX program of N
element-wise steps (x = tanh(x) + 0.5 x, then x = sin(x) - x, in turn; 3.5
StableHLO ops a step), imported and built with the default CPU pipeline,
beside XLA's compile of the same program. Each size in a fresh process;
the result is checked against jax.jit.

    .venv/bin/python benchmarks/program_size.py [steps ...]
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

_MEASURE = """
import json, sys, time
import jax, jax.numpy as jnp, numpy as np
import stablehlo_tvm

def program(x):
    for i in range(int(sys.argv[1])):
        x = jnp.tanh(x) + x * 0.5 if i % 2 else jnp.sin(x) - x
    return x

x = np.linspace(-1, 1, 64, dtype=np.float32)
lowered = jax.jit(program).lower(x)
ops = lowered.as_text().count(" = stablehlo.")
start = time.perf_counter()
module = stablehlo_tvm.import_stablehlo(lowered)
imported = time.perf_counter()
compiled = stablehlo_tvm.build(module)
built = time.perf_counter()
xla = lowered.compile()
xla_compiled = time.perf_counter()
error = float(np.max(np.abs(compiled(x) - np.asarray(xla(x)))))
print(json.dumps({"ops": ops, "import_s": round(imported - start, 2), "build_s": round(built - imported, 2),
                  "xla_compile_s": round(xla_compiled - built, 2), "max_abs_error": error}))
"""


def main() -> None:
    rows = []
    for steps in [int(a) for a in sys.argv[1:]] or [500, 2000, 6000, 14500]:
        out = subprocess.run([sys.executable, "-c", _MEASURE, str(steps)], check=True, capture_output=True, text=True)
        row = {"steps": steps, **json.loads(out.stdout.strip().splitlines()[-1])}
        rows.append(row)
        print(json.dumps(row), flush=True)
    out = Path("benchmarks/results")
    out.mkdir(parents=True, exist_ok=True)
    (out / "program_size.json").write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
