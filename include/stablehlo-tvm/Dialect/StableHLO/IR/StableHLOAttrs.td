//===- StableHLOAttrs.td - StableHLO structured attributes --*- tablegen -*-===//

#ifndef STABLEHLO_TVM_STABLEHLO_ATTRS
#define STABLEHLO_TVM_STABLEHLO_ATTRS

include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLOBase.td"

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

#endif // STABLEHLO_TVM_STABLEHLO_ATTRS
