"""Python callbacks (jax.pure_callback, eqx.error_if, ...) called from
compiled code.

The import turns each callback custom call into a packed call of
``stablehlo_tvm.host_callback`` with the callback's index among the
functions JAX collected while lowering; the emitter replaces that index with
the function's number in this process's table, so a module holds no Python
object and any build of it calls the same function. The table keeps each
function for the life of the process, as JAX's own does.
"""

from __future__ import annotations

import itertools
import threading

import numpy as np

from .dtypes import numpy_dtype
from .errors import EmitError

PACKED_FUNCTION = "stablehlo_tvm.host_callback"

_table: dict[int, object] = {}
_numbers = itertools.count()
_lock = threading.Lock()
_registered = False


def number(function) -> int:
    """`function`'s number in the table (added on first sight)."""
    with _lock:
        for k, f in _table.items():
            if f is function:
                return k
        k = next(_numbers)
        _table[k] = function
        return k


def resolve(index: int, callbacks: tuple, where: str) -> int:
    """The table number of the module's callback `index`."""
    if not 0 <= index < len(callbacks):
        raise EmitError(
            f"{where}: the program calls back into Python (callback {index}), and the import was not "
            "given that function: import the jax.stages.Lowered (or the function and its example "
            "arguments), or use stablehlo_tvm.jit, rather than the module's text"
        )
    register()
    return number(callbacks[index])


def register() -> None:
    """Registers the packed function compiled code calls."""
    global _registered
    if _registered:
        return
    import tvm

    with _lock:
        if not _registered:
            tvm.register_global_func(PACKED_FUNCTION, _call, override=True)
            _registered = True


def _call(*args) -> None:
    # Destination-passing: the inputs, the function's number, the outputs.
    k = next(i for i, a in enumerate(args) if isinstance(a, int))
    inputs, function, outputs = args[:k], _table[args[k]], args[k + 1 :]
    # Copies (`numpy()`, `copyfrom`): a callback may keep what it is given
    # beyond the call, and a tensor compiled code passes by pointer (a call
    # from inside a loop's PrimFunc) cannot be exported through DLPack.
    results = function(*[t.numpy() for t in inputs])
    if not results and all(0 in tuple(out.shape) for out in outputs):
        return  # a callback without results (jax.debug.print): its outputs are stablehlo-expose-effects' tokens
    if len(results) != len(outputs):
        raise RuntimeError(f"a Python callback returned {len(results)} values where the program expects {len(outputs)}")
    for out, value in zip(outputs, results):
        value = np.asarray(value).astype(numpy_dtype(str(out.dtype))).reshape(tuple(out.shape))
        out.copyfrom(np.array(value, order="C"))
