//===- CHLODialect.cpp - The chlo dialect ---------------------------------===//

#include "stablehlo-tvm/Dialect/CHLO/IR/CHLO.h"

#include "mlir/IR/Builders.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::chlo;

#include "stablehlo-tvm/Dialect/CHLO/IR/CHLODialect.cpp.inc"

namespace {
struct CHLOInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void CHLODialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "stablehlo-tvm/Dialect/CHLO/IR/CHLOOps.cpp.inc"
      >();
  addInterfaces<CHLOInlinerInterface>();
  // As for stablehlo: ops not defined here still parse in generic form, so
  // that every unsupported op is reported at once.
  allowUnknownOperations();
}

#define GET_OP_CLASSES
#include "stablehlo-tvm/Dialect/CHLO/IR/CHLOOps.cpp.inc"
