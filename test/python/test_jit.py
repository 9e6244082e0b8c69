"""stablehlo_tvm.jit: jax.jit's calling convention, with TVM underneath.

Every result is compared with jax.jit's on the same call: values, dtypes
and the tree structure."""

from __future__ import annotations

from collections import namedtuple
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import stablehlo_tvm
import tvm
from stablehlo_tvm import CallError

Pair = namedtuple("Pair", "first second")


def assert_same(ours, theirs, rtol=1e-6):
    """Same tree, and leaf by leaf the same dtype and values."""
    assert jax.tree_util.tree_structure(ours) == jax.tree_util.tree_structure(theirs)
    for a, b in zip(jax.tree_util.tree_leaves(ours), jax.tree_util.tree_leaves(theirs)):
        assert np.asarray(a).dtype == np.asarray(b).dtype
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=1e-6)


def mlp(params, x):
    for layer in params["layers"]:
        x = jnp.tanh(x @ layer["w"] + layer["b"])
    return {"logits": x @ params["head"], "stats": Pair(x.mean(), (x.max(), None))}


def make_params(key, sizes=(8, 16, 16), classes=4):
    keys = jax.random.split(key, len(sizes))
    layers = [
        {"w": jax.random.normal(k, (m, n)) / np.sqrt(m), "b": jnp.zeros(n)}
        for k, m, n in zip(keys, sizes[:-1], sizes[1:])
    ]
    return {"layers": layers, "head": jax.random.normal(keys[-1], (sizes[-1], classes))}


def test_pytrees_in_and_out():
    params = make_params(jax.random.key(0))
    x = np.random.default_rng(0).standard_normal((5, 8)).astype(np.float32)
    fast = stablehlo_tvm.jit(mlp)
    assert_same(fast(params, x), jax.jit(mlp)(params, x), rtol=1e-5)
    # The same signature again runs the same build.
    assert_same(fast(params, 2 * x), jax.jit(mlp)(params, 2 * x), rtol=1e-5)
    assert fast._cache_size() == 1


def test_array_likes_cast_as_jax_casts_them():
    def f(x, scale, offset):
        return x * scale + offset

    fast = stablehlo_tvm.jit(f)
    x64 = np.linspace(-1, 1, 7)  # float64: f32 without jax_enable_x64
    with jax.enable_x64(False):
        check_casts(fast, f, x64)


def check_casts(fast, f, x64):
    for args in [(x64, 2.0, 1), (x64.astype(np.float32), 3.0, 2)]:
        assert_same(fast(*args), jax.jit(f)(*args))
    # A float64 and a float32 array are one signature to JAX: one build.
    assert fast._cache_size() == 1
    # numpy scalars are not weakly typed; a bool is another dtype.
    for args in [(x64, np.float64(3.0), np.int64(2)), (jnp.arange(7.0), 0.5, True)]:
        assert_same(fast(*args), jax.jit(f)(*args))
    assert fast._cache_size() == 3


def test_static_arguments_by_number_and_name():
    @partial(stablehlo_tvm.jit, static_argnums=1, static_argnames="mode")
    def f(x, power, mode="sum"):
        y = x**power
        return y.sum() if mode == "sum" else y.max()

    def reference(x, power, mode="sum"):
        return jax.jit(f.__wrapped__, static_argnums=1, static_argnames="mode")(x, power, mode=mode)

    x = np.arange(1, 5, dtype=np.float32)
    assert_same(f(x, 2), reference(x, 2))
    assert_same(f(x, 3), reference(x, 3))
    assert_same(f(x, 2, mode="max"), reference(x, 2, mode="max"))
    assert f._cache_size() == 3
    # A static argument by name (another signature to jax.jit as well).
    assert_same(f(x, power=2), reference(x, 2))
    with pytest.raises(CallError, match="hashable"):
        f(x, [2])


def test_unused_arguments_that_jax_drops():
    # jax.jit lowers g to main(arg0): y and z are not arguments of the module.
    def g(x, y, z):
        return 2 * x

    fast = stablehlo_tvm.jit(g)
    args = (np.ones(3, np.float32), np.ones((2, 2), np.float32), {"unused": np.zeros(4)})
    assert_same(fast(*args), jax.jit(g)(*args))
    assert "%arg1" not in fast.lower(*args).as_text()


def test_keyword_arguments_and_decorator_forms():
    @stablehlo_tvm.jit
    def f(x, *, bias, scale=1.0):
        return (x + bias) * scale

    x = np.arange(4, dtype=np.float32)
    assert_same(f(x, bias=1.0, scale=2.0), jax.jit(f.__wrapped__)(x, bias=1.0, scale=2.0))
    assert_same(f(x, bias=np.ones(4, np.float32)), jax.jit(f.__wrapped__)(x, bias=np.ones(4, np.float32)))


def test_results_are_read_only_like_jax_arrays():
    out = stablehlo_tvm.jit(lambda x: x + 1)(np.zeros(3, np.float32))
    with pytest.raises(ValueError):
        out[0] = 5


def test_weights_passed_again_are_not_converted_again():
    params = make_params(jax.random.key(1))
    x = jnp.ones((2, 8))
    fast = stablehlo_tvm.jit(mlp)
    first = fast(params, x)
    entry = next(iter(fast._by_signature.values()))
    _, signature = entry.compiled._function("main")
    held = list(signature.resident)
    assert all(h is not None for h in held)
    fast(params, x)
    assert all(a[1] is b[1] for a, b in zip(held, signature.resident))
    # New weights at the same positions are new values, not stale tensors.
    new_params = jax.tree_util.tree_map(lambda w: w * 2, params)
    assert_same(fast(new_params, x), jax.jit(mlp)(new_params, x), rtol=1e-5)
    assert_same(fast(params, x), first)


def test_a_call_with_the_same_jax_arrays_reuses_its_tensors(monkeypatch):
    # Calls repeating a tree keep their argument tensors; the next call with
    # the very same jax arrays converts none of them, a new jax array is
    # converted (in Python, once), numpy arguments are copied at every call
    # (natively: RepeatedCall.h).
    from stablehlo_tvm.runtime import _Signature

    params = make_params(jax.random.key(2))
    x = jnp.ones((2, 8))
    fast = stablehlo_tvm.jit(mlp)
    first = fast(params, x)
    repeat = fast._repeat
    assert repeat is not None and all(isinstance(t, tvm.runtime.Tensor) for t in repeat.tensors)
    assert repeat.native is not None
    converted = []
    original = _Signature._tensor

    def counting(self, *args, **kwargs):
        converted.append(args[2])  # the argument position
        return original(self, *args, **kwargs)

    monkeypatch.setattr(_Signature, "_tensor", counting)
    assert_same(fast(params, x), first)
    assert converted == []  # the same arrays: nothing converted
    y = x + 1  # a new array of the same shape: a new result
    assert_same(fast(params, y), jax.jit(mlp)(params, y), rtol=1e-5)
    assert converted == [5]
    assert_same(fast(params, y), jax.jit(mlp)(params, y), rtol=1e-5)
    assert converted == [5]
    assert fast._repeat.native is repeat.native
    # A numpy argument where a jax array was is another description: its
    # first call converts every leaf (a new repeat); from then on the numpy
    # argument (mutable) is read anew at every call, natively.
    z = np.ones((2, 8), np.float32)
    assert_same(fast(params, z), first)
    assert len(converted) == 7
    z[:] = 2.0
    assert_same(fast(params, z), jax.jit(mlp)(params, z), rtol=1e-5)
    assert len(converted) == 7


def test_repeated_calls_take_numpy_arrays_and_scalars_natively():
    # The native path of repeated calls: small numpy arrays copied (cast to
    # the parameter's dtype as jax.jit casts), large ones read in place,
    # Python scalars written into their parameter, results of the call
    # before passed back as their own tensors; a result that is an argument
    # is a copy, unchanged when the argument changes later.
    def f(w, x, scale, n, shift):
        return w * scale + jnp.sum(x) * n + shift, x

    fast, ref = stablehlo_tvm.jit(f), jax.jit(f)
    w = np.linspace(0, 1, 16, dtype=np.float32)
    big = np.ones((64, 128), np.float32)  # 32 KiB: in place
    for step in range(4):
        x = big * step if step % 2 else np.full((64, 128), step, np.float64)  # cast to f32
        shift = np.float32(step) / 4  # a numpy scalar
        out_tvm = fast(w, x, 0.5 + step, step, shift)
        out_jax = ref(w, x, 0.5 + step, step, shift)
        assert fast._repeat.native is not None
        assert_same(out_tvm[0], out_jax[0], rtol=1e-6)
        assert_same(out_tvm[1], out_jax[1])
        w = out_tvm[0]  # a result passed back in
    kept = np.array(out_tvm[1])
    x[:] = -1.0
    assert_same(out_tvm[1], kept)  # not an alias of the caller's array


def test_a_leaf_set_from_python_is_taken_for_the_next_call():
    # A leaf the native path cannot convert itself is handed back to
    # Python (its index), which sets its tensor: the next call takes it as
    # set even where it is not to be reused, and only that call.
    def f(x, y):
        return x * 2 + y

    fast = stablehlo_tvm.jit(f)
    x, y = jnp.arange(4, dtype=jnp.float32), np.float32(1.5)  # a numpy scalar: converted natively
    assert_same(fast(x, y), np.arange(4.0, dtype=np.float32) * 2 + 1.5)
    native = fast._repeat.native
    leaves = [jnp.arange(4, dtype=jnp.float32) + 1, y]
    assert native.call(leaves) == 0  # a new jax array: Python's to convert
    entry = fast._repeat.entry
    _, signature = entry.compiled._function(entry.compiled.entry)
    tensor = signature._tensor("main", 0, 0, leaves[0], signature.params[0], True, [], reuse=False)
    native.set(0, leaves[0], tensor, False, False)
    assert_same(native.call(leaves)[0], np.arange(4.0, dtype=np.float32) * 2 + 3.5)
    assert native.call(leaves) == 0  # not reusable: converted again


def test_a_failed_repeated_call_raises_and_the_next_one_runs():
    # An error of the VM call on the native path (here a Python callback's)
    # is the exception the Python path raises, of the same type; the call
    # after it runs.
    def check(x):
        if np.any(x < 0):
            raise ValueError("negative input")
        return x

    def guarded(x, scale):
        return jax.pure_callback(check, jax.ShapeDtypeStruct(x.shape, x.dtype), x) * scale

    fast = stablehlo_tvm.jit(guarded)
    x = np.ones(3, np.float32)
    assert_same(fast(x, 2.0), np.full(3, 2, np.float32))
    assert fast._repeat.native is not None
    with pytest.raises(ValueError, match="negative input"):
        fast(-x, 2.0)
    assert_same(fast(x, 3.0), np.full(3, 3, np.float32))


def test_results_passed_back_are_their_own_tensors():
    # A training loop passes each step's results back in: they are read-only
    # views of the step's result tensors, which the next call takes as they
    # are (no copy, no DLPack import).
    def step(w, x):
        return w - 0.01 * (x.T @ jnp.tanh(x @ w)), jnp.sum(w)

    fast = stablehlo_tvm.jit(step)
    x = np.ones((4, 8), np.float32)
    w_tvm = w_jax = np.eye(8, dtype=np.float32)
    for _ in range(4):
        w_tvm, _ = fast(w_tvm, x)
        w_jax, _ = jax.jit(step)(w_jax, x)
    assert_same(w_tvm, w_jax, rtol=1e-6)
    entry = next(iter(fast._by_signature.values()))
    _, signature = entry.compiled._function("main")
    held = signature._tensor("main", 0, 0, w_tvm, signature.params[0], False, [])
    assert held.data_ptr() == w_tvm.ctypes.data  # its own memory, not a copy
    assert signature._tensor("main", 0, 0, w_tvm, signature.params[0], False, []) is held
    # Views and arithmetic make arrays that are converted as any other.
    view = w_tvm.view(type(w_tvm))
    assert signature._tensor("main", 0, 0, view, signature.params[0], False, []) is not held
    assert "_tensor" not in (w_tvm + 1).__dict__
    # It cannot be changed in place; a changed copy is a value of its own.
    with pytest.raises(ValueError):
        w_tvm.flags.writeable = True
    changed = (np.array(w_tvm) * 2).view(type(w_tvm))
    assert_same(fast(changed, x)[1], np.sum(changed))


@pytest.mark.parametrize(
    "dtype", ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool"]
)
def test_results_are_read_only_arrays_over_their_tensors(dtype):
    # Results of every dtype numpy has are made in one native call: arrays
    # over the result tensors' memory, read-only, that keep the memory alive
    # after the build is gone; 0-d and empty results too.
    import gc

    x = (np.arange(12) % 5).astype(dtype).reshape(3, 4)

    def f(x):
        return x, x[::-1] + x[:1] if dtype != "bool" else x[::-1] ^ x[:1], x[0, 0], x[:, :0], x.T

    fast = stablehlo_tvm.jit(f)
    got = fast(x)
    want = jax.jit(f)(x)
    compiled = next(iter(fast._by_signature.values())).compiled
    _, signature = compiled._function("main")
    del fast, compiled, signature
    gc.collect()
    for g, w in zip(got, want):
        assert type(g) is stablehlo_tvm.Result and g.dtype == np.dtype(dtype)
        assert not g.flags.writeable and g.flags.c_contiguous
        np.testing.assert_array_equal(g, np.asarray(w))
        if g.base is not None:  # over a tensor's memory: never writable
            with pytest.raises(ValueError):
                g.flags.writeable = True
    # x's own values came back (a copy of the argument, which the caller may
    # change) and the others over TVM's buffers.
    from stablehlo_tvm._core import held_tensor_address

    assert got[0].base is None and all(held_tensor_address(g.base) is not None for g in got[1:])
    x[...] = 0
    np.testing.assert_array_equal(got[0], np.asarray(want[0]))


@pytest.mark.parametrize("dtype", ["bfloat16", "float8_e4m3fn", "float8_e5m2"])
def test_results_of_ml_dtypes_are_arrays_over_their_tensors(dtype):
    # ml_dtypes' dtypes (registered with the native path by DLPack code)
    # come back as the others do, beside results of numpy's own dtypes,
    # and a result passed back in gives what jax.jit gives.
    import ml_dtypes
    from stablehlo_tvm._core import held_tensor_address

    low_type = getattr(jnp, dtype)

    def f(x):
        return (x * 2).astype(low_type), x + 1

    fast = stablehlo_tvm.jit(f)
    x = np.arange(6, dtype=np.float32)
    low, high = fast(x)
    want_low, want_high = jax.jit(f)(x)
    assert type(low) is stablehlo_tvm.Result and low.dtype == np.dtype(getattr(ml_dtypes, dtype))
    assert not low.flags.writeable
    np.testing.assert_array_equal(low.astype(np.float32), np.asarray(want_low).astype(np.float32))
    np.testing.assert_array_equal(high, np.asarray(want_high))
    if dtype == "bfloat16":  # a TVM tensor's memory (f8 results are narrowed from f32)
        assert held_tensor_address(low.base) is not None

    def g(y):
        return y.astype(jnp.float32) + 1

    np.testing.assert_array_equal(stablehlo_tvm.jit(g)(low), jax.jit(g)(want_low))


def test_results_in_python_where_native_code_leaves_them(monkeypatch):
    # Where the native path declines (tensors on other devices), results
    # are converted one by one, to the same arrays.
    from stablehlo_tvm import runtime

    def f(x):
        return x.astype(jnp.bfloat16) * 2, x + 1, x[0], x

    x = np.arange(6, dtype=np.float32)
    native = stablehlo_tvm.jit(f)(x)
    monkeypatch.setattr(runtime, "result_arrays", lambda *args: None)
    converted = stablehlo_tvm.jit(f)(x)
    for n, c in zip(native, converted):
        assert type(c) is stablehlo_tvm.Result and c.dtype == n.dtype and not c.flags.writeable
        np.testing.assert_array_equal(c, n)
    x[...] = 0  # the argument returned is a copy either way
    np.testing.assert_array_equal(converted[3], np.arange(6, dtype=np.float32))


def test_arguments_are_never_written():
    # The loop writes its carried buffer in place; an aligned numpy input is
    # passed without a copy, so it must not be that buffer.
    def f(x):
        return jax.lax.fori_loop(0, 8, lambda i, a: a.at[i].set(a[i] * -1.0), x)

    n = 1 << 14
    storage = np.arange(n + 16, dtype=np.float32)
    start = (-storage.ctypes.data % 64) // 4
    x = storage[start : start + n]
    assert x.ctypes.data % 64 == 0
    before = x.copy()
    assert_same(stablehlo_tvm.jit(f)(x), jax.jit(f)(before))
    np.testing.assert_array_equal(x, before)


def test_numpy_arguments_at_any_aligned_address_are_read_in_place():
    # The kernels take any address aligned to the element (not 64 bytes,
    # where TVM's own tensors start), so numpy's arrays, views included,
    # are passed as they are: no copy before each call.
    def f(x, w):
        return jnp.tanh(x @ w) + x[:, :1], jnp.sum(x * x, axis=0)

    fast = stablehlo_tvm.jit(f)
    storage = np.random.default_rng(0).standard_normal(128 * 64 + 64).astype(np.float32)
    w = np.random.default_rng(1).standard_normal((64, 64)).astype(np.float32)
    for offset in (1, 2, 3, 5, 16):
        x = storage[offset : offset + 128 * 64].reshape(128, 64)
        assert x.ctypes.data % 64 != 0 or offset == 16
        assert_same(fast(x, w), jax.jit(f)(x.copy(), w), rtol=1e-5)
        entry = next(iter(fast._by_signature.values()))
        _, signature = entry.compiled._function("main")
        tensor = signature._tensor("main", 0, 0, x, signature.params[0], False, [])
        assert tensor.data_ptr() == x.ctypes.data


def test_lower_then_compile():
    params = make_params(jax.random.key(2))
    x = np.ones((3, 8), np.float32)
    lowered = stablehlo_tvm.jit(mlp).lower(params, x)
    assert "stablehlo" in lowered.as_text()
    assert "main" in [gv.name_hint for gv in lowered.irmodule.get_global_vars()]
    assert_same(lowered.compile()(params, x), jax.jit(mlp)(params, x), rtol=1e-5)


def test_called_inside_a_jax_transformation_is_a_clear_error():
    fast = stablehlo_tvm.jit(jnp.sin)
    with pytest.raises(CallError, match="inside a JAX transformation"):
        jax.jit(lambda x: fast(x))(np.ones(2, np.float32))


def test_training_step_with_optimizer_state():
    # value_and_grad of a loss over a pytree of parameters, with an SGD
    # momentum update: what a training loop calls each step.
    def loss(params, x, y):
        logits = mlp(params, x)["logits"]
        return jnp.mean(jax.nn.logsumexp(logits, axis=-1) - jnp.take_along_axis(logits, y[:, None], axis=-1)[:, 0])

    def step(params, momentum, x, y):
        value, grads = jax.value_and_grad(loss)(params, x, y)
        momentum = jax.tree_util.tree_map(lambda m, g: 0.9 * m + g, momentum, grads)
        params = jax.tree_util.tree_map(lambda p, m: p - 0.1 * m, params, momentum)
        return params, momentum, value

    params = make_params(jax.random.key(3))
    momentum = jax.tree_util.tree_map(jnp.zeros_like, params)
    rng = np.random.default_rng(3)
    x = rng.standard_normal((16, 8)).astype(np.float32)
    y = rng.integers(0, 4, 16).astype(np.int32)
    fast = stablehlo_tvm.jit(step)
    ours, theirs = (params, momentum), (params, momentum)
    for _ in range(3):
        *ours, value = fast(*ours, x, y)
        *theirs, reference = jax.jit(step)(*theirs, x, y)
        np.testing.assert_allclose(value, reference, rtol=1e-4)
    assert_same(ours, theirs, rtol=1e-4)
    assert fast._cache_size() == 1


@pytest.mark.parametrize(
    "name,fun",
    [
        ("scalar", lambda s, v: jnp.broadcast_to(s, (64, 512))),
        ("column", lambda s, v: jnp.broadcast_to(v[:, None], (64, 512))),
        ("bias_gelu", lambda s, v: jax.nn.gelu(jnp.ones((64, 512), jnp.bfloat16) * v[:, None] + s)),
        ("computed", lambda s, v: jnp.broadcast_to(jnp.sqrt(s.astype(jnp.float32)).astype(jnp.bfloat16), (8, 4, 32))),
    ],
)
def test_bfloat16_broadcasts_build(name, fun):
    # A vectorized bfloat16 broadcast failed TVM's BF16StorageLegalize.
    s = jnp.asarray(1.5, jnp.bfloat16)
    v = jnp.asarray(np.linspace(-1, 1, 64), jnp.bfloat16)
    got, want = stablehlo_tvm.jit(fun)(s, v), jax.jit(fun)(s, v)
    np.testing.assert_allclose(np.asarray(got, np.float32), np.asarray(want, np.float32), rtol=1e-2)


def test_typed_prng_keys_in_and_out():
    # jax.random.key arrays cross as their key data and come back typed.
    def step(state):
        key, sub = jax.random.split(state["key"])
        return {"key": key, "sample": state["x"] + jax.random.normal(sub, state["x"].shape)}

    state = {"key": jax.random.key(7), "x": np.zeros(4, np.float32)}
    got, want = stablehlo_tvm.jit(step)(state), jax.jit(step)(state)
    assert jax.dtypes.issubdtype(got["key"].dtype, jax.dtypes.prng_key)
    np.testing.assert_array_equal(jax.random.key_data(got["key"]), jax.random.key_data(want["key"]))
    np.testing.assert_allclose(got["sample"], want["sample"], rtol=1e-6)
    # The returned key goes straight back in.
    again = stablehlo_tvm.jit(step)({"key": got["key"], "x": got["sample"]})
    reference = jax.jit(step)({"key": want["key"], "x": want["sample"]})
    np.testing.assert_allclose(again["sample"], reference["sample"], rtol=1e-6)


def test_a_call_converts_only_the_leaves_that_changed():
    # Weights passed again as the same jax arrays keep their tensors when
    # other leaves change (a numpy batch, a new array, an unused leaf JAX
    # dropped); numpy leaves are converted at every call (they may have
    # been written to), and a leaf of another shape or dtype is a new build.
    params = make_params(jax.random.key(4))
    fast = stablehlo_tvm.jit(lambda params, x, unused: mlp(params, x))
    x = np.ones((2, 8), np.float32)
    fast(params, x, 0.0)
    repeat = fast._repeat
    n_weights = len(jax.tree_util.tree_leaves(params))
    assert repeat.argument_of[-1] == -1  # JAX dropped the unused leaf

    def weight_tensors(repeat):
        return [repeat.tensors[repeat.argument_of[i]] for i in range(n_weights)]

    weights = weight_tensors(repeat)
    x[:] = 3.0
    assert_same(fast(params, x, 1.0), jax.jit(mlp)(params, x), rtol=1e-5)
    again = fast._repeat
    assert all(a is b for a, b in zip(weights, weight_tensors(again)))
    assert again.volatile == {n_weights, n_weights + 1} and again.entry is repeat.entry
    other = jax.tree_util.tree_map(lambda w: w * 2, params)
    assert_same(fast(other, x, 2.0), jax.jit(mlp)(other, x), rtol=1e-5)
    assert_same(fast(params, x, 3.0), jax.jit(mlp)(params, x), rtol=1e-5)
    assert fast._cache_size() == 1
    wide = np.ones((3, 8), np.float32)
    assert_same(fast(params, wide, 4.0), jax.jit(mlp)(params, wide), rtol=1e-5)
    assert fast._cache_size() == 2
    assert_same(fast(params, x, 5.0), jax.jit(mlp)(params, x), rtol=1e-5)
    # A result passed back in, and a jax array in place of a numpy one.
    step = stablehlo_tvm.jit(lambda w, x: (w + x, x))
    w = np.zeros(4, np.float32)
    for k in range(3):
        w, _ = step(w, jnp.full(4, k, jnp.float32) if k % 2 else np.full(4, k, np.float32))
    np.testing.assert_array_equal(w, np.full(4, 3, np.float32))


@pytest.mark.parametrize("impl", ["threefry2x32", "rbg"])
def test_typed_key_arguments_repeated_and_replaced(impl):
    # Typed keys with jax arrays take the path that reuses the last call's
    # argument tensors: the same key again gives the same draw, another key
    # (a new object) its own.
    def draw(key, x):
        return x + jax.random.normal(key, x.shape)

    fast, x = stablehlo_tvm.jit(draw), jnp.zeros(8, jnp.float32)
    first, second, third = jax.random.split(jax.random.key(3, impl=impl), 3)
    for key in [first, first, second, third, second]:
        np.testing.assert_allclose(fast(key, x), jax.jit(draw)(key, x), rtol=1e-6)


def test_results_answer_block_until_ready_like_jax_arrays():
    out = stablehlo_tvm.jit(lambda x: {"y": x * 2})(np.ones(3, np.float32))
    assert out["y"].block_until_ready() is out["y"]
    np.testing.assert_array_equal(jax.block_until_ready(out)["y"], np.full(3, 2, np.float32))


def test_results_never_alias_an_argument_the_caller_may_change():
    # Aligned numpy arguments are read in place; a result that is the
    # argument itself (or a reshape of it) must still be a value of its own.
    n = 1 << 14
    storage = np.arange(n + 16, dtype=np.float32)
    start = (-storage.ctypes.data % 64) // 4
    x = storage[start : start + n]
    same, plus_one, square = stablehlo_tvm.jit(lambda x: (x, x + 1, x.reshape(128, 128)))(x)
    x[:] = -7
    np.testing.assert_array_equal(same, np.arange(n, dtype=np.float32) + start)
    np.testing.assert_array_equal(square.reshape(-1), np.arange(n, dtype=np.float32) + start)
    np.testing.assert_array_equal(plus_one, np.arange(n, dtype=np.float32) + start + 1)


def test_small_arguments_copied_into_reused_tensors_stay_values():
    # Small numpy arguments are copied into one tensor per parameter that
    # every call reuses: a result that is the argument itself must not
    # change when the next call copies its argument there.
    fast = stablehlo_tvm.jit(lambda x, y: (x, x * y, y.reshape(2, 2)))
    first = fast(np.arange(4, dtype=np.float32), np.ones(4, np.float32))
    second = fast(np.full(4, 9, np.float32), np.full(4, 2, np.float32))
    np.testing.assert_array_equal(first[0], np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal(first[1], np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal(first[2], np.ones((2, 2), np.float32))
    # Copied out or not, results are read-only, as jax arrays are.
    assert not any(r.flags.writeable for r in first + second)
    np.testing.assert_array_equal(second[0], np.full(4, 9, np.float32))
    np.testing.assert_array_equal(second[1], np.full(4, 18, np.float32))
    np.testing.assert_array_equal(second[2], np.full((2, 2), 2, np.float32))
    # Another shape of the same parameter gets a tensor of its own.
    third = stablehlo_tvm.jit(lambda x: x + 1)
    np.testing.assert_array_equal(third(np.zeros(3, np.float32)), np.ones(3, np.float32))
    np.testing.assert_array_equal(third(np.zeros(5, np.float32)), np.ones(5, np.float32))
