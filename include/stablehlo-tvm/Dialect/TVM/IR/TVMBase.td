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
  // What the import records on functions and ops for later passes and for
  // the Python side (which reads the names from _core.ATTRIBUTES).
  let discardableAttrs = (ins
    // Positions of the complex arguments and results that
    // stablehlo-lower-complex split into (real, imaginary) pairs.
    "::mlir::ArrayAttr":$complex_arguments,
    "::mlir::ArrayAttr":$complex_results,
    // Per result, the declared type of a sub-byte integer held in 8 bits
    // (stablehlo-widen-sub-byte-integers) or of an f8/f6/f4 value held in
    // f32 (stablehlo-lower-small-floats); "" for the others.
    "::mlir::ArrayAttr":$narrow_results,
    "::mlir::ArrayAttr":$small_float_results,
    // How many trailing results only keep effects alive.
    "::mlir::IntegerAttr":$effect_results,
    // Symbolic dimensions of the arguments and JAX's shape assertions.
    "::mlir::ArrayAttr":$dim_symbols,
    "::mlir::ArrayAttr":$dim_checks,
    // A dynamic_update_slice updated in place in a loop, and the loop
    // operands the loop copies first.
    "::mlir::UnitAttr":$in_place,
    "::mlir::DenseI64ArrayAttr":$copied_inits,
    // A real dot_general of a complex product (stablehlo-lower-complex):
    // each product rounded before it is added and the sum taken in order,
    // as XLA computes complex dots.
    "::mlir::UnitAttr":$rounded_products,
    // A DFT as a product with a constant matrix (stablehlo-decompose-fft):
    // no program's rounding to keep, so its products may fuse with the sum.
    "::mlir::UnitAttr":$dft_product
  );
  // The body of tvm.kernel is written in these.
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"
  ];
}

class TVM_Op<string mnemonic, list<Trait> traits = []>
    : Op<TVM_Dialect, mnemonic, traits>;

#endif // STABLEHLO_TVM_TVM_BASE
