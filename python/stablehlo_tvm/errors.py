"""Exceptions raised by stablehlo_tvm: each derives from ``Error``."""

from __future__ import annotations


class Error(Exception):
    """Any error stablehlo_tvm reports about its input or a call."""


class MLIRError(Error):
    """MLIR diagnostics: a parse error, a verifier error, or ops the import
    could not convert. ``diagnostics`` lists (severity, location, message)
    tuples, notes included; locations are ``file:line:col``."""

    def __init__(self, message: str, diagnostics: list[tuple[str, str, str]] | None = None):
        super().__init__(message)
        self.diagnostics = list(diagnostics or [])

    @property
    def locations(self) -> list[str]:
        return [location for _, location, _ in self.diagnostics]


class EmitError(Error):
    """The tvm dialect module holds something the Relax emitter cannot express."""


class InputError(Error, ValueError):
    """The input is none of the forms the import reads (empty, not MLIR, a
    damaged artifact), or holds nothing to import or build."""


class CallError(Error, TypeError):
    """A compiled function was called with arguments its signature does not
    take (their number, an element type, a shape, a non-numeric value)."""


class ShapeAssertionError(Error, ValueError):
    """A symbolic build was called with shapes its program's shape
    assertions reject (JAX's message)."""
