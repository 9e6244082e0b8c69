//===- ControlFlowVerifiers.cpp - Constraints of case, if, while and -------===//
//                                composite
//
// The StableHLO specification's constraints on the control-flow ops: bodies
// that take what the op passes them and return what the op yields, and a
// composite's decomposition a function of its types. A branch returning the
// wrong number of values would otherwise reach the conversion, which maps
// results to returned values by position.
//
//===----------------------------------------------------------------------===//

#include "VerifierUtils.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::stablehlo;

namespace {

/// Equal types, or tensors of one element type whose shapes may agree (a
/// branch may say more about a size than the op's result does).
bool compatibleTypes(Type a, Type b) {
  if (a == b)
    return true;
  auto ta = dyn_cast<RankedTensorType>(a), tb = dyn_cast<RankedTensorType>(b);
  return ta && tb && ta.getElementType() == tb.getElementType() &&
         succeeded(verifyCompatibleShape(ta.getShape(), tb.getShape()));
}

/// Fails unless `region`'s block takes `arguments` and its terminator
/// returns values of `results`' types; `what` names the region.
LogicalResult verifyBody(Operation *op, StringRef what, Region &region,
                         TypeRange arguments, TypeRange results) {
  Block &block = region.front();
  if (block.getNumArguments() != arguments.size() ||
      !llvm::all_of(llvm::zip(block.getArgumentTypes(), arguments),
                    [](auto p) {
                      return compatibleTypes(std::get<0>(p), std::get<1>(p));
                    }))
    return op->emitOpError() << what << " must take " << arguments.size()
                             << " argument(s) of the operand types";
  if (numReturned(block) < 0)
    return op->emitOpError() << what << " must end in a terminator";
  TypeRange returned = block.back().getOperandTypes();
  if (returned.size() != results.size())
    return op->emitOpError() << what << " returns " << returned.size()
                             << " value(s), " << results.size()
                             << " expected";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(returned, results)))
    if (!compatibleTypes(std::get<0>(pair), std::get<1>(pair)))
      return op->emitOpError()
             << what << " returns " << std::get<0>(pair) << " as value " << i
             << ", where " << std::get<1>(pair) << " is expected";
  return success();
}

} // namespace

LogicalResult CaseOp::verify() {
  // (C1)
  if (getBranches().empty())
    return emitOpError("(C1) needs at least one branch");
  // (C2, C3)
  for (auto [i, branch] : llvm::enumerate(getBranches()))
    if (failed(verifyBody(*this, ("(C2, C3) branch " + Twine(i)).str(), branch, {},
                          getResultTypes())))
      return failure();
  return success();
}

LogicalResult IfOp::verify() {
  // (C1, C2)
  if (failed(verifyBody(*this, "(C1, C2) true_branch", getTrueBranch(), {},
                        getResultTypes())) ||
      failed(verifyBody(*this, "(C1, C2) false_branch", getFalseBranch(), {},
                        getResultTypes())))
    return failure();
  return success();
}

LogicalResult WhileOp::verify() {
  // (C1, C2, C3)
  if (getOperandTypes() != getResultTypes())
    return emitOpError("(C3) results must have the types of the operands");
  auto predicate = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (failed(verifyBody(*this, "(C1) cond", getCond(), getOperandTypes(),
                        TypeRange{predicate})) ||
      failed(verifyBody(*this, "(C2) body", getBody(), getOperandTypes(),
                        getOperandTypes())))
    return failure();
  return success();
}

LogicalResult
CompositeOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  // (C1, C2)
  auto decomposition = symbolTable.lookupNearestSymbolFrom<FunctionOpInterface>(
      *this, getDecompositionAttr());
  if (!decomposition)
    return emitOpError() << "(C1) decomposition '" << getDecomposition()
                         << "' is not a function";
  auto type = dyn_cast<FunctionType>(decomposition.getFunctionType());
  if (!type || TypeRange(type.getInputs()) != getInputs().getTypes() ||
      TypeRange(type.getResults()) != getResultTypes())
    return emitOpError() << "(C2) the types of decomposition '"
                         << getDecomposition()
                         << "' must be the composite's operand and result "
                            "types";
  return success();
}
