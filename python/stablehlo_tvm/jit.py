"""jit: a function compiled with TVM the way jax.jit compiles it with XLA.

The wrapped function is traced and lowered by JAX itself (jax.jit's own
lowering, so static arguments, pytrees, weak types and dtype
canonicalization mean what they mean in JAX), imported and built once per
abstract signature, and called with the same pytrees jax.jit takes; results
come back in the tree structure jax.jit returns, as read-only numpy arrays.
"""

from __future__ import annotations

import functools
import inspect
import operator
import threading
from typing import Any, Callable, Iterable, NamedTuple

import numpy as np

from .errors import CallError


class _Entry(NamedTuple):
    """One build: the compiled function, which flat argument leaves it
    takes (JAX drops the unused ones), and the tree of its results."""

    compiled: Any
    kept: tuple[int, ...] | None  # None: all of them
    out_tree: Any
    lowered: Any
    # Typed PRNG keys travel as their key data: the positions among the
    # kept arguments, and (position, key implementation) among the results.
    key_arguments: tuple[int, ...] = ()
    key_results: tuple = ()


class _Repeat(NamedTuple):
    """The last call: its leaves (by identity), what the cache keyed them
    by, and the argument tensors made of them. A call with the same tree
    converts only the leaves that are other objects or mutable (numpy
    arrays, results passed back in); jax arrays are immutable, so the same
    one is the same value, already a tensor."""

    tree: Any
    statics: tuple
    leaves: list
    entry: _Entry
    tensors: list
    descriptions: tuple
    # Per leaf: its argument position, -1 where JAX dropped it.
    argument_of: tuple
    # The leaves that are not jax arrays (or typed keys): converted at
    # every call.
    volatile: frozenset
    # The same calls made natively (RepeatedCall.h); None where the build's
    # loops need the Python path.
    native: Any = None
    # What completes the native call's results (complex values joined,
    # narrow types narrowed); None where they are complete.
    completed: Any = None


class Lowered:
    """``jit(f).lower(*args)``: the Relax module of one signature, before
    TVM compiles it."""

    def __init__(self, jitted: "Jitted", lowered, irmodule, kept, out_tree, keys):
        self._jitted = jitted
        self._keys = keys  # where the build goes in the jitted's cache
        self.jax_lowered = lowered  # jax.stages.Lowered
        self.irmodule = irmodule  # the Relax tvm.IRModule
        self._kept = kept
        self._out_tree = out_tree

    def as_text(self) -> str:
        """The StableHLO JAX lowered to."""
        return self.jax_lowered.as_text()

    def compile(self) -> "CompiledCall":
        from .runtime import build

        compiled = build(self.irmodule, **self._jitted._build_options)
        entry = _entry_for(compiled, self.jax_lowered, self._kept, self._out_tree)
        self._jitted._remember(*self._keys, entry)
        return CompiledCall(self._jitted, entry)


class CompiledCall:
    """``jit(f).lower(*args).compile()``: one build, called with arguments
    of the signature it was lowered for. Static arguments are the ones it
    was lowered with: what is passed in their place is not looked at."""

    def __init__(self, jitted: "Jitted", entry: _Entry):
        self._jitted = jitted
        self._entry = entry
        self.compiled = entry.compiled  # stablehlo_tvm.Compiled

    def __call__(self, *args: Any, **kwargs: Any):
        _, leaves, _ = self._jitted._split(args, kwargs)
        return _run(self._entry, leaves)


class Jitted:
    """What ``stablehlo_tvm.jit(fun)`` returns."""

    def __init__(
        self,
        fun: Callable,
        static_argnums: Iterable[int],
        static_argnames: Iterable[str],
        keep_unused: bool,
        build_options: dict,
    ):
        self._fun = fun
        self._static_argnums, self._static_argnames = _static_arguments(fun, static_argnums, static_argnames)
        self._keep_unused = keep_unused
        self._build_options = build_options
        # (tree, static values, leaf descriptions) -> _Entry, and the same
        # by abstract signature, which calls of different raw types share
        # (a float64 numpy array and a float32 one both mean f32 to JAX).
        self._by_key: dict = {}
        self._by_signature: dict = {}
        self._lock = threading.RLock()  # _entry holds it around _remember
        self._repeat: _Repeat | None = None
        functools.update_wrapper(self, fun)

    def __call__(self, *args: Any, **kwargs: Any):
        statics, leaves, tree = self._split(args, kwargs)
        repeat = self._repeat
        if (
            repeat is not None
            and len(leaves) == len(repeat.leaves)
            and repeat.tree == tree
            and repeat.statics == statics
        ):
            native = repeat.native
            if native is not None:
                outputs = native.call(leaves)
                # An int: the leaf it cannot convert itself (-1: none here),
                # each taken as set from then on.
                while type(outputs) is int and outputs >= 0 and _pass_leaf(native, repeat, leaves, outputs):
                    outputs = native.call(leaves)
                if type(outputs) is not int:
                    if repeat.completed is not None:
                        outputs = repeat.completed(outputs)
                    return _finish(repeat.entry, outputs)
            if not repeat.volatile and all(map(operator.is_, leaves, repeat.leaves)):
                # The same arrays as the last call (a model's weights and
                # its batch): neither the cache key nor the tensors change.
                compiled = repeat.entry.compiled
                return _finish(repeat.entry, compiled.call_tensors(compiled.entry, repeat.tensors))
            changed = [i for i, same in enumerate(map(operator.is_, leaves, repeat.leaves)) if not same]
            changed = repeat.volatile.union(changed)
            descriptions = repeat.descriptions
            if all(_describe(leaves[i]) == descriptions[i] for i in changed):
                # Same signature: only the changed leaves are converted.
                return self._call_replacing(repeat, leaves, changed)
        key = (tree, statics, tuple(map(_describe, leaves)))
        try:
            entry = self._by_key.get(key)
        except TypeError as error:
            raise CallError(f"static arguments must be hashable, as jax.jit requires: {error}") from error
        if entry is None:
            entry = self._entry(key, self._signature(statics, leaves, tree), args, kwargs)
        compiled = entry.compiled
        template = compiled.replaceable(compiled.entry)
        if template is None:
            return _run(entry, leaves)
        argument_of = _argument_positions(entry, len(leaves))
        if sum(p >= 0 for p in argument_of) != template.count(None):
            return _run(entry, leaves)  # call_flat names the mismatch
        volatile = frozenset(i for i, leaf in enumerate(leaves) if type(leaf).__name__ not in _JAX_ARRAY_TYPES)
        repeat = _Repeat(tree, statics, leaves, entry, template, key[2], argument_of, volatile)
        return self._call_replacing(repeat, leaves, range(len(leaves)), first=True)

    def _call_replacing(self, repeat: _Repeat, leaves: list, changed, first: bool = False) -> Any:
        """Calls with `repeat`'s tensors, the leaves at `changed` converted
        in place of theirs, and keeps the result as the next repeat (with
        its native path made on the `first` call of a tree)."""
        entry = repeat.entry
        keys = entry.key_arguments
        updates = []
        for i in changed:
            position = repeat.argument_of[i]
            if position >= 0:
                leaf = leaves[i]
                updates.append((position, _key_data(leaf) if position in keys else leaf))
        compiled = entry.compiled
        outputs, tensors = compiled.call_replacing(compiled.entry, repeat.tensors, updates)
        native, completed = _repeated_call(entry, leaves, tensors, repeat.argument_of) if first else (repeat.native, repeat.completed)
        # (Spelled out: NamedTuple._replace is a microsecond of a small call.)
        self._repeat = _Repeat(
            repeat.tree, repeat.statics, leaves, entry, tensors, repeat.descriptions, repeat.argument_of, repeat.volatile, native, completed
        )
        return _finish(entry, outputs)

    def _signature(self, statics: tuple, leaves: list, tree):
        """The abstract signature of a call (what a build is made for)."""
        self._check_concrete(leaves)
        return (tree, statics, tuple(map(_abstract, leaves)))

    def lower(self, *args: Any, **kwargs: Any) -> Lowered:
        """Traces and imports for these arguments' signature; ``.compile()``
        on the result builds (and later calls of that signature use it)."""
        from .api import import_stablehlo

        statics, leaves, tree = self._split(args, kwargs)
        keys = ((tree, statics, tuple(map(_describe, leaves))), self._signature(statics, leaves, tree))
        lowered, kept, out_tree = self._lower_with_jax(args, kwargs)
        return Lowered(self, lowered, import_stablehlo(lowered), kept, out_tree, keys)

    def _remember(self, key, signature, entry: _Entry) -> _Entry:
        """Files `entry` under both keys (an entry already there for the
        signature stays) and returns the one filed."""
        with self._lock:
            entry = self._by_signature.setdefault(signature, entry)
            self._by_key[key] = entry
        return entry

    def clear_cache(self) -> None:
        with self._lock:
            self._by_key.clear()
            self._by_signature.clear()

    def _cache_size(self) -> int:
        return len(self._by_signature)

    def _split(self, args: tuple, kwargs: dict):
        """The static argument values, the flat leaves of the others and
        their tree, as jax.jit splits them."""
        import jax

        if self._static_argnums:
            statics = tuple(args[i] for i in self._static_argnums if i < len(args))
            dynamic = tuple(a for i, a in enumerate(args) if i not in self._static_argnums)
        else:
            statics, dynamic = (), args
        if self._static_argnames and kwargs:
            statics += tuple(sorted((k, v) for k, v in kwargs.items() if k in self._static_argnames))
            kwargs = {k: v for k, v in kwargs.items() if k not in self._static_argnames}
        leaves, tree = jax.tree_util.tree_flatten((dynamic, kwargs))
        return statics, leaves, tree

    @staticmethod
    def _check_concrete(leaves: list) -> None:
        import jax

        for leaf in leaves:
            if isinstance(leaf, jax.core.Tracer):
                raise CallError(
                    "a stablehlo_tvm.jit function was called inside a JAX transformation "
                    "(jit, grad, vmap...): it runs TVM-compiled code on concrete arrays only; "
                    "apply stablehlo_tvm.jit to the whole transformed function instead"
                )

    def _entry(self, key, signature, args, kwargs) -> _Entry:
        """The build for `signature`, made now if there is none; `key`
        finds it from then on."""
        # Held while building: another thread calling with the same
        # signature waits for this build instead of making its own.
        with self._lock:
            entry = self._by_signature.get(signature)
            if entry is None:
                from .runtime import build

                lowered, kept, out_tree = self._lower_with_jax(args, kwargs)
                entry = _entry_for(build(lowered, **self._build_options), lowered, kept, out_tree)
            return self._remember(key, signature, entry)

    def _lower_with_jax(self, args: tuple, kwargs: dict):
        """jax.jit's lowering of the call, the positions of the flat leaves
        it kept as arguments (None: all), and its results' tree."""
        import jax

        jitted = jax.jit(
            self._fun,
            static_argnums=self._static_argnums,
            static_argnames=self._static_argnames,
            keep_unused=self._keep_unused,
        )
        from .inputs import lowering_record

        lowered = jitted.lower(*args, **kwargs)
        kept = None
        record = lowering_record(lowered)
        if record is not None:
            if record.get("ordered_effects"):
                raise CallError(
                    f"{getattr(self._fun, '__name__', 'the function')} has ordered side effects "
                    f"({', '.join(map(str, record['ordered_effects']))}), which a TVM build cannot run"
                )
            kept_var_idx = record.get("kept_var_idx")
            if kept_var_idx is not None:
                kept = tuple(sorted(kept_var_idx))
        elif not self._keep_unused:
            # Where this JAX does not say what it kept, keep everything.
            lowered = jax.jit(
                self._fun,
                static_argnums=self._static_argnums,
                static_argnames=self._static_argnames,
                keep_unused=True,
            ).lower(*args, **kwargs)
        n_leaves = lowered.in_tree.num_leaves
        if kept is not None and len(kept) == n_leaves:
            kept = None
        return lowered, kept, lowered.out_tree


def _repeated_call(entry: _Entry, leaves: list, tensors: list, argument_of: tuple):
    """The native path of later calls with this call's tree, made from the
    call just made with `leaves` and `tensors`, and what completes its
    results (or None); (None, None) where the build needs the Python path
    (loops on a thread of their own, results numpy cannot view, a call
    nested in another)."""
    from ._core import RepeatedCall
    from .runtime import _IN_PLACE_BYTES, Result

    compiled = entry.compiled
    if compiled._recursive or getattr(compiled._per_thread, "depth", 0):
        return None, None
    function, signature = compiled._function(compiled.entry)
    if not signature.viewable:
        return None, None
    completed = signature.completed if signature.complex_results or signature.narrow else None
    reusable = [_reused_while_same(leaf) for leaf in leaves]
    borrowed = [type(leaf).__name__ == "Tensor" for leaf in leaves]
    try:
        native = RepeatedCall(
            function,
            tensors,
            leaves,
            list(argument_of),
            reusable,
            borrowed,
            compiled._per_thread,
            signature.effects,
            Result,
            _raise_call_error,
            _IN_PLACE_BYTES,
        )
    except (TypeError, ValueError, AttributeError):
        return None, None  # an argument that is not a tensor: TVM checks it
    return native, completed


def _pass_leaf(native, repeat: _Repeat, leaves: list, i: int) -> bool:
    """Converts the leaf at `i` that `native` does not convert itself (a new
    jax array, a typed key, a TVM tensor) and hands it the tensor; False
    where the leaf is not of the build's signature (the call then takes
    the cache's path)."""
    leaf = leaves[i]
    if _describe(leaf) != repeat.descriptions[i]:
        return False
    reusable = _reused_while_same(leaf)
    position = repeat.argument_of[i]
    if position < 0:
        native.set(i, leaf, None, reusable, False)
        return True
    entry = repeat.entry
    compiled = entry.compiled
    _, signature = compiled._function(compiled.entry)
    borrowed: list = []
    value = _key_data(leaf) if position in entry.key_arguments else leaf
    # reuse=False: not the Python path's staging tensor, which it rewrites.
    tensor = signature._tensor(compiled.entry, position, position, value, signature.params[position], True, borrowed, reuse=False)
    native.set(i, leaf, tensor, reusable, bool(borrowed))
    return True


def _reused_while_same(leaf) -> bool:
    """Whether a leaf Python converts for RepeatedCall keeps its tensor
    while it is the same object: jax arrays and typed keys are immutable,
    TVM tensors are passed as they are (and are the caller's to change)."""
    kind = type(leaf).__name__
    return kind in _JAX_ARRAY_TYPES or kind == "Tensor"


def _raise_call_error(kind: str, message: str, backtrace: str):
    """Raises a failed native call's error as TVM's Python binding raises
    it from a call it makes."""
    import tvm_ffi

    raise tvm_ffi.core.Error(kind, message, backtrace).py_error()


def _argument_positions(entry: _Entry, n_leaves: int) -> tuple:
    """Per flat leaf, the position of the argument it is, -1 where JAX
    dropped it."""
    if entry.kept is None:
        return tuple(range(n_leaves))
    positions = [-1] * n_leaves
    for position, leaf in enumerate(entry.kept):
        if leaf < n_leaves:
            positions[leaf] = position
    return tuple(positions)


def _arguments(entry: _Entry, leaves: list) -> list:
    """The leaves the build takes, typed keys as their key data."""
    if entry.kept is not None:
        leaves = [leaves[i] for i in entry.kept]
    if entry.key_arguments:
        leaves = list(leaves)
        for i in entry.key_arguments:
            leaves[i] = _key_data(leaves[i])
    return leaves


def _key_data(key):
    """A typed key's data: the array the key wraps where it has one
    (jax.random.key_data binds a primitive, about 60 us a call: most of a
    sampler step's call through this module)."""
    data = getattr(key, "_base_array", None)
    if type(data).__name__ == "ArrayImpl":
        return data
    import jax

    return jax.random.key_data(key)


# jax arrays and typed keys: immutable, so a call repeating them by
# identity repeats their argument tensors.
_JAX_ARRAY_TYPES = ("ArrayImpl", "PRNGKeyArray")


def _run(entry: _Entry, leaves: list):
    outputs = entry.compiled.call_flat(entry.compiled.entry, _arguments(entry, leaves), cast=True)
    return _finish(entry, outputs)


def _finish(entry: _Entry, outputs: list):
    """The results as the function returns them."""
    if entry.key_results:
        import jax

        for i, impl in entry.key_results:
            outputs[i] = jax.random.wrap_key_data(outputs[i], impl=impl)
    return entry.out_tree.unflatten(outputs)


def _entry_for(compiled, lowered, kept, out_tree) -> _Entry:
    """The entry of a build, with where JAX's typed keys are."""
    import jax

    def is_key(dtype) -> bool:
        return jax.dtypes.issubdtype(dtype, jax.dtypes.prng_key)

    in_avals = jax.tree_util.tree_leaves(lowered.in_avals)
    if kept is not None:
        in_avals = [in_avals[i] for i in kept]
    key_arguments = tuple(i for i, aval in enumerate(in_avals) if is_key(aval.dtype))
    out_info = jax.tree_util.tree_leaves(lowered.out_info)
    key_results = tuple((i, info.dtype._impl) for i, info in enumerate(out_info) if is_key(info.dtype))
    return _Entry(compiled, kept, out_tree, lowered, key_arguments, key_results)


def _describe(leaf: Any):
    """What the cache keys a leaf by: its type, and its shape and dtype
    (and JAX's weak type) where it has them. Python scalars are weakly
    typed in JAX: their type is their signature."""
    kind = type(leaf)
    if kind.__name__ == "ArrayImpl":
        # jax.Array's shape and dtype are properties over its aval: read
        # the aval once (a call's every weight passes here).
        aval = leaf.aval
        return (kind, aval.shape, aval.dtype, aval.weak_type)
    shape = getattr(leaf, "shape", None)
    if shape is None:
        return type(leaf)
    return (type(leaf), shape, leaf.dtype, getattr(leaf, "weak_type", False))


def _abstract(leaf: Any):
    """JAX's abstract value of a leaf (shape, canonical dtype, weak type)."""
    import jax

    try:
        aval = jax.typeof(leaf)
    except TypeError as error:
        raise CallError(f"{type(leaf).__name__} is not an array type JAX accepts: {error}") from error
    # Spelled out: equal ShapedArrays can hash differently.
    return tuple(aval.shape), str(aval.dtype), bool(aval.weak_type)


def _static_arguments(fun: Callable, static_argnums, static_argnames) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Static argument positions and names, each completed from the other
    through the function's signature, as jax.jit completes them."""
    nums = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums or ())
    names = (static_argnames,) if isinstance(static_argnames, str) else tuple(static_argnames or ())
    try:
        parameters = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):
        return tuple(sorted(set(nums))), names
    positional = [
        p.name for p in parameters if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    ]
    nums = tuple(n + len(positional) if n < 0 else n for n in nums)
    names = names + tuple(positional[n] for n in nums if 0 <= n < len(positional) and positional[n] not in names)
    nums = nums + tuple(positional.index(name) for name in names if name in positional and positional.index(name) not in nums)
    return tuple(sorted(set(nums))), names


def jit(
    fun: Callable | None = None,
    *,
    static_argnums: int | Iterable[int] | None = None,
    static_argnames: str | Iterable[str] | None = None,
    donate_argnums: Any = None,
    donate_argnames: Any = None,
    keep_unused: bool = False,
    target: Any = None,
    tune: Any = None,
    **build_options: Any,
):
    """Compiles ``fun`` with TVM, like ``jax.jit`` compiles it with XLA.

    Calls take what jax.jit's take: pytrees of arrays (numpy, jax, Python
    scalars and array-likes, cast as JAX casts them), with
    ``static_argnums``/``static_argnames`` marking hashable arguments that
    are part of the signature. The first call with a new signature (tree
    structure, shapes, dtypes, static values) traces, imports and builds;
    later ones only run. Results have the tree structure jax.jit returns,
    with read-only numpy arrays as leaves. jax arrays passed again (weights)
    are not converted again.

    ``donate_argnums``/``donate_argnames`` are accepted and ignored: the
    compiled code never writes into its arguments. ``target``, ``tune`` and
    the other keywords are ``build``'s. ``.lower(*args)`` stages the import,
    ``.lower(*args).compile()`` the build.

    Usable as a decorator, bare or with keywords.
    """
    del donate_argnums, donate_argnames  # nothing is written in place
    options = dict(build_options, target=target, tune=tune)
    if fun is None:
        return lambda f: Jitted(f, static_argnums or (), static_argnames or (), keep_unused, options)
    return Jitted(fun, static_argnums or (), static_argnames or (), keep_unused, options)
