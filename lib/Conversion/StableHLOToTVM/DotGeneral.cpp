//===- DotGeneral.cpp - dot_general to a batched Relax matmul -------------===//
//
// Any dot_general is a matmul of [batch..., M, K] by [batch..., K, N]: the
// operands are transposed to (batch, free, contracting) and (batch,
// contracting, free) order, their free and contracting dimensions flattened,
// and the [batch..., M, N] product reshaped to the result. Transposes and
// reshapes that would do nothing are not emitted, so a plain 2-D dot is one
// tvm.matmul.
//
//===----------------------------------------------------------------------===//

#include "DeclineReasons.h"
#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

namespace mlir::stablehlo_tvm {
namespace {

/// The product of `dims`' sizes; dynamic when one of them is.
int64_t product(RankedTensorType type, ArrayRef<int64_t> dims) {
  int64_t result = 1;
  for (int64_t d : dims) {
    if (type.isDynamicDim(d))
      return ShapedType::kDynamic;
    result *= type.getDimSize(d);
  }
  return result;
}

SmallVector<int64_t> freeDims(int64_t rank, ArrayRef<int64_t> batch,
                              ArrayRef<int64_t> contract) {
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(batch, d) && !llvm::is_contained(contract, d))
      dims.push_back(d);
  return dims;
}

struct DotGeneralConversion : TVMTypedPattern<stablehlo::DotGeneralOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(stablehlo::DotGeneralOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
    auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
    auto resultType = op.getType();
    Type resultElement = resultType.getElementType();
    if (resultElement.isInteger(1))
      return decline(rewriter, op, "dot_general on i1");
    auto dims = op.getDotDimensionNumbers();
    ArrayRef<int64_t> lhsBatch = dims.getLhsBatchingDimensions();
    ArrayRef<int64_t> rhsBatch = dims.getRhsBatchingDimensions();
    ArrayRef<int64_t> lhsContract = dims.getLhsContractingDimensions();
    ArrayRef<int64_t> rhsContract = dims.getRhsContractingDimensions();
    SmallVector<int64_t> lhsFree =
        freeDims(lhsType.getRank(), lhsBatch, lhsContract);
    SmallVector<int64_t> rhsFree =
        freeDims(rhsType.getRank(), rhsBatch, rhsContract);

    Location loc = op.getLoc();
    // Summing over nothing: every result is 0 (Relax's matmul reshapes
    // fail on a 0-sized contraction).
    if (resultType.hasStaticShape() &&
        llvm::any_of(lhsContract,
                     [&](int64_t d) { return lhsType.getDimSize(d) == 0; })) {
      rewriter.replaceOp(op, splatConstant(rewriter, loc, resultType,
                                           cast<TypedAttr>(rewriter.getZeroAttr(
                                               resultElement))));
      return success();
    }
    // Checked before anything is built: the flattened operands' dynamic
    // sizes must be ones a reshape can tell.
    {
      SmallVector<int64_t> lhsOrder(lhsBatch), rhsOrder(rhsBatch);
      llvm::append_range(lhsOrder, lhsFree);
      llvm::append_range(lhsOrder, lhsContract);
      llvm::append_range(rhsOrder, rhsContract);
      llvm::append_range(rhsOrder, rhsFree);
      SmallVector<int64_t> flatLhs, flatRhs;
      for (int64_t d : lhsBatch)
        flatLhs.push_back(lhsType.getDimSize(d));
      flatRhs = flatLhs;
      flatLhs.append({product(lhsType, lhsFree), product(lhsType, lhsContract)});
      flatRhs.append({product(lhsType, lhsContract), product(rhsType, rhsFree)});
      if (!canReshape(lhsType.clone(permutedShape(lhsType.getShape(), lhsOrder)),
                      flatLhs) ||
          !canReshape(rhsType.clone(permutedShape(rhsType.getShape(), rhsOrder)),
                      flatRhs))
        return decline(rewriter, op, "dynamic sizes it cannot tell");
    }
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    // Half-precision results accumulate in f32 and round once, as XLA does;
    // mixed operand types compute in the (accumulation) result type.
    Type accumulation = resultElement;
    if (resultElement.isF16() || resultElement.isBF16())
      accumulation = rewriter.getF32Type();
    auto toAccumulation = [&](Value v) -> Value {
      auto t = cast<RankedTensorType>(v.getType());
      if (t.getElementType() == accumulation)
        return v;
      return tvm::AsTypeOp::create(rewriter, loc, t.clone(accumulation), v,
                                   TypeAttr::get(accumulation));
    };
    if (lhsType.getElementType() != rhsType.getElementType() ||
        accumulation != resultElement) {
      lhs = toAccumulation(lhs);
      rhs = toAccumulation(rhs);
    }

    SmallVector<int64_t> lhsPerm(lhsBatch), rhsPerm(rhsBatch);
    llvm::append_range(lhsPerm, lhsFree);
    llvm::append_range(lhsPerm, lhsContract);
    llvm::append_range(rhsPerm, rhsContract);
    llvm::append_range(rhsPerm, rhsFree);
    lhs = permuteDims(rewriter, loc, lhs, lhsPerm);
    rhs = permuteDims(rewriter, loc, rhs, rhsPerm);

    SmallVector<int64_t> batchShape;
    for (int64_t d : lhsBatch)
      batchShape.push_back(lhsType.getDimSize(d));
    int64_t m = product(lhsType, lhsFree);
    int64_t k = product(lhsType, lhsContract);
    int64_t n = product(rhsType, rhsFree);
    SmallVector<int64_t> lhsShape(batchShape), rhsShape(batchShape),
        productShape(batchShape);
    lhsShape.append({m, k});
    rhsShape.append({k, n});
    productShape.append({m, n});
    lhs = reshapeTo(rewriter, loc, lhs, lhsShape);
    rhs = reshapeTo(rewriter, loc, rhs, rhsShape);

    TypeAttr outDtype;
    if (cast<RankedTensorType>(lhs.getType()).getElementType() != accumulation)
      outDtype = TypeAttr::get(accumulation);
    auto productType = RankedTensorType::get(productShape, accumulation);
    Value product;
    if (k == 1 && productType.hasStaticShape()) {
      // Nothing summed (an outer product): each element one product, which
      // an element-wise multiply computes in parallel vectors; the matmul's
      // one-step reduction was left a scalar loop.
      SmallVector<int64_t> column(batchShape), row(batchShape);
      column.append({m, 1});
      row.append({1, n});
      // Operands narrower than the result (f16 with out_dtype f32) are
      // widened exactly first, as the matmul's accumulation would.
      lhs = toAccumulation(lhs);
      rhs = toAccumulation(rhs);
      Value lhsColumn = broadcastTo(rewriter, loc,
                                    reshapeTo(rewriter, loc, lhs, column),
                                    productShape);
      Value rhsRow = broadcastTo(rewriter, loc,
                                 reshapeTo(rewriter, loc, rhs, row),
                                 productShape);
      product = tvm::MultiplyOp::create(rewriter, loc, productType, lhsColumn,
                                        rhsRow);
    } else {
      bool rounded = op->hasAttr(
          tvm::TVMDialect::RoundedProductsAttrHelper::getNameStr());
      product = tvm::MatmulOp::create(
          rewriter, loc, productType, lhs, rhs, outDtype,
          rounded ? rewriter.getUnitAttr() : UnitAttr());
    }
    if (accumulation != resultElement)
      product = tvm::AsTypeOp::create(
          rewriter, loc, RankedTensorType::get(productShape, resultElement),
          product, TypeAttr::get(resultElement));
    // Dynamic result dimensions are the operands' (batch, lhs free, rhs
    // free), which the flattened product no longer tells apart.
    SmallVector<Value> sizes;
    auto sizesOf = [&](Value operand, RankedTensorType type,
                       ArrayRef<int64_t> dims) {
      for (int64_t d : dims)
        if (type.isDynamicDim(d))
          sizes.push_back(tvm::DimOp::create(rewriter, loc, operand, d));
    };
    if (!resultType.hasStaticShape()) {
      sizesOf(adaptor.getLhs(), lhsType, lhsBatch);
      sizesOf(adaptor.getLhs(), lhsType, lhsFree);
      sizesOf(adaptor.getRhs(), rhsType, rhsFree);
    }
    rewriter.replaceOp(op, reshapeWithSizes(rewriter, loc, product,
                                            resultType.getShape(), sizes));
    return success();
  }
};

} // namespace

void populateDotGeneralPatterns(MLIRContext *context,
                                RewritePatternSet &patterns) {
  patterns.add<DotGeneralConversion>(context);
}

} // namespace mlir::stablehlo_tvm
