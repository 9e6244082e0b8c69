//===- ParallelLaunch.h - Parallel loops shared by claiming chunks -*- C++ -*-===//
//
// See ParallelLaunch.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_PYTHON_PARALLELLAUNCH_H
#define STABLEHLO_TVM_PYTHON_PARALLELLAUNCH_H

#include <cstdint>

namespace mlir::stablehlo_tvm::python {

/// The address of the launcher (a function with the signature of TVM's
/// TVMBackendParallelLaunch) for a library's __TVMBackendParallelLaunch.
std::uintptr_t parallelLaunchAddress();

/// How many parallel loops the launcher has run in this process.
uint64_t parallelLaunches();

} // namespace mlir::stablehlo_tvm::python

#endif // STABLEHLO_TVM_PYTHON_PARALLELLAUNCH_H
