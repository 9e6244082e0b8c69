//===- IntegerMath.cpp - Integer power and the high half of products ------===//
//
// Relax has neither: both are elementwise kernels of scalar arith code.
//
//===----------------------------------------------------------------------===//

#include "DeclineReasons.h"
#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/CHLO/IR/CHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

namespace mlir::stablehlo_tvm {
namespace {

bool isSigned(Type element) {
  auto type = cast<IntegerType>(element);
  return !type.isUnsigned() && type.getWidth() != 1;
}

/// The upper half of the unsigned product of two 64-bit values, from four
/// products of their 32-bit halves.
Value unsignedHigh64(OpBuilder &b, Location loc, Value x, Value y) {
  Type i64 = x.getType();
  Value mask = intConstant(b, loc, i64, 0xFFFFFFFF);
  Value shift = intConstant(b, loc, i64, 32);
  auto low = [&](Value v) -> Value { return arith::AndIOp::create(b, loc, v, mask); };
  auto high = [&](Value v) -> Value { return arith::ShRUIOp::create(b, loc, v, shift); };
  auto mul = [&](Value u, Value v) -> Value { return arith::MulIOp::create(b, loc, u, v); };
  auto add = [&](Value u, Value v) -> Value { return arith::AddIOp::create(b, loc, u, v); };
  Value xl = low(x), xh = high(x), yl = low(y), yh = high(y);
  Value ll = mul(xl, yl), hl = mul(xh, yl), lh = mul(xl, yh), hh = mul(xh, yh);
  // Each sum stays below 2^64: (2^32-1) three times over.
  Value cross = add(add(high(ll), low(hl)), lh);
  return add(add(hh, high(hl)), high(cross));
}

/// An elementwise kernel computing `fn` on the two operands' scalars, for
/// integer elements.
using ScalarBinaryFn = Value (*)(OpBuilder &, Location, Type, Value, Value);
template <typename Op, ScalarBinaryFn fn>
struct IntegerKernelConversion : TVMTypedPattern<Op> {
  IntegerKernelConversion(MLIRContext *context, StringRef name)
      : TVMTypedPattern<Op>(context), name(name.str()) {}

  LogicalResult
  rewrite(Op op, typename Op::Adaptor adaptor,
          ConversionPatternRewriter &rewriter) const override {
    Type element = op.getType().getElementType();
    if (!isa<IntegerType>(element) || element.isInteger(1))
      return decline(rewriter, op, "not on integers");
    rewriter.replaceOp(
        op, buildElementwiseKernel(
                rewriter, op.getLoc(), name, adaptor.getOperands(),
                op.getType(),
                [&](OpBuilder &b, Location loc, ValueRange xy) -> SmallVector<Value> {
                  return {fn(b, loc, element, xy[0], xy[1])};
                }));
    return success();
  }

  std::string name;
};

} // namespace

Value integerPower(OpBuilder &b, Location loc, Type element, Value x,
                   Value y) {
  Type type = x.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  Value zero = intConstant(b, loc, type, 0), one = intConstant(b, loc, type, 1);
  Value negative = isSigned(element)
                       ? arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                               y, zero)
                       : Value();
  // |y| as unsigned bits (wrapping: the most negative y stays even).
  Value exponent =
      negative ? arith::SelectOp::create(
                     b, loc, negative, arith::SubIOp::create(b, loc, zero, y), y)
               : y;
  // A loop over the bits, the running product and square in local slots
  // (unrolled, the select chain grows too large for TVM's simplifier).
  auto slot = [&](Value init) -> Value {
    Value alloca = memref::AllocaOp::create(b, loc, MemRefType::get({}, type));
    memref::StoreOp::create(b, loc, init, alloca);
    return alloca;
  };
  Value product = slot(one), square = slot(x), rest = slot(exponent);
  Value lower = arith::ConstantIndexOp::create(b, loc, 0);
  Value upper = arith::ConstantIndexOp::create(b, loc, width);
  Value step = arith::ConstantIndexOp::create(b, loc, 1);
  scf::ForOp::create(
      b, loc, lower, upper, step, ValueRange{},
      [&](OpBuilder &nb, Location l, Value, ValueRange) {
        Value bits = memref::LoadOp::create(nb, l, rest);
        Value base = memref::LoadOp::create(nb, l, square);
        Value acc = memref::LoadOp::create(nb, l, product);
        Value set = arith::CmpIOp::create(
            nb, l, arith::CmpIPredicate::ne,
            arith::AndIOp::create(nb, l, bits, one), zero);
        memref::StoreOp::create(
            nb, l,
            arith::SelectOp::create(nb, l, set,
                                    arith::MulIOp::create(nb, l, acc, base), acc),
            product);
        memref::StoreOp::create(nb, l, arith::MulIOp::create(nb, l, base, base),
                                square);
        memref::StoreOp::create(nb, l, arith::ShRUIOp::create(nb, l, bits, one),
                                rest);
        scf::YieldOp::create(nb, l);
      });
  Value result = memref::LoadOp::create(b, loc, product);
  if (!negative)
    return result;
  // x^-n is 1/x^n truncated: nonzero only for x = +-1, where x^n is the answer.
  Value isOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, one);
  Value isMinusOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x,
                                           intConstant(b, loc, type, -1));
  Value unit = arith::OrIOp::create(b, loc, isOne, isMinusOne);
  Value reciprocal = arith::SelectOp::create(b, loc, unit, result, zero);
  return arith::SelectOp::create(b, loc, negative, reciprocal, result);
}

Value multiplyHigh(OpBuilder &b, Location loc, Type element, Value x,
                   Value y) {
  Type type = x.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  bool isSignedType = isSigned(element);
  if (width <= 32) {
    Type wide = b.getIntegerType(2 * width);
    auto extend = [&](Value v) -> Value {
      if (isSignedType)
        return arith::ExtSIOp::create(b, loc, wide, v);
      return arith::ExtUIOp::create(b, loc, wide, v);
    };
    Value wideX = extend(x);
    Value wideY = extend(y);
    Value product = arith::MulIOp::create(b, loc, wideX, wideY);
    Value high = arith::ShRUIOp::create(b, loc, product,
                                        intConstant(b, loc, wide, width));
    return arith::TruncIOp::create(b, loc, type, high);
  }
  Value high = unsignedHigh64(b, loc, x, y);
  if (!isSignedType)
    return high;
  // Signed from unsigned: subtract y where x < 0 and x where y < 0.
  Value zero = intConstant(b, loc, type, 0);
  auto ifNegative = [&](Value v, Value term) -> Value {
    Value neg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, v, zero);
    return arith::SelectOp::create(b, loc, neg, term, zero);
  };
  high = arith::SubIOp::create(b, loc, high, ifNegative(x, y));
  return arith::SubIOp::create(b, loc, high, ifNegative(y, x));
}

void populateIntegerMathPatterns(MLIRContext *context,
                                 RewritePatternSet &patterns) {
  patterns.add<IntegerKernelConversion<stablehlo::PowOp, integerPower>>(
      context, "integer_power");
  patterns.add<IntegerKernelConversion<chlo::MulhiOp, multiplyHigh>>(context,
                                                                     "mulhi");
}

} // namespace mlir::stablehlo_tvm
