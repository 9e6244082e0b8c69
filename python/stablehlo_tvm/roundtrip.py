"""Checks the stablehlo dialect's text against jaxlib, the oracle.

For every .mlir file given (or found under a directory): jaxlib reads the
file; we read it and print it back, generic and pretty; jaxlib must read each
of our prints as exactly the module it read from the original (compared as
jaxlib's generic print, locations aside).

    python -m stablehlo_tvm.roundtrip ../shared/conformance/stablehlo/testdata
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import time

from .corpus import iter_mlir_files, split_programs


class Oracle:
    """jaxlib's reading of MLIR text, printed in generic form."""

    def __init__(self) -> None:
        from jax._src.interpreters import mlir as jax_mlir
        from jax._src.lib.mlir import ir

        self._ir = ir
        self._context = jax_mlir.make_ir_context()
        # The interpreter tests use a `check` dialect jaxlib does not have.
        self._context.allow_unregistered_dialects = True
        _load_quant_dialect(self._context)

    def generic(self, text: str) -> str:
        with self._context:
            module = self._ir.Module.parse(text)
            return module.operation.get_asm(print_generic_op_form=True, enable_debug_info=False)


# A module with a quantized type, as a portable artifact: reading one loads
# the quant dialect, which jaxlib's Python contexts do not register.
_QUANTIZED = """func.func @main(%x: tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 1.0>> {
  %0 = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 1.0>>
  return %0 : tensor<2x!quant.uniform<i8:f32, 1.0>>
}"""


def _load_quant_dialect(context) -> None:
    from jaxlib.mlir.dialects import stablehlo

    artifact = stablehlo.serialize_portable_artifact_str(_QUANTIZED, stablehlo.get_current_version())
    stablehlo.deserialize_portable_artifact(context, artifact)


# Ops of the `check` test dialect: ours prints them in its own syntax, which
# jaxlib (without the dialect) cannot read back.
_CHECK_DIALECT = re.compile(r"^\s*\"?check\.", re.M)


def check_text(oracle: Oracle, text: str, name: str) -> dict:
    from . import _core
    from .errors import MLIRError

    if _CHECK_DIALECT.search(text):
        return {"status": "skipped", "message": "uses the check test dialect, which jaxlib does not define"}

    try:
        module = _core.Module.parse(text, name)
    except MLIRError as e:
        first = next((m for s, _, m in e.diagnostics if s == "error"), str(e))
        module, parse_error = None, first.splitlines()[0]
    try:
        expected = oracle.generic(text)
    except Exception:  # jaxlib itself cannot read it: nothing to compare with
        ours = "we parse it" if module else f"we do not either: {parse_error}"
        return {"status": "skipped", "message": f"jaxlib cannot read it; {ours}"}
    if module is None:
        return {"status": "parse-error", "message": parse_error}
    for form in ("generic", "pretty"):
        ours = module.to_text(generic=(form == "generic"))
        try:
            got = oracle.generic(ours)
        except Exception as e:
            return {"status": f"{form}-unreadable", "message": str(e).splitlines()[0]}
        if got != expected:
            diff = next(
                (f"jaxlib: {a.strip()} | ours: {b.strip()}" for a, b in zip(expected.splitlines(), got.splitlines()) if a != b),
                "different length",
            )
            return {"status": f"{form}-mismatch", "message": diff[:400]}
    return {"status": "pass", "message": ""}


def check_file(oracle: Oracle, path: str) -> dict:
    start = time.perf_counter()
    with open(path, encoding="utf-8") as f:
        text = f.read()
    result = {"status": "pass", "message": ""}
    for i, chunk in enumerate(split_programs(text)):
        result = check_text(oracle, chunk, path)
        if result["status"] != "pass":
            result["message"] = f"[chunk {i}] {result['message']}" if i else result["message"]
            break
    result["file"] = path
    result["seconds"] = round(time.perf_counter() - start, 4)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", help=".mlir files or directories")
    parser.add_argument("--out", help="write one JSON line per file here")
    parser.add_argument("--top", type=int, default=25, help="how many failure kinds to list")
    args = parser.parse_args(argv)

    oracle = Oracle()
    results = [check_file(oracle, path) for path in iter_mlir_files(args.paths)]
    if args.out:
        with open(args.out, "w") as f:
            for r in results:
                f.write(json.dumps(r) + "\n")

    counts = collections.Counter(r["status"] for r in results)
    judged = len(results) - counts["skipped"]
    print(f"{counts['pass']}/{judged} files round-trip exactly ({counts['skipped']} skipped: jaxlib cannot read them or they use the check dialect)")
    for status, n in sorted(counts.items()):
        print(f"  {status}: {n}")
    kinds = collections.Counter(
        (r["status"], re.sub(r"%[\w#]+|\d+", "N", r["message"])[:160]) for r in results if r["status"] not in ("pass", "skipped")
    )
    for (status, message), n in kinds.most_common(args.top):
        print(f"{n:6d}  {status}: {message}")
    slowest = max(results, key=lambda r: r["seconds"], default=None)
    if slowest:
        print(f"slowest: {slowest['file']} ({slowest['seconds']:.3f} s)")
    return 0 if counts["pass"] == judged else 1


if __name__ == "__main__":
    sys.exit(main())
