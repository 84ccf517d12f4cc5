//===- Lexer.h - Lexer for the ew language ----------------------*- C++ -*-===//
//
// Splits a source buffer into tokens. Tokens are views into the buffer held by
// the SourceMgr, so their SMLocs can be handed straight to diagnostics. A byte
// the language has no use for is reported here, once, and becomes an Error
// token that makes the parser stop without a second message.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_FRONTEND_LEXER_H
#define EWC_FRONTEND_LEXER_H

#include "ewc/Frontend/Diagnostics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

namespace ewc {

/// The kinds of token. Builtin function names, dtype names and comparison
/// predicates are plain identifiers: the parser and sema give them meaning.
enum class TokenKind {
  Eof,
  Error, ///< Already reported by the lexer.

  Identifier,
  Integer, ///< `3`
  Float,   ///< `0.5`, `1e-3`, `2.`

  // Keywords.
  KwKernel,
  KwLet,
  KwReturn,
  KwTrue,
  KwFalse,
  KwInf, ///< `inf`, a float literal
  KwNan, ///< `nan`, a float literal

  // Punctuation.
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Colon,
  Semicolon,
  Assign,   ///< `=`
  Arrow,    ///< `->`
  Ellipsis, ///< `...`, any leading dimensions of a tensor type

  // Operators.
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  EqEq,
  NotEq,
  Less,
  LessEq,
  Greater,
  GreaterEq,
  AmpAmp,   ///< `&&`
  PipePipe, ///< `||`
  Bang,     ///< `!`
  // Bitwise operators on integers.
  Amp,            ///< `&`
  Pipe,           ///< `|`
  Caret,          ///< `^`
  Tilde,          ///< `~`
  LessLess,       ///< `<<`
  GreaterGreater, ///< `>>`
};

/// Returns how a token kind is written, for messages ("';'", "identifier").
llvm::StringRef getTokenKindSpelling(TokenKind kind);

/// One token: its kind and the text it covers in the source buffer.
class Token {
public:
  Token() = default;
  Token(TokenKind kind, llvm::StringRef spelling)
      : kind(kind), spelling(spelling) {}

  TokenKind getKind() const { return kind; }
  bool is(TokenKind k) const { return kind == k; }
  bool isNot(TokenKind k) const { return kind != k; }
  llvm::StringRef getSpelling() const { return spelling; }

  llvm::SMLoc getLoc() const {
    return llvm::SMLoc::getFromPointer(spelling.data());
  }
  /// The location just past the token, where a missing `;` belongs.
  llvm::SMLoc getEndLoc() const {
    return llvm::SMLoc::getFromPointer(spelling.data() + spelling.size());
  }
  llvm::SMRange getRange() const { return {getLoc(), getEndLoc()}; }

private:
  TokenKind kind = TokenKind::Eof;
  llvm::StringRef spelling;
};

/// Produces the tokens of one buffer on demand.
class Lexer {
public:
  /// `buffer` must be owned by the SourceMgr behind `diags`.
  Lexer(llvm::StringRef buffer, Diagnostics &diags)
      : buffer(buffer), curPtr(buffer.begin()), diags(diags) {}

  /// Lexes and returns the next token. After the end of the buffer, or after
  /// an Error token, it keeps returning that token.
  Token lex();

private:
  Token makeToken(TokenKind kind, const char *start) {
    return Token(kind, llvm::StringRef(start, curPtr - start));
  }
  Token lexIdentifier(const char *start);
  Token lexNumber(const char *start);
  /// Reports `msg` at `loc` and puts the lexer in its sticky error state.
  Token lexError(const char *start, const llvm::Twine &msg);
  void skipWhitespaceAndComments();

  llvm::StringRef buffer;
  const char *curPtr;
  Diagnostics &diags;
  bool hadError = false;
};

} // namespace ewc

#endif // EWC_FRONTEND_LEXER_H
