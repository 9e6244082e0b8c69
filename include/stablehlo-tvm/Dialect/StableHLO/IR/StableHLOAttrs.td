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

#endif // STABLEHLO_TVM_STABLEHLO_ATTRS
