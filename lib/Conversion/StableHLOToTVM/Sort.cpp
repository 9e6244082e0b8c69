//===- Sort.cpp - sort as a kernel ----------------------------------------===//
//
// Each slice along the sort dimension is sorted on its own (slices in
// parallel), all operands moving together, stably whatever is_stable says:
// an element goes before an earlier one only when the comparator says so.
// Short slices are sorted in place by insertion; longer ones by a bottom-up
// merge sort, O(n log n), that alternates between the result and a scratch
// tensor (an extra result of the kernel, dropped), arranged so that the
// last pass writes the result.
//
//===----------------------------------------------------------------------===//

#include "DeclineReasons.h"
#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

#include "llvm/Support/MathExtras.h"

namespace mlir::stablehlo_tvm {
namespace {

/// Up to this length insertion (quadratic, no scratch) is the faster sort.
constexpr int64_t kInsertionSortMaxLength = 16;

/// Builds the per-slice sorting code; `at(buffer-independent position)`
/// gives the slice's index of a position along the sort dimension.
struct SliceSorter {
  Block &comparator;
  int64_t length;
  llvm::function_ref<SmallVector<Value>(Value)> at;
  bool scalarized = true;

  /// The comparator on (lhs, rhs) element lists, or null when its body has
  /// no scalar form.
  Value before(OpBuilder &b, ValueRange lhs, ValueRange rhs) {
    SmallVector<Value> args;
    for (auto [l, r] : llvm::zip(lhs, rhs)) {
      args.push_back(l);
      args.push_back(r);
    }
    FailureOr<SmallVector<Value>> result = scalarizeBody(b, comparator, args);
    if (failed(result) || result->size() != 1) {
      scalarized = false;
      return {};
    }
    return result->front();
  }

  void copy(OpBuilder &b, Location loc, ValueRange from, ValueRange to) {
    Value zero = indexValue(b, loc, 0), one = indexValue(b, loc, 1);
    Value end = indexValue(b, loc, length);
    scf::ForOp::create(
        b, loc, zero, end, one, ValueRange{},
        [&](OpBuilder &b, Location loc, Value k, ValueRange) {
          for (auto [source, target] : llvm::zip(from, to)) {
            Value value = memref::LoadOp::create(b, loc, source, at(k));
            memref::StoreOp::create(b, loc, value, target, at(k));
          }
          scf::YieldOp::create(b, loc);
        });
  }

  /// Insertion: element i moves down while it goes before its neighbour.
  void insertion(OpBuilder &b, Location loc, ValueRange out) {
    Value moving =
        memref::AllocaOp::create(b, loc, MemRefType::get({}, b.getI1Type()));
    Value yes = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
    Value no = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
    Value zero = indexValue(b, loc, 0), one = indexValue(b, loc, 1);
    Value end = indexValue(b, loc, length);
    // for i in [1, length): for t in [0, i): j = i - 1 - t.
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
                b.setInsertionPoint(active.thenBlock()->getTerminator());
                SmallVector<Value> upper, lower;
                for (Value result : out) {
                  upper.push_back(
                      memref::LoadOp::create(b, loc, result, at(next)));
                  lower.push_back(memref::LoadOp::create(b, loc, result, at(j)));
                }
                if (Value swapped = before(b, upper, lower)) {
                  auto swap = scf::IfOp::create(b, loc, swapped,
                                                /*withElse=*/true);
                  b.setInsertionPoint(swap.thenBlock()->getTerminator());
                  for (auto [result, u, l] : llvm::zip(out, upper, lower)) {
                    memref::StoreOp::create(b, loc, u, result, at(j));
                    memref::StoreOp::create(b, loc, l, result, at(next));
                  }
                  b.setInsertionPoint(swap.elseBlock()->getTerminator());
                  memref::StoreOp::create(b, loc, no, moving);
                }
                b.setInsertionPointAfter(active);
                scf::YieldOp::create(b, loc);
              });
          scf::YieldOp::create(b, loc);
        });
  }

  /// One merge pass: the sorted runs of `width` in `from` merged pairwise
  /// into `to`. The right run's head is taken only when it goes before the
  /// left run's (stability); cursors past their run read a clamped index
  /// whose value is ignored.
  void mergePass(OpBuilder &b, Location loc, Value width, ValueRange from,
                 ValueRange to) {
    Value zero = indexValue(b, loc, 0), one = indexValue(b, loc, 1);
    Value end = indexValue(b, loc, length);
    Value pair = arith::AddIOp::create(b, loc, width, width);
    Value runs = arith::DivSIOp::create(
        b, loc,
        arith::SubIOp::create(b, loc, arith::AddIOp::create(b, loc, end, pair),
                              one),
        pair);
    Value cursors = memref::AllocaOp::create(
        b, loc, MemRefType::get({2}, b.getIndexType()));
    // The merge decision, held in memory: TVM's simplifier would otherwise
    // substitute the comparator into every select that uses it (seconds of
    // build time per pass).
    Value decision =
        memref::AllocaOp::create(b, loc, MemRefType::get({}, b.getI1Type()));
    Value left = zero, right = one;
    scf::ForOp::create(
        b, loc, zero, runs, one, ValueRange{},
        [&](OpBuilder &b, Location loc, Value run, ValueRange) {
          Value lo = arith::MulIOp::create(b, loc, run, pair);
          Value mid = arith::MinSIOp::create(
              b, loc, arith::AddIOp::create(b, loc, lo, width), end);
          Value hi = arith::MinSIOp::create(
              b, loc, arith::AddIOp::create(b, loc, lo, pair), end);
          Value lastLeft = arith::SubIOp::create(b, loc, mid, one);
          Value lastRight = arith::SubIOp::create(b, loc, hi, one);
          memref::StoreOp::create(b, loc, lo, cursors, left);
          memref::StoreOp::create(b, loc, mid, cursors, right);
          scf::ForOp::create(
              b, loc, lo, hi, one, ValueRange{},
              [&](OpBuilder &b, Location loc, Value k, ValueRange) {
                Value i = memref::LoadOp::create(b, loc, cursors, left);
                Value j = memref::LoadOp::create(b, loc, cursors, right);
                Value ic = arith::MinSIOp::create(b, loc, i, lastLeft);
                Value jc = arith::MinSIOp::create(b, loc, j, lastRight);
                SmallVector<Value> l, r;
                for (Value source : from) {
                  l.push_back(memref::LoadOp::create(b, loc, source, at(ic)));
                  r.push_back(memref::LoadOp::create(b, loc, source, at(jc)));
                }
                Value rightFirst = before(b, r, l);
                if (!rightFirst) {
                  scf::YieldOp::create(b, loc);
                  return;
                }
                Value leftDone = arith::CmpIOp::create(
                    b, loc, arith::CmpIPredicate::sge, i, mid);
                Value rightLeft = arith::CmpIOp::create(
                    b, loc, arith::CmpIPredicate::slt, j, hi);
                memref::StoreOp::create(
                    b, loc,
                    arith::AndIOp::create(
                        b, loc, rightLeft,
                        arith::OrIOp::create(b, loc, leftDone, rightFirst)),
                    decision);
                Value takeRight = memref::LoadOp::create(b, loc, decision);
                for (auto [target, lv, rv] : llvm::zip(to, l, r)) {
                  Value value =
                      arith::SelectOp::create(b, loc, takeRight, rv, lv);
                  memref::StoreOp::create(b, loc, value, target, at(k));
                }
                Value nextI = arith::SelectOp::create(
                    b, loc, takeRight, i, arith::AddIOp::create(b, loc, i, one));
                Value nextJ = arith::SelectOp::create(
                    b, loc, takeRight, arith::AddIOp::create(b, loc, j, one), j);
                memref::StoreOp::create(b, loc, nextI, cursors, left);
                memref::StoreOp::create(b, loc, nextJ, cursors, right);
                scf::YieldOp::create(b, loc);
              });
          scf::YieldOp::create(b, loc);
        });
  }

  /// Merge sort of `in` into `out`, through `scratch`: passes of width
  /// 1, 2, 4, ... in a loop of two passes (one there and one back, so the
  /// code does not grow with the length), then the odd one if any.
  void merge(OpBuilder &b, Location loc, ValueRange in, ValueRange out,
             ValueRange scratch) {
    int64_t passes = llvm::Log2_64_Ceil(length);
    // Start where the last pass ends in `out`.
    ValueRange first = passes % 2 == 0 ? out : scratch;
    ValueRange second = passes % 2 == 0 ? scratch : out;
    copy(b, loc, in, first);
    Value zero = indexValue(b, loc, 0), one = indexValue(b, loc, 1);
    if (passes >= 2)
      scf::ForOp::create(
          b, loc, zero, indexValue(b, loc, passes / 2), one, ValueRange{},
          [&](OpBuilder &b, Location loc, Value twice, ValueRange) {
            Value exponent = arith::AddIOp::create(b, loc, twice, twice);
            Value width = arith::ShLIOp::create(b, loc, one, exponent);
            mergePass(b, loc, width, first, second);
            mergePass(b, loc, arith::AddIOp::create(b, loc, width, width),
                      second, first);
            scf::YieldOp::create(b, loc);
          });
    if (passes % 2 == 1)
      mergePass(b, loc, indexValue(b, loc, int64_t{1} << (passes - 1)), first,
                second);
  }
};

struct SortToKernel : TVMTypedPattern<stablehlo::SortOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(stablehlo::SortOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getInputs()[0].getType());
    if (type.getRank() == 0)
      return decline(rewriter, op, "rank-0 shape");
    int64_t rank = type.getRank();
    auto dimension = static_cast<int64_t>(op.getDimension());
    int64_t dim = dimension < 0 ? dimension + rank : dimension;
    // The algorithm follows the sorted length: other dimensions may be
    // dynamic (read from the buffers), that one may not.
    if (dim < 0 || dim >= rank || type.isDynamicDim(dim))
      return decline(rewriter, op, "a dynamic sort dimension");
    int64_t length = type.getDimSize(dim);
    Block &comparator = op.getComparator().front();
    if (failed(checkScalarizable(comparator)))
      return decline(rewriter, op, "comparator has no scalar form");

    size_t count = op.getNumResults();
    bool merging = length > kInsertionSortMaxLength;
    SmallVector<Type> kernelTypes(op.getResultTypes());
    if (merging)
      kernelTypes.append(op.getResultTypes().begin(), op.getResultTypes().end());
    bool scalarized = true;
    // Results (and the scratch copies) have the inputs' shapes.
    SmallVector<Value> resultSizes;
    for (size_t k = 0; k < kernelTypes.size(); ++k)
      llvm::append_range(resultSizes,
                         tvm::dynamicSizesOf(rewriter, op.getLoc(),
                                        adaptor.getInputs()[k % count]));
    SmallVector<Value> results = buildKernel(
        rewriter, op.getLoc(), "sort", adaptor.getInputs(), kernelTypes,
        [&](OpBuilder &b, Location loc, ValueRange in, ValueRange out) {
          SmallVector<Value> slices = sliceSizes(b, loc, in.front(), dim);
          buildLoopNest(b, loc, slices, /*parallel=*/true,
                        [&](OpBuilder &b, Location loc, ValueRange slice) {
            auto at = [&](Value position) {
              SmallVector<Value> index(slice);
              index[dim] = position;
              return index;
            };
            SliceSorter sorter{comparator, length, at};
            ValueRange result = out.take_front(count);
            if (merging) {
              sorter.merge(b, loc, in, result, out.drop_front(count));
            } else {
              sorter.copy(b, loc, in, result);
              sorter.insertion(b, loc, result);
            }
            scalarized = scalarized && sorter.scalarized;
          });
        },
        /*inPlace=*/{}, resultSizes);
    if (!scalarized)
      return decline(rewriter, op, "comparator has no scalar form");
    rewriter.replaceOp(op, ArrayRef<Value>(results).take_front(count));
    return success();
  }
};

} // namespace

void populateSortPatterns(MLIRContext *context, RewritePatternSet &patterns) {
  patterns.add<SortToKernel>(context);
}

} // namespace mlir::stablehlo_tvm
