//===- AssemblyFormat.h - Custom directives of the pretty syntax -*- C++ -*-===//
//
// The pieces of StableHLO's pretty syntax that the declarative format cannot
// spell by itself. Each `custom<X>` directive in StableHLOOps.td has a
// parseX/printX pair here.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_LIB_STABLEHLO_ASSEMBLYFORMAT_H
#define STABLEHLO_TVM_LIB_STABLEHLO_ASSEMBLYFORMAT_H

#include "mlir/IR/OpImplementation.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

namespace mlir::stablehlo {

//===----------------------------------------------------------------------===//
// `: T` when every operand and the result have type T, else `: (A, B) -> R`.
//===----------------------------------------------------------------------===//

ParseResult parseSameOperandsAndResultTypeImpl(OpAsmParser &parser,
                                               ArrayRef<Type *> operands,
                                               Type &result);
void printSameOperandsAndResultTypeImpl(OpAsmPrinter &p, Operation *op,
                                        TypeRange operands, Type result);

template <typename... Types>
ParseResult parseSameOperandsAndResultType(OpAsmParser &parser,
                                           Types &...types) {
  constexpr size_t n = sizeof...(Types);
  Type *all[n] = {&types...};
  return parseSameOperandsAndResultTypeImpl(
      parser, ArrayRef<Type *>(all, n - 1), *all[n - 1]);
}

template <typename... Types>
void printSameOperandsAndResultType(OpAsmPrinter &p, Operation *op,
                                    Types... types) {
  constexpr size_t n = sizeof...(Types);
  Type all[n] = {types...};
  printSameOperandsAndResultTypeImpl(p, op, ArrayRef<Type>(all, n - 1),
                                     all[n - 1]);
}

//===----------------------------------------------------------------------===//
// select: `: predType, resultType` when both branches have the result type.
//===----------------------------------------------------------------------===//

ParseResult parseSelectOpType(OpAsmParser &parser, Type &pred, Type &onTrue,
                              Type &onFalse, Type &result);
void printSelectOpType(OpAsmPrinter &p, Operation *op, Type pred, Type onTrue,
                       Type onFalse, Type result);

//===----------------------------------------------------------------------===//
// slice: `[start:limit, start:limit:stride, ...]`.
//===----------------------------------------------------------------------===//

ParseResult parseSliceRanges(OpAsmParser &parser, DenseI64ArrayAttr &start,
                             DenseI64ArrayAttr &limit,
                             DenseI64ArrayAttr &strides);
void printSliceRanges(OpAsmPrinter &p, Operation *op, DenseI64ArrayAttr start,
                      DenseI64ArrayAttr limit, DenseI64ArrayAttr strides);

//===----------------------------------------------------------------------===//
// Operands each followed by a comma, before a keyword: `%a, %b, dim = 0`.
//===----------------------------------------------------------------------===//

ParseResult parseVariadicOperandWithAttribute(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands);
void printVariadicOperandWithAttribute(OpAsmPrinter &p, Operation *op,
                                       OperandRange operands);

//===----------------------------------------------------------------------===//
// dot_general: `batching_dims = [0] x [0], contracting_dims = [2] x [1]` and
// `, precision = [DEFAULT, DEFAULT]`.
//===----------------------------------------------------------------------===//

ParseResult parseDotDimensionNumbers(OpAsmParser &parser,
                                     DotDimensionNumbersAttr &dims,
                                     ArrayAttr &precision,
                                     DotAlgorithmAttr &algorithm);
void printDotDimensionNumbers(OpAsmPrinter &p, Operation *op,
                              DotDimensionNumbersAttr dims,
                              ArrayAttr precision, DotAlgorithmAttr algorithm);

/// dot: an optional `, precision = [...]` after the operands.
ParseResult parsePrecisionConfigSuffix(OpAsmParser &parser,
                                              ArrayAttr &precision);
void printPrecisionConfigSuffix(OpAsmPrinter &p, Operation *op,
                                ArrayAttr precision);

//===----------------------------------------------------------------------===//
// `[1, 2, 3]` lists shared by the attribute printers.
//===----------------------------------------------------------------------===//

ParseResult parseIntList(AsmParser &parser, SmallVectorImpl<int64_t> &values);

/// An attribute of type T in its full spelling, for struct parameters.
template <typename T>
FailureOr<T> parseFullAttribute(AsmParser &parser) {
  Attribute attr;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseAttribute(attr))
    return failure();
  if (auto typed = dyn_cast<T>(attr))
    return typed;
  return parser.emitError(loc, "unexpected attribute ") << attr;
}
void printIntList(AsmPrinter &p, ArrayRef<int64_t> values);

//===----------------------------------------------------------------------===//
// complex: `: tensor<4xcomplex<f32>>` stands for (tensor<4xf32>, tensor<4xf32>).
//===----------------------------------------------------------------------===//

ParseResult parseComplexOpType(OpAsmParser &parser, Type &lhs, Type &rhs,
                               Type &result);
void printComplexOpType(OpAsmPrinter &p, Operation *op, Type lhs, Type rhs,
                        Type result);

//===----------------------------------------------------------------------===//
// reduce_precision: `format = e5m10`.
//===----------------------------------------------------------------------===//

ParseResult parseExponentMantissa(OpAsmParser &parser, IntegerAttr &exponent,
                                  IntegerAttr &mantissa);
void printExponentMantissa(OpAsmPrinter &p, Operation *op, IntegerAttr exponent,
                           IntegerAttr mantissa);

//===----------------------------------------------------------------------===//
// tuple: `: tuple<A, B>` gives the operand types.
//===----------------------------------------------------------------------===//

ParseResult parseTupleOpType(OpAsmParser &parser,
                             SmallVectorImpl<Type> &operands, Type &result);
void printTupleOpType(OpAsmPrinter &p, Operation *op, TypeRange operands,
                      Type result);

//===----------------------------------------------------------------------===//
// after_all: one type for every operand and the result.
//===----------------------------------------------------------------------===//

ParseResult parseVariadicSameOperandsAndResultType(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
    SmallVectorImpl<Type> &operandTypes, Type &result);
void printVariadicSameOperandsAndResultType(OpAsmPrinter &p, Operation *op,
                                            OperandRange operands,
                                            TypeRange operandTypes,
                                            Type result);

//===----------------------------------------------------------------------===//
// optimization_barrier: each result has its operand's type.
//===----------------------------------------------------------------------===//

ParseResult parsePairwiseOpType(OpAsmParser &parser,
                                SmallVectorImpl<Type> &operands,
                                SmallVectorImpl<Type> &results);
void printPairwiseOpType(OpAsmPrinter &p, Operation *op, TypeRange operands,
                         TypeRange results);

//===----------------------------------------------------------------------===//
// convolution: `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` and
// `window = {stride = [..], pad = [[..], ..], lhs_dilate = [..], ...}`.
//===----------------------------------------------------------------------===//

ParseResult parseConvolutionDimensions(AsmParser &parser,
                                       ConvDimensionNumbersAttr &dims);
void printConvolutionDimensions(AsmPrinter &p, Operation *op,
                                ConvDimensionNumbersAttr dims);
void printConvolutionDimensions(AsmPrinter &p, ConvDimensionNumbersAttr dims);

ParseResult parseWindowAttributes(OpAsmParser &parser,
                                  DenseI64ArrayAttr &strides,
                                  DenseIntElementsAttr &padding,
                                  DenseI64ArrayAttr &lhsDilation,
                                  DenseI64ArrayAttr &rhsDilation,
                                  DenseBoolArrayAttr &reversal);
void printWindowAttributes(OpAsmPrinter &p, Operation *op,
                           DenseI64ArrayAttr strides,
                           DenseIntElementsAttr padding,
                           DenseI64ArrayAttr lhsDilation,
                           DenseI64ArrayAttr rhsDilation,
                           DenseBoolArrayAttr reversal);

//===----------------------------------------------------------------------===//
// custom_call: `@target`.
//===----------------------------------------------------------------------===//

ParseResult parseCustomCallTarget(OpAsmParser &parser, StringAttr &target);
void printCustomCallTarget(OpAsmPrinter &p, Operation *op, StringAttr target);

} // namespace mlir::stablehlo

#endif // STABLEHLO_TVM_LIB_STABLEHLO_ASSEMBLYFORMAT_H
