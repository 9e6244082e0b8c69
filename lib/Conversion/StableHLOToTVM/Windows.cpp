//===- Windows.cpp - reduce_window and select_and_scatter as kernels ------===//
//
// Both walk windows over the operand padded (and, for reduce_window, base
// dilated). reduce_window folds each window through its body starting from
// the init values; positions that fall in padding or between dilated
// elements are skipped, as XLA does (the spec pads with the init values,
// which differs when they are not the body's identity).
// A window that spans the whole of one dimension and reaches back (or
// ahead) to its start from every position, with no other dimension windowed,
// is a cumulative reduction (how JAX writes cumsum, cumprod, cummax,
// cumlogsumexp): it runs as a scan, one pass per slice instead of one
// window per position (quadratic in the length).
// select_and_scatter picks one in-bounds element per source window with the
// select body (the first candidate stays unless select(current, next) is
// false) and combines the source value into the result there with the
// scatter body, source elements in row-major order.
//
//===----------------------------------------------------------------------===//

#include "DeclineReasons.h"
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

/// Low (`side` 0) or high (1) padding per dimension (zeros when absent).
SmallVector<int64_t> sidePadding(std::optional<DenseIntElementsAttr> padding,
                                 int64_t rank, int64_t side) {
  SmallVector<int64_t> amounts(rank, 0);
  if (padding) {
    SmallVector<int64_t> flat(padding->getValues<int64_t>());
    for (int64_t d = 0;
         d < rank && 2 * d + side < static_cast<int64_t>(flat.size()); ++d)
      amounts[d] = flat[2 * d + side];
  }
  return amounts;
}

SmallVector<int64_t> lowPadding(std::optional<DenseIntElementsAttr> padding,
                                int64_t rank) {
  return sidePadding(padding, rank, 0);
}

SmallVector<int64_t> highPadding(std::optional<DenseIntElementsAttr> padding,
                                 int64_t rank) {
  return sidePadding(padding, rank, 1);
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
              ArrayRef<Value> shape) {
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
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                         element, shape[d]);
    valid = andAll(b, loc, valid, inside);
    index.push_back(element);
  }
  if (!valid) // rank 0: the one element
    valid = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  return {index, valid};
}

/// Whether every dynamic dimension of `type` is one the window leaves as
/// it is (size 1, unit stride and dilations, no padding): those keep their
/// size, read from the buffers.
bool windowKeepsDynamicDims(RankedTensorType type, ArrayRef<int64_t> window,
                            ArrayRef<int64_t> strides,
                            ArrayRef<int64_t> baseDilations,
                            ArrayRef<int64_t> windowDilations,
                            std::optional<DenseIntElementsAttr> padding) {
  SmallVector<int64_t> flat;
  if (padding)
    flat.assign(padding->getValues<int64_t>().begin(),
                padding->getValues<int64_t>().end());
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d))
      continue;
    bool padded = 2 * d + 1 < static_cast<int64_t>(flat.size()) &&
                  (flat[2 * d] != 0 || flat[2 * d + 1] != 0);
    if (d >= static_cast<int64_t>(window.size()) || window[d] != 1 ||
        strides[d] != 1 || baseDilations[d] != 1 || windowDilations[d] != 1 ||
        padded)
      return false;
  }
  return true;
}

/// The dimension along which `op` is a cumulative reduction, and whether it
/// runs backwards (each position reduces itself and what follows).
std::optional<std::pair<int64_t, bool>>
scanDimension(stablehlo::ReduceWindowOp op, ArrayRef<int64_t> strides,
              ArrayRef<int64_t> baseDilations,
              ArrayRef<int64_t> windowDilations) {
  auto type = cast<RankedTensorType>(op.getInputs()[0].getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> padding(2 * rank, 0);
  if (std::optional<DenseIntElementsAttr> attr = op.getPadding()) {
    SmallVector<int64_t> flat(attr->getValues<int64_t>());
    if (static_cast<int64_t>(flat.size()) != 2 * rank)
      return std::nullopt;
    padding = flat;
  }
  std::optional<std::pair<int64_t, bool>> scan;
  for (int64_t d = 0; d < rank; ++d) {
    if (strides[d] != 1 || baseDilations[d] != 1 || windowDilations[d] != 1)
      return std::nullopt;
    int64_t window = op.getWindowDimensions()[d];
    int64_t low = padding[2 * d], high = padding[2 * d + 1];
    if (window == 1 && low == 0 && high == 0)
      continue;
    bool spans = window >= type.getDimSize(d) && type.getDimSize(d) > 1;
    bool forward = low == window - 1 && high == 0;
    bool backward = low == 0 && high == window - 1;
    if (scan || !spans || !(forward || backward))
      return std::nullopt;
    scan = {d, backward};
  }
  return scan;
}

/// The sizes of a window op's result dimensions that are dynamic, from
/// the input's (the spec's shape rule on index values): the dilated input
/// padded, less the dilated window, over the stride, plus one; none when
/// the window does not fit.
SmallVector<Value> windowResultSizes(OpBuilder &b, Location loc, Value input,
                                     RankedTensorType resultType,
                                     ArrayRef<int64_t> window,
                                     ArrayRef<int64_t> strides,
                                     ArrayRef<int64_t> baseDilations,
                                     ArrayRef<int64_t> windowDilations,
                                     ArrayRef<int64_t> low,
                                     ArrayRef<int64_t> high) {
  SmallVector<Value> sizes;
  auto constant = [&](int64_t v) { return indexValue(b, loc, v); };
  for (int64_t d = 0; d < resultType.getRank(); ++d) {
    if (!resultType.isDynamicDim(d))
      continue;
    Value n = tvm::DimOp::create(b, loc, input, d);
    if (window[d] == 1 && strides[d] == 1 && baseDilations[d] == 1 &&
        low[d] == 0 && high[d] == 0) {
      sizes.push_back(n);
      continue;
    }
    Value zero = constant(0);
    Value dilated = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, arith::SubIOp::create(b, loc, n, constant(1)),
                              constant(baseDilations[d])),
        constant(1));
    dilated = arith::MaxSIOp::create(b, loc, dilated, zero);
    Value padded = arith::AddIOp::create(b, loc, dilated, constant(low[d] + high[d]));
    Value span = constant((window[d] - 1) * windowDilations[d] + 1);
    Value steps = arith::FloorDivSIOp::create(
        b, loc, arith::SubIOp::create(b, loc, padded, span), constant(strides[d]));
    sizes.push_back(arith::MaxSIOp::create(
        b, loc, arith::AddIOp::create(b, loc, steps, constant(1)), zero));
  }
  return sizes;
}

struct ReduceWindowToKernel : TVMTypedPattern<stablehlo::ReduceWindowOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(stablehlo::ReduceWindowOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    size_t count = op.getInputs().size();
    auto inputType = cast<RankedTensorType>(op.getInputs()[0].getType());
    int64_t rank = inputType.getRank();
    ArrayRef<int64_t> window = op.getWindowDimensions();
    SmallVector<int64_t> strides = orOnes(op.getWindowStrides(), rank);
    SmallVector<int64_t> baseDilations = orOnes(op.getBaseDilations(), rank);
    SmallVector<int64_t> windowDilations =
        orOnes(op.getWindowDilations(), rank);
    if (static_cast<int64_t>(window.size()) != rank ||
        static_cast<int64_t>(strides.size()) != rank ||
        static_cast<int64_t>(baseDilations.size()) != rank ||
        static_cast<int64_t>(windowDilations.size()) != rank)
      return decline(rewriter, op, "window attributes of another rank");
    SmallVector<int64_t> low = lowPadding(op.getPadding(), rank);
    SmallVector<int64_t> high = highPadding(op.getPadding(), rank);
    Block &body = op.getBody().front();
    if (failed(checkScalarizable(body)))
      return decline(rewriter, op, "body has no scalar form");

    SmallVector<Value> inputs(adaptor.getInputs());
    llvm::append_range(inputs, adaptor.getInitValues());
    // Each result's dynamic sizes, from its input's by the shape rule.
    SmallVector<Value> resultSizes;
    for (auto [input, type] : llvm::zip(adaptor.getInputs(), op.getResultTypes()))
      llvm::append_range(
          resultSizes,
          windowResultSizes(rewriter, op.getLoc(), input,
                            cast<RankedTensorType>(type), window, strides,
                            baseDilations, windowDilations, low, high));
    bool scalarized = true;
    auto fold = [&](OpBuilder &b, Location loc, ValueRange accumulators,
                    ValueRange operands, ValueRange index) {
      if (failed(accumulate(b, loc, body, accumulators, operands, index)))
        scalarized = false;
    };
    std::optional<std::pair<int64_t, bool>> scan =
        scanDimension(op, strides, baseDilations, windowDilations);
    // A scan: each slice along the dimension folded in order, every
    // position storing the running value.
    auto scanBody = [&](OpBuilder &b, Location loc, ValueRange in,
                        ValueRange out) {
      // Plain variables: lambdas capture no structured bindings before C++20.
      int64_t dim = scan->first;
      bool backward = scan->second;
      int64_t length = inputType.getDimSize(dim);
      SmallVector<Value> slices = sliceSizes(b, loc, in.front(), dim);
      buildLoopNest(b, loc, slices, /*parallel=*/true,
                    [&](OpBuilder &b, Location loc, ValueRange slice) {
        SmallVector<Value> accumulators =
            initAccumulators(b, loc, in.drop_front(count));
        buildLoopNest(b, loc, {length}, /*parallel=*/false,
                      [&](OpBuilder &b, Location loc, ValueRange step) {
          SmallVector<Value> index(slice);
          index[dim] = step[0];
          if (backward)
            index[dim] = arith::SubIOp::create(
                b, loc, indexValue(b, loc, length - 1), step[0]);
          fold(b, loc, accumulators, in.take_front(count), index);
          storeAccumulators(b, loc, accumulators, out, index);
        });
      });
    };
    // Each result position folds its own window.
    auto windowBody = [&](OpBuilder &b, Location loc, ValueRange in,
                          ValueRange out) {
      SmallVector<Value> inputSizes = bufferSizes(b, loc, in.front());
      buildLoopNest(b, loc, bufferSizes(b, loc, out.front()), /*parallel=*/true,
                    [&](OpBuilder &b, Location loc, ValueRange result) {
        SmallVector<Value> accumulators =
            initAccumulators(b, loc, in.drop_front(count));
        buildLoopNest(b, loc, window, /*parallel=*/false,
                      [&](OpBuilder &b, Location loc, ValueRange w) {
          auto [index, valid] =
              windowElement(b, loc, result, w, strides, windowDilations,
                            baseDilations, low, inputSizes);
          // Padding and dilation holes are skipped, as XLA does.
          auto inBounds = scf::IfOp::create(b, loc, valid, /*withElse=*/false);
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(inBounds.thenBlock()->getTerminator());
          fold(b, loc, accumulators, in.take_front(count), index);
        });
        storeAccumulators(b, loc, accumulators, out, result);
      });
    };
    SmallVector<Value> results =
        scan ? buildKernel(rewriter, op.getLoc(), "cumulative_reduce", inputs,
                           op.getResultTypes(), scanBody, {}, resultSizes)
             : buildKernel(rewriter, op.getLoc(), "reduce_window", inputs,
                           op.getResultTypes(), windowBody, {}, resultSizes);
    if (!scalarized)
      return decline(rewriter, op, "body has no scalar form");
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct SelectAndScatterToKernel
    : TVMTypedPattern<stablehlo::SelectAndScatterOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(stablehlo::SelectAndScatterOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    auto operandType = cast<RankedTensorType>(op.getOperand().getType());
    int64_t rank = operandType.getRank();
    SmallVector<int64_t> window = orOnes(op.getWindowDimensions(), rank);
    SmallVector<int64_t> strides = orOnes(op.getWindowStrides(), rank);
    SmallVector<int64_t> ones(rank, 1);
    if (!windowKeepsDynamicDims(operandType, window, strides, ones, ones,
                                op.getPadding()))
      return decline(rewriter, op, "a window over a dynamic dimension");
    SmallVector<int64_t> low = lowPadding(op.getPadding(), rank);
    Block &select = op.getSelect().front();
    Block &scatter = op.getScatter().front();
    if (failed(checkScalarizable(select)) || failed(checkScalarizable(scatter)))
      return decline(rewriter, op, "select or scatter has no scalar form");
    Type element = signlessType(operandType.getElementType());

    SmallVector<Value> resultSizes =
        tvm::dynamicSizesOf(rewriter, op.getLoc(), adaptor.getOperand());
    bool scalarized = true;
    SmallVector<Value> results = buildKernel(
        rewriter, op.getLoc(), "select_and_scatter",
        ValueRange{adaptor.getOperand(), adaptor.getSource(),
                   adaptor.getInitValue()},
        op.getType(),
        [&](OpBuilder &b, Location loc, ValueRange in, ValueRange out) {
          Value operand = in[0], source = in[1], init = in[2];
          SmallVector<Value> operandSizes = bufferSizes(b, loc, operand);
          buildLoopNest(b, loc, operandSizes, /*parallel=*/true,
                        [&](OpBuilder &b, Location loc, ValueRange ivs) {
            Value value = memref::LoadOp::create(b, loc, init);
            memref::StoreOp::create(b, loc, value, out[0], ivs);
          });
          buildLoopNest(b, loc, bufferSizes(b, loc, source), /*parallel=*/false,
                        [&](OpBuilder &b, Location loc, ValueRange s) {
            auto scalar = [&](Type type) {
              return memref::AllocaOp::create(b, loc,
                                              MemRefType::get({}, type));
            };
            Value best = scalar(element);
            Value found = scalar(b.getI1Type());
            SmallVector<Value> where;
            for (int64_t d = 0; d < rank; ++d)
              where.push_back(scalar(b.getIndexType()));
            Value no = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
            memref::StoreOp::create(b, loc, no, found);
            buildLoopNest(b, loc, window, /*parallel=*/false,
                          [&](OpBuilder &b, Location loc, ValueRange w) {
              auto [index, valid] =
                  windowElement(b, loc, s, w, strides, ones, ones, low,
                                operandSizes);
              auto inBounds = scf::IfOp::create(b, loc, valid,
                                                /*withElse=*/false);
              OpBuilder::InsertionGuard guard(b);
              b.setInsertionPoint(inBounds.thenBlock()->getTerminator());
              Value x = memref::LoadOp::create(b, loc, operand, index);
              Value current = memref::LoadOp::create(b, loc, best);
              Value have = memref::LoadOp::create(b, loc, found);
              // The current choice stays while select(current, x) holds.
              FailureOr<SmallVector<Value>> keep =
                  scalarizeBody(b, select, {current, x});
              if (failed(keep) || keep->size() != 1) {
                scalarized = false;
                return;
              }
              Value yes = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
              Value replace = arith::XOrIOp::create(b, loc, keep->front(), yes);
              Value fresh = arith::XOrIOp::create(b, loc, have, yes);
              Value take = arith::OrIOp::create(b, loc, fresh, replace);
              auto taking = scf::IfOp::create(b, loc, take, /*withElse=*/false);
              b.setInsertionPoint(taking.thenBlock()->getTerminator());
              memref::StoreOp::create(b, loc, x, best);
              memref::StoreOp::create(b, loc, yes, found);
              for (auto [slot, i] : llvm::zip(where, index))
                memref::StoreOp::create(b, loc, i, slot);
            });
            Value have = memref::LoadOp::create(b, loc, found);
            auto scattering = scf::IfOp::create(b, loc, have, /*withElse=*/false);
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPoint(scattering.thenBlock()->getTerminator());
            SmallVector<Value> target;
            for (Value slot : where)
              target.push_back(memref::LoadOp::create(b, loc, slot));
            Value old = memref::LoadOp::create(b, loc, out[0], target);
            Value update = memref::LoadOp::create(b, loc, source, s);
            FailureOr<SmallVector<Value>> combined =
                scalarizeBody(b, scatter, {old, update});
            if (failed(combined) || combined->size() != 1) {
              scalarized = false;
              return;
            }
            memref::StoreOp::create(b, loc, combined->front(), out[0], target);
          });
        },
        /*inPlace=*/{}, resultSizes);
    if (!scalarized)
      return decline(rewriter, op, "body has no scalar form");
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void populateWindowPatterns(MLIRContext *context,
                            RewritePatternSet &patterns) {
  patterns.add<ReduceWindowToKernel, SelectAndScatterToKernel>(context);
}

} // namespace mlir::stablehlo_tvm
