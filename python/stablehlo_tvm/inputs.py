"""Every form of StableHLO a user has in hand, turned into MLIR text.

jaxlib is the one place that speaks its own module objects and StableHLO
portable artifacts (VHLO bytecode): those forms go through jaxlib and come out
as text. Everything else is read as it is and handed to the C++ core.
"""

from __future__ import annotations

import os
import re
from typing import Any, NamedTuple

from .errors import InputError

_BYTECODE_MAGIC = b"ML\xefR"


def _is_jaxlib_module(obj: Any) -> bool:
    return type(obj).__module__.startswith(("jaxlib.mlir", "jax._src.lib.mlir", "mlir.")) and hasattr(
        obj, "operation"
    )


class Source(NamedTuple):
    """What the C++ core parses: the text, a name for diagnostics, and the
    constants the text refers to as ``dense_resource<name>`` without holding
    them, as (name, bytes) pairs of uint8 arrays; and the Python functions
    the program calls back (JAX's host callbacks, by index)."""

    text: str
    name: str
    constants: tuple = ()
    callbacks: tuple = ()


# Constants of at least this many elements leave jaxlib's text: printed, a
# constant's hex is twice its bytes, and the print is held twice while it
# is made; parsed, it is a third copy.
_ELIDED_ELEMENTS = 1 << 16
_ELIDED = "dense_resource<__elided__>"
# Element types jaxlib's attributes hand to numpy as MLIR stores them (not
# bfloat16, which jaxlib's buffer protocol refuses; i1 is bit-packed).
_BORROWABLE = re.compile(r"tensor<(?:[0-9]+x)*(?:f16|f32|f64|u?i8|u?i16|u?i32|u?i64)>")


def _jaxlib_module_text(module: Any) -> str:
    # The generic form with locations: every inherent attribute spelled out,
    # and file:line:col of the JAX source in diagnostics.
    return module.operation.get_asm(enable_debug_info=True, print_generic_op_form=True)


def _jaxlib_module_source(module: Any, name: str) -> Source:
    """The module's text with its large constants elided, and those
    constants as views of jaxlib's storage (no copy); the whole text where
    what the printer elided is not exactly the module's large constants."""
    import numpy as np

    text = module.operation.get_asm(
        enable_debug_info=True, print_generic_op_form=True, large_elements_limit=_ELIDED_ELEMENTS
    )
    if _ELIDED not in text:
        return Source(text, name)
    from jax._src.lib.mlir import ir

    large = []

    def collect(op):
        if op.name == "stablehlo.constant":
            shaped = ir.ShapedType(op.results[0].type)
            if shaped.has_static_shape and np.prod(shaped.shape, dtype=np.int64) > _ELIDED_ELEMENTS:
                large.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(collect)
    # Reading an attribute of another element type can fail in jaxlib itself.
    if not all(_BORROWABLE.fullmatch(str(op.results[0].type)) for op in large):
        return Source(_jaxlib_module_text(module), name)
    values = [v for v in (op.attributes["value"] for op in large) if not v.is_splat]
    pieces = text.split(_ELIDED)
    if len(pieces) - 1 != len(values):
        return Source(_jaxlib_module_text(module), name)
    constants, out = [], [pieces[0]]
    for k, (value, rest) in enumerate(zip(values, pieces[1:])):
        if not rest.startswith(f" : {value.type}"):
            return Source(_jaxlib_module_text(module), name)
        key = f"stablehlo_tvm_borrowed_{k}"
        constants.append((key, np.asarray(value).reshape(-1).view(np.uint8)))
        out += [f"dense_resource<{key}>", rest]
    return Source("".join(out), name, tuple(constants))


def _portable_artifact_source(data: bytes, name: str) -> Source:
    from jax._src.interpreters import mlir as jax_mlir
    from jax._src.lib import _jax

    with jax_mlir.make_ir_context():
        try:
            module = _jax.mlir.deserialize_portable_artifact(data)
        except Exception as error:  # jaxlib's own error type
            raise InputError(f"not a readable StableHLO portable artifact or MLIR bytecode: {error}") from error
        return _jaxlib_module_source(module, name)


def _exported_source(exported: Any, name: str) -> Source:
    return _portable_artifact_source(exported.mlir_module_serialized, name)


def _bytes_source(data: bytes, name: str) -> Source:
    """MLIR bytecode or a portable artifact, jax.export's serialization of an
    Exported, or UTF-8 MLIR text."""
    if data.startswith(_BYTECODE_MAGIC):
        return _portable_artifact_source(data, name)
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
        return _exported_source(exported, name)
    return _checked_text(text, name)


# Shardy's custom assembly (`sdy.mesh @m = <...>`, `#sdy.sharding<...>`):
# what `jax.jit(f).lower(x).as_text()` prints for a program with host
# callbacks or shardings.
_SHARDY = re.compile(r"^\s*sdy\.\w+ @|#sdy\.", re.MULTILINE)


def _checked_text(text: str, name: str) -> Source:
    if not text.strip():
        raise InputError(f"{name}: empty input, no MLIR to import")
    if _SHARDY.search(text):
        return _shardy_text_source(text, name)
    return Source(text, name)


def _shardy_text_source(text: str, name: str) -> Source:
    """Text that spells Shardy's ops and attributes in their own assembly,
    which only jaxlib (where the sdy dialect lives) parses: read by jaxlib
    and printed in the generic form, which the import reads without the
    dialect (stablehlo-drop-sharding removes it). Left as it is where jaxlib
    cannot read it either, for the import to report where."""
    try:
        from jax._src.interpreters import mlir as jax_mlir
        from jax._src.lib.mlir import ir
    except ImportError:
        return Source(text, name)
    with jax_mlir.make_ir_context():
        try:
            module = ir.Module.parse(text)
        except Exception:  # noqa: BLE001 - jaxlib's own error type; the import reports it
            return Source(text, name)
        return _jaxlib_module_source(module, name)


def lowering_record(lowered: Any) -> dict | None:
    """What JAX recorded when it lowered (`jax.stages.Lowered`): the kept
    arguments, side effects, host callbacks... JAX keeps it private; None
    where this JAX does not have it."""
    record = getattr(getattr(lowered, "_lowering", None), "compile_args", None)
    return record if isinstance(record, dict) else None


def _lowered_source(lowered: Any) -> Source:
    source = _jaxlib_module_source(lowered.compiler_ir("stablehlo"), "<jax lowered>")
    record = lowering_record(lowered)
    return source._replace(callbacks=tuple(record.get("host_callbacks", ())) if record else ())


def _is_path(source: Any) -> bool:
    if isinstance(source, os.PathLike):
        return True
    if not isinstance(source, str) or "\n" in source or "{" in source:
        return False
    return source.endswith((".mlir", ".mlirbc", ".bc")) or os.path.isfile(source)


def to_source(source: Any, *example_args: Any) -> Source:
    """The text (large constants apart, see Source) and a source name of:

    - MLIR text (pretty or generic), or a path (a ``.mlir`` name, or any
      existing file);
    - MLIR bytecode or a StableHLO portable artifact (an Exported's
      ``mlir_module_serialized``), or ``Exported.serialize()``'s bytes, as
      bytes or a path;
    - a jaxlib ``ir.Module``, a ``jax.stages.Lowered``, a ``jax.stages.Wrapped``
      (``jax.jit(f)``) or any callable together with example arguments, or a
      ``jax.export.Exported``.
    """
    if isinstance(source, Source):
        return source
    if _is_path(source):
        path = os.fspath(source)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as error:
            raise InputError(f"cannot read {path}: {error.strerror}") from error
        return _bytes_source(data, path)
    if isinstance(source, str):
        return _checked_text(source, "<string>")
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _bytes_source(bytes(source), "<bytes>")
    if _is_jaxlib_module(source):
        return _jaxlib_module_source(source, "<jaxlib module>")
    if hasattr(source, "compiler_ir") and hasattr(source, "as_text"):  # jax.stages.Lowered
        return _lowered_source(source)
    if hasattr(source, "mlir_module_serialized") and hasattr(source, "in_avals"):  # jax.export.Exported
        return _exported_source(source, "<jax exported>")
    if callable(source):
        import jax

        jitted = source if hasattr(source, "lower") else jax.jit(source)
        return _lowered_source(jitted.lower(*example_args))
    raise InputError(f"cannot import StableHLO from {type(source).__name__}")
