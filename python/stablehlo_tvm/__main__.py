"""python -m stablehlo_tvm: import, compile and run StableHLO from the shell.

    python -m stablehlo_tvm emit model.mlir               # the Relax module (TVMScript)
    python -m stablehlo_tvm compile model.mlir -o model.so
    python -m stablehlo_tvm run model.mlir x.npy w.npy    # or inputs.npz; prints or -o out.npz

Input is anything import_stablehlo reads from a file: MLIR text, bytecode,
a StableHLO portable artifact, jax.export's serialization. Errors print as
the opt tool prints them (file:line:col: error: ...) and exit with status 1.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from .errors import Error, MLIRError


def _build(options):
    from .runtime import build

    return build(options.input, target=options.target, entry=options.entry, blas=not options.no_blas)


def _emit(options) -> None:
    from .api import import_stablehlo

    text = import_stablehlo(options.input).script(show_meta=False)
    _write_text(text, options.output)


def _compile(options) -> None:
    compiled = _build(options)
    compiled.export_library(options.output, allow_recursion=options.allow_recursion)
    print(f"wrote {options.output}", file=sys.stderr)


def _inputs(paths: list[str]) -> list[np.ndarray]:
    arrays: list[np.ndarray] = []
    for path in paths:
        loaded = np.load(path, allow_pickle=False)
        if isinstance(loaded, np.lib.npyio.NpzFile):
            # An .npz holds arguments in order: arr_0, arr_1, ... (np.savez).
            arrays += [loaded[name] for name in sorted(loaded.files, key=_numbered)]
        else:
            arrays.append(loaded)
    return arrays


def _numbered(name: str):
    digits = name.rsplit("_", 1)[-1]
    return (0, int(digits), name) if digits.isdigit() else (1, 0, name)


def _run(options) -> None:
    compiled = _build(options)
    results = compiled(*_inputs(options.arguments))
    results = list(results) if isinstance(results, tuple) else [results]
    if options.output:
        np.savez(options.output, *[np.asarray(r) for r in results])
        print(f"wrote {len(results)} result(s) to {options.output}", file=sys.stderr)
        return
    for k, result in enumerate(results):
        print(f"result {k}: {np.asarray(result).dtype}{list(np.shape(result))}")
        print(np.array2string(np.asarray(result), threshold=64))


def _write_text(text: str, output: str | None) -> None:
    if output:
        with open(output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m stablehlo_tvm", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)

    def common(command, help_text, output_help):
        sub = commands.add_parser(command, help=help_text)
        sub.add_argument("input", help="StableHLO: .mlir, .mlirbc, a portable artifact or a jax.export file")
        sub.add_argument("-o", "--output", help=output_help)
        return sub

    emit = common("emit", "print the Relax module as TVMScript", "write the TVMScript here")
    emit.set_defaults(handler=_emit)
    for command, handler, help_text, output_help in [
        ("compile", _compile, "build a shared library a TVM runtime loads", "the library to write (model.so)"),
        ("run", _run, "build and run on .npy/.npz inputs", "write the results as .npz"),
    ]:
        sub = common(command, help_text, output_help)
        sub.add_argument("--target", help="a TVM target (default: this machine's CPU)")
        sub.add_argument("--entry", help='the function to build (default: "main")')
        sub.add_argument("--no-blas", action="store_true", help="keep every product in TVM's code")
        if command == "compile":
            sub.add_argument(
                "--allow-recursion", action="store_true", help="export a module with loops (see Compiled.export_library)"
            )
        if command == "run":
            sub.add_argument("arguments", nargs="*", help=".npy files (one per argument) or .npz files")
        sub.set_defaults(handler=handler)
    options = parser.parse_args(argv)
    if options.command == "compile" and not options.output:
        parser.error("compile needs -o/--output")
    try:
        options.handler(options)
    except MLIRError as error:
        for severity, where, message in error.diagnostics:
            print(f"{where}: {severity}: {message}", file=sys.stderr)
        if not error.diagnostics:
            print(f"error: {error}", file=sys.stderr)
        return 1
    except (Error, OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
