//===- Sema.cpp - Semantic checks of the ew language ----------------------===//
//
// The kernel-level checks: the signature (parameters, defaults, the one
// length), the statements (lets, the return) and the module (kernel names).
// Expressions and their typing are in SemaExpr.cpp.
//
//===----------------------------------------------------------------------===//

#include "ewc/Frontend/Sema.h"
#include "KernelChecker.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Casting.h"

using namespace ewc;
using llvm::cast;
using llvm::dyn_cast;

using namespace ewc::sema;

//===----------------------------------------------------------------------===//
// Kernel signature
//===----------------------------------------------------------------------===//

void KernelChecker::check() {
  unsigned errorsBefore = diags.getNumErrors();
  checkSignature();
  for (const std::unique_ptr<Stmt> &stmt : kernel.getBody()) {
    if (auto *let = dyn_cast<LetStmt>(stmt.get()))
      checkLet(*let);
    else
      checkReturn(*cast<ReturnStmt>(stmt.get()));
  }

  // Lets never used in a typed context take their default type. Later lets
  // go first: `let c = 2; let d = c + 0.5;` must make `c` an f32, as `d`
  // needs, not the i32 that `c` alone would default to.
  for (const std::unique_ptr<Stmt> &stmt : llvm::reverse(kernel.getBody())) {
    auto *let = dyn_cast<LetStmt>(stmt.get());
    if (!let)
      continue;
    LetInfo &info = letInfos[let];
    if (info.checked.isWeak() && !let->getInit().hasType() &&
        resolveWeak(let->getInit(), getDefaultDType(info.checked)))
      info.checked.state = Checked::State::Typed;
  }
  // Unused lets are worth a warning only in a kernel that is otherwise right;
  // next to an error they are mostly its echo.
  if (diags.getNumErrors() != errorsBefore)
    return;
  for (const std::unique_ptr<Stmt> &stmt : kernel.getBody())
    if (auto *let = dyn_cast<LetStmt>(stmt.get()))
      if (!letInfos[let].used)
        diags.warning(let->getNameRange().Start,
                      "unused let '" + let->getName() + "'",
                      let->getNameRange());
}

void KernelChecker::checkSignature() {
  for (const std::unique_ptr<Param> &param : kernel.getParams()) {
    auto [it, inserted] = params.try_emplace(param->getName(), param.get());
    if (!inserted) {
      diags.error(param->getLoc(),
                  "duplicate parameter '" + param->getName() + "'",
                  param->getNameRange());
      diags.note(it->second->getLoc(), "previous definition is here");
    }
    checkDefault(*param);
  }

  // The first tensor, parameter or result, fixes the one length name.
  const TypeSpec *first = nullptr;
  std::string firstWhat;
  auto checkLength = [&](const TypeSpec &type, const std::string &what) {
    if (!type.isTensor)
      return;
    if (!first) {
      first = &type;
      firstWhat = what;
      kernel.setLengthName(type.lengthName);
      return;
    }
    if (type.lengthName == first->lengthName)
      return;
    diags.error(type.lengthRange.Start,
                "mismatched tensor lengths: '" + type.lengthName + "' of " +
                    what + " differs from '" + first->lengthName + "' of " +
                    firstWhat + "; all tensors of a kernel have one length",
                type.lengthRange);
  };
  for (const std::unique_ptr<Param> &param : kernel.getParams())
    checkLength(param->getTypeSpec(),
                ("parameter '" + param->getName() + "'").str());
  for (auto [i, result] : llvm::enumerate(kernel.getResults()))
    checkLength(result, kernel.getResults().size() == 1
                            ? std::string("the result")
                            : "result " + std::to_string(i + 1));

  // A kernel computes arrays: its results are tensors of length n. (A scalar
  // result would be one value for all elements; the ew dialect has none.)
  llvm::StringRef lengthName =
      kernel.getLengthName().empty() ? "n" : kernel.getLengthName();
  for (const TypeSpec &result : kernel.getResults())
    if (!result.isTensor)
      diags.error(result.range.Start,
                  "kernel results must be tensors; write '" +
                      getDTypeName(result.dtype) + "[" + lengthName +
                      "]' instead of '" + getDTypeName(result.dtype) + "'",
                  result.range);
}

void KernelChecker::checkDefault(Param &param) {
  Expr *value = param.getDefault();
  if (!value)
    return;
  if (param.isTensor()) {
    diags.error(value->getLoc(),
                "default value on tensor parameter '" + param.getName() +
                    "'; only scalar parameters can have one",
                value->getRange());
    return;
  }
  if (auto *b = dyn_cast<BoolExpr>(value)) {
    b->setType({DType::Bool, false});
    if (param.getDType() != DType::Bool)
      diags.error(value->getLoc(),
                  "type mismatch: the default value of '" + param.getName() +
                      "' is bool but the parameter is " +
                      formatType(param.getType()),
                  value->getRange());
    return;
  }
  // A default is stored in the parameter's own type, so it must fit that
  // type, not merely the f32 that f16 and bf16 compute in.
  if (auto *number = dyn_cast<NumberExpr>(value))
    if (checkLiteralFits(*number, param.getDType(), /*asStored=*/true))
      number->setType(param.getType());
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void KernelChecker::checkLet(LetStmt &let) {
  Checked checked = checkExpr(let.getInit());
  LetInfo &info = letInfos[&let];
  info.let = &let;
  info.checked = checked;

  llvm::SMLoc previous;
  if (const Param *param = params.lookup(let.getName()))
    previous = param->getLoc();
  else if (LetStmt *other = lets.lookup(let.getName()))
    previous = other->getNameRange().Start;
  if (previous.isValid()) {
    diags.error(let.getNameRange().Start,
                "redefinition of '" + let.getName() + "'", let.getNameRange());
    diags.note(previous, "previous definition is here");
    info.used = true; // One message for this let is enough.
    return;
  }
  lets[let.getName()] = &let;
}

void KernelChecker::checkReturn(ReturnStmt &ret) {
  size_t numResults = kernel.getResults().size();
  size_t numValues = ret.getValues().size();
  if (numValues != numResults)
    diags.error(ret.getLoc(),
                "result count mismatch: kernel '" + kernel.getName() +
                    "' declares " + llvm::Twine(numResults) +
                    (numResults == 1 ? " result" : " results") +
                    " but returns " + llvm::Twine(numValues) +
                    (numValues == 1 ? " value" : " values"),
                ret.getRange());

  for (size_t i = 0; i < numValues; ++i) {
    Expr &value = ret.getValue(i);
    Checked checked = checkExpr(value);
    if (!checked.ok())
      continue;
    if (i >= numResults) {
      if (checked.isWeak())
        resolveWeak(value, getDefaultDType(checked));
      continue;
    }
    ValueType declared = kernel.getResultType(i);
    if (checked.isWeak() && !resolveWeak(value, declared.dtype))
      continue;
    // A scalar result type has been reported with the signature. A scalar
    // value of the result's element type fills the result.
    if (value.getType().dtype == declared.dtype || !declared.isTensor)
      continue;
    std::string which = numResults == 1 ? std::string("the result")
                                        : "result " + std::to_string(i + 1);
    diags.error(value.getLoc(),
                "type mismatch: " + which + " of kernel '" + kernel.getName() +
                    "' is declared " + formatType(declared) +
                    " but the returned value is " + formatType(value.getType()),
                {value.getRange(), kernel.getResults()[i].range});
  }
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

bool ewc::checkModule(Module &module, Diagnostics &diags) {
  unsigned errorsBefore = diags.getNumErrors();
  if (module.getKernels().empty()) {
    const llvm::SourceMgr &sourceMgr = module.getSourceMgr();
    const llvm::MemoryBuffer *buffer =
        sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
    diags.error(llvm::SMLoc::getFromPointer(buffer->getBufferStart()),
                "no kernel in this file");
  }
  llvm::StringMap<const Kernel *> kernels;
  for (const std::unique_ptr<Kernel> &kernel : module.getKernels()) {
    auto [it, inserted] = kernels.try_emplace(kernel->getName(), kernel.get());
    if (!inserted) {
      diags.error(kernel->getNameRange().Start,
                  "redefinition of kernel '" + kernel->getName() + "'",
                  kernel->getNameRange());
      diags.note(it->second->getNameRange().Start,
                 "previous definition is here");
    }
    KernelChecker(*kernel, diags).check();
  }
  return diags.getNumErrors() == errorsBefore;
}
