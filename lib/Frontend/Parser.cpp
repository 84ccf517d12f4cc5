//===- Parser.cpp - Parser for the ew language ----------------------------===//
//
// Every parse function either consumes at least one token or fails, and every
// failure ends the parse, so the parser cannot loop on bad input. Recursion is
// bounded by kMaxExprDepth.
//
//===----------------------------------------------------------------------===//

#include "ewc/Frontend/Parser.h"
#include "ewc/Frontend/Lexer.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <limits>

using namespace ewc;

namespace {

class Parser {
public:
  Parser(llvm::StringRef buffer, Diagnostics &diags)
      : lexer(buffer, diags), diags(diags) {
    tok = lexer.lex();
  }

  std::unique_ptr<ModuleDecl> parseModule();

private:
  //===--------------------------------------------------------------------===//
  // Token handling
  //===--------------------------------------------------------------------===//

  void consume() {
    prevEnd = tok.getEndLoc();
    tok = lexer.lex();
  }

  /// Reports a syntax error unless the current token is one the lexer has
  /// already reported, so each bad input gives exactly one message.
  void emitError(llvm::SMLoc loc, const llvm::Twine &msg,
                 llvm::ArrayRef<llvm::SMRange> ranges = {}) {
    if (tok.is(TokenKind::Error))
      return;
    diags.error(loc, msg, ranges);
  }
  void emitErrorAtToken(const llvm::Twine &msg) {
    emitError(tok.getLoc(), msg, tok.getRange());
  }

  /// Consumes a token of `kind` or reports `msg` at the current token.
  bool expect(TokenKind kind, const llvm::Twine &msg) {
    if (tok.is(kind)) {
      consume();
      return true;
    }
    emitErrorAtToken(msg);
    return false;
  }

  /// Like expect, but reports right after the previous token, where the
  /// missing terminator belongs (the current token may be lines away).
  bool expectAfterPrevious(TokenKind kind, const llvm::Twine &msg) {
    if (tok.is(kind)) {
      consume();
      return true;
    }
    emitError(prevEnd, msg);
    return false;
  }

  llvm::SMRange rangeFrom(llvm::SMLoc start) const { return {start, prevEnd}; }

  //===--------------------------------------------------------------------===//
  // Declarations
  //===--------------------------------------------------------------------===//

  std::unique_ptr<KernelDecl> parseKernel();
  /// Parses `<T: float, ...>` into `typeParams`; false after an error.
  bool parseTypeParams(llvm::StringRef kernelName);
  std::unique_ptr<ParamDecl> parseParam(unsigned index);
  std::optional<TypeSpec> parseType(llvm::StringRef context);
  std::unique_ptr<Expr> parseDefaultLiteral(llvm::StringRef paramName);

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  std::unique_ptr<LetStmt> parseLet();
  std::unique_ptr<ReturnStmt> parseReturn();

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  std::unique_ptr<Expr> parseExpr() {
    return parseLogical(TokenKind::PipePipe);
  }
  std::unique_ptr<Expr> parseLogical(TokenKind op);
  std::unique_ptr<Expr> parseComparison();
  std::unique_ptr<Expr> parseArithmetic(unsigned level = 0);
  std::unique_ptr<Expr> parseUnary();
  std::unique_ptr<Expr> parsePrimary();
  std::unique_ptr<Expr> parseNumber(llvm::SMLoc start, bool negate);
  std::unique_ptr<Expr> parseCall(Token calleeTok);
  /// Rejects `expr` if it is deeper than kMaxExprDepth.
  std::unique_ptr<Expr> checkDepth(std::unique_ptr<Expr> expr);

  Lexer lexer;
  Diagnostics &diags;
  Token tok;
  llvm::SMLoc prevEnd;
  /// How many parseUnary calls are active: the parser's own recursion depth.
  unsigned nesting = 0;
  /// The type parameters of the kernel being parsed, which its types may
  /// name.
  std::vector<TypeParamDecl> typeParams;
};

} // namespace

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

std::unique_ptr<ModuleDecl> Parser::parseModule() {
  std::vector<std::unique_ptr<KernelDecl>> kernels;
  while (tok.isNot(TokenKind::Eof)) {
    if (tok.isNot(TokenKind::KwKernel)) {
      emitErrorAtToken("expected 'kernel'");
      return nullptr;
    }
    std::unique_ptr<KernelDecl> kernel = parseKernel();
    if (!kernel)
      return nullptr;
    kernels.push_back(std::move(kernel));
  }
  return std::make_unique<ModuleDecl>(diags.getSourceMgr(), std::move(kernels));
}

/// kernel ::= 'kernel' ident typeParams? '(' params? ')' '->' results '{' let*
///            return '}'
std::unique_ptr<KernelDecl> Parser::parseKernel() {
  llvm::SMLoc start = tok.getLoc();
  consume(); // 'kernel'

  if (tok.isNot(TokenKind::Identifier)) {
    emitErrorAtToken("expected kernel name after 'kernel'");
    return nullptr;
  }
  std::string name = tok.getSpelling().str();
  llvm::SMRange nameRange = tok.getRange();
  consume();

  typeParams.clear();
  if (tok.is(TokenKind::Less) && !parseTypeParams(name))
    return nullptr;
  if (!expect(TokenKind::LParen,
              typeParams.empty()
                  ? "expected '(' or '<' after kernel name '" + name + "'"
                  : "expected '(' after the type parameters of '" + name + "'"))
    return nullptr;
  std::vector<std::unique_ptr<ParamDecl>> params;
  if (tok.isNot(TokenKind::RParen)) {
    while (true) {
      std::unique_ptr<ParamDecl> param = parseParam(params.size());
      if (!param)
        return nullptr;
      params.push_back(std::move(param));
      if (tok.is(TokenKind::Comma)) {
        consume();
        continue;
      }
      if (tok.is(TokenKind::RParen))
        break;
      emitErrorAtToken("expected ',' or ')' in the parameter list");
      return nullptr;
    }
  }
  consume(); // ')'

  if (!expect(TokenKind::Arrow,
              "expected '->' and the result types after the parameter list"))
    return nullptr;
  std::vector<TypeSpec> results;
  if (tok.is(TokenKind::LParen)) {
    consume();
    while (true) {
      std::optional<TypeSpec> type = parseType("result type");
      if (!type)
        return nullptr;
      results.push_back(std::move(*type));
      if (tok.is(TokenKind::Comma)) {
        consume();
        continue;
      }
      if (!expect(TokenKind::RParen, "expected ',' or ')' in the result list"))
        return nullptr;
      break;
    }
  } else {
    std::optional<TypeSpec> type = parseType("result type");
    if (!type)
      return nullptr;
    results.push_back(std::move(*type));
  }

  if (!expect(TokenKind::LBrace,
              "expected '{' to start the body of kernel '" + name + "'"))
    return nullptr;
  std::vector<std::unique_ptr<Stmt>> body;
  while (true) {
    if (tok.is(TokenKind::KwLet)) {
      std::unique_ptr<LetStmt> let = parseLet();
      if (!let)
        return nullptr;
      body.push_back(std::move(let));
      continue;
    }
    if (tok.is(TokenKind::KwReturn)) {
      std::unique_ptr<ReturnStmt> ret = parseReturn();
      if (!ret)
        return nullptr;
      body.push_back(std::move(ret));
      if (!expect(TokenKind::RBrace,
                  "expected '}' after the return statement; 'return' must be "
                  "the last statement of a kernel"))
        return nullptr;
      break;
    }
    if (tok.is(TokenKind::RBrace)) {
      emitErrorAtToken("missing return statement in kernel '" + name + "'");
      return nullptr;
    }
    if (tok.is(TokenKind::Eof)) {
      emitErrorAtToken("unexpected end of file in the body of kernel '" + name +
                       "'");
      return nullptr;
    }
    emitErrorAtToken("expected 'let' or 'return' statement");
    return nullptr;
  }
  return std::make_unique<KernelDecl>(
      rangeFrom(start), nameRange, std::move(name), std::move(typeParams),
      std::move(params), std::move(results), std::move(body));
}

/// typeParams ::= '<' ident ':' constraint (',' ident ':' constraint)* '>'
/// constraint ::= 'float' | 'int' | 'any'
bool Parser::parseTypeParams(llvm::StringRef kernelName) {
  consume(); // '<'
  while (true) {
    if (tok.isNot(TokenKind::Identifier)) {
      emitErrorAtToken("expected a type parameter name, as in '" + kernelName +
                       "<T: float>'");
      return false;
    }
    TypeParamDecl param;
    param.name = tok.getSpelling().str();
    param.nameRange = tok.getRange();
    llvm::SMLoc start = tok.getLoc();
    // A parameter named like a type would hide it in every signature.
    if (parseDTypeName(param.name)) {
      emitErrorAtToken("type parameter '" + param.name +
                       "' has the name of an element type; name it like "
                       "'T'");
      return false;
    }
    for (const TypeParamDecl &other : typeParams)
      if (other.name == param.name) {
        emitErrorAtToken("duplicate type parameter '" + param.name + "'");
        diags.note(other.nameRange.Start, "previous definition is here");
        return false;
      }
    consume();
    if (!expect(TokenKind::Colon,
                "expected ':' and 'float', 'int' or 'any' after type "
                "parameter '" +
                    param.name + "'"))
      return false;
    std::optional<TypeConstraint> constraint;
    if (tok.is(TokenKind::Identifier))
      constraint = parseConstraintName(tok.getSpelling());
    if (!constraint) {
      emitErrorAtToken("unknown type constraint '" + tok.getSpelling() +
                       "'; expected float (f16, bf16, f32, f64), int (i32, "
                       "i64) or any (all six)");
      return false;
    }
    param.constraint = *constraint;
    consume();
    param.range = rangeFrom(start);
    typeParams.push_back(std::move(param));
    if (tok.is(TokenKind::Comma)) {
      consume();
      continue;
    }
    return expect(TokenKind::Greater,
                  "expected ',' or '>' in the type parameter list");
  }
}

/// param ::= ident ':' type ('=' literal)?
std::unique_ptr<ParamDecl> Parser::parseParam(unsigned index) {
  if (tok.isNot(TokenKind::Identifier)) {
    emitErrorAtToken("expected parameter name");
    return nullptr;
  }
  llvm::SMLoc start = tok.getLoc();
  std::string name = tok.getSpelling().str();
  llvm::SMRange nameRange = tok.getRange();
  consume();
  if (!expect(TokenKind::Colon,
              "expected ':' and a type after parameter '" + name + "'"))
    return nullptr;
  std::optional<TypeSpec> type = parseType("parameter type");
  if (!type)
    return nullptr;

  std::unique_ptr<Expr> defaultValue;
  if (tok.is(TokenKind::Assign)) {
    consume();
    defaultValue = parseDefaultLiteral(name);
    if (!defaultValue)
      return nullptr;
  }
  return std::make_unique<ParamDecl>(rangeFrom(start), nameRange,
                                     std::move(name), std::move(*type), index,
                                     std::move(defaultValue));
}

/// type ::= ident ('[' dims ']')?
/// dims ::= '...' (',' ident)* | ident (',' ident)*
std::optional<TypeSpec> Parser::parseType(llvm::StringRef context) {
  if (tok.isNot(TokenKind::Identifier)) {
    emitErrorAtToken("expected " + context);
    return std::nullopt;
  }
  std::optional<DType> dtype = parseDTypeName(tok.getSpelling());
  std::optional<unsigned> typeParam;
  for (auto [index, param] : llvm::enumerate(typeParams))
    if (param.name == tok.getSpelling()) {
      typeParam = index;
      // Sema binds it; until then the first type it admits.
      dtype = getAdmittedDTypes(param.constraint).front();
    }
  if (!dtype) {
    // In the language reference's order: bool, signed, unsigned, floats,
    // each by width.
    llvm::SmallVector<DType> all(getAllDTypes());
    auto group = [](DType d) {
      return d == DType::Bool       ? 0
             : isFloat(d)           ? 3
             : isUnsignedInteger(d) ? 2
                                    : 1;
    };
    std::stable_sort(all.begin(), all.end(), [&](DType a, DType b) {
      return std::make_pair(group(a), getDTypeSize(a)) <
             std::make_pair(group(b), getDTypeSize(b));
    });
    std::string expected;
    for (auto [index, other] : llvm::enumerate(all))
      expected += (index == 0                ? ""
                   : index + 1 == all.size() ? " or "
                                             : ", ") +
                  getDTypeName(other).str();
    emitErrorAtToken("unknown type '" + tok.getSpelling() + "'; expected " +
                     expected);
    return std::nullopt;
  }
  TypeSpec type;
  type.dtype = *dtype;
  type.typeParam = typeParam;
  llvm::SMLoc start = tok.getLoc();
  consume();
  if (tok.is(TokenKind::LBracket)) {
    consume();
    type.isTensor = true;
    bool named = true;
    if (tok.is(TokenKind::Ellipsis)) {
      type.hasBatch = true;
      type.batchRange = tok.getRange();
      consume();
      named = tok.is(TokenKind::Comma);
      if (named)
        consume();
      else if (tok.isNot(TokenKind::RBracket)) {
        emitErrorAtToken("expected ',' or ']' after '...'");
        return std::nullopt;
      }
    }
    while (named) {
      if (tok.is(TokenKind::Integer)) {
        emitErrorAtToken("dimensions are names, such as 'n' in 'f32[n]'; a "
                         "constant extent is not supported");
        return std::nullopt;
      }
      if (tok.is(TokenKind::Ellipsis)) {
        emitErrorAtToken("'...' stands for the leading dimensions: it can "
                         "only come first, as in 'f32[..., n]'");
        return std::nullopt;
      }
      if (tok.isNot(TokenKind::Identifier)) {
        emitErrorAtToken("expected a dimension name in '[...]'");
        return std::nullopt;
      }
      type.dims.push_back({tok.getSpelling().str(), tok.getRange()});
      consume();
      named = tok.is(TokenKind::Comma);
      if (named)
        consume();
      else if (tok.isNot(TokenKind::RBracket)) {
        emitErrorAtToken("expected ',' or ']' after the dimension name");
        return std::nullopt;
      }
    }
    consume(); // ']'
  }
  type.range = rangeFrom(start);
  return type;
}

/// True for the tokens that start a number literal: digits, `inf`, `nan`.
static bool isNumberToken(const Token &tok) {
  return tok.is(TokenKind::Integer) || tok.is(TokenKind::Float) ||
         tok.is(TokenKind::KwInf) || tok.is(TokenKind::KwNan);
}

/// literal ::= '-'? number | 'true' | 'false'
std::unique_ptr<Expr> Parser::parseDefaultLiteral(llvm::StringRef paramName) {
  llvm::SMLoc start = tok.getLoc();
  if (tok.is(TokenKind::KwTrue) || tok.is(TokenKind::KwFalse)) {
    bool value = tok.is(TokenKind::KwTrue);
    consume();
    return std::make_unique<BoolExpr>(rangeFrom(start), value);
  }
  bool negate = false;
  if (tok.is(TokenKind::Minus)) {
    negate = true;
    consume();
  }
  if (!isNumberToken(tok)) {
    emitErrorAtToken("expected a literal as the default value of '" +
                     paramName + "'");
    return nullptr;
  }
  return parseNumber(start, negate);
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

/// let ::= 'let' ident '=' expr ';'
std::unique_ptr<LetStmt> Parser::parseLet() {
  llvm::SMLoc start = tok.getLoc();
  consume(); // 'let'
  if (tok.isNot(TokenKind::Identifier)) {
    emitErrorAtToken("expected a name after 'let'");
    return nullptr;
  }
  std::string name = tok.getSpelling().str();
  llvm::SMRange nameRange = tok.getRange();
  consume();
  if (!expect(TokenKind::Assign, "expected '=' after 'let " + name + "'"))
    return nullptr;
  std::unique_ptr<Expr> init = parseExpr();
  if (!init)
    return nullptr;
  if (!expectAfterPrevious(TokenKind::Semicolon,
                           "expected ';' after let statement"))
    return nullptr;
  return std::make_unique<LetStmt>(rangeFrom(start), nameRange, std::move(name),
                                   std::move(init));
}

/// return ::= 'return' expr (',' expr)* ';'
std::unique_ptr<ReturnStmt> Parser::parseReturn() {
  llvm::SMLoc start = tok.getLoc();
  consume(); // 'return'
  std::vector<std::unique_ptr<Expr>> values;
  while (true) {
    std::unique_ptr<Expr> value = parseExpr();
    if (!value)
      return nullptr;
    values.push_back(std::move(value));
    if (tok.isNot(TokenKind::Comma))
      break;
    consume();
  }
  if (!expectAfterPrevious(TokenKind::Semicolon,
                           "expected ';' after return statement"))
    return nullptr;
  return std::make_unique<ReturnStmt>(rangeFrom(start), std::move(values));
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

static std::optional<CmpPredicate> getComparison(TokenKind kind) {
  switch (kind) {
  case TokenKind::EqEq:
    return CmpPredicate::Eq;
  case TokenKind::NotEq:
    return CmpPredicate::Ne;
  case TokenKind::Less:
    return CmpPredicate::Lt;
  case TokenKind::LessEq:
    return CmpPredicate::Le;
  case TokenKind::Greater:
    return CmpPredicate::Gt;
  case TokenKind::GreaterEq:
    return CmpPredicate::Ge;
  default:
    return std::nullopt;
  }
}

std::unique_ptr<Expr> Parser::checkDepth(std::unique_ptr<Expr> expr) {
  if (expr->getDepth() <= kMaxExprDepth)
    return expr;
  emitError(expr->getLoc(), "expression is nested too deeply (more than " +
                                llvm::Twine(kMaxExprDepth) + " levels)");
  return nullptr;
}

/// expr ::= and ('||' and)*
/// and  ::= comparison ('&&' comparison)*
///
/// Both are left-associative and looser than the comparisons, as in C, so
/// `x > 0.0 && x < 1.0` needs no parentheses.
std::unique_ptr<Expr> Parser::parseLogical(TokenKind op) {
  auto parseOperand = [&] {
    return op == TokenKind::PipePipe ? parseLogical(TokenKind::AmpAmp)
                                     : parseComparison();
  };
  llvm::SMLoc start = tok.getLoc();
  std::unique_ptr<Expr> lhs = parseOperand();
  while (lhs && tok.is(op)) {
    llvm::SMLoc opLoc = tok.getLoc();
    consume();
    std::unique_ptr<Expr> rhs = parseOperand();
    if (!rhs)
      return nullptr;
    lhs = checkDepth(std::make_unique<BinaryExpr>(
        rangeFrom(start), opLoc,
        op == TokenKind::PipePipe ? OpKind::Or : OpKind::And, CmpPredicate::Eq,
        std::move(lhs), std::move(rhs)));
  }
  return lhs;
}

/// comparison ::= additive (cmpop additive)?
std::unique_ptr<Expr> Parser::parseComparison() {
  llvm::SMLoc start = tok.getLoc();
  std::unique_ptr<Expr> lhs = parseArithmetic();
  if (!lhs)
    return nullptr;
  std::optional<CmpPredicate> pred = getComparison(tok.getKind());
  if (!pred)
    return lhs;
  llvm::SMLoc opLoc = tok.getLoc();
  consume();
  std::unique_ptr<Expr> rhs = parseArithmetic();
  if (!rhs)
    return nullptr;
  // `a < b < c` reads as a range test in math but would compare a bool with
  // c here; refusing it is clearer than either meaning.
  if (getComparison(tok.getKind())) {
    emitErrorAtToken("comparison operators cannot be chained; use '&&', "
                     "parentheses or 'where'");
    return nullptr;
  }
  return checkDepth(
      std::make_unique<BinaryExpr>(rangeFrom(start), opLoc, OpKind::Cmp, *pred,
                                   std::move(lhs), std::move(rhs)));
}

/// The left-associative binary operators of precedence `level`, loosest
/// first, as Python's (so `x & 255 == 0` compares the masked value, unlike
/// C): level 0 is `|`, 1 `^`, 2 `&`, 3 `<< >>`, 4 `+ -`, 5 `* / %`.
/// Comparisons sit above them in parseComparison because they do not chain.
static constexpr unsigned kNumArithmeticLevels = 6;
static std::optional<OpKind> getArithmeticOp(TokenKind kind, unsigned level) {
  auto at = [&](unsigned opLevel, OpKind op) -> std::optional<OpKind> {
    return level == opLevel ? std::optional(op) : std::nullopt;
  };
  switch (kind) {
  case TokenKind::Pipe:
    return at(0, OpKind::BitOr);
  case TokenKind::Caret:
    return at(1, OpKind::BitXor);
  case TokenKind::Amp:
    return at(2, OpKind::BitAnd);
  case TokenKind::LessLess:
    return at(3, OpKind::Shl);
  case TokenKind::GreaterGreater:
    return at(3, OpKind::Shr);
  case TokenKind::Plus:
    return at(4, OpKind::Add);
  case TokenKind::Minus:
    return at(4, OpKind::Sub);
  case TokenKind::Star:
    return at(5, OpKind::Mul);
  case TokenKind::Slash:
    return at(5, OpKind::Div);
  case TokenKind::Percent:
    return at(5, OpKind::Remainder);
  default:
    return std::nullopt;
  }
}

/// or ::= xor ('|' xor)*
/// xor ::= and ('^' and)*
/// and ::= shift ('&' shift)*
/// shift ::= additive (('<<' | '>>') additive)*
/// additive ::= multiplicative (('+' | '-') multiplicative)*
/// multiplicative ::= unary (('*' | '/' | '%') unary)*
std::unique_ptr<Expr> Parser::parseArithmetic(unsigned level) {
  if (level == kNumArithmeticLevels)
    return parseUnary();
  llvm::SMLoc start = tok.getLoc();
  std::unique_ptr<Expr> lhs = parseArithmetic(level + 1);
  while (lhs) {
    std::optional<OpKind> op = getArithmeticOp(tok.getKind(), level);
    if (!op)
      break;
    llvm::SMLoc opLoc = tok.getLoc();
    consume();
    std::unique_ptr<Expr> rhs = parseArithmetic(level + 1);
    if (!rhs)
      return nullptr;
    lhs = checkDepth(std::make_unique<BinaryExpr>(
        rangeFrom(start), opLoc, *op, CmpPredicate::Eq, std::move(lhs),
        std::move(rhs)));
  }
  return lhs;
}

/// unary ::= ('-' | '!' | '~') unary | primary
///
/// `-` directly before a number is folded into the literal, so `-1.5` is one
/// literal everywhere, as in a default value, and `-2147483648` fits i32.
std::unique_ptr<Expr> Parser::parseUnary() {
  // Every cycle of the expression grammar passes through here, so this one
  // counter bounds the parser's recursion.
  struct NestingGuard {
    unsigned &n;
    explicit NestingGuard(unsigned &n) : n(++n) {}
    ~NestingGuard() { --n; }
  } guard(nesting);
  if (nesting > kMaxExprDepth) {
    emitErrorAtToken("expression is nested too deeply (more than " +
                     llvm::Twine(kMaxExprDepth) + " levels)");
    return nullptr;
  }

  if (tok.isNot(TokenKind::Minus) && tok.isNot(TokenKind::Bang) &&
      tok.isNot(TokenKind::Tilde))
    return parsePrimary();
  OpKind op = tok.is(TokenKind::Minus)  ? OpKind::Neg
              : tok.is(TokenKind::Bang) ? OpKind::Not
                                        : OpKind::BitNot;
  llvm::SMLoc start = tok.getLoc();
  consume();
  if (op == OpKind::Neg && isNumberToken(tok))
    return parseNumber(start, /*negate=*/true);
  std::unique_ptr<Expr> operand = parseUnary();
  if (!operand)
    return nullptr;
  return checkDepth(std::make_unique<UnaryExpr>(rangeFrom(start), start, op,
                                                std::move(operand)));
}

/// Parses the number token at `tok`; `start` is where the literal began (the
/// `-` if `negate`).
std::unique_ptr<Expr> Parser::parseNumber(llvm::SMLoc start, bool negate) {
  llvm::StringRef digits = tok.getSpelling();
  std::string spelling = (negate ? "-" : "") + digits.str();
  bool isFloatLiteral = tok.isNot(TokenKind::Integer);
  std::optional<double> nonFinite;
  if (tok.is(TokenKind::KwInf))
    nonFinite = std::numeric_limits<double>::infinity();
  else if (tok.is(TokenKind::KwNan))
    nonFinite = std::numeric_limits<double>::quiet_NaN();
  llvm::SMRange tokRange = tok.getRange();
  consume();
  llvm::SMRange range = rangeFrom(start);

  if (nonFinite)
    return std::make_unique<NumberExpr>(range, std::move(spelling),
                                        negate ? -*nonFinite : *nonFinite);

  if (isFloatLiteral) {
    // APFloat parses independently of the C locale; a literal beyond double
    // becomes infinity, which sema reports as out of range for its type.
    llvm::APFloat value(llvm::APFloat::IEEEdouble());
    auto status =
        value.convertFromString(digits, llvm::APFloat::rmNearestTiesToEven);
    if (!status) {
      llvm::consumeError(status.takeError());
      diags.error(start, "invalid float literal '" + spelling + "'", range);
      return nullptr;
    }
    double d = value.convertToDouble();
    return std::make_unique<NumberExpr>(range, std::move(spelling),
                                        negate ? -d : d);
  }

  uint64_t magnitude;
  constexpr uint64_t maxMagnitude =
      static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (digits.getAsInteger(10, magnitude) ||
      magnitude > maxMagnitude + (negate ? 1 : 0)) {
    diags.error(start,
                "integer literal '" + spelling +
                    "' is out of range: it does not fit in 64 bits",
                tokRange);
    return nullptr;
  }
  int64_t value = negate ? static_cast<int64_t>(0 - magnitude)
                         : static_cast<int64_t>(magnitude);
  return std::make_unique<NumberExpr>(range, std::move(spelling), value);
}

/// primary ::= number | 'true' | 'false' | ident | call | '(' expr ')'
std::unique_ptr<Expr> Parser::parsePrimary() {
  llvm::SMLoc start = tok.getLoc();
  switch (tok.getKind()) {
  case TokenKind::Integer:
  case TokenKind::Float:
  case TokenKind::KwInf:
  case TokenKind::KwNan:
    return parseNumber(start, /*negate=*/false);
  case TokenKind::KwTrue:
  case TokenKind::KwFalse: {
    bool value = tok.is(TokenKind::KwTrue);
    consume();
    return std::make_unique<BoolExpr>(rangeFrom(start), value);
  }
  case TokenKind::Identifier: {
    Token nameTok = tok;
    consume();
    if (tok.is(TokenKind::LParen))
      return parseCall(nameTok);
    return std::make_unique<NameExpr>(nameTok.getRange(),
                                      nameTok.getSpelling().str());
  }
  case TokenKind::LParen: {
    consume();
    std::unique_ptr<Expr> inner = parseExpr();
    if (!inner)
      return nullptr;
    if (!expect(TokenKind::RParen, "expected ')' to close '('"))
      return nullptr;
    return inner;
  }
  default:
    emitErrorAtToken("expected an expression");
    return nullptr;
  }
}

/// call ::= ident '(' (arg (',' arg)*)? ')'
std::unique_ptr<Expr> Parser::parseCall(Token calleeTok) {
  llvm::StringRef callee = calleeTok.getSpelling();
  consume(); // '('

  // The predicate of `cmp` and the dimension of `index` and `size` are part
  // of the syntax of the call, like keywords: they name no value, so they
  // are not parsed as expressions.
  std::optional<std::pair<std::string, llvm::SMRange>> nameArgument;
  bool expectValues = tok.isNot(TokenKind::RParen);
  bool takesDim = callee == "index" || callee == "size";
  if ((callee == "cmp" || takesDim) && expectValues) {
    Token nameTok = tok;
    if (nameTok.is(TokenKind::Identifier))
      consume();
    if (nameTok.isNot(TokenKind::Identifier) ||
        (tok.isNot(TokenKind::Comma) && tok.isNot(TokenKind::RParen))) {
      if (takesDim)
        emitError(nameTok.getLoc(),
                  "the argument of '" + callee +
                      "' must be a dimension name, such as 'n' in '" + callee +
                      "(n)'",
                  nameTok.getRange());
      else
        emitError(nameTok.getLoc(),
                  "the first argument of 'cmp' must be a comparison "
                  "predicate: eq, ne, lt, le, gt or ge",
                  nameTok.getRange());
      return nullptr;
    }
    nameArgument.emplace(nameTok.getSpelling().str(), nameTok.getRange());
    expectValues = tok.is(TokenKind::Comma);
    if (expectValues)
      consume();
  }

  // A reduction or a scan takes one value, then the names of dimensions:
  // `sum(x, n)`, `sum(x, h, w)`; bitcast a value, then a type's name:
  // `bitcast(x, u32)` (sema checks that the name is a type's).
  std::optional<OpKind> builtin = lookupBuiltin(callee);
  bool takesType = builtin == OpKind::Bitcast;
  bool takesDims = builtin && (getOpClass(*builtin) == OpClass::Reduce ||
                               getOpClass(*builtin) == OpClass::Scan);
  std::vector<std::unique_ptr<Expr>> args;
  std::vector<CallExpr::NameArgument> dimArguments;
  while (expectValues) {
    if ((takesDims || takesType) && !args.empty()) {
      Token nameTok = tok;
      if (nameTok.is(TokenKind::Identifier))
        consume();
      if (nameTok.isNot(TokenKind::Identifier) ||
          (tok.isNot(TokenKind::Comma) && tok.isNot(TokenKind::RParen))) {
        emitError(nameTok.getLoc(),
                  takesType
                      ? "the second argument of 'bitcast' must be a type, such "
                        "as 'u32' in 'bitcast(x, u32)'"
                      : "the arguments of '" + callee +
                            "' after the first must be dimension names, such "
                            "as 'n' in '" +
                            callee + "(x, n)'",
                  nameTok.getRange());
        return nullptr;
      }
      dimArguments.emplace_back(nameTok.getSpelling().str(),
                                nameTok.getRange());
    } else {
      std::unique_ptr<Expr> arg = parseExpr();
      if (!arg)
        return nullptr;
      args.push_back(std::move(arg));
    }
    if (tok.is(TokenKind::RParen))
      break;
    if (!expect(TokenKind::Comma,
                "expected ',' or ')' in the arguments of '" + callee + "'"))
      return nullptr;
  }
  consume(); // ')'
  return checkDepth(std::make_unique<CallExpr>(
      rangeFrom(calleeTok.getLoc()), calleeTok.getRange(), callee.str(),
      std::move(nameArgument), std::move(args), std::move(dimArguments)));
}

std::unique_ptr<ModuleDecl> ewc::parseModule(Diagnostics &diags) {
  llvm::SourceMgr &sourceMgr = diags.getSourceMgr();
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  return Parser(buffer->getBuffer(), diags).parseModule();
}
