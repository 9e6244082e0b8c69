//===- I1HexCompat.cpp - i1 hex literals of jaxlib's MLIR vs MLIR 22 ------===//

#include "stablehlo-tvm/Support/I1HexCompat.h"
#include "stablehlo-tvm/Support/HexBlobs.h"

#include "llvm/ADT/StringExtras.h"

#include <optional>

namespace mlir::stablehlo_tvm {
namespace {

/// Rewrites every hex literal of an i1 tensor with `convert`, which gets the
/// literal's bytes and element count and returns the new bytes (or nothing
/// to leave the literal as it is).
template <typename Convert>
std::optional<std::string> rewriteI1Blobs(llvm::StringRef text,
                                          Convert convert) {
  return rewriteHexBlobs(
      text, [&](const HexBlob &blob) -> std::optional<std::string> {
        std::string bytes;
        if (blob.elementType != "i1" || blob.hex.size() % 2 != 0 ||
            !llvm::tryGetFromHex(blob.hex, bytes))
          return std::nullopt;
        std::optional<std::string> converted =
            convert(bytes, blob.elementCount);
        if (!converted)
          return std::nullopt;
        return "dense<\"0x" + llvm::toHex(*converted) + "\">";
      });
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
