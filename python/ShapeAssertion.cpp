//===- ShapeAssertion.cpp - Run-time checks of symbolic shapes ------------===//

#include "ShapeAssertion.h"

#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <string>

namespace ffi = tvm::ffi;

namespace mlir::stablehlo_tvm::python {
namespace {

/// `message` with each `{i}` replaced by the i-th of `args` (JAX's
/// assertion messages name the sizes so).
std::string format(const std::string &message, ffi::PackedArgs args,
                   int first) {
  std::string out;
  for (size_t i = 0; i < message.size(); ++i) {
    size_t close = message.find('}', i);
    if (message[i] == '{' && close != std::string::npos && close > i + 1 &&
        close - i <= 4 &&
        message.find_first_not_of("0123456789", i + 1) == close) {
      int k = std::stoi(message.substr(i + 1, close - i - 1));
      if (first + k < args.size()) {
        if (auto n = args[first + k].try_cast<int64_t>()) {
          out += std::to_string(*n);
          i = close;
          continue;
        }
      }
    }
    out += message[i];
  }
  return out;
}

void check(ffi::PackedArgs args, ffi::Any *result) {
  if (args.size() < 3)
    TVM_FFI_THROW(ValueError) << "stablehlo_tvm.shape_assertion expects "
                                 "(x, predicate, message, args...)";
  auto holds = args[1].try_cast<bool>();
  auto message = args[2].try_cast<ffi::String>();
  if (!holds || !message)
    TVM_FFI_THROW(TypeError) << "stablehlo_tvm.shape_assertion expects a "
                                "boolean predicate and a message";
  if (!*holds)
    TVM_FFI_THROW(ValueError) << format(std::string(*message), args, 3);
  *result = args[0];
}

} // namespace

void registerShapeAssertion() {
  ffi::Function::SetGlobal("stablehlo_tvm.shape_assertion",
                           ffi::Function::FromPacked(check),
                           /*override=*/true);
}

} // namespace mlir::stablehlo_tvm::python
