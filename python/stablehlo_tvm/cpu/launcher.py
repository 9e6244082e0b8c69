"""Compiled libraries launch their parallel loops through the package's
launcher (python/ParallelLaunch.cpp), in which every thread claims chunks
until none is left, instead of TVM's, which gives each thread one fixed
chunk and waits for the slowest.

A library calls its launcher through a pointer it holds
(`__TVMBackendParallelLaunch`), which TVM's runtime sets when it loads the
library. Each part `codegen` compiles gets one more function, named for
the part, that sets that pointer to the address it is given (LLVM IR linked
into the part, whose pointer it is); the package calls it once the library
is loaded. (An exported library links its parts into one: their pointers
and setters, defined as LLVM's linkonce, become one.)

With STABLEHLO_TVM_PARALLEL_LAUNCH=tvm in the environment, libraries keep
TVM's launcher (benchmarks/busy_machine.py compares the two).
"""

from __future__ import annotations

import functools
import os

import tvm
from tvm import tirx

_INSTALLER = "__stablehlo_tvm_use_parallel_launch"
_SETTER = "__stablehlo_tvm_set_parallel_launch"

# The pointer is TVM's (LinkOnceAny, null until the runtime sets it); the
# same definition here keeps a part without parallel loops linkable.
_SETTER_IR = f"""
@__TVMBackendParallelLaunch = linkonce global ptr null, align 8

define linkonce_odr i32 @{_SETTER}(i64 %launcher) {{
entry:
  %pointer = inttoptr i64 %launcher to ptr
  store ptr %pointer, ptr @__TVMBackendParallelLaunch, align 8
  ret i32 0
}}
"""


@functools.cache
def _installer(name: str) -> tirx.PrimFunc:
    launcher = tirx.Var("launcher", "int64")
    body = tirx.Evaluate(tirx.call_extern("int32", _SETTER, launcher))
    body = tirx.AttrStmt(tirx.const(0, "int32"), "pragma_import_llvm", tvm.ir.StringImm(_SETTER_IR), body)
    return tirx.PrimFunc([launcher], body).with_attr("global_symbol", name)


def with_installer(part: tvm.IRModule, index: int) -> tuple[tvm.IRModule, str]:
    """`part` (the `index`-th of a build) with the function that installs
    the launcher, and that function's name."""
    name = f"{_INSTALLER}_{index}"
    functions = dict(part.functions_items())
    functions[tvm.ir.GlobalVar(name)] = _installer(name)
    return tvm.IRModule(functions, attrs=part.attrs), name


def install(lib, name: str) -> None:
    """Points the parallel loops of `lib` (a part built `with_installer`,
    loaded) at the package's launcher; `name` is its installer."""
    from .._core import parallel_launch_address

    if os.environ.get("STABLEHLO_TVM_PARALLEL_LAUNCH") == "tvm":
        return
    lib.get_function(name)(parallel_launch_address())
