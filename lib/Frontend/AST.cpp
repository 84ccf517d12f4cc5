//===- AST.cpp - Abstract syntax tree of the ew language ------------------===//
//
// The builtin and predicate tables, type formatting, and the small AST
// helpers (defaults, kernel and parameter lookup).
//
//===----------------------------------------------------------------------===//

#include "ewc/Frontend/AST.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <cmath>
#include <iterator>

using namespace ewc;

//===----------------------------------------------------------------------===//
// Types and builtins
//===----------------------------------------------------------------------===//

Shape ewc::unionShapes(llvm::ArrayRef<DimId> a, llvm::ArrayRef<DimId> b) {
  Shape result;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(),
                 std::back_inserter(result));
  return result;
}

bool ewc::isSubShape(llvm::ArrayRef<DimId> inner, llvm::ArrayRef<DimId> outer) {
  return std::includes(outer.begin(), outer.end(), inner.begin(), inner.end());
}

namespace {
/// One row per op: its builtin name (empty for ops spelled only as a cast),
/// class and number of value operands.
struct OpInfo {
  OpKind op;
  llvm::StringRef name;
  OpClass opClass;
  unsigned numOperands;
};
} // namespace

static constexpr OpInfo kOps[] = {
    {OpKind::Add, "add", OpClass::Arith, 2},
    {OpKind::Sub, "sub", OpClass::Arith, 2},
    {OpKind::Mul, "mul", OpClass::Arith, 2},
    {OpKind::Div, "div", OpClass::Arith, 2},
    {OpKind::Neg, "neg", OpClass::Arith, 1},
    {OpKind::Abs, "abs", OpClass::Arith, 1},
    {OpKind::Floor, "floor", OpClass::Arith, 1},
    {OpKind::Ceil, "ceil", OpClass::Arith, 1},
    {OpKind::Trunc, "trunc", OpClass::Arith, 1},
    {OpKind::Round, "round", OpClass::Arith, 1},
    {OpKind::Max, "max", OpClass::Arith, 2},
    {OpKind::Min, "min", OpClass::Arith, 2},
    {OpKind::Clamp, "clamp", OpClass::Arith, 3},
    {OpKind::Remainder, "remainder", OpClass::Arith, 2},
    {OpKind::Fmod, "fmod", OpClass::Arith, 2},
    {OpKind::Sign, "sign", OpClass::Arith, 1},
    {OpKind::BitAnd, "bitwise_and", OpClass::Bits, 2},
    {OpKind::BitOr, "bitwise_or", OpClass::Bits, 2},
    {OpKind::BitXor, "bitwise_xor", OpClass::Bits, 2},
    {OpKind::BitNot, "bitwise_not", OpClass::Bits, 1},
    {OpKind::Shl, "bitwise_left_shift", OpClass::Bits, 2},
    {OpKind::Shr, "bitwise_right_shift", OpClass::Bits, 2},
    {OpKind::Exp, "exp", OpClass::Math, 1},
    {OpKind::Log, "log", OpClass::Math, 1},
    {OpKind::Sqrt, "sqrt", OpClass::Math, 1},
    {OpKind::Rsqrt, "rsqrt", OpClass::Math, 1},
    {OpKind::Tanh, "tanh", OpClass::Math, 1},
    {OpKind::Sigmoid, "sigmoid", OpClass::Math, 1},
    {OpKind::Erf, "erf", OpClass::Math, 1},
    {OpKind::Erfc, "erfc", OpClass::Math, 1},
    {OpKind::Exp2, "exp2", OpClass::Math, 1},
    {OpKind::Expm1, "expm1", OpClass::Math, 1},
    {OpKind::Log2, "log2", OpClass::Math, 1},
    {OpKind::Log10, "log10", OpClass::Math, 1},
    {OpKind::Log1p, "log1p", OpClass::Math, 1},
    {OpKind::Sin, "sin", OpClass::Math, 1},
    {OpKind::Cos, "cos", OpClass::Math, 1},
    {OpKind::Tan, "tan", OpClass::Math, 1},
    {OpKind::Asin, "asin", OpClass::Math, 1},
    {OpKind::Acos, "acos", OpClass::Math, 1},
    {OpKind::Atan, "atan", OpClass::Math, 1},
    {OpKind::Sinh, "sinh", OpClass::Math, 1},
    {OpKind::Cosh, "cosh", OpClass::Math, 1},
    {OpKind::Asinh, "asinh", OpClass::Math, 1},
    {OpKind::Acosh, "acosh", OpClass::Math, 1},
    {OpKind::Atanh, "atanh", OpClass::Math, 1},
    {OpKind::Atan2, "atan2", OpClass::Math, 2},
    {OpKind::Pow, "pow", OpClass::Math, 2},
    {OpKind::Fma, "fma", OpClass::Math, 3},
    {OpKind::IsNan, "isnan", OpClass::Classify, 1},
    {OpKind::IsInf, "isinf", OpClass::Classify, 1},
    {OpKind::IsFinite, "isfinite", OpClass::Classify, 1},
    {OpKind::And, "and", OpClass::Logic, 2},
    {OpKind::Or, "or", OpClass::Logic, 2},
    {OpKind::Not, "not", OpClass::Logic, 1},
    {OpKind::Cmp, "cmp", OpClass::Cmp, 2},
    {OpKind::Where, "where", OpClass::Where, 3},
    {OpKind::Index, "index", OpClass::Dim, 0},
    {OpKind::Size, "size", OpClass::Dim, 0},
    {OpKind::IndexFlat, "index_flat", OpClass::Dim, 0},
    {OpKind::Cast, "", OpClass::Cast, 1},
    {OpKind::Bitcast, "bitcast", OpClass::Cast, 1},
    {OpKind::Rand, "rand", OpClass::Random, 2},
    {OpKind::Randn, "randn", OpClass::Random, 2},
    {OpKind::Randint, "randint", OpClass::Random, 2},
    {OpKind::Sum, "sum", OpClass::Reduce, 1},
    {OpKind::Mean, "mean", OpClass::Reduce, 1},
    {OpKind::Amax, "amax", OpClass::Reduce, 1},
    {OpKind::Amin, "amin", OpClass::Reduce, 1},
    {OpKind::Any, "any", OpClass::Reduce, 1},
    {OpKind::All, "all", OpClass::Reduce, 1},
    {OpKind::Cumsum, "cumsum", OpClass::Scan, 1},
    {OpKind::Cummax, "cummax", OpClass::Scan, 1},
    {OpKind::Cummin, "cummin", OpClass::Scan, 1},
};

static const OpInfo &getOpInfo(OpKind op) {
  const OpInfo &info = kOps[static_cast<unsigned>(op)];
  assert(info.op == op && "kOps is not in OpKind order");
  return info;
}

llvm::StringRef ewc::getOpName(OpKind op) {
  return op == OpKind::Cast ? "cast" : getOpInfo(op).name;
}

OpClass ewc::getOpClass(OpKind op) { return getOpInfo(op).opClass; }

unsigned ewc::getNumValueOperands(OpKind op) {
  return getOpInfo(op).numOperands;
}

std::optional<OpKind> ewc::lookupBuiltin(llvm::StringRef name) {
  for (const OpInfo &info : kOps)
    if (!info.name.empty() && info.name == name)
      return info.op;
  return std::nullopt;
}

llvm::ArrayRef<llvm::StringRef> ewc::getBuiltinNames() {
  static const std::vector<llvm::StringRef> names = [] {
    std::vector<llvm::StringRef> result;
    for (const OpInfo &info : kOps)
      if (!info.name.empty())
        result.push_back(info.name);
    return result;
  }();
  return names;
}

llvm::StringRef ewc::getPredicateName(CmpPredicate pred) {
  switch (pred) {
  case CmpPredicate::Eq:
    return "eq";
  case CmpPredicate::Ne:
    return "ne";
  case CmpPredicate::Lt:
    return "lt";
  case CmpPredicate::Le:
    return "le";
  case CmpPredicate::Gt:
    return "gt";
  case CmpPredicate::Ge:
    return "ge";
  }
  llvm_unreachable("unknown CmpPredicate");
}

llvm::StringRef ewc::getPredicateSymbol(CmpPredicate pred) {
  switch (pred) {
  case CmpPredicate::Eq:
    return "==";
  case CmpPredicate::Ne:
    return "!=";
  case CmpPredicate::Lt:
    return "<";
  case CmpPredicate::Le:
    return "<=";
  case CmpPredicate::Gt:
    return ">";
  case CmpPredicate::Ge:
    return ">=";
  }
  llvm_unreachable("unknown CmpPredicate");
}

std::optional<CmpPredicate> ewc::parsePredicateName(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<CmpPredicate>>(name)
      .Case("eq", CmpPredicate::Eq)
      .Case("ne", CmpPredicate::Ne)
      .Case("lt", CmpPredicate::Lt)
      .Case("le", CmpPredicate::Le)
      .Case("gt", CmpPredicate::Gt)
      .Case("ge", CmpPredicate::Ge)
      .Default(std::nullopt);
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

unsigned OpExpr::computeDepth(llvm::ArrayRef<std::unique_ptr<Expr>> operands) {
  unsigned depth = 0;
  for (const std::unique_ptr<Expr> &operand : operands)
    depth = std::max(depth, operand->getDepth());
  return depth + 1;
}

std::vector<std::unique_ptr<Expr>>
UnaryExpr::makeOperands(std::unique_ptr<Expr> operand) {
  std::vector<std::unique_ptr<Expr>> operands;
  operands.push_back(std::move(operand));
  return operands;
}

std::vector<std::unique_ptr<Expr>>
BinaryExpr::makeOperands(std::unique_ptr<Expr> lhs, std::unique_ptr<Expr> rhs) {
  std::vector<std::unique_ptr<Expr>> operands;
  operands.push_back(std::move(lhs));
  operands.push_back(std::move(rhs));
  return operands;
}

llvm::StringRef BinaryExpr::getOperatorSpelling() const {
  switch (getOp()) {
  case OpKind::Add:
    return "+";
  case OpKind::Sub:
    return "-";
  case OpKind::Mul:
    return "*";
  case OpKind::Div:
    return "/";
  case OpKind::Remainder:
    return "%";
  case OpKind::BitAnd:
    return "&";
  case OpKind::BitOr:
    return "|";
  case OpKind::BitXor:
    return "^";
  case OpKind::Shl:
    return "<<";
  case OpKind::Shr:
    return ">>";
  case OpKind::And:
    return "&&";
  case OpKind::Or:
    return "||";
  case OpKind::Cmp:
    return getPredicateSymbol(getPredicate());
  default:
    break;
  }
  llvm_unreachable("not a binary operator");
}

llvm::APFloat NumberExpr::getValue(const llvm::fltSemantics &semantics) const {
  bool negative = spelling.front() == '-';
  if (std::isinf(floatValue))
    return llvm::APFloat::getInf(semantics, negative);
  if (std::isnan(floatValue))
    return llvm::APFloat::getQNaN(semantics, negative);
  llvm::APFloat value(semantics);
  if (!floatLiteral) {
    value.convertFromAPInt(llvm::APInt(64, intValue, /*isSigned=*/true),
                           /*IsSigned=*/true,
                           llvm::APFloat::rmNearestTiesToEven);
    return value;
  }
  // The parser has checked the spelling (with the same call, in double).
  auto status =
      value.convertFromString(spelling, llvm::APFloat::rmNearestTiesToEven);
  if (!status)
    llvm::consumeError(status.takeError());
  return value;
}

//===----------------------------------------------------------------------===//
// Kernels and modules
//===----------------------------------------------------------------------===//

std::optional<double> ParamDecl::getDefaultAsDouble() const {
  if (!defaultValue)
    return std::nullopt;
  if (auto *b = llvm::dyn_cast<BoolExpr>(defaultValue.get()))
    return b->getValue() ? 1.0 : 0.0;
  auto *number = llvm::cast<NumberExpr>(defaultValue.get());
  if (!isFloat(getDType()))
    return number->isFloatLiteral()
               ? number->getValue(llvm::APFloat::IEEEdouble()).convertToDouble()
               : static_cast<double>(number->getIntValue());
  // Rounded once to the parameter's type, then widened exactly.
  llvm::APFloat value = number->getValue(getFloatSemantics(getDType()));
  bool losesInfo;
  value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value.convertToDouble();
}

std::optional<int64_t> ParamDecl::getDefaultAsInt() const {
  if (!defaultValue)
    return std::nullopt;
  if (auto *b = llvm::dyn_cast<BoolExpr>(defaultValue.get()))
    return b->getValue() ? 1 : 0;
  auto *number = llvm::cast<NumberExpr>(defaultValue.get());
  if (!number->isFloatLiteral())
    return number->getIntValue();
  // Sema only accepts float literals for float parameters, so this is a
  // convenience; keep it defined for NaN and out-of-range values anyway.
  double value = std::trunc(
      number->getValue(llvm::APFloat::IEEEdouble()).convertToDouble());
  if (!(value >= -9223372036854775808.0))
    return INT64_MIN;
  if (value >= 9223372036854775808.0)
    return INT64_MAX;
  return static_cast<int64_t>(value);
}

std::optional<DimId> KernelDecl::lookupDim(llvm::StringRef dimName) const {
  for (auto [id, name] : llvm::enumerate(dims))
    if (name == dimName)
      return static_cast<DimId>(id);
  return std::nullopt;
}

/// `dtype[d0, d1, ...]` for the dimensions `ids`, or `dtype` for none.
static std::string formatDims(DType dtype, llvm::ArrayRef<DimId> ids,
                              llvm::ArrayRef<std::string> dims) {
  std::string result = getDTypeName(dtype).str();
  if (ids.empty())
    return result;
  result += "[";
  for (auto [i, id] : llvm::enumerate(ids))
    result += (i ? ", " : "") + (id < dims.size() ? dims[id] : "?");
  return result + "]";
}

std::string KernelDecl::formatType(const ValueType &type) const {
  return formatDims(type.dtype, type.shape, dims);
}

std::string KernelDecl::formatType(const TypeSpec &type) const {
  // A template's type parameter by its name; a specialization's by the
  // type it binds, which is what its messages are about.
  std::string element = type.typeParam && !isBound()
                            ? typeParams[*type.typeParam].name
                            : getDTypeName(type.dtype).str();
  if (!type.isTensor)
    return element;
  // As written, whether or not sema has numbered the dimensions.
  std::string result = element + "[";
  if (type.hasBatch)
    result += kBatchDimName;
  for (auto [i, dim] : llvm::enumerate(type.dims))
    result += (i || type.hasBatch ? ", " : "") + dim.name;
  return result + "]";
}

const ParamDecl *KernelDecl::lookupParam(llvm::StringRef paramName) const {
  for (const std::unique_ptr<ParamDecl> &param : params)
    if (param->getName() == paramName)
      return param.get();
  return nullptr;
}

const ReturnStmt &KernelDecl::getReturn() const {
  assert(!body.empty() && "kernel without a return");
  return *llvm::cast<ReturnStmt>(body.back().get());
}

ReturnStmt &KernelDecl::getReturn() {
  assert(!body.empty() && "kernel without a return");
  return *llvm::cast<ReturnStmt>(body.back().get());
}

const KernelDecl *ModuleDecl::lookupKernel(llvm::StringRef name) const {
  for (const std::unique_ptr<KernelDecl> &kernel : kernels)
    if (kernel->getName() == name)
      return kernel.get();
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Type parameters
//===----------------------------------------------------------------------===//

llvm::StringRef ewc::getConstraintName(TypeConstraint constraint) {
  switch (constraint) {
  case TypeConstraint::Float:
    return "float";
  case TypeConstraint::Int:
    return "int";
  case TypeConstraint::Any:
    return "any";
  }
  llvm_unreachable("unknown type constraint");
}

std::optional<TypeConstraint> ewc::parseConstraintName(llvm::StringRef name) {
  for (TypeConstraint constraint :
       {TypeConstraint::Float, TypeConstraint::Int, TypeConstraint::Any})
    if (name == getConstraintName(constraint))
      return constraint;
  return std::nullopt;
}

llvm::ArrayRef<DType> ewc::getAdmittedDTypes(TypeConstraint constraint) {
  // The lists (docs/language.md, "Generic kernels"): the float
  // types, the two integer types a kernel computes indices and counts in,
  // and both. 8-bit and unsigned types are storage types; a kernel that
  // wants one names it.
  static constexpr DType kAny[] = {DType::F16, DType::BF16, DType::F32,
                                   DType::F64, DType::I32,  DType::I64};
  llvm::ArrayRef<DType> any(kAny);
  switch (constraint) {
  case TypeConstraint::Float:
    return any.take_front(4);
  case TypeConstraint::Int:
    return any.drop_front(4);
  case TypeConstraint::Any:
    return any;
  }
  llvm_unreachable("unknown type constraint");
}

std::optional<unsigned>
KernelDecl::lookupTypeParam(llvm::StringRef typeName) const {
  for (auto [index, param] : llvm::enumerate(typeParams))
    if (param.name == typeName)
      return index;
  return std::nullopt;
}

TypeBinding KernelDecl::getTypeBinding() const {
  TypeBinding result;
  for (auto [param, dtype] : llvm::zip(typeParams, binding))
    result[param.name] = dtype;
  return result;
}

std::string KernelDecl::getDisplayName() const {
  if (!isGeneric())
    return name;
  std::string result = name + "<";
  for (auto [index, param] : llvm::enumerate(typeParams)) {
    result += (index ? ", " : "") + param.name;
    result += bound ? "=" + getDTypeName(binding[index]).str()
                    : ": " + getConstraintName(param.constraint).str();
  }
  return result + ">";
}
