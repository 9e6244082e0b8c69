//===- UpdateLoopSlicesInPlace.cpp - In-place updates of carried arrays ---===//
//
// A loop-carried array whose only use in the body is one
// dynamic_update_slice, yielded back in its own position, has no reader of
// its old value: the update may overwrite the buffer. The loop then starts
// from a copy, so that the caller's value is never written.
//
//===----------------------------------------------------------------------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_UPDATELOOPSLICESINPLACE
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

/// The update of `arg` that may write in place, if there is one.
stablehlo::DynamicUpdateSliceOp inPlaceUpdate(BlockArgument arg,
                                              Operation *terminator) {
  if (!arg.hasOneUse())
    return {};
  auto update =
      dyn_cast<stablehlo::DynamicUpdateSliceOp>(*arg.getUsers().begin());
  if (!update || update.getOperand() != arg)
    return {};
  Value result = update.getResult();
  unsigned position = arg.getArgNumber();
  if (terminator->getOperand(position) != result)
    return {};
  for (OpOperand &use : terminator->getOpOperands())
    if (use.get() == result && use.getOperandNumber() != position)
      return {};
  return update;
}

struct UpdateLoopSlicesInPlacePass
    : impl::UpdateLoopSlicesInPlaceBase<UpdateLoopSlicesInPlacePass> {
  void runOnOperation() override {
    getOperation().walk([](stablehlo::WhileOp loop) {
      Block &body = loop.getBody().front();
      Builder builder(loop.getContext());
      SmallVector<int64_t> copied;
      for (BlockArgument arg : body.getArguments()) {
        auto update = inPlaceUpdate(arg, body.getTerminator());
        if (!update)
          continue;
        update->setAttr("tvm.in_place", builder.getUnitAttr());
        copied.push_back(arg.getArgNumber());
      }
      if (!copied.empty())
        loop->setAttr("tvm.copied_inits", builder.getDenseI64ArrayAttr(copied));
    });
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
