"""Real programs through stablehlo_tvm.jit, compared with jax.jit: the model
suite's cases written with Flax (linen and NNX), Equinox, optax and
jax.scipy (benchmarks/model_cases.py), with their pytrees of parameters and
state."""

from __future__ import annotations

import sys
from pathlib import Path

import jax
import numpy as np
import pytest

import stablehlo_tvm

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import model_cases  # noqa: E402

_CASES = {c.name: c for c in model_cases.CASES}
_HERE = [
    "flax_nnx_cnn",
    "flax_vit",
    "equinox_mlp",
    "flax_lstm_scan",
    "optax_train_step",
    "mixed_precision_mlp",
    "optax_lbfgs",
    "equinox_attention_gru",
    "scipy_linalg_mix",
    "kv_cache_decode",
]
_NEEDS = {
    "equinox_mlp": "equinox",
    "equinox_attention_gru": "equinox",
    "optax_train_step": "optax",
    "optax_lbfgs": "optax",
    "scipy_linalg_mix": "jax",
    "kv_cache_decode": "jax",
}


@pytest.mark.parametrize("name", _HERE)
def test_case_matches_jax(name):
    pytest.importorskip(_NEEDS.get(name, "flax"))
    case = _CASES[name]
    fun, args = case.make()
    got, want = stablehlo_tvm.jit(fun)(*args), jax.jit(fun)(*args)
    assert jax.tree_util.tree_structure(got) == jax.tree_util.tree_structure(want)
    for g, w in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)):
        w = np.asarray(w, np.float64)
        scale = max(float(np.max(np.abs(w), initial=0.0)), 1e-6)
        assert np.max(np.abs(np.asarray(g, np.float64) - w), initial=0.0) <= case.rtol * scale


def test_training_steps_feed_back_into_the_same_build():
    pytest.importorskip("optax")
    step, (params, state, x, y) = _CASES["optax_train_step"].make()
    fast, reference = stablehlo_tvm.jit(step), jax.jit(step)
    ours, theirs = (params, state), (params, state)
    for _ in range(3):
        *ours, loss = fast(*ours, x, y)
        *theirs, expected = reference(*theirs, x, y)
        np.testing.assert_allclose(loss, expected, rtol=1e-4)
    assert fast._cache_size() == 1
