//===- IntegerComparison.h - StableHLO directions as arith predicates -*- C++ -*-===//
//
// The arith.cmpi predicate of a StableHLO comparison direction on integers
// (signed or unsigned), for the scalar kernels and the symbolic sizes alike.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_SUPPORT_INTEGERCOMPARISON_H
#define STABLEHLO_TVM_SUPPORT_INTEGERCOMPARISON_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

namespace mlir::stablehlo_tvm {

inline arith::CmpIPredicate
integerPredicate(stablehlo::ComparisonDirection direction, bool isUnsigned) {
  using Dir = stablehlo::ComparisonDirection;
  using P = arith::CmpIPredicate;
  switch (direction) {
  case Dir::EQ: return P::eq;
  case Dir::NE: return P::ne;
  case Dir::LT: return isUnsigned ? P::ult : P::slt;
  case Dir::LE: return isUnsigned ? P::ule : P::sle;
  case Dir::GT: return isUnsigned ? P::ugt : P::sgt;
  case Dir::GE: return isUnsigned ? P::uge : P::sge;
  }
  return P::eq;
}

} // namespace mlir::stablehlo_tvm

#endif // STABLEHLO_TVM_SUPPORT_INTEGERCOMPARISON_H
