//===- CHLOOps.td - The chlo dialect --------------------------*- tablegen -*-===//
//
// Client HLO: the math ops JAX emits above StableHLO (erf, lgamma, top_k, ...),
// written from the StableHLO project's documentation of the CHLO opset. The
// import decomposes them into stablehlo or maps them to Relax operators.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_CHLO_OPS
#define STABLEHLO_TVM_CHLO_OPS

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def CHLO_Dialect : Dialect {
  let name = "chlo";
  let cppNamespace = "::mlir::chlo";
  let summary = "client HLO: math ops above StableHLO";
  let usePropertiesForAttributes = 1;
}

class CHLO_Op<string mnemonic, list<Trait> traits = []>
    : Op<CHLO_Dialect, mnemonic, traits>;

def CHLO_Tensor : RankedTensorOf<[AnySignlessInteger, AnyUnsignedInteger,
                                  AnyFloat, AnyComplex]>;
def CHLO_FpOrComplexTensor : RankedTensorOf<[AnyFloat, AnyComplex]>;
def CHLO_FpTensor : RankedTensorOf<[AnyFloat]>;
def CHLO_PredTensor : RankedTensorOf<[I1]>;

// `chlo.op %x : T -> R`.
class CHLO_UnaryOp<string mnemonic, Type operandType = CHLO_FpOrComplexTensor,
                   Type resultType = operandType>
    : CHLO_Op<mnemonic, [Pure, Elementwise, SameOperandsAndResultShape]> {
  let arguments = (ins operandType:$operand);
  let results = (outs resultType:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
}

// `chlo.op %x, %y : T, T -> R`.
class CHLO_BinaryOp<string mnemonic, Type type = CHLO_FpTensor>
    : CHLO_Op<mnemonic, [Pure, Elementwise, SameOperandsAndResultShape]> {
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs type:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
}

def CHLO_AcosOp : CHLO_UnaryOp<"acos">;
def CHLO_AcoshOp : CHLO_UnaryOp<"acosh">;
def CHLO_AsinOp : CHLO_UnaryOp<"asin">;
def CHLO_AsinhOp : CHLO_UnaryOp<"asinh">;
def CHLO_AtanOp : CHLO_UnaryOp<"atan">;
def CHLO_AtanhOp : CHLO_UnaryOp<"atanh">;
def CHLO_CoshOp : CHLO_UnaryOp<"cosh">;
def CHLO_SinhOp : CHLO_UnaryOp<"sinh">;
def CHLO_TanOp : CHLO_UnaryOp<"tan">;
def CHLO_ConjOp : CHLO_UnaryOp<"conj">;
def CHLO_BesselI1eOp : CHLO_UnaryOp<"bessel_i1e", CHLO_FpTensor>;
def CHLO_DigammaOp : CHLO_UnaryOp<"digamma", CHLO_FpTensor>;
def CHLO_LgammaOp : CHLO_UnaryOp<"lgamma", CHLO_FpTensor>;
def CHLO_ErfOp : CHLO_UnaryOp<"erf", CHLO_FpTensor>;
def CHLO_ErfcOp : CHLO_UnaryOp<"erfc", CHLO_FpTensor>;
def CHLO_ErfInvOp : CHLO_UnaryOp<"erf_inv", CHLO_FpTensor>;
def CHLO_SquareOp : CHLO_UnaryOp<"square">;
def CHLO_IsInfOp : CHLO_UnaryOp<"is_inf", CHLO_FpTensor, CHLO_PredTensor>;
def CHLO_IsNegInfOp : CHLO_UnaryOp<"is_neg_inf", CHLO_FpTensor, CHLO_PredTensor>;
def CHLO_IsPosInfOp : CHLO_UnaryOp<"is_pos_inf", CHLO_FpTensor, CHLO_PredTensor>;

def CHLO_NextAfterOp : CHLO_BinaryOp<"next_after">;
def CHLO_MulhiOp : CHLO_BinaryOp<"mulhi",
    RankedTensorOf<[AnySignlessInteger, AnyUnsignedInteger]>> {
  let summary = "the high half of the double-width product of two integers";
  let description = [{
    For N-bit integers, the upper N bits of the exact 2N-bit product,
    signed or unsigned as the element type says.
  }];
}
def CHLO_PolygammaOp : CHLO_BinaryOp<"polygamma">;
def CHLO_ZetaOp : CHLO_BinaryOp<"zeta">;

def CHLO_ScanOp : CHLO_Op<"scan", [AttrSizedOperandSegments,
                                    RecursiveMemoryEffects]> {
  let summary = "a scan along one dimension with carried values";
  let description = [{
    For each position along `dimension` (from the end when `is_reverse`),
    the body takes the inputs' slices at that position (the dimension
    removed) and the carried values, and returns the outputs' slices there,
    then the new carried values. The results are the outputs (the slices
    stacked along `dimension`), then the final carried values; the carried
    values start as `inits`.
  }];
  let arguments = (ins Variadic<CHLO_Tensor>:$inputs,
                       Variadic<CHLO_Tensor>:$inits,
                       I64Attr:$dimension,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$is_reverse);
  let results = (outs Variadic<CHLO_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasVerifier = 1;
  let assemblyFormat = [{
    `(` $inputs `)` `inits` `(` $inits `)` `dimension` `=` $dimension
      attr-dict-with-keyword $body `:` functional-type(operands, results)
  }];
}

def CHLO_TopKOp : CHLO_Op<"top_k", [Pure]> {
  let summary = "the k largest values along the last dimension, and their indices";
  let arguments = (ins CHLO_Tensor:$operand, I64Attr:$k);
  let results = (outs CHLO_Tensor:$values, RankedTensorOf<[AnyInteger]>:$indices);
  let assemblyFormat = [{
    `(` $operand `,` `k` `=` $k `)` attr-dict `:`
      type($operand) `->` `(` type($values) `,` type($indices) `)`
  }];
}

#endif // STABLEHLO_TVM_CHLO_OPS
