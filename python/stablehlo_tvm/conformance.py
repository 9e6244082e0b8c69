"""The conformance runner: StableHLO's self-checking programs through
import_stablehlo and TVM, judged with the corpus's check semantics.

    python -m stablehlo_tvm.conformance ../shared/conformance/stablehlo/testdata \\
        --jobs 2 --out results.jsonl --report docs/conformance.md

Each program (a file, or each `// -----` piece of one) is imported with its
checks exposed as results (stablehlo-expose-checks), compiled with TVM, fed
the values of its @inputs() as real arguments, and every check is judged:
expect_eq exactly, expect_close within 3 ULP, expect_almost_eq within 1e-3.
Programs run in worker processes, so a crash or a hang is a result
("crash", "timeout"), not the end of the run. One JSON line per file:
{"file", "status", "ops", "dtypes", "message", "seconds"}, status one of
pass, fail, error, unsupported, crash, timeout.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import sys
import time
from typing import Any

import numpy as np

from . import _core, workers
from ._core import ATTRIBUTES
from .corpus import iter_mlir_files, split_programs
from .dtypes import numpy_dtype
from .shapes import entry_function, is_dynamic

# The import, with the program's checks exposed as results first.
PIPELINE = f"builtin.module(stablehlo-expose-checks,{_core.IMPORT_PASSES})"
# From best to worst; "unchecked": imported, built and ran, but checks nothing.
STATUS_ORDER = ["unchecked", "pass", "fail", "error", "unsupported", "timeout", "crash"]
_NOT_OPS = ("func.", "builtin.", "check.", "stablehlo.return", "stablehlo.custom_call")

# ---------------------------------------------------------------------------
# Check semantics
# ---------------------------------------------------------------------------


def _float_parts(x: np.ndarray) -> list[np.ndarray]:
    if np.iscomplexobj(x):
        return [x.real, x.imag]
    return [x]


def ulp_distance(a: np.ndarray, e: np.ndarray) -> np.ndarray:
    """ULPs between floats of one type: the magnitudes' distance on one side
    of zero, their sum across it (the +-0 pair is 0 apart)."""
    width = a.dtype.itemsize * 8
    unsigned = np.dtype(f"uint{width}")
    mask = np.uint64((1 << (width - 1)) - 1)
    ba = np.asarray(a, order="C").view(unsigned).astype(np.uint64)
    be = np.asarray(e, order="C").view(unsigned).astype(np.uint64)
    ma, me = ba & mask, be & mask
    same_side = (ba > mask) == (be > mask)
    return np.where(same_side, np.maximum(ma, me) - np.minimum(ma, me), ma + me)


def _bytes(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, order="C").reshape(-1).view(np.uint8)


def _is_float(x: np.ndarray) -> bool:
    return x.dtype.kind in "fc" or x.dtype.name == "bfloat16"


def judge(check: dict[str, Any], actual: np.ndarray, expected: np.ndarray) -> tuple[bool, str]:
    """Whether `actual` passes `check` ({kind, tolerance, min/max_ulp_difference},
    as stablehlo-expose-checks states it) against `expected`."""
    kind = check["kind"]
    if actual.shape != expected.shape:
        return False, f"shape {actual.shape} != {expected.shape}"
    if expected.size == 0:
        return True, "empty"
    if not _is_float(expected):
        bad = int(np.count_nonzero(actual != expected))
        return bad == 0, f"{bad} elements differ"
    total_bad = 0
    worst = 0.0
    for a, e in zip(_float_parts(actual), _float_parts(expected)):
        a64, e64 = a.astype(np.float64), e.astype(np.float64)
        both_nan = np.isnan(a64) & np.isnan(e64)
        if kind == "expect_eq":
            bad = ~(a64 == e64)
        elif kind in ("expect_almost_eq", "eq"):
            with np.errstate(invalid="ignore"):
                bad = ~(np.abs(a64 - e64) <= check["tolerance"]) & ~both_nan
            bad &= a64 != e64  # an infinity matches itself (inf - inf is NaN)
        elif kind == "expect_close":
            finite = np.isfinite(a64) & np.isfinite(e64)
            dist = ulp_distance(a, e).astype(np.float64)
            in_range = (dist >= check["min_ulp_difference"]) & (dist <= check["max_ulp_difference"])
            bad = np.where(finite, ~in_range, ~((_bytes(a) == _bytes(e)).reshape(a.shape + (-1,)).all(-1)))
            bad &= ~both_nan
            if finite.any():
                worst = max(worst, float(np.max(np.where(finite, dist, 0))))
        else:
            return False, f"unknown check {kind}"
        total_bad += int(np.count_nonzero(bad))
    message = f"{total_bad} of {expected.size} elements off" + (f" (max {worst:.0f} ulp)" if kind == "expect_close" else "")
    return total_bad == 0, message


# ---------------------------------------------------------------------------
# One program
# ---------------------------------------------------------------------------


def _dtype_name(type_info) -> str:
    shape, dtype, text = type_info
    if dtype:
        return dtype
    match = re.search(r"x?([a-z]+[0-9]*(?:<[a-z0-9]+>)?|complex<\w+>)>$", text)
    return match.group(1) if match else text


def _result_dtypes(function: dict) -> list[str]:
    """The dtypes of a function's results as the program wrote them: a
    complex result split into (real, imag) by the import counts once."""
    from .runtime import complex_pairs

    complex_results = set(function["attributes"].get(ATTRIBUTES["complex_results"], []))
    names = []
    for parts in complex_pairs(function["results"], complex_results):
        name = _dtype_name(parts[0])
        names.append({"float32": "complex64", "float64": "complex128"}.get(name, "complex") if len(parts) == 2 else name)
    return names


def _first_line(error: Exception) -> str:
    text = str(error)
    return f"{type(error).__name__}: {text.splitlines()[0][:300] if text else ''}"


def _import_failure(error: Exception) -> tuple[str, str]:
    """(status, message) of an import that raised `error`: "unsupported"
    when the legality check listed ops it could not import."""
    lines = str(error).splitlines()
    unsupported = next((l for l in lines if "could not be imported" in l), None)
    if unsupported:
        return "unsupported", "unsupported: " + unsupported.split("unsupported: ", 1)[-1][:300]
    return "error", (lines[1] if len(lines) > 1 else lines[0])[:400]


def run_program(text: str, name: str) -> dict[str, Any]:
    """Imports, builds and runs one self-checking program; returns its result."""
    from .emitter import emit_module
    from .errors import MLIRError
    from .runtime import build

    result: dict[str, Any] = {"status": "error", "ops": [], "dtypes": [], "message": ""}
    try:
        module = _core.Module.parse(text, name)
    except MLIRError as e:
        result["message"] = "parse: " + str(e).splitlines()[1 if len(str(e).splitlines()) > 1 else 0][:300]
        return result
    result["ops"] = sorted(n for n in module.op_names() if not n.startswith(_NOT_OPS))
    entry = entry_function(module.functions(ops=False))
    if entry is not None and is_dynamic(entry) and "check." not in text:
        return _run_dynamic(text, entry, result)
    try:
        module.run_pipeline(PIPELINE)
    except MLIRError as e:
        result["status"], result["message"] = _import_failure(e)
        return result
    functions = {f["name"]: f for f in module.functions(ops=False)}
    entries = [f for f in functions.values() if "stablehlo_tvm.checks" in f["attributes"]]
    try:
        compiled = build(emit_module(list(functions.values()), module))
    except Exception as e:  # TVM raises its own error types
        result["message"] = _first_line(e)
        return result
    if not any(f["attributes"]["stablehlo_tvm.checks"] for f in entries):
        result["status"] = "unchecked"
        result["message"] = "no checks"
        return result
    dtypes: set[str] = set()
    messages = []
    ok = True
    for entry in entries:
        checks = entry["attributes"]["stablehlo_tvm.checks"]
        dtypes.update(_result_dtypes(entry)[-2 * len(checks) :][1::2])
        try:
            inputs = compiled.call("inputs") if entry["arguments"] and "inputs" in functions else ()
            if not isinstance(inputs, tuple):
                inputs = (inputs,)
            outputs = compiled.call(entry["name"], *inputs)
        except Exception as e:
            result["dtypes"] = sorted(dtypes)
            result["message"] = _first_line(e)
            return result
        if not isinstance(outputs, tuple):
            outputs = (outputs,)
        pairs = outputs[len(outputs) - 2 * len(checks) :]
        for i, check in enumerate(checks):
            passed, message = judge(check, np.asarray(pairs[2 * i]), np.asarray(pairs[2 * i + 1]))
            ok &= passed
            if not passed:
                messages.append(f"@{entry['name']} check {i} ({check['kind']}): {message}")
    result["dtypes"] = sorted(dtypes)
    result["status"] = "pass" if ok else "fail"
    result["message"] = "; ".join(messages)[:400]
    return result


# Shape-polymorphic programs (no expected values) run at these sizes, every
# dynamic dimension and dimension argument set to one of them, from one build.
DYNAMIC_SIZES = (2, 3)


def _dynamic_inputs(entry: dict, size: int, seed: int) -> list[np.ndarray]:
    """Seeded random arguments of `entry` with every dynamic dimension `size`;
    its leading scalar integer arguments (the dimension arguments of JAX's
    older exports) are `size` itself."""
    rng = np.random.default_rng(seed)
    args = []
    leading = True
    for _, (shape, dtype, _text) in entry["arguments"]:
        shape = tuple(size if n == -1 else n for n in shape)
        dt = numpy_dtype(dtype)
        if leading and not shape and dt.kind in "iu":
            args.append(np.array(size, dt))
            continue
        leading = False
        values = rng.standard_normal(shape) * 3
        if dt.kind == "b":
            args.append(values > 0)
        elif dt.kind == "c":
            args.append((values + 1j * rng.standard_normal(shape) * 3).astype(dt))
        elif dt.kind == "u":
            args.append(np.abs(values).astype(dt))
        else:
            args.append(values.astype(dt))
    return args


def _run_dynamic(text: str, entry: dict, result: dict[str, Any]) -> dict[str, Any]:
    """A program with dynamic shapes and no checks: one build, run at each of
    DYNAMIC_SIZES and compared with XLA on the same arguments (integers
    exactly, floats within 3 ULP or 1e-3)."""
    from . import xla
    from .errors import EmitError, MLIRError
    from .runtime import build

    close = {"kind": "expect_close", "min_ulp_difference": 0, "max_ulp_difference": 3}
    almost = {"kind": "expect_almost_eq", "tolerance": 1e-3}
    # One compiled module for every size where the shapes stay symbolic;
    # otherwise (the dimension arguments of older exports, ops without a
    # symbolic form) a build specialized per size.
    try:
        compiled = build(text, shapes="symbolic")
        result["build"] = "symbolic"
    except (MLIRError, EmitError):
        try:
            compiled = build(text)
            result["build"] = "specializing"
        except Exception as e:
            result["message"] = _first_line(e)
            return result
    except Exception as e:
        result["message"] = _first_line(e)
        return result
    messages = []
    dtypes: set[str] = set()
    for seed, size in enumerate(DYNAMIC_SIZES):
        args = _dynamic_inputs(entry, size, seed)
        try:
            expected = xla.run(text, args)
        except Exception as e:
            result["status"] = "unchecked"
            result["message"] = f"XLA: {_first_line(e)}"
            return result
        try:
            actual = compiled(*args)
        except MLIRError as e:
            result["status"], message = _import_failure(e)
            result["message"] = f"size {size}: {message}"
            return result
        except Exception as e:
            result["message"] = f"size {size}: {_first_line(e)}"
            return result
        actual = list(actual) if isinstance(actual, tuple) else [actual]
        if len(actual) != len(expected):
            messages.append(f"size {size}: {len(actual)} results, XLA gives {len(expected)}")
            continue
        for i, (a, e) in enumerate(zip(actual, expected)):
            a = np.asarray(a)
            dtypes.add(str(e.dtype))
            if a.dtype != e.dtype:
                messages.append(f"size {size}: result {i} is {a.dtype}, XLA gives {e.dtype}")
                continue
            ok, message = judge(close, a, e)
            if not ok and _is_float(e):
                ok, message = judge(almost, a, e)
            if not ok:
                messages.append(f"size {size}: result {i}: {message}")
    result["dtypes"] = sorted(dtypes)
    result["status"] = "fail" if messages else "pass"
    result["message"] = "; ".join(messages)[:400]
    return result


def _ops_in_text(path: str) -> list[str]:
    """The op names a file mentions, for results no worker could report."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return []
    names = set(re.findall(r"\b(?:stablehlo|chlo)\.[a-z_0-9]+(?=[\s(])", text))
    return sorted(n for n in names if not n.startswith(_NOT_OPS))


def run_file(path: str) -> dict[str, Any]:
    start = time.perf_counter()
    with open(path, encoding="utf-8") as f:
        text = f.read()
    programs = split_programs(text)
    results = [run_program(p, path) for p in programs]
    worst = max(results, key=lambda r: STATUS_ORDER.index(r["status"]))
    summary = {
        "file": path,
        "status": worst["status"],
        "ops": sorted({op for r in results for op in r["ops"]}),
        "dtypes": sorted({d for r in results for d in r["dtypes"]}),
        "message": worst["message"],
        "seconds": round(time.perf_counter() - start, 3),
    }
    # How a dynamic program was built: "symbolic" only if every one was.
    builds = {r["build"] for r in results if "build" in r}
    if builds:
        summary["build"] = "symbolic" if builds == {"symbolic"} else "specializing"
    return summary


# ---------------------------------------------------------------------------
# Workers: one process per slot, restarted after a crash or a timeout.
# ---------------------------------------------------------------------------


def _run_file_or_error(path: str) -> dict[str, Any]:
    try:
        return run_file(path)
    except Exception as e:  # a bug in the runner itself is an error result
        return {"file": path, "status": "error", "ops": [], "dtypes": [], "message": f"runner: {e}"[:400], "seconds": 0}


def _worker_main() -> int:
    import jax  # noqa: F401  (loaded before TVM, as in user programs)

    return workers.serve(_run_file_or_error)


def _run_in(worker: "workers.Worker", path: str, timeout: float) -> dict[str, Any]:
    """`path`'s result from `worker`; a crash or a timeout is a result too."""
    start = time.perf_counter()
    reply = worker.request(path, timeout)
    if not isinstance(reply, workers.Failure):
        return reply
    message = f"over {timeout:.0f} s" if reply.kind == "timeout" else f"worker exited with {reply.exit_code}"
    return {"file": path, "status": reply.kind, "ops": _ops_in_text(path), "dtypes": [], "message": message, "seconds": round(time.perf_counter() - start, 3)}


def run_files(paths: list[str], jobs: int = 1, timeout: float = 300.0, progress: bool = False) -> list[dict[str, Any]]:
    import queue
    import threading

    tasks: queue.Queue[tuple[int, str]] = queue.Queue()
    for i, path in enumerate(paths):
        tasks.put((i, path))
    results: list[dict[str, Any] | None] = [None] * len(paths)
    done = [0]
    lock = threading.Lock()

    def slot() -> None:
        worker = workers.Worker("stablehlo_tvm.conformance")
        while True:
            try:
                i, path = tasks.get_nowait()
            except queue.Empty:
                break
            if not worker.alive():
                worker = workers.Worker("stablehlo_tvm.conformance")
            results[i] = _run_in(worker, path, timeout)
            with lock:
                done[0] += 1
                if progress:
                    print(f"[{done[0]}/{len(paths)}] {results[i]['status']:11s} {path}", file=sys.stderr, flush=True)
        worker.close(timeout=30)

    threads = [threading.Thread(target=slot) for _ in range(max(1, jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [r for r in results if r is not None]


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------


# Ops outside the first breadth milestone (elementwise, data movement,
# reductions, dot_general, convolution, CHLO math): programs using any of them,
# dynamic shapes or quantized types are reported apart.
LATER_OPS = {
    "stablehlo.gather", "stablehlo.dynamic_gather", "stablehlo.scatter", "stablehlo.sort",
    "chlo.top_k", "stablehlo.reduce_window", "stablehlo.select_and_scatter", "stablehlo.map",
    "stablehlo.while", "stablehlo.if", "stablehlo.case", "func.call", "stablehlo.fft",
    "stablehlo.triangular_solve", "stablehlo.cholesky", "stablehlo.rng", "stablehlo.rng_bit_generator",
    "stablehlo.batch_norm_inference", "stablehlo.batch_norm_training", "stablehlo.batch_norm_grad",
}


def quantized(result: dict[str, Any]) -> bool:
    path = result["file"].replace(os.sep, "/")
    return "/quantized/" in path or any(op.startswith("stablehlo.uniform_") for op in result["ops"])


def single_device_static(result: dict[str, Any]) -> bool:
    """Static shapes, no quantized types (the whole single-device opset)."""
    return "/dynamic/" not in result["file"].replace(os.sep, "/") and not quantized(result)


def in_first_scope(result: dict[str, Any]) -> bool:
    path = result["file"].replace(os.sep, "/")
    if "/dynamic/" in path or "/quantized/" in path:
        return False
    return not any(op in LATER_OPS or op.startswith("stablehlo.dynamic_") for op in result["ops"])


def _rate(counter: collections.Counter) -> str:
    total = sum(counter.values())
    return f"{counter['pass']}/{total} ({100.0 * counter['pass'] / total:.1f}%)" if total else "-"


def _subset(results: list[dict[str, Any]], what: str) -> list[str]:
    """Report lines: the pass rate of `results`, then those not passing."""
    c = collections.Counter(r["status"] for r in results)
    lines = ["", f"Of the {len(results)} of those {what}: {_rate(c)}."]
    missed = sorted((r for r in results if r["status"] != "pass"), key=lambda r: r["file"])
    if missed:
        lines += ["", "Those not passing:", "", "| file | status | reason |", "|---|---|---|"]
        lines += [f"| {_corpus_key(r['file'])} | {r['status']} | {r['message'].replace('|', '/')} |" for r in missed]
    return lines


# docs/conformance.md ends with the differential tester's report
# (python -m stablehlo_tvm.difftest --doc): regenerating the corpus part
# keeps it.
DIFFERENTIAL_MARKER = "<!-- differential test report: python -m stablehlo_tvm.difftest --doc -->"


def _kept_section(text: str) -> str:
    at = text.find(DIFFERENTIAL_MARKER)
    return "\n" + text[at:] if at >= 0 else ""


def write_report(results: list[dict[str, Any]], path: str, xla: dict[str, str] | None = None, title: str = "") -> None:
    try:
        with open(path, encoding="utf-8") as f:
            path_text = f.read()
    except OSError:
        path_text = ""
    overall = collections.Counter(r["status"] for r in results)
    by_op: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    by_dtype: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for r in results:
        for op in r["ops"]:
            by_op[op][r["status"]] += 1
        for dtype in r["dtypes"] or ["?"]:
            by_dtype[dtype][r["status"]] += 1
    lines = [
        "# Conformance",
        "",
        "Generated by `python -m stablehlo_tvm.conformance` (do not edit by hand).",
        "",
        title,
        "",
        f"Files: {len(results)}; pass rate {_rate(overall)}.",
        "",
        "| status | files |",
        "|---|---|",
    ]
    lines += [f"| {s} | {overall[s]} |" for s in STATUS_ORDER if overall[s]]
    if xla:
        xla_pass = [r for r in results if xla.get(_corpus_key(r["file"])) == "pass"]
        c = collections.Counter(r["status"] for r in xla_pass)
        lines += ["", f"Of the {len(xla_pass)} files XLA:CPU passes: {_rate(c)}."]
        scoped = [r for r in xla_pass if in_first_scope(r)]
        c = collections.Counter(r["status"] for r in scoped)
        lines += [
            "",
            f"Of the {len(scoped)} of those made only of elementwise, data movement, reduce, "
            "dot_general, convolution and CHLO math ops (static shapes, no quantized types): "
            f"{_rate(c)}.",
        ]
        missed = sorted((r for r in scoped if r["status"] != "pass"), key=lambda r: r["file"])
        if missed:
            lines += ["", "Those not passing:", "", "| file | status | reason |", "|---|---|---|"]
            lines += [
                f"| {os.path.basename(r['file'])} | {r['status']} | {r['message'].replace('|', '/')} |" for r in missed
            ]
        lines += _subset([r for r in xla_pass if single_device_static(r)], "with static shapes and no quantized types (every op)")
        lines += _subset([r for r in xla_pass if quantized(r)], "with quantized types")
    dynamic = [r for r in results if "/dynamic/" in r["file"].replace(os.sep, "/")]
    if dynamic:
        judged = [r for r in dynamic if r["status"] != "unchecked"]
        lines += _subset(
            judged,
            f"shape-polymorphic files XLA:CPU runs (of {len(dynamic)}; one build each, run with every dynamic "
            f"size {' and '.join(map(str, DYNAMIC_SIZES))} and compared with XLA on the same arguments)",
        )
        symbolic = [r for r in judged if r.get("build") == "symbolic"]
        lines += [
            "",
            f"Of those, {len(symbolic)} compiled once for every size (symbolic shapes, "
            f"{sum(r['status'] == 'pass' for r in symbolic)} passing); the others, whose shapes pass through "
            "ops without a symbolic form, specialized per size.",
        ]
    lines += ["", "## Per op (files containing the op)", "", "| op | pass rate | statuses |", "|---|---|---|"]
    for op in sorted(by_op):
        c = by_op[op]
        lines.append(f"| `{op}` | {_rate(c)} | " + ", ".join(f"{s} {c[s]}" for s in STATUS_ORDER if c[s]) + " |")
    lines += ["", "## Per element type (of the checked values)", "", "| dtype | pass rate | statuses |", "|---|---|---|"]
    for dtype in sorted(by_dtype):
        c = by_dtype[dtype]
        lines.append(f"| {dtype} | {_rate(c)} | " + ", ".join(f"{s} {c[s]}" for s in STATUS_ORDER if c[s]) + " |")
    reasons = collections.Counter(
        (r["status"], re.sub(r"\d+", "N", r["message"])[:120]) for r in results if r["status"] != "pass"
    )
    lines += ["", "## Most common reasons", "", "| files | status | reason |", "|---|---|---|"]
    for (status, message), n in reasons.most_common(40):
        lines.append(f"| {n} | {status} | {message.replace('|', '/')} |")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n" + _kept_section(path_text))


def _corpus_key(path: str) -> str:
    path = path.replace(os.sep, "/")
    index = path.find("stablehlo/")
    return path[index:] if index >= 0 else path


def load_xla_results(path: str) -> dict[str, str]:
    results = {}
    with open(path) as f:
        for line in f:
            record = json.loads(line)
            results[record["file"]] = record["status"]
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", help=".mlir files or directories")
    parser.add_argument("--files", help="a file listing .mlir paths, one a line")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per file")
    parser.add_argument("--out", help="write one JSON line per file here")
    parser.add_argument("--report", help="write a markdown report here")
    parser.add_argument("--xla", help="xla_cpu_results.jsonl, to compare with XLA")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return _worker_main()

    paths = iter_mlir_files(args.paths)
    if args.files:
        base = os.path.dirname(os.path.abspath(args.files))
        with open(args.files) as f:
            paths += [p if os.path.isabs(p) else os.path.join(base, p) for p in (l.strip() for l in f) if p]
    if not paths:
        parser.error("no files to run")
    start = time.perf_counter()
    results = run_files(paths, jobs=args.jobs, timeout=args.timeout, progress=True)
    elapsed = time.perf_counter() - start
    if args.out:
        with open(args.out, "w") as f:
            for r in results:
                f.write(json.dumps(r) + "\n")
    counts = collections.Counter(r["status"] for r in results)
    print(f"{counts['pass']} passed, {len(results) - counts['pass']} failed")
    print("  " + ", ".join(f"{s} {counts[s]}" for s in STATUS_ORDER if counts[s]) + f"; {elapsed:.0f} s, {elapsed / max(1, len(results)):.2f} s/file")
    if args.report:
        xla = load_xla_results(args.xla) if args.xla else None
        write_report(results, args.report, xla, title=f"{len(results)} files, {elapsed / max(1, len(results)):.2f} s per file with --jobs {args.jobs}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
