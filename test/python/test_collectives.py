"""Programs written for several devices, on a one-device mesh: JAX writes
collectives for shard_map and pmap, and on one device they move nothing
(see lib/Conversion/StableHLOToTVM/Collectives.cpp). Every result is
compared with jax.jit's."""

from __future__ import annotations

import jax
import numpy as np
import pytest
from jax.sharding import Mesh
from jax.sharding import PartitionSpec as P

import stablehlo_tvm

_MESH = Mesh(np.array(jax.devices()[:1]), ("x",))


def _sharded(f, out=P()):
    return jax.shard_map(f, mesh=_MESH, in_specs=(P("x"),), out_specs=out, check_vma=False)


PROGRAMS = {
    "psum": _sharded(lambda a: jax.lax.psum(a, "x")),
    "pmax_pmean": _sharded(lambda a: (jax.lax.pmax(a, "x"), jax.lax.pmean(a * 2, "x"))),
    "all_gather": _sharded(lambda a: jax.lax.all_gather(a, "x", axis=1, tiled=True)),
    "psum_scatter": _sharded(lambda a: jax.lax.psum_scatter(a, "x", scatter_dimension=0, tiled=True)),
    "ppermute": _sharded(lambda a: jax.lax.ppermute(a, "x", perm=[(0, 0)])),
    "all_to_all": _sharded(lambda a: jax.lax.all_to_all(a, "x", 0, 1, tiled=True)),
    "axis_index": _sharded(lambda a: a + jax.lax.axis_index("x")),
    "mlp_psum": _sharded(lambda a: jax.lax.psum(jax.numpy.tanh(a @ a.T), "x")),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_shard_map_on_one_device(name):
    x = np.arange(24, dtype=np.float32).reshape(4, 6) / 7
    got = stablehlo_tvm.jit(PROGRAMS[name])(x)
    want = jax.jit(PROGRAMS[name])(x)
    for g, w in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-6)


def test_pmap_gradient_mean_on_one_device():
    w = np.random.default_rng(0).standard_normal((1, 8, 3)).astype(np.float32)
    x = np.random.default_rng(1).standard_normal((1, 16, 8)).astype(np.float32)

    def step(w, x):
        g = jax.grad(lambda w: jax.numpy.mean((x @ w) ** 2))(w)
        return w - 0.1 * jax.lax.pmean(g, "batch")

    step = jax.pmap(step, axis_name="batch")
    np.testing.assert_allclose(np.asarray(stablehlo_tvm.jit(step)(w, x)), np.asarray(jax.jit(step)(w, x)), rtol=1e-6)


@pytest.mark.parametrize(
    "module, reason",
    [
        (
            "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
            '  %0 = "stablehlo.all_reduce"(%x) ({\n'
            "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
            "    %s = stablehlo.add %a, %b : tensor<f32>\n"
            "    stablehlo.return %s : tensor<f32>\n"
            "  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>\n"
            "  return %0 : tensor<4xf32>\n}",
            "process groups name processes other than 0",
        ),
        (
            "module attributes {mhlo.num_partitions = 2 : i32} {\n"
            "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
            '  %0 = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<0> : tensor<1x1xi64>} : (tensor<4xf32>) -> tensor<4xf32>\n'
            "  return %0 : tensor<4xf32>\n}}",
            "the module runs on 2 partitions",
        ),
    ],
)
def test_a_program_for_more_processes_is_refused_with_the_reason(module, reason):
    with pytest.raises(stablehlo_tvm.MLIRError, match=reason):
        stablehlo_tvm.import_stablehlo(module)
