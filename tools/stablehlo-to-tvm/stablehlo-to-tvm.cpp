//===- stablehlo-to-tvm.cpp - The opt-style driver ------------------------===//
//
// Parses, verifies and prints StableHLO like mlir-opt; with
// --stablehlo-to-tvm-pipeline it runs the import into the tvm dialect. Every
// standard MlirOptMain flag works.
//
// Text goes through the i1 hex translation both ways (see I1HexCompat.h), so
// that the tool reads what JAX writes and writes what JAX reads.
//
//===----------------------------------------------------------------------===//

#include "stablehlo-tvm/InitAll.h"
#include "stablehlo-tvm/Support/I1HexCompat.h"
#include "stablehlo-tvm/Support/ParserHazards.h"
#include "stablehlo-tvm/Support/NestingDepth.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

int main(int argc, char **argv) {
  DialectRegistry registry;
  stablehlo_tvm::registerAllDialects(registry);
  stablehlo_tvm::registerAllPasses();
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "StableHLO to Apache TVM importer\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return EXIT_FAILURE;
  }
  std::unique_ptr<llvm::MemoryBuffer> buffer = std::move(input);
  if (auto at = stablehlo_tvm::findExcessiveNesting(buffer->getBuffer())) {
    llvm::errs() << buffer->getBufferIdentifier() << ":" << at->line << ":"
                 << at->column << ": error: nesting deeper than "
                 << stablehlo_tvm::kMaxNestingDepth
                 << " brackets, braces or parentheses: refused\n";
    return EXIT_FAILURE;
  }
  if (auto hazard = stablehlo_tvm::findParserHazard(buffer->getBuffer())) {
    llvm::errs() << buffer->getBufferIdentifier() << ":" << hazard->at.line
                 << ":" << hazard->at.column << ": error: " << hazard->message
                 << ": refused\n";
    return EXIT_FAILURE;
  }
  if (std::optional<std::string> packed =
          stablehlo_tvm::i1HexBytesToPacked(buffer->getBuffer()))
    buffer = llvm::MemoryBuffer::getMemBufferCopy(
        *packed, buffer->getBufferIdentifier());

  std::string result;
  llvm::raw_string_ostream os(result);
  LogicalResult status = MlirOptMain(os, std::move(buffer), registry, config);

  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return EXIT_FAILURE;
  }
  std::optional<std::string> unpacked;
  if (!config.shouldEmitBytecode())
    unpacked = stablehlo_tvm::i1HexPackedToBytes(result);
  output->os() << (unpacked ? *unpacked : result);
  output->keep();
  return asMainReturnCode(status);
}
