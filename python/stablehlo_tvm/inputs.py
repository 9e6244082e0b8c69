"""Every form of StableHLO a user has in hand, turned into MLIR text.

jaxlib is the one place that speaks its own module objects and StableHLO
portable artifacts (VHLO bytecode): those forms go through jaxlib and come out
as text. Everything else is read as it is and handed to the C++ core.
"""

from __future__ import annotations

import os
from typing import Any

from .errors import InputError

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
        try:
            module = _jax.mlir.deserialize_portable_artifact(data)
        except Exception as error:  # jaxlib's own error type
            raise InputError(f"not a readable StableHLO portable artifact or MLIR bytecode: {error}") from error
        return _jaxlib_module_text(module)


def _exported_text(exported: Any) -> str:
    return _portable_artifact_text(exported.mlir_module_serialized)


def _bytes_text(data: bytes, name: str) -> tuple[str, str]:
    """MLIR bytecode or a portable artifact, jax.export's serialization of an
    Exported, or UTF-8 MLIR text."""
    if data.startswith(_BYTECODE_MAGIC):
        return _portable_artifact_text(data), name
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is None or "\0" in text:
        from jax import export

        try:
            exported = export.deserialize(bytearray(data))
        except Exception as error:  # flatbuffers raises what it meets
            raise InputError(
                f"{name}: neither MLIR text, MLIR bytecode, a StableHLO portable artifact "
                f"nor a jax.export serialization ({type(error).__name__}: {error})"
            ) from error
        return _exported_text(exported), name
    return _checked_text(text, name)


def _checked_text(text: str, name: str) -> tuple[str, str]:
    if not text.strip():
        raise InputError(f"{name}: empty input, no MLIR to import")
    return text, name


def _is_path(source: Any) -> bool:
    if isinstance(source, os.PathLike):
        return True
    if not isinstance(source, str) or "\n" in source or "{" in source:
        return False
    return source.endswith((".mlir", ".mlirbc", ".bc")) or os.path.isfile(source)


def to_mlir_text(source: Any, *example_args: Any) -> tuple[str, str]:
    """Returns (text, source name) for ``source``:

    - MLIR text (pretty or generic), or a path (a ``.mlir`` name, or any
      existing file);
    - MLIR bytecode or a StableHLO portable artifact (an Exported's
      ``mlir_module_serialized``), or ``Exported.serialize()``'s bytes, as
      bytes or a path;
    - a jaxlib ``ir.Module``, a ``jax.stages.Lowered``, a ``jax.stages.Wrapped``
      (``jax.jit(f)``) or any callable together with example arguments, or a
      ``jax.export.Exported``.
    """
    if _is_path(source):
        path = os.fspath(source)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as error:
            raise InputError(f"cannot read {path}: {error.strerror}") from error
        return _bytes_text(data, path)
    if isinstance(source, str):
        return _checked_text(source, "<string>")
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _bytes_text(bytes(source), "<bytes>")
    if _is_jaxlib_module(source):
        return _jaxlib_module_text(source), "<jaxlib module>"
    if hasattr(source, "compiler_ir") and hasattr(source, "as_text"):  # jax.stages.Lowered
        return _jaxlib_module_text(source.compiler_ir("stablehlo")), "<jax lowered>"
    if hasattr(source, "mlir_module_serialized") and hasattr(source, "in_avals"):  # jax.export.Exported
        return _exported_text(source), "<jax exported>"
    if callable(source):
        import jax

        jitted = source if hasattr(source, "lower") else jax.jit(source)
        lowered = jitted.lower(*example_args)
        return _jaxlib_module_text(lowered.compiler_ir("stablehlo")), "<jax lowered>"
    raise InputError(f"cannot import StableHLO from {type(source).__name__}")
