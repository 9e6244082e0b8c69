//===- NativeLapack.h - LAPACK calls without the interpreter -----*- C++ -*-===//
//
// See NativeLapack.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_PYTHON_NATIVELAPACK_H
#define STABLEHLO_TVM_PYTHON_NATIVELAPACK_H

#include <cstdint>
#include <map>
#include <string>

namespace mlir::stablehlo_tvm::python {

/// Registers native `stablehlo_tvm.lapack.{getrf,potrf,trsm,geqrf,orgqr,
/// syevd,gesdd}` over the LAPACK/BLAS functions at `addresses` (by their
/// LAPACK names: sgetrf, dgetrf, spotrf, ..., dgesdd), each falling back to
/// `stablehlo_tvm.lapack.python.<routine>`, which must be registered first.
/// `openblas_set_num_threads_local`, when given, is the thread-count setter
/// of the OpenBLAS behind them: each call runs it on one thread.
void registerNativeLapack(const std::map<std::string, uintptr_t> &addresses);

} // namespace mlir::stablehlo_tvm::python

#endif // STABLEHLO_TVM_PYTHON_NATIVELAPACK_H
