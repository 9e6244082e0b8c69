//===- UpdateLoopSlicesInPlace.cpp - In-place updates of carried arrays ---===//
//
// A loop-carried array whose only use in the body is one
// dynamic_update_slice or one single-input scatter (`x.at[i].set(v)`),
// yielded back in its own position, has no reader of its old value: the
// update may overwrite the buffer. The loop then starts from a copy, so that
// the caller's value is never written.
//
//===----------------------------------------------------------------------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_UPDATELOOPSLICESINPLACE
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

/// The update of `arg` that may write in place, if there is one.
Operation *inPlaceUpdate(BlockArgument arg, Operation *terminator) {
  if (!arg.hasOneUse())
    return {};
  Operation *update = *arg.getUsers().begin();
  bool updates =
      TypeSwitch<Operation *, bool>(update)
          .Case([&](stablehlo::DynamicUpdateSliceOp op) {
            return op.getOperand() == arg;
          })
          .Case([&](stablehlo::ScatterOp op) {
            return op.getInputs().size() == 1 && op.getInputs()[0] == arg;
          })
          .Default(false);
  if (!updates)
    return {};
  Value result = update->getResult(0);
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
        Operation *update = inPlaceUpdate(arg, body.getTerminator());
        if (!update)
          continue;
        update->setAttr(tvm::TVMDialect::InPlaceAttrHelper::getNameStr(), builder.getUnitAttr());
        copied.push_back(arg.getArgNumber());
      }
      if (!copied.empty())
        loop->setAttr(tvm::TVMDialect::CopiedInitsAttrHelper::getNameStr(), builder.getDenseI64ArrayAttr(copied));
    });
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
