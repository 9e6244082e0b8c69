//===- StableHLOAttrs.td - StableHLO structured attributes --*- tablegen -*-===//

#ifndef STABLEHLO_TVM_STABLEHLO_ATTRS
#define STABLEHLO_TVM_STABLEHLO_ATTRS

include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLOBase.td"
include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLOEnums.td"

class StableHLO_Attr<string name, string attrMnemonic>
    : AttrDef<StableHLO_Dialect, name> {
  let mnemonic = attrMnemonic;
}

// `#stablehlo.dot<lhs_batching_dimensions = [0], ...>`; empty lists are
// omitted from the text.
def StableHLO_DotDimensionNumbers
    : StableHLO_Attr<"DotDimensionNumbers", "dot"> {
  let summary = "dimension numbers of stablehlo.dot_general";
  let parameters = (ins
    OptionalArrayRefParameter<"int64_t">:$lhsBatchingDimensions,
    OptionalArrayRefParameter<"int64_t">:$rhsBatchingDimensions,
    OptionalArrayRefParameter<"int64_t">:$lhsContractingDimensions,
    OptionalArrayRefParameter<"int64_t">:$rhsContractingDimensions
  );
  let hasCustomAssemblyFormat = 1;
}

// `#stablehlo.gather<offset_dims = [1], ..., index_vector_dim = 1>`: empty
// lists and an index_vector_dim of 0 are omitted.
def StableHLO_GatherDimensionNumbers
    : StableHLO_Attr<"GatherDimensionNumbers", "gather"> {
  let summary = "dimension numbers of stablehlo.gather";
  let parameters = (ins
    OptionalArrayRefParameter<"int64_t">:$offsetDims,
    OptionalArrayRefParameter<"int64_t">:$collapsedSliceDims,
    OptionalArrayRefParameter<"int64_t">:$operandBatchingDims,
    OptionalArrayRefParameter<"int64_t">:$startIndicesBatchingDims,
    OptionalArrayRefParameter<"int64_t">:$startIndexMap,
    "int64_t":$indexVectorDim
  );
  let hasCustomAssemblyFormat = 1;
}

def StableHLO_ScatterDimensionNumbers
    : StableHLO_Attr<"ScatterDimensionNumbers", "scatter"> {
  let summary = "dimension numbers of stablehlo.scatter";
  let parameters = (ins
    OptionalArrayRefParameter<"int64_t">:$updateWindowDims,
    OptionalArrayRefParameter<"int64_t">:$insertedWindowDims,
    OptionalArrayRefParameter<"int64_t">:$inputBatchingDims,
    OptionalArrayRefParameter<"int64_t">:$scatterIndicesBatchingDims,
    OptionalArrayRefParameter<"int64_t">:$scatterDimsToOperandDims,
    "int64_t":$indexVectorDim
  );
  let hasCustomAssemblyFormat = 1;
}

// `#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>`.
def StableHLO_ConvDimensionNumbers
    : StableHLO_Attr<"ConvDimensionNumbers", "conv"> {
  let summary = "dimension numbers of stablehlo.convolution";
  let parameters = (ins
    "int64_t":$inputBatchDimension,
    "int64_t":$inputFeatureDimension,
    ArrayRefParameter<"int64_t">:$inputSpatialDimensions,
    "int64_t":$kernelInputFeatureDimension,
    "int64_t":$kernelOutputFeatureDimension,
    ArrayRefParameter<"int64_t">:$kernelSpatialDimensions,
    "int64_t":$outputBatchDimension,
    "int64_t":$outputFeatureDimension,
    ArrayRefParameter<"int64_t">:$outputSpatialDimensions
  );
  let hasCustomAssemblyFormat = 1;
}

// `#stablehlo.output_operand_alias<output_tuple_indices = [0],
// operand_index = 0, operand_tuple_indices = []>`: every field printed.
def StableHLO_OutputOperandAlias
    : StableHLO_Attr<"OutputOperandAlias", "output_operand_alias"> {
  let summary = "an output of a custom_call that aliases an operand";
  let parameters = (ins
    OptionalArrayRefParameter<"int64_t">:$outputTupleIndices,
    "int64_t":$operandIndex,
    OptionalArrayRefParameter<"int64_t">:$operandTupleIndices
  );
  let hasCustomAssemblyFormat = 1;
}

// `#stablehlo.channel_handle<handle = 1, type = 0>`.
def StableHLO_ChannelHandle : StableHLO_Attr<"ChannelHandle", "channel_handle"> {
  let summary = "the channel of a cross-device communication";
  let parameters = (ins "int64_t":$handle, "int64_t":$type);
  let hasCustomAssemblyFormat = 1;
}

// `#stablehlo.dot_algorithm<lhs_precision_type = tf32, ...>`: every field.
def StableHLO_DotAlgorithm : StableHLO_Attr<"DotAlgorithm", "dot_algorithm"> {
  let summary = "the algorithm a dot_general must use";
  let parameters = (ins
    "::mlir::Type":$lhs_precision_type,
    "::mlir::Type":$rhs_precision_type,
    "::mlir::Type":$accumulation_type,
    "int64_t":$lhs_component_count,
    "int64_t":$rhs_component_count,
    "int64_t":$num_primitive_operations,
    "bool":$allow_imprecise_accumulation
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

// An attribute parameter spelled in full (`#stablehlo.x<...>`), not stripped.
class StableHLO_FullAttrParameter<string cppType>
    : AttrParameter<cppType, "an attribute in its full spelling"> {
  let printer = "$_printer.printAttribute($_self)";
  let parser = "::mlir::stablehlo::parseFullAttribute<" # cppType # ">($_parser)";
}

// `#stablehlo.result_accuracy<atol = ..., rtol = ..., ulps = ..., mode = ...>`:
// zero tolerances are omitted, the mode always printed.
def StableHLO_ResultAccuracy
    : StableHLO_Attr<"ResultAccuracy", "result_accuracy"> {
  let summary = "the accuracy a transcendental op must deliver";
  let parameters = (ins
    DefaultValuedParameter<"::llvm::APFloat", "::llvm::APFloat(0.0)">:$atol,
    DefaultValuedParameter<"::llvm::APFloat", "::llvm::APFloat(0.0)">:$rtol,
    DefaultValuedParameter<"int64_t", "0">:$ulps,
    StableHLO_FullAttrParameter<"::mlir::stablehlo::ResultAccuracyModeAttr">:$mode
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

// `tensor<?x4xf32, #stablehlo.bounds<8, ?>>`: upper bounds of dynamic sizes.
def StableHLO_TypeExtensions : StableHLO_Attr<"TypeExtensions", "bounds"> {
  let summary = "bounds of a tensor's dynamic dimensions (its encoding)";
  let parameters = (ins ArrayRefParameter<"int64_t">:$bounds);
  let hasCustomAssemblyFormat = 1;
}

#endif // STABLEHLO_TVM_STABLEHLO_ATTRS
