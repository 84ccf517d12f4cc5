//===- MLIRGen.cpp - Lowering of the ew AST to the ew dialect -------------===//
//
// The language is pure, so a `let` is a name for a value rather than an
// action: each `let` is emitted at its first use, once, and not at all if it
// is unused. Emitting the returned expressions depth-first, left to right,
// then orders the ops by use, which is why `where(x >= 0.0, x, slope * x)`
// and the same kernel spelled with `let`s and builtin names give the same IR.
// A literal is emitted as an `ew.constant` at each use; canonicalization
// merges the copies.
//
//===----------------------------------------------------------------------===//

#include "ewc/Frontend/MLIRGen.h"
#include "ewc/Dialect/Ew/IR/EwDialect.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"
#include "ewc/Frontend/AST.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace ewc;
using llvm::cast;
using llvm::dyn_cast;

namespace {

class MLIRGenImpl {
public:
  MLIRGenImpl(mlir::MLIRContext &context, const llvm::SourceMgr &sourceMgr)
      : builder(&context), sourceMgr(sourceMgr) {
    fileName = builder.getStringAttr(
        sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
            ->getBufferIdentifier());
  }

  mlir::OwningOpRef<mlir::ModuleOp> genModule(const Module &module);

private:
  mlir::Location getLoc(llvm::SMLoc loc) {
    auto [line, col] = sourceMgr.getLineAndColumn(loc);
    return mlir::FileLineColLoc::get(fileName, line, col);
  }

  mlir::Type getElementType(DType dtype);
  mlir::Type getType(ValueType type);
  /// The attribute of a literal (NumberExpr or BoolExpr) as a scalar of its
  /// resolved element type.
  mlir::TypedAttr getLiteralAttr(const Expr &literal);

  void genKernel(const Kernel &kernel);
  mlir::Value genExpr(const Expr &expr);
  mlir::Value genOp(const OpExpr &op);

  mlir::OpBuilder builder;
  const llvm::SourceMgr &sourceMgr;
  mlir::StringAttr fileName;

  /// Per kernel: the block argument of each parameter, by index, and the
  /// value of each `let` emitted so far.
  llvm::SmallVector<mlir::Value> paramValues;
  llvm::DenseMap<const LetStmt *, mlir::Value> letValues;
};

} // namespace

mlir::Type MLIRGenImpl::getElementType(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return builder.getI1Type();
  case DType::I32:
    return builder.getI32Type();
  case DType::I64:
    return builder.getI64Type();
  case DType::F16:
    return builder.getF16Type();
  case DType::BF16:
    return builder.getBF16Type();
  case DType::F32:
    return builder.getF32Type();
  case DType::F64:
    return builder.getF64Type();
  }
  llvm_unreachable("unknown DType");
}

mlir::Type MLIRGenImpl::getType(ValueType type) {
  mlir::Type element = getElementType(type.dtype);
  if (!type.isTensor)
    return element;
  return mlir::ew::getTensorType(element);
}

mlir::TypedAttr MLIRGenImpl::getLiteralAttr(const Expr &literal) {
  if (auto *b = dyn_cast<BoolExpr>(&literal))
    return builder.getBoolAttr(b->getValue());
  auto &number = cast<NumberExpr>(literal);
  DType dtype = number.getType().dtype;
  mlir::Type type = getElementType(dtype);
  if (isFloat(dtype))
    return builder.getFloatAttr(type, number.getValueAsDouble());
  return builder.getIntegerAttr(type, number.getIntValue());
}

mlir::OwningOpRef<mlir::ModuleOp> MLIRGenImpl::genModule(const Module &module) {
  mlir::OwningOpRef<mlir::ModuleOp> result =
      mlir::ModuleOp::create(mlir::FileLineColLoc::get(fileName, 1, 1));
  for (const std::unique_ptr<Kernel> &kernel : module.getKernels()) {
    builder.setInsertionPointToEnd(result->getBody());
    genKernel(*kernel);
  }
  if (failed(mlir::verify(*result))) {
    result->emitError("the generated module does not verify");
    return nullptr;
  }
  return result;
}

void MLIRGenImpl::genKernel(const Kernel &kernel) {
  llvm::SmallVector<mlir::Type> inputs, results;
  for (const std::unique_ptr<Param> &param : kernel.getParams())
    inputs.push_back(getType(param->getType()));
  for (unsigned i = 0, e = kernel.getResults().size(); i != e; ++i)
    results.push_back(getType(kernel.getResultType(i)));

  auto kernelOp = mlir::ew::KernelOp::create(
      builder, getLoc(kernel.getLoc()), kernel.getName(),
      builder.getFunctionType(inputs, results));
  mlir::Block *entry = kernelOp.addEntryBlock();

  paramValues.clear();
  letValues.clear();
  for (const std::unique_ptr<Param> &param : kernel.getParams()) {
    mlir::BlockArgument arg = entry->getArgument(param->getIndex());
    arg.setLoc(getLoc(param->getLoc()));
    paramValues.push_back(arg);
    if (const Expr *value = param->getDefault())
      kernelOp.setArgAttr(param->getIndex(),
                          mlir::ew::KernelOp::getDefaultAttrName(),
                          getLiteralAttr(*value));
  }

  builder.setInsertionPointToStart(entry);
  const ReturnStmt &ret = kernel.getReturn();
  llvm::SmallVector<mlir::Value> values;
  for (const std::unique_ptr<Expr> &value : ret.getValues())
    values.push_back(genExpr(*value));
  mlir::ew::ReturnOp::create(builder, getLoc(ret.getLoc()), values);
}

mlir::Value MLIRGenImpl::genExpr(const Expr &expr) {
  switch (expr.getKind()) {
  case Expr::Expr_Number:
  case Expr::Expr_Bool:
    return mlir::ew::ConstantOp::create(builder, getLoc(expr.getLoc()),
                                        getLiteralAttr(expr));
  case Expr::Expr_Name: {
    auto &name = cast<NameExpr>(expr);
    if (const Param *param = name.getParam())
      return paramValues[param->getIndex()];
    const LetStmt *let = name.getLet();
    assert(let && "sema leaves no name unresolved");
    if (mlir::Value value = letValues.lookup(let))
      return value;
    mlir::Value value = genExpr(let->getInit());
    letValues[let] = value;
    return value;
  }
  case Expr::Expr_Unary:
  case Expr::Expr_Binary:
  case Expr::Expr_Call:
    return genOp(cast<OpExpr>(expr));
  }
  llvm_unreachable("unknown expression kind");
}

static mlir::ew::CmpPredicate convertPredicate(CmpPredicate pred) {
  switch (pred) {
  case CmpPredicate::Eq:
    return mlir::ew::CmpPredicate::eq;
  case CmpPredicate::Ne:
    return mlir::ew::CmpPredicate::ne;
  case CmpPredicate::Lt:
    return mlir::ew::CmpPredicate::lt;
  case CmpPredicate::Le:
    return mlir::ew::CmpPredicate::le;
  case CmpPredicate::Gt:
    return mlir::ew::CmpPredicate::gt;
  case CmpPredicate::Ge:
    return mlir::ew::CmpPredicate::ge;
  }
  llvm_unreachable("unknown CmpPredicate");
}

mlir::Value MLIRGenImpl::genOp(const OpExpr &op) {
  // Operands first, left to right: this fixes the op order (see top).
  llvm::SmallVector<mlir::Value, 3> operands;
  for (const std::unique_ptr<Expr> &operand : op.getOperands())
    operands.push_back(genExpr(*operand));
  mlir::Location loc = getLoc(op.getLoc());
  switch (op.getOp()) {
  case OpKind::Add:
    return mlir::ew::AddOp::create(builder, loc, operands[0], operands[1]);
  case OpKind::Sub:
    return mlir::ew::SubOp::create(builder, loc, operands[0], operands[1]);
  case OpKind::Mul:
    return mlir::ew::MulOp::create(builder, loc, operands[0], operands[1]);
  case OpKind::Div:
    return mlir::ew::DivOp::create(builder, loc, operands[0], operands[1]);
  case OpKind::Neg:
    return mlir::ew::NegOp::create(builder, loc, operands[0]);
  case OpKind::Cmp:
    return mlir::ew::CmpOp::create(builder, loc,
                                   convertPredicate(op.getPredicate()),
                                   operands[0], operands[1]);
  case OpKind::Where:
    return mlir::ew::WhereOp::create(builder, loc, operands[0], operands[1],
                                     operands[2]);
  }
  llvm_unreachable("unknown OpKind");
}

mlir::OwningOpRef<mlir::ModuleOp>
ewc::mlirGen(mlir::MLIRContext &context, const Module &module,
             const llvm::SourceMgr &sourceMgr) {
  context.getOrLoadDialect<mlir::ew::EwDialect>();
  return MLIRGenImpl(context, sourceMgr).genModule(module);
}
