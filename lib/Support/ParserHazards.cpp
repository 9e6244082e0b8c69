//===- ParserHazards.cpp - Refuse text MLIR's parser crashes on ----------===//
//
// A single pass over the text with the brace depth (regions and attribute
// dictionaries; the latter define nothing). A `%name` is a definition when
// it is followed by `:` and a type inside parentheses (a block or function
// argument; an operand's type follows its list, outside them), by `=` (a
// result, or a region argument of the while syntax), or starts a line's
// list of results; every other occurrence is a use. A use of a name no
// enclosing scope defines is a forward reference; one that a definition at
// a greater depth then resolves, before the use's scope closes, is refused.
// `array<` followed by `index` (with anything the lexer skips between the
// tokens) is refused where it stands.
//
//===----------------------------------------------------------------------===//

#include "stablehlo-tvm/Support/ParserHazards.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

#include <vector>

namespace mlir::stablehlo_tvm {
namespace {

bool isNameChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
}

class Scanner {
public:
  explicit Scanner(llvm::StringRef text) : text(text) {}

  std::optional<ParserHazard> run() {
    bool lineStart = true;
    for (i = 0; i < text.size(); ++i) {
      char c = text[i];
      ++column;
      if (c == '\n') {
        ++line, column = 0, lineStart = true;
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r')
        continue;
      bool startsLine = lineStart;
      lineStart = false;
      if (c == '"') {
        skipStringLiteral(text, i, line, column);
      } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
        while (i + 1 < text.size() && text[i + 1] != '\n')
          ++i;
      } else if (c == '(') {
        ++parens;
      } else if (c == ')') {
        if (parens)
          --parens;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}') {
        if (depth)
          closeScope(--depth);
      } else if (c == '%') {
        if (auto found = value(startsLine))
          return found;
      } else if (c == 'a' && isIndexArray(i)) {
        return ParserHazard{{line, column},
                            "a dense array of index elements"};
      }
    }
    return std::nullopt;
  }

private:
  struct Pending {
    unsigned depth;
    TextPosition at;
  };

  /// Definitions and forward uses deeper than `newDepth` go out of scope.
  /// Both stacks are ordered by depth: whatever was pushed deeper has been
  /// popped when the depth went back.
  void closeScope(unsigned newDepth) {
    while (!definitions.empty() && definitions.back().first > newDepth) {
      auto entry = defined.find(definitions.back().second);
      if (--entry->second == 0)
        defined.erase(entry);
      definitions.pop_back();
    }
    while (!forwardUses.empty() && forwardUses.back().first > newDepth) {
      auto entry = pending.find(forwardUses.back().second);
      if (entry != pending.end() && entry->second.depth > newDepth)
        pending.erase(entry);
      forwardUses.pop_back();
    }
  }

  /// Whether the keyword `array` at `j` opens a dense array of `index`:
  /// `array`, `<` and `index` are tokens, with between them whatever MLIR's
  /// lexer skips (spaces, line breaks, NUL characters, comments).
  bool isIndexArray(size_t j) const {
    if (!text.substr(j).starts_with("array") ||
        (j > 0 && isNameChar(text[j - 1])) ||
        (j + 5 < text.size() && isNameChar(text[j + 5])))
      return false;
    j = skipLexedSpace(j + 5);
    if (j >= text.size() || text[j] != '<')
      return false;
    return text.substr(skipLexedSpace(j + 1)).starts_with("index");
  }

  /// The position after `j` of the next character MLIR's lexer does not
  /// skip as space: it skips NUL characters too, and comments.
  size_t skipLexedSpace(size_t j) const {
    while (j < text.size()) {
      char c = text[j];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\0') {
        ++j;
      } else if (c == '/' && j + 1 < text.size() && text[j + 1] == '/') {
        while (j < text.size() && text[j] != '\n')
          ++j;
      } else {
        break;
      }
    }
    return j;
  }

  /// The character after position `j` that is not a space or tab.
  size_t skipSpaces(size_t j) const {
    while (j < text.size() && (text[j] == ' ' || text[j] == '\t'))
      ++j;
    return j;
  }

  /// Whether `%name` ending before `j` is followed by `, %name...` up to an
  /// `=`: the rest of a line's list of results.
  bool resultListFrom(size_t j) const {
    while (true) {
      j = skipSpaces(j);
      if (j < text.size() && text[j] == '=')
        return j + 1 >= text.size() || text[j + 1] != '=';
      if (j + 1 >= text.size() || text[j] != ',')
        return false;
      j = skipSpaces(j + 1);
      if (j >= text.size() || text[j] != '%')
        return false;
      for (++j; j < text.size() && isNameChar(text[j]); ++j)
        ;
      if (j < text.size() && text[j] == ':')
        for (++j; j < text.size() && llvm::isDigit(text[j]); ++j)
          ;
    }
  }

  std::optional<ParserHazard> value(bool startsLine) {
    TextPosition at{line, column};
    size_t begin = i, end = i + 1;
    while (end < text.size() && isNameChar(text[end]))
      ++end;
    llvm::StringRef name = text.slice(begin, end);
    column += end - begin - 1;
    i = end - 1;
    if (name.size() == 1)
      return std::nullopt;
    size_t after = end;
    bool definition = false;
    size_t colon = skipSpaces(after);
    if (parens && colon < text.size() && text[colon] == ':' &&
        !(colon + 1 < text.size() && llvm::isDigit(text[colon + 1]))) {
      definition = true; // `(%arg: type` of a signature or block
    } else {
      if (after < text.size() && text[after] == ':')
        for (++after; after < text.size() && llvm::isDigit(text[after]); ++after)
          ;
      size_t next = skipSpaces(after);
      if (next < text.size() && text[next] == '=' &&
          !(next + 1 < text.size() && text[next + 1] == '='))
        definition = true;
      else if (startsLine && resultListFrom(after))
        definition = true;
    }
    if (definition) {
      auto use = pending.find(name);
      if (use != pending.end() && use->second.depth < depth)
        return ParserHazard{use->second.at,
                            ("use of value '" + name +
                             "' that a region nested below it defines")
                                .str()};
      if (use != pending.end())
        pending.erase(use); // its stack entry finds nothing when popped
      ++defined[name];
      definitions.emplace_back(depth, name);
      return std::nullopt;
    }
    if (!defined.count(name) && pending.try_emplace(name, Pending{depth, at}).second)
      forwardUses.emplace_back(depth, name);
    return std::nullopt;
  }

  llvm::StringRef text;
  size_t i = 0;
  unsigned depth = 0, parens = 0, line = 1, column = 0;
  // How many definitions of each name are in scope, and the definitions
  // in the order made, with their depths.
  llvm::StringMap<unsigned> defined;
  std::vector<std::pair<unsigned, llvm::StringRef>> definitions;
  // The first forward use of each name not yet defined, likewise.
  llvm::StringMap<Pending> pending;
  std::vector<std::pair<unsigned, llvm::StringRef>> forwardUses;
};

} // namespace

std::optional<ParserHazard> findParserHazard(llvm::StringRef text) {
  return Scanner(text).run();
}

} // namespace mlir::stablehlo_tvm
