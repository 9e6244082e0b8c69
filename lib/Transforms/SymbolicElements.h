//===- SymbolicElements.h - Shape tensors as scalar SSA sizes ---*- C++ -*-===//
//
// What stablehlo-symbolize-shapes asks of JAX's shape arithmetic: the
// elements of each small integer tensor as `index` (or `i1`) values.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_TRANSFORMS_SYMBOLICELEMENTS_H
#define STABLEHLO_TVM_TRANSFORMS_SYMBOLICELEMENTS_H

#include "mlir/IR/Builders.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "llvm/ADT/DenseMap.h"

#include <map>
#include <string>

namespace mlir::stablehlo_tvm {

/// The elements of small integer tensors as scalar SSA values: `index` for
/// integers, `i1` for booleans, built right after the op that defines the
/// tensor (so they dominate wherever the tensor does).
class SymbolicElements {
public:
  explicit SymbolicElements(MLIRContext *context) : builder(context) {}

  /// The elements of `value` in row-major order, or failure when they are
  /// not computed from sizes and constants by ops this knows.
  FailureOr<SmallVector<Value>> of(Value value) {
    auto found = cache.find(value);
    if (found != cache.end())
      return found->second;
    FailureOr<SmallVector<Value>> elements = compute(value);
    if (succeeded(elements))
      cache[value] = *elements;
    return elements;
  }

  /// The elements of each of `values` (an op's start, limit and stride
  /// vectors), failure unless each has `count`.
  FailureOr<SmallVector<SmallVector<Value>>> ofEach(ValueRange values,
                                                    int64_t count) {
    SmallVector<SmallVector<Value>> all;
    for (Value value : values) {
      FailureOr<SmallVector<Value>> elements = of(value);
      if (failed(elements) || static_cast<int64_t>(elements->size()) != count)
        return failure();
      all.push_back(std::move(*elements));
    }
    return all;
  }

  /// Gives `value` these elements (a dimension argument's placeholder).
  void set(Value value, SmallVector<Value> values) { cache[value] = values; }

  /// `from` replaced by `to` in every computed element.
  void replace(Value from, Value to) {
    for (auto &entry : cache)
      for (Value &element : entry.second)
        if (element == from)
          element = to;
  }

  /// JAX's names of argument dimensions (argument, dimension), where known.
  std::map<std::pair<unsigned, int64_t>, std::string> names;

private:
  Value indexConstant(Location loc, int64_t n);

  FailureOr<SmallVector<Value>> compute(Value value);

  FailureOr<SmallVector<Value>> broadcastElements(stablehlo::BroadcastInDimOp op,
                                                  RankedTensorType type);

  FailureOr<SmallVector<Value>> elementwise(Operation *op, RankedTensorType type,
                                            bool isBool, bool isUnsigned);

  Value compareElements(stablehlo::CompareOp op, Value x, Value y);

  /// `x op y` on index values, with the op for the integers' signedness.
  template <typename Signed, typename Unsigned>
  Value bySign(Location loc, bool isUnsigned, Value x, Value y) {
    if (isUnsigned)
      return Unsigned::create(builder, loc, x, y);
    return Signed::create(builder, loc, x, y);
  }

  OpBuilder builder;
  llvm::DenseMap<Value, SmallVector<Value>> cache;
};

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_TRANSFORMS_SYMBOLICELEMENTS_H
