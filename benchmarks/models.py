"""The model suite: real JAX programs (benchmarks/model_cases.py) run through
stablehlo_tvm.jit and jax.jit in the same process, checked against each other
and timed interleaved.

    bash scripts/setup.sh models                # the libraries the cases use
    .venv/bin/python benchmarks/models.py       # all cases; writes the table
    .venv/bin/python benchmarks/models.py --only flax_resnet scipy_cg
    .venv/bin/python benchmarks/models.py --tune 64   # tuned builds

Each case runs in a child process with a time limit, so one that fails or
hangs is a row of the table, not the end of the run. Per case: JAX's
lowering time, the import time, the TVM build time, XLA's compile time, and the
median per-call time of each over `--repeat` rounds, XLA and TVM back to
back in every round. ratio = XLA time / TVM time (above 1: TVM is faster).
"VM ms" is the bare VirtualMachine call on argument tensors made once, in
the same rounds. What the callable adds to it (argument checks and
conversion, results as numpy) is the call overhead, measured apart: short
batches of callable and VM calls back to back, the median of each pair's
difference (the machine's drift between rounds, larger than a small call's
overhead, cancels within a pair). "pytree us" is the part of it jax.jit's
calls spend as well: flattening the arguments and building the results'
tree, which for a Flax NNX or Equinox module runs Python per node.
Writes benchmarks/results/models.{json,md} and, unless --only is given, the
table into docs/performance.md between its model-suite markers.

`--tune N` builds with ``tune=N`` (N MetaSchedule trials per program, over
its workloads not yet in the tuning database; stablehlo_tvm.Tuning): "build
s" is then the tuning and the build together. Its tables are
models_tuned.{json,md} and the tuned-suite markers of docs/performance.md.
A tuning database of its own (benchmarks/results/tuning-db, not committed)
keeps a run's schedules apart from the user's.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
DOCS = HERE.parent / "docs" / "performance.md"
BEGIN, END = "<!-- model-suite:begin -->", "<!-- model-suite:end -->"
TUNED_BEGIN, TUNED_END = "<!-- tuned-suite:begin -->", "<!-- tuned-suite:end -->"
TUNING_DB = RESULTS / "tuning-db"

# Longer than TVM's and XLA's idle workers spin after their last task.
_SETTLE_S = 0.05
# Pairs of back-to-back batches (callable, bare VM) the call overhead is
# the median of.
_OVERHEAD_PAIRS = 15


def _per_call(run, n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        run()
    return (time.perf_counter() - start) / n


def _agree(got, want, rtol: float) -> tuple[bool, float]:
    """Leaf by leaf within rtol of the largest magnitude of XLA's leaf; the
    largest such relative error."""
    import jax
    import numpy as np

    got_leaves, want_leaves = jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)
    if jax.tree_util.tree_structure(got) != jax.tree_util.tree_structure(want):
        return False, math.inf
    worst = 0.0
    def values(leaf):
        # Typed PRNG keys (an NNX model's RNG state) compare by their data.
        if jax.dtypes.issubdtype(getattr(leaf, "dtype", np.float64), jax.dtypes.prng_key):
            leaf = jax.random.key_data(leaf)
        return np.asarray(leaf, np.float64)

    for g, w in zip(got_leaves, want_leaves):
        g, w = values(g), values(w)
        if g.shape != w.shape:
            return False, math.inf
        scale = max(float(np.max(np.abs(w), initial=0.0)), 1e-30)
        error = float(np.max(np.abs(g - w), initial=0.0)) / scale
        if not np.array_equal(np.isnan(g), np.isnan(w)):
            error = math.inf
        worst = max(worst, error)
    return worst <= rtol, worst


def run_case(name: str, repeat: int, tune: int = 0) -> dict:
    """Measures one case in this process."""
    import jax
    import numpy as np

    sys.path.insert(0, str(HERE))
    import stablehlo_tvm
    from model_cases import CASES

    case = next(c for c in CASES if c.name == name)
    row = {"case": name, "family": case.family, "loops": case.loops}
    # Loading TVM and the package's first-use set-up are not this case's.
    stablehlo_tvm.jit(lambda x: x + 1)(np.float32(1))
    fun, args = case.make()

    start = time.perf_counter()
    lowered = jax.jit(fun).lower(*args)
    row["lower_s"] = time.perf_counter() - start
    start = time.perf_counter()
    xla = lowered.compile()
    row["xla_compile_s"] = time.perf_counter() - start

    start = time.perf_counter()
    stablehlo_tvm.import_stablehlo(lowered)
    row["import_s"] = time.perf_counter() - start
    options = {}
    if tune:
        options["tune"] = stablehlo_tvm.Tuning(trials=tune, database=TUNING_DB, progress=False)
    fast = stablehlo_tvm.jit(fun, **options)
    staged = fast.lower(*args)  # the same lowering and import, staged
    start = time.perf_counter()
    compiled_call = staged.compile()  # later calls of this signature run this build
    row["build_s"] = time.perf_counter() - start
    got = fast(*args)
    want = xla(*args)
    row["agree"], row["max_rel_error"] = _agree(got, want, case.rtol)

    # Timed as users call it: jax.jit's own dispatch (a Compiled object's
    # call is a slower path on some programs: 47 against 16 us a call of a
    # diffrax solve).
    jitted = jax.jit(fun)
    jax.block_until_ready(jitted(*args))

    def run_xla():
        jax.block_until_ready(jitted(*args))

    def run_tvm():
        fast(*args)

    run_vm = _bare_vm(compiled_call, args)

    once = max(min(_per_call(run_xla, 1), _per_call(run_tvm, 1)), 1e-6)
    n = max(1, min(1000, int(0.05 / once)))
    times = {"xla": [], "tvm": [], "vm": []}
    for _ in range(repeat):
        for side, run in (("xla", run_xla), ("tvm", run_tvm), ("vm", run_vm)):
            time.sleep(_SETTLE_S)
            times[side].append(_per_call(run, n))
    row["xla_ms"] = statistics.median(times["xla"]) * 1e3
    row["tvm_ms"] = statistics.median(times["tvm"]) * 1e3
    row["vm_ms"] = statistics.median(times["vm"]) * 1e3
    row["ratio"] = row["xla_ms"] / row["tvm_ms"]
    pairs = []
    m = max(1, n // 5)
    for k in range(_OVERHEAD_PAIRS):
        first, second = (run_tvm, run_vm) if k % 2 == 0 else (run_vm, run_tvm)
        a, b = _per_call(first, m), _per_call(second, m)
        tvm, vm = (a, b) if k % 2 == 0 else (b, a)
        pairs.append((tvm - vm, tvm / vm - 1))
    row["overhead_us"] = statistics.median(us for us, _ in pairs) * 1e6
    row["overhead"] = statistics.median(f for _, f in pairs)
    # The part of it that jax.jit's calls do as well: flattening the
    # arguments and building the results' tree (Python functions for a
    # module's or an optimizer state's nodes).
    out_leaves, out_tree = jax.tree_util.tree_flatten(got)

    def pytree():
        jax.tree_util.tree_flatten(args)
        out_tree.unflatten(out_leaves)

    row["pytree_us"] = statistics.median(_per_call(pytree, m) for _ in range(_OVERHEAD_PAIRS)) * 1e6
    return row


def _bare_vm(compiled_call, args):
    """The VM function of the build called on its argument tensors, made
    once and left on the device, as are its results."""
    import jax

    from stablehlo_tvm.jit import _arguments

    entry = compiled_call._entry
    leaves = _arguments(entry, jax.tree_util.tree_leaves(args))
    return entry.compiled.runner(*leaves)


def _child(name: str, repeat: int, timeout: float, environment: dict | None = None, tune: int = 0) -> dict:
    """One case's row, run in a child process (with `environment` added to
    this process's)."""
    command = [sys.executable, __file__, "--child", name, "--repeat", str(repeat), "--tune", str(tune)]
    env = dict(os.environ, **environment) if environment else None
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"case": name, "error": f"did not finish in {timeout:.0f} s"}
    for line in reversed(done.stdout.splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    tail = (done.stderr or done.stdout).strip().splitlines()
    return {"case": name, "error": tail[-1] if tail else f"exit status {done.returncode}"}


def _geomean(values) -> float:
    values = [v for v in values if v > 0 and math.isfinite(v)]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else float("nan")


def _number(value, spec: str) -> str:
    return "" if value is None else format(value, spec)


def table(rows: list[dict]) -> str:
    lines = [
        "| case | family | XLA ms | TVM ms | ratio | VM ms | call overhead us | pytree us | lower s | import s | build s | XLA compile s | agrees (max rel. error) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        if "skipped" in r:
            lines.append(f"| {r['case']} | | | | | | | | | | | | skipped: {r['skipped']} |")
            continue
        if "error" in r:
            lines.append(f"| {r['case']} | {r.get('family', '')} | | | | | | | | | | | fails: {r['error'][:160]} |")
            continue
        agrees = "yes" if r["agree"] else "**no**"
        lines.append(
            f"| {r['case']} | {r['family']} | {r['xla_ms']:.3f} | {r['tvm_ms']:.3f} | {r['ratio']:.2f} | {r['vm_ms']:.3f} | {r['overhead_us']:.0f} | "
            f"{_number(r.get('pytree_us'), '.0f')} | "
            f"{r['lower_s']:.1f} | {r['import_s']:.1f} | {r['build_s']:.1f} | {r['xla_compile_s']:.1f} | "
            f"{agrees} ({r['max_rel_error']:.1e}) |"
        )
    ok = [r for r in rows if "error" not in r and "skipped" not in r]
    loops = [r for r in ok if r["loops"]]
    build_ratio = _geomean([r["build_s"] / max(r["xla_compile_s"], 1e-3) for r in ok])
    # What a call adds to the bare VM call: a fraction, and microseconds.
    over = [(r["overhead"], r["overhead_us"], r["case"]) for r in ok]
    thin = sum(f <= 0.10 or us <= 20 for f, us, _ in over)
    # Beyond the pytree work jax.jit's calls do too.
    own = [(r["overhead_us"] - r.get("pytree_us", 0.0), r["vm_ms"] * 1e3) for r in ok]
    thin_own = sum(us <= 20 or us <= 0.10 * vm_us for us, vm_us in own)
    worst = max(over, default=(math.nan, math.nan, ""))
    lines += [
        "",
        f"{len(ok)} of {len(rows) - sum('skipped' in r for r in rows)} cases ran; {sum(r['agree'] for r in ok)} agree with XLA. "
        f"Geomean ratio {_geomean([r['ratio'] for r in ok]):.2f} (loop-heavy cases: "
        f"{_geomean([r['ratio'] for r in loops]):.2f}), lowest {min((r['ratio'] for r in ok), default=float('nan')):.2f}; "
        f"geomean build time {build_ratio:.1f}x XLA's compile time, longest import + build "
        f"{max((r['import_s'] + r['build_s'] for r in ok), default=float('nan')):.0f} s.",
        "",
        f"Call overhead over the bare VM call: median {statistics.median(f for f, _, _ in over) * 100 if over else math.nan:.0f}%; "
        f"{thin} of {len(over)} calls within 10% or 20 us of it; the most {worst[0] * 100:.0f}% ({worst[1]:.0f} us, {worst[2]}). "
        f"Less the pytree work jax.jit's calls do as well (flattening the arguments, building the results' tree: "
        f"\"pytree us\"), {thin_own} of {len(own)} within 10% or 20 us.",
    ]
    return "\n".join(lines)


def _write_docs(markdown: str, begin: str = BEGIN, end: str = END) -> None:
    text = DOCS.read_text()
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        DOCS.write_text(f"{head}{begin}\n{markdown}\n{end}{tail}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="*", help="cases to run (default: all)")
    parser.add_argument("--repeat", type=int, default=15, help="timed rounds per case")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per case")
    parser.add_argument("--tune", type=int, default=0, metavar="TRIALS", help="build with tune=TRIALS (default: untuned)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        try:
            row = run_case(options.child, options.repeat, options.tune)
        except ImportError as error:
            row = {"case": options.child, "skipped": f"{error.name or error} is not installed"}
        print(json.dumps(row), flush=True)
        return

    sys.path.insert(0, str(HERE))
    from model_cases import CASES

    names = options.only or [c.name for c in CASES]
    rows = []
    for name in names:
        row = _child(name, options.repeat, options.timeout, tune=options.tune)
        rows.append(row)
        print(json.dumps(row), flush=True)
    markdown = table(rows)
    print(markdown)
    RESULTS.mkdir(exist_ok=True)
    suffix = ("_tuned" if options.tune else "") + ("" if not options.only else "_partial")
    (RESULTS / f"models{suffix}.json").write_text(json.dumps(rows, indent=1) + "\n")
    (RESULTS / f"models{suffix}.md").write_text(markdown + "\n")
    if not options.only:
        _write_docs(markdown, *((TUNED_BEGIN, TUNED_END) if options.tune else (BEGIN, END)))


if __name__ == "__main__":
    os.environ.setdefault("KERAS_BACKEND", "jax")
    main()
