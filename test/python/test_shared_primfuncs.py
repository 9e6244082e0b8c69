"""ShareEqualPrimFuncs (cpu/shared_primfuncs.py): fused PrimFuncs equal but
for their names are compiled once, and every call reaches the one kept."""

from __future__ import annotations

import itertools

import jax
import jax.numpy as jnp
import tvm
import tvm_ffi
from tvm import relax, tirx

import stablehlo_tvm
from conftest import assert_matches_jax, random_args
from stablehlo_tvm.cpu import host_target
from stablehlo_tvm.cpu.bindings import module_bound_values
from stablehlo_tvm.cpu.pipeline import fusion_passes
from stablehlo_tvm.cpu.shared_primfuncs import ShareEqualPrimFuncs


def _blocks(x, w1, w2, w3):
    # Three convolutions of one shape: each made a product of its own
    # patches (ConvAsMatmul), their patch gathers alike.
    for w in (w1, w2, w3):
        y = jax.lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        x = jnp.tanh(y) * 0.5 + x
    return x


def _args():
    return random_args([((2, 12, 12, 16), "float32")] + [((3, 3, 16, 16), "float32")] * 3)


def _fused(without_sharing: bool) -> tvm.IRModule:
    mod = stablehlo_tvm.import_stablehlo(jax.jit(_blocks).lower(*_args()))
    passes = fusion_passes()
    assert passes[-1] is ShareEqualPrimFuncs
    with host_target():
        return tvm.transform.Sequential(passes[:-1] if without_sharing else passes)(mod)


def _equal_pairs(mod: tvm.IRModule) -> int:
    plain = [f.without_attr("global_symbol") for _, f in mod.functions_items() if isinstance(f, tirx.PrimFunc)]
    return sum(tvm_ffi.structural_equal(a, b) for a, b in itertools.combinations(plain, 2))


def _callees(mod: tvm.IRModule) -> set:
    return {
        value.args[0]
        for value in module_bound_values(mod)
        if isinstance(value, relax.Call) and value.args and isinstance(value.args[0], tvm.ir.GlobalVar)
    }


def test_equal_fused_functions_become_one():
    before, after = _fused(without_sharing=True), _fused(without_sharing=False)
    assert _equal_pairs(before) > 0
    assert _equal_pairs(after) == 0
    primfuncs = lambda mod: sum(isinstance(f, tirx.PrimFunc) for _, f in mod.functions_items())  # noqa: E731
    assert primfuncs(after) < primfuncs(before)
    # Every call names a function the module still has.
    assert all(gvar in after.get_global_vars() for gvar in _callees(after))


def test_shared_functions_compute_each_call_right():
    assert_matches_jax(_blocks, *_args(), rtol=1e-5, atol=1e-5)


def test_a_module_without_equal_functions_is_unchanged():
    mod = stablehlo_tvm.import_stablehlo(jax.jit(lambda x: jnp.sin(x) + 1).lower(*random_args([((4,), "float32")])))
    with host_target():
        fused = tvm.transform.Sequential(fusion_passes()[:-1])(mod)
    assert ShareEqualPrimFuncs(fused).same_as(fused)
