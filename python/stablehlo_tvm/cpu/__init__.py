"""Compiling imported modules for CPUs: the host target, schedule rules for
every PrimFunc the import produces, vectorizable transcendentals, optional
tuning."""

from .pipeline import cpu_pipeline, fuse
from .target import host_target, resolve_target, size_thread_pool

__all__ = ["cpu_pipeline", "fuse", "host_target", "resolve_target", "size_thread_pool"]
