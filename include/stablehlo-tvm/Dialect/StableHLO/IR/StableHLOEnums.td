//===- StableHLOEnums.td - StableHLO enum attributes --------*- tablegen -*-===//
//
// Enums print as `#stablehlo<comparison_direction LT>` in generic form and as
// the bare keyword (`LT`) inside an op's pretty form.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_STABLEHLO_ENUMS
#define STABLEHLO_TVM_STABLEHLO_ENUMS

include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLOBase.td"
include "mlir/IR/EnumAttr.td"

def StableHLO_ComparisonDirection : I32EnumAttr<"ComparisonDirection",
    "comparison direction of stablehlo.compare", [
      I32EnumAttrCase<"EQ", 0>, I32EnumAttrCase<"NE", 1>,
      I32EnumAttrCase<"GE", 2>, I32EnumAttrCase<"GT", 3>,
      I32EnumAttrCase<"LE", 4>, I32EnumAttrCase<"LT", 5>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::stablehlo";
}
def StableHLO_ComparisonDirectionAttr : EnumAttr<StableHLO_Dialect,
    StableHLO_ComparisonDirection, "comparison_direction"> {
  let assemblyFormat = "$value";
}

def StableHLO_ComparisonType : I32EnumAttr<"ComparisonType",
    "comparison type of stablehlo.compare", [
      I32EnumAttrCase<"NOTYPE", 0>, I32EnumAttrCase<"FLOAT", 1>,
      I32EnumAttrCase<"TOTALORDER", 2>, I32EnumAttrCase<"SIGNED", 3>,
      I32EnumAttrCase<"UNSIGNED", 4>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::stablehlo";
}
def StableHLO_ComparisonTypeAttr : EnumAttr<StableHLO_Dialect,
    StableHLO_ComparisonType, "comparison_type"> {
  let assemblyFormat = "$value";
}

def StableHLO_Precision : I32EnumAttr<"Precision",
    "precision of a dot or convolution operand", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"HIGH", 1>,
      I32EnumAttrCase<"HIGHEST", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::stablehlo";
}
def StableHLO_PrecisionAttr : EnumAttr<StableHLO_Dialect, StableHLO_Precision,
    "precision"> {
  let assemblyFormat = "$value";
}
def StableHLO_PrecisionConfigAttr
    : TypedArrayAttrBase<StableHLO_PrecisionAttr, "precision config">;

#endif // STABLEHLO_TVM_STABLEHLO_ENUMS
