"""stablehlo_tvm: import StableHLO (what JAX exports) into Apache TVM.

    import jax, jax.numpy as jnp, numpy as np
    import stablehlo_tvm

    fast_f = stablehlo_tvm.jit(f)                        # like jax.jit, with TVM
    np.testing.assert_allclose(fast_f(x), jax.jit(f)(x))

    lowered = jax.jit(f).lower(x)
    irmodule = stablehlo_tvm.import_stablehlo(lowered)   # a Relax tvm.IRModule
    run = stablehlo_tvm.build(irmodule)                   # compiled with TVM
"""

from .api import import_stablehlo, import_to_tvm_dialect, parse
from .errors import CallError, EmitError, Error, InputError, MLIRError, ShapeAssertionError
from .jit import Jitted, Lowered, jit
from .runtime import Compiled, Result, Specializing, build

__all__ = [
    "CallError",
    "Compiled",
    "EmitError",
    "Error",
    "InputError",
    "Jitted",
    "Lowered",
    "MLIRError",
    "Result",
    "ShapeAssertionError",
    "Specializing",
    "Tuning",
    "build",
    "import_stablehlo",
    "import_to_tvm_dialect",
    "jit",
    "parse",
]


def __getattr__(name: str):
    # Tuning lives beside MetaSchedule; importing the package does not load TVM.
    if name == "Tuning":
        from .cpu.tuning import Tuning

        return Tuning
    raise AttributeError(f"module 'stablehlo_tvm' has no attribute {name!r}")
