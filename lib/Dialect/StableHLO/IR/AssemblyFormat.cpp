//===- AssemblyFormat.cpp - Custom directives of the pretty syntax --------===//

#include "AssemblyFormat.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::stablehlo {

ParseResult parseSameOperandsAndResultTypeImpl(OpAsmParser &parser,
                                               ArrayRef<Type *> operands,
                                               Type &result) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  Type type;
  if (parser.parseType(type))
    return failure();
  auto fnType = dyn_cast<FunctionType>(type);
  if (!fnType) {
    for (Type *operand : operands)
      *operand = type;
    result = type;
    return success();
  }
  if (fnType.getNumInputs() != operands.size() || fnType.getNumResults() != 1)
    return parser.emitError(loc)
           << "expected a function type with " << operands.size()
           << " inputs and 1 result, got " << fnType;
  for (auto [operand, input] : llvm::zip(operands, fnType.getInputs()))
    *operand = input;
  result = fnType.getResult(0);
  return success();
}

void printSameOperandsAndResultTypeImpl(OpAsmPrinter &p, Operation *,
                                        TypeRange operands, Type result) {
  if (llvm::all_of(operands, [&](Type t) { return t == result; })) {
    p << result;
    return;
  }
  p.printFunctionalType(operands, TypeRange(result));
}

ParseResult parseSelectOpType(OpAsmParser &parser, Type &pred, Type &onTrue,
                              Type &onFalse, Type &result) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  SmallVector<Type> types;
  if (parser.parseTypeList(types))
    return failure();
  if (types.size() == 2) {
    pred = types[0];
    onTrue = onFalse = result = types[1];
    return success();
  }
  if (types.size() == 1) {
    auto fnType = dyn_cast<FunctionType>(types[0]);
    if (fnType && fnType.getNumInputs() == 3 && fnType.getNumResults() == 1) {
      pred = fnType.getInput(0);
      onTrue = fnType.getInput(1);
      onFalse = fnType.getInput(2);
      result = fnType.getResult(0);
      return success();
    }
  }
  return parser.emitError(loc, "expected `predType, resultType` or a function "
                               "type with 3 inputs and 1 result");
}

void printSelectOpType(OpAsmPrinter &p, Operation *, Type pred, Type onTrue,
                       Type onFalse, Type result) {
  if (onTrue == result && onFalse == result) {
    p << pred << ", " << result;
    return;
  }
  p.printFunctionalType(TypeRange{pred, onTrue, onFalse}, TypeRange(result));
}

ParseResult parseSliceRanges(OpAsmParser &parser, DenseI64ArrayAttr &start,
                             DenseI64ArrayAttr &limit,
                             DenseI64ArrayAttr &strides) {
  SmallVector<int64_t> starts, limits, steps;
  auto parseRange = [&]() -> ParseResult {
    int64_t s, l, st = 1;
    if (parser.parseInteger(s) || parser.parseColon() || parser.parseInteger(l))
      return failure();
    if (succeeded(parser.parseOptionalColon()) && parser.parseInteger(st))
      return failure();
    starts.push_back(s);
    limits.push_back(l);
    steps.push_back(st);
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseRange))
    return failure();
  MLIRContext *ctx = parser.getContext();
  start = DenseI64ArrayAttr::get(ctx, starts);
  limit = DenseI64ArrayAttr::get(ctx, limits);
  strides = DenseI64ArrayAttr::get(ctx, steps);
  return success();
}

void printSliceRanges(OpAsmPrinter &p, Operation *, DenseI64ArrayAttr start,
                      DenseI64ArrayAttr limit, DenseI64ArrayAttr strides) {
  p << '[';
  for (size_t i = 0, e = start.size(); i < e; ++i) {
    if (i)
      p << ", ";
    p << start[i] << ':' << limit[i];
    if (i < static_cast<size_t>(strides.size()) && strides[i] != 1)
      p << ':' << strides[i];
  }
  p << ']';
}

ParseResult parseVariadicOperandWithAttribute(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands) {
  while (true) {
    OpAsmParser::UnresolvedOperand operand;
    OptionalParseResult parsed = parser.parseOptionalOperand(operand);
    if (!parsed.has_value())
      return success();
    if (failed(*parsed) || parser.parseComma())
      return failure();
    operands.push_back(operand);
  }
}

void printVariadicOperandWithAttribute(OpAsmPrinter &p, Operation *,
                                       OperandRange operands) {
  llvm::interleaveComma(operands, p);
  p << ", ";
}

ParseResult parseIntList(AsmParser &parser, SmallVectorImpl<int64_t> &values) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        int64_t value;
        if (parser.parseInteger(value))
          return failure();
        values.push_back(value);
        return success();
      });
}

void printIntList(AsmPrinter &p, ArrayRef<int64_t> values) {
  p << '[';
  llvm::interleaveComma(values, p);
  p << ']';
}

static ParseResult parsePrecisionConfig(OpAsmParser &parser,
                                       ArrayAttr &precision);
static void printPrecisionConfig(OpAsmPrinter &p, ArrayAttr precision);

ParseResult parseDotDimensionNumbers(OpAsmParser &parser,
                                     DotDimensionNumbersAttr &dims,
                                     ArrayAttr &precision) {
  SmallVector<int64_t> lhsBatch, rhsBatch, lhsContract, rhsContract;
  auto parsePair = [&](SmallVectorImpl<int64_t> &lhs,
                       SmallVectorImpl<int64_t> &rhs) -> ParseResult {
    if (parser.parseEqual() || parseIntList(parser, lhs) ||
        parser.parseKeyword("x") || parseIntList(parser, rhs))
      return failure();
    return success();
  };
  if (succeeded(parser.parseOptionalKeyword("batching_dims"))) {
    if (parsePair(lhsBatch, rhsBatch) || parser.parseComma())
      return failure();
  }
  if (parser.parseKeyword("contracting_dims") ||
      parsePair(lhsContract, rhsContract))
    return failure();
  dims = DotDimensionNumbersAttr::get(parser.getContext(), lhsBatch, rhsBatch,
                                      lhsContract, rhsContract);
  return parsePrecisionConfig(parser, precision);
}

void printDotDimensionNumbers(OpAsmPrinter &p, Operation *,
                              DotDimensionNumbersAttr dims,
                              ArrayAttr precision) {
  if (!dims.getLhsBatchingDimensions().empty() ||
      !dims.getRhsBatchingDimensions().empty()) {
    p << "batching_dims = ";
    printIntList(p, dims.getLhsBatchingDimensions());
    p << " x ";
    printIntList(p, dims.getRhsBatchingDimensions());
    p << ", ";
  }
  p << "contracting_dims = ";
  printIntList(p, dims.getLhsContractingDimensions());
  p << " x ";
  printIntList(p, dims.getRhsContractingDimensions());
  printPrecisionConfig(p, precision);
}

static ParseResult parsePrecisionConfig(OpAsmParser &parser,
                                       ArrayAttr &precision) {
  if (failed(parser.parseOptionalComma()))
    return success();
  SmallVector<Attribute> values;
  if (parser.parseKeyword("precision") || parser.parseEqual() ||
      parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            llvm::SMLoc loc = parser.getCurrentLocation();
            StringRef keyword;
            if (parser.parseKeyword(&keyword))
              return failure();
            std::optional<Precision> value = symbolizePrecision(keyword);
            if (!value)
              return parser.emitError(loc) << "unknown precision " << keyword;
            values.push_back(PrecisionAttr::get(parser.getContext(), *value));
            return success();
          }))
    return failure();
  precision = ArrayAttr::get(parser.getContext(), values);
  return success();
}

static void printPrecisionConfig(OpAsmPrinter &p, ArrayAttr precision) {
  if (!precision)
    return;
  p << ", precision = [";
  llvm::interleaveComma(precision, p, [&](Attribute attr) {
    p << stringifyPrecision(cast<PrecisionAttr>(attr).getValue());
  });
  p << ']';
}

} // namespace mlir::stablehlo
