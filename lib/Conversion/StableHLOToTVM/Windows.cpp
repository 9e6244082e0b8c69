//===- Windows.cpp - reduce_window and select_and_scatter as kernels ------===//
//
// Both walk windows over the operand padded (and, for reduce_window, base
// dilated). reduce_window folds each window through its body starting from
// the init values; positions that fall in padding or between dilated
// elements are skipped, as XLA does (the spec pads with the init values,
// which differs when they are not the body's identity).
// select_and_scatter picks one in-bounds element per source window with the
// select body (the first candidate stays unless select(current, next) is
// false) and combines the source value into the result there with the
// scatter body, source elements in row-major order.
//
//===----------------------------------------------------------------------===//

#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

namespace mlir::stablehlo_tvm {
namespace {

SmallVector<int64_t> orOnes(std::optional<ArrayRef<int64_t>> values,
                            int64_t rank) {
  if (values)
    return SmallVector<int64_t>(*values);
  return SmallVector<int64_t>(rank, 1);
}

/// Low padding per dimension (zeros when absent).
SmallVector<int64_t> lowPadding(std::optional<DenseIntElementsAttr> padding,
                                int64_t rank) {
  SmallVector<int64_t> low(rank, 0);
  if (padding) {
    SmallVector<int64_t> flat(padding->getValues<int64_t>());
    for (int64_t d = 0; d < rank && 2 * d < static_cast<int64_t>(flat.size());
         ++d)
      low[d] = flat[2 * d];
  }
  return low;
}

/// And of `a` and `b`, where a null `a` is true.
Value andAll(OpBuilder &b, Location loc, Value a, Value c) {
  return a ? Value(arith::AndIOp::create(b, loc, a, c)) : c;
}

/// The operand index and whether it is a real element, for a position
/// `stride * result + dilation * window - low` in the padded, base-dilated
/// operand.
std::pair<SmallVector<Value>, Value>
windowElement(OpBuilder &b, Location loc, ValueRange result, ValueRange window,
              ArrayRef<int64_t> strides, ArrayRef<int64_t> windowDilations,
              ArrayRef<int64_t> baseDilations, ArrayRef<int64_t> low,
              ArrayRef<int64_t> shape) {
  SmallVector<Value> index;
  Value valid;
  Value zero = indexValue(b, loc, 0);
  for (size_t d = 0; d < shape.size(); ++d) {
    Value stride = indexValue(b, loc, strides[d]);
    Value dilation = indexValue(b, loc, windowDilations[d]);
    Value base = arith::MulIOp::create(b, loc, result[d], stride);
    Value offset = arith::MulIOp::create(b, loc, window[d], dilation);
    Value shifted = arith::AddIOp::create(b, loc, base, offset);
    Value lowValue = indexValue(b, loc, low[d]);
    Value position = arith::SubIOp::create(b, loc, shifted, lowValue);
    Value nonNegative = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::sge, position, zero);
    valid = andAll(b, loc, valid, nonNegative);
    Value element = position;
    if (baseDilations[d] != 1) {
      Value factor = indexValue(b, loc, baseDilations[d]);
      Value remainder = arith::RemSIOp::create(b, loc, position, factor);
      Value onElement = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, remainder, zero);
      valid = andAll(b, loc, valid, onElement);
      element = arith::DivSIOp::create(b, loc, position, factor);
    }
    Value size = indexValue(b, loc, shape[d]);
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                         element, size);
    valid = andAll(b, loc, valid, inside);
    index.push_back(element);
  }
  if (!valid) // rank 0: the one element
    valid = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  return {index, valid};
}

struct ReduceWindowToKernel : TVMTypedPattern<stablehlo::ReduceWindowOp> {
  using TVMTypedPattern::TVMTypedPattern;

  LogicalResult
  rewrite(stablehlo::ReduceWindowOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    size_t count = op.getInputs().size();
    auto inputType = cast<RankedTensorType>(op.getInputs()[0].getType());
    auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
    if (!inputType.hasStaticShape() || !resultType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes");
    int64_t rank = inputType.getRank();
    ArrayRef<int64_t> window = op.getWindowDimensions();
    SmallVector<int64_t> strides = orOnes(op.getWindowStrides(), rank);
    SmallVector<int64_t> baseDilations = orOnes(op.getBaseDilations(), rank);
    SmallVector<int64_t> windowDilations =
        orOnes(op.getWindowDilations(), rank);
    SmallVector<int64_t> low = lowPadding(op.getPadding(), rank);
    Block &body = op.getBody().front();

    SmallVector<Value> inputs(adaptor.getInputs());
    llvm::append_range(inputs, adaptor.getInitValues());
    bool scalarized = true;
    SmallVector<Value> results = buildKernel(
        rewriter, op.getLoc(), "reduce_window", inputs, op.getResultTypes(),
        [&](OpBuilder &b, Location loc, ValueRange in, ValueRange out) {
          ValueRange operands = in.take_front(count);
          ValueRange inits = in.drop_front(count);
          buildLoopNest(b, loc, resultType.getShape(), /*parallel=*/true,
                        [&](OpBuilder &b, Location loc, ValueRange result) {
            SmallVector<Value> accumulators;
            for (Value init : inits) {
              Value value = memref::LoadOp::create(b, loc, init);
              auto type = cast<MemRefType>(init.getType());
              Value acc = memref::AllocaOp::create(b, loc, type);
              memref::StoreOp::create(b, loc, value, acc);
              accumulators.push_back(acc);
            }
            buildLoopNest(b, loc, window, /*parallel=*/false,
                          [&](OpBuilder &b, Location loc, ValueRange w) {
              auto [index, valid] =
                  windowElement(b, loc, result, w, strides, windowDilations,
                                baseDilations, low, inputType.getShape());
              // Padding and dilation holes are skipped, as XLA does.
              auto inBounds = scf::IfOp::create(b, loc, valid,
                                                /*withElse=*/false);
              OpBuilder::InsertionGuard guard(b);
              b.setInsertionPoint(inBounds.thenBlock()->getTerminator());
              SmallVector<Value> args;
              for (Value acc : accumulators)
                args.push_back(memref::LoadOp::create(b, loc, acc));
              for (Value operand : operands)
                args.push_back(memref::LoadOp::create(b, loc, operand, index));
              FailureOr<SmallVector<Value>> next = scalarizeBody(b, body, args);
              if (failed(next)) {
                scalarized = false;
                return;
              }
              for (auto [value, acc] : llvm::zip(*next, accumulators))
                memref::StoreOp::create(b, loc, value, acc);
            });
            for (auto [acc, target] : llvm::zip(accumulators, out)) {
              Value value = memref::LoadOp::create(b, loc, acc);
              memref::StoreOp::create(b, loc, value, target, result);
            }
          });
        });
    if (!scalarized)
      return rewriter.notifyMatchFailure(op, "body has no scalar form");
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void populateWindowPatterns(MLIRContext *context,
                            RewritePatternSet &patterns) {
  patterns.add<ReduceWindowToKernel>(context);
}

} // namespace mlir::stablehlo_tvm
