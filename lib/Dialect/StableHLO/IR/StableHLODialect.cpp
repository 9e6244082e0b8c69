//===- StableHLODialect.cpp - The stablehlo dialect -----------------------===//

#include "AssemblyFormat.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::stablehlo;

#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLODialect.cpp.inc"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLOEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLOAttrs.cpp.inc"

namespace {
// StableHLO ops have value semantics and no side effects that inlining could
// reorder, so any op or region can be inlined.
struct StableHLOInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void StableHLODialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLOOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLOAttrs.cpp.inc"
      >();
  addInterfaces<StableHLOInlinerInterface>();
  // Ops of the opset this build does not define yet still parse (in generic
  // form), so that the import lists every unsupported op at once instead of
  // stopping at the first.
  allowUnknownOperations();
}

//===----------------------------------------------------------------------===//
// #stablehlo.dot<lhs_batching_dimensions = [0], ...>
//===----------------------------------------------------------------------===//

Attribute DotDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> fields[4];
  static constexpr StringLiteral names[4] = {
      "lhs_batching_dimensions", "rhs_batching_dimensions",
      "lhs_contracting_dimensions", "rhs_contracting_dimensions"};
  bool seen[4] = {false, false, false, false};
  auto parseField = [&]() -> ParseResult {
    llvm::SMLoc loc = parser.getCurrentLocation();
    StringRef name;
    if (parser.parseKeyword(&name) || parser.parseEqual())
      return failure();
    auto *it = llvm::find(names, name);
    if (it == std::end(names))
      return parser.emitError(loc) << "unknown dot dimension field " << name;
    size_t index = it - std::begin(names);
    if (seen[index])
      return parser.emitError(loc) << "duplicate field " << name;
    seen[index] = true;
    return parseIntList(parser, fields[index]);
  };
  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater())) {
    if (parser.parseCommaSeparatedList(parseField) || parser.parseGreater())
      return {};
  }
  return DotDimensionNumbersAttr::get(parser.getContext(), fields[0], fields[1],
                                      fields[2], fields[3]);
}

void DotDimensionNumbersAttr::print(AsmPrinter &p) const {
  std::pair<StringRef, ArrayRef<int64_t>> fields[] = {
      {"lhs_batching_dimensions", getLhsBatchingDimensions()},
      {"rhs_batching_dimensions", getRhsBatchingDimensions()},
      {"lhs_contracting_dimensions", getLhsContractingDimensions()},
      {"rhs_contracting_dimensions", getRhsContractingDimensions()}};
  p << '<';
  bool first = true;
  for (auto &[name, values] : fields) {
    if (values.empty())
      continue;
    if (!first)
      p << ", ";
    first = false;
    p << name << " = ";
    printIntList(p, values);
  }
  p << '>';
}
