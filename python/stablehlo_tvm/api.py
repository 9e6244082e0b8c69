"""import_stablehlo: StableHLO in, a Relax IRModule out."""

from __future__ import annotations

import contextlib
import gc

from typing import Any, Sequence

from . import _core
from .emitter import emit_module
from .errors import InputError
from .inputs import Source, to_source
from .shapes import entry_function, specialization


def parse(source: Any, *example_args: Any) -> "_core.Module":
    """Parses and verifies ``source`` (any form ``import_stablehlo`` takes)."""
    return _parse(to_source(source, *example_args))


def _parse(source: Source) -> "_core.Module":
    return _core.Module.parse(source.text, source.name, constants=list(source.constants))


def import_to_tvm_dialect(source: Any, *example_args: Any, specialize: Sequence | None = None) -> "_core.Module":
    """Runs the import pipeline and returns the module in the tvm dialect."""
    source = to_source(source, *example_args)
    return _imported(_parse(source), specialize)


def _imported(module: "_core.Module", specialize: Sequence | None = None, entry: str | None = None) -> "_core.Module":
    if specialize is not None:
        _specialize(module, specialize, entry)
    module.run_pipeline(_core.IMPORT_PIPELINE)
    return module


def _specialize(module: "_core.Module", args: Sequence, entry: str | None) -> None:
    function = entry_function(module.functions(ops=False), entry)
    if function is None:
        raise InputError(f"the module has no function {entry!r} to specialize" if entry else "the module has no main or single public function to specialize")
    if len(args) != len(function["arguments"]):
        raise InputError(f"@{function['name']} takes {len(function['arguments'])} arguments; specialize gave {len(args)}")
    shapes, values = specialization(module, function["name"], args)
    module.specialize(function["name"], shapes, values)


def import_stablehlo(
    source: Any,
    *example_args: Any,
    keep_params_as_input: bool = False,
    specialize: Sequence | None = None,
    entry: str | None = None,
):
    """Imports StableHLO into a Relax ``tvm.IRModule``.

    ``source`` is MLIR text, a path, bytecode or a portable artifact, a jaxlib
    ``ir.Module``, a ``jax.stages.Lowered``, a ``jax.export.Exported``, or a
    function followed by example arguments. The module's public functions
    become Relax functions of the same name and signature ("main" for JAX).

    ``keep_params_as_input``: the constants of the public functions (what
    JAX closed over: weights) become parameters after the inputs, as TVM's
    frontends make them: each function records ``num_input`` and its
    ``params``, which ``relax.frontend.detach_params`` returns; ``build``
    passes them itself while they are attached.

    ``specialize``: arguments of the entry function (``entry``, by default
    "main" or the only public function), as arrays or anything with a
    ``shape`` (``jax.ShapeDtypeStruct``); the dimension arguments of an
    older shape-polymorphic export (scalars that determine shapes) as
    their values. A module with dynamic shapes is made static for them
    (stablehlo-refine-shapes); a shape assertion they violate is an
    ``MLIRError`` with JAX's message.

    Raises ``MLIRError`` (with source locations) for malformed input and for
    ops the import does not support, all of them listed at once, and
    ``InputError`` for input of no form it reads (empty, not MLIR, a damaged
    artifact) or without a public function.
    """
    source = to_source(source, *example_args)
    return _import_parsed(_parse(source), source, keep_params_as_input, specialize, entry)


def _import_parsed(module: "_core.Module", source: Source, keep_params_as_input: bool = False, specialize: Sequence | None = None, entry: str | None = None):
    from .cpu.fastmath import register

    module = _imported(module, specialize, entry)
    # f32 tanh stays R.tanh (see lib/Conversion/StableHLOToTVM/Math.cpp): the
    # accurate lowering it relies on is installed with the module.
    register()
    # The walk and the emitter make a few Python objects per op, none of
    # them cyclic: the cycle collector would rescan them all many times.
    functions = module.functions(ops=False)
    if not functions:
        raise InputError("the module has no public function to import")
    with _collector_paused():
        irmodule = emit_module(functions, module, callbacks=source.callbacks)
    if keep_params_as_input:
        from .params import keep_params_as_input as lift

        irmodule = lift(irmodule)
    return irmodule


@contextlib.contextmanager
def _collector_paused():
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
