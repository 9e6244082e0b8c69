//===- InitAll.h - Register the project's dialects and passes ---*- C++ -*-===//

#ifndef STABLEHLO_TVM_INITALL_H
#define STABLEHLO_TVM_INITALL_H

#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <utility>

namespace mlir::stablehlo_tvm {

/// The dialects an import reads and writes: stablehlo, chlo, tvm, func.
void registerAllDialects(DialectRegistry &registry);

/// Every pass of the project and the `stablehlo-to-tvm-pipeline` pipeline.
void registerAllPasses();

/// The import's passes, comma-separated, in order (no anchor).
const char *getImportPasses();

/// The import's passes before stablehlo-refine-shapes, comma-separated: what
/// a module goes through before it is specialized to argument shapes.
const char *getPreparePasses();

/// The import pipeline, as a textual pass pipeline anchored on builtin.module.
const char *getImportPipeline();

/// (short name, attribute name) of the attributes the import leaves on
/// functions for the Python side: the tvm dialect's discardable attributes.
llvm::ArrayRef<std::pair<llvm::StringRef, llvm::StringRef>>
getSignatureAttributes();

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_INITALL_H
