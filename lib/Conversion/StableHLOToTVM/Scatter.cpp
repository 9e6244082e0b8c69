//===- Scatter.cpp - scatter as a kernel ----------------------------------===//
//
// scatter copies its inputs to its results (or, marked tvm.in_place by
// stablehlo-update-loop-slices-in-place, updates its one input's buffer
// itself), then visits every update element
// in row-major order: the scatter index vector it names (through
// index_vector_dim and scatter_dims_to_operand_dims), its batch position
// (input/scatter_indices batching dims) and its offset inside the update
// window (update_window_dims, with inserted_window_dims and the batching dims
// of size 1) give the result index, where the update computation combines
// the current value with the update. A window that does not fit in the
// operand at its start index is skipped whole, as XLA does.
//
//===----------------------------------------------------------------------===//

#include "DeclineReasons.h"
#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

#include "mlir/IR/TypeUtilities.h"

namespace mlir::stablehlo_tvm {
namespace {

// Scatters of at least this many update elements split a window dimension
// that is a multiple of kScatterLanes (and at least two blocks wide) among
// threads.
constexpr int64_t kParallelScatterElements = 1 << 16;
constexpr int64_t kScatterLanes = 16;

struct ScatterToKernel : TVMTypedPattern<stablehlo::ScatterOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(stablehlo::ScatterOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    size_t count = op.getInputs().size();
    auto operandType = cast<RankedTensorType>(op.getInputs()[0].getType());
    auto indicesType = cast<RankedTensorType>(op.getScatterIndices().getType());
    auto updatesType = cast<RankedTensorType>(op.getUpdates()[0].getType());
    auto dims = op.getScatterDimensionNumbers();
    // Sizes may be dynamic (read from the buffers); the index vector's
    // length may not.
    if (dims.getIndexVectorDim() < indicesType.getRank() &&
        indicesType.isDynamicDim(dims.getIndexVectorDim()))
      return decline(rewriter, op, "a dynamic index vector length");
    ArrayRef<int64_t> updateWindowDims = dims.getUpdateWindowDims();
    ArrayRef<int64_t> insertedWindowDims = dims.getInsertedWindowDims();
    ArrayRef<int64_t> inputBatchingDims = dims.getInputBatchingDims();
    ArrayRef<int64_t> indicesBatchingDims = dims.getScatterIndicesBatchingDims();
    ArrayRef<int64_t> toOperandDims = dims.getScatterDimsToOperandDims();
    int64_t indexVectorDim = dims.getIndexVectorDim();
    int64_t operandRank = operandType.getRank();

    // Update dimensions that walk the scatter indices, in order; they match
    // the scatter_indices dimensions other than index_vector_dim.
    SmallVector<int64_t> updateScatterDims =
        complementDims(updatesType.getRank(), {updateWindowDims});
    // Operand dimensions the update window spans, in order.
    SmallVector<int64_t> operandWindowDims =
        complementDims(operandRank, {insertedWindowDims, inputBatchingDims});
    if (operandWindowDims.size() != updateWindowDims.size())
      return decline(rewriter, op, "inconsistent window dims");
    // The update scatter dimension that walks scatter_indices dimension j.
    auto updateDimOfIndicesDim = [&](int64_t j) {
      int64_t position = j - (indexVectorDim < j ? 1 : 0);
      return updateScatterDims[position];
    };

    SmallVector<Value> inputs(adaptor.getInputs());
    inputs.push_back(adaptor.getScatterIndices());
    llvm::append_range(inputs, adaptor.getUpdates());
    Block &body = op.getUpdateComputation().front();
    if (failed(checkScalarizable(body)))
      return decline(rewriter, op, "update computation has no scalar form");
    bool scalarized = true;
    // See stablehlo-update-loop-slices-in-place: nothing reads the operand
    // after this, so the updates go into its buffer, with nothing to copy.
    bool inPlace = count == 1 && op->hasAttr(tvm::TVMDialect::InPlaceAttrHelper::getNameStr());
    // The results are the operands' shapes.
    SmallVector<Value> resultSizes;
    for (Value input : adaptor.getInputs())
      llvm::append_range(resultSizes,
                         tvm::dynamicSizesOf(rewriter, op.getLoc(), input));
    SmallVector<int64_t> aliases;
    if (inPlace)
      aliases.push_back(0);
    SmallVector<Value> results = buildKernel(
        rewriter, op.getLoc(), "scatter", inputs, op.getResultTypes(),
        [&](OpBuilder &b, Location loc, ValueRange in, ValueRange out) {
          ValueRange operands = in.take_front(count);
          Value indices = in[count];
          ValueRange updates = in.drop_front(count + 1);
          SmallVector<Value> operandSizes = bufferSizes(b, loc, operands.front());
          // The last start at which a window fits, per operand dimension.
          SmallVector<Value> lastStart(operandSizes);
          for (auto [operandDim, updateDim] :
               llvm::zip(operandWindowDims, updateWindowDims)) {
            Value window = bufferSizes(b, loc, updates.front(), {{updateDim}})[0];
            lastStart[operandDim] = arith::SubIOp::create(
                b, loc, operandSizes[operandDim], window);
          }
          for (int64_t d = 0; d < operandRank; ++d)
            if (!llvm::is_contained(operandWindowDims, d))
              lastStart[d] = arith::SubIOp::create(b, loc, operandSizes[d],
                                                   indexValue(b, loc, 1));
          if (!inPlace)
            buildLoopNest(b, loc, operandSizes, /*parallel=*/true,
                          [&](OpBuilder &b, Location loc, ValueRange ivs) {
              for (auto [operand, result] : llvm::zip(operands, out)) {
                Value value = memref::LoadOp::create(b, loc, operand, ivs);
                memref::StoreOp::create(b, loc, value, result, ivs);
              }
            });
          // The scatter positions in row-major order, each window's
          // elements inside: two updates of one element come from two
          // positions, so this is the row-major order of every update
          // element (XLA's too), and the window's loop reads the index
          // vector and tests the fit once per window, its body a plain
          // load, combine and store that LLVM vectorizes.
          SmallVector<Value> updateSizes = bufferSizes(b, loc, updates.front());
          SmallVector<Value> scatterSizes, windowSizes;
          for (int64_t d : updateScatterDims)
            scatterSizes.push_back(updateSizes[d]);
          for (int64_t d : updateWindowDims)
            windowSizes.push_back(updateSizes[d]);
          int64_t updateRank = updateSizes.size();
          // A large scatter with a wide innermost window dimension splits
          // that dimension into blocks of `lanes` among threads, each
          // taking every position in order: the blocks update disjoint
          // elements, so each element still combines its updates in order.
          int64_t lanes = 0;
          if (updatesType.hasStaticShape() && !updateWindowDims.empty() &&
              updatesType.getNumElements() >= kParallelScatterElements) {
            int64_t width = updatesType.getDimSize(updateWindowDims.back());
            if (width % kScatterLanes == 0 && width >= 2 * kScatterLanes)
              lanes = kScatterLanes;
          }
          auto positions = [&](OpBuilder &b, Location loc, Value blockStart) {
            buildLoopNest(b, loc, scatterSizes, /*parallel=*/false,
                          [&](OpBuilder &b, Location loc, ValueRange position) {
              Value zero = indexValue(b, loc, 0);
              SmallVector<Value> update(updateRank, zero);
              for (auto [d, iv] : llvm::zip(updateScatterDims, position))
                update[d] = iv;
              SmallVector<Value> start(operandRank, zero);
              SmallVector<Value> vector = loadIndexVector(
                  b, loc, indices, indicesType, indexVectorDim,
                  [&](int64_t j) { return update[updateDimOfIndicesDim(j)]; });
              for (auto [k, component] : llvm::enumerate(vector))
                start[toOperandDims[k]] = component;
              for (auto [operandDim, indicesDim] :
                   llvm::zip(inputBatchingDims, indicesBatchingDims))
                start[operandDim] = update[updateDimOfIndicesDim(indicesDim)];
              // The whole window must fit at its start.
              Value valid;
              for (int64_t d = 0; d < operandRank; ++d) {
                Value nonNegative = arith::CmpIOp::create(
                    b, loc, arith::CmpIPredicate::sge, start[d], zero);
                Value fits = arith::CmpIOp::create(
                    b, loc, arith::CmpIPredicate::sle, start[d], lastStart[d]);
                Value both = arith::AndIOp::create(b, loc, nonNegative, fits);
                valid = valid ? Value(arith::AndIOp::create(b, loc, valid,
                                                            both))
                              : both;
              }
              auto ifValid =
                  scf::IfOp::create(b, loc, valid, /*withElse=*/false);
              OpBuilder::InsertionGuard guard(b);
              b.setInsertionPoint(ifValid.thenBlock()->getTerminator());
              buildLoopNest(b, loc, windowSizes, /*parallel=*/false,
                            [&](OpBuilder &inner, Location loc,
                                ValueRange within) {
                SmallVector<Value> offset(within);
                if (blockStart)
                  offset.back() = arith::AddIOp::create(inner, loc, blockStart,
                                                        offset.back());
                SmallVector<Value> element(update);
                for (auto [d, iv] : llvm::zip(updateWindowDims, offset))
                  element[d] = iv;
                SmallVector<Value> target(start);
                for (auto [operandDim, iv] :
                     llvm::zip(operandWindowDims, offset))
                  target[operandDim] =
                      arith::AddIOp::create(inner, loc, start[operandDim], iv);
                SmallVector<Value> args;
                for (Value result : out)
                  args.push_back(
                      memref::LoadOp::create(inner, loc, result, target));
                for (Value value : updates)
                  args.push_back(
                      memref::LoadOp::create(inner, loc, value, element));
                FailureOr<SmallVector<Value>> combined =
                    scalarizeBody(inner, body, args);
                if (failed(combined)) {
                  scalarized = false;
                  return;
                }
                for (auto [value, result] : llvm::zip(*combined, out))
                  memref::StoreOp::create(inner, loc, value, result, target);
              });
            });
          };
          if (!lanes) {
            positions(b, loc, Value());
            return;
          }
          windowSizes.back() = indexValue(b, loc, lanes);
          int64_t width = updatesType.getDimSize(updateWindowDims.back());
          buildLoopNest(b, loc, ArrayRef<int64_t>{width / lanes},
                        /*parallel=*/true,
                        [&](OpBuilder &b, Location loc, ValueRange block) {
            Value start = arith::MulIOp::create(b, loc, block.front(),
                                                indexValue(b, loc, lanes));
            positions(b, loc, start);
          });
        },
        aliases, resultSizes);
    if (!scalarized)
      return decline(rewriter, op, "body has no scalar form");
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void populateScatterPatterns(MLIRContext *context,
                             RewritePatternSet &patterns) {
  patterns.add<ScatterToKernel>(context);
}

} // namespace mlir::stablehlo_tvm
