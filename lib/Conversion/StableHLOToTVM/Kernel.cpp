//===- Kernel.cpp - Building tvm.kernel ops and their loop nests ----------===//

#include "Rewriters.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"

namespace mlir::stablehlo_tvm {

Value indexValue(OpBuilder &builder, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(builder, loc, value);
}

Value loadAsIndex(OpBuilder &builder, Location loc, Value buffer,
                  ValueRange at, Type element) {
  Value value = memref::LoadOp::create(builder, loc, buffer, at);
  if (element.isUnsignedInteger() || element.isInteger(1))
    return arith::IndexCastUIOp::create(builder, loc, builder.getIndexType(),
                                        value);
  return arith::IndexCastOp::create(builder, loc, builder.getIndexType(),
                                    value);
}

Type signlessType(Type element) {
  if (auto intType = dyn_cast<IntegerType>(element))
    return IntegerType::get(element.getContext(), intType.getWidth());
  return element;
}

SmallVector<int64_t> complementDims(int64_t rank,
                                    ArrayRef<ArrayRef<int64_t>> excluded) {
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    if (llvm::none_of(excluded, [&](ArrayRef<int64_t> list) {
          return llvm::is_contained(list, d);
        }))
      dims.push_back(d);
  return dims;
}

SmallVector<Value>
loadIndexVector(OpBuilder &builder, Location loc, Value indices,
                RankedTensorType indicesType, int64_t indexVectorDim,
                llvm::function_ref<Value(int64_t)> position) {
  int64_t rank = indicesType.getRank();
  int64_t components =
      indexVectorDim < rank ? indicesType.getDimSize(indexVectorDim) : 1;
  SmallVector<Value> vector;
  for (int64_t k = 0; k < components; ++k) {
    SmallVector<Value> at;
    for (int64_t j = 0; j < rank; ++j)
      at.push_back(j == indexVectorDim ? indexValue(builder, loc, k)
                                       : position(j));
    vector.push_back(loadAsIndex(builder, loc, indices, at,
                                 indicesType.getElementType()));
  }
  return vector;
}

SmallVector<Value> initAccumulators(OpBuilder &builder, Location loc,
                                    ValueRange initBuffers) {
  SmallVector<Value> accumulators;
  for (Value init : initBuffers) {
    Value value = memref::LoadOp::create(builder, loc, init);
    auto type = cast<MemRefType>(init.getType());
    Value acc = memref::AllocaOp::create(builder, loc, type);
    memref::StoreOp::create(builder, loc, value, acc);
    accumulators.push_back(acc);
  }
  return accumulators;
}

LogicalResult accumulate(OpBuilder &builder, Location loc, Block &body,
                         ValueRange accumulators, ValueRange operands,
                         ValueRange index) {
  SmallVector<Value> args;
  for (Value acc : accumulators)
    args.push_back(memref::LoadOp::create(builder, loc, acc));
  for (Value operand : operands)
    args.push_back(memref::LoadOp::create(builder, loc, operand, index));
  FailureOr<SmallVector<Value>> next = scalarizeBody(builder, body, args);
  if (failed(next))
    return failure();
  for (auto [value, acc] : llvm::zip(*next, accumulators))
    memref::StoreOp::create(builder, loc, value, acc);
  return success();
}

void storeAccumulators(OpBuilder &builder, Location loc,
                       ValueRange accumulators, ValueRange results,
                       ValueRange index) {
  for (auto [acc, result] : llvm::zip(accumulators, results)) {
    Value value = memref::LoadOp::create(builder, loc, acc);
    memref::StoreOp::create(builder, loc, value, result, index);
  }
}

SmallVector<Value> buildKernel(OpBuilder &builder, Location loc,
                               StringRef name, ValueRange inputs,
                               TypeRange resultTypes, KernelBodyBuilder body,
                               ArrayRef<int64_t> inPlace,
                               ValueRange resultSizes) {
  auto kernel = tvm::KernelOp::create(
      builder, loc, resultTypes, builder.getStringAttr(name), inputs,
      resultSizes,
      inPlace.empty() ? DenseI64ArrayAttr()
                      : builder.getDenseI64ArrayAttr(inPlace));
  SmallVector<Type> bufferTypes;
  SmallVector<Location> locs;
  for (Type type : llvm::concat<const Type>(inputs.getTypes(), resultTypes)) {
    bufferTypes.push_back(
        tvm::KernelOp::bufferType(cast<RankedTensorType>(type)));
    locs.push_back(loc);
  }
  // Back after the kernel (the guard's point) once the body is built.
  OpBuilder::InsertionGuard guard(builder);
  Block *block = builder.createBlock(&kernel.getBody(), {}, bufferTypes, locs);
  builder.setInsertionPointToStart(block);
  SmallVector<Value> results(kernel.getResultBuffers());
  for (auto [result, input] : llvm::enumerate(inPlace))
    if (input >= 0)
      results[result] = kernel.getInputBuffers()[input];
  body(builder, loc, kernel.getInputBuffers(), results);
  return SmallVector<Value>(kernel.getResults());
}

void buildLoopNest(
    OpBuilder &builder, Location loc, ArrayRef<int64_t> shape, bool parallel,
    llvm::function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<Value> bounds;
  for (int64_t size : shape)
    bounds.push_back(indexValue(builder, loc, size));
  buildLoopNest(builder, loc, bounds, parallel, body);
}

SmallVector<Value> bufferSizes(OpBuilder &builder, Location loc, Value buffer,
                               std::optional<ArrayRef<int64_t>> dims) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<int64_t> all;
  if (!dims) {
    for (int64_t d = 0; d < type.getRank(); ++d)
      all.push_back(d);
    dims = all;
  }
  SmallVector<Value> sizes;
  for (int64_t d : *dims)
    sizes.push_back(type.isDynamicDim(d)
                        ? Value(memref::DimOp::create(builder, loc, buffer, d))
                        : indexValue(builder, loc, type.getDimSize(d)));
  return sizes;
}

SmallVector<Value> sliceSizes(OpBuilder &builder, Location loc, Value buffer,
                              int64_t dim) {
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < cast<MemRefType>(buffer.getType()).getRank(); ++d)
    sizes.push_back(d == dim ? indexValue(builder, loc, 1)
                             : bufferSizes(builder, loc, buffer, {{d}})[0]);
  return sizes;
}

void buildLoopNest(
    OpBuilder &builder, Location loc, ArrayRef<Value> shape, bool parallel,
    llvm::function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  if (shape.empty()) {
    body(builder, loc, {});
    return;
  }
  Value zero = indexValue(builder, loc, 0), one = indexValue(builder, loc, 1);
  SmallVector<Value> ivs;
  std::function<void(OpBuilder &, size_t)> nest = [&](OpBuilder &b,
                                                      size_t dim) {
    if (dim == shape.size()) {
      body(b, loc, ivs);
      return;
    }
    Value upper = shape[dim];
    auto inner = [&](OpBuilder &nested, Location, ValueRange iv) {
      ivs.push_back(iv.front());
      nest(nested, dim + 1);
      ivs.pop_back();
    };
    if (parallel && dim == 0) {
      scf::ParallelOp::create(b, loc, ValueRange{zero}, ValueRange{upper},
                              ValueRange{one}, inner);
      return;
    }
    scf::ForOp::create(b, loc, zero, upper, one, ValueRange{},
                       [&](OpBuilder &nested, Location l, Value iv,
                           ValueRange) {
                         inner(nested, l, iv);
                         scf::YieldOp::create(nested, l);
                       });
  };
  nest(builder, 0);
}

SmallVector<Value> buildElementwiseKernel(OpBuilder &builder, Location loc,
                                          StringRef name, ValueRange inputs,
                                          TypeRange resultTypes, ScalarFn fn) {
  // Dynamic dimensions: the first input's sizes, the loops' bounds the
  // result buffer's.
  SmallVector<Value> sizes;
  if (!cast<RankedTensorType>(resultTypes.front()).hasStaticShape())
    sizes = tvm::dynamicSizesOf(builder, loc, inputs.front());
  return buildKernel(
      builder, loc, name, inputs, resultTypes,
      [&](OpBuilder &b, Location l, ValueRange in, ValueRange out) {
        buildLoopNest(b, l, bufferSizes(b, l, out.front()), /*parallel=*/true,
                      [&](OpBuilder &nested, Location nl, ValueRange ivs) {
                        SmallVector<Value> scalars;
                        for (Value buffer : in)
                          scalars.push_back(
                              memref::LoadOp::create(nested, nl, buffer, ivs));
                        SmallVector<Value> results = fn(nested, nl, scalars);
                        for (auto [value, buffer] : llvm::zip(results, out))
                          memref::StoreOp::create(nested, nl, value, buffer,
                                                  ivs);
                      });
      },
      /*inPlace=*/{}, sizes);
}

} // namespace mlir::stablehlo_tvm
