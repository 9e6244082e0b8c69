//===- TVMBase.td - The tvm dialect: Relax spelled in MLIR --*- tablegen -*-===//

#ifndef STABLEHLO_TVM_TVM_BASE
#define STABLEHLO_TVM_TVM_BASE

include "mlir/IR/OpBase.td"

def TVM_Dialect : Dialect {
  let name = "tvm";
  let cppNamespace = "::mlir::tvm";
  let summary = "Apache TVM Relax operators, spelled in MLIR";
  let description = [{
    Each op is one Relax operator: `tvm.X` is `tvm.relax.op.X`, operands are its
    positional tensor arguments and attributes are its keyword arguments, with
    the same names. Types are builtin ranked tensors. The Python emitter turns
    each op into exactly that Relax call, so what is checked and FileCheck-tested
    here is what TVM receives.
  }];
  let usePropertiesForAttributes = 1;
  // The body of tvm.kernel is written in these.
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"
  ];
}

class TVM_Op<string mnemonic, list<Trait> traits = []>
    : Op<TVM_Dialect, mnemonic, traits>;

#endif // STABLEHLO_TVM_TVM_BASE
