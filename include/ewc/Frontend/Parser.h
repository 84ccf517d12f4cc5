//===- Parser.h - Parser for the ew language --------------------*- C++ -*-===//
//
// A recursive-descent parser from tokens to the AST. It stops at the first
// error: the message names what was expected where, and nothing after it can
// cascade. Names, builtins and types are left to sema.
//
// Grammar (expressions from the lowest precedence; see docs/language.md):
//
// clang-format off
//   module     ::= kernel*
//   kernel     ::= 'kernel' ident typeParams? '(' params? ')' '->' results '{' let* return '}'
//   typeParams ::= '<' ident ':' constraint (',' ident ':' constraint)* '>'
//   constraint ::= 'float' | 'int' | 'any'
//   params     ::= param (',' param)*
//   param      ::= ident ':' type ('=' literal)?
//   literal    ::= '-'? number | 'true' | 'false'
//   results    ::= type | '(' type (',' type)* ')'
//   type       ::= ident ('[' ident ']')?            (a dtype or a type parameter)
//   let        ::= 'let' ident '=' expr ';'
//   return     ::= 'return' expr (',' expr)* ';'
//   expr       ::= additive (cmpop additive)?          (non-associative)
//   additive   ::= multiplicative (('+' | '-') multiplicative)*
//   multiplicative ::= unary (('*' | '/') unary)*
//   unary      ::= '-' unary | primary
//   primary    ::= number | 'true' | 'false' | ident | call | '(' expr ')'
//   call       ::= ident '(' (arg (',' arg)*)? ')'
// clang-format on
//
// The first argument of `cmp` is a predicate name, not an expression.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_FRONTEND_PARSER_H
#define EWC_FRONTEND_PARSER_H

#include "ewc/Frontend/AST.h"
#include "ewc/Frontend/Diagnostics.h"

#include <memory>

namespace ewc {

/// Parses the main buffer of the SourceMgr behind `diags`. Returns null after
/// reporting the first syntax error.
std::unique_ptr<ModuleDecl> parseModule(Diagnostics &diags);

} // namespace ewc

#endif // EWC_FRONTEND_PARSER_H
