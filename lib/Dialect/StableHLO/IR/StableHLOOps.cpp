//===- StableHLOOps.cpp - Verifiers and hand-written syntax ---------------===//
//
// Verifiers check the constraints of the StableHLO specification that catch
// real mistakes (ranks, dimension numbers, result shapes) and report them in
// the spec's terms.
//
//===----------------------------------------------------------------------===//

#include "AssemblyFormat.h"
#include "VerifierUtils.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/InterleavedRange.h"

using namespace mlir;
using namespace mlir::stablehlo;

LogicalResult mlir::stablehlo::verifyDimensionList(Operation *op,
                                                  StringRef what,
                                                  ArrayRef<int64_t> dims,
                                                  int64_t rank, bool sorted) {
  llvm::SmallBitVector seen(std::max<int64_t>(rank, 0));
  int64_t previous = -1;
  for (int64_t dim : dims) {
    if (dim < 0 || dim >= rank)
      return op->emitOpError() << what << " " << dim
                               << " is out of range [0, " << rank << ")";
    if (seen.test(dim))
      return op->emitOpError() << what << " " << dim << " appears twice";
    if (sorted && dim < previous)
      return op->emitOpError() << what << " must be sorted";
    seen.set(dim);
    previous = dim;
  }
  return success();
}

LogicalResult mlir::stablehlo::verifyDimensionIndex(Operation *op,
                                                   StringRef what,
                                                   uint64_t dimension,
                                                   int64_t rank) {
  auto dim = static_cast<int64_t>(dimension);
  if (dim < 0 || dim >= rank)
    return op->emitOpError() << what << " " << dim << " is out of range [0, "
                             << rank << ")";
  return success();
}

bool mlir::stablehlo::compatibleDims(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

int64_t mlir::stablehlo::numReturned(Block &block) {
  if (block.empty() || !block.back().mightHaveTrait<OpTrait::IsTerminator>())
    return -1;
  return block.back().getNumOperands();
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

bool mlir::stablehlo::haveSameBaselineElementType(Type a, Type b) {
  if (a == b)
    return true;
  auto qa = dyn_cast<quant::QuantizedType>(a);
  auto qb = dyn_cast<quant::QuantizedType>(b);
  return qa && qb && qa.getStorageType() == qb.getStorageType() &&
         qa.isSigned() == qb.isSigned() &&
         qa.getStorageTypeMin() == qb.getStorageTypeMin() &&
         qa.getStorageTypeMax() == qb.getStorageTypeMax() &&
         qa.getExpressedType() == qb.getExpressedType();
}

LogicalResult
mlir::OpTrait::stablehlo::verifySameBaselineOperandsAndResultType(
    Operation *op) {
  if (failed(impl::verifySameOperandsAndResultShape(op)))
    return failure();
  Type reference = getElementTypeOrSelf(op->getResult(0));
  auto agrees = [&](Type type) {
    return mlir::stablehlo::haveSameBaselineElementType(
        getElementTypeOrSelf(type), reference);
  };
  if (!llvm::all_of(op->getOperandTypes(), agrees) ||
      !llvm::all_of(op->getResultTypes(), agrees))
    return op->emitOpError(
        "requires the same type for all operands and results (quantized "
        "types may differ in scales and zero points only)");
  return success();
}

LogicalResult AbsOp::verify() {
  Type operandElement = getOperand().getType().getElementType();
  Type resultElement = getResult().getType().getElementType();
  Type expected = operandElement;
  if (auto complex = dyn_cast<ComplexType>(operandElement))
    expected = complex.getElementType();
  if (isa<quant::QuantizedType>(operandElement)
          ? !haveSameBaselineElementType(resultElement, operandElement)
          : resultElement != expected)
    return emitOpError() << "result element type " << resultElement
                         << " must be " << expected;
  return success();
}

/// real's and imag's (C1, C2): a floating-point or complex operand, and a
/// result of its part type (a complex number's component type).
static LogicalResult verifyPartOf(Operation *op, Type operandElement,
                                  Type resultElement) {
  Type expected = operandElement;
  if (auto complex = dyn_cast<ComplexType>(operandElement))
    expected = complex.getElementType();
  else if (!isa<FloatType>(operandElement))
    return op->emitOpError() << "(C1) operand element type " << operandElement
                             << " must be floating-point or complex";
  if (resultElement != expected)
    return op->emitOpError() << "(C2) result element type " << resultElement
                             << " must be " << expected;
  return success();
}

LogicalResult RealOp::verify() {
  return verifyPartOf(*this, getOperand().getType().getElementType(),
                      getResult().getType().getElementType());
}

LogicalResult ImagOp::verify() {
  return verifyPartOf(*this, getOperand().getType().getElementType(),
                      getResult().getType().getElementType());
}

LogicalResult CompareOp::verify() {
  if (!haveSameBaselineElementType(getLhs().getType().getElementType(),
                                   getRhs().getType().getElementType()))
    return emitOpError("requires the same element type for both operands "
                       "(quantized types may differ in scales and zero "
                       "points only)");
  return success();
}

LogicalResult UniformQuantizeOp::verify() {
  Type operand = getOperand().getType().getElementType();
  auto result = dyn_cast<quant::QuantizedType>(getResult().getType().getElementType());
  if (!result)
    return emitOpError("result must be a tensor of a quantized type");
  if (!isa<FloatType, quant::QuantizedType>(operand))
    return emitOpError("operand must be a tensor of floats or of a quantized type");
  return success();
}

LogicalResult UniformDequantizeOp::verify() {
  auto operand = dyn_cast<quant::QuantizedType>(getOperand().getType().getElementType());
  if (!operand)
    return emitOpError("operand must be a tensor of a quantized type");
  Type result = getResult().getType().getElementType();
  if (result != operand.getExpressedType())
    return emitOpError() << "result element type " << result
                         << " must be the expressed type "
                         << operand.getExpressedType();
  return success();
}

LogicalResult SelectOp::verify() {
  auto predType = getPred().getType();
  auto resultType = getResult().getType();
  if (getOnTrue().getType() != resultType ||
      getOnFalse().getType() != resultType)
    return emitOpError("on_true, on_false and result must have the same type");
  if (predType.getRank() != 0 &&
      predType.getShape() != resultType.getShape())
    return emitOpError("pred must be a scalar or have the shape of on_true");
  return success();
}

//===----------------------------------------------------------------------===//
// Constants and data movement
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, ValueRange,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  ConstantOp::Adaptor adaptor(ValueRange(), attributes, properties);
  if (!adaptor.getValue())
    return emitOptionalError(location, "stablehlo.constant needs a value");
  inferredReturnTypes.push_back(adaptor.getValue().getType());
  return success();
}

/// A quantized constant's value holds its storage integers.
bool ConstantOp::isCompatibleReturnTypes(TypeRange inferred, TypeRange actual) {
  if (inferred == actual)
    return true;
  if (inferred.size() != 1 || actual.size() != 1)
    return false;
  auto value = dyn_cast<RankedTensorType>(inferred.front());
  auto result = dyn_cast<RankedTensorType>(actual.front());
  if (!value || !result || value.getShape() != result.getShape())
    return false;
  auto quantized = dyn_cast<quant::QuantizedType>(result.getElementType());
  return quantized && quantized.getStorageType() == value.getElementType();
}

/// A constant's value is a whole tensor: its type has a static shape. An
/// elements attribute of a dynamic type can be built (a pass did, silently)
/// but describes no value.
LogicalResult ConstantOp::verify() {
  if (!getType().hasStaticShape())
    return emitOpError() << "result type " << getType()
                         << " must have a static shape";
  return success();
}

ConstantOp ConstantOp::createZeroScalar(OpBuilder &builder, Location loc,
                                        Type elementType) {
  auto type = RankedTensorType::get({}, elementType);
  return ConstantOp::create(builder, loc, type,
                            cast<ElementsAttr>(builder.getZeroAttr(type)));
}

OpFoldResult ConstantOp::fold(FoldAdaptor) {
  if (getValue().getType() != getType())
    return {};
  return getValue();
}

ParseResult ConstantOp::parse(OpAsmParser &parser, OperationState &result) {
  Properties &properties = result.getOrAddProperties<Properties>();
  if (succeeded(parser.parseOptionalLParen())) {
    // `() <{value = V}> : () -> T`: V's type is not T (a quantized T).
    DictionaryAttr dict;
    FunctionType type;
    SMLoc at = parser.getCurrentLocation();
    if (parser.parseRParen() || parser.parseLess() ||
        parser.parseAttribute(dict) || parser.parseGreater() ||
        parser.parseOptionalAttrDict(result.attributes) ||
        parser.parseColonType(type))
      return failure();
    auto value = dyn_cast_or_null<ElementsAttr>(dict.get("value"));
    if (!value || dict.size() != 1)
      return parser.emitError(at, "expected <{value = elements}>");
    if (type.getNumInputs() != 0 || type.getNumResults() != 1)
      return parser.emitError(at, "expected a type () -> tensor");
    properties.value = value;
    result.addTypes(type.getResults());
    return success();
  }
  Attribute value;
  SMLoc at = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseAttribute(value))
    return failure();
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements)
    return parser.emitError(at, "expected an elements attribute");
  properties.value = elements;
  result.addTypes(elements.getType());
  return success();
}

void ConstantOp::print(OpAsmPrinter &p) {
  if (getValue().getType() != getType()) {
    p << "() <{value = ";
    p.printAttribute(getValue());
    p << "}>";
    p.printOptionalAttrDict((*this)->getDiscardableAttrDictionary().getValue());
    p << " : ";
    p.printFunctionalType(TypeRange(), getOperation()->getResultTypes());
    return;
  }
  p.printOptionalAttrDict((*this)->getDiscardableAttrDictionary().getValue());
  p << ' ';
  p.printAttribute(getValue());
}

/// `%cst` for floating-point (and quantized) constants, `%c` for the
/// others, as jaxlib names them.
void ConstantOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  Type element = getType().getElementType();
  setNameFn(getResult(),
            isa<FloatType, quant::QuantizedType>(element) ? "cst" : "c");
}

LogicalResult IotaOp::verify() {
  auto type = getOutput().getType();
  if (type.getRank() == 0)
    return emitOpError("output must have rank >= 1");
  return verifyDimensionIndex(*this, "iota_dimension", getIotaDimension(),
                              type.getRank());
}

/// broadcast_in_dim's and dynamic_broadcast_in_dim's constraints on their
/// dimension mapping: one entry per operand dimension (C2), unique result
/// dimensions (C3, C4), each operand dimension 1 or its result dimension's
/// size (C5).
static LogicalResult verifyBroadcastDimensions(Operation *op,
                                               ShapedType operandType,
                                               ShapedType resultType,
                                               ArrayRef<int64_t> dims) {
  if (static_cast<int64_t>(dims.size()) != operandType.getRank())
    return op->emitOpError() << "broadcast_dimensions has " << dims.size()
                             << " entries, the operand has rank "
                             << operandType.getRank();
  if (failed(verifyDimensionList(op, "broadcast dimension", dims,
                                 resultType.getRank())))
    return failure();
  for (auto [i, dim] : llvm::enumerate(dims)) {
    int64_t operandDim = operandType.getDimSize(i);
    int64_t resultDim = resultType.getDimSize(dim);
    if (operandDim != 1 && !compatibleDims(operandDim, resultDim))
      return op->emitOpError()
             << "operand dimension " << i << " of size " << operandDim
             << " cannot broadcast to result dimension " << dim << " of size "
             << resultDim;
  }
  return success();
}

LogicalResult BroadcastInDimOp::verify() {
  return verifyBroadcastDimensions(*this, getOperand().getType(),
                                   getResult().getType(),
                                   getBroadcastDimensions());
}

LogicalResult DynamicBroadcastInDimOp::verify() {
  auto operandType = cast<ShapedType>(getOperand().getType());
  auto resultType = cast<ShapedType>(getResult().getType());
  if (failed(verifyBroadcastDimensions(*this, operandType, resultType,
                                       getBroadcastDimensions())))
    return failure();
  // C7: one output dimension per result dimension.
  auto shapeType = cast<ShapedType>(getOutputDimensions().getType());
  if (shapeType.hasStaticShape() &&
      shapeType.getNumElements() != resultType.getRank())
    return emitOpError() << "output_dimensions has "
                         << shapeType.getNumElements()
                         << " elements, the result has rank "
                         << resultType.getRank();
  // C5, C6: the known (non)expanding dimensions are distinct operand
  // dimensions.
  llvm::SmallDenseSet<int64_t> known;
  for (std::optional<ArrayRef<int64_t>> list :
       {getKnownExpandingDimensions(), getKnownNonexpandingDimensions()}) {
    if (!list)
      continue;
    for (int64_t dim : *list) {
      if (dim < 0 || dim >= operandType.getRank())
        return emitOpError() << "known dimension " << dim
                             << " is not a dimension of the operand (rank "
                             << operandType.getRank() << ")";
      if (!known.insert(dim).second)
        return emitOpError() << "known dimension " << dim
                             << " is listed twice";
    }
  }
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto operandType = getOperand().getType();
  auto resultType = getResult().getType();
  if (operandType.hasStaticShape() && resultType.hasStaticShape() &&
      operandType.getNumElements() != resultType.getNumElements())
    return emitOpError() << "operand has " << operandType.getNumElements()
                         << " elements, result has "
                         << resultType.getNumElements();
  return success();
}

LogicalResult TransposeOp::verify() {
  auto operandType = getOperand().getType();
  auto resultType = getResult().getType();
  ArrayRef<int64_t> perm = getPermutation();
  if (static_cast<int64_t>(perm.size()) != operandType.getRank())
    return emitOpError() << "permutation has " << perm.size()
                         << " entries, the operand has rank "
                         << operandType.getRank();
  if (failed(verifyDimensionList(*this, "permutation entry", perm,
                                 operandType.getRank())))
    return failure();
  for (auto [i, dim] : llvm::enumerate(perm))
    if (!compatibleDims(resultType.getDimSize(i), operandType.getDimSize(dim)))
      return emitOpError() << "result dimension " << i << " must have size "
                           << operandType.getDimSize(dim);
  return success();
}

LogicalResult SliceOp::verify() {
  auto operandType = getOperand().getType();
  auto resultType = getResult().getType();
  int64_t rank = operandType.getRank();
  if (static_cast<int64_t>(getStartIndices().size()) != rank ||
      static_cast<int64_t>(getLimitIndices().size()) != rank ||
      static_cast<int64_t>(getStrides().size()) != rank)
    return emitOpError() << "start_indices, limit_indices and strides must "
                         << "each have " << rank << " entries";
  for (int64_t i = 0; i < rank; ++i) {
    int64_t start = getStartIndices()[i], limit = getLimitIndices()[i];
    int64_t stride = getStrides()[i], size = operandType.getDimSize(i);
    if (stride <= 0)
      return emitOpError() << "stride " << stride << " must be positive";
    if (start < 0 || start > limit ||
        (!ShapedType::isDynamic(size) && limit > size))
      return emitOpError() << "slice [" << start << ":" << limit
                           << "] is out of bounds of dimension " << i
                           << " of size " << size;
    int64_t expected = (limit - start + stride - 1) / stride;
    if (!compatibleDims(resultType.getDimSize(i), expected))
      return emitOpError() << "result dimension " << i << " must have size "
                           << expected;
  }
  return success();
}

LogicalResult ConcatenateOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  auto resultType = getResult().getType();
  int64_t rank = resultType.getRank();
  int64_t dim = getDimension();
  if (dim >= rank)
    return emitOpError() << "dimension " << dim << " is out of range [0, "
                         << rank << ")";
  int64_t total = 0;
  for (Value input : getInputs()) {
    auto type = cast<RankedTensorType>(input.getType());
    if (type.getRank() != rank)
      return emitOpError("all inputs must have the rank of the result");
    for (int64_t i = 0; i < rank; ++i)
      if (i != dim &&
          !compatibleDims(type.getDimSize(i), resultType.getDimSize(i)))
        return emitOpError() << "inputs differ from the result in dimension "
                             << i;
    if (ShapedType::isDynamic(type.getDimSize(dim)) ||
        ShapedType::isDynamic(total))
      total = ShapedType::kDynamic;
    else
      total += type.getDimSize(dim);
  }
  if (!compatibleDims(total, resultType.getDimSize(dim)))
    return emitOpError() << "result dimension " << dim << " must have size "
                         << total;
  return success();
}

//===----------------------------------------------------------------------===//
// dot_general
//===----------------------------------------------------------------------===//

LogicalResult DotGeneralOp::verify() {
  auto lhsType = getLhs().getType();
  auto rhsType = getRhs().getType();
  auto resultType = getResult().getType();
  DotDimensionNumbersAttr dims = getDotDimensionNumbers();
  ArrayRef<int64_t> lhsBatch = dims.getLhsBatchingDimensions();
  ArrayRef<int64_t> rhsBatch = dims.getRhsBatchingDimensions();
  ArrayRef<int64_t> lhsContract = dims.getLhsContractingDimensions();
  ArrayRef<int64_t> rhsContract = dims.getRhsContractingDimensions();
  if (lhsBatch.size() != rhsBatch.size())
    return emitOpError("lhs and rhs must have as many batching dimensions");
  if (lhsContract.size() != rhsContract.size())
    return emitOpError("lhs and rhs must have as many contracting dimensions");
  SmallVector<int64_t> lhsDims(lhsBatch), rhsDims(rhsBatch);
  llvm::append_range(lhsDims, lhsContract);
  llvm::append_range(rhsDims, rhsContract);
  if (failed(verifyDimensionList(*this, "lhs batching/contracting dimension",
                                 lhsDims, lhsType.getRank())) ||
      failed(verifyDimensionList(*this, "rhs batching/contracting dimension",
                                 rhsDims, rhsType.getRank())))
    return failure();
  for (auto [l, r] : llvm::zip(lhsDims, rhsDims))
    if (!compatibleDims(lhsType.getDimSize(l), rhsType.getDimSize(r)))
      return emitOpError() << "lhs dimension " << l << " and rhs dimension "
                           << r << " must have the same size";
  SmallVector<int64_t> expected;
  for (int64_t d : lhsBatch)
    expected.push_back(lhsType.getDimSize(d));
  for (int64_t d = 0; d < lhsType.getRank(); ++d)
    if (!llvm::is_contained(lhsDims, d))
      expected.push_back(lhsType.getDimSize(d));
  for (int64_t d = 0; d < rhsType.getRank(); ++d)
    if (!llvm::is_contained(rhsDims, d))
      expected.push_back(rhsType.getDimSize(d));
  if (static_cast<int64_t>(expected.size()) != resultType.getRank() ||
      !llvm::all_of(llvm::zip(expected, resultType.getShape()), [](auto p) {
        return compatibleDims(std::get<0>(p), std::get<1>(p));
      }))
    return emitOpError() << "result shape must be batch, lhs free, rhs free "
                         << "dimensions: [" << llvm::interleaved(expected)
                         << "]";
  if (auto precision = getPrecisionConfigAttr())
    if (precision.size() != 0 && precision.size() != 2)
      return emitOpError("precision_config must have 0 or 2 entries");
  return success();
}

//===----------------------------------------------------------------------===//
// reduce
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  size_t n = getInputs().size();
  if (n == 0)
    return emitOpError("needs at least one input");
  auto firstType = cast<RankedTensorType>(getInputs().front().getType());
  for (Value input : getInputs())
    if (cast<RankedTensorType>(input.getType()).getShape() !=
        firstType.getShape())
      return emitOpError("all inputs must have the same shape");
  if (failed(verifyDimensionList(*this, "dimension", getDimensions(),
                                 firstType.getRank())))
    return failure();
  SmallVector<int64_t> expected;
  for (int64_t d = 0; d < firstType.getRank(); ++d)
    if (!llvm::is_contained(getDimensions(), d))
      expected.push_back(firstType.getDimSize(d));
  if (getNumResults() != n)
    return emitOpError() << "must have " << n << " results";
  for (auto [i, result] : llvm::enumerate(getResults())) {
    auto type = cast<RankedTensorType>(result.getType());
    if (type.getShape() != ArrayRef<int64_t>(expected))
      return emitOpError() << "result " << i << " must have shape ["
                           << llvm::interleaved(expected) << "]";
  }
  Block &body = getBody().front();
  if (body.getNumArguments() != 2 * n)
    return emitOpError() << "body must take " << 2 * n << " arguments";
  if (numReturned(body) != static_cast<int64_t>(n) ||
      !isa<ReturnOp>(body.back()))
    return emitOpError() << "body must return " << n << " values";
  return success();
}

/// The compact form `applies stablehlo.add` stands for a body made of one
/// binary stablehlo op applied to the two block arguments in order.
static Operation *getCompactReducer(ReduceOp op) {
  if (op.getInputs().size() != 1)
    return nullptr;
  Block &body = op.getBody().front();
  if (body.getNumArguments() != 2 || !llvm::hasNItems(body, 2))
    return nullptr;
  Operation &inner = body.front();
  auto ret = dyn_cast<ReturnOp>(body.back());
  Type initType = op.getInitValues().front().getType();
  if (!ret || inner.getDialect() != op->getDialect() ||
      inner.getNumOperands() != 2 || inner.getNumResults() != 1 ||
      inner.getNumRegions() != 0 || !inner.getAttrs().empty() ||
      inner.getOperand(0) != body.getArgument(0) ||
      inner.getOperand(1) != body.getArgument(1) ||
      ret.getNumOperands() != 1 || ret.getOperand(0) != inner.getResult(0) ||
      inner.getResult(0).getType() != initType ||
      body.getArgument(0).getType() != initType ||
      body.getArgument(1).getType() != initType)
    return nullptr;
  return &inner;
}

void ReduceOp::print(OpAsmPrinter &p) {
  size_t n = getInputs().size();
  for (size_t i = 0; i < n; ++i) {
    if (i)
      p << ", ";
    p << '(' << getInputs()[i] << " init: " << getInitValues()[i] << ')';
  }
  Operation *compact = getCompactReducer(*this);
  if (compact)
    p << " applies " << compact->getName();
  p << " across dimensions = ";
  printIntList(p, getDimensions());
  p.printOptionalAttrDict((*this)->getDiscardableAttrDictionary().getValue());
  p << " : ";
  p.printFunctionalType(*this);
  if (compact)
    return;
  p.printNewline();
  p << " reducer";
  Block &body = getBody().front();
  for (size_t i = 0; i < n; ++i) {
    p << '(';
    p.printRegionArgument(body.getArgument(i));
    p << ", ";
    p.printRegionArgument(body.getArgument(i + n));
    p << ") ";
  }
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

ParseResult ReduceOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> inputs, inits;
  do {
    OpAsmParser::UnresolvedOperand input, init;
    if (parser.parseLParen() || parser.parseOperand(input) ||
        parser.parseKeyword("init") || parser.parseColon() ||
        parser.parseOperand(init) || parser.parseRParen())
      return failure();
    inputs.push_back(input);
    inits.push_back(init);
  } while (succeeded(parser.parseOptionalComma()));

  std::optional<OperationName> reducerName;
  llvm::SMLoc reducerLoc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("applies"))) {
    reducerLoc = parser.getCurrentLocation();
    FailureOr<OperationName> name = parser.parseCustomOperationName();
    if (failed(name))
      return failure();
    reducerName = *name;
  }

  SmallVector<int64_t> dims;
  FunctionType fnType;
  llvm::SMLoc typeLoc;
  if (parser.parseKeyword("across") || parser.parseKeyword("dimensions") ||
      parser.parseEqual() || parseIntList(parser, dims) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.getCurrentLocation(&typeLoc) || parser.parseType(fnType))
    return failure();
  size_t n = inputs.size();
  if (fnType.getNumInputs() != 2 * n)
    return parser.emitError(typeLoc)
           << "expected " << 2 * n << " operand types";
  ArrayRef<Type> types = fnType.getInputs();
  if (parser.resolveOperands(inputs, types.take_front(n), typeLoc,
                             result.operands) ||
      parser.resolveOperands(inits, types.drop_front(n), typeLoc,
                             result.operands))
    return failure();
  result.addTypes(fnType.getResults());
  result.getOrAddProperties<ReduceOp::Properties>().dimensions =
      DenseI64ArrayAttr::get(parser.getContext(), dims);

  Region *body = result.addRegion();
  if (reducerName) {
    if (n != 1)
      return parser.emitError(reducerLoc)
             << "`applies` needs exactly one input";
    Type scalar = types[1];
    Location loc = result.location;
    OpBuilder builder(parser.getContext());
    Block *block = builder.createBlock(body, {}, {scalar, scalar}, {loc, loc});
    OperationState state(loc, *reducerName);
    state.addOperands(block->getArguments());
    state.addTypes(scalar);
    Operation *inner = builder.create(state);
    ReturnOp::create(builder, loc, inner->getResults());
    return success();
  }

  SmallVector<OpAsmParser::Argument> accumulators, elements;
  if (parser.parseKeyword("reducer"))
    return failure();
  for (size_t i = 0; i < n; ++i) {
    OpAsmParser::Argument acc, elem;
    if (parser.parseLParen() ||
        parser.parseArgument(acc, /*allowType=*/true) || parser.parseComma() ||
        parser.parseArgument(elem, /*allowType=*/true) || parser.parseRParen())
      return failure();
    accumulators.push_back(acc);
    elements.push_back(elem);
  }
  llvm::append_range(accumulators, elements);
  return parser.parseRegion(*body, accumulators);
}


//===----------------------------------------------------------------------===//
// pad
//===----------------------------------------------------------------------===//

LogicalResult PadOp::verify() {
  auto operandType = cast<RankedTensorType>(getOperand().getType());
  auto resultType = getResult().getType();
  int64_t rank = operandType.getRank();
  if (static_cast<int64_t>(getEdgePaddingLow().size()) != rank ||
      static_cast<int64_t>(getEdgePaddingHigh().size()) != rank ||
      static_cast<int64_t>(getInteriorPadding().size()) != rank)
    return emitOpError() << "low, high and interior padding must each have "
                         << rank << " entries";
  for (int64_t i = 0; i < rank; ++i) {
    int64_t size = operandType.getDimSize(i);
    int64_t interior = getInteriorPadding()[i];
    if (interior < 0)
      return emitOpError("interior padding must be non-negative");
    if (ShapedType::isDynamic(size))
      continue;
    int64_t expected = getEdgePaddingLow()[i] + getEdgePaddingHigh()[i] + size +
                       std::max<int64_t>(size - 1, 0) * interior;
    if (!compatibleDims(resultType.getDimSize(i), expected))
      return emitOpError() << "result dimension " << i << " must have size "
                           << expected;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// while: `stablehlo.while(%iterArg = %x, ...) : T, ... cond {...} do {...}`
//===----------------------------------------------------------------------===//

LogicalResult CustomCallOp::verify() {
  Attribute config = getBackendConfigAttr();
  bool typedFfi =
      getApiVersion() == CustomCallApiVersion::API_VERSION_TYPED_FFI;
  if (typedFfi && config && !isa<DictionaryAttr>(config))
    return emitOpError("backend_config of a typed FFI call (api_version 4) "
                       "must be a dictionary");
  if (!typedFfi && isa_and_nonnull<DictionaryAttr>(config))
    return emitOpError("a dictionary backend_config needs api_version 4");
  return success();
}

LogicalResult GetTupleElementOp::verify() {
  auto tuple = cast<TupleType>(getOperand().getType());
  // (C1) 0 <= index < size(operand), (C2) type(result) = tuple_element.
  if (getIndex() >= static_cast<int64_t>(tuple.size()))
    return emitOpError() << "index " << getIndex() << " is out of range for a "
                         << "tuple of " << tuple.size() << " elements";
  if (tuple.getType(getIndex()) != getType())
    return emitOpError() << "result type " << getType()
                         << " is not the element's, " << tuple.getType(getIndex());
  return success();
}

LogicalResult OptimizationBarrierOp::verify() {
  if (getOperandTypes() != getResultTypes())
    return emitOpError("results must have the types of the operands");
  return success();
}

void WhileOp::print(OpAsmPrinter &p) {
  Block &cond = getCond().front();
  p << '(';
  llvm::interleaveComma(llvm::zip(cond.getArguments(), getOperands()), p,
                        [&](auto pair) {
                          p << std::get<0>(pair) << " = " << std::get<1>(pair);
                        });
  p << ')';
  if (getNumOperands()) {
    p << " : ";
    llvm::interleaveComma(getOperandTypes(), p);
  }
  p.printOptionalAttrDictWithKeyword(
      (*this)->getDiscardableAttrDictionary().getValue());
  p.printNewline();
  p << " cond ";
  p.printRegion(getCond(), /*printEntryBlockArgs=*/false);
  p << " do ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

ParseResult WhileOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Paren, [&]() -> ParseResult {
            OpAsmParser::Argument arg;
            OpAsmParser::UnresolvedOperand operand;
            if (parser.parseArgument(arg) || parser.parseEqual() ||
                parser.parseOperand(operand))
              return failure();
            args.push_back(arg);
            operands.push_back(operand);
            return success();
          }))
    return failure();
  SmallVector<Type> types;
  if (succeeded(parser.parseOptionalColon()) && parser.parseTypeList(types))
    return failure();
  if (types.size() != operands.size())
    return parser.emitError(loc) << "expected " << operands.size() << " types";
  for (auto [arg, type] : llvm::zip(args, types))
    arg.type = type;
  if (parser.resolveOperands(operands, types, loc, result.operands) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  result.addTypes(types);
  Region *cond = result.addRegion();
  Region *body = result.addRegion();
  if (parser.parseKeyword("cond") || parser.parseRegion(*cond, args) ||
      parser.parseKeyword("do") || parser.parseRegion(*body, args))
    return failure();
  return success();
}

#define GET_OP_CLASSES
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLOOps.cpp.inc"
