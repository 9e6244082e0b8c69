//===- stablehlo-to-tvm-fuzz.cpp - libFuzzer entry point for the core -----===//
//
// Each input is StableHLO text, taken as the Python API takes it: refused
// when nested too deep, i1 hex constants repacked, parsed and verified with
// unregistered dialects allowed, then the whole import pipeline run with
// per-pass verification off and one verification at the end. Diagnostics
// are the expected outcome of bad input and are dropped; a crash, a
// sanitizer report or a hang is a finding.
//
//   scripts/fuzz.sh            # builds build/fuzz with clang and runs it
//
//===----------------------------------------------------------------------===//

#include "stablehlo-tvm/InitAll.h"
#include "stablehlo-tvm/Support/I1HexCompat.h"
#include "stablehlo-tvm/Support/ParserHazards.h"
#include "stablehlo-tvm/Support/NestingDepth.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <cstdint>
#include <optional>
#include <string>

using namespace mlir;

namespace {

const DialectRegistry &registry() {
  static const DialectRegistry *instance = [] {
    auto *r = new DialectRegistry();
    stablehlo_tvm::registerAllDialects(*r);
    stablehlo_tvm::registerAllPasses();
    return r;
  }();
  return *instance;
}

void importText(llvm::StringRef source) {
  MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  context.allowUnregisteredDialects(true);
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  if (stablehlo_tvm::findExcessiveNesting(source) ||
      stablehlo_tvm::findParserHazard(source))
    return;
  std::optional<std::string> packed = stablehlo_tvm::i1HexBytesToPacked(source);
  if (packed)
    source = *packed;
  ParserConfig config(&context);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, config, "<fuzz>");
  if (!module)
    return;
  FailureOr<OpPassManager> pipeline =
      parsePassPipeline(stablehlo_tvm::getImportPipeline());
  if (failed(pipeline))
    llvm::report_fatal_error("the import pipeline does not parse");
  PassManager pm(&context, pipeline->getOpAnchorName());
  static_cast<OpPassManager &>(pm) = std::move(*pipeline);
  pm.enableVerifier(false);
  if (succeeded(pm.run(*module)))
    (void)verify(*module);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // MLIR's lexer reads up to a terminating NUL, which Python's strings (what
  // the API parses) have and libFuzzer's inputs do not.
  std::string text(reinterpret_cast<const char *>(data), size);
  importText(text);
  return 0;
}
