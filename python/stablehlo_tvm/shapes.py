"""Dynamic shapes: specializing a shape-polymorphic module to its arguments.

A module whose entry has dynamic dimensions (``tensor<?x4xf32>``, what
``jax.export`` writes for symbolic shapes) is made static for given
arguments by the C++ pass stablehlo-refine-shapes: the argument shapes, and
the values of the scalar dimension arguments older exports pass, determine
every shape. This module turns arguments into what that pass takes.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .errors import InputError


def entry_function(functions: list[dict], entry: str | None = None) -> dict | None:
    """The function `entry` names, else "main", else the only public one."""
    by_name = {f["name"]: f for f in functions}
    if entry is not None:
        return by_name.get(entry)
    if "main" in by_name:
        return by_name["main"]
    public = [f for f in functions if f["public"]]
    return public[0] if len(public) == 1 else None


def is_dynamic(function: dict) -> bool:
    """Whether an argument or result of the function has a dynamic dimension."""
    types = [t for _, t in function["arguments"]] + list(function["results"])
    return any(-1 in _shape_of(t) for t in types)


def _shape_of(type_info) -> tuple:
    return tuple(type_info[0]) if isinstance(type_info, tuple) and type_info and isinstance(type_info[0], (list, tuple)) else ()


def _argument_shape(arg: Any) -> tuple[int, ...]:
    shape = getattr(arg, "shape", None)
    return tuple(int(n) for n in (np.shape(arg) if shape is None else shape))


def specialization(module, entry: str, args: Sequence[Any]) -> tuple[list[list[int]], list[tuple[int, int]]]:
    """The argument shapes and dimension-argument values of `args`, as
    `_core.Module.specialize` takes them."""
    dims = module.dimension_arguments(entry)
    values = []
    for i in dims:
        if i >= len(args):
            break
        try:
            values.append((i, int(np.asarray(args[i]))))
        except (TypeError, ValueError):
            raise InputError(
                f"argument {i} of @{entry} is a dimension size (it determines shapes): give its value, not {args[i]!r}"
            ) from None
    return [list(_argument_shape(a)) for a in args], values


def key(args: Sequence[Any], dimension_arguments: Sequence[int]) -> tuple:
    """What a specialization depends on: shapes and dimension values."""
    return (
        tuple(_argument_shape(a) for a in args),
        tuple(int(np.asarray(args[i])) for i in dimension_arguments if i < len(args)),
    )
