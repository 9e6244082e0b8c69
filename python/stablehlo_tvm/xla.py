"""XLA:CPU as an oracle: run StableHLO text with jaxlib, for the conformance
runner and the tests to compare the import with.

A module with dynamic shapes is first specialized to the arguments by
StableHLO's own passes in jaxlib (scalar integer arguments become constants
of the values given, argument types take the given shapes, then
stablehlo-refine-shapes and stablehlo-canonicalize-dynamism), which is how
JAX compiles a shape-polymorphic export.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np


def _context():
    from jax._src.interpreters import mlir as jax_mlir
    from jaxlib.mlir.dialects import stablehlo

    stablehlo.register_stablehlo_passes()
    return jax_mlir.make_ir_context()


def specialized_text(text: str, args: Sequence[np.ndarray]) -> str:
    """`text` with @main (or its only function) specialized to `args`."""
    from jaxlib.mlir import ir, passmanager
    from jaxlib.mlir.dialects import func, stablehlo

    with _context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        functions = [op for op in module.body.operations if isinstance(op, func.FuncOp)]
        entry = next((f for f in functions if f.sym_name.value == "main"), functions[0])
        block = entry.regions[0].blocks[0]
        types = []
        with ir.InsertionPoint.at_block_begin(block):
            for arg, value in zip(block.arguments, args):
                value = np.asarray(value)
                if value.ndim == 0 and value.dtype.kind in "iu":
                    constant = stablehlo.ConstantOp(ir.DenseElementsAttr.get(np.array(value), type=ir.RankedTensorType(arg.type).element_type))
                    arg.replace_all_uses_with(constant.result)
                element = ir.RankedTensorType(arg.type).element_type
                arg.set_type(ir.RankedTensorType.get(list(value.shape), element))
                types.append(arg.type)
        results = list(ir.FunctionType(ir.TypeAttr(entry.attributes["function_type"]).value).results)
        entry.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(types, results))
        passmanager.PassManager.parse(
            "builtin.module(stablehlo-refine-shapes,func.func(stablehlo-canonicalize-dynamism),stablehlo-refine-shapes)"
        ).run(module.operation)
        return str(module)


def run(text: str, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The results of `text`'s entry on `args`, computed by XLA:CPU."""
    import jax
    from jax._src import compiler
    from jax._src.lib import xla_client

    text = specialized_text(text, args)
    device = jax.devices("cpu")[0]
    options = compiler.get_compile_options(num_replicas=1, num_partitions=1)
    executable = device.client.compile_and_load(text, xla_client.DeviceList((device,)), options)
    # Buffers of the arguments' own dtypes: jax.device_put narrows 64-bit
    # types unless x64 is on.
    with jax.enable_x64(True):
        buffers = [jax.device_put(np.asarray(a), device) for a in args]
    outputs = executable.execute_sharded(buffers)
    return [np.asarray(o[0]) for o in outputs.disassemble_into_single_device_arrays()]
