//===- StableHLOOps.td - StableHLO operations ---------------*- tablegen -*-===//
//
// Operations of the StableHLO specification. Each op's pretty syntax is the one
// jaxlib prints; the generic syntax falls out of ODS (inherent attributes are
// properties, printed as `<{...}>`).
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_STABLEHLO_OPS
#define STABLEHLO_TVM_STABLEHLO_OPS

include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLOBase.td"
include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLOEnums.td"
include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLOAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Elementwise ops: `stablehlo.op %x : T` when every type is the same, else
// `stablehlo.op %x : (T) -> R`.
//===----------------------------------------------------------------------===//

class HLO_UnaryElementwiseOp<string mnemonic, list<Trait> traits = [],
                             Type operandType = HLO_Tensor,
                             Type resultType = operandType>
    : StableHLO_Op<mnemonic,
        traits # [Pure, Elementwise, SameOperandsAndResultShape]> {
  let arguments = (ins operandType:$operand);
  let results = (outs resultType:$result);
  let assemblyFormat = [{
    $operand attr-dict `:`
      custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
}

class HLO_BinaryElementwiseOp<string mnemonic, list<Trait> traits = [],
                              Type type = HLO_Tensor>
    : StableHLO_Op<mnemonic,
        traits # [Pure, Elementwise, HLO_SameBaselineOperandsAndResultType]> {
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs type:$result);
  let builders = [
    OpBuilder<(ins "Value":$lhs, "Value":$rhs),
      [{ build($_builder, $_state, lhs.getType(), lhs, rhs); }]>
  ];
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:`
      custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))
  }];
}

def HLO_FpOrComplexTensor : RankedTensorOf<[AnyFloat, AnyComplex]>;
def HLO_FpComplexOrQuantizedTensor
    : RankedTensorOf<[AnyFloat, AnyComplex, HLO_QuantizedInt]>;
def HLO_FpOrQuantizedTensor : RankedTensorOf<[AnyFloat, HLO_QuantizedInt]>;

// A transcendental op, which may carry a result_accuracy.
class HLO_AccurateUnaryOp<string mnemonic>
    : StableHLO_Op<mnemonic,
        [Pure, Elementwise, HLO_SameBaselineOperandsAndResultType]> {
  let arguments = (ins HLO_FpComplexOrQuantizedTensor:$operand,
                       OptionalAttr<StableHLO_ResultAccuracy>:$result_accuracy);
  let results = (outs HLO_FpComplexOrQuantizedTensor:$result);
  let builders = [
    OpBuilder<(ins "Value":$operand),
      [{ build($_builder, $_state, operand.getType(), operand, nullptr); }]>
  ];
  let assemblyFormat = [{
    $operand attr-dict `:`
      custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
}
def HLO_FpTensor : RankedTensorOf<[AnyFloat]>;
def HLO_ComplexTensor : RankedTensorOf<[AnyComplex]>;
def HLO_IntOrPredTensor : RankedTensorOf<[HLO_Int]>;

def StableHLO_AbsOp : HLO_UnaryElementwiseOp<"abs", [], HLO_Tensor> {
  let summary = "elementwise absolute value (complex operands give their modulus)";
  let hasVerifier = 1;
}
def StableHLO_NegOp : HLO_UnaryElementwiseOp<"negate",
    [HLO_SameBaselineOperandsAndResultType]> {
  let summary = "elementwise negation";
}
def StableHLO_ExpOp : HLO_AccurateUnaryOp<"exponential"> {
  let summary = "elementwise e^x";
}
def StableHLO_LogOp : HLO_AccurateUnaryOp<"log"> {
  let summary = "elementwise natural logarithm";
}
def StableHLO_TanhOp : HLO_AccurateUnaryOp<"tanh"> {
  let summary = "elementwise hyperbolic tangent";
}
def StableHLO_SqrtOp : HLO_AccurateUnaryOp<"sqrt"> {
  let summary = "elementwise square root";
}
def StableHLO_RsqrtOp : HLO_AccurateUnaryOp<"rsqrt"> {
  let summary = "elementwise reciprocal square root";
}
def StableHLO_LogisticOp : HLO_AccurateUnaryOp<"logistic"> {
  let summary = "elementwise 1 / (1 + e^-x)";
}
def StableHLO_NotOp : HLO_UnaryElementwiseOp<"not",
    [SameOperandsAndResultType], HLO_IntOrPredTensor> {
  let summary = "elementwise logical (i1) or bitwise (integers) not";
}
def StableHLO_ConvertOp : HLO_UnaryElementwiseOp<"convert"> {
  let summary = "elementwise conversion between element types";
}

def StableHLO_AddOp : HLO_BinaryElementwiseOp<"add", [Commutative]> {
  let summary = "elementwise addition (logical or for i1)";
}
def StableHLO_SubtractOp : HLO_BinaryElementwiseOp<"subtract"> {
  let summary = "elementwise subtraction";
}
def StableHLO_MulOp : HLO_BinaryElementwiseOp<"multiply", [Commutative]> {
  let summary = "elementwise multiplication (logical and for i1)";
}
def StableHLO_DivOp : HLO_BinaryElementwiseOp<"divide"> {
  let summary = "elementwise division (integers truncate toward zero)";
}
def StableHLO_MaxOp : HLO_BinaryElementwiseOp<"maximum", [Commutative]> {
  let summary = "elementwise maximum (NaN propagates)";
}
def StableHLO_MinOp : HLO_BinaryElementwiseOp<"minimum", [Commutative]> {
  let summary = "elementwise minimum (NaN propagates)";
}
def StableHLO_AndOp : HLO_BinaryElementwiseOp<"and", [Commutative],
    HLO_IntOrPredTensor> {
  let summary = "elementwise logical or bitwise and";
}
def StableHLO_OrOp : HLO_BinaryElementwiseOp<"or", [Commutative],
    HLO_IntOrPredTensor> {
  let summary = "elementwise logical or bitwise or";
}
def StableHLO_XorOp : HLO_BinaryElementwiseOp<"xor", [Commutative],
    HLO_IntOrPredTensor> {
  let summary = "elementwise logical or bitwise exclusive or";
}


def StableHLO_CbrtOp : HLO_AccurateUnaryOp<"cbrt"> {
  let summary = "elementwise cube root";
}
def StableHLO_CeilOp : HLO_UnaryElementwiseOp<"ceil",
    [HLO_SameBaselineOperandsAndResultType], HLO_FpOrQuantizedTensor> {
  let summary = "elementwise ceiling";
}
def StableHLO_FloorOp : HLO_UnaryElementwiseOp<"floor",
    [HLO_SameBaselineOperandsAndResultType], HLO_FpOrQuantizedTensor> {
  let summary = "elementwise floor";
}
def StableHLO_CosineOp : HLO_AccurateUnaryOp<"cosine"> {
  let summary = "elementwise cosine";
}
def StableHLO_SineOp : HLO_AccurateUnaryOp<"sine"> {
  let summary = "elementwise sine";
}
def StableHLO_TanOp : HLO_AccurateUnaryOp<"tan"> {
  let summary = "elementwise tangent";
}
def StableHLO_Expm1Op : HLO_AccurateUnaryOp<"exponential_minus_one"> {
  let summary = "elementwise e^x - 1";
}
def StableHLO_Log1pOp : HLO_AccurateUnaryOp<"log_plus_one"> {
  let summary = "elementwise log(1 + x)";
}
def StableHLO_RoundOp : HLO_UnaryElementwiseOp<"round_nearest_afz",
    [HLO_SameBaselineOperandsAndResultType], HLO_FpOrQuantizedTensor> {
  let summary = "elementwise rounding, ties away from zero";
}
def StableHLO_RoundNearestEvenOp : HLO_UnaryElementwiseOp<"round_nearest_even",
    [HLO_SameBaselineOperandsAndResultType], HLO_FpOrQuantizedTensor> {
  let summary = "elementwise rounding, ties to even";
}
def StableHLO_SignOp : HLO_UnaryElementwiseOp<"sign",
    [HLO_SameBaselineOperandsAndResultType]> {
  let summary = "elementwise sign: -1, 0 or 1 (NaN stays NaN)";
}
def StableHLO_PopulationCountOp : HLO_UnaryElementwiseOp<"popcnt",
    [SameOperandsAndResultType], HLO_IntTensor> {
  let summary = "elementwise number of set bits";
}
def StableHLO_ClzOp : HLO_UnaryElementwiseOp<"count_leading_zeros",
    [SameOperandsAndResultType], HLO_IntTensor> {
  let summary = "elementwise number of leading zero bits";
}
def StableHLO_IsFiniteOp : HLO_UnaryElementwiseOp<"is_finite", [],
    HLO_FpTensor, HLO_PredTensor> {
  let summary = "elementwise test for a finite value";
}
def StableHLO_RealOp : HLO_UnaryElementwiseOp<"real"> {
  let summary = "real part (identity on real numbers)";
  let hasVerifier = 1;
}
def StableHLO_ImagOp : HLO_UnaryElementwiseOp<"imag"> {
  let summary = "imaginary part (zero on real numbers)";
  let hasVerifier = 1;
}
def StableHLO_BitcastConvertOp : StableHLO_Op<"bitcast_convert", [Pure]> {
  let summary = "reinterpret the bits of each element as another type";
  let arguments = (ins HLO_Tensor:$operand);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}
def StableHLO_ReducePrecisionOp : StableHLO_Op<"reduce_precision",
    [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "round to a narrower float format, keeping the type";
  let arguments = (ins HLO_FpTensor:$operand,
                       ConfinedAttr<I32Attr, [IntPositive]>:$exponent_bits,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$mantissa_bits);
  let results = (outs HLO_FpTensor:$output);
  let assemblyFormat = [{
    $operand `,` `format` `=`
      custom<ExponentMantissa>($exponent_bits, $mantissa_bits)
      attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($output))
  }];
}

def StableHLO_Atan2Op : HLO_BinaryElementwiseOp<"atan2", [],
    HLO_FpComplexOrQuantizedTensor> {
  let summary = "elementwise atan2(lhs, rhs)";
}
def StableHLO_PowOp : HLO_BinaryElementwiseOp<"power"> {
  let summary = "elementwise lhs ^ rhs";
}
def StableHLO_RemOp : HLO_BinaryElementwiseOp<"remainder"> {
  let summary = "elementwise remainder with the sign of the dividend";
}
def StableHLO_ShiftLeftOp : HLO_BinaryElementwiseOp<"shift_left", [],
    HLO_IntTensor> {
  let summary = "elementwise left shift (0 when the amount is too large)";
}
def StableHLO_ShiftRightArithmeticOp : HLO_BinaryElementwiseOp<
    "shift_right_arithmetic", [], HLO_IntTensor> {
  let summary = "elementwise arithmetic right shift";
}
def StableHLO_ShiftRightLogicalOp : HLO_BinaryElementwiseOp<
    "shift_right_logical", [], HLO_IntTensor> {
  let summary = "elementwise logical right shift";
}

def StableHLO_ComplexOp : StableHLO_Op<"complex",
    [Pure, Elementwise, SameOperandsAndResultShape, SameTypeOperands]> {
  let summary = "complex numbers from real and imaginary parts";
  let arguments = (ins HLO_FpTensor:$lhs, HLO_FpTensor:$rhs);
  let results = (outs HLO_ComplexTensor:$result);
  let assemblyFormat = [{
    operands attr-dict `:`
      custom<ComplexOpType>(type($lhs), type($rhs), type($result))
  }];
}

def StableHLO_ClampOp : StableHLO_Op<"clamp", [Pure]> {
  let summary = "elementwise min(max(operand, min), max); bounds may be scalars";
  let arguments = (ins HLO_Tensor:$min, HLO_Tensor:$operand, HLO_Tensor:$max);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $min `,` $operand `,` $max attr-dict `:`
      custom<SameOperandsAndResultType>(type($min), type($operand),
                                        type($max), type($result))
  }];
  let hasVerifier = 1;
}

def StableHLO_UniformQuantizeOp : StableHLO_Op<"uniform_quantize",
    [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "quantize floats (or requantize) to a quantized type";
  let arguments = (ins HLO_Tensor:$operand);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand attr-dict `:`
      custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
  let hasVerifier = 1;
}
def StableHLO_UniformDequantizeOp : StableHLO_Op<"uniform_dequantize",
    [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "dequantize to the expressed float type";
  let arguments = (ins HLO_Tensor:$operand);
  let results = (outs HLO_FpTensor:$result);
  let assemblyFormat = [{
    $operand attr-dict `:`
      custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
  let hasVerifier = 1;
}

def StableHLO_CompareOp : StableHLO_Op<"compare",
    [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "elementwise comparison";
  let arguments = (ins
    HLO_Tensor:$lhs,
    HLO_Tensor:$rhs,
    StableHLO_ComparisonDirectionAttr:$comparison_direction,
    OptionalAttr<StableHLO_ComparisonTypeAttr>:$compare_type
  );
  let results = (outs HLO_PredTensor:$result);
  let assemblyFormat = [{
    $comparison_direction `,` $lhs `,` $rhs (`,` $compare_type^)?
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_SelectOp : StableHLO_Op<"select", [Pure]> {
  let summary = "elementwise choice by a predicate (scalar or same shape)";
  let arguments = (ins HLO_PredTensor:$pred, HLO_Tensor:$on_true,
                       HLO_Tensor:$on_false);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    operands attr-dict `:`
      custom<SelectOpType>(type($pred), type($on_true), type($on_false),
                           type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Constants and data movement.
//===----------------------------------------------------------------------===//

def StableHLO_ConstantOp : StableHLO_Op<"constant",
    [ConstantLike, Pure,
     DeclareOpInterfaceMethods<InferTypeOpInterface>,
     DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "a tensor constant";
  let description = [{
    `stablehlo.constant dense<...> : T`, the value's type the result's; a
    quantized constant holds its storage values and prints as jaxlib does:
    `stablehlo.constant() <{value = dense<...> : tensor<2xi8>}> : () ->
    tensor<2x!quant.uniform<...>>`.
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs HLO_Tensor:$output);
  let hasCustomAssemblyFormat = 1;
  let hasFolder = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    static bool isCompatibleReturnTypes(::mlir::TypeRange inferred,
                                        ::mlir::TypeRange actual);
    /// A rank-0 zero of `elementType` (a pad value, a broadcast zero).
    static ConstantOp createZeroScalar(::mlir::OpBuilder &builder,
                                       ::mlir::Location loc,
                                       ::mlir::Type elementType);
  }];
}

def StableHLO_IotaOp : StableHLO_Op<"iota", [Pure]> {
  let summary = "a tensor counting 0, 1, ... along one dimension";
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$iota_dimension);
  let results = (outs HLO_Tensor:$output);
  let assemblyFormat = "`dim` `=` $iota_dimension attr-dict `:` type($output)";
  let hasVerifier = 1;
}

def StableHLO_BroadcastInDimOp : StableHLO_Op<"broadcast_in_dim",
    [Pure, SameOperandsAndResultElementType]> {
  let summary = "broadcast an operand into a result, operand dim i -> result dim dims[i]";
  let arguments = (ins HLO_Tensor:$operand,
                       DenseI64ArrayAttr:$broadcast_dimensions);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $broadcast_dimensions
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_ReshapeOp : StableHLO_Op<"reshape",
    [Pure, SameOperandsAndResultElementType]> {
  let summary = "reshape in row-major order";
  let arguments = (ins HLO_Tensor:$operand);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def StableHLO_TransposeOp : StableHLO_Op<"transpose",
    [Pure, SameOperandsAndResultElementType]> {
  let summary = "permute dimensions: result dim i is operand dim permutation[i]";
  let arguments = (ins HLO_Tensor:$operand, DenseI64ArrayAttr:$permutation);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $permutation
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_SliceOp : StableHLO_Op<"slice",
    [Pure, SameOperandsAndResultElementType]> {
  let summary = "static strided slice";
  let arguments = (ins HLO_Tensor:$operand,
                       DenseI64ArrayAttr:$start_indices,
                       DenseI64ArrayAttr:$limit_indices,
                       DenseI64ArrayAttr:$strides);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand custom<SliceRanges>($start_indices, $limit_indices, $strides)
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_ConcatenateOp : StableHLO_Op<"concatenate",
    [Pure, SameOperandsAndResultElementType]> {
  let summary = "concatenate tensors along one dimension";
  let arguments = (ins Variadic<HLO_Tensor>:$inputs,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dimension);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    custom<VariadicOperandWithAttribute>($inputs) `dim` `=` $dimension
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}


//===----------------------------------------------------------------------===//
// More data movement.
//===----------------------------------------------------------------------===//

def StableHLO_PadOp : StableHLO_Op<"pad",
    [Pure, SameOperandsAndResultElementType]> {
  let summary = "pad with edge (possibly negative) and interior padding";
  let arguments = (ins HLO_Tensor:$operand, HLO_ScalarTensor:$padding_value,
                       DenseI64ArrayAttr:$edge_padding_low,
                       DenseI64ArrayAttr:$edge_padding_high,
                       DenseI64ArrayAttr:$interior_padding);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` $padding_value `,` `low` `=` $edge_padding_low `,`
      `high` `=` $edge_padding_high `,` `interior` `=` $interior_padding
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_ReverseOp : StableHLO_Op<"reverse",
    [Pure, SameOperandsAndResultType]> {
  let summary = "reverse the order of elements along dimensions";
  let arguments = (ins HLO_Tensor:$operand, DenseI64ArrayAttr:$dimensions);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $dimensions attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def StableHLO_DynamicSliceOp : StableHLO_Op<"dynamic_slice",
    [Pure, AllElementTypesMatch<["operand", "result"]>]> {
  let summary = "slice at runtime start indices (clamped into bounds)";
  let arguments = (ins HLO_Tensor:$operand,
                       Variadic<HLO_ScalarIntTensor>:$start_indices,
                       DenseI64ArrayAttr:$slice_sizes);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` custom<VariadicOperandWithAttribute>($start_indices)
      `sizes` `=` $slice_sizes attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_DynamicUpdateSliceOp : StableHLO_Op<"dynamic_update_slice",
    [Pure, AllElementTypesMatch<["operand", "update", "result"]>,
     AllShapesMatch<["operand", "result"]>]> {
  let summary = "overwrite a slice at runtime start indices (clamped)";
  let arguments = (ins HLO_Tensor:$operand, HLO_Tensor:$update,
                       Variadic<HLO_ScalarIntTensor>:$start_indices);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def StableHLO_GetDimensionSizeOp : StableHLO_Op<"get_dimension_size", [Pure]> {
  let summary = "the size of one dimension, as a tensor<i32>";
  let arguments = (ins HLO_Tensor:$operand, I64Attr:$dimension);
  let results = (outs 0DTensorOf<[I32]>:$result);
  let assemblyFormat = [{
    $operand `,` `dim` `=` $dimension attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_DynamicBroadcastInDimOp : StableHLO_Op<"dynamic_broadcast_in_dim",
    [Pure]> {
  let summary = "broadcast_in_dim to a runtime shape";
  let arguments = (ins HLO_Tensor:$operand, HLO_DimensionTensor:$output_dimensions,
                       DenseI64ArrayAttr:$broadcast_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$known_expanding_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$known_nonexpanding_dimensions);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` $output_dimensions `,` `dims` `=` $broadcast_dimensions
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_DynamicIotaOp : StableHLO_Op<"dynamic_iota", [Pure]> {
  let summary = "iota of a runtime shape";
  let arguments = (ins HLO_DimensionTensor:$output_shape, I64Attr:$iota_dimension);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $output_shape `,` `dim` `=` $iota_dimension attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_DynamicReshapeOp : StableHLO_Op<"dynamic_reshape", [Pure]> {
  let summary = "reshape to a runtime shape";
  let arguments = (ins HLO_Tensor:$operand, HLO_DimensionTensor:$output_shape);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def StableHLO_RealDynamicSliceOp : StableHLO_Op<"real_dynamic_slice", [Pure]> {
  let summary = "slice with runtime start, limit and stride tensors";
  let arguments = (ins HLO_Tensor:$operand, HLO_DimensionTensor:$start_indices,
                       HLO_DimensionTensor:$limit_indices,
                       HLO_DimensionTensor:$strides);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def StableHLO_DynamicPadOp : StableHLO_Op<"dynamic_pad", [Pure]> {
  let summary = "pad with runtime padding amounts";
  let arguments = (ins HLO_Tensor:$operand, HLO_ScalarTensor:$padding_value,
                       HLO_DimensionTensor:$edge_padding_low,
                       HLO_DimensionTensor:$edge_padding_high,
                       HLO_DimensionTensor:$interior_padding);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Gather and scatter (jaxlib prints these in generic form).
//===----------------------------------------------------------------------===//

def StableHLO_GatherOp : StableHLO_Op<"gather", [Pure]> {
  let summary = "gather slices of an operand at start indices";
  let arguments = (ins HLO_Tensor:$operand, HLO_IntTensor:$start_indices,
                       StableHLO_GatherDimensionNumbers:$dimension_numbers,
                       DenseI64ArrayAttr:$slice_sizes,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$indices_are_sorted);
  let results = (outs HLO_Tensor:$result);
  let hasVerifier = 1;
}

def StableHLO_DynamicGatherOp : StableHLO_Op<"dynamic_gather", [Pure]> {
  let summary = "gather with runtime slice sizes";
  let arguments = (ins HLO_Tensor:$operand, HLO_IntTensor:$start_indices,
                       HLO_DimensionTensor:$slice_sizes,
                       StableHLO_GatherDimensionNumbers:$dimension_numbers,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$indices_are_sorted);
  let results = (outs HLO_Tensor:$result);
  let hasVerifier = 1;
}

def StableHLO_ScatterOp : StableHLO_Op<"scatter",
    [RecursiveMemoryEffects, SameVariadicOperandSize]> {
  let summary = "combine updates into operands at scatter indices with a body";
  let arguments = (ins Variadic<HLO_Tensor>:$inputs,
                       HLO_IntTensor:$scatter_indices,
                       Variadic<HLO_Tensor>:$updates,
                       StableHLO_ScatterDimensionNumbers:$scatter_dimension_numbers,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$indices_are_sorted,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$unique_indices);
  let results = (outs Variadic<HLO_Tensor>);
  let regions = (region SizedRegion<1>:$update_computation);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Ops with scalar bodies (generic form).
//===----------------------------------------------------------------------===//

def StableHLO_SortOp : StableHLO_Op<"sort", [RecursiveMemoryEffects]> {
  let summary = "sort tensors along a dimension with a comparator body";
  let arguments = (ins Variadic<HLO_Tensor>:$inputs,
                       DefaultValuedOptionalAttr<I64Attr, "-1">:$dimension,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$is_stable);
  let results = (outs Variadic<HLO_Tensor>);
  let regions = (region SizedRegion<1>:$comparator);
  let hasVerifier = 1;
}

def StableHLO_ReduceWindowOp : StableHLO_Op<"reduce_window",
    [RecursiveMemoryEffects, SameVariadicOperandSize]> {
  let summary = "reduce each window of the inputs with a body";
  let arguments = (ins Variadic<HLO_Tensor>:$inputs,
                       Variadic<HLO_ScalarTensor>:$init_values,
                       DenseI64ArrayAttr:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$base_dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dilations,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs Variadic<HLO_Tensor>);
  let regions = (region SizedRegion<1>:$body);
  let hasVerifier = 1;
}

def StableHLO_SelectAndScatterOp : StableHLO_Op<"select_and_scatter",
    [RecursiveMemoryEffects]> {
  let summary = "scatter a source into the window positions a body selects";
  let arguments = (ins HLO_Tensor:$operand, HLO_Tensor:$source,
                       HLO_ScalarTensor:$init_value,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs HLO_Tensor);
  let regions = (region SizedRegion<1>:$select, SizedRegion<1>:$scatter);
  let hasVerifier = 1;
}

def StableHLO_MapOp : StableHLO_Op<"map", [RecursiveMemoryEffects,
    SameOperandsAndResultShape]> {
  let summary = "apply a scalar body elementwise";
  let arguments = (ins Variadic<HLO_Tensor>:$inputs,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs HLO_Tensor);
  let regions = (region SizedRegion<1>:$computation);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Control flow, tuples and tokens.
//===----------------------------------------------------------------------===//

def StableHLO_WhileOp : StableHLO_Op<"while", [RecursiveMemoryEffects]> {
  let summary = "loop while the cond body returns true";
  let arguments = (ins Variadic<HLO_TensorOrTokenOrTuple>:$operand);
  let results = (outs Variadic<HLO_TensorOrTokenOrTuple>);
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def StableHLO_IfOp : StableHLO_Op<"if", [RecursiveMemoryEffects]> {
  let summary = "run one of two branches";
  let arguments = (ins HLO_PredTensor:$pred);
  let results = (outs Variadic<HLO_TensorOrTokenOrTuple>);
  let regions = (region SizedRegion<1>:$true_branch,
                        SizedRegion<1>:$false_branch);
  let hasVerifier = 1;
}

def StableHLO_CaseOp : StableHLO_Op<"case", [RecursiveMemoryEffects]> {
  let summary = "run the branch an index selects (the last when out of range)";
  let arguments = (ins 0DTensorOf<[I32]>:$index);
  let results = (outs Variadic<HLO_TensorOrTokenOrTuple>);
  let regions = (region VariadicRegion<SizedRegion<1>>:$branches);
  let hasVerifier = 1;
}

def StableHLO_OptimizationBarrierOp : StableHLO_Op<"optimization_barrier",
    [Pure]> {
  let summary = "values that optimizations may not move across";
  let arguments = (ins Variadic<HLO_TensorOrTokenOrTuple>:$operand);
  let results = (outs Variadic<HLO_TensorOrTokenOrTuple>:$result);
  let assemblyFormat = [{
    attr-dict ($operand^ `:` custom<PairwiseOpType>(type($operand), type($result)))?
  }];
  let hasVerifier = 1;
}

def StableHLO_CompositeOp : StableHLO_Op<"composite",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a named op with a decomposition function";
  let arguments = (ins Variadic<HLO_TensorOrTokenOrTuple>:$inputs,
                       StrAttr:$name,
                       DefaultValuedOptionalAttr<DictionaryAttr, "{}">:$composite_attributes,
                       FlatSymbolRefAttr:$decomposition,
                       DefaultValuedOptionalAttr<I32Attr, "0">:$version);
  let results = (outs Variadic<HLO_TensorOrTokenOrTuple>);
  let assemblyFormat = "$name $inputs attr-dict `:` functional-type(operands, results)";
}

def StableHLO_TupleOp : StableHLO_Op<"tuple", [Pure]> {
  let summary = "a tuple of values";
  let arguments = (ins Variadic<HLO_TensorOrTokenOrTuple>:$val);
  let results = (outs HLO_Tuple:$result);
  let assemblyFormat = "$val attr-dict `:` custom<TupleOpType>(type($val), type($result))";
  let hasVerifier = 1;
}

def StableHLO_GetTupleElementOp : StableHLO_Op<"get_tuple_element", [Pure]> {
  let summary = "one element of a tuple";
  let arguments = (ins HLO_Tuple:$operand, ConfinedAttr<I32Attr, [IntNonNegative]>:$index);
  let results = (outs HLO_TensorOrTokenOrTuple:$result);
  let assemblyFormat = "$operand `[` $index `]` attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def StableHLO_AfterAllOp : StableHLO_Op<"after_all", [Pure]> {
  let summary = "a token after every input token";
  let arguments = (ins Variadic<StableHLO_Token>:$inputs);
  let results = (outs StableHLO_Token:$result);
  let assemblyFormat = "$inputs attr-dict `:` custom<VariadicSameOperandsAndResultType>(ref($inputs), type($inputs), type($result))";
}

def StableHLO_CreateTokenOp : StableHLO_Op<"create_token", [Pure]> {
  let summary = "a fresh token (deprecated: after_all with no inputs)";
  let results = (outs StableHLO_Token:$output);
  let assemblyFormat = "attr-dict `:` type(results)";
}

def StableHLO_ReplicaIdOp : StableHLO_Op<"replica_id", []> {
  let summary = "the replica's id (0 on one device)";
  let results = (outs 0DTensorOf<[UI32]>);
  let assemblyFormat = "attr-dict `:` type(results)";
}

def StableHLO_PartitionIdOp : StableHLO_Op<"partition_id", []> {
  let summary = "the partition's id (0 on one device)";
  let results = (outs 0DTensorOf<[UI32]>);
  let assemblyFormat = "attr-dict `:` type(results)";
}

//===----------------------------------------------------------------------===//
// Convolution, FFT, linear algebra, random numbers.
//===----------------------------------------------------------------------===//

def StableHLO_ConvolutionOp : StableHLO_Op<"convolution", [Pure]> {
  let summary = "general convolution";
  let arguments = (ins HLO_Tensor:$lhs, HLO_Tensor:$rhs,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<I64ElementsAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$lhs_dilation,
                       OptionalAttr<DenseI64ArrayAttr>:$rhs_dilation,
                       OptionalAttr<DenseBoolArrayAttr>:$window_reversal,
                       StableHLO_ConvDimensionNumbers:$dimension_numbers,
                       ConfinedAttr<I64Attr, [IntPositive]>:$feature_group_count,
                       ConfinedAttr<I64Attr, [IntPositive]>:$batch_group_count,
                       OptionalAttr<StableHLO_PrecisionConfigAttr>:$precision_config);
  let results = (outs HLO_Tensor);
  let assemblyFormat = [{
    `(`operands`)`
      `dim_numbers` `=` custom<ConvolutionDimensions>($dimension_numbers) `,`
      `window` `=` `{` custom<WindowAttributes>($window_strides, $padding,
                                               $lhs_dilation, $rhs_dilation,
                                               $window_reversal) `}`
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_DynamicConvOp : StableHLO_Op<"dynamic_conv", [Pure]> {
  let summary = "convolution with runtime padding";
  let arguments = (ins HLO_Tensor:$lhs, HLO_Tensor:$rhs, HLO_IntTensor:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$lhs_dilation,
                       OptionalAttr<DenseI64ArrayAttr>:$rhs_dilation,
                       OptionalAttr<DenseBoolArrayAttr>:$window_reversal,
                       StableHLO_ConvDimensionNumbers:$dimension_numbers,
                       ConfinedAttr<I64Attr, [IntPositive]>:$feature_group_count,
                       ConfinedAttr<I64Attr, [IntPositive]>:$batch_group_count,
                       OptionalAttr<StableHLO_PrecisionConfigAttr>:$precision_config);
  let results = (outs HLO_Tensor);
  let hasVerifier = 1;
}

def StableHLO_FftOp : StableHLO_Op<"fft", [Pure]> {
  let summary = "forward and inverse Fourier transforms, real and complex";
  let arguments = (ins HLO_Tensor:$operand, StableHLO_FftTypeAttr:$fft_type,
                       DenseI64ArrayAttr:$fft_length);
  let results = (outs HLO_Tensor);
  let assemblyFormat = [{
    $operand `,` `type` `=` $fft_type `,` `length` `=` $fft_length
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_TriangularSolveOp : StableHLO_Op<"triangular_solve",
    [Pure, SameOperandsAndResultElementType]> {
  let summary = "solve triangular systems";
  let arguments = (ins HLO_FpOrComplexTensor:$a, HLO_FpOrComplexTensor:$b,
                       BoolAttr:$left_side, BoolAttr:$lower,
                       BoolAttr:$unit_diagonal,
                       StableHLO_TransposeAttr:$transpose_a);
  let results = (outs HLO_FpOrComplexTensor);
  let hasVerifier = 1;
}

def StableHLO_CholeskyOp : StableHLO_Op<"cholesky",
    [Pure, SameOperandsAndResultType]> {
  let summary = "Cholesky factorization of a batch of matrices";
  let arguments = (ins HLO_FpOrComplexTensor:$a,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$lower);
  let results = (outs HLO_FpOrComplexTensor);
  let assemblyFormat = "$a (`,` `lower` `=` $lower^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def StableHLO_RngOp : StableHLO_Op<"rng", []> {
  let summary = "random numbers from a distribution";
  let arguments = (ins 0DTensorOf<[AnyType]>:$a, 0DTensorOf<[AnyType]>:$b,
                       HLO_DimensionTensor:$shape,
                       StableHLO_RngDistributionAttr:$rng_distribution);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $shape `,` `distribution` `=` $rng_distribution
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_RngBitGeneratorOp : StableHLO_Op<"rng_bit_generator", [Pure]> {
  let summary = "random bits and a new state from a state";
  let arguments = (ins HLO_IntTensor:$initial_state,
                       StableHLO_RngAlgorithmAttr:$rng_algorithm);
  let results = (outs HLO_IntTensor:$output_state, HLO_Tensor:$output);
  let assemblyFormat = [{
    $initial_state `,` `algorithm` `=` $rng_algorithm attr-dict
      `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_BatchNormInferenceOp : StableHLO_Op<"batch_norm_inference", [Pure]> {
  let summary = "normalize with given mean and variance";
  let arguments = (ins HLO_FpTensor:$operand, HLO_FpTensor:$scale,
                       HLO_FpTensor:$offset, HLO_FpTensor:$mean,
                       HLO_FpTensor:$variance, F32Attr:$epsilon,
                       I64Attr:$feature_index);
  let results = (outs HLO_FpTensor);
  let hasVerifier = 1;
}

def StableHLO_BatchNormTrainingOp : StableHLO_Op<"batch_norm_training", [Pure]> {
  let summary = "normalize with batch statistics, returning them too";
  let arguments = (ins HLO_FpTensor:$operand, HLO_FpTensor:$scale,
                       HLO_FpTensor:$offset, F32Attr:$epsilon,
                       I64Attr:$feature_index);
  let results = (outs HLO_FpTensor:$output, HLO_FpTensor:$batch_mean,
                      HLO_FpTensor:$batch_var);
  let hasVerifier = 1;
}

def StableHLO_BatchNormGradOp : StableHLO_Op<"batch_norm_grad", [Pure]> {
  let summary = "gradients of batch normalization";
  let arguments = (ins HLO_FpTensor:$operand, HLO_FpTensor:$scale,
                       HLO_FpTensor:$mean, HLO_FpTensor:$variance,
                       HLO_FpTensor:$grad_output, F32Attr:$epsilon,
                       I64Attr:$feature_index);
  let results = (outs HLO_FpTensor:$grad_operand, HLO_FpTensor:$grad_scale,
                      HLO_FpTensor:$grad_offset);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// custom_call
//===----------------------------------------------------------------------===//

def StableHLO_CustomCallOp : StableHLO_Op<"custom_call", []> {
  let summary = "a call to a target the compiler knows by name";
  let arguments = (ins
    Variadic<HLO_TensorOrTokenOrTuple>:$inputs,
    StrAttr:$call_target_name,
    DefaultValuedOptionalAttr<BoolAttr, "false">:$has_side_effect,
    OptionalAttr<AnyAttrOf<[StrAttr, DictionaryAttr]>>:$backend_config,
    DefaultValuedOptionalAttr<StableHLO_CustomCallApiVersionAttr,
        "::mlir::stablehlo::CustomCallApiVersion::API_VERSION_ORIGINAL">:$api_version,
    OptionalAttr<FlatSymbolRefArrayAttr>:$called_computations,
    OptionalAttr<TypedArrayAttrBase<IndexElementsAttr, "layouts">>:$operand_layouts,
    OptionalAttr<TypedArrayAttrBase<IndexElementsAttr, "layouts">>:$result_layouts,
    DefaultValuedOptionalAttr<
        TypedArrayAttrBase<StableHLO_OutputOperandAlias, "aliases">,
        "::mlir::ArrayAttr::get($_builder.getContext(), {})">:$output_operand_aliases
  );
  let results = (outs Variadic<HLO_TensorOrTokenOrTuple>);
  let assemblyFormat = [{
    custom<CustomCallTarget>($call_target_name) `(` $inputs `)`
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}


//===----------------------------------------------------------------------===//
// Collectives and communication (generic form; one device runs them as
// identities or copies).
//===----------------------------------------------------------------------===//

def StableHLO_AllGatherOp : StableHLO_Op<"all_gather", [SameOperandsAndResultElementType]> {
  let summary = "concatenate the operands of every process along a dimension";
  let arguments = (ins Variadic<HLO_Tensor>:$operands,
                       I64Attr:$all_gather_dim, I64ElementsAttr:$replica_groups,
                       OptionalAttr<StableHLO_ChannelHandle>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let results = (outs Variadic<HLO_Tensor>);
  let hasVerifier = 1;
}

def StableHLO_AllReduceOp : StableHLO_Op<"all_reduce", [RecursiveMemoryEffects]> {
  let summary = "reduce the operands of every process with a body";
  let arguments = (ins Variadic<HLO_Tensor>:$operands,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<StableHLO_ChannelHandle>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let results = (outs Variadic<HLO_Tensor>);
  let regions = (region SizedRegion<1>:$computation);
}

def StableHLO_ReduceScatterOp : StableHLO_Op<"reduce_scatter", [RecursiveMemoryEffects]> {
  let summary = "reduce across processes, then scatter the parts";
  let arguments = (ins HLO_Tensor:$operand, I64Attr:$scatter_dimension,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<StableHLO_ChannelHandle>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let results = (outs HLO_Tensor);
  let regions = (region SizedRegion<1>:$computation);
  let hasVerifier = 1;
}

def StableHLO_AllToAllOp : StableHLO_Op<"all_to_all", []> {
  let summary = "split, exchange and concatenate across processes";
  let arguments = (ins Variadic<HLO_Tensor>:$operands,
                       I64Attr:$split_dimension, I64Attr:$concat_dimension,
                       I64Attr:$split_count, I64ElementsAttr:$replica_groups,
                       OptionalAttr<StableHLO_ChannelHandle>:$channel_handle);
  let results = (outs Variadic<HLO_Tensor>);
  let hasVerifier = 1;
}

def StableHLO_CollectivePermuteOp : StableHLO_Op<"collective_permute",
    [SameOperandsAndResultType]> {
  let summary = "send each process's operand to another process";
  let arguments = (ins HLO_Tensor:$operand, I64ElementsAttr:$source_target_pairs,
                       OptionalAttr<StableHLO_ChannelHandle>:$channel_handle);
  let results = (outs HLO_Tensor);
}

def StableHLO_CollectiveBroadcastOp : StableHLO_Op<"collective_broadcast",
    [SameOperandsAndResultType]> {
  let summary = "broadcast one process's operand to its group";
  let arguments = (ins HLO_Tensor:$operand, I64ElementsAttr:$replica_groups,
                       OptionalAttr<StableHLO_ChannelHandle>:$channel_handle);
  let results = (outs HLO_Tensor);
}

def StableHLO_InfeedOp : StableHLO_Op<"infeed", []> {
  let summary = "read values from the infeed";
  let arguments = (ins StableHLO_Token:$token,
                       DefaultValuedStrAttr<StrAttr, "">:$infeed_config,
                       OptionalAttr<ArrayAttr>:$layout);
  let results = (outs Variadic<HLO_TensorOrToken>);
}

def StableHLO_OutfeedOp : StableHLO_Op<"outfeed", []> {
  let summary = "write values to the outfeed";
  let arguments = (ins Variadic<HLO_Tensor>:$inputs, StableHLO_Token:$token,
                       DefaultValuedStrAttr<StrAttr, "">:$outfeed_config);
  let results = (outs StableHLO_Token);
}

def StableHLO_SendOp : StableHLO_Op<"send", []> {
  let summary = "send values on a channel";
  let arguments = (ins Variadic<HLO_Tensor>:$inputs, StableHLO_Token:$token,
                       StableHLO_ChannelHandle:$channel_handle,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$is_host_transfer,
                       OptionalAttr<I64ElementsAttr>:$source_target_pairs);
  let results = (outs StableHLO_Token);
}

def StableHLO_RecvOp : StableHLO_Op<"recv", []> {
  let summary = "receive values from a channel";
  let arguments = (ins StableHLO_Token:$token,
                       StableHLO_ChannelHandle:$channel_handle,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$is_host_transfer,
                       OptionalAttr<I64ElementsAttr>:$source_target_pairs);
  let results = (outs Variadic<HLO_TensorOrToken>);
}

//===----------------------------------------------------------------------===//
// Deprecated ops older exporters still write.
//===----------------------------------------------------------------------===//

def StableHLO_DotOp : StableHLO_Op<"dot", [Pure]> {
  let summary = "deprecated: vector/matrix dot (dot_general's common case)";
  let arguments = (ins HLO_Tensor:$lhs, HLO_Tensor:$rhs,
                       OptionalAttr<StableHLO_PrecisionConfigAttr>:$precision_config);
  let results = (outs HLO_Tensor);
  let assemblyFormat = [{
    $lhs `,` $rhs custom<PrecisionConfigSuffix>($precision_config)
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_BroadcastOp : StableHLO_Op<"broadcast",
    [Pure, SameOperandsAndResultElementType]> {
  let summary = "deprecated: broadcast by prepending dimensions";
  let arguments = (ins HLO_Tensor:$operand, DenseI64ArrayAttr:$broadcast_sizes);
  let results = (outs HLO_Tensor);
  let assemblyFormat = [{
    $operand `,` `sizes` `=` $broadcast_sizes attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_EinsumOp : StableHLO_Op<"einsum", [Pure]> {
  let summary = "deprecated: two-operand einsum";
  let arguments = (ins HLO_Tensor:$lhs, HLO_Tensor:$rhs, StrAttr:$einsum_config);
  let results = (outs HLO_Tensor);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` `config` `=` $einsum_config attr-dict `:` functional-type(operands, results)
  }];
}

def StableHLO_UnaryEinsumOp : StableHLO_Op<"unary_einsum", [Pure]> {
  let summary = "deprecated: one-operand einsum";
  let arguments = (ins HLO_Tensor:$operand, StrAttr:$einsum_config);
  let results = (outs HLO_Tensor);
  let assemblyFormat = [{
    $operand `,` `config` `=` $einsum_config attr-dict `:` functional-type(operands, results)
  }];
}

def StableHLO_TorchIndexSelectOp : StableHLO_Op<"torch_index_select", [Pure]> {
  let summary = "deprecated: index_select along a dimension";
  let arguments = (ins HLO_Tensor:$operand, HLO_IntTensor:$index,
                       I64Attr:$dim, I64Attr:$batch_dims);
  let results = (outs HLO_Tensor);
}

//===----------------------------------------------------------------------===//
// Contractions and reductions.
//===----------------------------------------------------------------------===//

def StableHLO_DotGeneralOp : StableHLO_Op<"dot_general", [Pure]> {
  let summary = "general dot product with batching and contracting dimensions";
  let arguments = (ins
    HLO_Tensor:$lhs,
    HLO_Tensor:$rhs,
    StableHLO_DotDimensionNumbers:$dot_dimension_numbers,
    OptionalAttr<StableHLO_PrecisionConfigAttr>:$precision_config,
    OptionalAttr<StableHLO_DotAlgorithm>:$algorithm
  );
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,`
      custom<DotDimensionNumbers>($dot_dimension_numbers, $precision_config,
                                  $algorithm)
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_ReduceOp : StableHLO_Op<"reduce",
    [RecursiveMemoryEffects, SameVariadicOperandSize]> {
  let summary = "reduce tensors along dimensions with a scalar body";
  let description = [{
    Pretty form: `stablehlo.reduce(%x init: %i) applies stablehlo.add across
    dimensions = [1] : ...` when the body is one binary op on its arguments,
    else `... across dimensions = [1] : ... reducer(%a: T, %b: T) { ... }`.
  }];
  let arguments = (ins Variadic<HLO_Tensor>:$inputs,
                       Variadic<HLO_ScalarTensor>:$init_values,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs Variadic<HLO_Tensor>);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def StableHLO_ReturnOp : StableHLO_Op<"return", [Pure, Terminator, ReturnLike]> {
  let summary = "terminator of a StableHLO region";
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "$results attr-dict (`:` type($results)^)?";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ValueRange()); }]>];
}

#endif // STABLEHLO_TVM_STABLEHLO_OPS
