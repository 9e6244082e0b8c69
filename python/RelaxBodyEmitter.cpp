//===- RelaxBodyEmitter.cpp - A tvm-dialect function body into Relax ------===//
//
// Relax's BlockBuilder infers the type of every call it is given, ~5 us a
// call, and each call from Python costs ~1 us more: for a model of 10k ops
// that was most of the import. Here an elementwise op costs a few FFI calls
// from C++ and no inference.
//
//===----------------------------------------------------------------------===//

#include "RelaxBodyEmitter.h"

#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

#include <tvm/ffi/error.h>
#include <tvm/ffi/string.h>

#include <optional>
#include <string>
#include <utility>

namespace ffi = tvm::ffi;

namespace mlir::stablehlo_tvm::python {

int64_t valueId(Value value) {
  return reinterpret_cast<intptr_t>(value.getAsOpaquePointer());
}

bool emitsDirectly(OperationName name) {
  return name.getDialectNamespace() == "tvm" &&
         name.hasTrait<OpTrait::SameOperandsAndResultType>() &&
         name.hasTrait<OpTrait::OneResult>() &&
         name.hasTrait<OpTrait::ZeroRegions>() &&
         name.getAttributeNames().empty();
}

namespace {

/// The Relax FFI functions an elementwise op needs, looked up once (TVM's
/// Python package has registered them by the time anything is emitted).
struct RelaxFunctions {
  ffi::Function updateType = ffi::Function::GetGlobalRequired("relax.UpdateType");
  ffi::Function dataflowVar = ffi::Function::GetGlobalRequired("relax.DataflowVar");
  ffi::Function varBinding = ffi::Function::GetGlobalRequired("relax.VarBinding");
  ffi::Function emitNormalized =
      ffi::Function::GetGlobalRequired("relax.BlockBuilderEmitNormalized");
};

const RelaxFunctions &relaxFunctions() {
  // Never destroyed: at exit, TVM's libraries may be finalized first.
  static const RelaxFunctions *functions = new RelaxFunctions();
  return *functions;
}

/// A Relax value and its type.
using Typed = std::pair<ffi::Any, ffi::Any>;

class BodyEmitter {
public:
  BodyEmitter(const ffi::Any &builder,
              llvm::function_ref<ffi::Any(Operation &)> describe,
              const ffi::Function &fallback)
      : builder(builder), describe(describe), fallback(fallback),
        relax(relaxFunctions()) {}

  void bind(Value value, Typed typed) { values[value] = std::move(typed); }

  const Typed &lookup(Value value) const {
    auto it = values.find(value);
    if (it == values.end())
      TVM_FFI_THROW(InternalError) << "a value used before the emitter saw it";
    return it->second;
  }

  void emit(Operation &op) {
    const ffi::Function *make = directFunction(op);
    if (make && sameRelaxTypes(op)) {
      emitDirectly(op, *make);
      return;
    }
    emitThroughFallback(op);
  }

private:
  /// relax.op.<name> for an op emitsDirectly covers; null for the rest.
  const ffi::Function *directFunction(Operation &op) {
    OperationName name = op.getName();
    auto [it, inserted] = directFunctions.try_emplace(name);
    if (inserted && emitsDirectly(name)) {
      StringRef relaxName =
          name.getStringRef().drop_front(name.getDialectNamespace().size() + 1);
      it->second = ffi::Function::GetGlobal("relax.op." + relaxName.str());
    }
    // Discardable attributes: the Python emitter passes them on.
    if (!it->second || !op.getAttrs().empty())
      return nullptr;
    return &*it->second;
  }

  /// Whether the operands' Relax types are one: always for static
  /// shapes; with symbolic ones, two types equal in MLIR may hold sizes
  /// Relax has to prove equal (or cannot), which inference does.
  bool sameRelaxTypes(Operation &op) const {
    if (cast<ShapedType>(op.getResult(0).getType()).hasStaticShape())
      return true;
    const ffi::Any &first = lookup(op.getOperand(0)).second;
    return llvm::all_of(op.getOperands().drop_front(), [&](Value operand) {
      return lookup(operand).second.same_as(first);
    });
  }

  void emitDirectly(Operation &op, const ffi::Function &make) {
    SmallVector<ffi::AnyView, 2> args;
    for (Value operand : op.getOperands())
      args.push_back(lookup(operand).first);
    ffi::Any call;
    make.CallPacked(args.data(), static_cast<int32_t>(args.size()), &call);
    // The result's type is the operands' (SameOperandsAndResultType).
    const ffi::Any &type = lookup(op.getOperand(0)).second;
    relax.updateType(call, type);
    // Names of its own, not the builder's: asking it for a fresh name cost
    // as much as the rest of the op.
    ffi::String name("v" + std::to_string(count++));
    ffi::Any var = relax.dataflowVar(name, type, nullptr);
    relax.emitNormalized(builder, relax.varBinding(var, call, nullptr));
    bind(op.getResult(0), {std::move(var), type});
  }

  void emitThroughFallback(Operation &op) {
    llvm::SetVector<Value> used(op.getOperands().begin(), op.getOperands().end());
    getUsedValuesDefinedAbove(op.getRegions(), used);
    // Arguments one by one: Python reads an FFI array an element at a time,
    // a call each.
    ffi::Any description = describe(op);
    SmallVector<ffi::AnyView, 8> args{description};
    for (Value value : used) {
      args.push_back(valueId(value));
      args.push_back(lookup(value).first);
    }
    ffi::Any returned;
    fallback.CallPacked(args.data(), static_cast<int32_t>(args.size()), &returned);
    auto results = returned.cast<ffi::Array<ffi::Any>>();
    if (results.size() != 2 * op.getNumResults())
      TVM_FFI_THROW(InternalError)
          << "the emitter gave " << results.size() / 2 << " values for "
          << op.getNumResults() << " results";
    for (auto [i, result] : llvm::enumerate(op.getResults()))
      bind(result, {results[2 * i], results[2 * i + 1]});
  }

  ffi::Any builder;
  llvm::function_ref<ffi::Any(Operation &)> describe;
  ffi::Function fallback;
  const RelaxFunctions &relax;
  DenseMap<Value, Typed> values;
  int64_t count = 0;
  DenseMap<OperationName, std::optional<ffi::Function>> directFunctions;
};

} // namespace

ffi::Array<ffi::Any> emitRelaxBody(func::FuncOp func, const ffi::Any &builder,
                                   const ffi::Array<ffi::Any> &params,
                                   const ffi::Array<ffi::Any> &paramTypes,
                                   llvm::function_ref<ffi::Any(Operation &)> describe,
                                   const ffi::Function &fallback) {
  Block &body = func.getBody().front();
  if (params.size() != body.getNumArguments() ||
      paramTypes.size() != body.getNumArguments())
    TVM_FFI_THROW(ValueError) << "@" << func.getSymName().str() << " takes "
                              << body.getNumArguments() << " arguments, not "
                              << params.size();
  BodyEmitter emitter(builder, describe, fallback);
  for (auto [i, arg] : llvm::enumerate(body.getArguments()))
    emitter.bind(arg, {params[i], paramTypes[i]});
  for (Operation &op : body.without_terminator())
    emitter.emit(op);
  ffi::Array<ffi::Any> outputs;
  for (Value value : body.getTerminator()->getOperands())
    outputs.push_back(emitter.lookup(value).first);
  return outputs;
}

} // namespace mlir::stablehlo_tvm::python
