"""Command line of the differential tester; see the package docstring."""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import sys

from .ops import FAMILIES
from .runner import _worker_main, run

FAILING = ("mismatch", "error", "crash", "timeout")
COLUMNS = ("pass", "explained", "mismatch", "unsupported", "error", "crash", "timeout", "xla-error")


def write_into_doc(report: str, path: str) -> None:
    """`report` as the last section of `path` (docs/conformance.md), after
    the marker the conformance report keeps, replacing an earlier one."""
    from ..conformance import DIFFERENTIAL_MARKER

    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        text = ""
    at = text.find(DIFFERENTIAL_MARKER)
    head = text[:at].rstrip() if at >= 0 else text.rstrip()
    # One level down: the corpus report is the page's title. The reduced
    # files stay in the run's directory (seed and case reproduce them).
    report = re.sub(r" \([^()\s]+\.mlir\)", "", report)
    section = "\n".join("#" + line if line.startswith("#") else line for line in report.splitlines()) + "\n"
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + "\n\n" + DIFFERENTIAL_MARKER + "\n\n" + section)


def write_report(results: list[dict], path: str, seed: int) -> None:
    by_family: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    by_type: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for r in results:
        by_family[r["family"]][r["status"]] += 1
        for t in r["types"]:
            by_type[t][r["status"]] += 1
    total = collections.Counter(r["status"] for r in results)
    judged = sum(total[c] for c in COLUMNS if c != "xla-error")
    lines = [
        f"# Differential test: {len(results)} generated programs (seed {seed})",
        "",
        f"Agree with XLA: {total['pass']} exactly or within 3 ULP, {total['explained']} with every difference explained; "
        f"{total['mismatch']} mismatch, {total['unsupported']} not imported, {total['error']} errors, "
        f"{total['crash'] + total['timeout']} crashes or hangs, of {judged} programs XLA runs ({total['xla-error']} XLA refuses).",
        "",
        "| family | " + " | ".join(COLUMNS) + " |",
        "|---|" + "---:|" * len(COLUMNS),
    ]
    for family in sorted(by_family):
        lines.append(f"| {family} | " + " | ".join(str(by_family[family][c] or "") for c in COLUMNS) + " |")
    lines += ["", "| element type | " + " | ".join(COLUMNS) + " |", "|---|" + "---:|" * len(COLUMNS)]
    for t in sorted(by_type):
        lines.append(f"| {t} | " + " | ".join(str(by_type[t][c] or "") for c in COLUMNS) + " |")
    explained = collections.Counter(r["message"] for r in results if r["status"] == "explained")
    if explained:
        lines += ["", "## Explained differences", ""] + [f"- {n} x {m}" for m, n in explained.most_common()]
    failing = [r for r in results if r["status"] in FAILING]
    if failing:
        lines += ["", "## Failing programs", ""]
        for r in failing[:200]:
            where = f" ({r['file']})" if r.get("file") else ""
            lines.append(f"- `{r['family']}` {r['detail']} [case {r['index']}]: {r['status']}: {r['message']}{where}")
        if len(failing) > 200:
            lines.append(f"- ... and {len(failing) - 200} more (results.jsonl)")
    unsupported = collections.Counter((r["family"], r["message"]) for r in results if r["status"] == "unsupported")
    if unsupported:
        lines += ["", "## Not imported", ""] + [f"- {n} x `{f}`: {m}" for (f, m), n in unsupported.most_common()]
    xla = collections.Counter((r["family"], r["message"][:160]) for r in results if r["status"] == "xla-error")
    if xla:
        lines += ["", "## Refused by XLA (not judged)", ""] + [f"- {n} x `{f}`: {m}" for (f, m), n in xla.most_common()]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def merge(paths: list[str], seed: int, out: str, doc: str | None) -> int:
    """One report of runs of `seed` in pieces; a program in two of them is
    refused (the pieces' ranges must not overlap)."""
    results: dict[int, dict] = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for r in map(json.loads, f):
                if r["index"] in results:
                    raise SystemExit(f"program {r['index']} is in more than one of the results merged")
                results[r["index"]] = r
    os.makedirs(out, exist_ok=True)
    return report([results[i] for i in sorted(results)], out, seed, doc, "programs merged")


def report(results: list[dict], out: str, seed: int, doc: str | None, what: str = "programs") -> int:
    """Writes the report of `results` into `out` (and `doc`); the exit
    status: 1 when a program fails."""
    report_path = os.path.join(out, "report.md")
    write_report(results, report_path, seed)
    if doc:
        with open(report_path, encoding="utf-8") as f:
            write_into_doc(f.read(), doc)
    failing = [r for r in results if r["status"] in FAILING]
    print(f"{len(results)} {what}, {len(failing)} failing; report in {report_path}", file=sys.stderr)
    return 1 if failing else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m stablehlo_tvm.difftest", description=__doc__)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=1000, help="programs to generate")
    parser.add_argument("--start", type=int, default=0, help="index of the first program")
    parser.add_argument("--batch", type=int, default=32, help="programs compiled together")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--family", action="append", choices=sorted(FAMILIES), help="only these families (repeatable)")
    parser.add_argument("--out", default="difftest-out", help="directory for reduced failing programs, results.jsonl and report.md")
    parser.add_argument("--no-reduce", action="store_true", help="write failing programs unreduced")
    parser.add_argument("--doc", metavar="MARKDOWN", help="also write the report as the last section of this file (docs/conformance.md)")
    parser.add_argument("--retry", metavar="RESULTS", help="rerun the programs a results.jsonl lists as failing or not imported (same seed)")
    parser.add_argument(
        "--merge", nargs="+", metavar="RESULTS",
        help="write one report of the results.jsonl files of runs of one seed in pieces (--start ranges), running nothing",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return _worker_main()
    if args.merge:
        return merge(args.merge, args.seed, args.out, args.doc)
    indices = None
    if args.retry:
        with open(args.retry, encoding="utf-8") as f:
            indices = [r["index"] for r in map(json.loads, f) if r["status"] in FAILING + ("unsupported",)]
    results = run(args.seed, args.count, args.start, args.batch, args.jobs, args.family, args.out, not args.no_reduce, progress=True, indices=indices)
    with open(os.path.join(args.out, "results.jsonl"), "w", encoding="utf-8") as f:
        for r in results:
            f.write(json.dumps(r) + "\n")
    return report(results, args.out, args.seed, args.doc)


if __name__ == "__main__":
    sys.exit(main())
