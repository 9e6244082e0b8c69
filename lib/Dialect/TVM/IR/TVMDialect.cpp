//===- TVMDialect.cpp - The tvm dialect -----------------------------------===//

#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::tvm;

#include "stablehlo-tvm/Dialect/TVM/IR/TVMDialect.cpp.inc"

void TVMDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "stablehlo-tvm/Dialect/TVM/IR/TVMOps.cpp.inc"
      >();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

LogicalResult AsTypeOp::verify() {
  if (getDtype() != getResult().getType().getElementType())
    return emitOpError() << "dtype " << getDtype()
                         << " must be the result element type";
  return success();
}

LogicalResult ArangeOp::verify() {
  if (getStep() == 0)
    return emitOpError("step must not be 0");
  if (getDtype() != getResult().getType().getElementType())
    return emitOpError("dtype must be the result element type");
  if (getCount()) {
    if (!getResult().getType().isDynamicDim(0))
      return emitOpError("with a count, the result dimension is dynamic");
    return success();
  }
  int64_t count = (getEnd() - getStart() + getStep() + (getStep() > 0 ? -1 : 1)) /
                  getStep();
  if (getResult().getType().getDimSize(0) != std::max<int64_t>(count, 0))
    return emitOpError() << "result must have " << count << " elements";
  return success();
}

LogicalResult ZerosOp::verify() {
  if (getShape() != getResult().getType().getShape() ||
      getDtype() != getResult().getType().getElementType())
    return emitOpError("shape and dtype must be the result's");
  return success();
}

SmallVector<int64_t> mlir::tvm::shapeAttrOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> attr(shape);
  for (int64_t &dim : attr)
    if (ShapedType::isDynamic(dim))
      dim = -1;
  return attr;
}

bool mlir::tvm::keepsDynamicDims(ArrayRef<int64_t> from, ArrayRef<int64_t> to,
                                 SmallVectorImpl<int64_t> &fromDims,
                      SmallVectorImpl<int64_t> &toDims) {
  auto segments = [](ArrayRef<int64_t> shape, SmallVectorImpl<int64_t> &dims) {
    SmallVector<int64_t> products{1};
    for (auto [i, dim] : llvm::enumerate(shape)) {
      if (ShapedType::isDynamic(dim)) {
        dims.push_back(i);
        products.push_back(1);
      } else {
        products.back() *= dim;
      }
    }
    return products;
  };
  return segments(from, fromDims) == segments(to, toDims);
}

SmallVector<Value> mlir::tvm::dynamicSizesAmong(RankedTensorType type,
                                                ArrayRef<Value> sizes) {
  SmallVector<Value> result;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      result.push_back(sizes[d]);
  return result;
}

SmallVector<Value>
mlir::tvm::dynamicSizesOf(OpBuilder &builder, Location loc, Value value,
                          std::optional<ArrayRef<int64_t>> dims) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d) && (!dims || llvm::is_contained(*dims, d)))
      sizes.push_back(DimOp::create(builder, loc, value, d));
  return sizes;
}

/// `shape` is `type`'s with -1 for each dynamic dimension; the number of
/// those, or a message.
static FailureOr<int64_t> dynamicCount(Operation *op, ArrayRef<int64_t> shape,
                                       RankedTensorType type) {
  if (getElementTypeOrSelf(op->getOperand(0).getType()) !=
      type.getElementType())
    return op->emitOpError("requires the same element type for x and result");
  if (static_cast<int64_t>(shape.size()) != type.getRank())
    return op->emitOpError("shape must be the result shape");
  int64_t count = 0;
  for (auto [given, dim] : llvm::zip(shape, type.getShape())) {
    bool dynamic = ShapedType::isDynamic(dim);
    if (dynamic ? given != -1 : given != dim)
      return op->emitOpError(
          "shape must be the result shape, -1 where it is dynamic");
    count += dynamic;
  }
  return count;
}

LogicalResult ReshapeOp::verify() {
  FailureOr<int64_t> count =
      dynamicCount(*this, getShape(), getResult().getType());
  if (failed(count))
    return failure();
  // Without sizes, Relax infers one dimension from the element count.
  if (getSizes().empty() ? *count > 1
                         : static_cast<int64_t>(getSizes().size()) != *count)
    return emitOpError("needs a size per dynamic dimension (or one dynamic "
                       "dimension, inferred)");
  return success();
}

LogicalResult BroadcastToOp::verify() {
  FailureOr<int64_t> count =
      dynamicCount(*this, getShape(), getResult().getType());
  if (failed(count))
    return failure();
  if (static_cast<int64_t>(getSizes().size()) != *count)
    return emitOpError("needs a size per dynamic dimension");
  return success();
}

LogicalResult DynamicSliceOp::verify() {
  FailureOr<int64_t> count =
      dynamicCount(*this, getShape(), getResult().getType());
  if (failed(count))
    return failure();
  int64_t rank = getResult().getType().getRank();
  if (cast<RankedTensorType>(getX().getType()).getRank() != rank ||
      static_cast<int64_t>(getStartsAndSizes().size()) != rank + *count)
    return emitOpError("needs a start per dimension and a size per dynamic "
                       "dimension");
  return success();
}

LogicalResult DimOp::verify() {
  auto type = cast<RankedTensorType>(getX().getType());
  int64_t dim = static_cast<int64_t>(getDim());
  if (dim < 0 || dim >= type.getRank())
    return emitOpError("dim must name a dimension of x");
  return success();
}

OpFoldResult DimOp::fold(FoldAdaptor) {
  auto type = cast<RankedTensorType>(getX().getType());
  int64_t dim = static_cast<int64_t>(getDim());
  if (dim < 0 || dim >= type.getRank() || type.isDynamicDim(dim))
    return {};
  return IntegerAttr::get(IndexType::get(getContext()), type.getDimSize(dim));
}

LogicalResult PermuteDimsOp::verify() {
  auto inType = cast<RankedTensorType>(getX().getType());
  auto outType = getResult().getType();
  if (static_cast<int64_t>(getAxes().size()) != inType.getRank())
    return emitOpError("axes must name every dimension once");
  for (auto [i, axis] : llvm::enumerate(getAxes()))
    if (axis < 0 || axis >= inType.getRank() ||
        outType.getDimSize(i) != inType.getDimSize(axis))
      return emitOpError() << "result dimension " << i
                           << " does not match input dimension " << axis;
  return success();
}

LogicalResult PadOp::verify() {
  auto inType = cast<RankedTensorType>(getData().getType());
  auto outType = getResult().getType();
  ArrayRef<int64_t> widths = getPadWidth();
  if (static_cast<int64_t>(widths.size()) != 2 * inType.getRank())
    return emitOpError("pad_width needs a low and a high width per axis");
  if (getPadMode() != "constant")
    return emitOpError("only constant padding is supported");
  for (int64_t axis = 0; axis < inType.getRank(); ++axis) {
    int64_t low = widths[2 * axis], high = widths[2 * axis + 1];
    if (low < 0 || high < 0)
      return emitOpError("negative padding along axis ") << axis;
    if (outType.getDimSize(axis) != inType.getDimSize(axis) + low + high)
      return emitOpError("result dimension ")
             << axis << " is not the padded input dimension";
  }
  return success();
}

/// The tvm.yield ending `region`'s block, or null (a region parsed without
/// one reaches verifyRegions when no trait inserts it).
static YieldOp yieldOf(Region &region) {
  Block &block = region.front();
  return block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
}

LogicalResult WhileOp::verifyRegions() {
  TypeRange carried = getInits().getTypes();
  if (getResults().getTypes() != carried)
    return emitOpError("results must have the types of the carried values");
  for (Region *region : {&getCond(), &getBody()})
    if (region->front().getArgumentTypes() != carried)
      return emitOpError("regions must take the carried values");
  auto condYield = yieldOf(getCond());
  auto bodyYield = yieldOf(getBody());
  if (!condYield || !bodyYield)
    return emitOpError("regions must end in tvm.yield");
  auto predType = condYield.getValues().size() == 1
                      ? dyn_cast<RankedTensorType>(
                            condYield.getValues().front().getType())
                      : RankedTensorType();
  if (!predType || predType.getRank() != 0 ||
      !predType.getElementType().isInteger(1))
    return emitOpError("cond must yield one tensor<i1>");
  if (bodyYield.getValues().getTypes() != carried)
    return emitOpError("body must yield the carried values");
  if (auto copied = getCopiedInits())
    for (int64_t index : *copied)
      if (index < 0 || index >= static_cast<int64_t>(carried.size()))
        return emitOpError("copied_inits index ") << index << " out of range";
  return success();
}

LogicalResult UpdateSliceInPlaceOp::verify() {
  auto type = cast<RankedTensorType>(getOperand().getType());
  auto updateType = cast<RankedTensorType>(getUpdate().getType());
  if (updateType.getRank() != type.getRank() ||
      static_cast<int64_t>(getStarts().size()) != type.getRank())
    return emitOpError("needs an update and a start per axis of the operand");
  for (int64_t axis = 0; axis < type.getRank(); ++axis)
    if (updateType.getDimSize(axis) > type.getDimSize(axis))
      return emitOpError("update exceeds the operand along axis ") << axis;
  return success();
}

LogicalResult CaseOp::verifyRegions() {
  if (getBranches().empty())
    return emitOpError("needs at least one branch");
  for (Region &branch : getBranches()) {
    if (branch.front().getNumArguments() != 0)
      return emitOpError("branches take no arguments");
    auto yield = yieldOf(branch);
    if (!yield)
      return emitOpError("branches must end in tvm.yield");
    if (yield.getValues().getTypes() != getResultTypes())
      return emitOpError("each branch must yield the results' types");
  }
  return success();
}

MemRefType KernelOp::bufferType(RankedTensorType type) {
  Type element = type.getElementType();
  if (auto intType = dyn_cast<IntegerType>(element))
    element = IntegerType::get(type.getContext(), intType.getWidth());
  return MemRefType::get(type.getShape(), element);
}

LogicalResult KernelOp::verifyRegions() {
  Block &body = getBody().front();
  SmallVector<Type> tensors(getInputs().getTypes());
  llvm::append_range(tensors, getResults().getTypes());
  if (body.getNumArguments() != tensors.size())
    return emitOpError() << "body must take " << tensors.size()
                         << " buffers, one per input and result";
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(body.getArgumentTypes(), tensors))) {
    auto [argType, tensorType] = pair;
    MemRefType expected = bufferType(cast<RankedTensorType>(tensorType));
    if (argType != expected)
      return emitOpError() << "buffer " << index << " must be " << expected
                           << ", not " << argType;
  }
  int64_t dynamic = 0;
  for (Type type : getResults().getTypes())
    dynamic += cast<RankedTensorType>(type).getNumDynamicDims();
  if (static_cast<int64_t>(getResultSizes().size()) != dynamic)
    return emitOpError() << "needs a size per dynamic result dimension ("
                         << dynamic << ")";
  if (std::optional<ArrayRef<int64_t>> inPlace = getInPlace()) {
    if (inPlace->size() != getNumResults())
      return emitOpError() << "in_place must name one input (or -1) per result";
    for (auto [result, input] : llvm::enumerate(*inPlace)) {
      if (input == -1)
        continue;
      if (input < 0 || input >= static_cast<int64_t>(getInputs().size()) ||
          getInputs()[input].getType() != getResult(result).getType())
        return emitOpError() << "result " << result
                             << " cannot be written into input " << input;
    }
  }
  WalkResult walk = body.walk([&](Operation *op) {
    if (isa_and_nonnull<arith::ArithDialect, math::MathDialect,
                        memref::MemRefDialect>(op->getDialect()))
      return WalkResult::advance();
    if (isa<scf::ForOp, scf::ParallelOp, scf::IfOp>(op) &&
        op->getNumResults() == 0)
      return WalkResult::advance();
    if (isa<scf::YieldOp, scf::ReduceOp>(op) && op->getNumOperands() == 0)
      return WalkResult::advance();
    op->emitOpError("is not allowed in a tvm.kernel body");
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

#define GET_OP_CLASSES
#include "stablehlo-tvm/Dialect/TVM/IR/TVMOps.cpp.inc"

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<FunctionOpInterface>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError() << "'" << getCallee() << "' is not a function";
  auto type = dyn_cast<FunctionType>(callee.getFunctionType());
  if (!type || TypeRange(type.getInputs()) != getInputs().getTypes() ||
      TypeRange(type.getResults()) != getResultTypes())
    return emitOpError() << "types must match those of '" << getCallee()
                         << "'";
  return success();
}
