//===- CheckDialect.cpp - The check dialect -------------------------------===//

#include "stablehlo-tvm/Dialect/Check/IR/Check.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::check;

#include "stablehlo-tvm/Dialect/Check/IR/CheckDialect.cpp.inc"

void CheckDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "stablehlo-tvm/Dialect/Check/IR/CheckOps.cpp.inc"
      >();
}

/// `(, min_ulp_difference = N)? (, max_ulp_difference = N)?`; a bound left
/// out keeps its default.
static ParseResult parseUlpRange(OpAsmParser &parser, IntegerAttr &min,
                                 IntegerAttr &max) {
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    int64_t value;
    SMLoc at = parser.getCurrentLocation();
    if (parser.parseKeyword(&key) || parser.parseEqual() ||
        parser.parseInteger(value))
      return failure();
    IntegerAttr attr = parser.getBuilder().getI64IntegerAttr(value);
    if (key == "min_ulp_difference")
      min = attr;
    else if (key == "max_ulp_difference")
      max = attr;
    else
      return parser.emitError(at) << "expected min_ulp_difference or "
                                     "max_ulp_difference, got '"
                                  << key << "'";
  }
  return success();
}

static void printUlpRange(OpAsmPrinter &printer, ExpectCloseOp op,
                          IntegerAttr, IntegerAttr) {
  if (op.getMinUlpDifference() != 0)
    printer << ", min_ulp_difference = " << op.getMinUlpDifference();
  if (op.getMaxUlpDifference() != 3)
    printer << ", max_ulp_difference = " << op.getMaxUlpDifference();
}

#define GET_OP_CLASSES
#include "stablehlo-tvm/Dialect/Check/IR/CheckOps.cpp.inc"
