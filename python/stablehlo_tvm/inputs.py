"""Every form of StableHLO a user has in hand, turned into MLIR text.

jaxlib is the one place that speaks its own module objects and StableHLO
portable artifacts (VHLO bytecode): those forms go through jaxlib and come out
as text. Everything else is read as it is and handed to the C++ core.
"""

from __future__ import annotations

import os
from typing import Any

_BYTECODE_MAGIC = b"ML\xefR"


def _is_jaxlib_module(obj: Any) -> bool:
    return type(obj).__module__.startswith(("jaxlib.mlir", "jax._src.lib.mlir", "mlir.")) and hasattr(
        obj, "operation"
    )


def _jaxlib_module_text(module: Any) -> str:
    # The generic form with locations: every inherent attribute spelled out,
    # and file:line:col of the JAX source in diagnostics.
    return module.operation.get_asm(enable_debug_info=True, print_generic_op_form=True)


def _portable_artifact_text(data: bytes) -> str:
    from jax._src.interpreters import mlir as jax_mlir
    from jax._src.lib import _jax

    with jax_mlir.make_ir_context():
        return _jaxlib_module_text(_jax.mlir.deserialize_portable_artifact(data))


def to_mlir_text(source: Any, *example_args: Any) -> tuple[str, str]:
    """Returns (text, source name) for ``source``:

    - MLIR text (pretty or generic), or a path to a ``.mlir`` file;
    - MLIR bytecode or a StableHLO portable artifact (``jax.export``'s
      serialization), as bytes or a path;
    - a jaxlib ``ir.Module``, a ``jax.stages.Lowered``, a ``jax.stages.Wrapped``
      (``jax.jit(f)``) or any callable together with example arguments, or a
      ``jax.export.Exported``.
    """
    if isinstance(source, os.PathLike) or (
        isinstance(source, str) and "\n" not in source and source.endswith((".mlir", ".mlirbc", ".bc"))
    ):
        path = os.fspath(source)
        with open(path, "rb") as f:
            data = f.read()
        if data.startswith(_BYTECODE_MAGIC):
            return _portable_artifact_text(data), path
        return data.decode("utf-8"), path
    if isinstance(source, str):
        return source, "<string>"
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        if data.startswith(_BYTECODE_MAGIC):
            return _portable_artifact_text(data), "<bytecode>"
        return data.decode("utf-8"), "<string>"
    if _is_jaxlib_module(source):
        return _jaxlib_module_text(source), "<jaxlib module>"
    if hasattr(source, "compiler_ir") and hasattr(source, "as_text"):  # jax.stages.Lowered
        return _jaxlib_module_text(source.compiler_ir("stablehlo")), "<jax lowered>"
    if hasattr(source, "mlir_module_serialized") and hasattr(source, "in_avals"):  # jax.export.Exported
        return _portable_artifact_text(source.mlir_module_serialized), "<jax exported>"
    if callable(source):
        import jax

        jitted = source if hasattr(source, "lower") else jax.jit(source)
        lowered = jitted.lower(*example_args)
        return _jaxlib_module_text(lowered.compiler_ir("stablehlo")), "<jax lowered>"
    raise TypeError(f"cannot import StableHLO from {type(source).__name__}")
