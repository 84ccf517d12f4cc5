//===- KernelChecker.h - Sema of one kernel (private) -----------*- C++ -*-===//
//
// The state of checking one kernel, shared by Sema.cpp (signature, statements,
// module) and SemaExpr.cpp (expressions and their typing). Private to the
// front end.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_LIB_FRONTEND_KERNELCHECKER_H
#define EWC_LIB_FRONTEND_KERNELCHECKER_H

#include "ewc/Frontend/AST.h"
#include "ewc/Frontend/Diagnostics.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

namespace ewc {
namespace sema {

/// What checking an expression found out.
struct Checked {
  enum class State { Error, Typed, WeakInt, WeakFloat };

  State state = State::Error;
  /// The shape is known even for weak values (`where(tensorCond, 1, 2)`).
  Shape shape;
  /// The height of the expression in ops, counting the ops of the `let`s it
  /// names (a name is no level of its own).
  unsigned depth = 1;
  /// The element type, once typed.
  DType dtype = DType::F32;
  /// The longest chain of `let`s below the expression (kMaxLetChain).
  unsigned letChain = 0;

  static Checked error() { return {}; }
  static Checked typed(const ValueType &type, unsigned depth) {
    return {State::Typed, type.shape, depth, type.dtype};
  }
  static Checked weak(State state, Shape shape) {
    return {state, std::move(shape)};
  }
  bool isTensor() const { return !shape.empty(); }
  bool ok() const { return state != State::Error; }
  bool isWeak() const {
    return state == State::WeakInt || state == State::WeakFloat;
  }
};

/// The element type a weak value takes when nothing else decides it.
inline DType getDefaultDType(const Checked &checked) {
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
  KernelChecker(KernelDecl &kernel, Diagnostics &diags)
      : kernel(kernel), diags(diags) {}

  void check();

private:
  // Sema.cpp: the signature and the statements.
  void checkSignature();
  /// Numbers the dimensions of the signature (Kernel::getDims) and gives
  /// each declared tensor type its ids; reports a name used twice in one
  /// type.
  void numberDimensions();
  void checkDefault(ParamDecl &param);
  void checkLet(LetStmt &let);
  void checkReturn(ReturnStmt &ret);

  // SemaExpr.cpp: expressions.
  Checked checkExpr(Expr &expr);
  Checked checkName(NameExpr &name);
  Checked checkOp(OpExpr &op);
  Checked checkLogic(OpExpr &op, llvm::ArrayRef<Expr *> operands,
                     llvm::ArrayRef<Checked> checked);
  Checked checkCast(OpExpr &op, Expr &operand, const Checked &checked);
  /// `index(d)` and `size(d)`: resolves the dimension name.
  Checked checkDim(CallExpr &call);
  /// rand, randn and randint: an integer seed and an integer offset, each
  /// of its own type (literals are i64), broadcast together.
  Checked checkRandom(OpExpr &op, llvm::ArrayRef<Expr *> operands,
                      llvm::ArrayRef<Checked> checked);
  /// A reduction or a scan: the operand's type and that it has the
  /// dimensions named.
  Checked checkReduce(OpExpr &op, Expr &operand, const Checked &checked,
                      unsigned depth);
  /// Resolves a dimension name written as an argument of `call`, or reports
  /// it (with a guess among the kernel's dimensions).
  std::optional<DimId> lookupDimArgument(const CallExpr &call,
                                         const CallExpr::NameArgument &name);
  /// Reports (once per kernel) an expression deeper than kMaxExprDepth.
  bool checkDepth(const Expr &expr, unsigned depth);
  bool resolveCall(CallExpr &call);
  /// Types `values` (the operands of `op` that must share an element type,
  /// up to mixed precision): returns the typed result, a weak result if all
  /// are weak, or an error.
  Checked unify(OpExpr &op, llvm::ArrayRef<Expr *> values,
                llvm::ArrayRef<Checked> checked, llvm::StringRef what);
  /// Checks that `dtype` suits the class of `op` (no arithmetic on bool,
  /// math on floats only); reports and returns false otherwise.
  bool checkOperandClass(const OpExpr &op, ValueType type);

  // SemaExpr.cpp: weak types.
  /// Gives the weak expression `expr` the element type `dtype`.
  bool resolveWeak(Expr &expr, DType dtype);
  /// Checks that a literal can take `dtype`; `asStored` checks the range of
  /// `dtype` itself (a default value), else of its compute type (a literal
  /// in an expression is computed in f32 for f16 and bf16).
  bool checkLiteralFits(const NumberExpr &number, DType dtype, bool asStored);

  std::string formatType(const ValueType &type) const {
    return kernel.formatType(type);
  }
  std::string formatType(const TypeSpec &type) const {
    return kernel.formatType(type);
  }
  /// How messages name an op: as written, `'*'` or `'mul'`.
  static std::string getDisplayName(const OpExpr &op);
  void suggestName(std::string &msg, llvm::StringRef name,
                   llvm::ArrayRef<llvm::StringRef> candidates);

  KernelDecl &kernel;
  Diagnostics &diags;
  llvm::StringMap<const ParamDecl *> params;
  llvm::StringMap<LetStmt *> lets;
  llvm::DenseMap<const LetStmt *, LetInfo> letInfos;
  bool reportedDepth = false;
  /// The first index_flat() call and the first reduction or scan: together
  /// an error (the schedules of reductions take no batch position yet).
  const CallExpr *firstIndexFlat = nullptr;
  const OpExpr *firstCombine = nullptr;
};

} // namespace sema
} // namespace ewc

#endif // EWC_LIB_FRONTEND_KERNELCHECKER_H
