//===- DropSharding.cpp - Single-device import ignores Shardy -------------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "llvm/ADT/StringSwitch.h"

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_DROPSHARDING
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

enum class ShardingOp { None, Mesh, PassThrough };

/// Shardy ops by name: the sdy dialect need not be loaded (JAX's generic
/// text parses them as ops of an unregistered dialect).
ShardingOp classify(Operation *op) {
  return llvm::StringSwitch<ShardingOp>(op->getName().getStringRef())
      .Case("sdy.mesh", ShardingOp::Mesh)
      .Cases({"sdy.sharding_constraint", "sdy.reshard"}, ShardingOp::PassThrough)
      .Default(ShardingOp::None);
}

struct DropShardingPass : impl::DropShardingBase<DropShardingPass> {
  void runOnOperation() override {
    SmallVector<Operation *> toErase;
    getOperation()->walk([&](Operation *op) {
      switch (classify(op)) {
      case ShardingOp::None:
        return;
      case ShardingOp::Mesh:
        toErase.push_back(op);
        return;
      case ShardingOp::PassThrough:
        if (op->getNumOperands() == 1 && op->getNumResults() == 1 &&
            op->getOperand(0).getType() == op->getResult(0).getType()) {
          op->getResult(0).replaceAllUsesWith(op->getOperand(0));
          toErase.push_back(op);
        }
        return;
      }
    });
    for (Operation *op : toErase)
      op->erase();
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
