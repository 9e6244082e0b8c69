//===- UnrollShortLoops.cpp - Counted loops of a few trips as straight code ===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

#include <optional>

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_UNROLLSHORTLOOPS
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

// A loop runs unrolled when it makes at most this many trips and its
// copies hold at most this many ops in all: JAX's threefry hash is a
// fori_loop of 5 trips of ~40 elementwise ops, which unrolled fuse into a
// few kernels (a loop runs each trip's kernels one after another and
// writes the two state arrays to memory between them).
constexpr int64_t kMaxTrips = 8;
constexpr int64_t kMaxUnrolledOps = 1024;

/// The integer value of a constant scalar, if `value` is one.
std::optional<APInt> scalarConstant(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getRank() != 0 || !type.getElementType().isInteger() ||
      type.getElementType().isInteger(1))
    return std::nullopt;
  DenseIntElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  return *attr.value_begin<APInt>();
}

bool holds(stablehlo::ComparisonDirection direction, const APInt &lhs,
           const APInt &rhs, bool isUnsigned) {
  using stablehlo::ComparisonDirection;
  switch (direction) {
  case ComparisonDirection::EQ:
    return lhs == rhs;
  case ComparisonDirection::NE:
    return lhs != rhs;
  case ComparisonDirection::LT:
    return isUnsigned ? lhs.ult(rhs) : lhs.slt(rhs);
  case ComparisonDirection::LE:
    return isUnsigned ? lhs.ule(rhs) : lhs.sle(rhs);
  case ComparisonDirection::GT:
    return isUnsigned ? lhs.ugt(rhs) : lhs.sgt(rhs);
  case ComparisonDirection::GE:
    return isUnsigned ? lhs.uge(rhs) : lhs.sge(rhs);
  }
  return false;
}

/// A loop counted by one carried integer: the condition compares it with
/// a constant (and does nothing else), it starts at a constant and the body
/// adds a constant to it. `values` are the counter's values on the trips.
struct CountedLoop {
  unsigned position;
  SmallVector<APInt> values;
};

std::optional<CountedLoop> countedLoop(stablehlo::WhileOp loop) {
  Block &cond = loop.getCond().front();
  Block &body = loop.getBody().front();
  auto compare = dyn_cast_or_null<stablehlo::CompareOp>(
      cond.getTerminator()->getOperand(0).getDefiningOp());
  if (!compare || compare->getBlock() != &cond)
    return std::nullopt;
  // The condition is the comparison and its constants: nothing in it may
  // have effects that unrolling would drop.
  for (Operation &op : cond.without_terminator())
    if (&op != compare.getOperation() && !matchPattern(&op, m_Constant()))
      return std::nullopt;
  Value counter = compare.getLhs();
  std::optional<APInt> bound = scalarConstant(compare.getRhs());
  bool swapped = false;
  if (!bound) {
    counter = compare.getRhs();
    bound = scalarConstant(compare.getLhs());
    swapped = true;
  }
  auto argument = dyn_cast<BlockArgument>(counter);
  if (!bound || !argument || argument.getOwner() != &cond)
    return std::nullopt;
  unsigned position = argument.getArgNumber();
  std::optional<APInt> start = scalarConstant(loop->getOperand(position));
  auto next = body.getTerminator()->getOperand(position).getDefiningOp<stablehlo::AddOp>();
  if (!start || !next)
    return std::nullopt;
  std::optional<APInt> step;
  if (next.getLhs() == body.getArgument(position))
    step = scalarConstant(next.getRhs());
  else if (next.getRhs() == body.getArgument(position))
    step = scalarConstant(next.getLhs());
  if (!step)
    return std::nullopt;
  bool isUnsigned =
      getElementTypeOrSelf(counter.getType()).isUnsignedInteger();
  CountedLoop counted{position, {}};
  APInt value = *start;
  while (swapped ? holds(compare.getComparisonDirection(), *bound, value, isUnsigned)
                 : holds(compare.getComparisonDirection(), value, *bound, isUnsigned)) {
    if (static_cast<int64_t>(counted.values.size()) == kMaxTrips)
      return std::nullopt;
    counted.values.push_back(value);
    value += *step; // wraps, as the loop's own add does
  }
  return counted;
}

/// Whether `region` updates slices or scattered elements of a tensor: a
/// scan's stacked outputs. In a loop they are updated in place
/// (stablehlo-update-loop-slices-in-place); unrolled, each update would
/// copy the whole tensor.
bool updatesSlices(Region &region) {
  return region
      .walk([](Operation *op) {
        return isa<stablehlo::DynamicUpdateSliceOp, stablehlo::ScatterOp>(op)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

int64_t opsIn(Region &region) {
  int64_t count = 0;
  region.walk([&](Operation *) { ++count; });
  return count;
}

/// Replaces `loop` by its body once per trip, the counter a constant in
/// each copy.
void unroll(stablehlo::WhileOp loop, const CountedLoop &counted) {
  Block &body = loop.getBody().front();
  OpBuilder builder(loop);
  auto counterType = cast<RankedTensorType>(body.getArgument(counted.position).getType());
  SmallVector<Value> carried(loop->getOperands());
  SmallVector<Operation *> copies;
  for (const APInt &value : counted.values) {
    IRMapping mapping;
    for (auto [argument, current] : llvm::zip(body.getArguments(), carried))
      mapping.map(argument, current);
    mapping.map(body.getArgument(counted.position),
                stablehlo::ConstantOp::create(
                    builder, loop.getLoc(),
                    DenseElementsAttr::get(counterType, value)));
    for (Operation &op : body.without_terminator())
      copies.push_back(builder.clone(op, mapping));
    for (auto [i, yielded] : llvm::enumerate(body.getTerminator()->getOperands()))
      carried[i] = mapping.lookupOrDefault(yielded);
  }
  loop->replaceAllUsesWith(carried);
  loop->erase();
  // The last trip's counter step, and whatever else only fed the next trip.
  for (Operation *op : llvm::reverse(copies))
    if (isOpTriviallyDead(op))
      op->erase();
}

struct UnrollShortLoopsPass
    : impl::UnrollShortLoopsBase<UnrollShortLoopsPass> {
  void runOnOperation() override {
    // Inner loops first: an outer loop's size counts its unrolled inner
    // ones.
    SmallVector<stablehlo::WhileOp> loops;
    getOperation().walk([&](stablehlo::WhileOp loop) { loops.push_back(loop); });
    for (stablehlo::WhileOp loop : loops) {
      std::optional<CountedLoop> counted = countedLoop(loop);
      if (!counted)
        continue;
      int64_t trips = counted->values.size();
      if (trips * opsIn(loop.getBody()) > kMaxUnrolledOps ||
          updatesSlices(loop.getBody()))
        continue;
      unroll(loop, *counted);
    }
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
