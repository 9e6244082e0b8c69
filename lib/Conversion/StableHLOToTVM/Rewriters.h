//===- Rewriters.h - stablehlo -> tvm patterns, one set per family -*- C++ -*-===//

#ifndef STABLEHLO_TVM_LIB_CONVERSION_REWRITERS_H
#define STABLEHLO_TVM_LIB_CONVERSION_REWRITERS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::stablehlo_tvm {

void populateElementwisePatterns(MLIRContext *context,
                                 RewritePatternSet &patterns);
void populateDataMovementPatterns(MLIRContext *context,
                                  RewritePatternSet &patterns);
void populateDotGeneralPatterns(MLIRContext *context,
                                RewritePatternSet &patterns);
void populateReducePatterns(MLIRContext *context, RewritePatternSet &patterns);
void populateConvolutionPatterns(MLIRContext *context,
                                 RewritePatternSet &patterns);
void populateMathPatterns(MLIRContext *context, RewritePatternSet &patterns);

/// True for the element types a TVM tensor can hold (everything but complex).
bool isTVMElementType(Type type);

/// True when every operand and result of `op` is a tensor TVM can hold.
bool hasTVMTypes(Operation *op);

/// Base of the conversion patterns: they only apply to ops whose operands and
/// results TVM can hold (hasTVMTypes); `rewrite` does the rest.
template <typename Op>
struct TVMTypedPattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  using OpAdaptor = typename Op::Adaptor;

  LogicalResult
  matchAndRewrite(Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    if (!hasTVMTypes(op))
      return rewriter.notifyMatchFailure(op, "element type unsupported by TVM");
    return rewrite(op, adaptor, rewriter);
  }

  virtual LogicalResult rewrite(Op op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const = 0;
};

/// `value` reshaped to `shape`, or `value` itself when it already has it.
Value reshapeTo(OpBuilder &builder, Location loc, Value value,
                ArrayRef<int64_t> shape);

/// `shape` permuted: result dimension i is shape[perm[i]].
SmallVector<int64_t> permutedShape(ArrayRef<int64_t> shape,
                                   ArrayRef<int64_t> perm);

/// `value` with its dimensions permuted, or itself for the identity.
Value permuteDims(OpBuilder &builder, Location loc, Value value,
                  ArrayRef<int64_t> axes);

/// A tensor of `type` whose every element is `scalar` (an IntegerAttr or
/// FloatAttr of the element type): a rank-0 constant broadcast to the shape.
Value splatConstant(OpBuilder &builder, Location loc, RankedTensorType type,
                    TypedAttr scalar);

/// True where `value` is NaN: `!(x == x)`, which TVM computes for every float
/// type (its isnan rejects bfloat16).
Value isNaN(OpBuilder &builder, Location loc, Value value);

/// A 1-D constant tensor of i64 values, or of booleans.
Value indexConstant(OpBuilder &builder, Location loc, ArrayRef<int64_t> values);
Value maskConstant(OpBuilder &builder, Location loc, ArrayRef<bool> values);

/// `vector` (1-D, along `axis`) reshaped to rank `rank` and broadcast to
/// `shape`.
Value broadcastAlong(OpBuilder &builder, Location loc, Value vector,
                     int64_t axis, ArrayRef<int64_t> shape);

/// `build(operands, resultType)`, computed on f32 copies of f16/bf16 operands
/// and rounded back to the half type (TVM lacks most half-precision math and
/// f32 rounds correctly more often, as XLA does); other types pass through.
/// Results of another element type (is_finite's i1) are not rounded.
Value computeHalfInF32(
    OpBuilder &builder, Location loc, ValueRange operands,
    RankedTensorType resultType,
    llvm::function_ref<Value(ValueRange, RankedTensorType)> build);

/// A scalar `value` (rank 0) broadcast to `shape`.
Value broadcastTo(OpBuilder &builder, Location loc, Value value,
                  ArrayRef<int64_t> shape);

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_LIB_CONVERSION_REWRITERS_H
