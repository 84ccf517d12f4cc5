//===- ASTDump.cpp - Textual dump of the ew AST ---------------------------===//
//
// One line per node, indented two spaces per level, so a FileCheck test can
// read the tree shape off the indentation (test/Frontend/ast-*.ew).
//
//===----------------------------------------------------------------------===//

#include "ewc/Frontend/ASTDump.h"

#include "llvm/ADT/StringExtras.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace ewc;
using llvm::cast;
using llvm::dyn_cast;

namespace {

class ASTDumper {
public:
  ASTDumper(const ModuleDecl &module, llvm::raw_ostream &os)
      : sourceMgr(module.getSourceMgr()), os(os) {}

  void dump(const ModuleDecl &module);

private:
  void dump(const KernelDecl &kernel);
  void dump(const ParamDecl &param);
  void dump(const Stmt &stmt);
  void dump(const Expr &expr);

  /// Starts a line at the current depth.
  llvm::raw_ostream &line() { return os.indent(indent * 2); }
  void printLoc(llvm::SMLoc loc) {
    auto [lineNo, col] = sourceMgr.getLineAndColumn(loc);
    os << " <" << lineNo << ':' << col << ">\n";
  }
  void printType(const Expr &expr) {
    if (expr.hasType())
      os << " : " << kernel->formatType(expr.getType());
  }

  /// Indents the lines printed while it lives by one level.
  struct Nest {
    unsigned &indent;
    explicit Nest(unsigned &indent) : indent(++indent) {}
    ~Nest() { --indent; }
  };

  const llvm::SourceMgr &sourceMgr;
  llvm::raw_ostream &os;
  unsigned indent = 0;
  const KernelDecl *kernel = nullptr;
};

} // namespace

void ASTDumper::dump(const ModuleDecl &module) {
  line() << "Module "
         << sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                ->getBufferIdentifier()
         << "\n";
  Nest nest(indent);
  for (const std::unique_ptr<KernelDecl> &kernel : module.getKernels())
    dump(*kernel);
}

void ASTDumper::dump(const KernelDecl &kernel) {
  this->kernel = &kernel;
  line() << "Kernel " << kernel.getDisplayName();
  if (!kernel.getDims().empty())
    os << " [dims " << llvm::join(kernel.getDims(), ", ") << "]";
  printLoc(kernel.getLoc());
  Nest nest(indent);
  for (const std::unique_ptr<ParamDecl> &param : kernel.getParams())
    dump(*param);
  for (const TypeSpec &result : kernel.getResults()) {
    line() << "Result " << kernel.formatType(result);
    printLoc(result.range.Start);
  }
  for (const std::unique_ptr<Stmt> &stmt : kernel.getBody())
    dump(*stmt);
}

void ASTDumper::dump(const ParamDecl &param) {
  line() << "Param #" << param.getIndex() << ' ' << param.getName() << " : "
         << kernel->formatType(param.getTypeSpec());
  if (const Expr *value = param.getDefault()) {
    os << " = ";
    if (auto *b = dyn_cast<BoolExpr>(value))
      os << (b->getValue() ? "true" : "false");
    else
      os << cast<NumberExpr>(value)->getSpelling();
  }
  printLoc(param.getLoc());
}

void ASTDumper::dump(const Stmt &stmt) {
  if (auto *let = dyn_cast<LetStmt>(&stmt)) {
    line() << "Let " << let->getName();
    printType(let->getInit());
    printLoc(let->getLoc());
    Nest nest(indent);
    dump(let->getInit());
    return;
  }
  auto &ret = cast<ReturnStmt>(stmt);
  line() << "Return";
  printLoc(ret.getLoc());
  Nest nest(indent);
  for (const std::unique_ptr<Expr> &value : ret.getValues())
    dump(*value);
}

void ASTDumper::dump(const Expr &expr) {
  switch (expr.getKind()) {
  case Expr::Expr_Number:
    line() << "Number " << cast<NumberExpr>(expr).getSpelling();
    break;
  case Expr::Expr_Bool:
    line() << "Bool " << (cast<BoolExpr>(expr).getValue() ? "true" : "false");
    break;
  case Expr::Expr_Name: {
    auto &name = cast<NameExpr>(expr);
    line() << "Name " << name.getName();
    printType(expr);
    if (const ParamDecl *param = name.getParam())
      os << " (param #" << param->getIndex() << ")";
    else if (name.getLet())
      os << " (let)";
    printLoc(expr.getLoc());
    return;
  }
  case Expr::Expr_Unary:
    line() << "Unary " << cast<UnaryExpr>(expr).getOperatorSpelling();
    break;
  case Expr::Expr_Binary:
    line() << "Binary " << cast<BinaryExpr>(expr).getOperatorSpelling();
    break;
  case Expr::Expr_Call: {
    auto &call = cast<CallExpr>(expr);
    line() << "Call " << call.getCallee();
    if (call.hasNameArgument())
      os << ' ' << call.getNameArgument();
    for (const CallExpr::NameArgument &dim : call.getDimArguments())
      os << " over " << dim.first;
    break;
  }
  }
  printType(expr);
  printLoc(expr.getLoc());
  if (auto *op = dyn_cast<OpExpr>(&expr)) {
    Nest nest(indent);
    for (const std::unique_ptr<Expr> &operand : op->getOperands())
      dump(*operand);
  }
}

void ewc::dumpAST(const ModuleDecl &module, llvm::raw_ostream &os) {
  ASTDumper(module, os).dump(module);
}
