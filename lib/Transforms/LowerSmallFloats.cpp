//===- LowerSmallFloats.cpp - f8/f6/f4 values held in f32 ------------------===//
//
// TVM's CPU code generator has no arithmetic on the 8-bit and narrower float
// types (f8E4M3FN, f8E5M2, the FNUZ variants, f8E8M0FNU, f4E2M1FN, ...).
// Every such tensor becomes an f32 tensor holding the same values, all of
// which f32 represents exactly. Conversions into a small type round to it;
// ops that compute new values (arithmetic, products, math) compute in f32
// and round their results, as XLA computes them upcast; ops that only move
// or select values need no rounding. The rounding is the format's own:
// round to nearest even on its significand, subnormals included; overflow
// goes to infinity, to NaN for types without infinity, and saturates for
// types without NaN either; types without negative zero give +0, and the
// unsigned exponent-only f8E8M0FNU has no zero or negative values (NaN).
//
//===----------------------------------------------------------------------===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "StorageTypes.h"

#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

#include "llvm/ADT/APFloat.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cmath>

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_LOWERSMALLFLOATS
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

bool isSmallFloat(Type type) {
  auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  return floatType && floatType.getWidth() < 16;
}

/// What rounding to a small format needs to know of it, read from its
/// APFloat semantics and its bit patterns.
struct Format {
  int significandBits; // without the implicit bit
  int minExponent;     // of the smallest normal
  double largest;
  bool hasInf, hasNaN, hasNegativeZero, hasZero, isSigned;

  explicit Format(FloatType type) {
    const llvm::fltSemantics &sem = type.getFloatSemantics();
    significandBits = llvm::APFloat::semanticsPrecision(sem) - 1;
    minExponent = llvm::APFloat::semanticsMinExponent(sem);
    largest = llvm::APFloat::getLargest(sem).convertToDouble();
    hasInf = llvm::APFloat::semanticsHasInf(sem);
    hasNaN = llvm::APFloat::semanticsHasNaN(sem);
    hasZero = llvm::APFloat::semanticsHasZero(sem);
    isSigned = llvm::APFloat::semanticsHasSignedRepr(sem);
    hasNegativeZero = false;
    unsigned width = type.getWidth();
    for (uint64_t bits = 0; bits < (uint64_t{1} << width); ++bits) {
      llvm::APFloat value(sem, llvm::APInt(width, bits));
      if (value.isZero() && value.isNegative())
        hasNegativeZero = true;
    }
  }
};

/// Builds the rounding of f64 values to a small format, on tensors.
struct Rounder {
  OpBuilder &b;
  Location loc;
  RankedTensorType f64, i64, i1;

  Rounder(OpBuilder &b, Location loc, RankedTensorType like)
      : b(b), loc(loc), f64(like.clone(b.getF64Type())),
        i64(like.clone(b.getIntegerType(64))), i1(like.clone(b.getI1Type())) {}

  Value f(double v) {
    return stablehlo::ConstantOp::create(
        b, loc, DenseElementsAttr::get(f64, b.getF64FloatAttr(v)));
  }
  Value i(int64_t v) {
    return stablehlo::ConstantOp::create(
        b, loc, DenseElementsAttr::get(i64, b.getI64IntegerAttr(v)));
  }
  Value cmp(stablehlo::ComparisonDirection dir, Value x, Value y) {
    return stablehlo::CompareOp::create(
        b, loc, i1, x, y,
        stablehlo::ComparisonDirectionAttr::get(b.getContext(), dir),
        stablehlo::ComparisonTypeAttr{});
  }
  Value sel(Value p, Value x, Value y) {
    return stablehlo::SelectOp::create(b, loc, x.getType(), p, x, y);
  }

  /// `x` (f64) rounded to `format`, as f64.
  Value round(Value x, const Format &format) {
    using Dir = stablehlo::ComparisonDirection;
    Value a = stablehlo::AbsOp::create(b, loc, f64, x);
    // The binade of a: its f64 exponent field, clamped to the format's
    // subnormal range (where the quantum stays that of the smallest normal).
    Value bits = stablehlo::BitcastConvertOp::create(b, loc, i64, a);
    Value field = stablehlo::ShiftRightLogicalOp::create(b, loc, bits, i(52));
    Value exponent = stablehlo::SubtractOp::create(b, loc, field, i(1023));
    exponent = stablehlo::MaxOp::create(b, loc, exponent, i(format.minExponent));
    // The quantum 2^(exponent - significandBits), built from its bits.
    Value quantumField = stablehlo::AddOp::create(
        b, loc, exponent, i(1023 - format.significandBits));
    Value quantum = stablehlo::BitcastConvertOp::create(
        b, loc, f64,
        stablehlo::ShiftLeftOp::create(b, loc, quantumField, i(52)));
    Value steps = stablehlo::RoundNearestEvenOp::create(
        b, loc, f64, stablehlo::DivOp::create(b, loc, a, quantum));
    Value r = stablehlo::MulOp::create(b, loc, steps, quantum);
    Value overflow = format.hasInf ? f(INFINITY)
                     : format.hasNaN ? f(NAN)
                                     : f(format.largest);
    r = sel(cmp(Dir::GT, r, f(format.largest)), overflow, r);
    // Infinite input: infinity where the format has one.
    r = sel(cmp(Dir::EQ, a, f(INFINITY)),
            format.hasInf ? f(INFINITY) : overflow, r);
    if (!format.isSigned) {
      r = sel(cmp(Dir::LT, x, f(0.0)), f(NAN), r);
    } else {
      Value negated = stablehlo::NegOp::create(b, loc, f64, r);
      // -0 stays -0 where the format has it (x's sign bit decides).
      Value signBit = cmp(Dir::LT,
                          stablehlo::BitcastConvertOp::create(b, loc, i64, x),
                          i(0));
      Value keepSign = signBit;
      if (!format.hasNegativeZero)
        keepSign = stablehlo::AndOp::create(
            b, loc, signBit, cmp(Dir::NE, r, f(0.0)));
      r = sel(keepSign, negated, r);
    }
    if (!format.hasZero)
      r = sel(cmp(Dir::EQ, r, f(0.0)), f(NAN), r);
    // NaN stays NaN (a format without NaN: XLA's choice is 0).
    Value isNaN = cmp(Dir::NE, x, x);
    return sel(isNaN, format.hasNaN ? f(NAN) : f(0.0), r);
  }
};

/// `value` (any float or integer tensor) rounded to the small float type
/// `small`, held in f32.
Value roundTo(OpBuilder &b, Location loc, Value value, FloatType small) {
  auto type = cast<RankedTensorType>(value.getType());
  Rounder rounder(b, loc, type);
  Value wide = value;
  if (type.getElementType() != b.getF64Type())
    wide = stablehlo::ConvertOp::create(b, loc, rounder.f64, value);
  Value rounded = rounder.round(wide, Format(small));
  return stablehlo::ConvertOp::create(b, loc, type.clone(b.getF32Type()),
                                      rounded);
}

struct StorageConverter : TypeConverter {
  StorageConverter() {
    addConversion([](Type type) { return type; });
    addConversion([](FloatType type) -> Type {
      return type.getWidth() < 16 ? Float32Type::get(type.getContext()) : type;
    });
    addConversion([this](RankedTensorType type) -> Type {
      return type.clone(convertType(type.getElementType()));
    });
  }
};

/// Ops whose results are values of their operands: no rounding after them.
bool movesValues(Operation *op) {
  return isa<stablehlo::BroadcastInDimOp, stablehlo::ReshapeOp,
             stablehlo::TransposeOp, stablehlo::SliceOp,
             stablehlo::ConcatenateOp, stablehlo::PadOp, stablehlo::ReverseOp,
             stablehlo::DynamicSliceOp, stablehlo::DynamicUpdateSliceOp,
             stablehlo::GatherOp, stablehlo::ScatterOp, stablehlo::SelectOp,
             stablehlo::MaxOp, stablehlo::MinOp, stablehlo::ClampOp,
             stablehlo::SortOp,
             stablehlo::ReduceOp, stablehlo::ReduceWindowOp,
             stablehlo::SelectAndScatterOp, stablehlo::MapOp,
             stablehlo::WhileOp, stablehlo::IfOp, stablehlo::CaseOp,
             stablehlo::OptimizationBarrierOp, stablehlo::GetTupleElementOp,
             stablehlo::TupleOp, stablehlo::ReturnOp>(op);
}

/// Any op touching small floats, rebuilt on f32 storage; its small-float
/// results rounded unless it only moves values.
struct StoreInF32 : ConversionPattern {
  StoreInF32(TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), 1, context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isConvertedOp(op))
      return failure();
    if (isa<stablehlo::BitcastConvertOp, stablehlo::ReducePrecisionOp>(op))
      return rewriter.notifyMatchFailure(op, "reads the bit layout");
    Location loc = op->getLoc();
    if (auto constant = dyn_cast<stablehlo::ConstantOp>(op)) {
      auto value = dyn_cast<DenseElementsAttr>(constant.getValue());
      if (!value)
        return failure();
      auto type = cast<RankedTensorType>(
          getTypeConverter()->convertType(value.getType()));
      SmallVector<APFloat> wide;
      for (APFloat v : value.getValues<APFloat>()) {
        bool lost = false;
        v.convert(llvm::APFloat::IEEEsingle(),
                  llvm::APFloat::rmNearestTiesToEven, &lost);
        wide.push_back(v);
      }
      rewriter.replaceOpWithNewOp<stablehlo::ConstantOp>(
          op, DenseElementsAttr::get(type, wide));
      return success();
    }
    if (auto convert = dyn_cast<stablehlo::ConvertOp>(op);
        convert && isSmallFloat(convert.getType())) {
      auto small = cast<FloatType>(getElementTypeOrSelf(convert.getType()));
      Value operand = operands[0];
      if (isa<ComplexType>(getElementTypeOrSelf(operand.getType())))
        return rewriter.notifyMatchFailure(op, "complex to a small float");
      rewriter.replaceOp(op, roundTo(rewriter, loc, operand, small));
      return success();
    }
    // A small float converted to f32 is its storage.
    if (isa<stablehlo::ConvertOp>(op) &&
        getTypeConverter()->convertType(op->getResult(0).getType()) ==
            operands[0].getType()) {
      rewriter.replaceOp(op, operands[0]);
      return success();
    }
    Operation *stored =
        rebuildWithConvertedTypes(op, operands, rewriter, *getTypeConverter());
    if (!stored)
      return failure();
    SmallVector<Value> results(stored->getResults());
    if (!movesValues(op) && !isa<stablehlo::ConvertOp>(op)) {
      for (auto [i, original] : llvm::enumerate(op->getResultTypes()))
        if (isSmallFloat(original))
          results[i] = roundTo(rewriter, loc, results[i],
                               cast<FloatType>(getElementTypeOrSelf(original)));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct LowerSmallFloatsPass
    : impl::LowerSmallFloatsBase<LowerSmallFloatsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!touchesTypesWhere(module, isSmallFloat))
      return;
    // Callers get results of the declared types (tvm.small_float_results).
    recordDeclaredResults(module, isSmallFloat, tvm::TVMDialect::SmallFloatResultsAttrHelper::getNameStr(),
                          [](Type type) {
                            std::string name;
                            llvm::raw_string_ostream os(name);
                            getElementTypeOrSelf(type).print(os);
                            return name;
                          });
    StorageConverter converter;
    RewritePatternSet patterns(&getContext());
    patterns.add<StoreInF32>(converter, &getContext());
    // What cannot be stored (bitcast_convert) stays and is reported by the
    // legality check.
    convertStorageTypes(module, converter, isSmallFloat, std::move(patterns));
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
