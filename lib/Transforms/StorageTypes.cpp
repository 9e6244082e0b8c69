//===- StorageTypes.cpp - Element types held in wider storage -------------===//

#include "StorageTypes.h"

#include "stablehlo-tvm/Dialect/StableHLO/IR/StableHLO.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"

namespace mlir::stablehlo_tvm {

bool hasTypesWhere(Operation *op, TypePredicate predicate) {
  if (llvm::any_of(op->getOperandTypes(), predicate) ||
      llvm::any_of(op->getResultTypes(), predicate))
    return true;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (llvm::any_of(block.getArgumentTypes(), predicate))
        return true;
  return false;
}

bool touchesTypesWhere(Operation *op, TypePredicate predicate) {
  return op
      ->walk([&](Operation *nested) {
        return hasTypesWhere(nested, predicate) ? WalkResult::interrupt()
                                                : WalkResult::advance();
      })
      .wasInterrupted();
}

void convertStorageTypes(ModuleOp module, const TypeConverter &converter,
                         std::function<bool(Type)> predicate,
                         RewritePatternSet &&patterns) {
  ConversionTarget target(*module.getContext());
  target.markUnknownOpDynamicallyLegal(
      [predicate](Operation *op) { return !hasTypesWhere(op, predicate); });
  target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp func) {
    return converter.isSignatureLegal(func.getFunctionType()) &&
           converter.isLegal(&func.getBody());
  });
  populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                 converter);
  populateReturnOpTypeConversionPattern(patterns, converter);
  populateCallOpTypeConversionPattern(patterns, converter);
  (void)applyPartialConversion(module, target, std::move(patterns));
}

bool isConvertedOp(Operation *op) {
  return isa_and_nonnull<stablehlo::StableHLODialect>(op->getDialect());
}

Operation *rebuildWithConvertedTypes(Operation *op, ValueRange operands,
                                     ConversionPatternRewriter &rewriter,
                                     const TypeConverter &converter) {
  SmallVector<Type> resultTypes;
  if (failed(converter.convertTypes(op->getResultTypes(), resultTypes)))
    return nullptr;
  OperationState state(op->getLoc(), op->getName().getStringRef(), operands,
                       resultTypes, op->getAttrs());
  // Regions move into the rebuilt op once it exists: a region of the
  // OperationState is not yet anchored to an op, and the rewriter's record
  // of blocks moved into it dangles once the op takes the region over.
  for (unsigned i = 0, e = op->getNumRegions(); i < e; ++i)
    state.addRegion();
  Operation *rebuilt = rewriter.create(state);
  for (auto [region, moved] : llvm::zip(op->getRegions(), rebuilt->getRegions())) {
    rewriter.inlineRegionBefore(region, moved, moved.end());
    if (failed(rewriter.convertRegionTypes(&moved, converter)))
      return nullptr;
  }
  return rebuilt;
}

void recordDeclaredResults(ModuleOp module, TypePredicate predicate,
                           StringRef attrName,
                           function_ref<std::string(Type)> name) {
  Builder b(module.getContext());
  for (auto func : module.getOps<func::FuncOp>()) {
    TypeRange results = func.getFunctionType().getResults();
    if (func.isPrivate() || !llvm::any_of(results, predicate))
      continue;
    SmallVector<Attribute> names;
    for (Type type : results)
      names.push_back(b.getStringAttr(predicate(type) ? name(type) : ""));
    func->setAttr(attrName, b.getArrayAttr(names));
  }
}

} // namespace mlir::stablehlo_tvm
