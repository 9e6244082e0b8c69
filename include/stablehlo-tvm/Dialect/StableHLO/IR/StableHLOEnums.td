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

def StableHLO_FftType : I32EnumAttr<"FftType", "kind of stablehlo.fft", [
      I32EnumAttrCase<"FFT", 0>, I32EnumAttrCase<"IFFT", 1>,
      I32EnumAttrCase<"RFFT", 2>, I32EnumAttrCase<"IRFFT", 3>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::stablehlo";
}
def StableHLO_FftTypeAttr : EnumAttr<StableHLO_Dialect, StableHLO_FftType,
    "fft_type"> {
  let assemblyFormat = "$value";
}

def StableHLO_Transpose : I32EnumAttr<"Transpose",
    "transpose_a of stablehlo.triangular_solve", [
      I32EnumAttrCase<"TRANSPOSE_INVALID", 0>,
      I32EnumAttrCase<"NO_TRANSPOSE", 1>, I32EnumAttrCase<"TRANSPOSE", 2>,
      I32EnumAttrCase<"ADJOINT", 3>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::stablehlo";
}
def StableHLO_TransposeAttr : EnumAttr<StableHLO_Dialect, StableHLO_Transpose,
    "transpose"> {
  let assemblyFormat = "$value";
}

def StableHLO_RngAlgorithm : I32EnumAttr<"RngAlgorithm",
    "algorithm of stablehlo.rng_bit_generator", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"THREE_FRY", 1>,
      I32EnumAttrCase<"PHILOX", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::stablehlo";
}
def StableHLO_RngAlgorithmAttr : EnumAttr<StableHLO_Dialect,
    StableHLO_RngAlgorithm, "rng_algorithm"> {
  let assemblyFormat = "$value";
}

def StableHLO_RngDistribution : I32EnumAttr<"RngDistribution",
    "distribution of stablehlo.rng", [
      I32EnumAttrCase<"UNIFORM", 1>, I32EnumAttrCase<"NORMAL", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::stablehlo";
}
def StableHLO_RngDistributionAttr : EnumAttr<StableHLO_Dialect,
    StableHLO_RngDistribution, "rng_distribution"> {
  let assemblyFormat = "$value";
}

def StableHLO_ResultAccuracyMode : I32EnumAttr<"ResultAccuracyMode",
    "how result_accuracy constrains a transcendental op", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"HIGHEST", 1>,
      I32EnumAttrCase<"TOLERANCE", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::stablehlo";
}
// `#stablehlo.result_accuracy_mode<HIGHEST>` (an attribute of its own).
def StableHLO_ResultAccuracyModeAttr : EnumAttr<StableHLO_Dialect,
    StableHLO_ResultAccuracyMode, "result_accuracy_mode"> {
  let assemblyFormat = "`<` $value `>`";
}

// Spelled as a plain integer (`api_version = 4 : i32`), as jaxlib prints it.
def StableHLO_CustomCallApiVersionAttr : I32EnumAttr<"CustomCallApiVersion",
    "calling convention of stablehlo.custom_call", [
      I32EnumAttrCase<"API_VERSION_UNSPECIFIED", 0>,
      I32EnumAttrCase<"API_VERSION_ORIGINAL", 1>,
      I32EnumAttrCase<"API_VERSION_STATUS_RETURNING", 2>,
      I32EnumAttrCase<"API_VERSION_STATUS_RETURNING_UNIFIED", 3>,
      I32EnumAttrCase<"API_VERSION_TYPED_FFI", 4>]> {
  let cppNamespace = "::mlir::stablehlo";
}

#endif // STABLEHLO_TVM_STABLEHLO_ENUMS
