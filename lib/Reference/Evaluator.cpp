//===- Evaluator.cpp - Reference evaluation of ew kernels -----------------===//
//
// The kernel is evaluated a block of kBlockSize elements at a time; within a
// block every expression evaluates, node by node, to a Column: the values of
// the whole block (one value for a scalar, which broadcasts by a stride of
// zero). A block's columns stay in cache, where whole-array columns of 10^7
// doubles would each cost 80 MB of fresh, page-faulting memory.
//
//===----------------------------------------------------------------------===//

#include "ewc/Reference/Evaluator.h"
#include "ewc/Frontend/AST.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"

#include <memory>

using namespace ewc;
using llvm::cast;
using llvm::dyn_cast;

namespace {

/// The values of one expression: `n` of them for a tensor, one for a scalar.
/// Float types are held in `floats`; integer types and bool (as 0 or 1) in
/// `ints`.
struct Column {
  DType dtype = DType::F32;
  bool isTensor = false;
  std::vector<double> floats;
  std::vector<int64_t> ints;
};
using ColumnPtr = std::shared_ptr<const Column>;

/// out[k] = f(a[k], b[k]) over `size` elements, a scalar operand repeating
/// its one value.
template <typename R, typename A, typename B, typename F>
std::vector<R> zipWith(const std::vector<A> &a, bool aIsTensor,
                       const std::vector<B> &b, bool bIsTensor, size_t size,
                       F f) {
  std::vector<R> out(size);
  size_t aStride = aIsTensor, bStride = bIsTensor;
  for (size_t k = 0; k < size; ++k)
    out[k] = f(a[k * aStride], b[k * bStride]);
  return out;
}

/// Applies comparison `pred` elementwise; C++'s operators already have the
/// IEEE semantics the language wants (NaN compares false, except `!=`).
template <typename T>
std::vector<int64_t> compareColumns(CmpPredicate pred, const std::vector<T> &a,
                                    bool aIsTensor, const std::vector<T> &b,
                                    bool bIsTensor, size_t size) {
  auto run = [&](auto f) {
    return zipWith<int64_t>(a, aIsTensor, b, bIsTensor, size, f);
  };
  switch (pred) {
  case CmpPredicate::Eq:
    return run([](T x, T y) -> int64_t { return x == y; });
  case CmpPredicate::Ne:
    return run([](T x, T y) -> int64_t { return x != y; });
  case CmpPredicate::Lt:
    return run([](T x, T y) -> int64_t { return x < y; });
  case CmpPredicate::Le:
    return run([](T x, T y) -> int64_t { return x <= y; });
  case CmpPredicate::Gt:
    return run([](T x, T y) -> int64_t { return x > y; });
  case CmpPredicate::Ge:
    return run([](T x, T y) -> int64_t { return x >= y; });
  }
  llvm_unreachable("unknown CmpPredicate");
}

/// Elements per block: a column of them is 32 KiB, so the columns of a
/// typical kernel fit in L2 together.
constexpr int64_t kBlockSize = 4096;

class Evaluator {
public:
  Evaluator(const Kernel &kernel, llvm::ArrayRef<HostArray> inputs, int64_t n)
      : kernel(kernel), inputs(inputs), n(n) {}

  llvm::Error checkInputs();
  std::vector<HostArray> run();

private:
  ColumnPtr eval(const Expr &expr);
  ColumnPtr evalParam(const Param &param);
  ColumnPtr evalLiteral(const Expr &expr);
  ColumnPtr evalOp(const OpExpr &op);
  Column evalArith(OpKind op, DType dtype, const Column &a, const Column &b,
                   size_t size);

  const Kernel &kernel;
  llvm::ArrayRef<HostArray> inputs;
  int64_t n;

  /// The block being evaluated, and the columns of its parameters and
  /// `let`s, each computed at its first use.
  int64_t blockBegin = 0;
  int64_t blockSize = 0;
  std::vector<ColumnPtr> params;
  llvm::DenseMap<const LetStmt *, ColumnPtr> lets;
};

} // namespace

llvm::Error Evaluator::checkInputs() {
  if (n < 0)
    return llvm::createStringError(llvm::formatv("negative length {0}", n));
  if (inputs.size() != kernel.getParams().size())
    return llvm::createStringError(llvm::formatv(
        "kernel '{0}' has {1} parameters but got {2} inputs", kernel.getName(),
        kernel.getParams().size(), inputs.size()));
  for (const std::unique_ptr<Param> &param : kernel.getParams()) {
    const HostArray &input = inputs[param->getIndex()];
    int64_t expectedSize = param->isTensor() ? n : 1;
    if (input.getDType() != param->getDType() || input.size() != expectedSize)
      return llvm::createStringError(llvm::formatv(
          "input for parameter '{0}' is {1} x {2}, expected {3} x {4}",
          param->getName(), input.size(), getDTypeName(input.getDType()),
          expectedSize, getDTypeName(param->getDType())));
  }
  return llvm::Error::success();
}

std::vector<HostArray> Evaluator::run() {
  std::vector<HostArray> results;
  for (unsigned i = 0, e = kernel.getResults().size(); i != e; ++i)
    results.emplace_back(kernel.getResultType(i).dtype, n);

  for (blockBegin = 0; blockBegin < n; blockBegin += kBlockSize) {
    blockSize = std::min(kBlockSize, n - blockBegin);
    params.assign(kernel.getParams().size(), nullptr);
    lets.clear();
    for (auto [value, result] :
         llvm::zip(kernel.getReturn().getValues(), results)) {
      ColumnPtr column = eval(*value);
      // Sema makes every result a tensor; a scalar would still broadcast.
      if (isFloat(column->dtype))
        result.writeDoubles(
            blockBegin, column->isTensor ? column->floats
                                         : std::vector<double>(
                                               blockSize, column->floats[0]));
      else
        result.writeInts(
            blockBegin, column->isTensor
                            ? column->ints
                            : std::vector<int64_t>(blockSize, column->ints[0]));
    }
  }
  return results;
}

ColumnPtr Evaluator::eval(const Expr &expr) {
  switch (expr.getKind()) {
  case Expr::Expr_Number:
  case Expr::Expr_Bool:
    return evalLiteral(expr);
  case Expr::Expr_Name: {
    auto &name = cast<NameExpr>(expr);
    if (const Param *param = name.getParam())
      return evalParam(*param);
    const LetStmt *let = name.getLet();
    if (ColumnPtr value = lets.lookup(let))
      return value;
    ColumnPtr value = eval(let->getInit());
    lets[let] = value;
    return value;
  }
  case Expr::Expr_Unary:
  case Expr::Expr_Binary:
  case Expr::Expr_Call:
    return evalOp(cast<OpExpr>(expr));
  }
  llvm_unreachable("unknown expression kind");
}

ColumnPtr Evaluator::evalParam(const Param &param) {
  ColumnPtr &slot = params[param.getIndex()];
  if (slot)
    return slot;
  const HostArray &input = inputs[param.getIndex()];
  auto column = std::make_shared<Column>();
  column->dtype = param.getDType();
  column->isTensor = param.isTensor();
  int64_t begin = column->isTensor ? blockBegin : 0;
  size_t size = column->isTensor ? blockSize : 1;
  if (isFloat(column->dtype)) {
    column->floats.resize(size);
    input.readDoubles(begin, column->floats);
  } else {
    column->ints.resize(size);
    input.readInts(begin, column->ints);
  }
  slot = column;
  return slot;
}

ColumnPtr Evaluator::evalLiteral(const Expr &expr) {
  auto column = std::make_shared<Column>();
  column->dtype = expr.getType().dtype;
  if (auto *b = dyn_cast<BoolExpr>(&expr)) {
    column->ints = {b->getValue() ? 1 : 0};
    return column;
  }
  auto &number = cast<NumberExpr>(expr);
  // A literal means the constant of its type, as the compiled kernel sees
  // it: 0.1 in an f16 kernel is the f16 nearest to 0.1.
  if (isFloat(column->dtype))
    column->floats = {
        roundToFloatType(number.getValueAsDouble(), column->dtype)};
  else
    column->ints = {number.getIntValue()};
  return column;
}

Column Evaluator::evalArith(OpKind op, DType dtype, const Column &a,
                            const Column &b, size_t size) {
  Column result;
  if (isFloat(dtype)) {
    auto run = [&](auto f) {
      result.floats =
          zipWith<double>(a.floats, a.isTensor, b.floats, b.isTensor, size, f);
    };
    switch (op) {
    case OpKind::Add:
      run([](double x, double y) { return x + y; });
      break;
    case OpKind::Sub:
      run([](double x, double y) { return x - y; });
      break;
    case OpKind::Mul:
      run([](double x, double y) { return x * y; });
      break;
    case OpKind::Div:
      run([](double x, double y) { return x / y; });
      break;
    default:
      llvm_unreachable("not a binary arithmetic op");
    }
    return result;
  }

  // Integers: unsigned arithmetic wraps without undefined behaviour, then
  // the result is wrapped to the type's width.
  auto run = [&](auto f) {
    result.ints = zipWith<int64_t>(
        a.ints, a.isTensor, b.ints, b.isTensor, size,
        [&](int64_t x, int64_t y) {
          return wrapToIntegerType(
              static_cast<int64_t>(
                  f(static_cast<uint64_t>(x), static_cast<uint64_t>(y))),
              dtype);
        });
  };
  switch (op) {
  case OpKind::Add:
    run([](uint64_t x, uint64_t y) { return x + y; });
    break;
  case OpKind::Sub:
    run([](uint64_t x, uint64_t y) { return x - y; });
    break;
  case OpKind::Mul:
    run([](uint64_t x, uint64_t y) { return x * y; });
    break;
  default:
    llvm_unreachable("sema allows no other integer arithmetic");
  }
  return result;
}

ColumnPtr Evaluator::evalOp(const OpExpr &op) {
  llvm::SmallVector<ColumnPtr, 3> operands;
  for (const std::unique_ptr<Expr> &operand : op.getOperands())
    operands.push_back(eval(*operand));

  auto result = std::make_shared<Column>();
  result->dtype = op.getType().dtype;
  result->isTensor = op.getType().isTensor;
  size_t size = result->isTensor ? static_cast<size_t>(blockSize) : 1;
  const Column &a = *operands[0];

  switch (op.getOp()) {
  case OpKind::Add:
  case OpKind::Sub:
  case OpKind::Mul:
  case OpKind::Div: {
    Column value = evalArith(op.getOp(), result->dtype, a, *operands[1], size);
    result->floats = std::move(value.floats);
    result->ints = std::move(value.ints);
    break;
  }
  case OpKind::Neg:
    if (isFloat(result->dtype)) {
      result->floats =
          zipWith<double>(a.floats, a.isTensor, a.floats, a.isTensor, size,
                          [](double x, double) { return -x; });
    } else {
      DType dtype = result->dtype;
      result->ints = zipWith<int64_t>(
          a.ints, a.isTensor, a.ints, a.isTensor, size,
          [dtype](int64_t x, int64_t) {
            return wrapToIntegerType(
                static_cast<int64_t>(0 - static_cast<uint64_t>(x)), dtype);
          });
    }
    break;
  case OpKind::Cmp: {
    const Column &b = *operands[1];
    if (isFloat(a.dtype))
      result->ints = compareColumns(op.getPredicate(), a.floats, a.isTensor,
                                    b.floats, b.isTensor, size);
    else
      result->ints = compareColumns(op.getPredicate(), a.ints, a.isTensor,
                                    b.ints, b.isTensor, size);
    break;
  }
  case OpKind::Where: {
    const Column &t = *operands[1], &f = *operands[2];
    size_t cStride = a.isTensor, tStride = t.isTensor, fStride = f.isTensor;
    auto select = [&](const auto &tv, const auto &fv, auto &out) {
      out.resize(size);
      for (size_t k = 0; k < size; ++k)
        out[k] = a.ints[k * cStride] ? tv[k * tStride] : fv[k * fStride];
    };
    if (isFloat(result->dtype))
      select(t.floats, f.floats, result->floats);
    else
      select(t.ints, f.ints, result->ints);
    break;
  }
  }
  return result;
}

llvm::Expected<std::vector<HostArray>>
ewc::evaluate(const Kernel &kernel, llvm::ArrayRef<HostArray> inputs,
              int64_t n) {
  Evaluator evaluator(kernel, inputs, n);
  if (llvm::Error error = evaluator.checkInputs())
    return std::move(error);
  return evaluator.run();
}
