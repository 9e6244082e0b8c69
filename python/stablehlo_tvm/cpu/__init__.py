"""Compiling imported modules for CPUs: the host target, schedule rules for
every PrimFunc the import produces, vectorizable transcendentals."""

from .pipeline import cpu_pipeline
from .target import host_target, resolve_target

__all__ = ["cpu_pipeline", "host_target", "resolve_target"]
