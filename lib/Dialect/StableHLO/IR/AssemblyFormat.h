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
                                     ArrayAttr &precision);
void printDotDimensionNumbers(OpAsmPrinter &p, Operation *op,
                              DotDimensionNumbersAttr dims,
                              ArrayAttr precision);

//===----------------------------------------------------------------------===//
// `[1, 2, 3]` lists shared by the attribute printers.
//===----------------------------------------------------------------------===//

ParseResult parseIntList(AsmParser &parser, SmallVectorImpl<int64_t> &values);
void printIntList(AsmPrinter &p, ArrayRef<int64_t> values);

} // namespace mlir::stablehlo

#endif // STABLEHLO_TVM_LIB_STABLEHLO_ASSEMBLYFORMAT_H
