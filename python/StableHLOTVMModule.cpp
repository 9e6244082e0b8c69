//===- StableHLOTVMModule.cpp - nanobind bindings of the C++ core ---------===//
//
// The Python side sees parsed modules, the pass pipeline and a read-only walk
// of functions: ops with operand/result ids, result types as (shape, dtype)
// and attributes as Python values. Dense constants come out as zero-copy
// views of the attribute's storage. Every MLIR diagnostic becomes a
// stablehlo_tvm.errors.MLIRError carrying its location; nothing aborts the
// interpreter.
//
//===----------------------------------------------------------------------===//

#include "NativeFft.h"
#include "ParallelLaunch.h"
#include "ShapeAssertion.h"
#include "NativeLapack.h"
#include "RelaxBodyEmitter.h"
#include "RepeatedCall.h"
#include "ResultArrays.h"

#include "stablehlo-tvm/InitAll.h"
#include "stablehlo-tvm/Transforms/Passes.h"
#include "stablehlo-tvm/Support/I1HexCompat.h"
#include "stablehlo-tvm/Support/LargeConstants.h"
#include "stablehlo-tvm/Support/ParserHazards.h"
#include "stablehlo-tvm/Support/NestingDepth.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/SourceMgr.h"

#include <tvm/ffi/error.h>
#include <tvm/ffi/string.h>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace nb = nanobind;
using namespace mlir;

namespace {

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

struct DiagnosticRecord {
  std::string severity;
  std::string location;
  std::string message;
};

/// An error carrying every diagnostic MLIR emitted, notes included.
struct DiagnosticError {
  std::string summary;
  std::vector<DiagnosticRecord> diagnostics;
};

/// `error` as the Python exception it is raised as: stablehlo_tvm.MLIRError.
nb::object pythonErrorOf(const DiagnosticError &error) {
  nb::object cls =
      nb::module_::import_("stablehlo_tvm.errors").attr("MLIRError");
  nb::list diagnostics;
  for (const DiagnosticRecord &r : error.diagnostics)
    diagnostics.append(nb::make_tuple(r.severity, r.location, r.message));
  return cls(error.summary, diagnostics);
}

std::string formatLocation(Location loc) {
  std::string result;
  loc->walk([&](Location nested) {
    if (auto fileLoc = dyn_cast<FileLineColRange>(nested)) {
      result = (fileLoc.getFilename().getValue() + ":" +
                llvm::Twine(fileLoc.getStartLine()) + ":" +
                llvm::Twine(fileLoc.getStartColumn()))
                   .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result.empty() ? "<unknown>" : result;
}

const char *severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  return "error";
}

/// Collects the diagnostics of one C++ call; `raise` turns them into an error.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext *context)
      : handler(context, [this](Diagnostic &diag) {
          record(diag);
          for (Diagnostic &note : diag.getNotes())
            record(note);
          return success();
        }) {}

  [[noreturn]] void raise(const std::string &what) {
    DiagnosticError error;
    error.diagnostics = records;
    std::string text = what;
    for (const DiagnosticRecord &r : records)
      text += "\n" + r.location + ": " + r.severity + ": " + r.message;
    error.summary = text;
    throw error;
  }

private:
  void record(Diagnostic &diag) {
    records.push_back({severityName(diag.getSeverity()),
                       formatLocation(diag.getLocation()), diag.str()});
  }

  std::vector<DiagnosticRecord> records;
  ScopedDiagnosticHandler handler;
};

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

/// Constants this large are parsed into aligned blobs that TVM uses in place
/// (see LargeConstants.h); smaller ones stay attributes, which passes fold.
constexpr size_t kLargeConstantBytes = 1 << 20;

class PyModule;

/// A parsed module with the context that owns it.
class PyModule {
public:
  PyModule(const PyModule &) = delete;
  PyModule &operator=(const PyModule &) = delete;

  /// Parses `text` (a str) where it lies: a module's text can be hundreds
  /// of MB of constants, and a copy of it would double the import's peak.
  ///
  /// `constants` lists (name, bytes) of constants the text refers to as
  /// `dense_resource<name>` without holding them (what jaxlib's printer
  /// elides): the blobs borrow the bytes, which the module keeps alive.
  static std::unique_ptr<PyModule> parse(nb::str text,
                                         const std::string &sourceName,
                                         bool allowUnregisteredDialects,
                                         nb::list constants) {
    Py_ssize_t size;
    const char *data = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
    if (!data)
      throw nb::python_error();
    auto result = std::unique_ptr<PyModule>(new PyModule());
    result->context->allowUnregisteredDialects(allowUnregisteredDialects);
    DiagnosticCollector diagnostics(result->context.get());
    {
      nb::gil_scoped_release release;
      ParserConfig config(result->context.get());
      llvm::StringRef source(data, size);
      if (auto at = stablehlo_tvm::findExcessiveNesting(source)) {
        // The parser would exhaust the stack on it.
        emitError(FileLineColLoc::get(result->context.get(), sourceName,
                                      at->line, at->column))
            << "nesting deeper than " << stablehlo_tvm::kMaxNestingDepth
            << " brackets, braces or parentheses: refused";
      } else if (auto hazard = stablehlo_tvm::findParserHazard(source)) {
        // MLIR's parser would corrupt memory or crash on it.
        emitError(FileLineColLoc::get(result->context.get(), sourceName,
                                      hazard->at.line, hazard->at.column))
            << hazard->message << ": refused";
      } else {
        std::optional<std::string> packed =
            stablehlo_tvm::i1HexBytesToPacked(source);
        if (packed)
          source = *packed;
        std::optional<stablehlo_tvm::LargeConstants> large =
            stablehlo_tvm::extractLargeConstants(source, kLargeConstantBytes);
        result->module = parseSourceString<ModuleOp>(
            large ? large->text : source, config, sourceName);
        if (large && result->module)
          large->attachTo(result->context.get());
      }
    }
    if (!result->module)
      diagnostics.raise("failed to parse " + sourceName);
    result->borrowConstants(constants);
    return result;
  }

  void borrowConstants(nb::list constants) {
    auto &manager =
        DenseResourceElementsHandle::getManagerInterface(context.get());
    for (nb::handle item : constants) {
      auto [name, bytes] =
          nb::cast<std::tuple<std::string,
                              nb::ndarray<const uint8_t, nb::ndim<1>,
                                          nb::c_contig, nb::device::cpu>>>(
              item);
      auto address = reinterpret_cast<uintptr_t>(bytes.data());
      size_t alignment = address ? std::min<size_t>(
                                       64, size_t(1) << llvm::countr_zero(address))
                                 : 64;
      manager.update(name, UnmanagedAsmResourceBlob::allocateWithAlign(
                               ArrayRef<char>(reinterpret_cast<const char *>(
                                                  bytes.data()),
                                              bytes.size()),
                               alignment));
      borrowed.push_back(nb::borrow(item));
    }
  }

  void runPipeline(const std::string &pipeline) {
    DiagnosticCollector diagnostics(context.get());
    bool failed;
    {
      nb::gil_scoped_release release;
      failed = runPipelineImpl(pipeline);
    }
    if (failed)
      diagnostics.raise("pass pipeline failed: " + pipeline);
  }

  /// Specializes function `entry` to argument shapes (every argument's, in
  /// order) and values of scalar integer arguments: the import's first
  /// passes, then stablehlo-refine-shapes with those options.
  void specialize(const std::string &entry,
                  const std::vector<std::vector<int64_t>> &shapes,
                  const std::vector<std::pair<unsigned, int64_t>> &values) {
    stablehlo_tvm::RefineShapesOptions options;
    options.entry = entry;
    for (const std::vector<int64_t> &shape : shapes) {
      std::string text = shape.empty() ? "scalar" : "";
      for (auto [i, n] : llvm::enumerate(shape))
        text += (i ? "x" : "") + std::to_string(n);
      options.argShapes.push_back(text);
    }
    for (auto [index, value] : values)
      options.argValues.push_back(std::to_string(index) + "=" +
                                  std::to_string(value));
    DiagnosticCollector diagnostics(context.get());
    bool failed;
    {
      nb::gil_scoped_release release;
      failed = runPipelineImpl(std::string("builtin.module(") +
                                   stablehlo_tvm::getPreparePasses() + ")",
                               stablehlo_tvm::createRefineShapes(options));
    }
    if (failed)
      diagnostics.raise("specializing @" + entry + " to its argument shapes failed");
  }

  /// The scalar integer arguments of `entry` that determine shapes, found
  /// on a copy with the import's first passes run.
  std::vector<unsigned> dimensionArguments(const std::string &entry) {
    OwningOpRef<ModuleOp> copy = module->clone();
    std::swap(copy, module);
    DiagnosticCollector diagnostics(context.get());
    bool failed = runPipelineImpl(std::string("builtin.module(") +
                                  stablehlo_tvm::getPreparePasses() + ")");
    std::vector<unsigned> found;
    if (!failed)
      if (auto func = module->lookupSymbol<func::FuncOp>(entry))
        for (unsigned i : stablehlo_tvm::getDimensionArguments(func))
          found.push_back(i);
    std::swap(copy, module);
    if (failed)
      diagnostics.raise("preparing @" + entry + " failed");
    return found;
  }

  std::string toText(bool generic, bool debugInfo) {
    std::string text;
    llvm::raw_string_ostream os(text);
    OpPrintingFlags flags;
    if (generic)
      flags.printGenericOpForm();
    if (debugInfo)
      flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
    module->print(os, flags);
    if (std::optional<std::string> unpacked =
            stablehlo_tvm::i1HexPackedToBytes(text))
      return *unpacked;
    return text;
  }

  ModuleOp get() { return *module; }

  /// The dialects every module's context has.
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    stablehlo_tvm::registerAllDialects(registry);
    return registry;
  }

  /// The Python forms of the types of the ops the Relax body emitter
  /// described, for the next.
  DenseMap<Type, nb::object> describedTypes;

  /// The func.func named `name` that has a body, or a null op.
  func::FuncOp function(llvm::StringRef name) {
    auto func = module->lookupSymbol<func::FuncOp>(name);
    return func && !func.isExternal() ? func : func::FuncOp();
  }

private:
  PyModule() : context(std::make_unique<MLIRContext>(makeRegistry())) {
    context->loadAllAvailableDialects();
  }

  bool runPipelineImpl(const std::string &pipeline,
                       std::unique_ptr<Pass> last = nullptr) {
    FailureOr<OpPassManager> parsed = parsePassPipeline(pipeline);
    if (failed(parsed)) {
      emitError(UnknownLoc::get(context.get()))
          << "invalid pass pipeline: " << pipeline;
      return true;
    }
    PassManager pm(context.get(), parsed->getOpAnchorName());
    static_cast<OpPassManager &>(pm) = std::move(*parsed);
    if (last)
      pm.addPass(std::move(last));
    // Verifying after every pass cost more than all the passes but the
    // conversion together (a 14k-op module: ~10 ms a pass); the module is
    // verified once, when the pipeline is done.
    pm.enableVerifier(false);
    if (mlir::failed(pm.run(*module)))
      return true;
    return mlir::failed(verify(*module));
  }

  std::unique_ptr<MLIRContext> context;
  OwningOpRef<ModuleOp> module;
  // What borrowConstants' blobs point into.
  std::vector<nb::object> borrowed;
};

//===----------------------------------------------------------------------===//
// Walking functions into Python values
//===----------------------------------------------------------------------===//

/// TVM's name for an element type; empty for types TVM has no dtype for.
std::string dtypeName(Type type) {
  if (type.isIndex())
    return "int64";
  if (type.isInteger(1))
    return "bool";
  if (auto intType = dyn_cast<IntegerType>(type))
    return (intType.isUnsigned() ? "uint" : "int") +
           std::to_string(intType.getWidth());
  if (type.isBF16())
    return "bfloat16";
  if (auto floatType = dyn_cast<FloatType>(type)) {
    if (floatType.isF16() || floatType.isF32() || floatType.isF64())
      return "float" + std::to_string(floatType.getWidth());
  }
  return "";
}

std::string printToString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// A tensor type as (shape, dtype, text); -1 marks a dynamic dimension and
/// dtype is None where TVM has no equivalent.
nb::object typeToPython(Type type) {
  auto tensor = dyn_cast<ShapedType>(type);
  if (!tensor || !tensor.hasRank()) {
    // A scalar (in a kernel body) has shape () and its dtype.
    std::string dtype = type.isIntOrIndexOrFloat() ? dtypeName(type) : "";
    if (dtype.empty())
      return nb::make_tuple(nb::none(), nb::none(), printToString(type));
    return nb::make_tuple(nb::tuple(), nb::cast(dtype), printToString(type));
  }
  nb::list shape;
  for (int64_t dim : tensor.getShape())
    shape.append(ShapedType::isDynamic(dim) ? -1 : dim);
  std::string dtype = dtypeName(tensor.getElementType());
  nb::object dtypeObj = dtype.empty() ? nb::none() : nb::cast(dtype);
  return nb::make_tuple(nb::tuple(shape), dtypeObj, printToString(type));
}

/// Constant elements as Python takes them: (bytes, shape, dtype, splat).
nb::object elementsTuple(ShapedType type, nb::object data, bool splat) {
  std::string dtype = dtypeName(type.getElementType());
  if (dtype.empty())
    throw DiagnosticError{"unsupported constant element type " +
                              printToString(type.getElementType()),
                          {}};
  nb::list shape;
  for (int64_t dim : type.getShape())
    shape.append(dim);
  return nb::make_tuple(data, nb::tuple(shape), dtype, splat);
}

/// Dense elements as elementsTuple gives them; the bytes view aliases the
/// attribute's storage, which lives as long as `owner`.
nb::object elementsToPython(DenseElementsAttr attr, nb::handle owner) {
  auto type = cast<ShapedType>(attr.getType());
  nb::object data;
  if (type.getElementType().isInteger(1)) {
    // i1 storage is bit-packed: unpack to one byte per element.
    std::vector<uint8_t> bytes;
    for (bool value : attr.getValues<bool>())
      bytes.push_back(value);
    data = nb::bytes(reinterpret_cast<const char *>(bytes.data()),
                     bytes.size());
  } else {
    ArrayRef<char> raw = attr.getRawData();
    size_t size = raw.size();
    data = nb::cast(nb::ndarray<nb::numpy, const uint8_t, nb::ndim<1>>(
        raw.data(), {size}, owner));
  }
  return elementsTuple(type, data, attr.isSplat());
}

/// A constant parsed into a resource blob, as elementsTuple gives it, except
/// that the bytes are writable: the blob is the module's own, 64-byte
/// aligned, and TVM may use it in place.
nb::object resourceToPython(DenseResourceElementsAttr attr, nb::handle owner) {
  auto type = cast<ShapedType>(attr.getType());
  AsmResourceBlob *blob = attr.getRawHandle().getBlob();
  if (type.getElementType().isInteger(1) || !blob)
    throw DiagnosticError{"constant " + attr.getRawHandle().getKey().str() +
                              " has no data of a TVM element type",
                          {}};
  size_t size = blob->getData().size();
  // A borrowed blob (PyModule::borrowConstants) is read-only: TVM copies it.
  nb::object data =
      blob->isMutable()
          ? nb::cast(nb::ndarray<nb::numpy, uint8_t, nb::ndim<1>>(
                blob->getMutableData().data(), {size}, owner))
          : nb::cast(nb::ndarray<nb::numpy, const uint8_t, nb::ndim<1>>(
                blob->getData().data(), {size}, owner));
  return elementsTuple(type, data, /*splat=*/false);
}

nb::object attributeToPython(Attribute attr, nb::handle owner) {
  if (auto boolAttr = dyn_cast<BoolAttr>(attr))
    return nb::bool_(boolAttr.getValue());
  if (auto intAttr = dyn_cast<IntegerAttr>(attr)) {
    if (intAttr.getType().isUnsignedInteger())
      return nb::int_(intAttr.getValue().getZExtValue());
    return nb::int_(intAttr.getValue().getSExtValue());
  }
  if (auto floatAttr = dyn_cast<FloatAttr>(attr))
    return nb::float_(floatAttr.getValueAsDouble());
  if (auto strAttr = dyn_cast<StringAttr>(attr))
    return nb::str(strAttr.getValue().data(), strAttr.getValue().size());
  if (auto symbol = dyn_cast<FlatSymbolRefAttr>(attr))
    return nb::str(symbol.getValue().data(), symbol.getValue().size());
  if (auto arrayAttr = dyn_cast<DenseI64ArrayAttr>(attr)) {
    nb::list list;
    for (int64_t v : arrayAttr.asArrayRef())
      list.append(v);
    return list;
  }
  if (auto arrayAttr = dyn_cast<DenseBoolArrayAttr>(attr)) {
    nb::list list;
    for (bool v : arrayAttr.asArrayRef())
      list.append(v);
    return list;
  }
  if (auto arrayAttr = dyn_cast<ArrayAttr>(attr)) {
    nb::list list;
    for (Attribute element : arrayAttr)
      list.append(attributeToPython(element, owner));
    return list;
  }
  if (auto dictAttr = dyn_cast<DictionaryAttr>(attr)) {
    nb::dict dict;
    for (NamedAttribute named : dictAttr)
      dict[nb::str(named.getName().data(), named.getName().size())] =
          attributeToPython(named.getValue(), owner);
    return dict;
  }
  if (auto typeAttr = dyn_cast<TypeAttr>(attr)) {
    std::string dtype = dtypeName(typeAttr.getValue());
    if (!dtype.empty())
      return nb::str(dtype.c_str());
    return nb::str(printToString(typeAttr.getValue()).c_str());
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(attr))
    return elementsToPython(dense, owner);
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr))
    return resourceToPython(resource, owner);
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  return nb::str(text.c_str());
}

/// Gives every SSA value its id (the one the Relax body emitter uses too),
/// and every type its Python form, made once: a function's values share few
/// types.
class ValueIds {
public:
  ValueIds() : types(ownTypes) {}
  /// Python forms kept in `types`, to be shared between walks.
  explicit ValueIds(DenseMap<Type, nb::object> &types) : types(types) {}

  int64_t operator()(Value value) { return stablehlo_tvm::python::valueId(value); }

  nb::object typeOf(Type type) {
    auto [it, inserted] = types.try_emplace(type);
    if (inserted)
      it->second = typeToPython(type);
    return it->second;
  }

private:
  DenseMap<Type, nb::object> ownTypes;
  DenseMap<Type, nb::object> &types;
};

/// An op's attributes as Python values; comparison predicates by name.
nb::dict attributesToPython(Operation &op, nb::handle owner) {
  nb::dict attrs;
  for (NamedAttribute named : op.getAttrs())
    attrs[named.getName().str().c_str()] =
        attributeToPython(named.getValue(), owner);
  if (auto call = dyn_cast<func::CallOp>(op))
    attrs["callee"] = call.getCallee().str();
  if (auto cmp = dyn_cast<arith::CmpIOp>(op))
    attrs["predicate"] = arith::stringifyCmpIPredicate(cmp.getPredicate()).str();
  if (auto cmp = dyn_cast<arith::CmpFOp>(op))
    attrs["predicate"] = arith::stringifyCmpFPredicate(cmp.getPredicate()).str();
  return attrs;
}

nb::dict blockToPython(Block &block, ValueIds &idOf, nb::handle owner);

/// {name, operands, results [(id, type)], attributes, location, regions}:
/// regions are lists of blocks as blockToPython gives them.
nb::dict opToPython(Operation &op, ValueIds &idOf, nb::handle owner) {
  nb::dict entry;
  entry["name"] = op.getName().getStringRef().str();
  nb::list operands, opResults, regions;
  for (Value v : op.getOperands())
    operands.append(idOf(v));
  for (Value v : op.getResults())
    opResults.append(nb::make_tuple(idOf(v), idOf.typeOf(v.getType())));
  for (Region &region : op.getRegions()) {
    nb::list blocks;
    for (Block &block : region)
      blocks.append(blockToPython(block, idOf, owner));
    regions.append(blocks);
  }
  entry["operands"] = operands;
  entry["results"] = opResults;
  entry["attributes"] = attributesToPython(op, owner);
  entry["location"] = formatLocation(op.getLoc());
  entry["regions"] = regions;
  return entry;
}

/// {arguments [(id, type)], ops [...]}, the terminator included.
nb::dict blockToPython(Block &block, ValueIds &idOf, nb::handle owner) {
  nb::list arguments, ops;
  for (BlockArgument arg : block.getArguments())
    arguments.append(nb::make_tuple(idOf(arg), idOf.typeOf(arg.getType())));
  for (Operation &op : block)
    ops.append(opToPython(op, idOf, owner));
  nb::dict result;
  result["arguments"] = arguments;
  result["ops"] = ops;
  return result;
}

/// The functions that tvm.call ops in `func` call, nested ones too.
nb::list calleesOf(func::FuncOp func) {
  std::set<std::string> names;
  func.walk([&](Operation *op) {
    if (op->getName().getStringRef() == "tvm.call")
      if (auto callee = op->getAttrOfType<FlatSymbolRefAttr>("callee"))
        names.insert(callee.getValue().str());
  });
  nb::list list;
  for (const std::string &name : names)
    list.append(name);
  return list;
}

/// One function as a dict: name, public, attributes, arguments [(id, type)],
/// results [type], returns, callees and, when `withOps`, ops (those of its
/// entry block but the return).
nb::dict functionToPython(func::FuncOp func, nb::handle owner, bool withOps) {
  ValueIds idOf;
  nb::dict result;
  result["name"] = func.getSymName().str();
  result["public"] = func.isPublic();
  nb::dict funcAttrs;
  for (NamedAttribute named : func->getDiscardableAttrs())
    funcAttrs[named.getName().str().c_str()] =
        attributeToPython(named.getValue(), owner);
  result["attributes"] = funcAttrs;
  nb::list arguments, results, ops, returns;
  for (Type type : func.getFunctionType().getResults())
    results.append(idOf.typeOf(type));
  if (!func.isExternal()) {
    Block &body = func.getBody().front();
    for (BlockArgument arg : body.getArguments())
      arguments.append(nb::make_tuple(idOf(arg), idOf.typeOf(arg.getType())));
    for (Value v : body.getTerminator()->getOperands())
      returns.append(idOf(v));
    if (withOps)
      for (Operation &op : body.without_terminator())
        ops.append(opToPython(op, idOf, owner));
  }
  result["arguments"] = arguments;
  result["results"] = results;
  if (withOps)
    result["ops"] = ops;
  result["returns"] = returns;
  result["callees"] = calleesOf(func);
  return result;
}

/// The Python object an FFI argument wraps (TVM's FFI passes a Python
/// object it has no type for as an opaque object holding a reference).
nb::handle pythonObjectOf(const tvm::ffi::Any &value) {
  if (value.type_index() != kTVMFFIOpaquePyObject)
    TVM_FFI_THROW(TypeError) << "expected a Python object, got "
                             << value.GetTypeKey();
  auto object = value.cast<tvm::ffi::ObjectRef>();
  auto *header = tvm::ffi::details::ObjectUnsafe::GetHeader(object.get());
  return static_cast<PyObject *>(TVMFFIOpaqueObjectGetCellPtr(header)->handle);
}

/// `object` as an FFI value that holds a reference to it and comes back to
/// Python as itself.
tvm::ffi::Any opaquePythonObject(nb::object object) {
  TVMFFIObjectHandle handle = nullptr;
  int failed = TVMFFIObjectCreateOpaque(
      object.release().ptr(), kTVMFFIOpaquePyObject,
      [](void *pointer) {
        nb::gil_scoped_acquire gil;
        Py_DECREF(static_cast<PyObject *>(pointer));
      },
      &handle);
  if (failed)
    TVM_FFI_THROW(RuntimeError) << "could not wrap a Python object for TVM";
  return tvm::ffi::details::ObjectUnsafe::ObjectRefFromObjectPtr<
      tvm::ffi::ObjectRef>(
      tvm::ffi::details::ObjectUnsafe::ObjectPtrFromOwned<tvm::ffi::Object>(
          static_cast<TVMFFIObject *>(handle)));
}

/// What "stablehlo_tvm.emit_relax_body" does: emitRelaxBody on function
/// `name` of `source`, a _core.Module, which the caller holds for the call.
/// Each op handed back to Python goes with its description (opToPython),
/// made in the same walk.
tvm::ffi::Array<tvm::ffi::Any>
emitRelaxBodyOf(const tvm::ffi::Any &source, const tvm::ffi::String &name,
                const tvm::ffi::Any &builder,
                const tvm::ffi::Array<tvm::ffi::Any> &params,
                const tvm::ffi::Array<tvm::ffi::Any> &paramTypes,
                const tvm::ffi::Function &fallback) {
  nb::handle owner = pythonObjectOf(source);
  PyModule *module;
  func::FuncOp func;
  {
    nb::gil_scoped_acquire gil;
    if (!nb::try_cast<PyModule *>(owner, module) || !module)
      TVM_FFI_THROW(TypeError) << "expected a stablehlo_tvm._core.Module";
    func = module->function(std::string(name));
  }
  if (!func)
    TVM_FFI_THROW(ValueError) << "the module has no function @" << name
                              << " with a body";
  // An op the walk cannot describe is described by the Python exception
  // the walk raised, for the emitter to raise as it is: a C++ exception
  // must not cross TVM's FFI.
  auto describe = [&](Operation &op) {
    nb::gil_scoped_acquire gil;
    nb::object description;
    try {
      ValueIds idOf(module->describedTypes);
      description = opToPython(op, idOf, owner);
    } catch (const DiagnosticError &error) {
      description = pythonErrorOf(error);
    } catch (nb::python_error &error) {
      description = nb::borrow(error.value());
    } catch (const std::exception &error) {
      description = nb::module_::import_("builtins")
                        .attr("RuntimeError")(std::string(error.what()));
    }
    return opaquePythonObject(std::move(description));
  };
  return stablehlo_tvm::python::emitRelaxBody(func, builder, params,
                                              paramTypes, describe, fallback);
}

} // namespace

NB_MODULE(_core, m) {
  m.doc() = "C++ core of stablehlo_tvm: parsing, the import pipeline, walking";

  stablehlo_tvm::registerAllPasses();
  tvm::ffi::Function::SetGlobal("stablehlo_tvm.emit_relax_body",
                                tvm::ffi::Function::FromTyped(emitRelaxBodyOf),
                                /*override=*/true);
  // Kernels and the VM call it by name; it needs nothing from Python.
  stablehlo_tvm::python::registerNativeFft();
  stablehlo_tvm::python::registerShapeAssertion();
  stablehlo_tvm::python::registerHeldTensor();

  nb::register_exception_translator([](const std::exception_ptr &p, void *) {
    try {
      std::rethrow_exception(p);
    } catch (const DiagnosticError &error) {
      nb::object exc = pythonErrorOf(error);
      PyErr_SetObject(reinterpret_cast<PyObject *>(Py_TYPE(exc.ptr())),
                      exc.ptr());
    }
  });

  m.attr("IMPORT_PIPELINE") = stablehlo_tvm::getImportPipeline();
  m.attr("IMPORT_PASSES") = stablehlo_tvm::getImportPasses();
  // The names of the attributes the import leaves for the Python side,
  // defined once in the tvm dialect (TVMBase.td, discardableAttrs).
  nb::dict attributes;
  for (auto [key, name] : stablehlo_tvm::getSignatureAttributes())
    attributes[nb::str(key.data(), key.size())] =
        nb::str(name.data(), name.size());
  m.attr("ATTRIBUTES") = attributes;

  m.def(
      "directly_emitted_ops",
      []() {
        MLIRContext context(PyModule::makeRegistry(),
                            MLIRContext::Threading::DISABLED);
        context.loadAllAvailableDialects();
        std::vector<std::string> names;
        for (RegisteredOperationName name : context.getRegisteredOperations())
          if (stablehlo_tvm::python::emitsDirectly(name))
            names.push_back(name.getStringRef().str());
        llvm::sort(names);
        return names;
      },
      "The tvm-dialect ops the C++ Relax emitter builds itself "
      "(RelaxBodyEmitter.h), sorted by name.");

  m.def("parallel_launch_address",
        &stablehlo_tvm::python::parallelLaunchAddress,
        "The address of the parallel-loop launcher that compiled libraries "
        "use in place of TVM's (ParallelLaunch.h).");
  m.def("parallel_launches", &stablehlo_tvm::python::parallelLaunches,
        "How many parallel loops that launcher has run in this process.");

  m.def("result_arrays", &stablehlo_tvm::python::resultArrays,
        nb::arg("handle"), nb::arg("drop"), nb::arg("array_type"),
        nb::arg("borrowed"),
        "A VM call's result tensors as read-only numpy arrays of array_type, "
        "or None (ResultArrays.h).");
  m.def("register_result_dtype",
        &stablehlo_tvm::python::registerResultDtype, nb::arg("code"),
        nb::arg("bits"), nb::arg("dtype"),
        "Results of DLPack dtype (code, bits) become arrays of this numpy "
        "dtype in result_arrays.");
  m.def("held_tensor_address", &stablehlo_tvm::python::heldTensorAddress,
        nb::arg("base"),
        "The address of the tensor a result array's base holds, or None.");

  stablehlo_tvm::python::bindRepeatedCall(m);

  m.def("register_native_lapack",
        &stablehlo_tvm::python::registerNativeLapack, nb::arg("addresses"),
        "Native stablehlo_tvm.lapack.{getrf,potrf,trsm,geqrf,orgqr,syevd,gesdd} over the LAPACK "
        "functions at these addresses (NativeLapack.h).");

  nb::class_<PyModule>(m, "Module")
      .def_static("parse", &PyModule::parse, nb::arg("text"),
                  nb::arg("source_name") = "<input>",
                  nb::arg("allow_unregistered_dialects") = true,
                  nb::arg("constants") = nb::list(),
                  "Parse and verify MLIR text. Ops of unregistered dialects "
                  "(generic form) are kept, for the import to report.")
      .def("run_pipeline", &PyModule::runPipeline, nb::arg("pipeline"),
           "Run a textual pass pipeline, e.g. builtin.module(cse).")
      .def("specialize", &PyModule::specialize, nb::arg("entry"),
           nb::arg("shapes"), nb::arg("values"),
           "Specialize function `entry` to static argument shapes (one list "
           "of sizes per argument) and values of its dimension arguments "
           "((index, value) pairs): stablehlo-refine-shapes.")
      .def("dimension_arguments", &PyModule::dimensionArguments,
           nb::arg("entry"),
           "Indices of the scalar integer arguments of `entry` whose values "
           "determine shapes (an export's dimension arguments).")
      .def("to_text", &PyModule::toText, nb::arg("generic") = false,
           nb::arg("debug_info") = false)
      .def("__str__", [](PyModule &self) { return self.toText(false, false); })
      .def(
          "functions",
          [](nb::handle self, bool ops) {
            PyModule &module = nb::cast<PyModule &>(self);
            nb::list list;
            for (auto func : module.get().getOps<func::FuncOp>())
              list.append(functionToPython(func, self, ops));
            return list;
          },
          nb::arg("ops") = true,
          "Every func.func of the module as a dict (see functionToPython).")
      .def(
          "op_names",
          [](PyModule &self) {
            std::set<std::string> names;
            self.get()->walk([&](Operation *op) {
              names.insert(op->getName().getStringRef().str());
            });
            return std::vector<std::string>(names.begin(), names.end());
          },
          "The sorted names of every op in the module, nested ones too.");
}
