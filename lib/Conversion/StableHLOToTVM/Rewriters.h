//===- Rewriters.h - stablehlo -> tvm patterns, one set per family -*- C++ -*-===//

#ifndef STABLEHLO_TVM_LIB_CONVERSION_REWRITERS_H
#define STABLEHLO_TVM_LIB_CONVERSION_REWRITERS_H

#include "DeclineReasons.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::stablehlo {
class CompareOp;
} // namespace mlir::stablehlo

namespace mlir::stablehlo_tvm {

void populateElementwisePatterns(MLIRContext *context,
                                 RewritePatternSet &patterns);
void populateDataMovementPatterns(MLIRContext *context,
                                  RewritePatternSet &patterns);
void populateDotGeneralPatterns(MLIRContext *context,
                                RewritePatternSet &patterns);
void populateReducePatterns(MLIRContext *context, RewritePatternSet &patterns);
void populateReduceKernelPatterns(MLIRContext *context,
                                  RewritePatternSet &patterns);
void populateScatterPatterns(MLIRContext *context,
                             RewritePatternSet &patterns);
void populateGatherPatterns(MLIRContext *context, RewritePatternSet &patterns);
void populateWindowPatterns(MLIRContext *context, RewritePatternSet &patterns);
void populateSortPatterns(MLIRContext *context, RewritePatternSet &patterns);
void populateMapPatterns(MLIRContext *context, RewritePatternSet &patterns);
void populateCollectivePatterns(MLIRContext *context,
                                RewritePatternSet &patterns);
void populateControlFlowPatterns(MLIRContext *context,
                                 RewritePatternSet &patterns);
void populateTriangularSolvePatterns(MLIRContext *context,
                                     RewritePatternSet &patterns);
void populateConvolutionPatterns(MLIRContext *context,
                                 RewritePatternSet &patterns);
void populateMathPatterns(MLIRContext *context, RewritePatternSet &patterns);
void populateIntegerMathPatterns(MLIRContext *context,
                                 RewritePatternSet &patterns);
void populateLapackPatterns(MLIRContext *context, RewritePatternSet &patterns);
void populateLibraryFftPatterns(MLIRContext *context,
                                RewritePatternSet &patterns);
void populateHostCallbackPatterns(MLIRContext *context,
                                  RewritePatternSet &patterns);
void populateBatchNormPatterns(MLIRContext *context,
                               RewritePatternSet &patterns);
void populateBitLevelPatterns(MLIRContext *context,
                              RewritePatternSet &patterns);
void populateRandomBitsPatterns(MLIRContext *context,
                                RewritePatternSet &patterns);

/// True for the element types a TVM tensor can hold (everything but complex).
bool isTVMElementType(Type type);

/// True when every operand and result of `op` is a tensor TVM can hold,
/// of static shape unless `allowDynamic`.
bool hasTVMTypes(Operation *op, bool allowDynamic = false);


/// Base of the conversion patterns: they only apply to ops whose operands and
/// results TVM can hold (hasTVMTypes); `rewrite` does the rest.
template <typename Op>
struct TVMTypedPattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  using OpAdaptor = typename Op::Adaptor;

  LogicalResult
  matchAndRewrite(Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    if (!hasTVMTypes(op, /*allowDynamic=*/true))
      return decline(rewriter, op, "an element type TVM has no dtype for");
    if (!hasTVMTypes(op, symbolicShapes()))
      return decline(rewriter, op,
                     "no form for dynamic shapes: specialize them to the "
                     "arguments' sizes");
    return rewrite(op, adaptor, rewriter);
  }

  /// Whether `rewrite` takes dynamic dimensions (symbolic shapes in Relax).
  virtual bool symbolicShapes() const { return false; }

  virtual LogicalResult rewrite(Op op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const = 0;
};

/// `value` reshaped to `shape`, or `value` itself when it already has it.
Value reshapeTo(OpBuilder &builder, Location loc, Value value,
                ArrayRef<int64_t> shape);

/// Whether reshapeTo can take a value of type `from` to `to`: at most one
/// dynamic dimension (Relax infers it), or the same dynamic dimensions in
/// order with the same static element counts between them.
bool canReshape(RankedTensorType from, ArrayRef<int64_t> to);

/// `value` reshaped to `shape`, whose dynamic dimensions are `sizes` (one
/// `index` each) where Relax cannot infer them.
Value reshapeWithSizes(OpBuilder &builder, Location loc, Value value,
                       ArrayRef<int64_t> shape, ArrayRef<Value> sizes);

/// `shape` permuted: result dimension i is shape[perm[i]].
SmallVector<int64_t> permutedShape(ArrayRef<int64_t> shape,
                                   ArrayRef<int64_t> perm);

/// `value` with its dimensions permuted, or itself for the identity.
Value permuteDims(OpBuilder &builder, Location loc, Value value,
                  ArrayRef<int64_t> axes);

/// A tensor of `type` whose every element is `scalar` (an IntegerAttr or
/// FloatAttr of the element type): a rank-0 constant broadcast to the shape
/// (its dynamic dimensions `like`'s, see broadcastTo).
Value splatConstant(OpBuilder &builder, Location loc, RankedTensorType type,
                    TypedAttr scalar, Value like = {});

/// The elements of `value` where it is a float constant, perhaps reshaped or
/// broadcast; null otherwise.
DenseFPElementsAttr floatConstantOf(Value value);

/// True where `value` is NaN: `!(x == x)`, which TVM computes for every float
/// type (its isnan rejects bfloat16).
Value isNaN(OpBuilder &builder, Location loc, Value value);

/// `value`, a maximum or minimum of x and y, made to propagate NaN as
/// StableHLO's do and Relax's do not: where either is NaN, x + y (a NaN).
Value nanPropagating(OpBuilder &builder, Location loc, Value x, Value y,
                     Value value);

/// A 1-D constant tensor of i64 values, or of booleans.
Value indexConstant(OpBuilder &builder, Location loc, ArrayRef<int64_t> values);
Value maskConstant(OpBuilder &builder, Location loc, ArrayRef<bool> values);

/// `vector` (1-D, along `axis`, a static one) reshaped to `shape`'s rank
/// and broadcast to `shape` (its dynamic dimensions `like`'s).
Value broadcastAlong(OpBuilder &builder, Location loc, Value vector,
                     int64_t axis, ArrayRef<int64_t> shape, Value like = {});

/// `build(operands, resultType)`, computed on f32 copies of f16/bf16 operands
/// and rounded back to the half type (TVM lacks most half-precision math and
/// f32 rounds correctly more often, as XLA does); other types pass through.
/// Results of another element type (is_finite's i1) are not rounded.
Value computeHalfInF32(
    OpBuilder &builder, Location loc, ValueRange operands,
    RankedTensorType resultType,
    llvm::function_ref<Value(ValueRange, RankedTensorType)> build);

/// `build(operands, resultType)` on float operands narrower than `minWidth`
/// bits widened to f32 (minWidth 32) or f64 (minWidth 64), the result rounded
/// back; computeHalfInF32 is minWidth 32.
Value computeWidened(
    OpBuilder &builder, Location loc, ValueRange operands,
    RankedTensorType resultType, unsigned minWidth,
    llvm::function_ref<Value(ValueRange, RankedTensorType)> build);

/// Where a conversion from float type `from` to integer type `to` saturates,
/// as XLA converts (the spec leaves it to the implementation): values below
/// `low` give the integer minimum, values at or above `overflow` (an
/// infinity when `from` cannot reach the maximum) the maximum `max`, values
/// at or below `underflow` (set when `low` is not the minimum itself: -inf)
/// the minimum `min`, NaN gives 0. A value clamped to [low, highBelow]
/// converts exactly.
struct SaturationBounds {
  APFloat low, highBelow, overflow;
  std::optional<APFloat> underflow;
  APInt min, max;
};
SaturationBounds saturationBounds(FloatType from, IntegerType to);

/// `value` converted to `type` (tvm.astype), or itself when it has it.
Value astype(OpBuilder &builder, Location loc, Value value,
             RankedTensorType type);

/// `value` broadcast to `shape` (numpy's rules). A dynamic dimension of
/// `shape` is the one of `value` aligned with it, else `like`'s (a value of
/// `shape`'s rank); without either the tvm op does not verify.
Value broadcastTo(OpBuilder &builder, Location loc, Value value,
                  ArrayRef<int64_t> shape, Value like = {});

//===----------------------------------------------------------------------===//
// Kernels (Kernel.cpp): tvm.kernel bodies, for what Relax has no operator for.
//===----------------------------------------------------------------------===//

/// Builds the body of a kernel: gets the input buffers, then the result
/// buffers, and the builder set inside the body.
using KernelBodyBuilder =
    llvm::function_ref<void(OpBuilder &, Location, ValueRange, ValueRange)>;

/// A tvm.kernel named `name` over `inputs` with results of `resultTypes`.
/// With `inPlace` (one input index or -1 per result), result i is written
/// into input inPlace[i]'s buffer: `body` gets that buffer as the result's.
/// Results with dynamic dimensions take their sizes from `resultSizes`
/// (one index value per dynamic dimension, in order).
SmallVector<Value> buildKernel(OpBuilder &builder, Location loc,
                               StringRef name, ValueRange inputs,
                               TypeRange resultTypes, KernelBodyBuilder body,
                               ArrayRef<int64_t> inPlace = {},
                               ValueRange resultSizes = {});

/// Loops over every index of `shape` (the outermost parallel when
/// `parallel`); `body` gets the induction variables. Rank 0 runs `body` once.
void buildLoopNest(
    OpBuilder &builder, Location loc, ArrayRef<int64_t> shape, bool parallel,
    llvm::function_ref<void(OpBuilder &, Location, ValueRange)> body);

/// The same over index values `bounds` (sizes known when the kernel runs).
void buildLoopNest(
    OpBuilder &builder, Location loc, ArrayRef<Value> bounds, bool parallel,
    llvm::function_ref<void(OpBuilder &, Location, ValueRange)> body);

/// The sizes of `buffer`'s dimensions `dims` (all when empty) inside a
/// kernel body: constants where static, memref.dim where dynamic.
SmallVector<Value> bufferSizes(OpBuilder &builder, Location loc, Value buffer,
                               std::optional<ArrayRef<int64_t>> dims = {});

/// The sizes of `buffer`'s slices along `dim`: bufferSizes with 1 at `dim`.
SmallVector<Value> sliceSizes(OpBuilder &builder, Location loc, Value buffer,
                              int64_t dim);

/// Computes the scalar results of an elementwise kernel from the scalars of
/// its inputs (all of the results' shape).
using ScalarFn = llvm::function_ref<SmallVector<Value>(OpBuilder &, Location,
                                                      ValueRange)>;

/// A kernel applying `fn` at every index of the results (inputs and results
/// share one shape).
SmallVector<Value> buildElementwiseKernel(OpBuilder &builder, Location loc,
                                          StringRef name, ValueRange inputs,
                                          TypeRange resultTypes, ScalarFn fn);

/// An index constant.
Value indexValue(OpBuilder &builder, Location loc, int64_t value);

/// The integer at `at` in `buffer` as an `index`, read as signed or unsigned
/// by the tensor's `element` type.
Value loadAsIndex(OpBuilder &builder, Location loc, Value buffer,
                  ValueRange at, Type element);

/// The signless scalar type kernels compute in for an element type.
Type signlessType(Type element);

/// 0..rank-1 without the dimensions listed in `excluded`, in order.
SmallVector<int64_t> complementDims(int64_t rank,
                                    ArrayRef<ArrayRef<int64_t>> excluded);

/// The index vector gather/scatter indices hold at one batch position: for
/// each component k, the element at `position(j)` for every dimension j but
/// `indexVectorDim`, and k along it (one component when `indexVectorDim` is
/// the rank). Each component is an `index`.
SmallVector<Value>
loadIndexVector(OpBuilder &builder, Location loc, Value indices,
                RankedTensorType indicesType, int64_t indexVectorDim,
                llvm::function_ref<Value(int64_t)> position);

/// Reduction accumulators: one rank-0 alloca per init buffer, holding its
/// value.
SmallVector<Value> initAccumulators(OpBuilder &builder, Location loc,
                                    ValueRange initBuffers);

/// One reduction step: `body` on (accumulators..., the elements of
/// `operands` at `index`), stored back into the accumulators. Fails when the
/// body has no scalar form.
LogicalResult accumulate(OpBuilder &builder, Location loc, Block &body,
                         ValueRange accumulators, ValueRange operands,
                         ValueRange index);

/// Each accumulator's value stored into its result buffer at `index`.
void storeAccumulators(OpBuilder &builder, Location loc,
                       ValueRange accumulators, ValueRange results,
                       ValueRange index);

//===----------------------------------------------------------------------===//
// Scalar code (ScalarBody.cpp): StableHLO semantics on scalars, in arith/math.
//===----------------------------------------------------------------------===//

/// `body` (a region of 0-d stablehlo ops, e.g. a reduce body) computed on the
/// scalars `args`; fails if it uses an op with no scalar form here.
FailureOr<SmallVector<Value>> scalarizeBody(OpBuilder &builder, Block &body,
                                            ValueRange args);

/// Whether scalarizeBody can translate `body` (its arguments 0-d tensors of
/// ints or floats): tried in a detached block, so a pattern decides before
/// it builds anything.
LogicalResult checkScalarizable(Block &body);

/// x^y for integers of `element` type: squaring over every bit of y. A
/// negative y gives 1 for x = 1, +-1 for x = -1 and 0 otherwise.
Value integerPower(OpBuilder &b, Location loc, Type element, Value x, Value y);

/// The upper half of the double-width product of two integers of `element`
/// type (signed or unsigned as the type says).
Value multiplyHigh(OpBuilder &b, Location loc, Type element, Value x, Value y);

/// stablehlo.compare on scalars: its direction, by its element type or its
/// comparison type (TOTALORDER, UNSIGNED).
Value scalarCompare(OpBuilder &b, Location loc, stablehlo::CompareOp op,
                    Value x, Value y);

/// A float's bits as a signed integer of its width whose order is IEEE
/// totalOrder (-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN).
Value totalOrderKey(OpBuilder &b, Location loc, Value x);

/// The float of `floatType` whose totalOrderKey is `key`.
Value fromTotalOrderKey(OpBuilder &b, Location loc, Type floatType, Value key);

/// An arith constant `value` of the signless integer type `type`.
Value intConstant(OpBuilder &b, Location loc, Type type, int64_t value);

/// An arith constant of the signless scalar type for `type`'s bits.
Value scalarConstant(OpBuilder &builder, Location loc, Type type,
                     const APInt &bits);

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_LIB_CONVERSION_REWRITERS_H
