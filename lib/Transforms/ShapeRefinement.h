//===- ShapeRefinement.h - Shapes and shape arithmetic of ops ---*- C++ -*-===//
//
// What stablehlo-refine-shapes asks of each op: the value of the small
// integer computations that produce shapes, and the shapes of its results.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_TRANSFORMS_SHAPEREFINEMENT_H
#define STABLEHLO_TVM_TRANSFORMS_SHAPEREFINEMENT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::stablehlo_tvm {

/// Integer tensors this large or smaller are evaluated: shapes and their
/// arithmetic, never data.
constexpr int64_t kMaxShapeValueElements = 64;

/// Values of integer tensors known while refining (constants, specialized
/// arguments, and what was evaluated from them).
class KnownValues {
public:
  /// The value of `value`, from the map or a small integer constant.
  DenseIntElementsAttr lookup(Value value) const;
  void set(Value value, DenseIntElementsAttr attr) { values[value] = attr; }
  const llvm::DenseMap<Value, DenseIntElementsAttr> &all() const {
    return values;
  }

private:
  llvm::DenseMap<Value, DenseIntElementsAttr> values;
};

/// The value of `op`'s single result, when it is a small integer tensor
/// computed from known values by an op this evaluator knows; null otherwise.
DenseIntElementsAttr evaluateShapeArithmetic(Operation *op,
                                             const KnownValues &known);

/// The shapes `op`'s results have given its operands' shapes and the known
/// values of its shape operands: one per result, ShapedType::kDynamic where
/// it is not determined. std::nullopt when the op has no rule here (its
/// result types are then kept as they are).
std::optional<SmallVector<SmallVector<int64_t>>>
inferResultShapes(Operation *op, const KnownValues &known);

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_TRANSFORMS_SHAPEREFINEMENT_H
