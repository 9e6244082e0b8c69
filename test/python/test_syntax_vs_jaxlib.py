"""jaxlib is the oracle for the text of our stablehlo dialect: what we print,
pretty or generic, jaxlib must read back as exactly the module it reads from
its own output."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax._src.interpreters import mlir as jax_mlir
from jax._src.lib.mlir import ir

from stablehlo_tvm import _core

from test_numerics import layer_norm, mlp


def _jaxlib_generic(text: str) -> str:
    with jax_mlir.make_ir_context():
        module = ir.Module.parse(text)
        return module.operation.get_asm(print_generic_op_form=True, enable_debug_info=False)


def _argmax_and_friends(x, i):
    return (
        jnp.argmax(x, axis=1),
        jnp.where(x > 0, x, 0.5 * x).astype(jnp.bfloat16),
        jnp.concatenate([x[:, 1:3], x[:, ::2]], axis=1),
        jax.lax.broadcasted_iota(jnp.int32, (3, 4), 1) + i,
        jnp.einsum("ij,kj->ik", x, x),
        (i & 3) ^ (i | 1),
    )


PROGRAMS = {
    "mlp": (mlp, [(2, 4), (4, 8), (8,), (8, 3), (3,)]),
    "layer_norm": (layer_norm, [(2, 16), (16,), (16,)]),
    "misc": (_argmax_and_friends, [(3, 5), (3, 4)]),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("form", ["pretty", "generic"])
def test_jaxlib_reads_our_text_back(name, form):
    fn, shapes = PROGRAMS[name]
    args = [np.zeros(s, np.int32 if (name == "misc" and k == 1) else np.float32) for k, s in enumerate(shapes)]
    text = jax.jit(fn).lower(*args).as_text()
    expected = _jaxlib_generic(text)
    ours = _core.Module.parse(text, name).to_text(generic=(form == "generic"))
    assert _jaxlib_generic(ours) == expected
