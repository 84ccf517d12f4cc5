//===- SemaExpr.cpp - Typing of ew expressions ----------------------------===//
//
// Typing works bottom-up with one twist: a literal is "weak", it has no
// element type of its own. An op whose operands mix weak and typed values
// pushes the typed element type down into the weak ones (resolveWeak); an op
// on weak values only stays weak, and a weak root takes its context's type (a
// kernel result) or the default (f32 for a float literal, else i32). A `let`
// of a weak value stays weak until its first typed use, so `let c = 2.0;`
// works with f16 as well as f64.
//
// Mixed precision follows PyTorch: a scalar never promotes a tensor. The
// operands of one op share an element type, except that a scalar of the same
// kind (float or integer) as the tensors takes the tensors' type, and
// scalars alone promote to the wider type (f16 with bf16 gives f32). Tensors
// of different types never mix without a cast.
//
//===----------------------------------------------------------------------===//

#include "KernelChecker.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Casting.h"

using namespace ewc;
using namespace ewc::sema;
using llvm::cast;
using llvm::dyn_cast;

//===----------------------------------------------------------------------===//
// Type kinds and promotion
//===----------------------------------------------------------------------===//

namespace {
enum class Kind { Bool, Integer, Float };
} // namespace

static Kind getKind(DType dtype) {
  if (dtype == DType::Bool)
    return Kind::Bool;
  return isFloat(dtype) ? Kind::Float : Kind::Integer;
}

/// The common type of two scalars of the same kind, as torch.promote_types:
/// the wider float (f32 for f16 with bf16, neither of which holds the
/// other); for integers the narrowest signed type that holds both (u8 with
/// i8 gives i16). torch defines no promotion of u16, u32 or u64 with another
/// integer type: std::nullopt.
static std::optional<DType> promoteScalars(DType a, DType b) {
  if (a == b)
    return a;
  // torch.promote_types refuses float8 with any other type.
  if (isFloat8(a) || isFloat8(b))
    return std::nullopt;
  if (isFloat(a)) {
    auto rank = [](DType d) {
      return d == DType::F64 ? 3 : d == DType::F32 ? 2 : 1;
    };
    if (rank(a) == rank(b))
      return DType::F32; // f16 and bf16
    return rank(a) > rank(b) ? a : b;
  }
  if (a == DType::Bool)
    return a;
  // Bits of a signed type that holds every value: u8 needs 9.
  auto signedBits = [](DType d) {
    return getIntegerBitWidth(d) + (isUnsignedInteger(d) ? 1 : 0);
  };
  if ((isUnsignedInteger(a) && a != DType::U8) ||
      (isUnsignedInteger(b) && b != DType::U8))
    return std::nullopt;
  unsigned bits = std::max(signedBits(a), signedBits(b));
  return bits <= 8    ? DType::I8
         : bits <= 16 ? DType::I16
         : bits <= 32 ? DType::I32
                      : DType::I64;
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Checked KernelChecker::checkExpr(Expr &expr) {
  switch (expr.getKind()) {
  case Expr::Expr_Number: {
    bool isFloatLiteral = cast<NumberExpr>(expr).isFloatLiteral();
    return Checked::weak(isFloatLiteral ? Checked::State::WeakFloat
                                        : Checked::State::WeakInt,
                         {});
  }
  case Expr::Expr_Bool:
    expr.setType({DType::Bool, {}});
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
    // The name is its let's value, as deep as the let's expression; but
    // MLIRGen and the evaluator recurse from the name to the let, so the
    // chain is bounded apart (a million renames would exhaust the stack).
    if (checked.ok() && ++checked.letChain > kMaxLetChain) {
      if (!reportedDepth)
        diags.error(name.getLoc(), "expression reaches through more than " +
                                       llvm::Twine(kMaxLetChain) +
                                       " chained 'let's");
      reportedDepth = true;
      return Checked::error();
    }
    if (checked.state == Checked::State::Typed)
      name.setType(let->getType());
    return checked;
  }
  if (const ParamDecl *param = params.lookup(name.getName())) {
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

/// The arguments a call of `op` takes: its value operands, and the name
/// that `cmp` (a predicate) and `index`/`size` (a dimension) take first.
static unsigned getNumArguments(OpKind op) {
  // A reduction takes one dimension or more: its fewest are counted.
  bool takesName =
      op == OpKind::Cmp || op == OpKind::Bitcast ||
      (getOpClass(op) == OpClass::Dim && op != OpKind::IndexFlat) ||
      getOpClass(op) == OpClass::Reduce || getOpClass(op) == OpClass::Scan;
  return getNumValueOperands(op) + (takesName ? 1 : 0);
}

std::string KernelChecker::getDisplayName(const OpExpr &op) {
  if (auto *call = dyn_cast<CallExpr>(&op))
    return "'" + call->getCallee().str() + "'";
  if (auto *binary = dyn_cast<BinaryExpr>(&op))
    return "'" + binary->getOperatorSpelling().str() + "'";
  return "'" + cast<UnaryExpr>(op).getOperatorSpelling().str() + "'";
}

std::optional<DimId>
KernelChecker::lookupDimArgument(const CallExpr &call,
                                 const CallExpr::NameArgument &name) {
  std::optional<DimId> dim = kernel.lookupDim(name.first);
  // (The parser takes an identifier only, never `...`.)
  if (dim)
    return dim;
  std::string msg = "unknown dimension '" + name.first + "' in '" +
                    call.getCallee().str() + "'";
  llvm::SmallVector<llvm::StringRef> named;
  for (llvm::StringRef dimName : kernel.getDims())
    if (dimName != kBatchDimName)
      named.push_back(dimName);
  if (named.empty())
    msg += "; the kernel has no named dimension";
  else {
    std::string before = msg;
    suggestName(msg, name.first, named);
    if (msg == before)
      msg += "; the kernel's dimensions are " + llvm::join(named, ", ");
  }
  diags.error(name.second.Start, msg, name.second);
  return std::nullopt;
}

bool KernelChecker::resolveCall(CallExpr &call) {
  // A dtype name called like a function is a cast: `f16(x)`, and so is a
  // type parameter's: `T(x)`.
  std::optional<DType> castType = parseDTypeName(call.getCallee());
  if (std::optional<unsigned> typeParam =
          kernel.lookupTypeParam(call.getCallee()))
    castType = kernel.getBinding()[*typeParam];
  if (castType) {
    if (call.getNumArgs() != 1) {
      diags.error(call.getLoc(),
                  "'" + call.getCallee() + "' expects 1 argument, got " +
                      llvm::Twine(call.getNumArgs()),
                  call.getRange());
      return false;
    }
    call.resolveCast(*castType);
    return true;
  }
  std::optional<OpKind> op = lookupBuiltin(call.getCallee());
  if (!op) {
    // Only functions that take as many arguments as the call has: `sin(x)`
    // is not a misspelt `min(a, b)`, nor `nd(x)` a misspelt `and(a, b)`.
    std::string msg = "unknown function '" + call.getCallee().str() + "'";
    llvm::SmallVector<llvm::StringRef> candidates;
    for (llvm::StringRef name : getBuiltinNames())
      if (getNumArguments(*lookupBuiltin(name)) == call.getNumArgs())
        candidates.push_back(name);
    if (call.getNumArgs() == 1)
      for (DType dtype : getAllDTypes())
        candidates.push_back(getDTypeName(dtype));
    suggestName(msg, call.getCallee(), candidates);
    diags.error(call.getLoc(), msg, call.getCalleeRange());
    return false;
  }
  unsigned expected = getNumArguments(*op);
  bool reduce = getOpClass(*op) == OpClass::Reduce;
  if (reduce || getOpClass(*op) == OpClass::Scan) {
    // The parser took every argument after the first as a dimension name.
    if (call.getOperands().size() != 1 || call.getDimArguments().empty() ||
        (!reduce && call.getDimArguments().size() != 1)) {
      std::string callee = call.getCallee().str();
      std::string msg = "'" + callee + "' expects a value and " +
                        (reduce ? "the dimensions it reduces, as in '"
                                : "the dimension it runs along, as in '") +
                        callee + "(x, n)'";
      if (!reduce && call.getDimArguments().size() > 1)
        msg += "; a scan runs along one dimension";
      diags.error(call.getLoc(), msg, call.getRange());
      return false;
    }
    llvm::SmallVector<DimId, 2> dims;
    for (const CallExpr::NameArgument &name : call.getDimArguments()) {
      std::optional<DimId> dim = lookupDimArgument(call, name);
      if (!dim)
        return false;
      if (llvm::is_contained(dims, *dim)) {
        diags.error(name.second.Start,
                    "'" + call.getCallee().str() + "' names dimension '" +
                        name.first + "' twice",
                    name.second);
        return false;
      }
      dims.push_back(*dim);
    }
    call.resolveReduce(*op, dims);
    return true;
  }
  if (*op == OpKind::Bitcast) {
    // The parser took the argument after the value as a name.
    if (call.getOperands().size() != 1 || call.getDimArguments().size() != 1) {
      diags.error(call.getLoc(),
                  "'bitcast' expects a value and a type, as in "
                  "'bitcast(x, u32)'",
                  call.getRange());
      return false;
    }
    const CallExpr::NameArgument &name = call.getDimArguments()[0];
    std::optional<DType> type = parseDTypeName(name.first);
    if (std::optional<unsigned> typeParam = kernel.lookupTypeParam(name.first))
      type = kernel.getBinding()[*typeParam];
    if (!type) {
      std::string msg = "unknown type '" + name.first + "' in 'bitcast'";
      llvm::SmallVector<llvm::StringRef> types;
      for (DType dtype : getAllDTypes())
        types.push_back(getDTypeName(dtype));
      suggestName(msg, name.first, types);
      diags.error(name.second.Start, msg, name.second);
      return false;
    }
    call.resolveCast(*type, OpKind::Bitcast);
    return true;
  }
  if (call.getNumArgs() != expected) {
    std::string msg = "'" + call.getCallee().str() + "' expects " +
                      std::to_string(expected) +
                      (expected == 1 ? " argument" : " arguments") + ", got " +
                      std::to_string(call.getNumArgs());
    // max(x) and min(x) are what a reduction looks like in NumPy.
    if ((*op == OpKind::Max || *op == OpKind::Min) && call.getNumArgs() == 1)
      msg += "; '" + call.getCallee().str() + "' is the elementwise " +
             (*op == OpKind::Max ? "maximum" : "minimum") +
             " of two values; the " +
             (*op == OpKind::Max ? "maximum" : "minimum") +
             " over a dimension is '" + (*op == OpKind::Max ? "amax" : "amin") +
             "(x, n)'";
    diags.error(call.getLoc(), msg, call.getRange());
    return false;
  }
  CmpPredicate pred = CmpPredicate::Eq;
  if (*op == OpKind::Cmp) {
    std::optional<CmpPredicate> parsed =
        parsePredicateName(call.getNameArgument());
    if (!parsed) {
      std::string msg = "unknown comparison predicate '" +
                        call.getNameArgument().str() +
                        "'; expected eq, ne, lt, le, gt or ge";
      diags.error(call.getNameArgumentRange().Start, msg,
                  call.getNameArgumentRange());
      return false;
    }
    pred = *parsed;
  }
  if (*op == OpKind::IndexFlat) {
    std::optional<DimId> batch = kernel.lookupDim(kBatchDimName);
    if (!batch) {
      diags.error(call.getLoc(),
                  "'index_flat' is the position in the batch '...', and "
                  "kernel '" +
                      kernel.getName() +
                      "' has none; declare its tensors over '...' (as in "
                      "'f32[...]'), or write the position from named "
                      "dimensions, as in 'index(m) * size(n) + index(n)'",
                  call.getRange());
      return false;
    }
    call.resolveDim(*op, *batch);
    if (!firstIndexFlat)
      firstIndexFlat = &call;
    return true;
  }
  if (getOpClass(*op) == OpClass::Dim) {
    std::optional<DimId> dim = lookupDimArgument(
        call, {call.getNameArgument().str(), call.getNameArgumentRange()});
    if (!dim)
      return false;
    call.resolveDim(*op, *dim);
    return true;
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
  unsigned depth = 0, letChain = 0;
  bool operandsOk = true;
  for (const std::unique_ptr<Expr> &operand : op.getOperands()) {
    checked.push_back(checkExpr(*operand));
    operands.push_back(operand.get());
    operandsOk &= checked.back().ok();
    depth = std::max(depth, checked.back().depth);
    letChain = std::max(letChain, checked.back().letChain);
  }
  if (!resolved || !operandsOk)
    return Checked::error();
  ++depth;
  if (!checkDepth(op, depth))
    return Checked::error();

  Checked result;
  switch (getOpClass(op.getOp())) {
  case OpClass::Arith:
  case OpClass::Math:
  case OpClass::Bits:
    result = unify(op, operands, checked, "operands");
    // A division or a math function of literals can only be a float: `1 / 2`
    // is 0.5 and `exp(1)` is e.
    if (result.isWeak() &&
        (op.getOp() == OpKind::Div || getOpClass(op.getOp()) == OpClass::Math))
      result.state = Checked::State::WeakFloat;
    break;
  case OpClass::Logic:
    result = checkLogic(op, operands, checked);
    break;
  case OpClass::Cast:
    result = checkCast(op, *operands[0], checked[0]);
    break;
  case OpClass::Dim:
    result = checkDim(cast<CallExpr>(op));
    break;
  case OpClass::Random:
    result = checkRandom(op, operands, checked);
    break;
  case OpClass::Reduce:
  case OpClass::Scan:
    result = checkReduce(op, *operands[0], checked[0], depth);
    break;
  case OpClass::Classify: {
    // A literal operand takes its default type: isnan(1.5) is an f32's.
    Checked operand = checked[0];
    if (operand.isWeak()) {
      operand.dtype = getDefaultDType(operand);
      if (!resolveWeak(*operands[0], operand.dtype))
        return Checked::error();
    }
    ValueType type = operands[0]->getType();
    if (!checkOperandClass(op, type))
      return Checked::error();
    op.setOperandDType(type.dtype);
    op.setType({DType::Bool, type.shape});
    result = Checked::typed(op.getType(), depth);
    break;
  }
  case OpClass::Cmp: {
    Checked common = unify(op, operands, checked, "operands");
    if (!common.ok())
      return common;
    // Comparing two literals: they take their default type together.
    if (common.isWeak()) {
      common.dtype = getDefaultDType(common);
      for (Expr *operand : operands)
        if (!resolveWeak(*operand, common.dtype))
          return Checked::error();
    }
    CmpPredicate pred = op.getPredicate();
    if (common.dtype == DType::Bool && pred != CmpPredicate::Eq &&
        pred != CmpPredicate::Ne) {
      diags.error(op.getLoc(),
                  getDisplayName(op) +
                      " cannot order bool values; only eq and ne compare "
                      "bools",
                  {operands[0]->getRange(), operands[1]->getRange()});
      return Checked::error();
    }
    op.setOperandDType(common.dtype);
    result = Checked::typed({DType::Bool, common.shape}, depth);
    op.setType({DType::Bool, common.shape});
    break;
  }
  case OpClass::Where: {
    Expr &cond = *operands[0];
    if (checked[0].isWeak() && !resolveWeak(cond, getDefaultDType(checked[0])))
      return Checked::error();
    if (cond.getType().dtype != DType::Bool) {
      diags.error(cond.getLoc(),
                  "type mismatch: the condition of " + getDisplayName(op) +
                      " must be bool, got " + formatType(cond.getType()),
                  cond.getRange());
      return Checked::error();
    }
    result = unify(op, llvm::ArrayRef(operands).drop_front(),
                   llvm::ArrayRef(checked).drop_front(), "values");
    if (result.ok())
      result.shape = unionShapes(result.shape, checked[0].shape);
    break;
  }
  }
  if (!result.ok())
    return result;
  result.depth = depth;
  result.letChain = letChain;
  if (result.isWeak() || op.hasType())
    return result;
  op.setOperandDType(result.dtype);
  op.setType({result.dtype, result.shape});
  return result;
}

Checked KernelChecker::checkLogic(OpExpr &op, llvm::ArrayRef<Expr *> operands,
                                  llvm::ArrayRef<Checked> checked) {
  Shape shape;
  for (auto [operand, c] : llvm::zip(operands, checked)) {
    shape = unionShapes(shape, c.shape);
    // A literal cannot be bool; resolveWeak says so in the literal's words.
    if (c.isWeak()) {
      resolveWeak(*operand, DType::Bool);
      return Checked::error();
    }
    if (c.dtype != DType::Bool) {
      diags.error(op.getLoc(),
                  getDisplayName(op) + " needs bool operands, got " +
                      formatType(operand->getType()) +
                      "; compare it first, e.g. 'x != 0'",
                  operand->getRange());
      return Checked::error();
    }
  }
  return Checked::typed({DType::Bool, shape}, 1);
}

Checked KernelChecker::checkCast(OpExpr &op, Expr &operand,
                                 const Checked &checked) {
  DType target = op.getCastType();
  if (op.getOp() == OpKind::Bitcast) {
    // A literal takes its default type: bitcast(1.0, u32) is f32 1.0's bits.
    if (checked.isWeak() && !resolveWeak(operand, getDefaultDType(checked)))
      return Checked::error();
    DType from = operand.getType().dtype;
    if (from == DType::Bool || target == DType::Bool) {
      diags.error(op.getLoc(),
                  "'bitcast' cannot reinterpret bool, which has no bit "
                  "pattern; convert it with a cast, e.g. 'u8(...)'",
                  op.getRange());
      return Checked::error();
    }
    if (getDTypeSize(from) != getDTypeSize(target)) {
      diags.error(op.getLoc(),
                  "'bitcast' reinterprets bits as a type of the same width: " +
                      getDTypeName(from).str() + " has " +
                      std::to_string(getDTypeSize(from) * 8) + " bits, " +
                      getDTypeName(target).str() + " " +
                      std::to_string(getDTypeSize(target) * 8),
                  op.getRange());
      return Checked::error();
    }
    op.setOperandDType(from);
    op.setType({target, checked.shape});
    return Checked::typed(op.getType(), 1);
  }
  if (checked.isWeak()) {
    // A literal converts from the cast's own type when it can take it, so
    // that `f64(0.1)` is the double nearest 0.1, not a rounded f32.
    DType from = getDefaultDType(checked);
    if (target != DType::Bool &&
        (isFloat(target) || checked.state == Checked::State::WeakInt))
      from = target;
    if (!resolveWeak(operand, from))
      return Checked::error();
  }
  op.setOperandDType(operand.getType().dtype);
  op.setType({target, checked.shape});
  return Checked::typed(op.getType(), 1);
}

Checked KernelChecker::checkReduce(OpExpr &op, Expr &operand,
                                   const Checked &checked, unsigned depth) {
  if (!firstCombine)
    firstCombine = &op;
  // A literal operand takes its default type (it has no dimension to reduce
  // unless it is a where() of a tensor condition).
  if (checked.isWeak() && !resolveWeak(operand, getDefaultDType(checked)))
    return Checked::error();
  ValueType type = operand.getType();
  OpKind kind = op.getOp();
  std::string name = getDisplayName(op);
  bool logic = kind == OpKind::Any || kind == OpKind::All;
  if (logic && type.dtype != DType::Bool) {
    diags.error(op.getLoc(),
                name + " needs a bool value, got " + formatType(type) +
                    "; compare it first, e.g. '" +
                    (kind == OpKind::Any ? "any" : "all") + "(x != 0, n)'",
                operand.getRange());
    return Checked::error();
  }
  if (!logic && type.dtype == DType::Bool) {
    diags.error(
        op.getLoc(),
        name + " needs a number, got " + formatType(type) +
            (kind == OpKind::Sum ? "; count with 'sum(i64(b), n)'" : ""),
        operand.getRange());
    return Checked::error();
  }
  if (kind == OpKind::Mean && !isFloat(type.dtype)) {
    diags.error(op.getLoc(),
                name + " needs a float, got " + formatType(type) +
                    "; convert it first, e.g. 'mean(f32(x), n)'",
                operand.getRange());
    return Checked::error();
  }
  Shape shape = type.shape;
  for (auto [dim, written] :
       llvm::zip(op.getReducedDims(), cast<CallExpr>(op).getDimArguments())) {
    if (!llvm::is_contained(type.shape, dim)) {
      diags.error(written.second.Start,
                  name + " runs over dimension '" + written.first +
                      "', which its operand (" + formatType(type) +
                      ") does not have",
                  written.second);
      return Checked::error();
    }
    if (getOpClass(kind) == OpClass::Reduce)
      llvm::erase(shape, dim);
  }
  op.setOperandDType(type.dtype);
  op.setType({type.dtype, shape});
  return Checked::typed(op.getType(), depth);
}

Checked KernelChecker::checkDim(CallExpr &call) {
  // index(d) is a tensor over d, size(d) one value; both i64.
  Shape shape;
  if (call.getOp() == OpKind::Index || call.getOp() == OpKind::IndexFlat)
    shape.push_back(call.getDim());
  call.setOperandDType(DType::I64);
  call.setType({DType::I64, shape});
  return Checked::typed(call.getType(), 1);
}

Checked KernelChecker::checkRandom(OpExpr &op, llvm::ArrayRef<Expr *> operands,
                                   llvm::ArrayRef<Checked> checked) {
  // The seed and the offset do not unify: each keeps its own integer type,
  // which decides how it extends to the key and the counter (an i32 offset
  // has no high word; docs/language.md, "Random numbers"). An integer
  // literal is an i64.
  static constexpr llvm::StringLiteral kRoles[] = {"seed", "offset"};
  Shape shape;
  for (auto [index, operand, c] : llvm::enumerate(operands, checked)) {
    bool integer = c.state == Checked::State::WeakInt ||
                   (!c.isWeak() && isInteger(operand->getType().dtype));
    if (!integer) {
      std::string got = c.isWeak() ? std::string("a float literal")
                                   : formatType(operand->getType());
      diags.error(op.getLoc(),
                  "the " + kRoles[index].str() + " of " + getDisplayName(op) +
                      " must be an integer, got " + got +
                      (c.isWeak() ? std::string()
                                  : "; convert it first, e.g. 'i64(...)'"),
                  operand->getRange());
      return Checked::error();
    }
    if (c.isWeak() && !resolveWeak(*operand, DType::I64))
      return Checked::error();
    shape = unionShapes(shape, c.shape);
  }
  op.setOperandDType(operands[1]->getType().dtype);
  DType result = op.getOp() == OpKind::Randint ? DType::I32 : DType::F32;
  op.setType({result, shape});
  return Checked::typed(op.getType(), 1);
}

bool KernelChecker::checkOperandClass(const OpExpr &op, ValueType type) {
  OpClass opClass = getOpClass(op.getOp());
  if (type.dtype == DType::Bool && opClass == OpClass::Classify) {
    diags.error(op.getLoc(),
                getDisplayName(op) + " needs a number, got " + formatType(type),
                op.getRange());
    return false;
  }
  if (type.dtype == DType::Bool &&
      (opClass == OpClass::Arith || opClass == OpClass::Math)) {
    diags.error(op.getLoc(),
                "arithmetic on bool is not allowed: " + getDisplayName(op) +
                    " got an operand of type " + formatType(type),
                op.getRange());
    return false;
  }
  if (opClass == OpClass::Bits && !isInteger(type.dtype)) {
    // A bool's logic has operators of its own.
    llvm::StringRef logic;
    switch (op.getOp()) {
    case OpKind::BitAnd:
      logic = "&&";
      break;
    case OpKind::BitOr:
      logic = "||";
      break;
    case OpKind::BitNot:
      logic = "!";
      break;
    case OpKind::BitXor:
      logic = "!=";
      break;
    default:
      break;
    }
    std::string hint =
        type.dtype == DType::Bool
            ? (logic.empty() ? std::string("; shifts take integers")
                             : "; for logic on bool use '" + logic.str() + "'")
            : std::string("; convert it first, e.g. 'i32(...)'");
    diags.error(op.getLoc(),
                getDisplayName(op) + " needs integer operands, got " +
                    formatType(type) + hint,
                op.getRange());
    return false;
  }
  if (opClass == OpClass::Math && !isFloat(type.dtype)) {
    diags.error(op.getLoc(),
                getDisplayName(op) + " needs a floating-point operand, got " +
                    formatType(type) + "; convert it first, e.g. 'f32(...)'",
                op.getRange());
    return false;
  }
  return true;
}

Checked KernelChecker::unify(OpExpr &op, llvm::ArrayRef<Expr *> values,
                             llvm::ArrayRef<Checked> checked,
                             llvm::StringRef what) {
  // `anchor` has the type the other should have had (a tensor's, if any).
  auto mismatch = [&](const Expr &anchor, const Expr &other) {
    const Expr *a = &anchor, *b = &other;
    if (b->getRange().Start.getPointer() < a->getRange().Start.getPointer())
      std::swap(a, b);
    std::string msg = "type mismatch: the " + what.str() + " of " +
                      getDisplayName(op) + " are " + formatType(a->getType()) +
                      " and " + formatType(b->getType());
    DType to = anchor.getType().dtype;
    if (to != DType::Bool && other.getType().dtype != DType::Bool)
      msg +=
          "; convert with a cast, e.g. '" + getDTypeName(to).str() + "(...)'";
    diags.error(op.getLoc(), msg, {a->getRange(), b->getRange()});
    return Checked::error();
  };

  // Tensors must agree exactly on their element type: the type of a tensor
  // is its storage. Their dimensions combine by name.
  const Expr *firstTensor = nullptr;
  Shape shape;
  bool anyFloatLiteral = false;
  for (auto [value, c] : llvm::zip(values, checked)) {
    shape = unionShapes(shape, c.shape);
    anyFloatLiteral |= c.state == Checked::State::WeakFloat;
    if (c.isWeak() || !c.isTensor())
      continue;
    if (!firstTensor)
      firstTensor = value;
    else if (value->getType().dtype != firstTensor->getType().dtype)
      return mismatch(*firstTensor, *value);
  }
  // Scalars of the tensors' kind take their type; scalars alone promote.
  const Expr *first = firstTensor;
  std::optional<DType> dtype;
  if (firstTensor)
    dtype = firstTensor->getType().dtype;
  for (auto [value, c] : llvm::zip(values, checked)) {
    if (c.isWeak() || c.isTensor())
      continue;
    DType scalar = value->getType().dtype;
    if (!dtype) {
      dtype = scalar;
      first = value;
      continue;
    }
    if (getKind(scalar) != getKind(*dtype))
      return mismatch(*first, *value);
    if (firstTensor)
      continue;
    std::optional<DType> promoted = promoteScalars(*dtype, scalar);
    if (!promoted) {
      bool float8 = isFloat8(*dtype) || isFloat8(scalar);
      diags.error(op.getLoc(),
                  "no common type for the " + what.str() + " of " +
                      getDisplayName(op) + ", " + getDTypeName(*dtype).str() +
                      " and " + getDTypeName(scalar).str() +
                      (float8 ? " (torch promotes f8e4m3 and f8e5m2 with no "
                                "other type); convert one with a cast, e.g. "
                                "'f32(...)'"
                              : " (torch promotes u16, u32 and u64 with no "
                                "other integer type); convert one with a "
                                "cast, e.g. 'i64(...)'"),
                  {first->getRange(), value->getRange()});
      return Checked::error();
    }
    dtype = promoted;
  }
  if (!dtype)
    return Checked::weak(anyFloatLiteral ? Checked::State::WeakFloat
                                         : Checked::State::WeakInt,
                         shape);

  // Reporting `true + 1` as arithmetic on bool beats complaining that 1 is
  // not a bool.
  if (!checkOperandClass(op, {*dtype, shape}))
    return Checked::error();
  for (auto [value, c] : llvm::zip(values, checked))
    if (c.isWeak() && !resolveWeak(*value, *dtype))
      return Checked::error();
  return Checked::typed({*dtype, shape}, 1);
}

//===----------------------------------------------------------------------===//
// Weak types
//===----------------------------------------------------------------------===//

bool KernelChecker::checkLiteralFits(const NumberExpr &number, DType dtype,
                                     bool asStored) {
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
    // Literals are int64 values: u64's upper half is written as a cast or
    // with ~, e.g. ~u64(0).
    int64_t value = number.getIntValue();
    unsigned bits = getIntegerBitWidth(dtype);
    bool isUnsigned = isUnsignedInteger(dtype);
    int64_t min = isUnsigned   ? 0
                  : bits == 64 ? INT64_MIN
                               : -(int64_t(1) << (bits - 1));
    int64_t max = bits == 64
                      ? INT64_MAX
                      : (int64_t(1) << (bits - (isUnsigned ? 0 : 1))) - 1;
    if (value < min || value > max) {
      diags.error(number.getLoc(),
                  kind + " is out of range for " + getDTypeName(dtype).str() +
                      " (" + llvm::Twine(min).str() + " to " +
                      llvm::Twine(max).str() + ")",
                  number.getRange());
      return false;
    }
    return true;
  }
  if (number.isNonFinite())
    return true;
  // A value that rounds to infinity in its type is out of range (to NaN in
  // f8e4m3, which has no infinity); one that underflows to zero or a
  // subnormal is merely imprecise, as in C.
  DType rangeType = asStored ? dtype : getComputeDType(dtype);
  llvm::APFloat value = number.getValue(getFloatSemantics(rangeType));
  if (value.isInfinity() || value.isNaN()) {
    diags.error(number.getLoc(),
                kind + " is out of range for " + getDTypeName(rangeType).str(),
                number.getRange());
    return false;
  }
  return true;
}

bool KernelChecker::resolveWeak(Expr &expr, DType dtype) {
  if (expr.hasType())
    return true;
  if (auto *number = dyn_cast<NumberExpr>(&expr)) {
    if (!checkLiteralFits(*number, dtype, /*asStored=*/false))
      return false;
    number->setType({dtype, {}});
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
      info.checked.dtype = dtype;
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

  // Only arithmetic, math and `where` can be weak; the rest is typed.
  auto &op = cast<OpExpr>(expr);
  Shape shape;
  for (const std::unique_ptr<Expr> &operand : op.getOperands()) {
    if (!resolveWeak(*operand, dtype))
      return false;
    shape = unionShapes(shape, operand->getType().shape);
  }
  if (op.getOp() != OpKind::Where && !checkOperandClass(op, {dtype, shape}))
    return false;
  // The literals of a weak division are float literals in disguise: `1 / 2`
  // is 0.5, so it cannot become an integer division.
  if (op.getOp() == OpKind::Div && !isFloat(dtype)) {
    diags.error(op.getLoc(),
                "a division of literals is a float division, but it is used "
                "as " +
                    getDTypeName(dtype).str() +
                    " here; write the quotient or use an integer operand",
                op.getRange());
    return false;
  }
  op.setOperandDType(dtype);
  op.setType({dtype, shape});
  return true;
}
