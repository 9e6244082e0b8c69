//===- ShapeRules.cpp - Result shapes of ops from their operands ----------===//
//
// Each op's shape rule from the StableHLO spec, as refinement needs it: the
// result shape follows from operand shapes, attributes and (for dynamic ops)
// the values of shape operands. Dimensions a rule cannot determine stay
// ShapedType::kDynamic; the verifiers judge the refined program.
//
//===----------------------------------------------------------------------===//

#include "ShapeRefinement.h"

#include "mlir/IR/BuiltinTypes.h"
#include "stablehlo-tvm/Dialect/CHLO/IR/CHLO.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/ShapeFunctions.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::stablehlo_tvm {
namespace {

using Shape = SmallVector<int64_t>;
using Shapes = SmallVector<Shape>;
constexpr int64_t kDyn = ShapedType::kDynamic;

std::optional<Shape> shapeOf(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return std::nullopt;
  return Shape(type.getShape());
}

Shape unknown(int64_t rank) { return Shape(rank, kDyn); }

/// Static dimensions of `b` fill the dynamic ones of `a`.
void mergeInto(Shape &a, ArrayRef<int64_t> b) {
  if (a.size() != b.size())
    return;
  for (auto [x, y] : llvm::zip(a, b))
    if (x == kDyn)
      x = y;
}

/// The values of a known 1-D integer tensor.
std::optional<Shape> valuesOf(Value value, const KnownValues &known) {
  DenseIntElementsAttr attr = known.lookup(value);
  if (!attr)
    return std::nullopt;
  Shape out;
  for (const APInt &v : attr.getValues<APInt>())
    out.push_back(v.getSExtValue());
  return out;
}

int64_t resultRank(Operation *op, unsigned i = 0) {
  return cast<RankedTensorType>(op->getResult(i).getType()).getRank();
}

/// Ops whose results have the shape of their operands of the same rank.
std::optional<Shapes> sameShape(Operation *op) {
  Shapes out;
  for (OpResult result : op->getResults()) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type)
      return std::nullopt;
    Shape shape = unknown(type.getRank());
    for (Value operand : op->getOperands())
      if (auto s = shapeOf(operand); s && s->size() == shape.size())
        mergeInto(shape, *s);
    out.push_back(shape);
  }
  return out;
}

/// Results shaped like the operands in order (scatter, sort, while, ...).
std::optional<Shapes> likeOperands(Operation *op, ValueRange operands) {
  Shapes out;
  for (auto [result, operand] : llvm::zip(op->getResults(), operands)) {
    auto s = shapeOf(operand);
    if (!s || static_cast<int64_t>(s->size()) != resultRank(op, result.getResultNumber()))
      return std::nullopt;
    out.push_back(*s);
  }
  return out;
}

/// A padded dimension's size (pad and dynamic_pad).
int64_t paddedSize(int64_t n, int64_t low, int64_t high, int64_t interior) {
  if (n == kDyn)
    return kDyn;
  return low + high + n + std::max<int64_t>(n - 1, 0) * interior;
}

/// A sliced dimension's size (slice and real_dynamic_slice).
int64_t slicedSize(int64_t start, int64_t limit, int64_t stride) {
  return stride > 0 && limit >= start ? (limit - start + stride - 1) / stride
                                      : kDyn;
}

int64_t at(std::optional<ArrayRef<int64_t>> values, size_t i, int64_t fallback) {
  if (!values || i >= values->size())
    return fallback;
  return (*values)[i];
}

Shape gatherShape(ArrayRef<int64_t> indices, ArrayRef<int64_t> sliceSizes,
                  stablehlo::GatherDimensionNumbersAttr dims, int64_t rank) {
  Shape batch;
  for (auto [d, n] : llvm::enumerate(indices))
    if (static_cast<int64_t>(d) != dims.getIndexVectorDim())
      batch.push_back(n);
  Shape offsets;
  for (auto [d, n] : llvm::enumerate(sliceSizes))
    if (!llvm::is_contained(dims.getCollapsedSliceDims(), d) &&
        !llvm::is_contained(dims.getOperandBatchingDims(), d))
      offsets.push_back(n);
  if (static_cast<int64_t>(batch.size() + offsets.size()) != rank)
    return unknown(rank);
  Shape out(rank, kDyn);
  size_t nextBatch = 0, nextOffset = 0;
  for (int64_t d = 0; d < rank; ++d)
    out[d] = llvm::is_contained(dims.getOffsetDims(), d)
                 ? offsets[nextOffset++]
                 : batch[nextBatch++];
  return out;
}

Shape convolutionShape(Value lhsValue, Value rhsValue, int64_t rank,
                       stablehlo::ConvDimensionNumbersAttr dims,
                       std::optional<ArrayRef<int64_t>> strides,
                       ArrayRef<int64_t> padding,
                       std::optional<ArrayRef<int64_t>> lhsDilation,
                       std::optional<ArrayRef<int64_t>> rhsDilation,
                       int64_t batchGroups) {
  auto lhs = shapeOf(lhsValue), rhs = shapeOf(rhsValue);
  Shape out = unknown(rank);
  if (!lhs || !rhs)
    return out;
  int64_t batch = (*lhs)[dims.getInputBatchDimension()];
  out[dims.getOutputBatchDimension()] =
      batch == kDyn ? kDyn : batch / batchGroups;
  out[dims.getOutputFeatureDimension()] =
      (*rhs)[dims.getKernelOutputFeatureDimension()];
  for (auto [i, d] : llvm::enumerate(dims.getOutputSpatialDimensions())) {
    int64_t window = (*rhs)[dims.getKernelSpatialDimensions()[i]];
    if (window == kDyn || 2 * i + 1 >= padding.size()) {
      out[d] = kDyn;
      continue;
    }
    out[d] = stablehlo::windowCount((*lhs)[dims.getInputSpatialDimensions()[i]],
                      at(lhsDilation, i, 1), padding[2 * i],
                      padding[2 * i + 1], window, at(rhsDilation, i, 1),
                      at(strides, i, 1));
  }
  return out;
}

Shape paddingValues(std::optional<DenseIntElementsAttr> padding, size_t rank) {
  Shape out(2 * rank, 0);
  if (!padding)
    return out;
  size_t i = 0;
  for (const APInt &v : padding->getValues<APInt>())
    if (i < out.size())
      out[i++] = v.getSExtValue();
  return out;
}

} // namespace

std::optional<Shapes> inferResultShapes(Operation *op,
                                        const KnownValues &known) {
  // The result shape an op's shape operand spells out.
  auto givenShape = [&](Value shape) -> std::optional<Shapes> {
    auto dims = valuesOf(shape, known);
    if (!dims || static_cast<int64_t>(dims->size()) != resultRank(op))
      return std::nullopt;
    return Shapes{*dims};
  };
  return TypeSwitch<Operation *, std::optional<Shapes>>(op)
      .Case([&](stablehlo::BroadcastInDimOp broadcast) -> std::optional<Shapes> {
        auto operand = shapeOf(broadcast.getOperand());
        Shape out = unknown(resultRank(op));
        if (!operand)
          return std::nullopt;
        // A dimension of size 1 may expand, so only other sizes carry over.
        for (auto [i, d] : llvm::enumerate(broadcast.getBroadcastDimensions()))
          if ((*operand)[i] != 1 && d < static_cast<int64_t>(out.size()))
            out[d] = (*operand)[i];
        return Shapes{out};
      })
      .Case([&](stablehlo::DynamicBroadcastInDimOp broadcast) {
        return givenShape(broadcast.getOutputDimensions());
      })
      .Case([&](stablehlo::DynamicReshapeOp reshape) {
        return givenShape(reshape.getOutputShape());
      })
      .Case([&](stablehlo::DynamicIotaOp iota) {
        return givenShape(iota.getOutputShape());
      })
      .Case([&](stablehlo::RngOp rng) {
        return givenShape(rng.getShape());
      })
      .Case([&](stablehlo::ReshapeOp reshape) -> std::optional<Shapes> {
        // At most one unknown dimension: the element count gives it.
        auto operand = shapeOf(reshape.getOperand());
        auto type = cast<RankedTensorType>(reshape.getType());
        if (!operand || !RankedTensorType::get(*operand, type.getElementType())
                             .hasStaticShape() ||
            type.getNumDynamicDims() != 1)
          return std::nullopt;
        int64_t total = 1, rest = 1;
        for (int64_t n : *operand)
          total *= n;
        for (int64_t n : type.getShape())
          if (n != kDyn)
            rest *= n;
        Shape out(type.getShape());
        for (int64_t &n : out)
          if (n == kDyn)
            n = rest ? total / rest : 0;
        return Shapes{out};
      })
      .Case([&](stablehlo::TransposeOp transpose) -> std::optional<Shapes> {
        auto operand = shapeOf(transpose.getOperand());
        if (!operand)
          return std::nullopt;
        Shape out;
        for (int64_t p : transpose.getPermutation())
          out.push_back(p < static_cast<int64_t>(operand->size()) ? (*operand)[p] : kDyn);
        return Shapes{out};
      })
      .Case([&](stablehlo::SliceOp slice) -> std::optional<Shapes> {
        Shape out;
        for (auto [start, limit, stride] :
             llvm::zip(slice.getStartIndices(), slice.getLimitIndices(),
                       slice.getStrides()))
          out.push_back(slicedSize(start, limit, stride));
        return Shapes{out};
      })
      .Case([&](stablehlo::RealDynamicSliceOp slice) -> std::optional<Shapes> {
        auto start = valuesOf(slice.getStartIndices(), known);
        auto limit = valuesOf(slice.getLimitIndices(), known);
        auto strides = valuesOf(slice.getStrides(), known);
        if (!start || !limit || !strides)
          return std::nullopt;
        Shape out;
        for (auto [b, e, s] : llvm::zip(*start, *limit, *strides))
          out.push_back(slicedSize(b, e, s));
        return Shapes{out};
      })
      .Case([&](stablehlo::DynamicSliceOp slice) -> std::optional<Shapes> {
        return Shapes{Shape(slice.getSliceSizes())};
      })
      .Case([&](stablehlo::DynamicUpdateSliceOp update) {
        return likeOperands(op, update.getOperand());
      })
      .Case([&](stablehlo::ConcatenateOp concat) -> std::optional<Shapes> {
        Shape out = unknown(resultRank(op));
        int64_t dim = concat.getDimension(), total = 0;
        for (Value input : concat.getInputs()) {
          auto s = shapeOf(input);
          if (!s || s->size() != out.size() || dim >= static_cast<int64_t>(s->size()))
            return std::nullopt;
          total = (total == kDyn || (*s)[dim] == kDyn) ? kDyn : total + (*s)[dim];
          Shape others = *s;
          others[dim] = kDyn;
          mergeInto(out, others);
        }
        out[dim] = total;
        return Shapes{out};
      })
      .Case([&](stablehlo::PadOp pad) -> std::optional<Shapes> {
        auto operand = shapeOf(pad.getOperand());
        if (!operand)
          return std::nullopt;
        Shape out;
        for (auto [n, lo, hi, in] :
             llvm::zip(*operand, pad.getEdgePaddingLow(),
                       pad.getEdgePaddingHigh(), pad.getInteriorPadding()))
          out.push_back(paddedSize(n, lo, hi, in));
        return Shapes{out};
      })
      .Case([&](stablehlo::DynamicPadOp pad) -> std::optional<Shapes> {
        auto operand = shapeOf(pad.getOperand());
        auto low = valuesOf(pad.getEdgePaddingLow(), known);
        auto high = valuesOf(pad.getEdgePaddingHigh(), known);
        auto interior = valuesOf(pad.getInteriorPadding(), known);
        if (!operand || !low || !high || !interior)
          return std::nullopt;
        Shape out;
        for (auto [n, lo, hi, in] : llvm::zip(*operand, *low, *high, *interior))
          out.push_back(paddedSize(n, lo, hi, in));
        return Shapes{out};
      })
      .Case([&](stablehlo::GatherOp gather) -> std::optional<Shapes> {
        auto indices = shapeOf(gather.getStartIndices());
        if (!indices)
          return std::nullopt;
        return Shapes{gatherShape(*indices, gather.getSliceSizes(),
                                  gather.getDimensionNumbers(), resultRank(op))};
      })
      .Case([&](stablehlo::DynamicGatherOp gather) -> std::optional<Shapes> {
        auto indices = shapeOf(gather.getStartIndices());
        auto sizes = valuesOf(gather.getSliceSizes(), known);
        if (!indices || !sizes)
          return std::nullopt;
        return Shapes{gatherShape(*indices, *sizes, gather.getDimensionNumbers(),
                                  resultRank(op))};
      })
      .Case([&](stablehlo::ScatterOp scatter) {
        return likeOperands(op, scatter.getInputs());
      })
      .Case([&](stablehlo::SortOp sort) { return likeOperands(op, sort.getInputs()); })
      .Case([&](stablehlo::SelectAndScatterOp s) {
        return likeOperands(op, s.getOperand());
      })
      .Case([&](stablehlo::ReverseOp reverse) {
        return likeOperands(op, reverse.getOperand());
      })
      .Case([&](stablehlo::OptimizationBarrierOp barrier) {
        return likeOperands(op, barrier.getOperand());
      })
      .Case([&](stablehlo::CholeskyOp cholesky) {
        return likeOperands(op, cholesky.getA());
      })
      .Case([&](stablehlo::TriangularSolveOp solve) {
        return likeOperands(op, solve.getB());
      })
      .Case([&](stablehlo::ReduceOp reduce) -> std::optional<Shapes> {
        Shapes out;
        ArrayRef<int64_t> dims = reduce.getDimensions();
        for (Value input : reduce.getInputs()) {
          auto s = shapeOf(input);
          if (!s)
            return std::nullopt;
          Shape kept;
          for (auto [d, n] : llvm::enumerate(*s))
            if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
              kept.push_back(n);
          out.push_back(kept);
        }
        return out;
      })
      .Case([&](stablehlo::ReduceWindowOp window) -> std::optional<Shapes> {
        Shapes out;
        ArrayRef<int64_t> sizes = window.getWindowDimensions();
        for (Value input : window.getInputs()) {
          auto s = shapeOf(input);
          if (!s || sizes.size() != s->size())
            return std::nullopt;
          Shape pads = paddingValues(window.getPadding(), s->size());
          Shape shape;
          for (size_t i = 0; i < s->size(); ++i)
            shape.push_back(stablehlo::windowCount((*s)[i], at(window.getBaseDilations(), i, 1),
                                     pads[2 * i], pads[2 * i + 1], sizes[i],
                                     at(window.getWindowDilations(), i, 1),
                                     at(window.getWindowStrides(), i, 1)));
          out.push_back(shape);
        }
        return out;
      })
      .Case([&](stablehlo::CustomCallOp call) -> std::optional<Shapes> {
        // JAX's reduce_window over symbolic shapes (cumsum, cummax, ...):
        // inputs, init values, then window dimensions, strides, base and
        // window dilations and padding as operands.
        unsigned count = call->getNumOperands();
        if (call.getCallTargetName() != "stablehlo.dynamic_reduce_window" ||
            count < 7 || (count - 5) % 2 || call->getNumResults() != (count - 5) / 2)
          return std::nullopt;
        unsigned n = (count - 5) / 2;
        auto sizes = valuesOf(call->getOperand(2 * n), known);
        auto strides = valuesOf(call->getOperand(2 * n + 1), known);
        auto base = valuesOf(call->getOperand(2 * n + 2), known);
        auto dilations = valuesOf(call->getOperand(2 * n + 3), known);
        auto padding = valuesOf(call->getOperand(2 * n + 4), known);
        if (!sizes || !strides || !base || !dilations || !padding)
          return std::nullopt;
        Shapes out;
        for (unsigned i = 0; i < n; ++i) {
          auto s = shapeOf(call->getOperand(i));
          if (!s || s->size() != sizes->size() || strides->size() != s->size() ||
              base->size() != s->size() || dilations->size() != s->size() ||
              padding->size() != 2 * s->size())
            return std::nullopt;
          Shape shape;
          for (size_t d = 0; d < s->size(); ++d)
            shape.push_back(stablehlo::windowCount((*s)[d], (*base)[d], (*padding)[2 * d],
                                     (*padding)[2 * d + 1], (*sizes)[d],
                                     (*dilations)[d], (*strides)[d]));
          out.push_back(shape);
        }
        return out;
      })
      .Case([&](stablehlo::DotGeneralOp dot) -> std::optional<Shapes> {
        auto lhs = shapeOf(dot.getLhs()), rhs = shapeOf(dot.getRhs());
        if (!lhs || !rhs)
          return std::nullopt;
        auto dims = dot.getDotDimensionNumbers();
        Shape out;
        for (int64_t d : dims.getLhsBatchingDimensions())
          out.push_back((*lhs)[d]);
        for (auto [d, n] : llvm::enumerate(*lhs))
          if (!llvm::is_contained(dims.getLhsBatchingDimensions(), d) &&
              !llvm::is_contained(dims.getLhsContractingDimensions(), d))
            out.push_back(n);
        for (auto [d, n] : llvm::enumerate(*rhs))
          if (!llvm::is_contained(dims.getRhsBatchingDimensions(), d) &&
              !llvm::is_contained(dims.getRhsContractingDimensions(), d))
            out.push_back(n);
        return Shapes{out};
      })
      .Case([&](stablehlo::DotOp dot) -> std::optional<Shapes> {
        auto lhs = shapeOf(dot.getLhs()), rhs = shapeOf(dot.getRhs());
        if (!lhs || !rhs)
          return std::nullopt;
        Shape out;
        if (lhs->size() == 2)
          out.push_back((*lhs)[0]);
        if (rhs->size() == 2)
          out.push_back((*rhs)[1]);
        return Shapes{out};
      })
      .Case([&](stablehlo::ConvolutionOp conv) -> std::optional<Shapes> {
        auto lhs = shapeOf(conv.getLhs());
        if (!lhs)
          return std::nullopt;
        size_t spatial = conv.getDimensionNumbers().getInputSpatialDimensions().size();
        return Shapes{convolutionShape(
            conv.getLhs(), conv.getRhs(), resultRank(op),
            conv.getDimensionNumbers(), conv.getWindowStrides(),
            paddingValues(conv.getPadding(), spatial), conv.getLhsDilation(),
            conv.getRhsDilation(), conv.getBatchGroupCount())};
      })
      .Case([&](stablehlo::DynamicConvOp conv) -> std::optional<Shapes> {
        auto padding = valuesOf(conv.getPadding(), known);
        if (!padding)
          return std::nullopt;
        return Shapes{convolutionShape(
            conv.getLhs(), conv.getRhs(), resultRank(op),
            conv.getDimensionNumbers(), conv.getWindowStrides(), *padding,
            conv.getLhsDilation(), conv.getRhsDilation(),
            conv.getBatchGroupCount())};
      })
      .Case([&](stablehlo::BitcastConvertOp bitcast) -> std::optional<Shapes> {
        auto operand = shapeOf(bitcast.getOperand());
        if (!operand)
          return std::nullopt;
        auto bits = [](Type type) {
          Type element = cast<ShapedType>(type).getElementType();
          if (auto complex = dyn_cast<ComplexType>(element))
            return 2 * complex.getElementType().getIntOrFloatBitWidth();
          return element.getIntOrFloatBitWidth();
        };
        unsigned from = bits(bitcast.getOperand().getType());
        unsigned to = bits(bitcast.getType());
        Shape out = *operand;
        if (from < to && !out.empty())
          out.pop_back();
        else if (from > to)
          out.push_back(from / to);
        return Shapes{out};
      })
      .Case([&](stablehlo::BatchNormInferenceOp norm) {
        return likeOperands(op, norm.getOperand());
      })
      .Case([&](chlo::TopKOp topk) -> std::optional<Shapes> {
        auto operand = shapeOf(topk.getOperand());
        if (!operand || operand->empty())
          return std::nullopt;
        Shape out = *operand;
        out.back() = topk.getK();
        return Shapes{out, out};
      })
      .Case<stablehlo::SelectOp, stablehlo::ClampOp, stablehlo::MapOp>(
          [&](Operation *) { return sameShape(op); })
      .Default([&](Operation *) -> std::optional<Shapes> {
        if (op->hasTrait<OpTrait::Elementwise>() ||
            op->hasTrait<OpTrait::SameOperandsAndResultShape>())
          return sameShape(op);
        return std::nullopt;
      });
}

} // namespace mlir::stablehlo_tvm
