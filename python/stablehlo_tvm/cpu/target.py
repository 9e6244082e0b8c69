"""The host CPU as an LLVM target TVM can use.

TVM replaces ``"mcpu": "native"`` by generic x86-64 (SSE2 only), so the CPU is
named explicitly, with the number of cores its thread pool and schedules use.
"""

from __future__ import annotations

import os


def host_cpu_name() -> str:
    import tvm

    return str(tvm.get_global_func("tvm.codegen.llvm.GetHostCPUName")())


def host_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def host_target():
    """``llvm`` for this machine: its CPU by name and its usable cores."""
    import tvm

    return tvm.target.Target({"kind": "llvm", "mcpu": host_cpu_name(), "num-cores": host_cores()})


def resolve_target(target):
    """``None``, ``"host"`` and ``"llvm"`` mean this machine; anything else is
    handed to ``tvm.target.Target`` as given."""
    import tvm

    if target is None or (isinstance(target, str) and target in ("host", "llvm")):
        return host_target()
    return target if isinstance(target, tvm.target.Target) else tvm.target.Target(target)


def vector_lanes(target, bits: int) -> int:
    """How many `bits`-wide values one SIMD register of `target` holds."""
    from tvm.target.codegen import llvm_get_vector_width

    width = int(llvm_get_vector_width(target))
    return max(width if width > 0 else 128, bits) // bits
