//===- StableHLOBase.td - StableHLO dialect definition ------*- tablegen -*-===//
//
// The `stablehlo` dialect, written from the StableHLO specification
// (openxla/stablehlo docs/spec.md, opset 1.17). Text matches what jaxlib prints.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_STABLEHLO_BASE
#define STABLEHLO_TVM_STABLEHLO_BASE

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def StableHLO_Dialect : Dialect {
  let name = "stablehlo";
  let cppNamespace = "::mlir::stablehlo";
  let summary = "StableHLO: the portable ML operation set JAX exports.";
  let description = [{
    Ops, attributes and types of the StableHLO specification. Semantics follow
    the spec; the textual forms follow what jaxlib prints, so that JAX output
    parses unchanged.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 0;
  let usePropertiesForAttributes = 1;
  let dependentDialects = ["::mlir::quant::QuantDialect"];
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def StableHLO_Token : TypeDef<StableHLO_Dialect, "Token"> {
  let mnemonic = "token";
  let summary = "orders side effects: `!stablehlo.token`";
}

//===----------------------------------------------------------------------===//
// Types the spec allows.
//===----------------------------------------------------------------------===//

// Integers (signless or unsigned, any width), floats and complex numbers.
def HLO_Int : AnyTypeOf<[AnySignlessInteger, AnyUnsignedInteger]>;
def HLO_QuantizedInt : Type<
    CPred<"::llvm::isa<::mlir::quant::QuantizedType>($_self)">,
    "quantized integer", "::mlir::quant::QuantizedType">;
def HLO_ElementType : AnyTypeOf<[HLO_Int, AnyFloat, AnyComplex, HLO_QuantizedInt]>;
def HLO_Tensor : RankedTensorOf<[HLO_ElementType]>;
def HLO_PredTensor : RankedTensorOf<[I1]>;
def HLO_IntTensor : RankedTensorOf<[HLO_Int]>;
def HLO_ScalarTensor : 0DTensorOf<[HLO_ElementType]>;
def HLO_Tuple : NestedTupleOf<[HLO_Tensor, StableHLO_Token]>;
def HLO_TensorOrToken : AnyTypeOf<[HLO_Tensor, StableHLO_Token]>;
def HLO_TensorOrTokenOrTuple : AnyTypeOf<[HLO_Tensor, StableHLO_Token, HLO_Tuple]>;
def HLO_DimensionTensor : 1DTensorOf<[HLO_Int]>;
def HLO_ScalarIntTensor : 0DTensorOf<[HLO_Int]>;

// Operands and results agree up to quantization parameters (StableHLOTraits.h).
def HLO_SameBaselineOperandsAndResultType
    : NativeOpTrait<"SameBaselineOperandsAndResultType"> {
  let cppNamespace = "::mlir::OpTrait::stablehlo";
}

class StableHLO_Op<string mnemonic, list<Trait> traits = []>
    : Op<StableHLO_Dialect, mnemonic, traits>;

#endif // STABLEHLO_TVM_STABLEHLO_BASE
