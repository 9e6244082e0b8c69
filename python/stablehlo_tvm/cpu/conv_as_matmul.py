"""ConvAsMatmul: 2-D convolutions as one matrix product over their patches.

out[n, o, p] = sum_q W[o, q] * patches[n, q, p], with q running over
(channel, kernel row, kernel column) and p over output pixels; patches are
strided slices of the input stacked together (im2col), or the input itself
for a 1x1 stride-1 kernel. The product is then scheduled like any matmul
(register tiles, vectorized along the pixels), which TVM's direct conv2d
loop nest is not. Grouped, padded (the import pads explicitly) or
non-NCHW/OIHW convolutions are left alone.
"""

from __future__ import annotations

import tvm
from tvm import relax
from tvm.relax.expr_functor import PyExprMutator, mutator


def _ints(values) -> list[int]:
    return [int(v) for v in values]


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
        if (
            int(attrs.groups) != 1
            or any(_ints(attrs.padding))
            or (attrs.data_layout, attrs.kernel_layout, attrs.out_layout) != ("NCHW", "OIHW", "NCHW")
        ):
            return None
        x, w = call.args
        xs, ws = x.ty, w.ty
        if not isinstance(xs.shape, relax.ShapeExpr) or not isinstance(ws.shape, relax.ShapeExpr):
            return None
        try:
            n, c, h, wd = _ints(xs.shape.values)
            o, _, kh, kw = _ints(ws.shape.values)
        except TypeError:  # symbolic shapes
            return None
        if xs.dtype not in ("float32", "float64") or ws.dtype != xs.dtype:
            return None
        sh, sw = _ints(attrs.strides)
        dh, dw = _ints(attrs.dilation)
        oh, ow = (h - dh * (kh - 1) - 1) // sh + 1, (wd - dw * (kw - 1) - 1) // sw + 1
        if oh <= 0 or ow <= 0:
            return None
        bb = self.builder_
        if kh == kw == 1 and sh == sw == 1:
            patches = bb.emit(relax.op.reshape(x, [n, c, h * wd]))
        else:
            slices = []
            for i in range(kh):
                for j in range(kw):
                    begin = [i * dh, j * dw]
                    end = [begin[0] + (oh - 1) * sh + 1, begin[1] + (ow - 1) * sw + 1]
                    slices.append(bb.emit(relax.op.strided_slice(x, axes=[2, 3], begin=begin, end=end, strides=[sh, sw])))
            stacked = bb.emit(relax.op.stack(slices, axis=2))
            patches = bb.emit(relax.op.reshape(stacked, [n, c * kh * kw, oh * ow]))
        weights = bb.emit(relax.op.reshape(w, [o, c * kh * kw]))
        out_dtype = attrs.out_dtype if str(attrs.out_dtype) not in ("", "void") else None
        product = bb.emit(relax.op.matmul(weights, patches, out_dtype=out_dtype))
        return relax.op.reshape(product, [n, o, oh, ow])


@tvm.transform.module_pass(opt_level=0, name="stablehlo_tvm.ConvAsMatmul")
def ConvAsMatmul(mod: tvm.IRModule, _ctx) -> tvm.IRModule:
    rewriter = _Rewriter(mod)
    for gvar, func in mod.functions_items():
        if isinstance(func, relax.Function):
            rewriter.builder_.update_func(gvar, rewriter.visit_expr(func))
    return rewriter.builder_.finalize()
