//===- HostCallbacks.h - JAX's Python callback custom calls -----*- C++ -*-===//
//
// The custom call targets JAX writes for Python callbacks on CPU
// (jax.pure_callback, jax.debug.print, equinox's checks), for the passes
// that handle them (stablehlo-expose-effects, the host callback conversion).
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_SUPPORT_HOSTCALLBACKS_H
#define STABLEHLO_TVM_SUPPORT_HOSTCALLBACKS_H

#include "llvm/ADT/StringRef.h"

namespace mlir::stablehlo_tvm {

/// Whether `target` names a Python callback (the FFI and the older form).
inline bool isHostCallbackTarget(llvm::StringRef target) {
  return target == "xla_ffi_python_cpu_callback" ||
         target == "xla_python_cpu_callback";
}

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_SUPPORT_HOSTCALLBACKS_H
