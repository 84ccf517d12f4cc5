//===- AST.h - Abstract syntax tree of the ew language ----------*- C++ -*-===//
//
// The AST built by the parser and annotated by sema (resolved names, resolved
// builtins, value types). Like the Toy tutorial, it uses LLVM-style RTTI
// (`classof`, `llvm::isa/dyn_cast`) and knows nothing of MLIR: MLIRGen and the
// reference evaluator both read it, independently of each other.
//
// Every node keeps the source range it was parsed from. The SMLocs point into
// the buffer owned by the SourceMgr given to the parser, so that SourceMgr must
// outlive the Module.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_FRONTEND_AST_H
#define EWC_FRONTEND_AST_H

#include "ewc/Frontend/DType.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cassert>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace ewc {

class LetStmt;
class ParamDecl;

/// The deepest expression the front end accepts, counting each op (through
/// the `let`s it names) and each parenthesis while parsing. Parser,
/// sema, MLIRGen and the evaluator all recurse on expressions; the bound keeps
/// every input, however hostile, off the end of the stack, and is far above
/// anything a real kernel needs.
constexpr unsigned kMaxExprDepth = 256;

/// The longest chain of `let`s an expression may reach through (a name whose
/// `let` names another, and so on). A name is no level of kMaxExprDepth, so
/// an expression spelled through `let`s is exactly as deep as written inline;
/// but MLIRGen and the evaluator go from a name to its `let` by recursion,
/// so the chain has a bound of its own.
constexpr unsigned kMaxLetChain = 1024;

//===----------------------------------------------------------------------===//
// Types and builtins
//===----------------------------------------------------------------------===//

/// The id of a dimension of a kernel: its position in Kernel::getDims().
using DimId = unsigned;

/// How a kernel's dimension table names the leading dimensions `...`: any
/// number of them (none included), the same for every tensor that writes it.
/// To the rest of the language they are one dimension, the batch.
constexpr llvm::StringLiteral kBatchDimName = "...";

/// The dimensions a value ranges over, as ids of its kernel's dimensions in
/// increasing order (the kernel's order), empty for a scalar. Values combine
/// by dimension name, so the order of an intermediate's dimensions is not
/// observable; a declared type keeps its own order (TypeSpec::dimIds).
using Shape = llvm::SmallVector<DimId, 4>;

/// The type of a value: an element type and the dimensions it ranges over
/// (none: a scalar, one value for every element).
struct ValueType {
  DType dtype = DType::F32;
  Shape shape;

  bool isTensor() const { return !shape.empty(); }
  bool operator==(const ValueType &other) const {
    return dtype == other.dtype && shape == other.shape;
  }
  bool operator!=(const ValueType &other) const { return !(*this == other); }
};

/// The union of two shapes (each in increasing order), in increasing order:
/// the shape of an operation on values of those shapes.
Shape unionShapes(llvm::ArrayRef<DimId> a, llvm::ArrayRef<DimId> b);

/// True when every dimension of `inner` is one of `outer`.
bool isSubShape(llvm::ArrayRef<DimId> inner, llvm::ArrayRef<DimId> outer);

/// The elementwise operations. Infix operators and builtin calls map onto the
/// same kinds, which is what lets both spellings give identical IR.
enum class OpKind {
  // Arithmetic on integers and floats.
  Add,
  Sub,
  Mul,
  Div,
  Neg,
  Abs,
  // Rounding to an integral value (floats; integers pass through).
  Floor,
  Ceil,
  Trunc,
  Round,
  Max,
  Min,
  Clamp,
  // Remainders: `%` (sign of the divisor) and fmod (sign of the dividend).
  Remainder,
  Fmod,
  // -1, 0 or +1 (floats keep a zero's sign and NaN).
  Sign,
  // Bitwise operations on integers.
  BitAnd,
  BitOr,
  BitXor,
  BitNot,
  Shl,
  Shr,
  // Math functions, floats only.
  Exp,
  Log,
  Sqrt,
  Rsqrt,
  Tanh,
  Sigmoid,
  Erf,
  Erfc,
  Exp2,
  Expm1,
  Log2,
  Log10,
  Log1p,
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Atan,
  Sinh,
  Cosh,
  Asinh,
  Acosh,
  Atanh,
  // Math functions of two floats.
  Atan2,
  Pow,
  // a * b + c rounded once.
  Fma,
  // Classification of numbers: bool results.
  IsNan,
  IsInf,
  IsFinite,
  // Logic on bool.
  And,
  Or,
  Not,
  // Comparison, selection and conversion.
  Cmp,
  Where,
  // The position and the extent of an element along a dimension.
  Index,
  Size,
  // The row-major position of an element in the batch `...`.
  IndexFlat,
  Cast,
  /// `bitcast(x, u32)`: x's bits read as another type of its width.
  Bitcast,
  // Counter-based random numbers of a seed and an offset (Triton's tl.rand,
  // tl.randn, tl.randint): f32, f32 and i32.
  Rand,
  Randn,
  Randint,
  // Reductions over named dimensions, which they remove from the shape.
  Sum,
  Mean,
  Amax,
  Amin,
  Any,
  All,
  // Inclusive scans along one named dimension, which they keep.
  Cumsum,
  Cummax,
  Cummin,
};

/// What an op accepts as operands, which is also how sema types it.
enum class OpClass {
  Arith,    ///< integers and floats; the result has the operands' type
  Math,     ///< floats only
  Logic,    ///< bool only
  Cmp,      ///< any type (bool: eq and ne only); the result is bool
  Where,    ///< bool condition, then two values of one type
  Dim,      ///< no value operand, a dimension name: `index(n)`, `size(n)`;
            ///< or none: `index_flat()`
  Cast,     ///< any type to the cast's type
  Classify, ///< integers and floats; the result is bool
  Bits,     ///< integers only; the result has the operands' type
  Reduce,   ///< a value, then the dimensions it removes: `sum(x, n)`
  Scan,     ///< a value, then the dimension it runs along: `cumsum(x, n)`
  Random,   ///< an integer seed and an integer offset: `rand(seed, i)`
};

/// Returns the class of an op.
OpClass getOpClass(OpKind op);

/// The predicates of `cmp`, in the order of the language reference.
enum class CmpPredicate { Eq, Ne, Lt, Le, Gt, Ge };

/// Returns the builtin function name of an op ("add", ..., "where").
llvm::StringRef getOpName(OpKind op);

/// Returns the number of value operands of an op (the predicate of `cmp` and
/// the dimension of `index` and `size` are not values).
unsigned getNumValueOperands(OpKind op);

/// Looks a builtin function up by name; std::nullopt if there is none. The
/// casts (`f32(x)`, ...) are not in this table: their names are dtype names.
std::optional<OpKind> lookupBuiltin(llvm::StringRef name);

/// The names of all builtin functions, for "did you mean" suggestions.
llvm::ArrayRef<llvm::StringRef> getBuiltinNames();

/// Returns the spelling of a predicate as written in `cmp(ge, ...)`.
llvm::StringRef getPredicateName(CmpPredicate pred);

/// Returns the infix spelling of a predicate (">=").
llvm::StringRef getPredicateSymbol(CmpPredicate pred);

/// Parses a predicate name; std::nullopt if `name` is not one.
std::optional<CmpPredicate> parsePredicateName(llvm::StringRef name);

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// Base class of all expressions.
class Expr {
public:
  enum ExprKind {
    Expr_Number,
    Expr_Bool,
    Expr_Name,
    // Kinds that apply an elementwise op (OpExpr); keep them together.
    Expr_Unary,
    Expr_Binary,
    Expr_Call,
  };

  virtual ~Expr() = default;

  ExprKind getKind() const { return kind; }
  /// The whole text of the expression.
  llvm::SMRange getRange() const { return range; }
  /// Where a message about this expression points: the operator of a unary
  /// or binary expression, the callee of a call, else the start.
  llvm::SMLoc getLoc() const { return loc; }
  /// The height of the syntax tree below and including this node; the parser
  /// bounds it so that the recursive passes cannot overflow the stack.
  unsigned getDepth() const { return depth; }

  /// True once sema has given the expression its type.
  bool hasType() const { return typed; }
  ValueType getType() const {
    assert(typed && "expression has not been type checked");
    return type;
  }
  void setType(ValueType newType) {
    type = newType;
    typed = true;
  }

protected:
  Expr(ExprKind kind, llvm::SMRange range, llvm::SMLoc loc, unsigned depth)
      : kind(kind), range(range), loc(loc), depth(depth) {}

private:
  const ExprKind kind;
  llvm::SMRange range;
  llvm::SMLoc loc;
  unsigned depth;
  ValueType type;
  bool typed = false;
};

/// A number literal, `3`, `0.5`, `1e-3`, `2.`, with a leading `-` folded in.
/// Literals are weakly typed: sema gives each one the element type of its
/// context.
class NumberExpr : public Expr {
public:
  /// An integer literal.
  NumberExpr(llvm::SMRange range, std::string spelling, int64_t value)
      : Expr(Expr_Number, range, range.Start, 1), spelling(std::move(spelling)),
        floatLiteral(false), intValue(value),
        floatValue(static_cast<double>(value)) {}
  /// A float literal; `value` is the spelling rounded to double, which only
  /// tells a finite literal from `inf` and `nan` (getValue rounds the
  /// spelling itself).
  NumberExpr(llvm::SMRange range, std::string spelling, double value)
      : Expr(Expr_Number, range, range.Start, 1), spelling(std::move(spelling)),
        floatLiteral(true), intValue(0), floatValue(value) {}

  llvm::StringRef getSpelling() const { return spelling; }
  /// True for `inf`, `-inf` and `nan`: they are exempt from the range check.
  bool isNonFinite() const {
    return floatLiteral && !std::isfinite(floatValue);
  }
  /// True for `0.5`, `1e3`, `2.`: such a literal needs a floating-point type.
  bool isFloatLiteral() const { return floatLiteral; }
  /// The value of an integer literal.
  int64_t getIntValue() const {
    assert(!floatLiteral && "not an integer literal");
    return intValue;
  }
  /// The value in the float format `semantics`, rounded once, to nearest
  /// even: a float literal from its decimal spelling, an integer literal
  /// from the integer. Never through a double: next to a tie of f32, the
  /// nearest double can be the tie itself (18.671551704406738281250000000001
  /// is 10^-30 above one), and rounding that again picks the wrong neighbour.
  llvm::APFloat getValue(const llvm::fltSemantics &semantics) const;

  static bool classof(const Expr *e) { return e->getKind() == Expr_Number; }

private:
  std::string spelling;
  bool floatLiteral;
  int64_t intValue;
  double floatValue;
};

/// `true` or `false`.
class BoolExpr : public Expr {
public:
  BoolExpr(llvm::SMRange range, bool value)
      : Expr(Expr_Bool, range, range.Start, 1), value(value) {}

  bool getValue() const { return value; }

  static bool classof(const Expr *e) { return e->getKind() == Expr_Bool; }

private:
  bool value;
};

/// A reference to a parameter or a `let`.
class NameExpr : public Expr {
public:
  NameExpr(llvm::SMRange range, std::string name)
      : Expr(Expr_Name, range, range.Start, 1), name(std::move(name)) {}

  llvm::StringRef getName() const { return name; }

  /// The parameter named, or null (set by sema).
  const ParamDecl *getParam() const { return param; }
  /// The `let` named, or null (set by sema).
  const LetStmt *getLet() const { return let; }
  void resolve(const ParamDecl *p) { param = p; }
  void resolve(const LetStmt *l) { let = l; }

  static bool classof(const Expr *e) { return e->getKind() == Expr_Name; }

private:
  std::string name;
  const ParamDecl *param = nullptr;
  const LetStmt *let = nullptr;
};

/// Base class of the expressions that apply an elementwise op to value
/// operands, whatever the spelling (`-a`, `a * b`, `mul(a, b)`). MLIRGen and
/// the evaluator only look at this view.
class OpExpr : public Expr {
public:
  /// False only for a call sema could not resolve.
  bool isResolved() const { return resolved; }
  OpKind getOp() const {
    assert(resolved && "call has not been resolved");
    return op;
  }
  /// The predicate of a comparison.
  CmpPredicate getPredicate() const {
    assert(resolved && op == OpKind::Cmp && "not a comparison");
    return pred;
  }
  /// The target type of a cast or a bitcast.
  DType getCastType() const {
    assert(resolved && getOpClass(op) == OpClass::Cast && "not a cast");
    return castType;
  }
  /// The dimension of `index(d)` and `size(d)`.
  DimId getDim() const {
    assert(resolved && getOpClass(op) == OpClass::Dim && "not index or size");
    return dim;
  }
  /// True for the reductions and the scans.
  bool isReduceOrScan() const {
    return resolved && (getOpClass(op) == OpClass::Reduce ||
                        getOpClass(op) == OpClass::Scan);
  }
  /// The dimensions a reduction removes, or the one a scan runs along, in
  /// the order written (set by sema).
  llvm::ArrayRef<DimId> getReducedDims() const {
    assert(isReduceOrScan() && "not a reduction or a scan");
    return reducedDims;
  }
  /// The element type the value operands are converted to before the op
  /// computes (set by sema): the operands' common type, which for mixed
  /// precision is the tensor's (`slope * x` with `slope: f32`, `x: bf16[n]`
  /// computes on bf16 values, in f32). For `where` it is the type of the two
  /// values; for a cast the operand's own type.
  DType getOperandDType() const { return operandDType; }
  void setOperandDType(DType dtype) { operandDType = dtype; }

  /// The value operands, in order (for `where`: condition, then, else).
  llvm::ArrayRef<std::unique_ptr<Expr>> getOperands() const { return operands; }
  const Expr &getOperand(unsigned i) const { return *operands[i]; }
  Expr &getOperand(unsigned i) { return *operands[i]; }

  static bool classof(const Expr *e) {
    return e->getKind() >= Expr_Unary && e->getKind() <= Expr_Call;
  }

protected:
  OpExpr(ExprKind kind, llvm::SMRange range, llvm::SMLoc loc,
         std::vector<std::unique_ptr<Expr>> operands)
      : Expr(kind, range, loc, computeDepth(operands)),
        operands(std::move(operands)) {}

  void setOp(OpKind newOp, CmpPredicate newPred, DType newCastType = DType::F32,
             DimId newDim = 0) {
    op = newOp;
    pred = newPred;
    castType = newCastType;
    dim = newDim;
    resolved = true;
  }

private:
  static unsigned computeDepth(llvm::ArrayRef<std::unique_ptr<Expr>> operands);

  std::vector<std::unique_ptr<Expr>> operands;
  OpKind op = OpKind::Add;
  CmpPredicate pred = CmpPredicate::Eq;
  DType castType = DType::F32;
  DType operandDType = DType::F32;
  DimId dim = 0;
  llvm::SmallVector<DimId, 2> reducedDims;
  bool resolved = false;

protected:
  void setReducedDims(llvm::ArrayRef<DimId> dims) {
    reducedDims.assign(dims.begin(), dims.end());
  }
};

/// `-operand` (neg), `!operand` (not) or `~operand` (bitwise_not).
class UnaryExpr : public OpExpr {
public:
  UnaryExpr(llvm::SMRange range, llvm::SMLoc opLoc, OpKind op,
            std::unique_ptr<Expr> operand)
      : OpExpr(Expr_Unary, range, opLoc, makeOperands(std::move(operand))) {
    assert((op == OpKind::Neg || op == OpKind::Not || op == OpKind::BitNot) &&
           "not a prefix op");
    setOp(op, CmpPredicate::Eq);
  }

  /// The operator as written ("-", "!" or "~").
  llvm::StringRef getOperatorSpelling() const {
    return getOp() == OpKind::Neg ? "-" : getOp() == OpKind::Not ? "!" : "~";
  }

  static bool classof(const Expr *e) { return e->getKind() == Expr_Unary; }

private:
  static std::vector<std::unique_ptr<Expr>>
  makeOperands(std::unique_ptr<Expr> operand);
};

/// `lhs OP rhs` for `+ - * /`, the six comparisons, `&&` and `||`.
class BinaryExpr : public OpExpr {
public:
  BinaryExpr(llvm::SMRange range, llvm::SMLoc opLoc, OpKind op,
             CmpPredicate pred, std::unique_ptr<Expr> lhs,
             std::unique_ptr<Expr> rhs)
      : OpExpr(Expr_Binary, range, opLoc,
               makeOperands(std::move(lhs), std::move(rhs))) {
    setOp(op, pred);
  }

  /// The operator as written ("+", ">=").
  llvm::StringRef getOperatorSpelling() const;
  const Expr &getLHS() const { return getOperand(0); }
  const Expr &getRHS() const { return getOperand(1); }

  static bool classof(const Expr *e) { return e->getKind() == Expr_Binary; }

private:
  static std::vector<std::unique_ptr<Expr>>
  makeOperands(std::unique_ptr<Expr> lhs, std::unique_ptr<Expr> rhs);
};

/// `callee(args)`. The parser keeps the arguments that are names apart: the
/// predicate of `cmp(ge, a, b)`, the dimension of `index(n)` and `size(n)`
/// (first), the dimensions of `sum(x, n)` and `cumsum(x, n)` (after the
/// value); so the operands are always values. Sema resolves the callee to a
/// builtin and checks the names.
class CallExpr : public OpExpr {
public:
  using NameArgument = std::pair<std::string, llvm::SMRange>;

  CallExpr(llvm::SMRange range, llvm::SMRange calleeRange, std::string callee,
           std::optional<NameArgument> nameArgument,
           std::vector<std::unique_ptr<Expr>> args,
           std::vector<NameArgument> dimArguments = {})
      : OpExpr(Expr_Call, range, calleeRange.Start, std::move(args)),
        callee(std::move(callee)), calleeRange(calleeRange),
        nameArgument(std::move(nameArgument)),
        dimArguments(std::move(dimArguments)) {}

  llvm::StringRef getCallee() const { return callee; }
  llvm::SMRange getCalleeRange() const { return calleeRange; }
  /// The name written as the first argument (cmp's predicate, the dimension
  /// of index and size), if any.
  bool hasNameArgument() const { return nameArgument.has_value(); }
  llvm::StringRef getNameArgument() const { return nameArgument->first; }
  llvm::SMRange getNameArgumentRange() const { return nameArgument->second; }
  /// The dimension names written after the value of a reduction or a scan.
  llvm::ArrayRef<NameArgument> getDimArguments() const { return dimArguments; }
  /// The number of arguments as written, the names included.
  unsigned getNumArgs() const {
    return getOperands().size() + (nameArgument ? 1 : 0) + dimArguments.size();
  }

  /// Called by sema once the callee and predicate are known to be valid.
  void resolve(OpKind op, CmpPredicate pred = CmpPredicate::Eq) {
    setOp(op, pred);
  }
  /// Called by sema for a cast, `f16(x)`, and a bitcast, `bitcast(x, u32)`.
  void resolveCast(DType type, OpKind op = OpKind::Cast) {
    setOp(op, CmpPredicate::Eq, type);
  }
  /// Called by sema for `index(d)` and `size(d)`.
  void resolveDim(OpKind op, DimId dim) {
    setOp(op, CmpPredicate::Eq, DType::F32, dim);
  }
  /// Called by sema for a reduction or a scan, `sum(x, n)`.
  void resolveReduce(OpKind op, llvm::ArrayRef<DimId> dims) {
    setOp(op, CmpPredicate::Eq);
    setReducedDims(dims);
  }

  static bool classof(const Expr *e) { return e->getKind() == Expr_Call; }

private:
  std::string callee;
  llvm::SMRange calleeRange;
  std::optional<NameArgument> nameArgument;
  std::vector<NameArgument> dimArguments;
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

/// Base class of the statements of a kernel body.
class Stmt {
public:
  enum StmtKind { Stmt_Let, Stmt_Return };

  virtual ~Stmt() = default;

  StmtKind getKind() const { return kind; }
  /// From the keyword to the `;`.
  llvm::SMRange getRange() const { return range; }
  llvm::SMLoc getLoc() const { return range.Start; }

protected:
  Stmt(StmtKind kind, llvm::SMRange range) : kind(kind), range(range) {}

private:
  const StmtKind kind;
  llvm::SMRange range;
};

/// `let name = init;`: a name for a value. The language is pure, so a `let`
/// is not an action; MLIRGen and the evaluator compute it at its first use.
class LetStmt : public Stmt {
public:
  LetStmt(llvm::SMRange range, llvm::SMRange nameRange, std::string name,
          std::unique_ptr<Expr> init)
      : Stmt(Stmt_Let, range), name(std::move(name)), nameRange(nameRange),
        init(std::move(init)) {}

  llvm::StringRef getName() const { return name; }
  llvm::SMRange getNameRange() const { return nameRange; }
  const Expr &getInit() const { return *init; }
  Expr &getInit() { return *init; }
  /// The type of the value (valid after sema).
  ValueType getType() const { return init->getType(); }

  static bool classof(const Stmt *s) { return s->getKind() == Stmt_Let; }

private:
  std::string name;
  llvm::SMRange nameRange;
  std::unique_ptr<Expr> init;
};

/// `return v1, v2, ...;`: the last statement of every kernel.
class ReturnStmt : public Stmt {
public:
  ReturnStmt(llvm::SMRange range, std::vector<std::unique_ptr<Expr>> values)
      : Stmt(Stmt_Return, range), values(std::move(values)) {}

  llvm::ArrayRef<std::unique_ptr<Expr>> getValues() const { return values; }
  Expr &getValue(unsigned i) { return *values[i]; }

  static bool classof(const Stmt *s) { return s->getKind() == Stmt_Return; }

private:
  std::vector<std::unique_ptr<Expr>> values;
};

//===----------------------------------------------------------------------===//
// Kernels and modules
//===----------------------------------------------------------------------===//

/// A dimension name as written in a tensor type.
struct DimSpec {
  std::string name;
  llvm::SMRange range;
};

/// What a type parameter admits (`kernel f<T: float>`): the element types
/// a specialization may bind it to (getAdmittedDTypes).
enum class TypeConstraint { Float, Int, Any };

/// "float", "int" or "any".
llvm::StringRef getConstraintName(TypeConstraint constraint);
/// Parses a constraint's spelling; std::nullopt for any other name.
std::optional<TypeConstraint> parseConstraintName(llvm::StringRef name);
/// The types `constraint` admits, in the order a kernel is checked in:
/// float is f16, bf16, f32, f64; int is i32, i64; any is both.
llvm::ArrayRef<DType> getAdmittedDTypes(TypeConstraint constraint);

/// A type parameter of a generic kernel: `T: float`.
struct TypeParamDecl {
  std::string name;
  TypeConstraint constraint = TypeConstraint::Any;
  llvm::SMRange nameRange;
  llvm::SMRange range;
};

/// A type as written in a signature: `f32`, `f32[n]`, `f32[m, n]`,
/// `f32[...]`, `f32[..., n]`, or with a type parameter `T[...]`.
struct TypeSpec {
  DType dtype = DType::F32;
  /// The kernel's type parameter this type names (its position in
  /// KernelDecl::getTypeParams), or none for a concrete type; sema sets
  /// `dtype` from the kernel's binding.
  std::optional<unsigned> typeParam;
  bool isTensor = false;
  /// Whether the dimensions start with `...` (any leading dimensions).
  bool hasBatch = false;
  llvm::SMRange batchRange;
  /// The named dimensions, in the order written (after `...`).
  std::vector<DimSpec> dims;
  llvm::SMRange range;
  /// Set by sema: the kernel's ids of the dimensions in the order written
  /// (the batch first where there is one), which is the tensor's memory
  /// order, and the same ids in the kernel's order, the value's shape.
  std::vector<DimId> dimIds;
  Shape shape;

  ValueType getValueType() const { return {dtype, shape}; }
};

/// One kernel parameter: `name: type (= default)?`.
class ParamDecl {
public:
  ParamDecl(llvm::SMRange range, llvm::SMRange nameRange, std::string name,
            TypeSpec type, unsigned index, std::unique_ptr<Expr> defaultValue)
      : name(std::move(name)), range(range), nameRange(nameRange),
        type(std::move(type)), index(index),
        defaultValue(std::move(defaultValue)) {}

  llvm::StringRef getName() const { return name; }
  llvm::SMRange getRange() const { return range; }
  llvm::SMLoc getLoc() const { return nameRange.Start; }
  llvm::SMRange getNameRange() const { return nameRange; }
  const TypeSpec &getTypeSpec() const { return type; }
  TypeSpec &getTypeSpec() { return type; }
  ValueType getType() const { return type.getValueType(); }
  DType getDType() const { return type.dtype; }
  bool isTensor() const { return type.isTensor; }
  /// The position in the parameter list (and in the kernel's arguments).
  unsigned getIndex() const { return index; }

  bool hasDefault() const { return defaultValue != nullptr; }
  /// The default, a NumberExpr or BoolExpr, or null.
  const Expr *getDefault() const { return defaultValue.get(); }
  Expr *getDefault() { return defaultValue.get(); }
  /// The default as a double (bool: 0 or 1); std::nullopt without one. A
  /// float default is the value of the parameter's own type nearest to the
  /// literal (one rounding, NumberExpr::getValue), which a double holds
  /// exactly.
  std::optional<double> getDefaultAsDouble() const;
  /// The default as an integer (bool: 0 or 1; a float default is truncated
  /// toward zero); std::nullopt without one.
  std::optional<int64_t> getDefaultAsInt() const;

private:
  std::string name;
  llvm::SMRange range;
  llvm::SMRange nameRange;
  TypeSpec type;
  unsigned index;
  std::unique_ptr<Expr> defaultValue;
};

/// `kernel name<typeParams>(params) -> results { body }`.
class KernelDecl {
public:
  KernelDecl(llvm::SMRange range, llvm::SMRange nameRange, std::string name,
             std::vector<TypeParamDecl> typeParams,
             std::vector<std::unique_ptr<ParamDecl>> params,
             std::vector<TypeSpec> results,
             std::vector<std::unique_ptr<Stmt>> body)
      : name(std::move(name)), range(range), nameRange(nameRange),
        typeParams(std::move(typeParams)), params(std::move(params)),
        results(std::move(results)), body(std::move(body)) {}

  /// The type parameters (`<T: float>`); none for a concrete kernel.
  llvm::ArrayRef<TypeParamDecl> getTypeParams() const { return typeParams; }
  bool isGeneric() const { return !typeParams.empty(); }
  /// The position of type parameter `typeName`, or std::nullopt.
  std::optional<unsigned> lookupTypeParam(llvm::StringRef typeName) const;
  /// The element type of each type parameter (set by sema): the module's
  /// TypeBinding's, or for a parameter it leaves free the first type its
  /// constraint admits (a template is checked under that binding first).
  llvm::ArrayRef<DType> getBinding() const { return binding; }
  void setBinding(llvm::ArrayRef<DType> types, bool bound) {
    binding.assign(types.begin(), types.end());
    this->bound = bound;
  }
  /// getBinding by type parameter name.
  TypeBinding getTypeBinding() const;
  /// True unless the kernel is generic and the module's binding leaves
  /// some type parameter free: a template, which is checked (under every
  /// binding it admits) but not compiled. Its AST holds the first
  /// admitted binding's types.
  bool isBound() const { return !isGeneric() || bound; }
  /// "leaky_relu<T=bf16>" for a bound generic kernel, "leaky_relu<T: float>"
  /// for a template, the name alone for a concrete kernel.
  std::string getDisplayName() const;

  llvm::StringRef getName() const { return name; }
  llvm::SMRange getRange() const { return range; }
  llvm::SMLoc getLoc() const { return range.Start; }
  llvm::SMRange getNameRange() const { return nameRange; }

  llvm::ArrayRef<std::unique_ptr<ParamDecl>> getParams() const {
    return params;
  }
  const ParamDecl &getParam(unsigned i) const { return *params[i]; }
  /// Returns the parameter called `paramName`, or null.
  const ParamDecl *lookupParam(llvm::StringRef paramName) const;

  llvm::ArrayRef<TypeSpec> getResults() const { return results; }
  llvm::MutableArrayRef<TypeSpec> getResults() { return results; }
  ValueType getResultType(unsigned i) const {
    return results[i].getValueType();
  }

  /// The statements; the parser guarantees the last one is the only return.
  llvm::ArrayRef<std::unique_ptr<Stmt>> getBody() const { return body; }
  const ReturnStmt &getReturn() const;
  ReturnStmt &getReturn();

  /// The kernel's dimensions (set by sema): `...` first where some type
  /// writes it (kBatchDimName), then every named dimension in the order of
  /// its first appearance in the signature, parameters before results. A
  /// DimId indexes this table.
  llvm::ArrayRef<std::string> getDims() const { return dims; }
  llvm::StringRef getDimName(DimId dim) const { return dims[dim]; }
  void setDims(std::vector<std::string> newDims) { dims = std::move(newDims); }
  /// The id of dimension `dimName`, or std::nullopt.
  std::optional<DimId> lookupDim(llvm::StringRef dimName) const;
  /// True if some type of the signature writes `...` (then it is dim 0).
  bool hasBatchDim() const {
    return !dims.empty() && dims.front() == kBatchDimName;
  }
  /// Formats a value type as the source would write it, its dimensions in
  /// the kernel's order: `f32`, `f32[n]`, `f32[..., m, n]`.
  std::string formatType(const ValueType &type) const;
  /// Formats a declared type in its own order: `f32[n, m]`.
  std::string formatType(const TypeSpec &type) const;

private:
  std::string name;
  llvm::SMRange range;
  llvm::SMRange nameRange;
  std::vector<TypeParamDecl> typeParams;
  std::vector<std::unique_ptr<ParamDecl>> params;
  std::vector<TypeSpec> results;
  std::vector<std::unique_ptr<Stmt>> body;
  std::vector<std::string> dims;
  llvm::SmallVector<DType, 2> binding;
  bool bound = false;
};

/// A source file: its kernels, in order.
class ModuleDecl {
public:
  ModuleDecl(const llvm::SourceMgr &sourceMgr,
             std::vector<std::unique_ptr<KernelDecl>> kernels)
      : sourceMgr(&sourceMgr), kernels(std::move(kernels)) {}

  llvm::ArrayRef<std::unique_ptr<KernelDecl>> getKernels() const {
    return kernels;
  }
  /// The binding the module was checked under (sema's); empty for none.
  const TypeBinding &getBinding() const { return binding; }
  void setBinding(TypeBinding newBinding) { binding = std::move(newBinding); }
  /// Returns the kernel called `name`, or null.
  const KernelDecl *lookupKernel(llvm::StringRef name) const;

  /// The SourceMgr that owns the buffer all SMLocs point into; it turns them
  /// into line:column for the AST dump and MLIR locations.
  const llvm::SourceMgr &getSourceMgr() const { return *sourceMgr; }

private:
  const llvm::SourceMgr *sourceMgr;
  std::vector<std::unique_ptr<KernelDecl>> kernels;
  TypeBinding binding;
};

} // namespace ewc

#endif // EWC_FRONTEND_AST_H
