"""import_stablehlo(..., keep_params_as_input=True): closed-over weights as
function parameters, as TVM's frontends hand them over."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from tvm.relax.frontend import detach_params

import stablehlo_tvm


def closed_over_mlp():
    rng = np.random.default_rng(0)
    w1 = jnp.asarray(rng.standard_normal((16, 32)) / 4, jnp.float32)
    b1 = jnp.asarray(rng.standard_normal(32), jnp.float32)
    w2 = jnp.asarray(rng.standard_normal((32, 4)) / 6, jnp.float32)

    def predict(x):
        return jax.nn.softmax(jnp.tanh(x @ w1 + b1) @ w2 * 2.0, axis=-1)

    return predict, [(16, 32), (32,), (32, 4)]


def test_weights_become_parameters_that_detach_params_returns():
    predict, shapes = closed_over_mlp()
    x = np.random.default_rng(1).standard_normal((8, 16)).astype(np.float32)
    irmodule = stablehlo_tvm.import_stablehlo(jax.jit(predict).lower(x), keep_params_as_input=True)
    main = irmodule["main"]
    assert int(main.attrs["num_input"]) == 1
    assert len(main.params) == 1 + len(shapes)
    detached, params = detach_params(irmodule)
    assert sorted(tuple(p.shape) for p in params["main"]) == sorted(shapes)
    want = np.asarray(jax.jit(predict)(x))
    # Attached, the build passes them itself; detached, the caller does.
    np.testing.assert_allclose(stablehlo_tvm.build(irmodule)(x), want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(stablehlo_tvm.build(detached)(x, *params["main"]), want, rtol=1e-5, atol=1e-6)
    # New weights at the same parameters: one build, any weights.
    doubled = [p.numpy() * 2 for p in params["main"]]
    assert not np.allclose(stablehlo_tvm.build(detached)(x, *doubled), want)


def test_the_default_keeps_constants():
    predict, _ = closed_over_mlp()
    x = np.ones((2, 16), np.float32)
    irmodule = stablehlo_tvm.import_stablehlo(jax.jit(predict).lower(x))
    assert len(irmodule["main"].params) == 1
    assert detach_params(irmodule)[1] == {}


def test_flax_model_with_closed_over_variables():
    nn = pytest.importorskip("flax.linen")

    class CNN(nn.Module):
        @nn.compact
        def __call__(self, x):
            x = nn.relu(nn.Conv(8, (3, 3))(x))
            return nn.Dense(10)(x.mean(axis=(1, 2)))

    model = CNN()
    x = jnp.asarray(np.random.default_rng(2).standard_normal((2, 12, 12, 3)), jnp.float32)
    variables = model.init(jax.random.key(0), x)
    predict = jax.jit(lambda x: model.apply(variables, x))
    irmodule = stablehlo_tvm.import_stablehlo(predict.lower(x), keep_params_as_input=True)
    _, params = detach_params(irmodule)
    n_weights = len(jax.tree_util.tree_leaves(variables))
    assert len(params["main"]) == n_weights
    np.testing.assert_allclose(stablehlo_tvm.build(irmodule)(x), np.asarray(predict(x)), rtol=1e-5, atol=1e-5)
