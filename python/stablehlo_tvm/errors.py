"""Exceptions raised by stablehlo_tvm."""

from __future__ import annotations


class MLIRError(Exception):
    """MLIR diagnostics: a parse error, a verifier error, or ops the import
    could not convert. ``diagnostics`` lists (severity, location, message)
    tuples, notes included; locations are ``file:line:col``."""

    def __init__(self, message: str, diagnostics: list[tuple[str, str, str]] | None = None):
        super().__init__(message)
        self.diagnostics = list(diagnostics or [])

    @property
    def locations(self) -> list[str]:
        return [location for _, location, _ in self.diagnostics]


class EmitError(Exception):
    """The tvm dialect module holds something the Relax emitter cannot express."""
