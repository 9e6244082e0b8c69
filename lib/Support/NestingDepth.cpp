//===- NestingDepth.cpp - Refuse text nested deeper than a parser survives ===//

#include "stablehlo-tvm/Support/NestingDepth.h"

namespace mlir::stablehlo_tvm {

void skipStringLiteral(llvm::StringRef text, size_t &i, unsigned &line,
                       unsigned &column) {
  for (++i; i < text.size() && text[i] != '"'; ++i) {
    ++column;
    if (text[i] == '\\')
      ++i, ++column;
    else if (text[i] == '\n')
      ++line, column = 0;
  }
  ++column;
}

std::optional<TextPosition> findExcessiveNesting(llvm::StringRef text,
                                                 unsigned limit) {
  unsigned depth = 0, line = 1, column = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    ++column;
    switch (c) {
    case '\n':
      ++line;
      column = 0;
      break;
    case '"':
      skipStringLiteral(text, i, line, column);
      break;
    case '/':
      if (i + 1 < text.size() && text[i + 1] == '/')
        while (i + 1 < text.size() && text[i + 1] != '\n')
          ++i;
      break;
    case '(':
    case '[':
    case '{':
      if (++depth > limit)
        return TextPosition{line, column};
      break;
    case ')':
    case ']':
    case '}':
      if (depth)
        --depth;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

} // namespace mlir::stablehlo_tvm
