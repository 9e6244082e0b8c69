//===- ShapeFunctions.h - Result sizes the spec defines ---------*- C++ -*-===//
//
// Sizes the StableHLO specification computes from operands and attributes,
// shared by the ops' verifiers and shape refinement.
//
//===----------------------------------------------------------------------===//

#ifndef STABLEHLO_TVM_DIALECT_STABLEHLO_IR_SHAPEFUNCTIONS_H
#define STABLEHLO_TVM_DIALECT_STABLEHLO_IR_SHAPEFUNCTIONS_H

#include <cstdint>

namespace mlir::stablehlo {

/// How many windows fit along one dimension of reduce_window or
/// convolution: `size` elements dilated by `baseDilation`, padded by `low`
/// and `high`, swept by a window of `window` elements dilated by
/// `windowDilation`, `stride` apart. Dynamic (ShapedType::kDynamic) when
/// `size` is, or when `stride` is not positive.
int64_t windowCount(int64_t size, int64_t baseDilation, int64_t low,
                    int64_t high, int64_t window, int64_t windowDilation,
                    int64_t stride);

} // namespace mlir::stablehlo

#endif // STABLEHLO_TVM_DIALECT_STABLEHLO_IR_SHAPEFUNCTIONS_H
