"""A mutation fuzzer for the C++ core: corrupted StableHLO text, fed to the
`stablehlo-to-tvm` tool in verify mode and through the import pipeline, must
give diagnostics, never a crash or a hang.

    python -m stablehlo_tvm.fuzz test/ --iterations 2000 --out fuzz-findings
    python -m stablehlo_tvm.fuzz test/ --api --iterations 20000

With --api each input goes through `stablehlo_tvm.import_stablehlo` in a
worker process instead, which must raise an exception for bad input; the
process dying or hanging is the finding.

Seeds are .mlir files (directories are searched; `// -----` pieces are
separate seeds). Each iteration applies one to three random edits to a seed
(drop, repeat or swap lines, change a number, an array, a dimension or an
op name, cut the text short) and runs the tool on the result. A run that
ends by a signal, prints LLVM's crash report, or exceeds the time limit is
a finding: its input is written to the output directory with what
happened. The run is reproducible from `--seed`.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from typing import Iterator

from .corpus import iter_mlir_files, split_programs

_NUMBER = re.compile(r"(?<![\w.#%@])-?\d+(?![\w.])")
_ARRAY = re.compile(r"\[[-\d, ]*\]")
_SHAPE = re.compile(r"tensor<((?:\d+x)*)")
_OP = re.compile(r"\b(?:stablehlo|chlo)\.[a-z_]+\b")
_INTERESTING = [0, 1, -1, 2, 3, 7, 64, 65536, 2**31 - 1, -(2**31), 2**62]
_CRASH_MARKERS = ("PLEASE submit a bug report", "LLVM ERROR", "Assertion `", "Stack dump:")


def _replace_one(lines: list[str], pattern: re.Pattern, rng: random.Random, replacement) -> str:
    """The text with one random match of `pattern` replaced."""
    text = "\n".join(lines)
    found = list(pattern.finditer(text))
    if not found:
        return text
    m = rng.choice(found)
    return text[: m.start()] + replacement(m) + text[m.end() :]


def _changed_dims(dims: str, rng: random.Random) -> list[str]:
    sizes = [d for d in dims.split("x") if d]
    if sizes and rng.random() < 0.5:
        sizes.pop(rng.randrange(len(sizes)))
    else:
        sizes.insert(rng.randrange(len(sizes) + 1), str(rng.choice([0, 1, 2, 5])))
    return sizes


def _mutate(text: str, rng: random.Random, op_names: list[str]) -> str:
    lines = text.split("\n")
    kind = rng.randrange(8)
    if kind == 0 and len(lines) > 2:
        del lines[rng.randrange(len(lines))]
    elif kind == 1:
        i = rng.randrange(len(lines))
        lines.insert(rng.randrange(len(lines) + 1), lines[i])
    elif kind == 2 and len(lines) > 2:
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 3:
        return _replace_one(lines, _NUMBER, rng, lambda m: str(rng.choice(_INTERESTING + [int(m.group()) + rng.choice([-1, 1])])))
    elif kind == 4:
        return _replace_one(
            lines, _ARRAY, rng, lambda m: "[" + ", ".join(str(rng.choice(_INTERESTING[:6])) for _ in range(rng.randrange(4))) + "]"
        )
    elif kind == 5:
        return _replace_one(lines, _SHAPE, rng, lambda m: "tensor<" + "".join(d + "x" for d in _changed_dims(m.group(1), rng)))
    elif kind == 6 and op_names:
        return _replace_one(lines, _OP, rng, lambda m: rng.choice(op_names))
    else:
        text = "\n".join(lines)
        return text[: rng.randrange(len(text) + 1)]
    return "\n".join(lines)


def seeds(paths: list[str]) -> list[str]:
    out = []
    for path in iter_mlir_files(paths):
        with open(path, encoding="utf-8") as f:
            out.extend(p for p in split_programs(f.read()) if p.strip())
    return out


def run_tool(tool: str, text: str, args: list[str], timeout: float) -> tuple[str, str] | None:
    """None when the tool ended normally, else (what happened, its stderr)."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        try:
            done = subprocess.run([tool, path, *args], capture_output=True, text=True, timeout=timeout, errors="replace")
        except subprocess.TimeoutExpired:
            return "timeout", ""
        if done.returncode < 0:
            return f"signal {-done.returncode}", done.stderr[-4000:]
        if any(marker in done.stderr for marker in _CRASH_MARKERS):
            return "crash report", done.stderr[-4000:]
        return None
    finally:
        os.unlink(path)


MODES = {"verify": [], "pipeline": ["--stablehlo-to-tvm-pipeline"]}


def mutations(corpus: list[str], count: int, seed: int) -> Iterator[str]:
    """`count` inputs, each a random seed with one to three edits; the same
    sequence for the same seed."""
    rng = random.Random(seed)
    op_names = sorted({m.group() for text in corpus for m in _OP.finditer(text)})
    for _ in range(count):
        text = rng.choice(corpus)
        for _ in range(rng.randint(1, 3)):
            text = _mutate(text, rng, op_names)
        yield text


def fuzz(tool: str, corpus: list[str], iterations: int, seed: int, timeout: float) -> Iterator[dict]:
    for iteration, text in enumerate(mutations(corpus, iterations, seed)):
        for mode, args in MODES.items():
            found = run_tool(tool, text, args, timeout)
            if found is not None:
                yield {"iteration": iteration, "mode": mode, "what": found[0], "stderr": found[1], "input": text}
                break


def fuzz_api(corpus: list[str], iterations: int, seed: int, timeout: float, worker_module: str = "stablehlo_tvm.fuzz") -> Iterator[dict]:
    """`fuzz` through the Python API: `import_stablehlo` in a worker
    (`python -m worker_module --worker`)."""
    from .workers import Failure, Worker

    worker = None
    try:
        for iteration, text in enumerate(mutations(corpus, iterations, seed)):
            if worker is None:
                worker = Worker(worker_module)
            reply = worker.request({"text": text}, timeout)
            if isinstance(reply, Failure):
                worker = None
                what = "timeout" if reply.kind == "timeout" else f"process died (exit {reply.exit_code})"
                yield {"iteration": iteration, "mode": "api", "what": what, "stderr": "", "input": text}
    finally:
        if worker is not None:
            worker.close()


def _import_in_worker(request: dict) -> dict:
    """The worker's side of `fuzz_api`: any exception is a proper outcome."""
    from . import import_stablehlo

    try:
        import_stablehlo(request["text"])
    except Exception as error:  # noqa: BLE001 - every exception is an answer
        return {"imported": False, "error": type(error).__name__}
    return {"imported": True}


def _default_tool() -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(here, "..", "..", "build", "py", "bin", "stablehlo-to-tvm"),):
        if os.path.exists(candidate):
            return os.path.abspath(candidate)
    return "stablehlo-to-tvm"


def main(argv: list[str] | None = None) -> int:
    if (argv if argv is not None else sys.argv[1:]) == ["--worker"]:
        from .workers import serve

        return serve(_import_in_worker)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", help="seed .mlir files or directories")
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per run")
    parser.add_argument("--tool", default=_default_tool())
    parser.add_argument("--out", help="write each finding here")
    parser.add_argument("--api", action="store_true", help="through import_stablehlo instead of the tool")
    args = parser.parse_args(argv)
    corpus = seeds(args.paths)
    if not corpus:
        parser.error("no seed programs")
    findings = 0
    runs = (
        fuzz_api(corpus, args.iterations, args.seed, args.timeout)
        if args.api
        else fuzz(args.tool, corpus, args.iterations, args.seed, args.timeout)
    )
    for finding in runs:
        findings += 1
        first = next((l for l in finding["stderr"].splitlines() if l.strip()), "")
        print(f"[{finding['iteration']}] {finding['mode']}: {finding['what']}: {first[:200]}", flush=True)
        if args.out:
            os.makedirs(args.out, exist_ok=True)
            name = os.path.join(args.out, f"finding-{args.seed}-{finding['iteration']}-{finding['mode']}.mlir")
            with open(name, "w") as f:
                f.write(f"// {finding['what']} in {finding['mode']} mode\n" + finding["input"])
    print(f"{findings} findings in {args.iterations} inputs")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
