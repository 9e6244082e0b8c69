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

static ParseResult parsePrecisionList(OpAsmParser &parser,
                                      ArrayAttr &precision);
static void printPrecisionConfig(OpAsmPrinter &p, ArrayAttr precision);

ParseResult parseDotDimensionNumbers(OpAsmParser &parser,
                                     DotDimensionNumbersAttr &dims,
                                     ArrayAttr &precision,
                                     DotAlgorithmAttr &algorithm) {
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
  // `, precision = [...]` and `, algorithm = <...>`, each optional.
  while (succeeded(parser.parseOptionalComma())) {
    StringRef keyword;
    llvm::SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword) || parser.parseEqual())
      return failure();
    if (keyword == "precision") {
      if (parsePrecisionList(parser, precision))
        return failure();
    } else if (keyword == "algorithm") {
      Attribute attr = DotAlgorithmAttr::parse(parser, Type());
      if (!attr)
        return failure();
      algorithm = cast<DotAlgorithmAttr>(attr);
    } else {
      return parser.emitError(loc, "expected precision or algorithm, got ")
             << keyword;
    }
  }
  return success();
}

void printDotDimensionNumbers(OpAsmPrinter &p, Operation *,
                              DotDimensionNumbersAttr dims,
                              ArrayAttr precision, DotAlgorithmAttr algorithm) {
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
  if (algorithm) {
    p << ", algorithm = ";
    algorithm.print(p);
  }
}

static ParseResult parsePrecisionList(OpAsmParser &parser,
                                      ArrayAttr &precision) {
  SmallVector<Attribute> values;
  if (parser.parseCommaSeparatedList(
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

ParseResult parseComplexOpType(OpAsmParser &parser, Type &lhs, Type &rhs,
                               Type &result) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  Type type;
  if (parser.parseType(type))
    return failure();
  if (auto fnType = dyn_cast<FunctionType>(type)) {
    if (fnType.getNumInputs() != 2 || fnType.getNumResults() != 1)
      return parser.emitError(loc, "expected (lhs, rhs) -> result");
    lhs = fnType.getInput(0);
    rhs = fnType.getInput(1);
    result = fnType.getResult(0);
    return success();
  }
  auto tensor = dyn_cast<RankedTensorType>(type);
  auto complex = tensor ? dyn_cast<ComplexType>(tensor.getElementType())
                        : ComplexType();
  if (!complex)
    return parser.emitError(loc, "expected a tensor of complex numbers");
  lhs = rhs = tensor.clone(complex.getElementType());
  result = type;
  return success();
}

void printComplexOpType(OpAsmPrinter &p, Operation *, Type lhs, Type rhs,
                        Type result) {
  auto tensor = cast<RankedTensorType>(result);
  auto complex = dyn_cast<ComplexType>(tensor.getElementType());
  if (complex && lhs == rhs && lhs == tensor.clone(complex.getElementType())) {
    p << result;
    return;
  }
  p.printFunctionalType(TypeRange{lhs, rhs}, TypeRange(result));
}

ParseResult parseExponentMantissa(OpAsmParser &parser, IntegerAttr &exponent,
                                  IntegerAttr &mantissa) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  unsigned e, m;
  auto [ePart, mPart] = keyword.drop_front().split('m');
  if (!keyword.starts_with("e") || ePart.getAsInteger(10, e) ||
      mPart.getAsInteger(10, m))
    return parser.emitError(loc, "expected a format like e5m10, got ")
           << keyword;
  Builder b(parser.getContext());
  exponent = b.getI32IntegerAttr(e);
  mantissa = b.getI32IntegerAttr(m);
  return success();
}

void printExponentMantissa(OpAsmPrinter &p, Operation *, IntegerAttr exponent,
                           IntegerAttr mantissa) {
  p << 'e' << exponent.getInt() << 'm' << mantissa.getInt();
}

ParseResult parseTupleOpType(OpAsmParser &parser,
                             SmallVectorImpl<Type> &operands, Type &result) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseType(result))
    return failure();
  auto tuple = dyn_cast<TupleType>(result);
  if (!tuple)
    return parser.emitError(loc, "expected a tuple type");
  llvm::append_range(operands, tuple.getTypes());
  return success();
}

void printTupleOpType(OpAsmPrinter &p, Operation *, TypeRange, Type result) {
  p << result;
}

ParseResult parseVariadicSameOperandsAndResultType(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
    SmallVectorImpl<Type> &operandTypes, Type &result) {
  if (parser.parseType(result))
    return failure();
  operandTypes.assign(operands.size(), result);
  return success();
}

void printVariadicSameOperandsAndResultType(OpAsmPrinter &p, Operation *,
                                            OperandRange, TypeRange,
                                            Type result) {
  p << result;
}

ParseResult parsePairwiseOpType(OpAsmParser &parser,
                                SmallVectorImpl<Type> &operands,
                                SmallVectorImpl<Type> &results) {
  if (parser.parseTypeList(operands))
    return failure();
  results.assign(operands.begin(), operands.end());
  return success();
}

void printPairwiseOpType(OpAsmPrinter &p, Operation *, TypeRange operands,
                         TypeRange) {
  llvm::interleaveComma(operands, p);
}

ParseResult parseConvolutionDimensions(AsmParser &parser,
                                       ConvDimensionNumbersAttr &dims) {
  // Each of the three lists names every dimension of its tensor: two letters
  // (b/f for activations, i/o for the kernel) and spatial indices.
  auto parseList = [&](char first, char second, int64_t &firstDim,
                       int64_t &secondDim,
                       SmallVectorImpl<int64_t> &spatial) -> ParseResult {
    llvm::SMLoc loc = parser.getCurrentLocation();
    SmallVector<std::pair<int64_t, int64_t>> spatialAt;
    firstDim = secondDim = -1;
    int64_t position = 0;
    if (parser.parseCommaSeparatedList(
            AsmParser::Delimiter::Square, [&]() -> ParseResult {
              int64_t index = 0;
              OptionalParseResult number = parser.parseOptionalInteger(index);
              if (number.has_value()) {
                if (failed(*number))
                  return failure();
                spatialAt.push_back({index, position++});
                return success();
              }
              StringRef letter;
              llvm::SMLoc letterLoc = parser.getCurrentLocation();
              if (parser.parseKeyword(&letter))
                return failure();
              if (letter.size() == 1 && letter[0] == first)
                firstDim = position++;
              else if (letter.size() == 1 && letter[0] == second)
                secondDim = position++;
              else
                return parser.emitError(letterLoc, "unexpected dimension ")
                       << letter;
              return success();
            }))
      return failure();
    if (firstDim < 0 || secondDim < 0)
      return parser.emitError(loc) << "expected both '" << first << "' and '"
                                   << second << "'";
    llvm::sort(spatialAt);
    for (auto [i, entry] : llvm::enumerate(spatialAt)) {
      if (entry.first != static_cast<int64_t>(i))
        return parser.emitError(loc, "spatial dimensions must be 0, 1, ...");
      spatial.push_back(entry.second);
    }
    return success();
  };
  int64_t inB, inF, kI, kO, outB, outF;
  SmallVector<int64_t> inS, kS, outS;
  if (parseList('b', 'f', inB, inF, inS) || parser.parseKeyword("x") ||
      parseList('i', 'o', kI, kO, kS) || parser.parseArrow() ||
      parseList('b', 'f', outB, outF, outS))
    return failure();
  dims = ConvDimensionNumbersAttr::get(parser.getContext(), inB, inF, inS, kI,
                                       kO, kS, outB, outF, outS);
  return success();
}

void printConvolutionDimensions(AsmPrinter &p, ConvDimensionNumbersAttr dims) {
  auto printList = [&](char first, int64_t firstDim, char second,
                       int64_t secondDim, ArrayRef<int64_t> spatial) {
    int64_t rank = spatial.size() + 2;
    SmallVector<std::string> labels(rank, "?");
    if (firstDim >= 0 && firstDim < rank)
      labels[firstDim] = first;
    if (secondDim >= 0 && secondDim < rank)
      labels[secondDim] = second;
    for (auto [i, d] : llvm::enumerate(spatial))
      if (d >= 0 && d < rank)
        labels[d] = std::to_string(i);
    p << '[';
    llvm::interleaveComma(labels, p);
    p << ']';
  };
  printList('b', dims.getInputBatchDimension(), 'f',
            dims.getInputFeatureDimension(), dims.getInputSpatialDimensions());
  p << 'x';
  printList('i', dims.getKernelInputFeatureDimension(), 'o',
            dims.getKernelOutputFeatureDimension(),
            dims.getKernelSpatialDimensions());
  p << "->";
  printList('b', dims.getOutputBatchDimension(), 'f',
            dims.getOutputFeatureDimension(), dims.getOutputSpatialDimensions());
}

void printConvolutionDimensions(AsmPrinter &p, Operation *,
                                ConvDimensionNumbersAttr dims) {
  printConvolutionDimensions(p, dims);
}

ParseResult parseWindowAttributes(OpAsmParser &parser,
                                  DenseI64ArrayAttr &strides,
                                  DenseIntElementsAttr &padding,
                                  DenseI64ArrayAttr &lhsDilation,
                                  DenseI64ArrayAttr &rhsDilation,
                                  DenseBoolArrayAttr &reversal) {
  MLIRContext *ctx = parser.getContext();
  auto parseField = [&](StringRef name) -> ParseResult {
    llvm::SMLoc loc = parser.getCurrentLocation();
    if (parser.parseEqual())
      return failure();
    if (name == "pad") {
      SmallVector<int64_t> values;
      int64_t rows = 0;
      if (parser.parseCommaSeparatedList(
              AsmParser::Delimiter::Square, [&]() -> ParseResult {
                ++rows;
                SmallVector<int64_t> pair;
                if (parseIntList(parser, pair))
                  return failure();
                if (pair.size() != 2)
                  return parser.emitError(loc, "pad entries are [low, high]");
                llvm::append_range(values, pair);
                return success();
              }))
        return failure();
      auto type = RankedTensorType::get({rows, 2}, IntegerType::get(ctx, 64));
      padding = DenseIntElementsAttr::get(type, values);
      return success();
    }
    if (name == "reverse") {
      SmallVector<bool> values;
      if (parser.parseCommaSeparatedList(
              AsmParser::Delimiter::Square, [&]() -> ParseResult {
                if (succeeded(parser.parseOptionalKeyword("true")))
                  values.push_back(true);
                else if (succeeded(parser.parseOptionalKeyword("false")))
                  values.push_back(false);
                else {
                  int64_t v;
                  if (parser.parseInteger(v))
                    return failure();
                  values.push_back(v != 0);
                }
                return success();
              }))
        return failure();
      reversal = DenseBoolArrayAttr::get(ctx, values);
      return success();
    }
    SmallVector<int64_t> values;
    if (parseIntList(parser, values))
      return failure();
    if (name == "stride")
      strides = DenseI64ArrayAttr::get(ctx, values);
    else if (name == "lhs_dilate")
      lhsDilation = DenseI64ArrayAttr::get(ctx, values);
    else if (name == "rhs_dilate")
      rhsDilation = DenseI64ArrayAttr::get(ctx, values);
    else
      return parser.emitError(loc, "unknown window attribute ") << name;
    return success();
  };
  // Fields come in any order; the closing brace belongs to the format.
  StringRef name;
  while (succeeded(parser.parseOptionalKeyword(
      &name, {"stride", "pad", "lhs_dilate", "rhs_dilate", "reverse"}))) {
    if (parseField(name))
      return failure();
    if (failed(parser.parseOptionalComma()))
      break;
  }
  return success();
}

void printWindowAttributes(OpAsmPrinter &p, Operation *,
                           DenseI64ArrayAttr strides,
                           DenseIntElementsAttr padding,
                           DenseI64ArrayAttr lhsDilation,
                           DenseI64ArrayAttr rhsDilation,
                           DenseBoolArrayAttr reversal) {
  SmallVector<std::function<void()>> fields;
  if (strides)
    fields.push_back([&] {
      p << "stride = ";
      printIntList(p, strides.asArrayRef());
    });
  if (padding)
    fields.push_back([&] {
      p << "pad = [";
      SmallVector<int64_t> values(padding.getValues<int64_t>());
      for (size_t i = 0; i + 1 < values.size(); i += 2) {
        if (i)
          p << ", ";
        p << '[' << values[i] << ", " << values[i + 1] << ']';
      }
      p << ']';
    });
  if (lhsDilation)
    fields.push_back([&] {
      p << "lhs_dilate = ";
      printIntList(p, lhsDilation.asArrayRef());
    });
  if (rhsDilation)
    fields.push_back([&] {
      p << "rhs_dilate = ";
      printIntList(p, rhsDilation.asArrayRef());
    });
  if (reversal)
    fields.push_back([&] {
      p << "reverse = [";
      llvm::interleaveComma(reversal.asArrayRef(), p,
                            [&](bool v) { p << (v ? "true" : "false"); });
      p << ']';
    });
  llvm::interleave(fields, [](auto &f) { f(); }, [&] { p << ", "; });
}

ParseResult parsePrecisionConfigSuffix(OpAsmParser &parser,
                                      ArrayAttr &precision) {
  if (failed(parser.parseOptionalComma()))
    return success();
  if (parser.parseKeyword("precision") || parser.parseEqual())
    return failure();
  return parsePrecisionList(parser, precision);
}

void printPrecisionConfigSuffix(OpAsmPrinter &p, Operation *,
                                ArrayAttr precision) {
  printPrecisionConfig(p, precision);
}

ParseResult parseCustomCallTarget(OpAsmParser &parser, StringAttr &target) {
  return parser.parseSymbolName(target);
}

void printCustomCallTarget(OpAsmPrinter &p, Operation *, StringAttr target) {
  p.printSymbolName(target.getValue());
}

} // namespace mlir::stablehlo
