//===- LargeConstants.cpp - Large hex constants parsed into blobs ---------===//

#include "stablehlo-tvm/Support/LargeConstants.h"
#include "stablehlo-tvm/Support/HexBlobs.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringExtras.h"

#include <array>

namespace mlir::stablehlo_tvm {
namespace {

/// Resource names of the blobs; a text that already uses the prefix is left
/// as it is.
constexpr llvm::StringLiteral kPrefix = "stablehlo_tvm_constant_";

/// Alignment TVM expects of tensor data.
constexpr size_t kAlignment = 64;

/// Bytes per element of the element types a blob may have.
std::optional<size_t> elementBytes(llvm::StringRef type) {
  if (type == "f16" || type == "bf16")
    return 2;
  if (type == "f32")
    return 4;
  if (type == "f64")
    return 8;
  type.consume_front("u");
  if (!type.consume_front("i"))
    return std::nullopt;
  unsigned bits;
  if (type.getAsInteger(10, bits) ||
      (bits != 8 && bits != 16 && bits != 32 && bits != 64))
    return std::nullopt;
  return bits / 8;
}

/// Decodes `hex` (two digits a byte) into `out`; false on a bad digit.
bool decodeHex(llvm::StringRef hex, char *out) {
  static const std::array<int8_t, 256> value = [] {
    std::array<int8_t, 256> table;
    table.fill(-1);
    for (int d = 0; d < 10; ++d)
      table['0' + d] = d;
    for (int d = 0; d < 6; ++d)
      table['a' + d] = table['A' + d] = 10 + d;
    return table;
  }();
  const auto *digits = reinterpret_cast<const uint8_t *>(hex.data());
  for (size_t i = 0, n = hex.size() / 2; i < n; ++i) {
    int8_t high = value[digits[2 * i]], low = value[digits[2 * i + 1]];
    if ((high | low) < 0)
      return false;
    out[i] = static_cast<char>(high << 4 | low);
  }
  return true;
}

} // namespace

std::optional<LargeConstants> extractLargeConstants(llvm::StringRef text,
                                                    size_t minBytes) {
  if (text.contains(kPrefix))
    return std::nullopt;
  std::vector<std::pair<std::string, AsmResourceBlob>> blobs;
  std::optional<std::string> rewritten = rewriteHexBlobs(
      text, [&](const HexBlob &literal) -> std::optional<std::string> {
        std::optional<size_t> width = elementBytes(literal.elementType);
        if (!width)
          return std::nullopt;
        size_t bytes = literal.elementCount * *width;
        // A splat's literal holds one element; it stays an attribute.
        if (bytes < minBytes || literal.hex.size() != 2 * bytes)
          return std::nullopt;
        AsmResourceBlob blob = HeapAsmResourceBlob::allocate(
            bytes, kAlignment, /*dataIsMutable=*/true);
        if (!decodeHex(literal.hex, blob.getMutableData().data()))
          return std::nullopt; // the parser reports the bad digit
        std::string name = (kPrefix + llvm::Twine(blobs.size())).str();
        blobs.emplace_back(name, std::move(blob));
        return "dense_resource<" + name + ">";
      });
  if (!rewritten)
    return std::nullopt;
  return LargeConstants{std::move(*rewritten), std::move(blobs)};
}

void LargeConstants::attachTo(MLIRContext *context) {
  auto &manager = DenseResourceElementsHandle::getManagerInterface(context);
  for (auto &[name, blob] : blobs)
    manager.update(name, std::move(blob));
  blobs.clear();
}

} // namespace mlir::stablehlo_tvm
