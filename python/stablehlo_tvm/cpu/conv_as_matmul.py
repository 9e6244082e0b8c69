"""ConvAsMatmul: 2-D convolutions as one matrix product over their patches.

out[n, o, p] = sum_q W[o, q] * patches[n, q, p], with q running over
(channel, kernel row, kernel column) and p over output pixels; patches are
the input's elements gathered by one element-wise block (im2col), or the
input itself for a 1x1 stride-1 kernel. The product is then scheduled like any matmul
(register tiles, vectorized along the pixels), which TVM's direct conv2d
loop nest is not.

The import spells every convolution NCHW/OIHW, transposing around it. When
the NCHW input is an NHWC tensor transposed (and edge-padded), the patches
are taken from the NHWC tensor instead, out[n, p, o] = patches[n, p, q] *
W[q, o] with q over (kernel row, kernel column, channel): each patch row is
then made of whole contiguous pixels, and the output comes out NHWC, so the
transposes on both sides cancel into plain copies. The import pads
explicitly; the gather reads that padding as a bounds test instead of a
padded copy. Nothing is fused into the gather (see `_patches`). Grouped,
implicitly padded or other layouts are left alone.

An NHWC convolution's weight gradient, as JAX writes it, is a convolution of
the input with its batch axis as channels by the output gradient as the
kernel: its output pixels are the few taps of the forward kernel (9 for
3 x 3), a product with 9 columns per channel. It becomes one product of the
output gradient (transposed: output channels x every pixel of the batch) by
the input's patches (every pixel of the batch x taps and channels), whose
result is the gradient in HWIO order.
"""

from __future__ import annotations

import tvm
from tvm import relax
from tvm.relax.expr_functor import PyExprMutator, mutator

from .bindings import bound_to, is_op, rewrite_functions


def _ints(values) -> list[int]:
    return [int(v) for v in values]


def _batch_and_ints(values) -> list:
    """A shape whose first (batch) dimension may be symbolic (a TIR
    expression, from a build for every batch size); the rest as ints."""
    first, *rest = values
    return [int(first) if isinstance(first, tvm.tirx.IntImm) else first, *_ints(rest)]


# relay/relax OpPatternKind: kOutEWiseFusable.
_OUT_ELEMWISE_FUSABLE = 4


@mutator
class _Rewriter(PyExprMutator):
    def visit_call_(self, call):
        call = super().visit_call_(call)
        if not isinstance(call.op, tvm.ir.Op) or call.op.name != "relax.nn.conv2d":
            return call
        rewritten = self._rewrite(call)
        return call if rewritten is None else rewritten

    def _rewrite(self, call):
        attrs = call.attrs
        groups = int(attrs.groups)
        if (
            any(_ints(attrs.padding))
            or (attrs.data_layout, attrs.kernel_layout, attrs.out_layout) != ("NCHW", "OIHW", "NCHW")
        ):
            return None
        x, w = call.args
        xs, ws = x.ty, w.ty
        if not isinstance(xs.shape, relax.ShapeExpr) or not isinstance(ws.shape, relax.ShapeExpr):
            return None
        try:
            n, c, h, wd = _batch_and_ints(xs.shape.values)
            o, _, kh, kw = _ints(ws.shape.values)
        except TypeError:  # symbolic shapes
            return None
        # Integer convolutions (int8 x int8 summed in int32: quantized code)
        # take the same route to the matmul schedule.
        if xs.dtype not in _DTYPES or ws.dtype != xs.dtype:
            return None
        sh, sw = _ints(attrs.strides)
        dh, dw = _ints(attrs.dilation)
        oh, ow = (h - dh * (kh - 1) - 1) // sh + 1, (wd - dw * (kw - 1) - 1) // sw + 1
        if oh <= 0 or ow <= 0:
            return None
        bb = self.builder_
        out_dtype = attrs.out_dtype if str(attrs.out_dtype) not in ("", "void") else None
        if groups != 1:
            nhwc = self._nhwc_source(x)
            # Depthwise (one channel a group) has TVM's own schedule.
            if nhwc is None or c == groups or c % groups or o % groups:
                return None
            return self._rewrite_grouped(*nhwc, self._hwio(w), groups, (kh, kw), (sh, sw), (dh, dw), (oh, ow), out_dtype)
        gradient = self._weight_gradient_sources(x, w)
        if gradient is not None:
            return self._rewrite_weight_gradient(*gradient, (kh, kw), (sh, sw), (dh, dw), (oh, ow), out_dtype)
        nhwc = self._nhwc_source(x)
        if nhwc is not None:
            return self._rewrite_nhwc(*nhwc, self._hwio(w), (kh, kw), (sh, sw), (dh, dw), (oh, ow), out_dtype)
        if kh == kw == 1 and sh == sw == 1:
            patches = bb.emit(relax.op.reshape(x, [n, c, h * wd]))
        else:
            source, pad = self._unpadded(x, spatial_axes=(2, 3))
            patches = self._patches(_nchw_patches, source, (kh, kw), (sh, sw), (dh, dw), (oh, ow), pad)
        weights = bb.emit(relax.op.reshape(w, [o, c * kh * kw]))
        product = bb.emit(relax.op.matmul(weights, patches, out_dtype=out_dtype))
        return relax.op.reshape(product, [n, o, oh, ow])

    def _patches(self, gather, x, *args):
        """The patches of `x`, in a function that FuseOps fuses nothing
        into: each input element is read by up to kh * kw patches, so a
        producer fused in (a batch norm and ReLU before the convolution) is
        computed that many times over; ResNet's first such function took
        16 ms where the producer and the gather apart take 1.9. Marked as a
        convolution is (an op whose consumers fuse, not its producers)."""
        bb = self.builder_
        patches = bb.emit_te(gather, x, *args, primfunc_name_hint="im2col")
        gv = bound_to(self, patches).args[0]
        bb.update_func(gv, bb.get()[gv].with_attr("op_pattern", _OUT_ELEMWISE_FUSABLE))
        return patches

    def _unpadded(self, x, spatial_axes):
        """(source, ((top, bottom, left, right), value)) when `x` is a
        constant pad of `source` along `spatial_axes` only (the gather then
        reads the padding as a bounds test, with no padded copy); else
        (x, None)."""
        value = bound_to(self, x)
        if not is_op(value, "relax.nn.pad") or str(value.attrs.pad_mode) != "constant":
            return x, None
        widths = _ints(value.attrs.pad_width)
        rank = len(widths) // 2
        if any(widths[2 * a : 2 * a + 2] != [0, 0] for a in range(rank) if a not in spatial_axes) or min(widths) < 0:
            return x, None
        rows, cols = 2 * spatial_axes[0], 2 * spatial_axes[1]
        return value.args[0], (tuple(widths[rows : rows + 2] + widths[cols : cols + 2]), float(value.attrs.pad_value))

    def _nhwc_source(self, x):
        """(t, pad) when `x` is permute_dims(t, [0, 3, 1, 2]) of an NHWC
        tensor t, possibly padded after (pad as `_unpadded` gives it)."""
        source, pad = self._unpadded(x, spatial_axes=(2, 3))
        value = bound_to(self, source)
        if is_op(value, "relax.permute_dims") and _ints(value.attrs.axes) == [0, 3, 1, 2]:
            return value.args[0], pad
        return None

    def _weight_gradient_sources(self, x, w):
        """(t, pad, d) when the convolution is a weight gradient of an NHWC
        one as JAX writes it: `x` is permute_dims(t, [3, 0, 1, 2]) of the
        NHWC input t (possibly padded after), its batch axis summed as the
        channels, and `w` permute_dims(d, [3, 0, 1, 2]) of the NHWC output
        gradient d."""
        source, pad = self._unpadded(x, spatial_axes=(2, 3))
        value, kernel = bound_to(self, source), bound_to(self, w)
        if (
            is_op(value, "relax.permute_dims")
            and _ints(value.attrs.axes) == [3, 0, 1, 2]
            and is_op(kernel, "relax.permute_dims")
            and _ints(kernel.attrs.axes) == [3, 0, 1, 2]
        ):
            return value.args[0], pad, kernel.args[0]
        return None

    def _rewrite_weight_gradient(self, t, pad, d, kernel, strides, dilation, out_hw, out_dtype):
        """out[i, o, p, q] = sum over (n, a, b) of t[n, p S + a D, q S + b D, i]
        d[n, a, b, o] (S the strides, D the dilation): one product of d's rows
        (n, a, b) with the patches of t whose pixels are (a, b) and whose
        kernel offsets are (p, q). As a convolution this had only
        out_hw's few pixels (a 3 x 3 kernel's) for its columns."""
        bb = self.builder_
        (kh, kw), (oh, ow) = kernel, out_hw
        n, _, _, channels = _batch_and_ints(t.ty.shape.values)
        outputs = _ints(d.ty.shape.values)[3]
        # Pixels (a, b) of the gradient step by the dilation; kernel offsets
        # (p, q) by the strides.
        patches = self._patches(_nhwc_patches, t, (oh, ow), dilation, strides, (kh, kw), pad)
        rows = bb.emit(relax.op.reshape(patches, [n * kh * kw, oh * ow * channels]))
        gradient = bb.emit(relax.op.permute_dims(bb.emit(relax.op.reshape(d, [n * kh * kw, outputs])), [1, 0]))
        product = bb.emit(relax.op.matmul(gradient, rows, out_dtype=out_dtype))
        grouped = bb.emit(relax.op.reshape(product, [outputs, oh, ow, channels]))
        return relax.op.permute_dims(grouped, [3, 0, 1, 2])

    def _hwio(self, w):
        """OIHW weights as HWIO: the tensor the import transposed, if so."""
        value = bound_to(self, w)
        if is_op(value, "relax.permute_dims") and _ints(value.attrs.axes) == [3, 2, 0, 1]:
            return value.args[0]
        return self.builder_.emit(relax.op.permute_dims(w, [2, 3, 1, 0]))

    def _rewrite_nhwc(self, x, pad, w, kernel, strides, dilation, out_hw, out_dtype):
        bb = self.builder_
        (kh, kw), (sh, sw), (dh, dw), (oh, ow) = kernel, strides, dilation, out_hw
        o = _ints(w.ty.shape.values)[3]
        if kh == kw == 1 and sh == sw == 1:
            if pad is not None:
                (top, bottom, left, right), value = pad
                x = bb.emit(relax.op.nn.pad(x, [0, 0, top, bottom, left, right, 0, 0], "constant", value))
            n, h, wd, c = _batch_and_ints(x.ty.shape.values)
            patches = bb.emit(relax.op.reshape(x, [n, h * wd, c]))
        else:
            n, _, _, c = _batch_and_ints(x.ty.shape.values)
            patches = self._patches(_nhwc_patches, x, kernel, strides, dilation, out_hw, pad)
            if len(patches.ty.shape) == 4:  # by kernel position and channel
                patches = bb.emit(relax.op.reshape(patches, [n, oh * ow, kh * kw * c]))
        weights = bb.emit(relax.op.reshape(w, [kh * kw * c, o]))
        product = bb.emit(relax.op.matmul(patches, weights, out_dtype=out_dtype))
        nhwc = bb.emit(relax.op.reshape(product, [n, oh, ow, o]))
        return relax.op.permute_dims(nhwc, [0, 3, 1, 2])

    def _rewrite_grouped(self, x, pad, w, groups, kernel, strides, dilation, out_hw, out_dtype):
        """A grouped convolution of an NHWC tensor as one batched product,
        a batch per group: each group's patches (its channels under every
        kernel position) by its HWIO weights. TVM's grouped NCHW loop nest
        took 18.8 ms on 8 x 32 x 32 x 64 with 8 groups of 8 channels (the
        whole convolution 32.9 ms; 6.4 so)."""
        bb = self.builder_
        (kh, kw), (oh, ow) = kernel, out_hw
        n, _, _, c = _batch_and_ints(x.ty.shape.values)
        o = _ints(w.ty.shape.values)[3]
        cg, og = c // groups, o // groups
        patches = self._patches(_grouped_nhwc_patches, x, groups, kernel, strides, dilation, out_hw, pad)
        rows = bb.emit(relax.op.reshape(patches, [groups, n * oh * ow, kh * kw * cg]))
        weights = bb.emit(relax.op.permute_dims(bb.emit(relax.op.reshape(w, [kh * kw * cg, groups, og])), [1, 0, 2]))
        product = bb.emit(relax.op.matmul(rows, weights, out_dtype=out_dtype))
        by_group = bb.emit(relax.op.reshape(product, [groups, n, oh, ow, og]))
        nhwc = bb.emit(relax.op.reshape(bb.emit(relax.op.permute_dims(by_group, [1, 2, 3, 0, 4])), [n, oh, ow, o]))
        return relax.op.permute_dims(nhwc, [0, 3, 1, 2])


_DTYPES = ("float32", "float64", "float16", "bfloat16", "int8", "uint8", "int16", "int32")


def _read(x, index, rows_axis, pad):
    """x[index], or the pad value where the (padded) row or column index
    falls outside x: `pad` is ((top, bottom, left, right), value) or None."""
    from tvm import tirx

    if pad is None:
        return x[tuple(index)]
    (top, _, left, _), value = pad
    index = list(index)
    index[rows_axis] -= top
    index[rows_axis + 1] -= left
    rows, cols = x.shape[rows_axis], x.shape[rows_axis + 1]
    inside = tirx.all(
        index[rows_axis] >= 0, index[rows_axis] < rows, index[rows_axis + 1] >= 0, index[rows_axis + 1] < cols
    )
    return tirx.if_then_else(inside, x[tuple(index)], tirx.const(value, x.dtype))


def _nchw_patches(x, kernel, strides, dilation, out_hw, pad=None):
    """patches[n, q, p] of an NCHW input, q over (channel, kernel row,
    kernel column) and p over output pixels: one element-wise block. (A
    stack of one strided slice per kernel position selects among them per
    element: a weight gradient's 14x14 "kernel" made a 196-way select that
    took LLVM minutes.)"""
    from tvm import te

    (kh, kw), (sh, sw), (dh, dw), (oh, ow) = kernel, strides, dilation, out_hw
    n, c = x.shape[0], int(x.shape[1])

    def element(b, q, p):
        channel, i, j = q // (kh * kw), q // kw % kh, q % kw
        return _read(x, [b, channel, p // ow * sh + i * dh, p % ow * sw + j * dw], 2, pad)

    return te.compute((n, c * kh * kw, oh * ow), element, name="patches")


def _nhwc_patches(x, kernel, strides, dilation, out_hw, pad=None):
    """patches[n, p, q] of an NHWC input, p over output pixels and q over
    (kernel row, kernel column, channel): one element-wise block (a stack
    of slices would select among them per element). The block is
    patches[n, p, k, channel] instead (k over kernel positions; [n, p, q]
    is a view of it) when the vectors the schedule would take along q would
    split kernel positions: along the channels, a vector is one contiguous
    read under one bounds test, where vectors along q that split a position
    were gathered lane by lane (int8's 64 lanes split 288 = 9 x 32 into 48:
    1.3 ms for a 2.4M-element gather, 0.15 ms along the channels; with 16
    channels, 48 lanes are three whole positions, 0.07 ms, and 16 along
    the channels 0.15)."""
    from tvm import te

    from .rule import divisor_at_most
    from .target import vector_lanes

    (kh, kw), (sh, sw), (dh, dw), (oh, ow) = kernel, strides, dilation, out_hw
    n, c = x.shape[0], int(x.shape[3])

    def read(b, p, i, j, channel):
        return _read(x, [b, p // ow * sh + i * dh, p % ow * sw + j * dw, channel], 1, pad)

    target = tvm.target.Target.current(allow_none=True)
    lanes = vector_lanes(target, max(tvm.DataType(x.dtype).bits, 8)) if target is not None else 16
    if c % 8 == 0 and divisor_at_most(kh * kw * c, lanes) % c != 0:
        return te.compute((n, oh * ow, kh * kw, c), lambda b, p, k, ch: read(b, p, k // kw, k % kw, ch), name="patches")
    return te.compute(
        (n, oh * ow, kh * kw * c), lambda b, p, q: read(b, p, q // (kw * c), q // c % kw, q % c), name="patches"
    )


def _grouped_nhwc_patches(x, groups, kernel, strides, dilation, out_hw, pad=None):
    """patches[g, n, p, k, channel] of an NHWC input: group g's channels
    under kernel position k at output pixel p, the group's channels
    innermost (contiguous reads: along (k, channel) together, vectors split
    kernel positions and were gathered lane by lane, 5.8 ms where the
    product took 1.2)."""
    from tvm import te

    (kh, kw), (sh, sw), (dh, dw), (oh, ow) = kernel, strides, dilation, out_hw
    n, cg = x.shape[0], int(x.shape[3]) // groups

    def element(g, b, p, k, channel):
        return _read(x, [b, p // ow * sh + k // kw * dh, p % ow * sw + k % kw * dw, g * cg + channel], 1, pad)

    return te.compute((groups, n, oh * ow, kh * kw, cg), element, name="patches")


@tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.ConvAsMatmul")
def ConvAsMatmul(mod: tvm.IRModule, _ctx) -> tvm.IRModule:
    return rewrite_functions(_Rewriter(mod), mod)
