//===- Sema.cpp - Semantic checks of the ew language ----------------------===//
//
// Typing works bottom-up with one twist: a literal is "weak", it has no
// element type of its own. An op whose operands mix weak and typed values
// pushes the typed element type down into the weak ones (resolveWeak); an op
// on weak values only stays weak, and a weak root takes its context's type (a
// kernel result) or the default (f32 for a float literal, else i32). A `let`
// of a weak value stays weak until its first typed use, so `let c = 2.0;`
// works with f16 as well as f64.
//
//===----------------------------------------------------------------------===//

#include "ewc/Frontend/Sema.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Casting.h"

using namespace ewc;
using llvm::cast;
using llvm::dyn_cast;

namespace {

/// What checking an expression found out.
struct Checked {
  enum class State { Error, Typed, WeakInt, WeakFloat };

  State state = State::Error;
  /// Tensor-ness is known even for weak values (`where(tensorCond, 1, 2)`).
  bool isTensor = false;
  /// The height of the expression counting through the `let`s it names.
  unsigned depth = 1;

  static Checked error() { return {}; }
  static Checked typed(ValueType type, unsigned depth) {
    return {State::Typed, type.isTensor, depth};
  }
  bool ok() const { return state != State::Error; }
  bool isWeak() const {
    return state == State::WeakInt || state == State::WeakFloat;
  }
};

/// The element type a weak value takes when nothing else decides it.
DType getDefaultDType(const Checked &checked) {
  return checked.state == Checked::State::WeakFloat ? DType::F32 : DType::I32;
}

/// Sema state of one `let`.
struct LetInfo {
  LetStmt *let = nullptr;
  Checked checked;
  bool used = false;
};

/// Checks one kernel.
class KernelChecker {
public:
  KernelChecker(Kernel &kernel, Diagnostics &diags)
      : kernel(kernel), diags(diags) {}

  void check();

private:
  void checkSignature();
  void checkDefault(Param &param);
  void checkLet(LetStmt &let);
  void checkReturn(ReturnStmt &ret);

  Checked checkExpr(Expr &expr);
  Checked checkName(NameExpr &name);
  Checked checkOp(OpExpr &op);
  /// Reports (once per kernel) an expression deeper than kMaxExprDepth.
  bool checkDepth(const Expr &expr, unsigned depth);
  bool resolveCall(CallExpr &call);
  /// Types `values` (the operands of `op` that must share an element type):
  /// returns the typed result, a weak result if all are weak, or an error.
  Checked unify(OpExpr &op, llvm::ArrayRef<Expr *> values,
                llvm::ArrayRef<Checked> checked, llvm::StringRef what);

  /// Gives the weak expression `expr` the element type `dtype`.
  bool resolveWeak(Expr &expr, DType dtype);
  bool checkLiteralFits(const NumberExpr &number, DType dtype);

  std::string formatType(ValueType type) const {
    return kernel.formatType(type);
  }
  /// How messages name an op: as written, `'*'` or `'mul'`.
  static std::string getDisplayName(const OpExpr &op);
  void suggestName(std::string &msg, llvm::StringRef name,
                   llvm::ArrayRef<llvm::StringRef> candidates);

  Kernel &kernel;
  Diagnostics &diags;
  llvm::StringMap<const Param *> params;
  llvm::StringMap<LetStmt *> lets;
  llvm::DenseMap<const LetStmt *, LetInfo> letInfos;
  bool reportedDepth = false;
};

} // namespace

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
  resolveWeak(*value, param.getDType());
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
    // A scalar result type has been reported with the signature.
    if (value.getType() == declared || !declared.isTensor)
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
// Expressions
//===----------------------------------------------------------------------===//

Checked KernelChecker::checkExpr(Expr &expr) {
  switch (expr.getKind()) {
  case Expr::Expr_Number: {
    bool isFloatLiteral = cast<NumberExpr>(expr).isFloatLiteral();
    return {isFloatLiteral ? Checked::State::WeakFloat
                           : Checked::State::WeakInt,
            false, 1};
  }
  case Expr::Expr_Bool:
    expr.setType({DType::Bool, false});
    return Checked::typed(expr.getType(), 1);
  case Expr::Expr_Name:
    return checkName(cast<NameExpr>(expr));
  case Expr::Expr_Unary:
  case Expr::Expr_Binary:
  case Expr::Expr_Call:
    return checkOp(cast<OpExpr>(expr));
  }
  return Checked::error();
}

bool KernelChecker::checkDepth(const Expr &expr, unsigned depth) {
  // The parser has bounded each expression alone; only `let`s can add up.
  if (depth <= kMaxExprDepth)
    return true;
  if (!reportedDepth)
    diags.error(expr.getLoc(), "expression is nested too deeply through its "
                               "'let's (more than " +
                                   llvm::Twine(kMaxExprDepth) + " levels)");
  reportedDepth = true;
  return false;
}

void KernelChecker::suggestName(std::string &msg, llvm::StringRef name,
                                llvm::ArrayRef<llvm::StringRef> candidates) {
  // A third of the letters may differ; one-letter names get no guess, since
  // every other short name would be one.
  llvm::StringRef best;
  unsigned bestDistance = name.size() / 3 + 1;
  for (llvm::StringRef candidate : candidates) {
    unsigned distance = name.edit_distance(candidate, true, bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (!best.empty())
    msg += "; did you mean '" + best.str() + "'?";
}

Checked KernelChecker::checkName(NameExpr &name) {
  if (LetStmt *let = lets.lookup(name.getName())) {
    name.resolve(let);
    LetInfo &info = letInfos[let];
    info.used = true;
    Checked checked = info.checked;
    // Going from the name to the let is one more level of recursion for
    // everything that follows names, so a chain of `let`s counts as deep.
    ++checked.depth;
    if (checked.ok() && !checkDepth(name, checked.depth))
      return Checked::error();
    if (checked.state == Checked::State::Typed)
      name.setType(let->getType());
    return checked;
  }
  if (const Param *param = params.lookup(name.getName())) {
    name.resolve(param);
    name.setType(param->getType());
    return Checked::typed(param->getType(), 1);
  }

  std::string msg = "unknown name '" + name.getName().str() + "'";
  llvm::SmallVector<llvm::StringRef> candidates;
  for (const auto &entry : params)
    candidates.push_back(entry.getKey());
  for (const auto &entry : lets)
    candidates.push_back(entry.getKey());
  suggestName(msg, name.getName(), candidates);
  diags.error(name.getLoc(), msg, name.getRange());
  return Checked::error();
}

std::string KernelChecker::getDisplayName(const OpExpr &op) {
  if (auto *call = dyn_cast<CallExpr>(&op))
    return "'" + call->getCallee().str() + "'";
  if (auto *binary = dyn_cast<BinaryExpr>(&op))
    return "'" + binary->getOperatorSpelling().str() + "'";
  return "'-'";
}

bool KernelChecker::resolveCall(CallExpr &call) {
  std::optional<OpKind> op = lookupBuiltin(call.getCallee());
  if (!op) {
    std::string msg = "unknown function '" + call.getCallee().str() + "'";
    suggestName(msg, call.getCallee(),
                {"add", "sub", "mul", "div", "neg", "cmp", "where"});
    diags.error(call.getLoc(), msg, call.getCalleeRange());
    return false;
  }
  unsigned expected = getNumValueOperands(*op) + (*op == OpKind::Cmp ? 1 : 0);
  if (call.getNumArgs() != expected) {
    diags.error(call.getLoc(),
                "'" + call.getCallee() + "' expects " + llvm::Twine(expected) +
                    (expected == 1 ? " argument" : " arguments") + ", got " +
                    llvm::Twine(call.getNumArgs()),
                call.getRange());
    return false;
  }
  CmpPredicate pred = CmpPredicate::Eq;
  if (*op == OpKind::Cmp) {
    std::optional<CmpPredicate> parsed =
        parsePredicateName(call.getPredicateName());
    if (!parsed) {
      std::string msg = "unknown comparison predicate '" +
                        call.getPredicateName().str() +
                        "'; expected eq, ne, lt, le, gt or ge";
      diags.error(call.getPredicateRange().Start, msg,
                  call.getPredicateRange());
      return false;
    }
    pred = *parsed;
  }
  call.resolve(*op, pred);
  return true;
}

Checked KernelChecker::checkOp(OpExpr &op) {
  bool resolved = true;
  if (auto *call = dyn_cast<CallExpr>(&op))
    resolved = resolveCall(*call);

  // Operands are checked even under a bad call, to report their own errors.
  llvm::SmallVector<Checked, 3> checked;
  llvm::SmallVector<Expr *, 3> operands;
  unsigned depth = 0;
  bool operandsOk = true;
  for (const std::unique_ptr<Expr> &operand : op.getOperands()) {
    checked.push_back(checkExpr(*operand));
    operands.push_back(operand.get());
    operandsOk &= checked.back().ok();
    depth = std::max(depth, checked.back().depth);
  }
  if (!resolved || !operandsOk)
    return Checked::error();
  ++depth;
  if (!checkDepth(op, depth))
    return Checked::error();

  std::string name = getDisplayName(op);
  Checked result;
  switch (op.getOp()) {
  case OpKind::Add:
  case OpKind::Sub:
  case OpKind::Mul:
  case OpKind::Div:
  case OpKind::Neg:
    result = unify(op, operands, checked, "operands");
    break;
  case OpKind::Cmp: {
    Checked common = unify(op, operands, checked, "operands");
    if (!common.ok())
      return common;
    // Comparing two literals: they take their default type together.
    if (common.isWeak())
      for (Expr *operand : operands)
        if (!resolveWeak(*operand, getDefaultDType(common)))
          return Checked::error();
    DType dtype = operands[0]->getType().dtype;
    CmpPredicate pred = op.getPredicate();
    if (dtype == DType::Bool && pred != CmpPredicate::Eq &&
        pred != CmpPredicate::Ne) {
      diags.error(op.getLoc(),
                  name + " cannot order bool values; only eq and ne compare "
                         "bools",
                  {operands[0]->getRange(), operands[1]->getRange()});
      return Checked::error();
    }
    result = {Checked::State::Typed, common.isTensor, depth};
    op.setType({DType::Bool, common.isTensor});
    return result;
  }
  case OpKind::Where: {
    Expr &cond = *operands[0];
    if (checked[0].isWeak() && !resolveWeak(cond, getDefaultDType(checked[0])))
      return Checked::error();
    if (cond.getType().dtype != DType::Bool) {
      diags.error(cond.getLoc(),
                  "type mismatch: the condition of " + name +
                      " must be bool, got " + formatType(cond.getType()),
                  cond.getRange());
      return Checked::error();
    }
    result = unify(op, llvm::ArrayRef(operands).drop_front(),
                   llvm::ArrayRef(checked).drop_front(), "values");
    if (result.ok())
      result.isTensor |= checked[0].isTensor;
    break;
  }
  }
  if (!result.ok())
    return result;
  result.depth = depth;

  // Division of weak integers stays weak but becomes float: `div` is only
  // defined for floating-point types, so `1 / 2` can only mean 0.5.
  if (op.getOp() == OpKind::Div && result.isWeak())
    result.state = Checked::State::WeakFloat;
  if (result.isWeak())
    return result;

  // unify has rejected arithmetic on bool already.
  DType dtype = operands.back()->getType().dtype;
  if (op.getOp() == OpKind::Div && !isFloat(dtype)) {
    diags.error(op.getLoc(),
                name + " needs a floating-point type, got " +
                    formatType({dtype, result.isTensor}) +
                    " (integer division is not supported yet)",
                op.getRange());
    return Checked::error();
  }
  op.setType({dtype, result.isTensor});
  return result;
}

Checked KernelChecker::unify(OpExpr &op, llvm::ArrayRef<Expr *> values,
                             llvm::ArrayRef<Checked> checked,
                             llvm::StringRef what) {
  const Expr *first = nullptr;
  bool isTensor = false, anyFloatLiteral = false;
  for (auto [value, c] : llvm::zip(values, checked)) {
    isTensor |= c.isTensor;
    anyFloatLiteral |= c.state == Checked::State::WeakFloat;
    if (c.isWeak())
      continue;
    if (!first) {
      first = value;
      continue;
    }
    if (value->getType().dtype == first->getType().dtype)
      continue;
    diags.error(op.getLoc(),
                "type mismatch: the " + what + " of " + getDisplayName(op) +
                    " are " + formatType(first->getType()) + " and " +
                    formatType(value->getType()),
                {first->getRange(), value->getRange()});
    return Checked::error();
  }
  if (!first)
    return {anyFloatLiteral ? Checked::State::WeakFloat
                            : Checked::State::WeakInt,
            isTensor, 1};

  DType dtype = first->getType().dtype;
  // Reporting `true + 1` as arithmetic on bool beats complaining that 1 is
  // not a bool; checkOp does that with the typed result.
  bool boolArith = dtype == DType::Bool && op.getOp() != OpKind::Where &&
                   op.getOp() != OpKind::Cmp;
  for (auto [value, c] : llvm::zip(values, checked))
    if (c.isWeak() && !boolArith && !resolveWeak(*value, dtype))
      return Checked::error();
  if (boolArith) {
    diags.error(op.getLoc(),
                "arithmetic on bool is not allowed: " + getDisplayName(op) +
                    " got an operand of type " + formatType(first->getType()),
                op.getRange());
    return Checked::error();
  }
  return {Checked::State::Typed, isTensor, 1};
}

//===----------------------------------------------------------------------===//
// Weak types
//===----------------------------------------------------------------------===//

bool KernelChecker::checkLiteralFits(const NumberExpr &number, DType dtype) {
  std::string kind =
      number.isFloatLiteral() ? "float literal '" : "integer literal '";
  kind += number.getSpelling().str() + "'";
  if (dtype == DType::Bool) {
    diags.error(number.getLoc(),
                kind + " cannot have type bool; write true or false",
                number.getRange());
    return false;
  }
  if (isInteger(dtype)) {
    if (number.isFloatLiteral()) {
      diags.error(number.getLoc(),
                  kind + " cannot have integer type " +
                      getDTypeName(dtype).str(),
                  number.getRange());
      return false;
    }
    int64_t value = number.getIntValue();
    if (dtype == DType::I32 && (value < INT32_MIN || value > INT32_MAX)) {
      diags.error(number.getLoc(), kind + " is out of range for i32",
                  number.getRange());
      return false;
    }
    return true;
  }
  // A value that rounds to infinity in its type is out of range; one that
  // underflows to zero or a subnormal is merely imprecise, as in C.
  llvm::APFloat value(number.getValueAsDouble());
  bool losesInfo;
  llvm::APFloat::opStatus status = value.convert(
      getFloatSemantics(dtype), llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  if (value.isInfinity() || (status & llvm::APFloat::opOverflow)) {
    diags.error(number.getLoc(),
                kind + " is out of range for " + getDTypeName(dtype).str(),
                number.getRange());
    return false;
  }
  return true;
}

bool KernelChecker::resolveWeak(Expr &expr, DType dtype) {
  if (expr.hasType())
    return true;
  if (auto *number = dyn_cast<NumberExpr>(&expr)) {
    if (!checkLiteralFits(*number, dtype))
      return false;
    number->setType({dtype, false});
    return true;
  }
  if (auto *name = dyn_cast<NameExpr>(&expr)) {
    // The first typed use of a weak `let` decides its type for good.
    LetInfo &info = letInfos[name->getLet()];
    if (info.checked.isWeak() && !info.let->getInit().hasType()) {
      if (!resolveWeak(info.let->getInit(), dtype)) {
        info.checked = Checked::error();
        return false;
      }
      info.checked.state = Checked::State::Typed;
    }
    if (!info.checked.ok())
      return false;
    ValueType letType = info.let->getType();
    if (letType.dtype != dtype) {
      diags.error(name->getLoc(),
                  "type mismatch: '" + name->getName() + "' is " +
                      formatType(letType) + " but is used as " +
                      getDTypeName(dtype) + " here",
                  name->getRange());
      return false;
    }
    name->setType(letType);
    return true;
  }

  auto &op = cast<OpExpr>(expr);
  bool isTensor = false;
  for (const std::unique_ptr<Expr> &operand : op.getOperands()) {
    if (!resolveWeak(*operand, dtype))
      return false;
    isTensor |= operand->getType().isTensor;
  }
  if (op.getOp() == OpKind::Where) {
    op.setType({dtype, isTensor});
    return true;
  }
  // Only arithmetic on weak operands stays weak; comparisons are typed.
  if (dtype == DType::Bool) {
    diags.error(op.getLoc(),
                "arithmetic on bool is not allowed: " + getDisplayName(op) +
                    " is used as bool here",
                op.getRange());
    return false;
  }
  if (op.getOp() == OpKind::Div && !isFloat(dtype)) {
    diags.error(op.getLoc(),
                getDisplayName(op) + " needs a floating-point type, got " +
                    getDTypeName(dtype).str() +
                    " (integer division is not supported yet)",
                op.getRange());
    return false;
  }
  op.setType({dtype, isTensor});
  return true;
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
