//===- WidenSubByteIntegers.cpp - i2/i4 held in 8 bits ---------------------===//
//
// TVM and numpy have no 2- or 4-bit integers. Every such tensor becomes one
// of 8-bit integers holding the same values (sign-extended for signed types,
// zero-extended for unsigned), and the ops whose 8-bit results can leave the
// narrow range wrap them back: (x << k) >> k (arithmetic for signed) or a
// mask for unsigned, k = 8 - width. Logical right shifts, popcnt and
// count_leading_zeros look at the narrow bit pattern only; arithmetic right
// shifts copy its top bit (of unsigned types too).
//
//===----------------------------------------------------------------------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "StorageTypes.h"

#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_WIDENSUBBYTEINTEGERS
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

bool isSubByte(Type type) {
  auto intType = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
  return intType && intType.getWidth() > 1 && intType.getWidth() < 8;
}

struct WideningConverter : TypeConverter {
  WideningConverter() {
    addConversion([](Type type) { return type; });
    addConversion([](IntegerType type) -> Type {
      if (type.getWidth() <= 1 || type.getWidth() >= 8)
        return type;
      return IntegerType::get(type.getContext(), 8, type.getSignedness());
    });
    addConversion([this](RankedTensorType type) -> Type {
      return type.clone(convertType(type.getElementType()));
    });
  }
};

/// A constant of `type` (8-bit) with every element `value`.
Value splat(OpBuilder &b, Location loc, Type type, int64_t value) {
  auto tensor = cast<RankedTensorType>(type);
  auto attr = DenseElementsAttr::get(
      tensor, b.getIntegerAttr(tensor.getElementType(), APInt(8, value, true)));
  return stablehlo::ConstantOp::create(b, loc, tensor, attr);
}

/// `x` (8-bit, values of a `width`-bit type) wrapped back into that type.
Value wrap(OpBuilder &b, Location loc, Value x, unsigned width, bool isSigned) {
  Type type = x.getType();
  if (!isSigned)
    return stablehlo::AndOp::create(b, loc, type, x,
                                    splat(b, loc, type, (1 << width) - 1));
  Value k = splat(b, loc, type, 8 - width);
  Value up = stablehlo::ShiftLeftOp::create(b, loc, type, x, k);
  return stablehlo::ShiftRightArithmeticOp::create(b, loc, type, up, k);
}

/// Any op touching sub-byte integers, rebuilt on 8-bit ones.
struct WidenOp : ConversionPattern {
  WidenOp(TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), 1, context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isConvertedOp(op))
      return failure();
    if (isa<stablehlo::BitcastConvertOp>(op))
      return rewriter.notifyMatchFailure(op, "the bit layout is the width's");
    if (auto constant = dyn_cast<stablehlo::ConstantOp>(op);
        constant && !isa<DenseElementsAttr>(constant.getValue()))
      return rewriter.notifyMatchFailure(op, "only dense elements are widened");
    Location loc = op->getLoc();
    if (auto constant = dyn_cast<stablehlo::ConstantOp>(op)) {
      auto value = cast<DenseElementsAttr>(constant.getValue());
      Type wide = getTypeConverter()->convertType(value.getElementType());
      bool isUnsigned = cast<IntegerType>(value.getElementType()).isUnsigned();
      auto widened = value.mapValues(wide, [&](const APInt &v) {
        return isUnsigned ? v.zext(8) : v.sext(8);
      });
      rewriter.replaceOpWithNewOp<stablehlo::ConstantOp>(op, widened);
      return success();
    }
    SmallVector<Value> inputs(operands);
    Type narrow = op->getNumOperands() ? getElementTypeOrSelf(op->getOperand(0))
                                       : Type();
    unsigned width = narrow && isSubByte(narrow) ? narrow.getIntOrFloatBitWidth() : 0;
    // Ops that read the narrow bit pattern see it, not the extension.
    if (width && isa<stablehlo::ShiftRightLogicalOp, stablehlo::PopulationCountOp,
                     stablehlo::ClzOp>(op))
      inputs[0] = wrap(rewriter, loc, inputs[0], width, /*isSigned=*/false);
    // An arithmetic shift copies the narrow pattern's top bit, also of an
    // unsigned type (whose 8-bit value is zero-extended).
    if (width && isa<stablehlo::ShiftRightArithmeticOp>(op))
      inputs[0] = wrap(rewriter, loc, inputs[0], width, /*isSigned=*/true);
    Operation *widened =
        rebuildWithConvertedTypes(op, inputs, rewriter, *getTypeConverter());
    if (!widened)
      return failure();
    SmallVector<Value> results(widened->getResults());
    if (width && isa<stablehlo::ClzOp>(op))
      results[0] = stablehlo::SubtractOp::create(
          rewriter, loc, results[0].getType(), results[0],
          splat(rewriter, loc, results[0].getType(), 8 - width));
    // Results that can leave the narrow range, by the result's type (a
    // convert or product may narrow from a wider operand type; a count of
    // 2 is -2 in i2).
    Type narrowResult =
        op->getNumResults() ? getElementTypeOrSelf(op->getResult(0)) : Type();
    if (narrowResult && isSubByte(narrowResult) &&
        isa<stablehlo::AddOp, stablehlo::SubtractOp, stablehlo::MulOp,
            stablehlo::NegOp, stablehlo::AbsOp, stablehlo::ShiftLeftOp,
            stablehlo::DivOp, stablehlo::PowOp, stablehlo::ShiftRightLogicalOp,
            stablehlo::ShiftRightArithmeticOp,
            stablehlo::NotOp, stablehlo::ConvertOp, stablehlo::DotGeneralOp,
            stablehlo::ConvolutionOp, stablehlo::ClzOp,
            stablehlo::PopulationCountOp>(op))
      results[0] =
          wrap(rewriter, loc, results[0], narrowResult.getIntOrFloatBitWidth(),
               !cast<IntegerType>(narrowResult).isUnsigned());
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct WidenSubByteIntegersPass
    : impl::WidenSubByteIntegersBase<WidenSubByteIntegersPass> {
  void runOnOperation() override {
    // Every import runs this pass; most modules have nothing to widen.
    if (!touchesTypesWhere(getOperation(), isSubByte))
      return;
    recordDeclaredResults(getOperation(), isSubByte, tvm::TVMDialect::NarrowResultsAttrHelper::getNameStr(),
                          [](Type type) {
                            auto element =
                                cast<IntegerType>(getElementTypeOrSelf(type));
                            return (element.isUnsigned() ? "ui" : "i") +
                                   std::to_string(element.getWidth());
                          });
    WideningConverter converter;
    RewritePatternSet patterns(&getContext());
    patterns.add<WidenOp>(converter, &getContext());
    // What cannot be widened (bitcast_convert) stays and is reported by the
    // legality check.
    convertStorageTypes(getOperation(), converter, isSubByte,
                        std::move(patterns));
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
