//===- I1HexCompat.cpp - i1 hex literals of jaxlib's MLIR vs MLIR 22 ------===//

#include "stablehlo-tvm/Support/I1HexCompat.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <optional>

namespace mlir::stablehlo_tvm {
namespace {

/// The element count of the i1 tensor type at the start of `rest`
/// (`> : tensor<4x5xi1>...`), if that is what follows a hex blob.
std::optional<int64_t> i1ElementCount(llvm::StringRef rest) {
  if (!rest.consume_front("\"> : tensor<"))
    return std::nullopt;
  int64_t count = 1;
  while (true) {
    if (rest.consume_front("i1>"))
      return count;
    size_t digits = rest.find_first_not_of("0123456789");
    if (digits == 0 || digits == llvm::StringRef::npos)
      return std::nullopt;
    int64_t dim;
    if (rest.take_front(digits).getAsInteger(10, dim))
      return std::nullopt;
    count *= dim;
    rest = rest.drop_front(digits);
    if (!rest.consume_front("x"))
      return std::nullopt;
  }
}

/// Rewrites every `dense<"0x...">` blob of an i1 tensor with `convert`, which
/// gets the blob's bytes and element count and returns the new bytes (or
/// nothing to leave the blob as it is). Nothing when no blob changed: the
/// text can be used as it is, with no copy (constants can be hundreds of MB).
template <typename Convert>
std::optional<std::string> rewriteI1Blobs(llvm::StringRef text,
                                          Convert convert) {
  static constexpr llvm::StringLiteral marker = "dense<\"0x";
  std::optional<std::string> out;
  size_t copied = 0; // text[0, copied) is in `out`
  size_t at = 0;
  while ((at = text.find(marker, at)) != llvm::StringRef::npos) {
    size_t hexStart = at + marker.size();
    size_t hexEnd = text.find('"', hexStart);
    if (hexEnd == llvm::StringRef::npos)
      break;
    at = hexEnd;
    std::optional<int64_t> count = i1ElementCount(text.drop_front(hexEnd));
    llvm::StringRef hex = text.slice(hexStart, hexEnd);
    std::string bytes;
    if (!count || hex.size() % 2 != 0 || !llvm::tryGetFromHex(hex, bytes))
      continue;
    std::optional<std::string> converted = convert(bytes, *count);
    if (!converted)
      continue;
    if (!out)
      out.emplace().reserve(text.size());
    out->append(text.data() + copied, hexStart - copied);
    *out += llvm::toHex(*converted);
    copied = hexEnd;
  }
  if (out)
    out->append(text.data() + copied, text.size() - copied);
  return out;
}

} // namespace

std::optional<std::string> i1HexBytesToPacked(llvm::StringRef text) {
  return rewriteI1Blobs(
      text, [](const std::string &bytes,
               int64_t count) -> std::optional<std::string> {
        int64_t packedSize = (count + 7) / 8;
        if (static_cast<int64_t>(bytes.size()) == 1 && count > 1)
          return std::string(1, bytes[0] ? '\xff' : '\0'); // a splat
        if (static_cast<int64_t>(bytes.size()) != count || count == packedSize)
          return std::nullopt;
        std::string packed(packedSize, '\0');
        for (int64_t i = 0; i < count; ++i)
          if (bytes[i])
            packed[i / 8] = static_cast<char>(packed[i / 8] | (1 << (i % 8)));
        return packed;
      });
}

std::optional<std::string> i1HexPackedToBytes(llvm::StringRef text) {
  return rewriteI1Blobs(
      text, [](const std::string &packed,
               int64_t count) -> std::optional<std::string> {
        int64_t packedSize = (count + 7) / 8;
        if (static_cast<int64_t>(packed.size()) == 1 && count > 1 &&
            packedSize != 1)
          return std::string(1, packed[0] ? '\x01' : '\0'); // a splat
        if (static_cast<int64_t>(packed.size()) != packedSize ||
            count == packedSize)
          return std::nullopt;
        std::string bytes(count, '\0');
        for (int64_t i = 0; i < count; ++i)
          bytes[i] = (packed[i / 8] >> (i % 8)) & 1;
        return bytes;
      });
}

} // namespace mlir::stablehlo_tvm
