//===- StableHLOTraits.h - Op traits of the stablehlo dialect ---*- C++ -*-===//
//
// The spec states the types of most elementwise ops through
// `baseline_type`: operands and result agree in shape and element type,
// except that quantized element types may differ in their scales and zero
// points (an `add` of two i8 tensors quantized differently is valid).
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_DIALECT_STABLEHLO_IR_STABLEHLOTRAITS_H
#define STABLEHLO_TVM_DIALECT_STABLEHLO_IR_STABLEHLOTRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::stablehlo {
/// Whether `a` and `b` have the same baseline element type: equal, or both
/// quantized with the same storage type, storage range and expressed type.
bool haveSameBaselineElementType(Type a, Type b);
} // namespace mlir::stablehlo

namespace mlir::OpTrait::stablehlo {

LogicalResult verifySameBaselineOperandsAndResultType(Operation *op);

/// Every operand and result has the same shape and baseline element type.
template <typename ConcreteType>
class SameBaselineOperandsAndResultType
    : public TraitBase<ConcreteType, SameBaselineOperandsAndResultType> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifySameBaselineOperandsAndResultType(op);
  }
};

} // namespace mlir::OpTrait::stablehlo

#endif // STABLEHLO_TVM_DIALECT_STABLEHLO_IR_STABLEHLOTRAITS_H
