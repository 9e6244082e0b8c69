//===- InitAll.cpp - Register the project's dialects and passes -----------===//

#include "stablehlo-tvm/InitAll.h"

#include "stablehlo-tvm/Conversion/Passes.h"
#include "stablehlo-tvm/Dialect/CHLO/IR/CHLO.h"
#include "stablehlo-tvm/Dialect/Check/IR/Check.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"
#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <string>

namespace mlir::stablehlo_tvm {

void registerAllDialects(DialectRegistry &registry) {
  // quant: a signature may name a quantized type before any stablehlo op
  // has loaded the stablehlo dialect (which depends on quant).
  registry.insert<check::CheckDialect, chlo::CHLODialect, stablehlo::StableHLODialect,
                  tvm::TVMDialect, func::FuncDialect, quant::QuantDialect>();
  func::registerInlinerExtension(registry);
}

namespace {
// The import, pass by pass: one definition for the tool and the module.
// What comes before shape refinement: the forms it reads (one function per
// entry, no composites, no quantized, small-float or sub-byte types).
// Simplification runs again after inlining: JAX's private helpers hide
// what it normalizes (a select of one value behind @_where, then x - x).
// Short loops are unrolled before effects are exposed: a jax.debug.print
// in an unrolled loop is then one in the function's body.
#define STABLEHLO_TVM_PREPARE_PASSES                                           \
  "stablehlo-drop-sharding,stablehlo-lower-quantized,"                          \
  "stablehlo-lower-small-floats,stablehlo-simplify,"                           \
  "stablehlo-widen-sub-byte-integers,stablehlo-inline-private-functions,"     \
  "stablehlo-widen-bf16-results,stablehlo-simplify,"                          \
  "stablehlo-unroll-short-loops,stablehlo-fold-small-constants,"             \
  "stablehlo-expose-effects"
constexpr const char *kPreparePasses = STABLEHLO_TVM_PREPARE_PASSES;
constexpr const char *kImportPasses =
    STABLEHLO_TVM_PREPARE_PASSES ",stablehlo-refine-shapes,"
    "stablehlo-decompose-fft{library-points=64},stablehlo-lower-complex,"
    "stablehlo-tree-reduce-half-floats,stablehlo-split-long-sums,"
    "stablehlo-split-dilated-convolutions,stablehlo-fold-convolution-depth,"
    "stablehlo-sink-broadcasts,"
    "stablehlo-hoist-loop-invariants,stablehlo-isolate-loops,"
    "stablehlo-update-loop-slices-in-place,stablehlo-symbolize-shapes,"
    "convert-stablehlo-to-tvm,"
    "cse,tvm-check-legality";
} // namespace

const char *getImportPasses() { return kImportPasses; }
const char *getPreparePasses() { return kPreparePasses; }

const char *getImportPipeline() {
  static const std::string pipeline =
      std::string("builtin.module(") + kImportPasses + ")";
  return pipeline.c_str();
}

void registerAllPasses() {
  registerStableHLOTVMTransformsPasses();
  registerStableHLOTVMConversionPasses();
  registerCSEPass();
  registerCanonicalizerPass();
  registerSymbolDCEPass();
  PassPipelineRegistration<>(
      "stablehlo-to-tvm-pipeline",
      "Import StableHLO into the tvm dialect: drop sharding, inline, lower "
      "complex numbers, legalize, check",
      [](OpPassManager &pm) {
        if (failed(parsePassPipeline(kImportPasses, pm)))
          llvm::report_fatal_error("the import pipeline does not parse");
      });
}

llvm::ArrayRef<std::pair<llvm::StringRef, llvm::StringRef>>
getSignatureAttributes() {
  using tvm::TVMDialect;
  static const std::pair<llvm::StringRef, llvm::StringRef> names[] = {
      {"complex_arguments",
       TVMDialect::ComplexArgumentsAttrHelper::getNameStr()},
      {"complex_results", TVMDialect::ComplexResultsAttrHelper::getNameStr()},
      {"narrow_results", TVMDialect::NarrowResultsAttrHelper::getNameStr()},
      {"small_float_results",
       TVMDialect::SmallFloatResultsAttrHelper::getNameStr()},
      {"effect_results", TVMDialect::EffectResultsAttrHelper::getNameStr()},
      {"dim_symbols", TVMDialect::DimSymbolsAttrHelper::getNameStr()},
      {"dim_checks", TVMDialect::DimChecksAttrHelper::getNameStr()},
  };
  return names;
}

} // namespace mlir::stablehlo_tvm
