//===- IsolateLoops.cpp - Values a loop uses become loop-carried ----------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Transforms/RegionUtils.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_ISOLATELOOPS
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

void isolate(stablehlo::WhileOp loop) {
  llvm::SetVector<Value> captures;
  getUsedValuesDefinedAbove(loop->getRegions(), captures);
  if (captures.empty())
    return;
  SmallVector<Value> operands(loop.getOperands());
  llvm::append_range(operands, captures);
  SmallVector<Type> types(loop.getResultTypes());
  for (Value capture : captures)
    types.push_back(capture.getType());
  OpBuilder builder(loop);
  auto isolated = stablehlo::WhileOp::create(builder, loop.getLoc(), types,
                                             operands);
  isolated->setAttrs(loop->getAttrs());
  for (auto [from, to] : llvm::zip(loop->getRegions(), isolated->getRegions())) {
    to.takeBody(from);
    Block &block = to.front();
    for (Value capture : captures) {
      BlockArgument arg = block.addArgument(capture.getType(), capture.getLoc());
      replaceAllUsesInRegionWith(capture, arg, to);
    }
  }
  // The body hands the captured values on unchanged.
  Block &body = isolated.getBody().front();
  Operation *ret = body.getTerminator();
  SmallVector<Value> carried(ret->getOperands());
  llvm::append_range(carried,
                     body.getArguments().take_back(captures.size()));
  ret->setOperands(carried);
  loop->replaceAllUsesWith(
      isolated->getResults().take_front(loop->getNumResults()));
  loop->erase();
}

struct IsolateLoopsPass : impl::IsolateLoopsBase<IsolateLoopsPass> {
  void runOnOperation() override {
    // Innermost first: an inner loop's captures may be an outer loop's
    // arguments, which stay inside the outer loop.
    SmallVector<stablehlo::WhileOp> loops;
    getOperation()->walk([&](stablehlo::WhileOp loop) { loops.push_back(loop); });
    for (stablehlo::WhileOp loop : loops)
      isolate(loop);
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
