//===- BitLevel.cpp - Ops defined on the bits of a value, as kernels ------===//
//
// Relax cannot reinterpret bits, so bitcast_convert, reduce_precision and
// chlo.next_after are kernels whose scalar code works on the integer bits.
//
//===----------------------------------------------------------------------===//

#include "DeclineReasons.h"
#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/CHLO/IR/CHLO.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

#include "mlir/IR/TypeUtilities.h"

namespace mlir::stablehlo_tvm {
namespace {

/// A scalar's bits as a signless integer of its width.
Value bitsOf(OpBuilder &b, Location loc, Value x) {
  Type intType = b.getIntegerType(x.getType().getIntOrFloatBitWidth());
  if (x.getType() == intType)
    return x;
  return arith::BitcastOp::create(b, loc, intType, x);
}

Value fromBits(OpBuilder &b, Location loc, Type type, Value bits) {
  if (bits.getType() == type)
    return bits;
  return arith::BitcastOp::create(b, loc, type, bits);
}

Value bitsConstant(OpBuilder &b, Location loc, Type intType,
                   const APInt &value) {
  return arith::ConstantOp::create(b, loc, intType,
                                   b.getIntegerAttr(intType, value));
}

Value bitsConstant(OpBuilder &b, Location loc, Type intType, uint64_t value) {
  unsigned width = intType.getIntOrFloatBitWidth();
  return bitsConstant(b, loc, intType, APInt(width, value));
}

/// bitcast_convert: the same bits under another type. Between widths, the
/// wider value's bits are the narrower values along an extra minor dimension,
/// least significant first.
struct BitcastConvertConversion
    : TVMTypedPattern<stablehlo::BitcastConvertOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(stablehlo::BitcastConvertOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    auto inType = cast<RankedTensorType>(op.getOperand().getType());
    auto outType = cast<RankedTensorType>(op.getType());
    Type inElement = signlessType(inType.getElementType());
    Type outElement = signlessType(outType.getElementType());
    unsigned inWidth = inElement.getIntOrFloatBitWidth();
    unsigned outWidth = outElement.getIntOrFloatBitWidth();
    if (inType == outType) {
      rewriter.replaceOp(op, adaptor.getOperand());
      return success();
    }
    if (inWidth == 1 || outWidth == 1)
      return decline(rewriter, op, "booleans have no bit layout");
    Location loc = op.getLoc();
    // A dynamic dimension of the result is the operand's at its position
    // (the width change adds or drops the minor dimension).
    SmallVector<int64_t> dynamicDims;
    for (int64_t d = 0; d < outType.getRank(); ++d)
      if (outType.isDynamicDim(d))
        dynamicDims.push_back(d);
    SmallVector<Value> sizes;
    if (!dynamicDims.empty())
      sizes = tvm::dynamicSizesOf(rewriter, loc, adaptor.getOperand(),
                                  ArrayRef<int64_t>(dynamicDims));
    SmallVector<Value> results = buildKernel(
        rewriter, loc, "bitcast_convert", adaptor.getOperand(), outType,
        [&](OpBuilder &b, Location loc, ValueRange in, ValueRange out) {
          buildLoopNest(b, loc, bufferSizes(b, loc, out[0]), /*parallel=*/true,
                        [&](OpBuilder &b, Location loc, ValueRange ivs) {
            Value result;
            if (inWidth == outWidth) {
              Value x = memref::LoadOp::create(b, loc, in[0], ivs);
              result = fromBits(b, loc, outElement, bitsOf(b, loc, x));
            } else if (inWidth > outWidth) {
              // Output index (..., k): chunk k of input element (...).
              Value x = memref::LoadOp::create(b, loc, in[0], ivs.drop_back());
              Value bits = bitsOf(b, loc, x);
              Type wide = bits.getType();
              Value chunk = arith::IndexCastOp::create(b, loc, wide, ivs.back());
              Value chunkWidth = bitsConstant(b, loc, wide, outWidth);
              Value shift = arith::MulIOp::create(b, loc, chunk, chunkWidth);
              bits = arith::ShRUIOp::create(b, loc, bits, shift);
              bits = arith::TruncIOp::create(
                  b, loc, b.getIntegerType(outWidth), bits);
              result = fromBits(b, loc, outElement, bits);
            } else {
              // Input elements (..., 0..n-1) make output element (...).
              Type wide = b.getIntegerType(outWidth);
              Value bits = bitsConstant(b, loc, wide, 0);
              for (unsigned k = 0; k < outWidth / inWidth; ++k) {
                SmallVector<Value> index(ivs);
                index.push_back(indexValue(b, loc, k));
                Value x = memref::LoadOp::create(b, loc, in[0], index);
                Value xBits = bitsOf(b, loc, x);
                Value part = arith::ExtUIOp::create(b, loc, wide, xBits);
                Value shift = bitsConstant(b, loc, wide, k * inWidth);
                part = arith::ShLIOp::create(b, loc, part, shift);
                bits = arith::OrIOp::create(b, loc, bits, part);
              }
              result = fromBits(b, loc, outElement, bits);
            }
            memref::StoreOp::create(b, loc, result, out[0], ivs);
          });
        },
        /*inPlace=*/{}, sizes);
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// reduce_precision: round to `mantissa_bits` (to nearest, ties to even),
/// then flush what a format with `exponent_bits` cannot hold: overflow to
/// infinity, underflow to zero (keeping the sign). NaN stays NaN.
Value reducePrecision(OpBuilder &b, Location loc, Value x, unsigned exponentBits,
                      unsigned mantissaBits) {
  auto floatType = cast<FloatType>(x.getType());
  unsigned width = floatType.getWidth();
  unsigned srcMantissa = floatType.getFPMantissaWidth() - 1;
  unsigned srcExponent = width - srcMantissa - 1;
  Type intType = b.getIntegerType(width);
  auto constant = [&](const APInt &v) { return bitsConstant(b, loc, intType, v); };
  auto constantU = [&](uint64_t v) { return bitsConstant(b, loc, intType, v); };
  Value bits = bitsOf(b, loc, x);
  if (mantissaBits < srcMantissa) {
    unsigned dropped = srcMantissa - mantissaBits;
    APInt lastKept = APInt::getOneBitSet(width, dropped);
    Value lastKeptMask = constant(lastKept);
    Value lastKeptBit = arith::AndIOp::create(b, loc, bits, lastKeptMask);
    Value droppedCount = constantU(dropped);
    Value lastBit = arith::ShRUIOp::create(b, loc, lastKeptBit, droppedCount);
    // Half of the dropped range, minus one, plus the last kept bit: ties
    // round to even.
    Value halfMinusOne = constant(lastKept.lshr(1) - 1);
    Value bias = arith::AddIOp::create(b, loc, lastBit, halfMinusOne);
    Value biased = arith::AddIOp::create(b, loc, bits, bias);
    Value keepMask = constant(~(lastKept - 1));
    bits = arith::AndIOp::create(b, loc, biased, keepMask);
  }
  if (exponentBits < srcExponent) {
    APInt signMask = APInt::getSignMask(width);
    APInt exponentMask =
        APInt::getBitsSet(width, srcMantissa, srcMantissa + srcExponent);
    uint64_t bias = (uint64_t(1) << (srcExponent - 1)) - 1;
    uint64_t reducedBias = (uint64_t(1) << (exponentBits - 1)) - 1;
    uint64_t maxExponent = bias + reducedBias;
    uint64_t minExponent = bias - reducedBias;
    Value exponentMaskValue = constant(exponentMask);
    Value exponent = arith::AndIOp::create(b, loc, bits, exponentMaskValue);
    Value maxValue = constant(APInt(width, maxExponent) << srcMantissa);
    Value overflows = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ugt, exponent, maxValue);
    Value minValue = constant(APInt(width, minExponent) << srcMantissa);
    Value underflows = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ule, exponent, minValue);
    Value signMaskValue = constant(signMask);
    Value signedZero = arith::AndIOp::create(b, loc, bits, signMaskValue);
    Value signedInf =
        arith::OrIOp::create(b, loc, signedZero, exponentMaskValue);
    Value flushed =
        arith::SelectOp::create(b, loc, underflows, signedZero, bits);
    bits = arith::SelectOp::create(b, loc, overflows, signedInf, flushed);
  }
  Value result = fromBits(b, loc, floatType, bits);
  // Without mantissa bits a NaN cannot be told from an infinity: it
  // becomes the infinity of its sign.
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  Value nanResult = x;
  if (mantissaBits == 0) {
    auto infinity = [&](bool negative) -> Value {
      return arith::ConstantOp::create(
          b, loc, floatType,
          b.getFloatAttr(floatType, APFloat::getInf(
                                        floatType.getFloatSemantics(), negative)));
    };
    Value xBits = bitsOf(b, loc, x);
    Value zeroBits = bitsConstant(b, loc, xBits.getType(), APInt(width, 0));
    Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                           xBits, zeroBits);
    Value negInf = infinity(true);
    Value posInf = infinity(false);
    nanResult = arith::SelectOp::create(b, loc, negative, negInf, posInf);
  }
  return arith::SelectOp::create(b, loc, isNaN, nanResult, result);
}

struct ReducePrecisionConversion
    : TVMTypedPattern<stablehlo::ReducePrecisionOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(stablehlo::ReducePrecisionOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    unsigned exponentBits = op.getExponentBits();
    unsigned mantissaBits = op.getMantissaBits();
    SmallVector<Value> results = buildElementwiseKernel(
        rewriter, op.getLoc(), "reduce_precision", adaptor.getOperand(),
        op.getType(),
        [&](OpBuilder &b, Location loc, ValueRange x) -> SmallVector<Value> {
          return {reducePrecision(b, loc, x[0], exponentBits, mantissaBits)};
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// next_after(x, y): the float after x in the direction of y; y when they
/// are equal; NaN when either is.
Value nextAfter(OpBuilder &b, Location loc, Value x, Value y) {
  auto floatType = cast<FloatType>(x.getType());
  unsigned width = floatType.getWidth();
  Type intType = b.getIntegerType(width);
  Value zero = arith::ConstantOp::create(b, loc, floatType,
                                         b.getFloatAttr(floatType, 0.0));
  Value xBits = bitsOf(b, loc, x), yBits = bitsOf(b, loc, y);
  Value one = bitsConstant(b, loc, intType, 1);
  // From zero, the smallest subnormal with y's sign.
  Value signMask = bitsConstant(b, loc, intType, APInt::getSignMask(width));
  Value ySign = arith::AndIOp::create(b, loc, yBits, signMask);
  Value towardSign = arith::OrIOp::create(b, loc, ySign, one);
  // Away from zero when x and the direction of y agree in sign.
  Value positive =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, zero);
  Value upward =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, y);
  Value away = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                     positive, upward);
  Value up = arith::AddIOp::create(b, loc, xBits, one);
  Value down = arith::SubIOp::create(b, loc, xBits, one);
  Value stepped = arith::SelectOp::create(b, loc, away, up, down);
  Value xIsZero =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, zero);
  Value bits = arith::SelectOp::create(b, loc, xIsZero, towardSign, stepped);
  Value result = fromBits(b, loc, floatType, bits);
  Value equal = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, y);
  result = arith::SelectOp::create(b, loc, equal, y, result);
  Value nan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, y);
  Value propagated = arith::AddFOp::create(b, loc, x, y);
  return arith::SelectOp::create(b, loc, nan, propagated, result);
}

struct NextAfterConversion : TVMTypedPattern<chlo::NextAfterOp> {
  using TVMTypedPattern::TVMTypedPattern;
  bool symbolicShapes() const override { return true; }

  LogicalResult
  rewrite(chlo::NextAfterOp op, OpAdaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> results = buildElementwiseKernel(
        rewriter, op.getLoc(), "next_after",
        ValueRange{adaptor.getLhs(), adaptor.getRhs()}, op.getType(),
        [&](OpBuilder &b, Location loc, ValueRange xy) -> SmallVector<Value> {
          return {nextAfter(b, loc, xy[0], xy[1])};
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void populateBitLevelPatterns(MLIRContext *context,
                              RewritePatternSet &patterns) {
  patterns.add<BitcastConvertConversion, ReducePrecisionConversion,
               NextAfterConversion>(context);
}

} // namespace mlir::stablehlo_tvm
