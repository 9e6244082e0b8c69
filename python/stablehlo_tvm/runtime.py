"""build: compile a Relax module with TVM and call it like a function."""

from __future__ import annotations

from typing import Any

import numpy as np


class Compiled:
    """A compiled entry function: takes array-likes, returns numpy arrays
    (a tuple when the function has several results)."""

    def __init__(self, executable, device, entry: str, irmodule):
        from tvm import relax

        self.executable = executable
        self.device = device
        self.entry = entry
        self.irmodule = irmodule
        self._vm = relax.VirtualMachine(executable, device)
        self._function = self._vm[entry]

    def __call__(self, *args: Any):
        return self.call(self.entry, *args)

    def call(self, name: str, *args: Any):
        """Calls another function of the module by name."""
        import tvm

        # order="C" copies only when needed and, unlike ascontiguousarray, keeps
        # 0-d arrays 0-d.
        tensors = [tvm.runtime.tensor(np.asarray(a, order="C"), self.device) for a in args]
        function = self._function if name == self.entry else self._vm[name]
        result = function(*tensors)
        if hasattr(result, "numpy"):
            return result.numpy()
        return tuple(r.numpy() for r in result)


def build(source: Any, *example_args: Any, target: Any = "llvm", entry: str = "main") -> Compiled:
    """Compiles ``source`` (a ``tvm.IRModule`` or anything ``import_stablehlo``
    takes) with ``tvm.compile`` and returns a callable over its entry function."""
    import tvm

    from .api import import_stablehlo

    irmodule = source if isinstance(source, tvm.IRModule) else import_stablehlo(source, *example_args)
    executable = tvm.compile(irmodule, target=target)
    return Compiled(executable, tvm.cpu(), entry, irmodule)
