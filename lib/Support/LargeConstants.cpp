//===- LargeConstants.cpp - Large hex constants parsed into blobs ---------===//

#include "stablehlo-tvm/Support/LargeConstants.h"

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

/// The byte size of the tensor type at the start of `rest`
/// (`"> : tensor<4x5xf32>...`), if that is what follows a hex blob.
std::optional<size_t> tensorBytes(llvm::StringRef rest) {
  if (!rest.consume_front("\"> : tensor<"))
    return std::nullopt;
  size_t count = 1;
  while (!rest.empty() && llvm::isDigit(rest.front())) {
    size_t digits = rest.find_first_not_of("0123456789");
    size_t dim;
    if (digits == llvm::StringRef::npos ||
        rest.take_front(digits).getAsInteger(10, dim))
      return std::nullopt;
    count *= dim;
    rest = rest.drop_front(digits);
    if (!rest.consume_front("x"))
      return std::nullopt;
  }
  size_t end = rest.find('>');
  if (end == llvm::StringRef::npos)
    return std::nullopt;
  std::optional<size_t> bytes = elementBytes(rest.take_front(end));
  if (!bytes)
    return std::nullopt;
  return count * *bytes;
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
  static constexpr llvm::StringLiteral marker = "dense<\"0x";
  if (text.contains(kPrefix))
    return std::nullopt;
  std::optional<LargeConstants> result;
  size_t copied = 0; // text[0, copied) is in result->text
  size_t at = 0;
  while ((at = text.find(marker, at)) != llvm::StringRef::npos) {
    size_t hexStart = at + marker.size();
    size_t hexEnd = text.find('"', hexStart);
    if (hexEnd == llvm::StringRef::npos)
      break;
    size_t next = hexEnd;
    llvm::StringRef hex = text.slice(hexStart, hexEnd);
    std::optional<size_t> bytes = tensorBytes(text.drop_front(hexEnd));
    // A splat's blob holds one element; it stays an attribute.
    if (!bytes || *bytes < minBytes || hex.size() != 2 * *bytes) {
      at = next;
      continue;
    }
    AsmResourceBlob blob = HeapAsmResourceBlob::allocate(
        *bytes, kAlignment, /*dataIsMutable=*/true);
    if (!decodeHex(hex, blob.getMutableData().data())) {
      at = next; // the parser reports the bad digit
      continue;
    }
    if (!result)
      result.emplace();
    std::string name = (kPrefix + llvm::Twine(result->blobs.size())).str();
    result->text.append(text.data() + copied, at - copied);
    result->text += "dense_resource<" + name + ">";
    // Skip the blob's closing quote and '>'.
    copied = hexEnd + 2;
    at = copied;
    result->blobs.emplace_back(std::move(name), std::move(blob));
  }
  if (result)
    result->text.append(text.data() + copied, text.size() - copied);
  return result;
}

void LargeConstants::attachTo(MLIRContext *context) {
  auto &manager = DenseResourceElementsHandle::getManagerInterface(context);
  for (auto &[name, blob] : blobs)
    manager.update(name, std::move(blob));
  blobs.clear();
}

} // namespace mlir::stablehlo_tvm
