//===- DimensionClasses.cpp - Dimensions the program says are equal -------===//

#include "DimensionClasses.h"

#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

#include "mlir/IR/Matchers.h"

namespace mlir::stablehlo_tvm {

DimKey dimKey(Value v, int64_t d) {
  return DimKey{v.getAsOpaquePointer(), d};
}

llvm::EquivalenceClasses<DimKey> dimClasses(func::FuncOp function,
                                            SymbolicElements *sizes) {
  llvm::EquivalenceClasses<DimKey> classes;
  auto same = [&](Value x, int64_t dx, Value y, int64_t dy) {
    auto tx = dyn_cast<RankedTensorType>(x.getType());
    auto ty = dyn_cast<RankedTensorType>(y.getType());
    if (tx && ty && dx < tx.getRank() && dy < ty.getRank() &&
        tx.isDynamicDim(dx) && ty.isDynamicDim(dy))
      classes.unionSets(dimKey(x, dx), dimKey(y, dy));
  };
  auto sameShapes = [&](ValueRange values, Value result) {
    auto type = cast<RankedTensorType>(result.getType());
    for (Value v : values)
      if (cast<RankedTensorType>(v.getType()).getRank() == type.getRank())
        for (int64_t d = 0; d < type.getRank(); ++d)
          same(v, d, result, d);
  };
  auto sameSegments = [&](Value from, Value result) {
    SmallVector<int64_t> in, out;
    if (tvm::keepsDynamicDims(cast<RankedTensorType>(from.getType()).getShape(),
                              cast<RankedTensorType>(result.getType()).getShape(),
                              in, out))
      for (auto [a, z] : llvm::zip(in, out))
        same(from, a, result, z);
  };
  auto sizedBy = [&](Value result, Value shape) {
    if (!sizes)
      return;
    auto elements = sizes->of(shape);
    auto type = cast<RankedTensorType>(result.getType());
    if (failed(elements) || static_cast<int64_t>(elements->size()) != type.getRank())
      return;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        classes.unionSets(dimKey((*elements)[d], -1), dimKey(result, d));
  };
  for (Operation &op : function.getBody().front()) {
    if (op.getNumResults() == 0 || !isa<RankedTensorType>(op.getResult(0).getType()))
      continue;
    Value result = op.getResult(0);
    if (op.hasTrait<OpTrait::Elementwise>() ||
        isa<stablehlo::SelectOp, stablehlo::ClampOp, tvm::ShapeAssertionOp>(op)) {
      SmallVector<Value> tensors;
      for (Value v : op.getOperands())
        if (isa<RankedTensorType>(v.getType()))
          tensors.push_back(v);
      sameShapes(tensors, result);
    } else if (auto concat = dyn_cast<stablehlo::ConcatenateOp>(op)) {
      for (Value v : concat.getInputs())
        for (int64_t d = 0; d < cast<RankedTensorType>(v.getType()).getRank(); ++d)
          if (d != static_cast<int64_t>(concat.getDimension()))
            same(v, d, result, d);
    } else if (isa<stablehlo::ReverseOp, stablehlo::SortOp>(op)) {
      sameShapes(op.getOperands(), result);
    } else if (auto pad = dyn_cast<stablehlo::PadOp>(op)) {
      // A dimension not padded keeps its size.
      for (int64_t d = 0; d < cast<RankedTensorType>(result.getType()).getRank(); ++d)
        if (pad.getEdgePaddingLow()[d] == 0 && pad.getEdgePaddingHigh()[d] == 0 &&
            pad.getInteriorPadding()[d] == 0)
          same(pad.getOperand(), d, result, d);
    } else if (auto slice = dyn_cast<stablehlo::SliceOp>(op)) {
      // A dynamic dimension a static slice keeps whole.
      for (int64_t d = 0; d < cast<RankedTensorType>(result.getType()).getRank(); ++d)
        if (slice.getStartIndices()[d] == 0 && slice.getStrides()[d] == 1)
          same(slice.getOperand(), d, result, d);
    } else if (auto transpose = dyn_cast<stablehlo::TransposeOp>(op)) {
      for (auto [d, from] : llvm::enumerate(transpose.getPermutation()))
        same(transpose.getOperand(), from, result, d);
    } else if (auto broadcast = dyn_cast<stablehlo::BroadcastInDimOp>(op)) {
      for (auto [i, d] : llvm::enumerate(broadcast.getBroadcastDimensions()))
        same(broadcast.getOperand(), i, result, d);
    } else if (auto broadcast = dyn_cast<stablehlo::DynamicBroadcastInDimOp>(op)) {
      for (auto [i, d] : llvm::enumerate(broadcast.getBroadcastDimensions()))
        same(broadcast.getOperand(), i, result, d);
      sizedBy(result, broadcast.getOutputDimensions());
    } else if (auto reshape = dyn_cast<stablehlo::DynamicReshapeOp>(op)) {
      sameSegments(reshape.getOperand(), result);
      sizedBy(result, reshape.getOutputShape());
    } else if (auto slice = dyn_cast<stablehlo::RealDynamicSliceOp>(op)) {
      // A window from 0 with unit stride is as long as its limit.
      if (!sizes)
        continue;
      auto type = cast<RankedTensorType>(result.getType());
      auto starts = sizes->of(slice.getStartIndices());
      auto limits = sizes->of(slice.getLimitIndices());
      auto strides = sizes->of(slice.getStrides());
      if (failed(starts) || failed(limits) || failed(strides) ||
          static_cast<int64_t>(limits->size()) != type.getRank() ||
          starts->size() != limits->size() || strides->size() != limits->size())
        continue;
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (type.isDynamicDim(d) && matchPattern((*starts)[d], m_Zero()) &&
            matchPattern((*strides)[d], m_One()))
          classes.unionSets(dimKey((*limits)[d], -1), dimKey(result, d));
    } else if (auto iota = dyn_cast<stablehlo::DynamicIotaOp>(op)) {
      sizedBy(result, iota.getOutputShape());
    } else if (auto reduce = dyn_cast<stablehlo::ReduceOp>(op)) {
      // Its inputs have one shape (argmax's values and indices).
      sameShapes(reduce.getInputs().drop_front(), reduce.getInputs().front());
      for (Value input : reduce.getInputs()) {
        int64_t out = 0;
        auto rank = cast<RankedTensorType>(input.getType()).getRank();
        for (int64_t d = 0; d < rank; ++d)
          if (!llvm::is_contained(reduce.getDimensions(), d))
            same(input, d, result, out++);
      }
    } else if (auto dot = dyn_cast<stablehlo::DotGeneralOp>(op)) {
      auto dims = dot.getDotDimensionNumbers();
      int64_t out = 0;
      for (auto [l, r] : llvm::zip(dims.getLhsBatchingDimensions(),
                                   dims.getRhsBatchingDimensions())) {
        same(dot.getLhs(), l, dot.getRhs(), r);
        same(dot.getLhs(), l, result, out++);
      }
      for (auto [l, r] : llvm::zip(dims.getLhsContractingDimensions(),
                                   dims.getRhsContractingDimensions()))
        same(dot.getLhs(), l, dot.getRhs(), r);
      for (Value side : {dot.getLhs(), dot.getRhs()}) {
        bool lhs = side == dot.getLhs();
        auto batch = lhs ? dims.getLhsBatchingDimensions() : dims.getRhsBatchingDimensions();
        auto contract = lhs ? dims.getLhsContractingDimensions() : dims.getRhsContractingDimensions();
        for (int64_t d = 0; d < cast<RankedTensorType>(side.getType()).getRank(); ++d)
          if (!llvm::is_contained(batch, d) && !llvm::is_contained(contract, d))
            same(side, d, result, out++);
      }
    } else if (isa<tvm::BroadcastToOp, tvm::ReshapeOp>(op)) {
      auto type = cast<RankedTensorType>(result.getType());
      // A reshape keeping its dynamic dimensions in order keeps them.
      if (isa<tvm::ReshapeOp>(op))
        sameSegments(op.getOperand(0), result);
      // A size read off another value's dimension is that dimension.
      auto given = op.getOperands().drop_front();
      for (int64_t d = 0, k = 0; d < type.getRank(); ++d) {
        if (!type.isDynamicDim(d) || k >= static_cast<int64_t>(given.size()))
          continue;
        if (auto dim = given[k++].getDefiningOp<tvm::DimOp>())
          same(dim.getX(), dim.getDim(), result, d);
      }
    }
  }
  return classes;
}

} // namespace mlir::stablehlo_tvm
