"""The host CPU as an LLVM target TVM can use, and TVM's thread pool sized
to it.

TVM replaces ``"mcpu": "native"`` by generic x86-64 (SSE2 only), so the CPU is
named explicitly, with the number of cores its thread pool and schedules use.
"""

from __future__ import annotations

import os
import platform


def host_cpu_name() -> str:
    import tvm

    return str(tvm.get_global_func("tvm.codegen.llvm.GetHostCPUName")())


def host_cores() -> int:
    """Physical cores among the CPUs this process may run on (hardware
    threads of one core count once)."""
    try:
        cpus = os.sched_getaffinity(0)
    except AttributeError:  # not Linux
        return os.cpu_count() or 1
    cores = set()
    for cpu in cpus:
        topology = f"/sys/devices/system/cpu/cpu{cpu}/topology"
        try:
            with open(f"{topology}/physical_package_id") as package, open(f"{topology}/core_id") as core:
                cores.add((package.read().strip(), core.read().strip()))
        except OSError:
            cores.add(("cpu", str(cpu)))
    return max(1, len(cores))


def size_thread_pool() -> None:
    """Gives TVM's thread pool one worker a physical core, unless
    TVM_NUM_THREADS or OMP_NUM_THREADS say otherwise. Left alone, TVM takes
    half the hardware threads on x86, assuming two a core: one worker on a
    2-core machine without hyper-threading. A pool reads this when a thread
    first runs parallel code, so this comes before any."""
    if "TVM_NUM_THREADS" not in os.environ and "OMP_NUM_THREADS" not in os.environ:
        os.environ["TVM_NUM_THREADS"] = str(host_cores())


def host_target():
    """``llvm`` for this machine: its CPU by name and its usable cores."""
    import tvm

    spec = {"kind": "llvm", "mcpu": host_cpu_name(), "num-cores": host_cores()}
    if platform.machine().lower() in ("x86_64", "amd64"):
        spec["mattr"] = list(_X86_FEATURES_OFF)
    return tvm.target.Target(spec)


# LLVM's AVX-512DQ lowering of 8-lane masks (the SLP vectorizer's
# <8 x i1> selects over a mix of loaded and shuffled booleans) computed a
# wrong lane: a jnp.pad of 3 rows of f32 (the where over its take) lost one
# element, f64 programs with 512-bit vectors likewise. Without DQ the masks
# go through 16-bit mask registers and come out right; the model suite ran
# at the same speed (A/B, ten programs).
_X86_FEATURES_OFF = ("-avx512dq",)


def resolve_target(target):
    """``None`` and ``"host"`` mean this machine (its CPU by name); anything
    else is ``tvm.target.Target`` as TVM spells it: ``"llvm"`` is a generic
    CPU of this architecture, what a library to run elsewhere wants."""
    import tvm

    if target is None or (isinstance(target, str) and target == "host"):
        return host_target()
    return target if isinstance(target, tvm.target.Target) else tvm.target.Target(target)


def vector_lanes(target, bits: int) -> int:
    """How many `bits`-wide values one SIMD register of `target` holds."""
    from tvm.target.codegen import llvm_get_vector_width

    width = int(llvm_get_vector_width(target))
    return max(width if width > 0 else 128, bits) // bits
