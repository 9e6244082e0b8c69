//===- CheckOps.td - Assertions of self-checking programs --*- tablegen -*-===//
//
// The `check` dialect states what a test program expects of its values; the
// StableHLO semantics tests are written in it. Nothing here computes: the
// conformance runner turns each op into a returned (actual, expected) pair
// (stablehlo-expose-checks) and judges it with the op's own tolerance.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_CHECK_OPS
#define STABLEHLO_TVM_CHECK_OPS

include "mlir/IR/OpBase.td"
include "mlir/IR/CommonAttrConstraints.td"

def Check_Dialect : Dialect {
  let name = "check";
  let cppNamespace = "::mlir::check";
  let summary = "Expectations on tensor values, for self-checking programs";
  let usePropertiesForAttributes = 1;
}

class Check_Op<string mnemonic, list<Trait> traits = []>
    : Op<Check_Dialect, mnemonic, traits>;

def Check_ExpectEqOp : Check_Op<"expect_eq", [AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "Two tensors are equal element by element";
  let description = [{
    Floats compare with IEEE equality: NaN never matches, -0 matches +0.
  }];
  let arguments = (ins AnyTensor:$lhs, AnyTensor:$rhs);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs)";
}

def Check_ExpectEqConstOp : Check_Op<"expect_eq_const", [
    AllTypesMatch<["lhs", "value"]>]> {
  let summary = "A tensor equals a constant element by element";
  let arguments = (ins AnyTensor:$lhs, ElementsAttr:$value);
  let assemblyFormat = "$lhs `,` $value attr-dict";
}

def Check_ExpectAlmostEqOp : Check_Op<"expect_almost_eq", [
    AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "Two float or complex tensors differ by at most a tolerance";
  let description = [{
    Each element (each part of a complex element) may differ from the other
    by `tolerance` in absolute value; NaN matches NaN; an infinity matches
    only itself.
  }];
  let arguments = (ins AnyTensor:$lhs, AnyTensor:$rhs,
                   DefaultValuedAttr<F64Attr, "0.0001">:$tolerance);
  let assemblyFormat = [{
    $lhs `,` $rhs (`,` `tolerance` `=` $tolerance^)? attr-dict `:` type($lhs)
  }];
}

def Check_ExpectAlmostEqConstOp : Check_Op<"expect_almost_eq_const", [
    AllTypesMatch<["lhs", "value"]>]> {
  let summary = "A float or complex tensor is within a tolerance of a constant";
  let arguments = (ins AnyTensor:$lhs, ElementsAttr:$value,
                   DefaultValuedAttr<F64Attr, "0.0001">:$tolerance);
  let assemblyFormat = "$lhs `,` $value attr-dict";
}

def Check_ExpectCloseOp : Check_Op<"expect_close"> {
  let summary = "Two float tensors are within a range of ULP distances";
  let description = [{
    The distance in units in the last place between `actual` and `expected`
    lies in [min_ulp_difference, max_ulp_difference] for every element (both
    parts of a complex element); NaN matches NaN, other non-finite values must
    be identical.
  }];
  let arguments = (ins AnyTensor:$actual, AnyTensor:$expected,
                   DefaultValuedAttr<I64Attr, "0">:$min_ulp_difference,
                   DefaultValuedAttr<I64Attr, "3">:$max_ulp_difference);
  // Both bounds are optional and start with a comma, so one directive
  // parses them: `, min_ulp_difference = 1, max_ulp_difference = 5`.
  let assemblyFormat = [{
    $actual `,` $expected custom<UlpRange>($min_ulp_difference,
                                           $max_ulp_difference)
    attr-dict `:` type($actual) `,` type($expected)
  }];
}

def Check_ExpectSerializedEqOp : Check_Op<"expect_serialized_eq"> {
  let summary = "A tensor equals the one a probe serialized";
  let description = [{
    Compares with the value an interpreter probe wrote under `probe_id` (at
    iteration `iter`). Programs here have no probes, so this op is parsed and
    reported as unsupported by the import.
  }];
  let arguments = (ins AnyTensor:$expected, StrAttr:$probe_id,
                   DefaultValuedAttr<I64Attr, "0">:$iter);
  let assemblyFormat = [{
    $expected `,` `probe_id` `=` $probe_id (`,` `iter` `=` $iter^)?
    attr-dict `:` type($expected)
  }];
}

#endif // STABLEHLO_TVM_CHECK_OPS
