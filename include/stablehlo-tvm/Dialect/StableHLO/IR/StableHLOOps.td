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
        traits # [Pure, Elementwise, SameOperandsAndResultType]> {
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs type:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:`
      custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))
  }];
}

def HLO_FpOrComplexTensor : RankedTensorOf<[AnyFloat, AnyComplex]>;
def HLO_IntOrPredTensor : RankedTensorOf<[HLO_Int]>;

def StableHLO_AbsOp : HLO_UnaryElementwiseOp<"abs", [], HLO_Tensor> {
  let summary = "elementwise absolute value (complex operands give their modulus)";
  let hasVerifier = 1;
}
def StableHLO_NegOp : HLO_UnaryElementwiseOp<"negate", [SameOperandsAndResultType]> {
  let summary = "elementwise negation";
}
def StableHLO_ExpOp : HLO_UnaryElementwiseOp<"exponential",
    [SameOperandsAndResultType], HLO_FpOrComplexTensor> {
  let summary = "elementwise e^x";
}
def StableHLO_LogOp : HLO_UnaryElementwiseOp<"log",
    [SameOperandsAndResultType], HLO_FpOrComplexTensor> {
  let summary = "elementwise natural logarithm";
}
def StableHLO_TanhOp : HLO_UnaryElementwiseOp<"tanh",
    [SameOperandsAndResultType], HLO_FpOrComplexTensor> {
  let summary = "elementwise hyperbolic tangent";
}
def StableHLO_SqrtOp : HLO_UnaryElementwiseOp<"sqrt",
    [SameOperandsAndResultType], HLO_FpOrComplexTensor> {
  let summary = "elementwise square root";
}
def StableHLO_RsqrtOp : HLO_UnaryElementwiseOp<"rsqrt",
    [SameOperandsAndResultType], HLO_FpOrComplexTensor> {
  let summary = "elementwise reciprocal square root";
}
def StableHLO_LogisticOp : HLO_UnaryElementwiseOp<"logistic",
    [SameOperandsAndResultType], HLO_FpOrComplexTensor> {
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

def StableHLO_CompareOp : StableHLO_Op<"compare",
    [Pure, Elementwise, SameOperandsAndResultShape, SameTypeOperands]> {
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
  let arguments = (ins ElementsAttr:$value);
  let results = (outs HLO_Tensor:$output);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
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
// Contractions and reductions.
//===----------------------------------------------------------------------===//

def StableHLO_DotGeneralOp : StableHLO_Op<"dot_general", [Pure]> {
  let summary = "general dot product with batching and contracting dimensions";
  let arguments = (ins
    HLO_Tensor:$lhs,
    HLO_Tensor:$rhs,
    StableHLO_DotDimensionNumbers:$dot_dimension_numbers,
    OptionalAttr<StableHLO_PrecisionConfigAttr>:$precision_config
  );
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,`
      custom<DotDimensionNumbers>($dot_dimension_numbers, $precision_config)
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
