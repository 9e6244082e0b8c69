"""keep_params_as_input: a module's weights as function parameters, the way
TVM's frontends hand them over.

The constants of each public function (what JAX closed over: weights) become
parameters after its inputs; the function records how many inputs it has
(``num_input``) and the values (``params``), so
``relax.frontend.detach_params`` returns them and TVM's own tools (BindParams,
quantization, sharding of weights) see them as parameters.
"""

from __future__ import annotations

import numpy as np


def keep_params_as_input(irmodule, min_elements: int = 2):
    """`irmodule` with every constant of at least `min_elements` elements in
    its public functions lifted to a parameter (scalars and other tiny
    constants stay constants)."""
    from tvm import relax
    from tvm.relax.expr_functor import PyExprMutator, mutator

    @mutator
    class _Lift(PyExprMutator):
        def __init__(self, mod):
            super().__init__(mod)
            self.params: list = []
            self.values: list = []

        def visit_generic_const_(self, const):
            if int(np.prod([int(d) for d in const.value.shape], dtype=np.int64)) < min_elements:
                return const
            var = relax.Var(f"param{len(self.params)}", const.ty)
            self.params.append(var)
            self.values.append(const.value)
            return var

    updates = {}
    for gvar, func in irmodule.functions_items():
        if not isinstance(func, relax.Function) or func.attrs is None or "global_symbol" not in func.attrs:
            continue
        lift = _Lift(irmodule)
        body = lift.visit_expr(func.body)
        if not lift.params:
            continue
        lifted = relax.Function(list(func.params) + lift.params, body, func.ret_ty, func.is_pure, func.attrs)
        updates[gvar] = lifted.with_attrs({"num_input": len(func.params), "params": lift.values})
    if not updates:
        return irmodule
    result = irmodule.clone()  # the caller's module stays as it was
    for gvar, func in updates.items():
        result[gvar] = func
    return result
