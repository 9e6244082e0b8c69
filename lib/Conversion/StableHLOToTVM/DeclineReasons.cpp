//===- DeclineReasons.cpp - Why patterns left ops unconverted -------------===//

#include "DeclineReasons.h"

#include "stablehlo-tvm/Transforms/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::stablehlo_tvm {

namespace {
// A conversion runs on one thread; each thread sees its own recorder.
thread_local DeclineReasons *currentReasons = nullptr;
} // namespace

DeclineReasons::DeclineReasons() : previous(currentReasons) {
  currentReasons = this;
}

DeclineReasons::~DeclineReasons() { currentReasons = previous; }

DeclineReasons *DeclineReasons::current() { return currentReasons; }

void DeclineReasons::record(Operation *op, const Twine &reason) {
  auto [it, inserted] = entries.try_emplace(op, Entry{op->getName(), {}});
  if (!inserted && it->second.name != op->getName())
    it->second = Entry{op->getName(), {}};
  std::string text = reason.str();
  if (!llvm::is_contained(it->second.reasons, text))
    it->second.reasons.push_back(std::move(text));
}

void DeclineReasons::annotate(Operation *root) const {
  if (entries.empty())
    return;
  root->walk([&](Operation *op) {
    auto it = entries.find(op);
    if (it == entries.end() || it->second.name != op->getName() ||
        op->hasAttr(kUnsupportedReasonAttr))
      return;
    op->setAttr(kUnsupportedReasonAttr,
                StringAttr::get(op->getContext(),
                                llvm::join(it->second.reasons, "; ")));
  });
}

LogicalResult decline(ConversionPatternRewriter &rewriter, Operation *op,
                      const Twine &reason) {
  if (DeclineReasons *reasons = DeclineReasons::current())
    reasons->record(op, reason);
  return rewriter.notifyMatchFailure(op, reason);
}

} // namespace mlir::stablehlo_tvm
