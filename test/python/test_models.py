"""Whole programs as JAX users write them, forward and backward, against
jax.jit: they exercise every import path at once."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from conftest import assert_matches_jax, random_args


def cnn(params, images, labels):
    w1, w2, dense = params
    x = lax.conv_general_dilated(images, w1, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    x = lax.reduce_window(jax.nn.relu(x), -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    x = lax.conv_general_dilated(x, w2, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    x = jnp.mean(jax.nn.relu(x), axis=(1, 2))
    logits = x @ dense
    loss = -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], axis=1))
    return loss, jnp.argmax(logits, axis=1)


def test_cnn_training_step():
    images, w1, w2, dense = random_args(
        [((4, 12, 12, 3), "float32"), ((3, 3, 3, 8), "float32"), ((3, 3, 8, 16), "float32"), ((16, 10), "float32")], seed=1
    )
    labels = np.array([1, 7, 3, 3], np.int32)

    def step(w1, w2, dense, images, labels):
        (loss, predictions), grads = jax.value_and_grad(cnn, has_aux=True)((w1, w2, dense), images, labels)
        return (loss, predictions, *grads)

    assert_matches_jax(step, w1, w2, dense, images, labels, rtol=2e-4, atol=2e-5)


def transformer(params, tokens):
    embedding, wq, wk, wv, wo, w1, w2 = params
    x = embedding[tokens]  # (batch, seq, d)

    def layer_norm(x):
        mean = x.mean(-1, keepdims=True)
        return (x - mean) * lax.rsqrt(((x - mean) ** 2).mean(-1, keepdims=True) + 1e-5)

    h = layer_norm(x)
    q, k, v = h @ wq, h @ wk, h @ wv
    scores = jnp.einsum("bqd,bkd->bqk", q, k) / np.sqrt(q.shape[-1]).astype(np.float32)
    mask = jnp.tril(jnp.ones(scores.shape[-2:], bool))
    attention = jax.nn.softmax(jnp.where(mask, scores, -1e9), axis=-1)
    x = x + jnp.einsum("bqk,bkd->bqd", attention, v) @ wo
    x = x + jax.nn.gelu(layer_norm(x) @ w1, approximate=False) @ w2
    return (x @ embedding.T).astype(jnp.float32)


def test_transformer_forward_and_embedding_gradient():
    params = random_args(
        [((50, 16), "float32"), ((16, 16), "float32"), ((16, 16), "float32"), ((16, 16), "float32"),
         ((16, 16), "float32"), ((16, 32), "float32"), ((32, 16), "float32")],
        seed=2,
    )
    params = [p * 0.3 for p in params]
    tokens = np.array([[3, 7, 7, 49, 0, 12], [5, 5, 5, 1, 2, 3]], np.int32)

    def f(tokens, *params):
        logits = transformer(params, tokens)
        loss = jnp.mean(jax.nn.logsumexp(logits, axis=-1))
        return logits, jnp.argmax(logits, axis=-1), jax.grad(lambda e: jnp.mean(jax.nn.logsumexp(transformer((e, *params[1:]), tokens), axis=-1)))(params[0]), loss

    assert_matches_jax(f, tokens, *params, rtol=2e-4, atol=2e-5)
