//===- Lexer.cpp - Lexer for the ew language ------------------------------===//
//
// The lexer works on the SourceMgr's buffer in place. Comments run from `#`
// to the end of the line; numbers are lexed whole (`2x` is one bad literal)
// so that a typo gives one message at the right place.
//
//===----------------------------------------------------------------------===//

#include "ewc/Frontend/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

using namespace ewc;

llvm::StringRef ewc::getTokenKindSpelling(TokenKind kind) {
  switch (kind) {
  case TokenKind::Eof:
    return "end of file";
  case TokenKind::Error:
    return "invalid token";
  case TokenKind::Identifier:
    return "identifier";
  case TokenKind::Integer:
    return "integer literal";
  case TokenKind::Float:
    return "float literal";
  case TokenKind::KwKernel:
    return "'kernel'";
  case TokenKind::KwLet:
    return "'let'";
  case TokenKind::KwReturn:
    return "'return'";
  case TokenKind::KwTrue:
    return "'true'";
  case TokenKind::KwFalse:
    return "'false'";
  case TokenKind::LParen:
    return "'('";
  case TokenKind::RParen:
    return "')'";
  case TokenKind::LBracket:
    return "'['";
  case TokenKind::RBracket:
    return "']'";
  case TokenKind::LBrace:
    return "'{'";
  case TokenKind::RBrace:
    return "'}'";
  case TokenKind::Comma:
    return "','";
  case TokenKind::Colon:
    return "':'";
  case TokenKind::Semicolon:
    return "';'";
  case TokenKind::Assign:
    return "'='";
  case TokenKind::Arrow:
    return "'->'";
  case TokenKind::Ellipsis:
    return "'...'";
  case TokenKind::Plus:
    return "'+'";
  case TokenKind::Minus:
    return "'-'";
  case TokenKind::Star:
    return "'*'";
  case TokenKind::Slash:
    return "'/'";
  case TokenKind::Percent:
    return "'%'";
  case TokenKind::EqEq:
    return "'=='";
  case TokenKind::NotEq:
    return "'!='";
  case TokenKind::Less:
    return "'<'";
  case TokenKind::LessEq:
    return "'<='";
  case TokenKind::Greater:
    return "'>'";
  case TokenKind::GreaterEq:
    return "'>='";
  case TokenKind::KwInf:
    return "'inf'";
  case TokenKind::KwNan:
    return "'nan'";
  case TokenKind::AmpAmp:
    return "'&&'";
  case TokenKind::PipePipe:
    return "'||'";
  case TokenKind::Bang:
    return "'!'";
  case TokenKind::Amp:
    return "'&'";
  case TokenKind::Pipe:
    return "'|'";
  case TokenKind::Caret:
    return "'^'";
  case TokenKind::Tilde:
    return "'~'";
  case TokenKind::LessLess:
    return "'<<'";
  case TokenKind::GreaterGreater:
    return "'>>'";
  }
  llvm_unreachable("unknown TokenKind");
}

static bool isIdentifierStart(char c) { return llvm::isAlpha(c) || c == '_'; }
static bool isIdentifierChar(char c) { return llvm::isAlnum(c) || c == '_'; }

void Lexer::skipWhitespaceAndComments() {
  while (curPtr != buffer.end()) {
    char c = *curPtr;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
        c == '\v') {
      ++curPtr;
    } else if (c == '#') {
      while (curPtr != buffer.end() && *curPtr != '\n')
        ++curPtr;
    } else {
      return;
    }
  }
}

Token Lexer::lexError(const char *start, const llvm::Twine &msg) {
  diags.error(llvm::SMLoc::getFromPointer(start), msg);
  hadError = true;
  curPtr = start;
  return Token(TokenKind::Error, llvm::StringRef(start, 0));
}

Token Lexer::lex() {
  // Once something was reported, the parser stops; repeating the Error token
  // keeps any further call harmless instead of lexing past garbage.
  if (hadError)
    return Token(TokenKind::Error, llvm::StringRef(curPtr, 0));

  skipWhitespaceAndComments();
  const char *start = curPtr;
  if (curPtr == buffer.end())
    return Token(TokenKind::Eof, llvm::StringRef(curPtr, 0));

  char c = *curPtr++;
  if (isIdentifierStart(c))
    return lexIdentifier(start);
  if (llvm::isDigit(c))
    return lexNumber(start);

  auto peekIs = [&](char next) {
    if (curPtr != buffer.end() && *curPtr == next) {
      ++curPtr;
      return true;
    }
    return false;
  };

  switch (c) {
  case '(':
    return makeToken(TokenKind::LParen, start);
  case ')':
    return makeToken(TokenKind::RParen, start);
  case '[':
    return makeToken(TokenKind::LBracket, start);
  case ']':
    return makeToken(TokenKind::RBracket, start);
  case '{':
    return makeToken(TokenKind::LBrace, start);
  case '}':
    return makeToken(TokenKind::RBrace, start);
  case ',':
    return makeToken(TokenKind::Comma, start);
  case ':':
    return makeToken(TokenKind::Colon, start);
  case ';':
    return makeToken(TokenKind::Semicolon, start);
  case '.':
    // `...` is the one token that starts with a dot (a number never does).
    if (peekIs('.') && peekIs('.'))
      return makeToken(TokenKind::Ellipsis, start);
    return lexError(start, "unexpected character '.'; did you mean '...'?");
  case '+':
    return makeToken(TokenKind::Plus, start);
  case '*':
    return makeToken(TokenKind::Star, start);
  case '/':
    return makeToken(TokenKind::Slash, start);
  case '%':
    return makeToken(TokenKind::Percent, start);
  case '-':
    return makeToken(peekIs('>') ? TokenKind::Arrow : TokenKind::Minus, start);
  case '=':
    return makeToken(peekIs('=') ? TokenKind::EqEq : TokenKind::Assign, start);
  case '<':
    if (peekIs('<'))
      return makeToken(TokenKind::LessLess, start);
    return makeToken(peekIs('=') ? TokenKind::LessEq : TokenKind::Less, start);
  case '>':
    if (peekIs('>'))
      return makeToken(TokenKind::GreaterGreater, start);
    return makeToken(peekIs('=') ? TokenKind::GreaterEq : TokenKind::Greater,
                     start);
  case '!':
    return makeToken(peekIs('=') ? TokenKind::NotEq : TokenKind::Bang, start);
  case '&':
    return makeToken(peekIs('&') ? TokenKind::AmpAmp : TokenKind::Amp, start);
  case '|':
    return makeToken(peekIs('|') ? TokenKind::PipePipe : TokenKind::Pipe,
                     start);
  case '^':
    return makeToken(TokenKind::Caret, start);
  case '~':
    return makeToken(TokenKind::Tilde, start);
  case '?':
    // C's conditional operator: the language spells it as a builtin.
    return lexError(start, "unexpected character '?'; a choice between two "
                           "values is where(cond, a, b)");
  default:
    break;
  }

  // Name non-printable bytes (control characters, UTF-8 pieces, NUL) by their
  // value so the message itself stays printable.
  if (llvm::isPrint(c))
    return lexError(start,
                    "unexpected character '" + llvm::StringRef(start, 1) + "'");
  return lexError(start, "unexpected character '\\x" +
                             llvm::utohexstr(static_cast<unsigned char>(c),
                                             /*LowerCase=*/false, 2) +
                             "'");
}

Token Lexer::lexIdentifier(const char *start) {
  while (curPtr != buffer.end() && isIdentifierChar(*curPtr))
    ++curPtr;
  llvm::StringRef spelling(start, curPtr - start);
  TokenKind kind = llvm::StringSwitch<TokenKind>(spelling)
                       .Case("kernel", TokenKind::KwKernel)
                       .Case("let", TokenKind::KwLet)
                       .Case("return", TokenKind::KwReturn)
                       .Case("true", TokenKind::KwTrue)
                       .Case("false", TokenKind::KwFalse)
                       .Case("inf", TokenKind::KwInf)
                       .Case("nan", TokenKind::KwNan)
                       .Default(TokenKind::Identifier);
  return Token(kind, spelling);
}

/// number ::= digit+ ('.' digit*)? ([eE] [+-]? digit+)?
Token Lexer::lexNumber(const char *start) {
  auto atDigit = [&] {
    return curPtr != buffer.end() && llvm::isDigit(*curPtr);
  };
  bool isFloatLiteral = false;
  while (atDigit())
    ++curPtr;
  if (curPtr != buffer.end() && *curPtr == '.') {
    isFloatLiteral = true;
    ++curPtr;
    while (atDigit())
      ++curPtr;
  }
  if (curPtr != buffer.end() && (*curPtr == 'e' || *curPtr == 'E')) {
    isFloatLiteral = true;
    ++curPtr;
    if (curPtr != buffer.end() && (*curPtr == '+' || *curPtr == '-'))
      ++curPtr;
    if (!atDigit())
      return lexError(curPtr, "expected digits in the exponent of '" +
                                  llvm::StringRef(start, curPtr - start) + "'");
    while (atDigit())
      ++curPtr;
  }
  // `3x` or `1.5.2` would otherwise lex as two tokens and give a confusing
  // parse error one token later.
  if (curPtr != buffer.end() && (isIdentifierChar(*curPtr) || *curPtr == '.')) {
    const char *end = curPtr;
    while (end != buffer.end() && (isIdentifierChar(*end) || *end == '.'))
      ++end;
    return lexError(start, "invalid numeric literal '" +
                               llvm::StringRef(start, end - start) + "'");
  }
  return makeToken(isFloatLiteral ? TokenKind::Float : TokenKind::Integer,
                   start);
}
