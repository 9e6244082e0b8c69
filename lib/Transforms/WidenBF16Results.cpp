//===- WidenBF16Results.cpp - bf16 arithmetic read back as f32 ------------===//
//
// XLA computes bf16 arithmetic in f32 and rounds each result to bf16; when
// the result is then converted to f32, it drops that rounding and the
// conversion (the pair cancels), so `convert(x * y) : bf16 -> f32` is the
// f32 product of the operands. Measured against jax.jit on bf16 inputs:
// products, sums, quotients, and the functions below, all give the unrounded
// f32 result; an explicit f32 -> bf16 -> f32 round trip keeps its rounding,
// and so do the operations before the last one. Products of matrices and
// convolutions of bf16 operands accumulate in f32 and are rounded the same
// way: converted to f32, the accumulation is read unrounded (a bf16 layer's
// weight gradient converted for its f32 master weights). Mixed-precision
// models read their bf16 activations back as f32 for norms and losses, where
// this is the difference between agreeing with jax.jit bit for bit and not.
//
//===----------------------------------------------------------------------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "llvm/ADT/SetVector.h"
#include "mlir/IR/Builders.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_WIDENBF16RESULTS
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

bool isBF16Tensor(Value value) {
  return getElementTypeOrSelf(value.getType()).isBF16();
}

bool computedInF32(Operation *op) {
  return isa<stablehlo::AddOp, stablehlo::SubtractOp, stablehlo::MulOp,
             stablehlo::DivOp, stablehlo::ExpOp, stablehlo::LogOp,
             stablehlo::TanhOp, stablehlo::SqrtOp, stablehlo::RsqrtOp,
             stablehlo::SineOp, stablehlo::CosineOp, stablehlo::Atan2Op>(op) &&
         op->getNumResults() == 1 && isBF16Tensor(op->getResult(0)) &&
         llvm::all_of(op->getOperands(), isBF16Tensor);
}

// Dot products and convolutions take bf16 operands and give the f32 type
// directly: they accumulate in f32 (the conversion widens nothing).
bool accumulatesInF32(Operation *op) {
  return isa<stablehlo::DotGeneralOp, stablehlo::ConvolutionOp>(op) &&
         isBF16Tensor(op->getResult(0)) &&
         llvm::all_of(op->getOperands(), isBF16Tensor);
}

struct WidenBF16ResultsPass
    : impl::WidenBF16ResultsBase<WidenBF16ResultsPass> {
  void runOnOperation() override {
    // Collected first: the conversions of operands made here keep their
    // rounding (only the last operation's is dropped), so they must not be
    // rewritten in turn.
    SmallVector<stablehlo::ConvertOp> converts;
    getOperation()->walk([&](stablehlo::ConvertOp op) {
      Operation *arithmetic = op.getOperand().getDefiningOp();
      if (getElementTypeOrSelf(op.getType()).isF32() && arithmetic &&
          (computedInF32(arithmetic) || accumulatesInF32(arithmetic)))
        converts.push_back(op);
    });
    llvm::SetVector<Operation *> widened;
    for (stablehlo::ConvertOp op : converts) {
      Operation *arithmetic = op.getOperand().getDefiningOp();
      OpBuilder builder(op);
      SmallVector<Value> operands(arithmetic->getOperands());
      if (!accumulatesInF32(arithmetic))
        for (Value &operand : operands)
          operand = stablehlo::ConvertOp::create(
              builder, op.getLoc(),
              cast<ShapedType>(operand.getType()).clone(builder.getF32Type()),
              operand);
      OperationState state(arithmetic->getLoc(), arithmetic->getName(),
                           operands, op.getType(), arithmetic->getAttrs());
      op.getResult().replaceAllUsesWith(builder.create(state)->getResult(0));
      op.erase();
      widened.insert(arithmetic);
    }
    for (Operation *arithmetic : widened)
      if (arithmetic->use_empty())
        arithmetic->erase();
  }
};

} // namespace

} // namespace mlir::stablehlo_tvm
