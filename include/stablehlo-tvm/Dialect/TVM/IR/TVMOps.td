//===- TVMOps.td - Relax operators ---------------------------*- tablegen -*-===//
//
// Names and attribute names are those of `tvm.relax.op` (TVM 0.27).
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_TVM_OPS
#define STABLEHLO_TVM_TVM_OPS

include "stablehlo-tvm/Dialect/TVM/IR/TVMBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TVM_Tensor : RankedTensorOf<[AnyType]>;
def TVM_BoolTensor : RankedTensorOf<[I1]>;
def TVM_FloatTensor : RankedTensorOf<[AnyFloat]>;

// Every tvm op prints as `tvm.name %a, %b {attrs} : (A, B) -> R`.
class TVM_PlainOp<string mnemonic, list<Trait> traits = []>
    : TVM_Op<mnemonic, traits # [Pure]> {
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

class TVM_UnaryOp<string mnemonic, list<Trait> traits = []>
    : TVM_PlainOp<mnemonic, traits # [SameOperandsAndResultType]> {
  let arguments = (ins TVM_Tensor:$x);
  let results = (outs TVM_Tensor:$result);
}

// Relax accepts these for floating-point tensors only.
class TVM_FloatUnaryOp<string mnemonic> : TVM_UnaryOp<mnemonic> {
  let arguments = (ins TVM_FloatTensor:$x);
  let results = (outs TVM_FloatTensor:$result);
}

class TVM_BinaryOp<string mnemonic, list<Trait> traits = []>
    : TVM_PlainOp<mnemonic, traits # [SameOperandsAndResultType]> {
  let arguments = (ins TVM_Tensor:$x1, TVM_Tensor:$x2);
  let results = (outs TVM_Tensor:$result);
}

class TVM_CompareOp<string mnemonic>
    : TVM_PlainOp<mnemonic, [SameTypeOperands, SameOperandsAndResultShape]> {
  let arguments = (ins TVM_Tensor:$x1, TVM_Tensor:$x2);
  let results = (outs TVM_BoolTensor:$result);
}

class TVM_ReduceOp<string mnemonic>
    : TVM_PlainOp<mnemonic, [SameOperandsAndResultElementType]> {
  let arguments = (ins TVM_Tensor:$x, DenseI64ArrayAttr:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdims);
  let results = (outs TVM_Tensor:$result);
}

// Unary elementwise.
def TVM_AbsOp : TVM_UnaryOp<"abs">;
def TVM_NegativeOp : TVM_UnaryOp<"negative">;
def TVM_ExpOp : TVM_FloatUnaryOp<"exp">;
def TVM_LogOp : TVM_FloatUnaryOp<"log">;
def TVM_TanhOp : TVM_FloatUnaryOp<"tanh">;
def TVM_SqrtOp : TVM_FloatUnaryOp<"sqrt">;
def TVM_RsqrtOp : TVM_FloatUnaryOp<"rsqrt">;
def TVM_SigmoidOp : TVM_FloatUnaryOp<"sigmoid">;
def TVM_LogicalNotOp : TVM_UnaryOp<"logical_not">;
def TVM_CosOp : TVM_FloatUnaryOp<"cos">;
def TVM_SinOp : TVM_FloatUnaryOp<"sin">;
def TVM_TanOp : TVM_FloatUnaryOp<"tan">;
def TVM_CoshOp : TVM_FloatUnaryOp<"cosh">;
def TVM_SinhOp : TVM_FloatUnaryOp<"sinh">;
def TVM_AcosOp : TVM_FloatUnaryOp<"acos">;
def TVM_AsinOp : TVM_FloatUnaryOp<"asin">;
def TVM_AtanOp : TVM_FloatUnaryOp<"atan">;
def TVM_AcoshOp : TVM_FloatUnaryOp<"acosh">;
def TVM_AsinhOp : TVM_FloatUnaryOp<"asinh">;
def TVM_AtanhOp : TVM_FloatUnaryOp<"atanh">;
def TVM_ErfOp : TVM_FloatUnaryOp<"erf">;
def TVM_FloorOp : TVM_UnaryOp<"floor">;
def TVM_CeilOp : TVM_UnaryOp<"ceil">;
def TVM_RoundOp : TVM_UnaryOp<"round">;
def TVM_TruncOp : TVM_UnaryOp<"trunc">;
def TVM_BitwiseNotOp : TVM_UnaryOp<"bitwise_not">;

// Binary elementwise (operands already have the result's shape).
def TVM_AddOp : TVM_BinaryOp<"add", [Commutative]>;
def TVM_SubtractOp : TVM_BinaryOp<"subtract">;
def TVM_MultiplyOp : TVM_BinaryOp<"multiply", [Commutative]>;
def TVM_DivideOp : TVM_BinaryOp<"divide">;
def TVM_MaximumOp : TVM_BinaryOp<"maximum", [Commutative]>;
def TVM_MinimumOp : TVM_BinaryOp<"minimum", [Commutative]>;
def TVM_LogicalAndOp : TVM_BinaryOp<"logical_and", [Commutative]>;
def TVM_LogicalOrOp : TVM_BinaryOp<"logical_or", [Commutative]>;
def TVM_LogicalXorOp : TVM_BinaryOp<"logical_xor", [Commutative]>;
def TVM_BitwiseAndOp : TVM_BinaryOp<"bitwise_and", [Commutative]>;
def TVM_BitwiseOrOp : TVM_BinaryOp<"bitwise_or", [Commutative]>;
def TVM_BitwiseXorOp : TVM_BinaryOp<"bitwise_xor", [Commutative]>;
def TVM_PowerOp : TVM_BinaryOp<"power">;
def TVM_ModOp : TVM_BinaryOp<"mod">;
def TVM_LeftShiftOp : TVM_BinaryOp<"left_shift">;
def TVM_RightShiftOp : TVM_BinaryOp<"right_shift">;
def TVM_Atan2Op : TVM_BinaryOp<"atan2">;

def TVM_IsFiniteOp : TVM_PlainOp<"isfinite", [SameOperandsAndResultShape]> {
  let arguments = (ins TVM_Tensor:$x);
  let results = (outs TVM_BoolTensor:$result);
}

def TVM_IsNaNOp : TVM_PlainOp<"isnan", [SameOperandsAndResultShape]> {
  let summary = "relax.op.isnan: the one NaN test TVM keeps through fusion";
  let description = [{
    `logical_not(equal(x, x))` is not a NaN test once fused: TVM's simplifier
    turns `!(a == b)` into `a != b`, an ordered comparison, false for NaN.
  }];
  let arguments = (ins TVM_Tensor:$x);
  let results = (outs TVM_BoolTensor:$result);
}

// Comparisons.
def TVM_EqualOp : TVM_CompareOp<"equal">;
def TVM_NotEqualOp : TVM_CompareOp<"not_equal">;
def TVM_LessOp : TVM_CompareOp<"less">;
def TVM_LessEqualOp : TVM_CompareOp<"less_equal">;
def TVM_GreaterOp : TVM_CompareOp<"greater">;
def TVM_GreaterEqualOp : TVM_CompareOp<"greater_equal">;

def TVM_WhereOp : TVM_PlainOp<"where"> {
  let summary = "relax.op.where(condition, x1, x2), broadcasting";
  let arguments = (ins TVM_BoolTensor:$condition, TVM_Tensor:$x1,
                       TVM_Tensor:$x2);
  let results = (outs TVM_Tensor:$result);
}

def TVM_AsTypeOp : TVM_PlainOp<"astype", [SameOperandsAndResultShape]> {
  let summary = "relax.op.astype(x, dtype)";
  let arguments = (ins TVM_Tensor:$x, TypeAttr:$dtype);
  let results = (outs TVM_Tensor:$result);
  let hasVerifier = 1;
}

// Creation.
def TVM_ConstantOp : TVM_Op<"constant", [ConstantLike, Pure,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "relax.const(value)";
  let arguments = (ins ElementsAttr:$value);
  let results = (outs TVM_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

def TVM_ArangeOp : TVM_PlainOp<"arange"> {
  let summary = "relax.op.arange(start, end, step, dtype): a 1-D range";
  let description = [{
    With a `count` operand (a symbolic size), the range has `count` elements
    from `start` by `step` and its result dimension is dynamic; `end` is then
    ignored.
  }];
  let arguments = (ins I64Attr:$start, I64Attr:$end, I64Attr:$step,
                       TypeAttr:$dtype, Optional<Index>:$count);
  let results = (outs RankedTensorOf<[AnyType], [HasAnyRankOfPred<[1]>]>:$result);
  let hasVerifier = 1;
}

def TVM_ZerosOp : TVM_PlainOp<"zeros"> {
  let summary = "relax.op.zeros(shape, dtype)";
  let arguments = (ins DenseI64ArrayAttr:$shape, TypeAttr:$dtype);
  let results = (outs TVM_Tensor:$result);
  let hasVerifier = 1;
}

// Shape manipulation.
def TVM_ReshapeOp : TVM_PlainOp<"reshape"> {
  let summary = "relax.op.reshape(x, shape)";
  let description = [{
    A dynamic result dimension is -1 in `shape`: its size is the next of
    `sizes`, or, without `sizes`, the one dimension Relax infers from the
    element count.
  }];
  let arguments = (ins TVM_Tensor:$x, DenseI64ArrayAttr:$shape,
                       Variadic<Index>:$sizes);
  let results = (outs TVM_Tensor:$result);
  let hasVerifier = 1;
}

def TVM_PermuteDimsOp : TVM_PlainOp<"permute_dims",
    [SameOperandsAndResultElementType]> {
  let summary = "relax.op.permute_dims(x, axes)";
  let arguments = (ins TVM_Tensor:$x, DenseI64ArrayAttr:$axes);
  let results = (outs TVM_Tensor:$result);
  let hasVerifier = 1;
}

def TVM_BroadcastToOp : TVM_PlainOp<"broadcast_to"> {
  let summary = "relax.op.broadcast_to(x, shape), numpy broadcasting";
  let description = [{
    A dynamic result dimension is -1 in `shape`, its size the next of `sizes`.
  }];
  let arguments = (ins TVM_Tensor:$x, DenseI64ArrayAttr:$shape,
                       Variadic<Index>:$sizes);
  let results = (outs TVM_Tensor:$result);
  let hasVerifier = 1;
}

// Symbolic shapes (dynamic dimensions of one build for all sizes).
def TVM_DimOp : TVM_PlainOp<"dim"> {
  let summary = "Dimension `dim` of `x`: a symbolic size (a Relax PrimValue)";
  let arguments = (ins TVM_Tensor:$x, I64Attr:$dim);
  let results = (outs Index:$result);
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TVM_SizeTensorOp : TVM_PlainOp<"size_tensor"> {
  let summary = "A symbolic size as a rank-0 integer tensor";
  let arguments = (ins Index:$size);
  let results = (outs 0DTensorOf<[AnySignlessInteger]>:$result);
}

def TVM_TensorToSizeOp : TVM_PlainOp<"tensor_to_size"> {
  let summary = "The integer a rank-0 tensor holds, as a symbolic size";
  let description = [{
    A size known only when the function runs (a dimension argument of an
    older JAX export that no shape rule ties to an argument's dimension):
    a shape variable Relax binds from the value (tensor_to_shape and a
    match_cast). A negative value is size 0.
  }];
  let arguments = (ins 0DTensorOf<[AnySignlessInteger]>:$x);
  let results = (outs Index:$result);
}

def TVM_ShapeAssertionOp : TVM_Op<"shape_assertion", [Pure,
    AllTypesMatch<["x", "result"]>]> {
  let summary = "Checks a predicate on symbolic sizes at run time";
  let description = [{
    Returns `x` when `predicate` holds; otherwise the call fails with
    `message`, its `{0}`, `{1}`, ... replaced by `args`. Threading a value
    through keeps the check alive where Relax drops unused pure calls.
  }];
  let arguments = (ins TVM_Tensor:$x, I1:$predicate, Variadic<Index>:$args,
                       StrAttr:$message);
  let results = (outs TVM_Tensor:$result);
  let assemblyFormat = [{
    $x `,` $predicate `,` `[` $args `]` attr-dict `:` type($x)
  }];
}

def TVM_DynamicSliceOp : TVM_PlainOp<"dynamic_slice"> {
  let summary = "A window at symbolic start indices of symbolic sizes";
  let description = [{
    `starts_and_sizes` holds a start index per dimension of `x`, then a
    size per -1 of `shape` (the result's shape, -1 where dynamic). Each
    start is clamped into [0, dim - size], as StableHLO's dynamic_slice
    and gather clamp theirs; the emitter writes `relax.op.strided_slice`
    and casts its result to the sizes.
  }];
  let arguments = (ins TVM_Tensor:$x, DenseI64ArrayAttr:$shape,
                       Variadic<Index>:$starts_and_sizes);
  let results = (outs TVM_Tensor:$result);
  let hasVerifier = 1;
}

def TVM_StridedSliceOp : TVM_PlainOp<"strided_slice",
    [SameOperandsAndResultElementType]> {
  let summary = "relax.op.strided_slice(x, axes, begin, end, strides)";
  let arguments = (ins TVM_Tensor:$x, DenseI64ArrayAttr:$axes,
                       DenseI64ArrayAttr:$begin, DenseI64ArrayAttr:$end,
                       DenseI64ArrayAttr:$strides);
  let results = (outs TVM_Tensor:$result);
}

def TVM_FlipOp : TVM_PlainOp<"flip", [SameOperandsAndResultType]> {
  let summary = "relax.op.flip(data, axis): reverse one axis";
  let arguments = (ins TVM_Tensor:$data, I64Attr:$axis);
  let results = (outs TVM_Tensor:$result);
}

def TVM_TakeOp : TVM_PlainOp<"take"> {
  let summary = "relax.op.take(x, indices, axis): indices must be in range";
  let arguments = (ins TVM_Tensor:$x, RankedTensorOf<[AnyInteger]>:$indices,
                       I64Attr:$axis);
  let results = (outs TVM_Tensor:$result);
}

def TVM_PadOp : TVM_PlainOp<"nn.pad", [SameOperandsAndResultElementType]> {
  let summary = "relax.op.nn.pad(data, pad_width, pad_mode, pad_value): edge padding";
  let description = [{
    `pad_width` holds (low, high) for each axis in turn, none negative; only
    "constant" mode. Relax takes the value as a double, so it must be one a
    double holds exactly.
  }];
  let arguments = (ins TVM_Tensor:$data, DenseI64ArrayAttr:$pad_width,
                       StrAttr:$pad_mode, F64Attr:$pad_value);
  let results = (outs TVM_Tensor:$result);
  let hasVerifier = 1;
}

def TVM_ConcatOp : TVM_PlainOp<"concat", [SameOperandsAndResultElementType]> {
  let summary = "relax.op.concat(tensors, axis): operands form the tuple";
  let arguments = (ins Variadic<TVM_Tensor>:$tensors, I64Attr:$axis);
  let results = (outs TVM_Tensor:$result);
}

// Linear algebra.
def TVM_MatmulOp : TVM_PlainOp<"matmul"> {
  let summary = "relax.op.matmul(x1, x2, out_dtype), numpy matmul semantics";
  let description = [{
    With `rounded_products`, each product x1[.., i, k] * x2[.., k, j] is
    rounded to the element type before it is added (no fused multiply-add)
    and the sum runs over k in order: XLA's complex dot, whose parts are
    such sums. The emitter writes that matmul itself.
  }];
  let arguments = (ins TVM_Tensor:$x1, TVM_Tensor:$x2,
                       OptionalAttr<TypeAttr>:$out_dtype,
                       UnitAttr:$rounded_products);
  let results = (outs TVM_Tensor:$result);
}

// Convolution (NC<spatial> data, OI<spatial> weights, the default layouts).
class TVM_ConvOp<string mnemonic> : TVM_PlainOp<mnemonic> {
  let summary = "relax.op.nn.convNd(data, weight, strides, padding, dilation, groups)";
  let arguments = (ins TVM_Tensor:$data, TVM_Tensor:$weight,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$dilation, I64Attr:$groups,
                       OptionalAttr<TypeAttr>:$out_dtype);
  let results = (outs TVM_Tensor:$result);
}
def TVM_Conv1DOp : TVM_ConvOp<"nn.conv1d">;
def TVM_Conv2DOp : TVM_ConvOp<"nn.conv2d">;
def TVM_Conv3DOp : TVM_ConvOp<"nn.conv3d">;

// Sorting.
def TVM_TopKOp : TVM_PlainOp<"topk"> {
  let summary = "relax.op.topk(data, k, axis, ret_type, largest, dtype): (values, indices)";
  let description = [{
    Ties keep the lower index first; the Relax result is a tuple, taken apart
    by the emitter.
  }];
  let arguments = (ins TVM_Tensor:$data, I64Attr:$k, I64Attr:$axis,
                       StrAttr:$ret_type, BoolAttr:$largest, TypeAttr:$dtype);
  let results = (outs TVM_Tensor:$values, RankedTensorOf<[AnyInteger]>:$indices);
}

// Reductions.
def TVM_SumOp : TVM_ReduceOp<"sum">;
def TVM_ProdOp : TVM_ReduceOp<"prod">;
def TVM_MaxOp : TVM_ReduceOp<"max">;
def TVM_MinOp : TVM_ReduceOp<"min">;

// Control flow.
def TVM_WhileOp : TVM_Op<"while", [RecursiveMemoryEffects,
                                   IsolatedFromAbove]> {
  let summary = "A loop: a recursive Relax function with an If";
  let description = [{
    Runs `body` on the loop-carried values while `cond` yields true; both
    regions take the carried values as arguments and end in `tvm.yield`
    (`cond` with one boolean scalar tensor). The emitter writes the regions
    as private Relax functions and the loop as a private function that calls
    itself under a Relax `If`; nothing is recompiled per iteration.
    `copied_inits` lists the carried values the body updates in place
    (`tvm.update_slice_in_place`): the loop starts from copies of them.
  }];
  let arguments = (ins Variadic<TVM_Tensor>:$inits,
                       OptionalAttr<DenseI64ArrayAttr>:$copied_inits);
  let results = (outs Variadic<TVM_Tensor>:$results);
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let hasRegionVerifier = 1;
}

def TVM_UpdateSliceInPlaceOp : TVM_Op<"update_slice_in_place",
    [MemoryEffects<[MemRead, MemWrite]>,
     AllTypesMatch<["operand", "result"]>,
     AllElementTypesMatch<["operand", "update"]>]> {
  let summary = "dynamic_update_slice into the operand's own buffer: relax.call_tir_inplace";
  let description = [{
    Writes `update` into `operand` at `starts` (i64 scalars, already clamped
    so that the window fits) and returns the operand's buffer: only the
    window is written. The operand must have no other use; the importer
    emits it for a loop-carried value updated once per iteration, whose
    initial value the loop copies first (`tvm.while`'s `copied_inits`).
  }];
  let arguments = (ins TVM_Tensor:$operand, TVM_Tensor:$update,
                       Variadic<0DTensorOf<[I64]>>:$starts);
  let results = (outs TVM_Tensor:$result);
  let assemblyFormat = [{
    $operand `[` $starts `]` `,` $update attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TVM_CaseOp : TVM_Op<"case", [RecursiveMemoryEffects]> {
  let summary = "Runs one of its branches: a chain of Relax Ifs";
  let description = [{
    Runs branch `index` (the last one when `index` is out of range) and
    returns what it yields. Branches take no arguments and may use values
    from the enclosing function; the emitter writes each as a private Relax
    function taking those values, and picks one with nested `If`s.
  }];
  let arguments = (ins 0DTensorOf<[I32]>:$index);
  let results = (outs Variadic<TVM_Tensor>:$results);
  let regions = (region VariadicRegion<SizedRegion<1>>:$branches);
  let hasRegionVerifier = 1;
}

def TVM_CallOp : TVM_Op<"call", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Calls another function of the module: a Relax call of its GlobalVar";
  let description = [{
    The callee is a public function of the same module, emitted as its own
    Relax function; several results come back as a tuple.
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<TVM_Tensor>:$inputs);
  let results = (outs Variadic<TVM_Tensor>:$results);
  let assemblyFormat = [{
    $callee `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
  }];
}

def TVM_CallDpsPackedOp : TVM_Op<"call_dps_packed", [Pure]> {
  let summary = "Calls a registered packed function in destination-passing style";
  let description = [{
    `relax.call_dps_packed(function, [inputs..., scalars...], out_ty)`: the
    function, registered with TVM's FFI under `function`, receives the input
    tensors, then each scalar as an int64, then one preallocated tensor per
    result to write. Library routines (LAPACK, ...) are called this way.
  }];
  let arguments = (ins StrAttr:$function, Variadic<TVM_Tensor>:$inputs,
                   DenseI64ArrayAttr:$scalars);
  let results = (outs Variadic<TVM_Tensor>:$results);
  let assemblyFormat = [{
    $function `(` $inputs `)` `scalars` `=` $scalars attr-dict `:`
      functional-type($inputs, $results)
  }];
}

def TVM_YieldOp : TVM_Op<"yield", [Pure, Terminator,
                                   ParentOneOf<["WhileOp", "CaseOp"]>]> {
  let summary = "The values a region of a tvm control-flow op produces";
  let arguments = (ins Variadic<TVM_Tensor>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

// Kernels: what no Relax operator computes.
def TVM_KernelOp : TVM_Op<"kernel", [IsolatedFromAbove, SingleBlock,
                                     NoTerminator, Pure,
                                     AttrSizedOperandSegments]> {
  let summary = "A TIR PrimFunc from a scalar loop nest, called with call_tir";
  let description = [{
    The body is the PrimFunc: its block arguments are buffers, one memref per
    input tensor and then one per result tensor (same shape, signless element
    type), and its ops are loops (`scf.for`, `scf.parallel`, `scf.if` without
    results), buffer accesses (`memref.load`, `memref.store`, `memref.alloca`
    for scalars local to an iteration) and scalar `arith`/`math` ops. The
    emitter turns each op into one TIR statement or expression and calls the
    PrimFunc with `relax.call_tir(kernel, inputs, results)`. `name` names the
    PrimFunc.

    With `in_place`, result i is written into the buffer of input
    `in_place[i]` (`relax.call_tir_inplace`; -1: a buffer of its own): the
    body writes that input's buffer and leaves the result's unused. The
    importer asks for it only where no one else reads the input (a
    loop-carried value, whose initial value the loop copies first).

    Results with dynamic dimensions take their sizes from `result_sizes`,
    one per dynamic dimension in order (the body reads the buffers' sizes
    with `memref.dim`).

    ```mlir
    %r = tvm.kernel "argmax" (%x) : (tensor<8xf32>) -> tensor<i32> {
    ^bb0(%in: memref<8xf32>, %out: memref<i32>):
      ...
    }
    ```
  }];
  let arguments = (ins StrAttr:$name, Variadic<TVM_Tensor>:$inputs,
                       Variadic<Index>:$result_sizes,
                       OptionalAttr<DenseI64ArrayAttr>:$in_place);
  let results = (outs Variadic<TVM_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $name `(` $inputs `)` (`sizes` `[` $result_sizes^ `]`)? attr-dict `:`
    functional-type($inputs, $results) $body
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The memref a kernel body sees for a tensor of `type`.
    static MemRefType bufferType(RankedTensorType type);
    /// The buffers of the inputs, then of the results.
    Block::BlockArgListType getInputBuffers() {
      return getBody().front().getArguments().take_front(getInputs().size());
    }
    Block::BlockArgListType getResultBuffers() {
      return getBody().front().getArguments().drop_front(getInputs().size());
    }
  }];
}

#endif // STABLEHLO_TVM_TVM_OPS
