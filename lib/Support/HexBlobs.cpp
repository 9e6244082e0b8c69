//===- HexBlobs.cpp - Rewriting the hex constants of a module's text ------===//

#include "stablehlo-tvm/Support/HexBlobs.h"

#include "llvm/ADT/StringExtras.h"

namespace mlir::stablehlo_tvm {
namespace {

/// Element count and element type of the tensor type at the start of `rest`
/// (`"> : tensor<4x5xf32>...`), if that is what follows a hex literal.
std::optional<std::pair<int64_t, llvm::StringRef>>
tensorAfter(llvm::StringRef rest) {
  if (!rest.consume_front("\"> : tensor<"))
    return std::nullopt;
  int64_t count = 1;
  while (!rest.empty() && llvm::isDigit(rest.front())) {
    size_t digits = rest.find_first_not_of("0123456789");
    int64_t dim;
    if (digits == llvm::StringRef::npos ||
        rest.take_front(digits).getAsInteger(10, dim) || dim > (1LL << 40) ||
        count > (1LL << 40))
      return std::nullopt;
    count *= dim;
    rest = rest.drop_front(digits);
    if (!rest.consume_front("x"))
      return std::nullopt;
  }
  size_t end = rest.find('>');
  if (end == 0 || end == llvm::StringRef::npos)
    return std::nullopt;
  return std::make_pair(count, rest.take_front(end));
}

} // namespace

std::optional<std::string> rewriteHexBlobs(
    llvm::StringRef text,
    llvm::function_ref<std::optional<std::string>(const HexBlob &)> replace) {
  static constexpr llvm::StringLiteral marker = "dense<\"0x";
  std::optional<std::string> out;
  size_t copied = 0; // text[0, copied) is in `out`
  size_t at = 0;
  while ((at = text.find(marker, at)) != llvm::StringRef::npos) {
    size_t hexStart = at + marker.size();
    size_t hexEnd = text.find('"', hexStart);
    if (hexEnd == llvm::StringRef::npos)
      break;
    size_t literalStart = at;
    at = hexEnd;
    auto tensor = tensorAfter(text.drop_front(hexEnd));
    if (!tensor)
      continue;
    HexBlob blob{text.slice(hexStart, hexEnd), tensor->first, tensor->second};
    std::optional<std::string> replacement = replace(blob);
    if (!replacement)
      continue;
    if (!out)
      out.emplace().reserve(text.size());
    out->append(text.data() + copied, literalStart - copied);
    *out += *replacement;
    copied = hexEnd + 2; // past the literal's closing quote and '>'
  }
  if (out)
    out->append(text.data() + copied, text.size() - copied);
  return out;
}

} // namespace mlir::stablehlo_tvm
