//===- CheckTVMLegality.cpp - Report what the import left unconverted -----===//

#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"
#include "stablehlo-tvm/Dialect/TVM/IR/TVM.h"
#include "mlir/IR/BuiltinDialect.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::stablehlo_tvm {

#define GEN_PASS_DEF_CHECKTVMLEGALITY
#include "stablehlo-tvm/Transforms/Passes.h.inc"

namespace {

bool isSizeType(Type type) { return type.isIndex() || type.isInteger(1); }

bool hasDynamicShape(Operation *op) {
  auto dynamic = [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return shaped && shaped.hasRank() && !shaped.hasStaticShape();
  };
  return llvm::any_of(op->getOperandTypes(), dynamic) ||
         llvm::any_of(op->getResultTypes(), dynamic);
}

bool isLegal(Operation *op) {
  Dialect *dialect = op->getDialect();
  if (isa<func::FuncOp, func::ReturnOp>(op))
    return true;
  // Arithmetic on symbolic sizes (stablehlo-symbolize-shapes).
  if (isa_and_nonnull<arith::ArithDialect>(dialect))
    return llvm::all_of(op->getOperandTypes(), isSizeType) &&
           llvm::all_of(op->getResultTypes(), isSizeType);
  return isa_and_nonnull<tvm::TVMDialect, BuiltinDialect>(dialect);
}

/// The op's name; a custom call's with its target, which is what differs.
std::string describe(Operation *op) {
  std::string name = op->getName().getStringRef().str();
  if (auto call = dyn_cast<stablehlo::CustomCallOp>(op))
    name += " @" + call.getCallTargetName().str();
  return name;
}

struct CheckTVMLegalityPass
    : impl::CheckTVMLegalityBase<CheckTVMLegalityPass> {
  void runOnOperation() override {
    SmallVector<Operation *> illegal;
    SmallVector<std::string> names;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      // A kernel's body is scalar code its verifier has already checked.
      if (isa<tvm::KernelOp>(op))
        return WalkResult::skip();
      if (isLegal(op))
        return WalkResult::advance();
      // Built by an earlier pass only to connect to an op it could not
      // lower, which is reported instead.
      if (op->hasAttr(kBoundaryAttr))
        return WalkResult::skip();
      illegal.push_back(op);
      if (!llvm::is_contained(names, describe(op)))
        names.push_back(describe(op));
      // What is nested in an unsupported op is reported with it.
      return WalkResult::skip();
    });
    if (illegal.empty())
      return;
    InFlightDiagnostic diag = emitError(illegal.front()->getLoc())
                              << illegal.size()
                              << " operation(s) could not be imported into "
                                 "TVM; unsupported: "
                              << llvm::join(names, ", ");
    for (Operation *op : illegal) {
      std::string types;
      llvm::raw_string_ostream os(types);
      FunctionType::get(op->getContext(), op->getOperandTypes(),
                        op->getResultTypes())
          .print(os);
      Diagnostic &note = diag.attachNote(op->getLoc());
      note << "unsupported operation '" << describe(op) << "' : " << types;
      // Why a pattern declined it, and for a dynamic shape what to do.
      SmallVector<std::string, 2> reasons;
      if (auto reason = op->getAttrOfType<StringAttr>(kUnsupportedReasonAttr))
        reasons.push_back(reason.getValue().str());
      constexpr llvm::StringLiteral kSpecialize =
          "no form for dynamic shapes: specialize them to the arguments' "
          "sizes";
      if (hasDynamicShape(op) &&
          !llvm::any_of(reasons, [&](const std::string &r) {
            return StringRef(r).contains(kSpecialize);
          }))
        reasons.push_back(kSpecialize.str());
      if (!reasons.empty())
        note << " (" << llvm::join(reasons, "; ") << ")";
    }
    signalPassFailure();
  }
};

} // namespace
} // namespace mlir::stablehlo_tvm
