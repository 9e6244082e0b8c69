"""The private TVM APIs this package uses, in one place: when TVM moves
one, this file is what changes.

- Relax's block builder entry points that skip the Python wrapper's work
  (the emitter binds many thousands of values), and setting an
  expression's type without the normalizer;
- allocating an uninitialized tensor (the runtime's argument conversion);
- the two halves of `relax.build`, so that the PrimFuncs can be compiled
  apart from the VM's code (see cpu/codegen.py);
- TVMScript's parser without its decorator (`TIRScript`)."""

from __future__ import annotations


def block_builder_api():
    """(emit, begin_dataflow_block, end_block) of Relax's BlockBuilder."""
    from tvm.relax import _ffi_api

    return _ffi_api.BlockBuilderEmit, _ffi_api.BlockBuilderBeginDataflowBlock, _ffi_api.BlockBuilderEndBlock


def set_type(expr, ty) -> None:
    """Gives `expr`, which has no type yet, the type `ty`."""
    from tvm.relax.expr import _update_type

    _update_type(expr, ty)


def alloc_tensor(shape, dtype, device):
    """An uninitialized tensor."""
    from tvm.runtime import _tensor

    return _tensor._ffi_api.TVMTensorAllocWithScope(shape, dtype, device, None)


def vm_codegen(mod):
    """`mod`'s Relax functions as VM code: (builder, its PrimFuncs as an
    IRModule or None, external modules, parameters), as `relax.build` does
    after its Relax pipeline."""
    from tvm import relax
    from tvm.relax.vm_build import _filter_tir, _vmcodegen

    attrs = dict(mod.attrs) if mod.attrs else {}
    builder = relax.ExecBuilder()
    mod = _vmcodegen(builder, mod, "bytecode")
    return builder, _filter_tir(mod), list(attrs.get("external_mods", [])), dict(attrs.get("const_name_to_constant", {}))


def vm_link(builder, target, lib, ext_libs, params):
    """The executable of VM code and a compiled library of its PrimFuncs."""
    from tvm.relax import _ffi_api
    from tvm.relax.vm_build import VMExecutable

    return VMExecutable(_ffi_api.VMLink(builder, target, lib, ext_libs, params))


class TIRScript:
    """Stands for `tvm.script.tirx` in a PrimFunc's decorator,
    `@TIRScript.prim_func(s_tir=True)`: the parser reads the decorator's
    options from the source as it does `T.prim_func`'s, but the function is
    parsed without `T.prim_func`'s `inspect.stack()`, which reads the source
    of every frame of the caller's stack (0.05 s a kernel under a deep
    stack, half of the parse). Closure variables the annotations name must
    also be used in the body."""

    @staticmethod
    def prim_func(**_options):
        from tvm.script.parser._core import parse, utils

        def parsed(func):
            names = utils.inspect_function_capture(func)
            names.setdefault("TIRScript", TIRScript)  # the parser evaluates the decorator
            return parse(func, names)

        parsed.dispatch_token = "tirx"
        return parsed
