//===- HoistLoopInvariants.cpp - Loop-invariant work before the loop ------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_HOISTLOOPINVARIANTS
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

/// `loop` without the positions its body hands on unchanged: their uses
/// read the loop's operand (and so do the loop's results there).
stablehlo::WhileOp dropInvariantPositions(stablehlo::WhileOp loop) {
  Block &body = loop.getBody().front();
  Block &cond = loop.getCond().front();
  Operation *ret = body.getTerminator();
  llvm::BitVector invariant(loop->getNumOperands());
  for (auto [i, value] : llvm::enumerate(ret->getOperands()))
    if (value == body.getArgument(i))
      invariant.set(i);
  if (invariant.none())
    return loop;
  SmallVector<Value> operands;
  SmallVector<Type> types;
  for (auto [i, operand] : llvm::enumerate(loop->getOperands())) {
    if (invariant.test(i)) {
      body.getArgument(i).replaceAllUsesWith(operand);
      cond.getArgument(i).replaceAllUsesWith(operand);
      loop->getResult(i).replaceAllUsesWith(operand);
    } else {
      operands.push_back(operand);
      types.push_back(operand.getType());
    }
  }
  SmallVector<Value> carried;
  for (auto [i, value] : llvm::enumerate(ret->getOperands()))
    if (!invariant.test(i))
      carried.push_back(value);
  ret->setOperands(carried);
  body.eraseArguments(invariant);
  cond.eraseArguments(invariant);
  OpBuilder builder(loop);
  auto kept = stablehlo::WhileOp::create(builder, loop.getLoc(), types,
                                         operands);
  kept->setAttrs(loop->getAttrs());
  for (auto [from, to] : llvm::zip(loop->getRegions(), kept->getRegions()))
    to.takeBody(from);
  unsigned next = 0;
  for (auto [i, result] : llvm::enumerate(loop->getResults()))
    if (!invariant.test(i))
      result.replaceAllUsesWith(kept->getResult(next++));
  loop->erase();
  return kept;
}

/// Below this many elements read or written, an op costs less inside a
/// loop than its result costs outside: a buffer allocated per call and
/// handed into the loop (a scalar step size computed before an adaptive
/// ODE solver's loop: 15 -> 20 us a call).
constexpr int64_t kMinHoistedElements = 1024;
/// The same for an op that evaluates a transcendental function per element:
/// a split-step Schrodinger solver's complex exp of 256 constant phases
/// (float64 exp, cos and sin once complex values are split) took 15 of the
/// 20 us of each of its 50 iterations.
constexpr int64_t kMinHoistedTranscendentals = 16;

int64_t largestOf(TypeRange types) {
  int64_t largest = 0;
  for (Type type : types) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      return -1;
    largest = std::max(largest, tensor.getNumElements());
  }
  return largest;
}

bool isTranscendental(Operation *op) {
  return isa<stablehlo::ExpOp, stablehlo::Expm1Op, stablehlo::LogOp,
             stablehlo::Log1pOp, stablehlo::LogisticOp, stablehlo::TanhOp,
             stablehlo::SineOp, stablehlo::CosineOp, stablehlo::TanOp,
             stablehlo::CbrtOp, stablehlo::Atan2Op, stablehlo::PowOp>(op);
}

/// Whether `op` may compute once outside a loop what it computes in every
/// iteration (given operands that do not change).
bool movable(Operation *op) {
  return op->getNumOperands() != 0 &&
         !op->hasTrait<OpTrait::IsTerminator>() &&
         !isa<stablehlo::WhileOp, stablehlo::IfOp, stablehlo::CaseOp>(op) &&
         isMemoryEffectFree(op);
}

/// The most elements `op` reads or writes, -1 when a shape is not static.
int64_t elementsOf(Operation *op) {
  int64_t operands = largestOf(op->getOperandTypes());
  int64_t results = largestOf(op->getResultTypes());
  return operands < 0 || results < 0 ? -1 : std::max(operands, results);
}

/// Whether `op` is worth a buffer of its own, computed before the loop,
/// once its operands are there. Broadcasts are not: they cost nothing where
/// they fuse into their users and a whole tensor where they do not.
bool largeEnough(Operation *op) {
  return !isa<stablehlo::BroadcastInDimOp>(op) &&
         elementsOf(op) >= kMinHoistedElements;
}

/// An op without operands or effects (a constant, an iota): computed
/// anywhere alike.
bool isConstantLike(Operation *op) {
  return op && op->getNumOperands() == 0 && op->getNumRegions() == 0 &&
         isMemoryEffectFree(op);
}

/// Moves the ops of `region` (its block, in order) that use nothing
/// defined inside `loop` but constants, and are worth it, before it; a
/// constant they use is copied there (the loop's own users keep theirs).
/// Worth it: an op large enough whose operands are already outside, and a
/// transcendental function of an invariant with all the invariant ops it
/// reads (broadcasts and small ops included: the chain from a constant to
/// the exp of it moves whole).
void hoist(Region &region, stablehlo::WhileOp loop) {
  auto outside = [&](Value value) {
    return !loop->isAncestor(value.getParentRegion()->getParentOp());
  };
  auto usesOnlyOutside = [&](Operation &op) {
    llvm::SetVector<Value> used;
    getUsedValuesDefinedAbove(op.getRegions(), used);
    return llvm::all_of(used, outside);
  };
  // Invariant: computed alike in every iteration.
  llvm::SetVector<Operation *> invariant;
  for (Operation &op : region.front()) {
    auto available = [&](Value value) {
      Operation *def = value.getDefiningOp();
      return outside(value) || isConstantLike(def) || invariant.contains(def);
    };
    if (movable(&op) && llvm::all_of(op.getOperands(), available) &&
        usesOnlyOutside(op))
      invariant.insert(&op);
  }
  // Users come after their operands: walking back, an op is pulled out
  // when it is a transcendental function worth it or a pulled op reads it.
  llvm::SmallPtrSet<Operation *, 16> pulled;
  for (Operation *op : llvm::reverse(invariant))
    if ((isTranscendental(op) &&
         elementsOf(op) >= kMinHoistedTranscendentals) ||
        llvm::any_of(op->getUsers(),
                     [&](Operation *user) { return pulled.contains(user); }))
      pulled.insert(op);
  OpBuilder builder(loop);
  for (Operation *op : invariant) {
    bool ready = llvm::all_of(op->getOperands(), [&](Value value) {
      return outside(value) || isConstantLike(value.getDefiningOp());
    });
    if (!pulled.contains(op) && !(largeEnough(op) && ready))
      continue;
    for (OpOperand &operand : op->getOpOperands())
      if (!outside(operand.get()))
        operand.set(builder.clone(*operand.get().getDefiningOp())->getResult(
            cast<OpResult>(operand.get()).getResultNumber()));
    op->moveBefore(loop);
  }
}

struct HoistLoopInvariantsPass
    : impl::HoistLoopInvariantsBase<HoistLoopInvariantsPass> {
  void runOnOperation() override {
    // Innermost first: what leaves an inner loop may then leave the outer.
    SmallVector<stablehlo::WhileOp> loops;
    getOperation()->walk([&](stablehlo::WhileOp loop) { loops.push_back(loop); });
    for (stablehlo::WhileOp loop : loops) {
      loop = dropInvariantPositions(loop);
      hoist(loop.getCond(), loop);
      hoist(loop.getBody(), loop);
    }
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
