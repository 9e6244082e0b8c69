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

namespace mlir {
/// result_accuracy's tolerances are doubles, spelled as MLIR floats.
template <>
struct FieldParser<llvm::APFloat> {
  static FailureOr<llvm::APFloat> parse(AsmParser &parser) {
    double value;
    if (parser.parseFloat(value))
      return failure();
    return llvm::APFloat(value);
  }
};
} // namespace mlir

#define GET_ATTRDEF_CLASSES
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLOAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLOTypes.cpp.inc"

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
  addTypes<
#define GET_TYPEDEF_LIST
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLOTypes.cpp.inc"
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

//===----------------------------------------------------------------------===//
// Structs of dimension lists: `<name = [..], ..., index_vector_dim = N>`
//===----------------------------------------------------------------------===//

namespace {

/// One field of a struct attribute: an integer list or a single integer.
struct Field {
  StringRef name;
  SmallVector<int64_t> list;
  int64_t scalar = 0;
  bool isScalar = false;
  bool seen = false;
};

ParseResult parseFields(AsmParser &parser, MutableArrayRef<Field> fields) {
  if (parser.parseLess())
    return failure();
  if (succeeded(parser.parseOptionalGreater()))
    return success();
  auto parseOne = [&]() -> ParseResult {
    llvm::SMLoc loc = parser.getCurrentLocation();
    StringRef name;
    if (parser.parseKeyword(&name) || parser.parseEqual())
      return failure();
    Field *field = llvm::find_if(fields, [&](Field &f) { return f.name == name; });
    if (field == fields.end())
      return parser.emitError(loc) << "unknown field " << name;
    if (field->seen)
      return parser.emitError(loc) << "duplicate field " << name;
    field->seen = true;
    if (field->isScalar)
      return parser.parseInteger(field->scalar);
    return parseIntList(parser, field->list);
  };
  if (parser.parseCommaSeparatedList(parseOne) || parser.parseGreater())
    return failure();
  return success();
}

/// Prints every field, or only non-empty lists and non-zero scalars.
void printFields(AsmPrinter &p, ArrayRef<Field> fields, bool elideEmpty) {
  p << '<';
  bool first = true;
  for (const Field &field : fields) {
    if (elideEmpty && (field.isScalar ? field.scalar == 0 : field.list.empty()))
      continue;
    if (!first)
      p << ", ";
    first = false;
    p << field.name << " = ";
    if (field.isScalar)
      p << field.scalar;
    else
      printIntList(p, field.list);
  }
  p << '>';
}

Field list(StringRef name, ArrayRef<int64_t> values = {}) {
  Field f;
  f.name = name;
  f.list.assign(values.begin(), values.end());
  return f;
}

Field scalar(StringRef name, int64_t value = 0) {
  Field f;
  f.name = name;
  f.scalar = value;
  f.isScalar = true;
  return f;
}

} // namespace

Attribute GatherDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  Field fields[] = {list("offset_dims"), list("collapsed_slice_dims"),
                    list("operand_batching_dims"),
                    list("start_indices_batching_dims"),
                    list("start_index_map"), scalar("index_vector_dim")};
  if (parseFields(parser, fields))
    return {};
  return get(parser.getContext(), fields[0].list, fields[1].list,
             fields[2].list, fields[3].list, fields[4].list, fields[5].scalar);
}

void GatherDimensionNumbersAttr::print(AsmPrinter &p) const {
  printFields(p,
              {list("offset_dims", getOffsetDims()),
               list("collapsed_slice_dims", getCollapsedSliceDims()),
               list("operand_batching_dims", getOperandBatchingDims()),
               list("start_indices_batching_dims", getStartIndicesBatchingDims()),
               list("start_index_map", getStartIndexMap()),
               scalar("index_vector_dim", getIndexVectorDim())},
              /*elideEmpty=*/true);
}

Attribute ScatterDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  Field fields[] = {list("update_window_dims"), list("inserted_window_dims"),
                    list("input_batching_dims"),
                    list("scatter_indices_batching_dims"),
                    list("scatter_dims_to_operand_dims"),
                    scalar("index_vector_dim")};
  if (parseFields(parser, fields))
    return {};
  return get(parser.getContext(), fields[0].list, fields[1].list,
             fields[2].list, fields[3].list, fields[4].list, fields[5].scalar);
}

void ScatterDimensionNumbersAttr::print(AsmPrinter &p) const {
  printFields(
      p,
      {list("update_window_dims", getUpdateWindowDims()),
       list("inserted_window_dims", getInsertedWindowDims()),
       list("input_batching_dims", getInputBatchingDims()),
       list("scatter_indices_batching_dims", getScatterIndicesBatchingDims()),
       list("scatter_dims_to_operand_dims", getScatterDimsToOperandDims()),
       scalar("index_vector_dim", getIndexVectorDim())},
      /*elideEmpty=*/true);
}

Attribute OutputOperandAliasAttr::parse(AsmParser &parser, Type) {
  Field fields[] = {list("output_tuple_indices"), scalar("operand_index"),
                    list("operand_tuple_indices")};
  if (parseFields(parser, fields))
    return {};
  return get(parser.getContext(), fields[0].list, fields[1].scalar,
             fields[2].list);
}

void OutputOperandAliasAttr::print(AsmPrinter &p) const {
  printFields(p,
              {list("output_tuple_indices", getOutputTupleIndices()),
               scalar("operand_index", getOperandIndex()),
               list("operand_tuple_indices", getOperandTupleIndices())},
              /*elideEmpty=*/false);
}

Attribute ConvDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  ConvDimensionNumbersAttr dims;
  if (parser.parseLess() || parseConvolutionDimensions(parser, dims) ||
      parser.parseGreater())
    return {};
  return dims;
}

void ConvDimensionNumbersAttr::print(AsmPrinter &p) const {
  p << '<';
  printConvolutionDimensions(p, *this);
  p << '>';
}

Attribute ChannelHandleAttr::parse(AsmParser &parser, Type) {
  Field fields[] = {scalar("handle"), scalar("type")};
  if (parseFields(parser, fields))
    return {};
  return get(parser.getContext(), fields[0].scalar, fields[1].scalar);
}

void ChannelHandleAttr::print(AsmPrinter &p) const {
  printFields(p, {scalar("handle", getHandle()), scalar("type", getType())},
              /*elideEmpty=*/false);
}

Attribute TypeExtensionsAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> bounds;
  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater())) {
    if (parser.parseCommaSeparatedList([&]() -> ParseResult {
          if (succeeded(parser.parseOptionalQuestion())) {
            bounds.push_back(ShapedType::kDynamic);
            return success();
          }
          return parser.parseInteger(bounds.emplace_back());
        }) ||
        parser.parseGreater())
      return {};
  }
  return get(parser.getContext(), bounds);
}

void TypeExtensionsAttr::print(AsmPrinter &p) const {
  p << '<';
  llvm::interleaveComma(getBounds(), p, [&](int64_t bound) {
    if (ShapedType::isDynamic(bound))
      p << '?';
    else
      p << bound;
  });
  p << '>';
}
