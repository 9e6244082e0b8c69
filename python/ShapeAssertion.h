//===- ShapeAssertion.h - Run-time checks of symbolic shapes ----*- C++ -*-===//

#ifndef STABLEHLO_TVM_PYTHON_SHAPEASSERTION_H
#define STABLEHLO_TVM_PYTHON_SHAPEASSERTION_H

namespace mlir::stablehlo_tvm::python {

/// Registers "stablehlo_tvm.shape_assertion" with TVM's FFI: what
/// `tvm.shape_assertion` calls, (x, predicate, message, args...) -> x,
/// raising ValueError with the message, its `{i}` replaced by args[i],
/// when the predicate is false.
void registerShapeAssertion();

} // namespace mlir::stablehlo_tvm::python

#endif // STABLEHLO_TVM_PYTHON_SHAPEASSERTION_H
