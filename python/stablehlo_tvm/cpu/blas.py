"""MatmulOnBlas: float32/float64 matrix products on the BLAS numpy ships.

Which products: with `"loops"` (build's default), those inside loops (a
loop's functions: what a recursive function calls) and those whose rows of
C no 64-byte vector divides (`_misfits_tiles`: 200 or 129 columns, where
the register tile's columns go scalar and TVM's code ran 2-10x behind the
BLAS); with `"all"`, all of them. Measured side by side, TVM's generated code, which fuses a product's
epilogue into its write-back, was 5-25% faster on the benchmark's MLP,
convolutions and transformer, and the BLAS ~20-30% faster on a scan RNN's
steps (docs/performance.md). Of those, products of at least
`MIN_MULTIPLY_ADDS` multiply-adds become
`R.call_dps_packed("stablehlo_tvm.blas.matmul", a, b, transpose_a,
transpose_b)` (runtime/BlasMatmul.cpp), which splits them over TVM's own
thread pool with the BLAS held to one thread. A transpose of an operand's
last two axes is passed to the BLAS as a flag rather than copied. What
follows the product (a bias, an activation) is fused by TVM as usual, into
its own kernel.

The compiled module then needs this package loaded wherever it runs;
`build(..., blas=False)` keeps every product in TVM's generated code. Where
no BLAS is found (the extension or numpy's OpenBLAS missing), products stay
in TVM's code.
"""

from __future__ import annotations

import ctypes
import functools
import glob
import os

import tvm
from tvm import relax

from .bindings import bound_to, is_op
from .matmuls import rewrite_matmuls, static_shape

# Smaller products are tens of microseconds of work or less: they stay in
# TVM's code, which fuses their epilogue and needs no call. (The smallest
# product measured, 32x256x256 at 2^21, ran as fast either way standalone.)
MIN_MULTIPLY_ADDS = 1 << 20

# Where a BLAS lies, relative to the package that ships it, and its symbols:
# (package, file pattern, sgemm, dgemm, thread-count setter, 64-bit integers).
# numpy's own copy comes first: a second OpenBLAS in the process would run
# its own workers next to the first's.
_LIBRARIES = (
    ("numpy", "../numpy.libs/libscipy_openblas64_*.so", "scipy_cblas_sgemm64_", "scipy_cblas_dgemm64_",
     "openblas_set_num_threads_local", True),
    ("scipy", "../scipy.libs/libscipy_openblas-*.so", "scipy_cblas_sgemm", "scipy_cblas_dgemm",
     "openblas_set_num_threads_local", False),
)


@functools.cache
def available() -> bool:
    """Loads the runtime extension and binds it to a BLAS; False when either
    is missing."""
    from .. import _core

    extension = os.path.join(os.path.dirname(_core.__file__), "libstablehlo_tvm_blas.so")
    if not os.path.exists(extension):
        return False
    ctypes.CDLL(extension)  # registers stablehlo_tvm.blas.* with TVM's FFI
    bind = tvm.get_global_func("stablehlo_tvm.blas.bind")
    for package, pattern, *symbols in _LIBRARIES:
        try:
            module = __import__(package)
        except ImportError:
            continue
        for path in sorted(glob.glob(os.path.join(os.path.dirname(module.__file__), pattern))):
            if bind(path, *symbols):
                return True
    return False


def _flag(value: bool):
    return relax.prim_value(tvm.tirx.IntImm("int64", int(value)))


def _operand(rewriter, expr):
    """(tensor, transposed): `expr`, or what it transposes when it swaps the
    last two axes of a tensor."""
    bound = bound_to(rewriter, expr)
    if is_op(bound, "relax.permute_dims") and bound.attrs.axes is not None:
        axes = [int(a) for a in bound.attrs.axes]
        rank = len(axes)
        if rank >= 2 and axes == [*range(rank - 2), rank - 1, rank - 2]:
            return bound.args[0], True
    return expr, False


def _on_blas(rewriter, call):
    a, b = call.args
    dtype = call.ty.dtype if isinstance(call.ty, relax.TensorType) else None
    if dtype not in ("float32", "float64") or a.ty.dtype != dtype or b.ty.dtype != dtype:
        return None
    sa, sb, sc = _shape(a), _shape(b), _shape(call)
    if sa is None or sb is None or sc is None or len(sa) < 2 or len(sb) < 2:
        return None
    # Batches: the same leading dimensions on both sides, or one B for all.
    if not _same(sa[:-2], sc[:-2]) or (len(sb) != 2 and not _same(sb[:-2], sc[:-2])):
        return None
    if static_shape(call) is not None and static_shape(a) is not None:
        m, n, k = sc[-2], sc[-1], sa[-1]
        batch = 1
        for d in sc[:-2]:
            batch *= d
        if batch * m * n * k < MIN_MULTIPLY_ADDS:
            return None
    # A symbolic size is taken as large: the BLAS reads the sizes at run
    # time (which products with symbolic sizes come here: _misfits_tiles).
    (a, transpose_a), (b, transpose_b) = _operand(rewriter, a), _operand(rewriter, b)
    return relax.call_dps_packed(
            "stablehlo_tvm.blas.matmul",
        relax.Tuple([a, b, _flag(transpose_a), _flag(transpose_b)]),
        out_ty=call.ty,
    )


def _shape(expr) -> list | None:
    """`expr`'s dimensions (ints where static, else TIR expressions); None
    unless a tensor of known rank and shape."""
    shape = expr.ty.shape if isinstance(expr.ty, relax.TensorType) else None
    if not isinstance(shape, relax.ShapeExpr):
        return None
    return [int(v) if isinstance(v, tvm.tirx.IntImm) else v for v in shape.values]


def _same(x: list, y: list) -> bool:
    from tvm_ffi import structural_equal

    return len(x) == len(y) and all(
        a == b if isinstance(a, int) and isinstance(b, int) else structural_equal(a, b) for a, b in zip(x, y)
    )


# The vector width TVM's matmul tiles C's rows by (AVX-512).
_VECTOR_BYTES = 64


def _misfits_tiles(call) -> bool:
    """Whether the matmul rule's tiles fit a product badly: C has rows (of
    at least one vector) that no 64-byte vector divides, so the rule takes
    a column tile that is not a whole number of vectors and computes it
    scalar; or the product runs over a symbolic batch."""
    dtype = call.ty.dtype if isinstance(call.ty, relax.TensorType) else None
    if dtype not in ("float32", "float64"):
        return False
    shape, a_shape = _shape(call), _shape(call.args[0])
    if shape is None or a_shape is None or len(shape) < 2:
        return False
    lanes = _VECTOR_BYTES // (4 if dtype == "float32" else 8)
    rows, columns, depth = shape[-2], shape[-1], a_shape[-1]
    # The rule pads symbolic row and column counts to whole tiles and walks
    # a symbolic depth whole; products over a symbolic batch go to the BLAS
    # (a convolution's patches over a symbolic batch ran 25-40% faster
    # there; the transformer block's attention products the same).
    if not all(isinstance(d, int) for d in shape[:-2]):
        return True
    if not isinstance(columns, int):
        return False
    many_rows = not isinstance(rows, int) or rows >= lanes
    return columns >= lanes and many_rows and columns % lanes != 0


def _in_loops(mod: tvm.IRModule) -> set[str]:
    """Names of the Relax functions a loop runs: those a recursive function
    calls, and what they call in turn."""
    calls = {
        gvar.name_hint: {g.name_hint for g in relax.analysis.all_global_vars(func)}
        for gvar, func in mod.functions_items()
        if isinstance(func, relax.Function)
    }
    found: set[str] = set()
    pending = [callee for name, callees in calls.items() if name in callees for callee in callees - {name}]
    while pending:
        name = pending.pop()
        if name in calls and name not in found:
            found.add(name)
            pending.extend(calls[name])
    return found


def MatmulOnBlas(which: str = "loops"):
    """The pass; `which`: "loops" or "all" (see the module docstring)."""
    if which not in ("loops", "all"):
        raise ValueError(f'MatmulOnBlas: which must be "loops" or "all", not {which!r}')

    @tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.MatmulOnBlas")
    def rewrite(mod: tvm.IRModule, _ctx) -> tvm.IRModule:
        if not available():
            return mod
        if which == "all":
            return rewrite_matmuls(mod, _on_blas, None)
        loops = _in_loops(mod)
        mod = rewrite_matmuls(mod, _on_blas, loops)
        rest = {gvar.name_hint for gvar, func in mod.functions_items() if isinstance(func, relax.Function)} - loops
        return rewrite_matmuls(mod, lambda rewriter, call: _on_blas(rewriter, call) if _misfits_tiles(call) else None, rest)

    return rewrite
