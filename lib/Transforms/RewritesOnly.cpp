//===- RewritesOnly.cpp - Greedy rewriting without folding ----------------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::stablehlo_tvm {

LogicalResult applyRewritesOnly(Operation *op, RewritePatternSet &&patterns) {
  GreedyRewriteConfig config;
  config.enableFolding(false).enableConstantCSE(false).setRegionSimplificationLevel(
      GreedySimplifyRegionLevel::Disabled);
  return applyPatternsGreedily(op, std::move(patterns), config);
}

} // namespace mlir::stablehlo_tvm
