//===- UpdateLoopSlicesInPlace.cpp - In-place updates of carried arrays ---===//
//
// A loop-carried array that the body updates with dynamic_update_slice or a
// single-input scatter (`x.at[i].set(v)`), possibly several times in a row,
// and yields back in its own position may be updated in its buffer, as long
// as every other reader of each old value has certainly run before the
// update: the update depends on what it computed (a key/value cache read by
// the attention whose output makes the next layer's update). The loop then
// starts from a copy, so that the caller's value is never written.
//
//===----------------------------------------------------------------------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_UPDATELOOPSLICESINPLACE
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

/// The ops of `block` that `op`'s operands, or values its regions use,
/// come from, however indirectly: they run before `op` in any order.
llvm::SmallPtrSet<Operation *, 32> ancestorsOf(Operation *op, Block &block) {
  llvm::SmallPtrSet<Operation *, 32> seen;
  SmallVector<Operation *> work{op};
  while (!work.empty()) {
    Operation *current = work.pop_back_val();
    current->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *def = operand.getDefiningOp();
        Operation *top = def ? block.findAncestorOpInBlock(*def) : nullptr;
        if (top && seen.insert(top).second)
          work.push_back(top);
      }
    });
  }
  return seen;
}

/// Whether `op`'s results may share `value`'s buffer once lowered: views
/// (reshape, bitcast), identities, ops whose regions may hand it on.
bool mayAlias(Operation *op, Value value) {
  if (op->getNumRegions() != 0 ||
      isa<stablehlo::ReshapeOp, stablehlo::BitcastConvertOp,
          stablehlo::OptimizationBarrierOp, stablehlo::TupleOp,
          stablehlo::GetTupleElementOp>(op))
    return true;
  return llvm::any_of(op->getResultTypes(),
                      [&](Type type) { return type == value.getType(); });
}

/// Whether everything in `block` that reads `value`, other than `update`
/// (through its operand `updated`), is among `before`; views of `value`
/// are followed to their readers, each op once (a body's diamonds of
/// same-typed elementwise ops would otherwise be walked once per path).
bool readOnlyBefore(Value value, Operation *update, OpOperand *updated,
                    Block &block,
                    const llvm::SmallPtrSet<Operation *, 32> &before) {
  SmallVector<Value> work{value};
  llvm::SmallPtrSet<Operation *, 16> followed;
  while (!work.empty()) {
    Value current = work.pop_back_val();
    for (OpOperand &use : current.getUses()) {
      if (&use == updated)
        continue;
      Operation *top = block.findAncestorOpInBlock(*use.getOwner());
      if (!top || top == update || !before.contains(top))
        return false;
      if (mayAlias(top, current) && followed.insert(top).second)
        llvm::append_range(work, top->getResults());
    }
  }
  return true;
}

/// The operand of `op` it would overwrite, if it is an update that can.
OpOperand *updatedOperand(Operation *op) {
  return TypeSwitch<Operation *, OpOperand *>(op)
      .Case([](stablehlo::DynamicUpdateSliceOp update) {
        return &update.getOperandMutable();
      })
      .Case([](stablehlo::ScatterOp scatter) -> OpOperand * {
        if (scatter.getInputs().size() != 1)
          return nullptr;
        return &scatter->getOpOperand(0);
      })
      .Default(nullptr);
}

/// The chain of updates from `arg` to what the body yields in its
/// position, if each of them may write in place; empty otherwise.
SmallVector<Operation *> inPlaceUpdates(BlockArgument arg, Block &body) {
  Operation *terminator = body.getTerminator();
  unsigned position = arg.getArgNumber();
  Value yielded = terminator->getOperand(position);
  SmallVector<Operation *> chain;
  Value current = arg;
  while (current != yielded) {
    Operation *update = nullptr;
    OpOperand *updated = nullptr;
    for (OpOperand &use : current.getUses()) {
      OpOperand *candidate = updatedOperand(use.getOwner());
      if (candidate != &use || use.getOwner()->getBlock() != &body)
        continue;
      if (update)
        return {};
      update = use.getOwner();
      updated = &use;
    }
    if (!update ||
        !readOnlyBefore(current, update, updated, body, ancestorsOf(update, body)))
      return {};
    chain.push_back(update);
    current = update->getResult(0);
  }
  if (chain.empty())
    return {};
  // The last update's buffer is the carried one: it may not also be handed
  // on in another position.
  for (OpOperand &use : terminator->getOpOperands())
    if (use.get() == yielded && use.getOperandNumber() != position)
      return {};
  return chain;
}

struct UpdateLoopSlicesInPlacePass
    : impl::UpdateLoopSlicesInPlaceBase<UpdateLoopSlicesInPlacePass> {
  void runOnOperation() override {
    getOperation().walk([](stablehlo::WhileOp loop) {
      Block &body = loop.getBody().front();
      Builder builder(loop.getContext());
      SmallVector<int64_t> copied;
      for (BlockArgument arg : body.getArguments()) {
        SmallVector<Operation *> updates = inPlaceUpdates(arg, body);
        if (updates.empty())
          continue;
        for (Operation *update : updates)
          update->setAttr(tvm::TVMDialect::InPlaceAttrHelper::getNameStr(),
                          builder.getUnitAttr());
        copied.push_back(arg.getArgNumber());
      }
      if (!copied.empty())
        loop->setAttr(tvm::TVMDialect::CopiedInitsAttrHelper::getNameStr(),
                      builder.getDenseI64ArrayAttr(copied));
    });
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
