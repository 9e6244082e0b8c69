//===- Sort.cpp - sort as a kernel ----------------------------------------===//
//
// Each slice along the sort dimension is sorted in place by insertion: an
// element moves down while the comparator says it goes before its
// neighbour, so equal elements keep their order (stable, whatever
// is_stable says). All operands move together. The work is quadratic in
// the slice length; slices are sorted in parallel.
//
//===----------------------------------------------------------------------===//

#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

namespace mlir::stablehlo_tvm {
namespace {

struct SortToKernel : TVMTypedPattern<stablehlo::SortOp> {
  using TVMTypedPattern::TVMTypedPattern;

  LogicalResult
  rewrite(stablehlo::SortOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getInputs()[0].getType());
    if (!type.hasStaticShape() || type.getRank() == 0)
      return rewriter.notifyMatchFailure(op, "dynamic or rank-0 shape");
    int64_t rank = type.getRank();
    auto dimension = static_cast<int64_t>(op.getDimension());
    int64_t dim = dimension < 0 ? dimension + rank : dimension;
    int64_t length = type.getDimSize(dim);
    SmallVector<int64_t> slices(type.getShape());
    slices[dim] = 1;
    Block &comparator = op.getComparator().front();
    if (failed(checkScalarizable(comparator)))
      return rewriter.notifyMatchFailure(op, "comparator has no scalar form");

    bool scalarized = true;
    SmallVector<Value> results = buildKernel(
        rewriter, op.getLoc(), "sort", adaptor.getInputs(),
        op.getResultTypes(),
        [&](OpBuilder &b, Location loc, ValueRange in, ValueRange out) {
          buildLoopNest(b, loc, type.getShape(), /*parallel=*/true,
                        [&](OpBuilder &b, Location loc, ValueRange ivs) {
            for (auto [input, result] : llvm::zip(in, out)) {
              Value value = memref::LoadOp::create(b, loc, input, ivs);
              memref::StoreOp::create(b, loc, value, result, ivs);
            }
          });
          buildLoopNest(b, loc, slices, /*parallel=*/true,
                        [&](OpBuilder &b, Location loc, ValueRange slice) {
            auto at = [&](Value position) {
              SmallVector<Value> index(slice);
              index[dim] = position;
              return index;
            };
            Value moving = memref::AllocaOp::create(
                b, loc, MemRefType::get({}, b.getI1Type()));
            Value yes = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
            Value no = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
            Value one = indexValue(b, loc, 1);
            // for i in [1, length): for t in [0, i): j = i - 1 - t.
            Value zero = indexValue(b, loc, 0);
            Value end = indexValue(b, loc, length);
            scf::ForOp::create(
                b, loc, one, end, one, ValueRange{},
                [&](OpBuilder &b, Location loc, Value i, ValueRange) {
                  memref::StoreOp::create(b, loc, yes, moving);
                  scf::ForOp::create(
                      b, loc, zero, i, one, ValueRange{},
                      [&](OpBuilder &b, Location loc, Value t, ValueRange) {
                        Value below = arith::SubIOp::create(b, loc, i, t);
                        Value j = arith::SubIOp::create(b, loc, below, one);
                        Value next = arith::AddIOp::create(b, loc, j, one);
                        Value stillMoving = memref::LoadOp::create(b, loc, moving);
                        auto active = scf::IfOp::create(b, loc, stillMoving,
                                                        /*withElse=*/false);
                        {
                          OpBuilder::InsertionGuard guard(b);
                          b.setInsertionPoint(
                              active.thenBlock()->getTerminator());
                          SmallVector<Value> args, upper, lower;
                          for (Value result : out) {
                            upper.push_back(
                                memref::LoadOp::create(b, loc, result, at(next)));
                            lower.push_back(
                                memref::LoadOp::create(b, loc, result, at(j)));
                            args.push_back(upper.back());
                            args.push_back(lower.back());
                          }
                          FailureOr<SmallVector<Value>> before =
                              scalarizeBody(b, comparator, args);
                          if (failed(before) || before->size() != 1) {
                            scalarized = false;
                          } else {
                            auto swap = scf::IfOp::create(b, loc, before->front(),
                                                          /*withElse=*/true);
                            b.setInsertionPoint(
                                swap.thenBlock()->getTerminator());
                            for (auto [result, u, l] :
                                 llvm::zip(out, upper, lower)) {
                              memref::StoreOp::create(b, loc, u, result, at(j));
                              memref::StoreOp::create(b, loc, l, result,
                                                      at(next));
                            }
                            b.setInsertionPoint(
                                swap.elseBlock()->getTerminator());
                            memref::StoreOp::create(b, loc, no, moving);
                          }
                        }
                        scf::YieldOp::create(b, loc);
                      });
                  scf::YieldOp::create(b, loc);
                });
          });
        });
    if (!scalarized)
      return rewriter.notifyMatchFailure(op, "comparator has no scalar form");
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void populateSortPatterns(MLIRContext *context, RewritePatternSet &patterns) {
  patterns.add<SortToKernel>(context);
}

} // namespace mlir::stablehlo_tvm
