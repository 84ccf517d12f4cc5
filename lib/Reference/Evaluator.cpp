//===- Evaluator.cpp - Reference check of ew kernels ----------------------===//
//
// The kernel is evaluated a block of kBlockSize elements at a time; within a
// block every expression evaluates, node by node, to a Column: the values of
// the whole block (one value for a scalar, which broadcasts by a stride of
// zero) in the expression's compute type, plus, where correct code may
// differ from them, a slack per element (floats) or an "unsure" flag
// (integers and bools). A column without slack or flags is exact, which is
// the common case and costs nothing extra.
//
// Slack arises from math functions (their stated ulps) and spreads through
// the ops that follow: an op on inexact operands may be off by the most its
// result changes over the corners of its operands' intervals, plus one ulp
// for rounding. All the ops are monotonic in each operand on any interval
// where they are continuous, so the corners bound them; a division whose
// divisor interval holds zero, and a NaN that may or may not happen, get an
// infinite slack (anything goes).
//
//===----------------------------------------------------------------------===//

#include "ewc/Reference/Evaluator.h"

#include "Combine.h"
#include "Semantics.h"

#include "ewc/Frontend/AST.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ThreadPool.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>

using namespace ewc;
using llvm::cast;
using llvm::dyn_cast;

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

/// The values of one expression over a block: `size` of them for a tensor,
/// one for a scalar. Floats are held in `floats` as values of the compute
/// type `dtype` (f32 or f64; f16 and bf16 only right after a cast or at a
/// return); integers and bools (0 or 1) in `ints`.
struct Column {
  DType dtype = DType::F32;
  bool isTensor = false;
  std::vector<double> floats;
  std::vector<int64_t> ints;
  /// Per element, how far correct code may be; empty if exact.
  std::vector<double> slack;
  /// Per element, whether correct code may give any value; empty if none.
  std::vector<uint8_t> unsure;
  /// Per element, the largest magnitude a schedule's partial value of it
  /// may have, where that exceeds |value|: an online group's factor
  /// exp(a - m) against a running max m below the row's (at most 1), and
  /// the products of it (addRescaleSlack). Empty if none. A sum whose
  /// reaches could overflow may be anything.
  std::vector<double> reach;

  size_t index(size_t k) const { return isTensor ? k : 0; }
  double f(size_t k) const { return floats[index(k)]; }
  int64_t i(size_t k) const { return ints[index(k)]; }
  double e(size_t k) const { return slack.empty() ? 0 : slack[index(k)]; }
  double m(size_t k) const {
    return reach.empty() ? std::fabs(f(k)) : reach[index(k)];
  }
  bool u(size_t k) const { return !unsure.empty() && unsure[index(k)]; }
  bool isExact() const { return slack.empty() && unsure.empty(); }
};
using ColumnPtr = std::shared_ptr<const Column>;

/// Builds a result column of `size` elements, element by element.
struct ColumnBuilder {
  Column column;
  size_t size;

  ColumnBuilder(DType dtype, bool isTensor, size_t size) : size(size) {
    column.dtype = dtype;
    column.isTensor = isTensor;
  }
  void setFloat(size_t k, double value, double slack) {
    if (column.floats.empty())
      column.floats.resize(size);
    column.floats[k] = value;
    if (slack != 0) {
      if (column.slack.empty())
        column.slack.resize(size);
      column.slack[k] = slack;
    }
  }
  void setReach(size_t k, double reach) {
    if (column.reach.empty())
      column.reach.resize(size);
    column.reach[k] = reach;
  }
  void setInt(size_t k, int64_t value, bool unsure) {
    if (column.ints.empty())
      column.ints.resize(size);
    column.ints[k] = value;
    if (unsure) {
      if (column.unsure.empty())
        column.unsure.resize(size);
      column.unsure[k] = 1;
    }
  }
  ColumnPtr finish() { return std::make_shared<Column>(std::move(column)); }
};

//===----------------------------------------------------------------------===//
// Slack
//===----------------------------------------------------------------------===//

/// How far a function's value at one corner of its operands' intervals is
/// from `result`: infinite if the corner is NaN and the result is not (or
/// the reverse), or if the corner overflows `dtype` where the result does
/// not: a kernel whose operand is off by its slack may then get an infinity,
/// and NaN after it (ewc-fuzz seed 600, program 47259: x * rsqrt(y) with
/// x = -FLT_MAX).
/// The corner's value is taken rounded to `dtype`, as a kernel computes it:
/// atan2(+0, x) for an x that may be negative is pi, which f32 rounds up to
/// 3.14159274 (ewc-fuzz --seed 51, program 11283: 0 +- pi in double missed
/// the CPU's f32 pi by 9e-8).
static double cornerChange(double corner, double result, DType dtype) {
  if (std::isnan(corner) != std::isnan(result))
    return kInfinity;
  double rounded = ref::roundTo(corner, dtype);
  if (!std::isinf(result) && std::isinf(rounded))
    return kInfinity;
  if (corner == result || std::isnan(corner))
    return 0;
  return std::max(std::fabs(corner - result), std::fabs(rounded - result));
}

/// How far `f` may be from `result` when its operands lie anywhere in
/// [a - ea, a + ea] x [b - eb, b + eb]: the largest change over the corners.
template <typename F>
double cornerDeviation(F f, double result, DType dtype, double a, double ea,
                       double b, double eb) {
  double deviation = 0;
  for (double x : {a - ea, a + ea})
    for (double y : {b - eb, b + eb})
      deviation = std::max(deviation, cornerChange(f(x, y), result, dtype));
  return deviation;
}

/// What the corners miss for sin, cos and tan of x +- ex: an interval as
/// wide as pi (ex >= pi / 2) holds a maximum and a minimum of sin and cos,
/// which may lie anywhere in [-1, 1] whatever the corners give (sin of
/// 0 +- pi is 0 at both corners and 1 inside); one narrower holds at most one
/// extremum, whose distance from the result the corners bound. tan may be
/// anything once the interval reaches a pole, where cos changes sign.
static double periodicSlack(OpKind op, double x, double ex) {
  constexpr double kHalfPi = 1.5707963267948966;
  if (op == OpKind::Tan) {
    if (ex >= kHalfPi ||
        std::signbit(std::cos(x - ex)) != std::signbit(std::cos(x + ex)))
      return kInfinity;
    return 0;
  }
  return ex >= kHalfPi ? 2 : 0;
}

/// Whether x +- ex reaches into [-1, 1], the domain of asin, acos and atanh,
/// from a NaN result: the corners then lie on both sides of the domain, both
/// NaN, and do not see the numbers between them (ewc-fuzz --seed 48, program
/// 1502: asin(x % sinh(y)), whose remainder may lie anywhere in (0, 3.13),
/// was expected NaN; the CPU gave 0.666). The functions of one-sided
/// domains (sqrt, log, acosh) need no such test: both corners outside it
/// means the whole interval is.
static bool mayMeetTwoSidedDomain(OpKind op, double x, double ex,
                                  double result) {
  if (op != OpKind::Asin && op != OpKind::Acos && op != OpKind::Atanh)
    return false;
  return ex != 0 && std::isnan(result) && !std::isnan(x) && x - ex <= 1 &&
         x + ex >= -1;
}

/// Whether pow's special cases lie inside the operands' intervals, where
/// the corners do not see them: pow(1, y) = 1 and pow(x, 0) = 1 even for a
/// NaN y or x, and a negative x gives a number at integer y and NaN between
/// them (ewc-fuzz --seed 46, programs 1088 and 2310: pow(sigmoid(x), NaN)
/// with sigmoid(x) = 1 +- 4 ulps, and pow(-2.7e7, sigmoid(17.125)), were
/// expected NaN; the kernels' sigmoid was 1 exactly). And the pole at x = 0
/// of a negative exponent, which corners on both sides of it step over
/// (ewc-fuzz --seed 9152, program 1200000074: pow(cumsum(x, N), -1.0) of
/// bf16s whose sum may be -1.2e-38 or +0 was expected within -1.7e38 ..
/// 6.6e35; the kernels' sum was +0 and its pow inf).
static bool powMayMeetSpecialCase(double x, double ex, double y, double ey) {
  auto holds = [](double v, double e, double point) {
    return e != 0 && v - e <= point && point <= v + e;
  };
  if ((std::isnan(y) || std::isinf(y)) && holds(x, ex, 1.0))
    return true;
  if (std::isnan(x) && holds(y, ey, 0.0))
    return true;
  if (holds(x, ex, 0.0) && !(y - ey >= 0))
    return true;
  // A negative base and an exponent interval that holds an integer.
  return ey != 0 && x - ex < 0 && std::floor(y + ey) >= y - ey;
}

/// The slack of `result = round(f(a, b))` in `dtype` given the operands'
/// slacks, plus `ulps` of error of f itself (math functions).
template <typename F>
double propagate(F f, double result, DType dtype, double a, double ea, double b,
                 double eb, unsigned ulps) {
  if (std::isinf(ea) || std::isinf(eb))
    return kInfinity;
  double slack = 0;
  if (ea != 0 || eb != 0) {
    slack = cornerDeviation(f, result, dtype, a, ea, b, eb);
    if (std::isinf(slack))
      return kInfinity;
    // The kernel rounds its own f(a', b'), which may round the other way.
    ++ulps;
  }
  if (ulps != 0 && !std::isnan(result))
    slack += ulps * ref::getUlp(result, dtype);
  return slack;
}

//===----------------------------------------------------------------------===//
// Evaluator
//===----------------------------------------------------------------------===//

/// Elements per block: a column of them is 32 KiB, so the columns of a
/// typical kernel fit in L2 together.
constexpr int64_t kBlockSize = 4096;

/// The largest distinct values of an amax's run that the reference keeps
/// to bound an online group's rescales (Evaluator::MaxRun): 512 KiB a row,
/// where all of a row of 2^28 would take 2 GiB. A value below them counts
/// every value of its row.
constexpr size_t kMaxRunValues = size_t(1) << 16;

/// The extents of a kernel's dimensions, bound from the views' shapes.
struct Bindings {
  /// Per DimId: the extent of a named dimension (the batch's entry unused).
  std::vector<int64_t> extents;
  std::vector<int64_t> batchShape;
};

/// The dimensions of a declared type in its own order with the batch
/// expanded: a named dimension as its DimId, batch dimension k as
/// kBatchBase + k.
constexpr int64_t kBatchBase = int64_t(1) << 32;
static std::vector<int64_t> expandDims(const TypeSpec &type, size_t batchRank) {
  std::vector<int64_t> dims;
  for (DimId id : type.dimIds) {
    if (type.hasBatch && id == 0) {
      for (size_t k = 0; k < batchRank; ++k)
        dims.push_back(kBatchBase + k);
      continue;
    }
    dims.push_back(id);
  }
  return dims;
}

class Evaluator {
public:
  /// Evaluates result `result` over its dimensions.
  Evaluator(const KernelDecl &kernel, llvm::ArrayRef<ArrayView> inputs,
            const Bindings &bindings, unsigned result);

  /// The number of points of the result.
  int64_t getNumPoints() const { return numPoints; }
  /// Checks points [begin, end) of the result, in row-major order of its
  /// dimensions, against `output`.
  CompareResult run(const ArrayView &output, const CheckOptions &options,
                    int64_t begin, int64_t end);

private:
  ColumnPtr eval(const Expr &expr);
  ColumnPtr evalParam(const ParamDecl &param);
  ColumnPtr evalLiteral(const Expr &expr);
  ColumnPtr evalOp(const OpExpr &op);
  ColumnPtr evalDim(const OpExpr &op);
  /// A reduction or a scan at the block's points (Combine.h folds a run).
  ColumnPtr evalCombine(const OpExpr &op);
  /// A value's dimensions with the batch expanded (as expandDims).
  std::vector<int64_t> expandShape(llvm::ArrayRef<DimId> shape) const;
  int64_t getExtent(int64_t dim) const {
    return dim >= kBatchBase ? bindings.batchShape[dim - kBatchBase]
                             : bindings.extents[dim];
  }

  /// Converts `column` to `to` with ew.cast's semantics (no op if it is of
  /// that type already).
  ColumnPtr convert(ColumnPtr column, DType to);
  ColumnPtr evalFloatOp(OpKind op, DType dtype, bool isTensor,
                        llvm::ArrayRef<ColumnPtr> operands);
  ColumnPtr evalIntOp(OpKind op, DType dtype, bool isTensor,
                      llvm::ArrayRef<ColumnPtr> operands);
  ColumnPtr evalFma(DType dtype, bool isTensor,
                    llvm::ArrayRef<ColumnPtr> operands);
  ColumnPtr evalClassify(OpKind op, DType dtype, bool isTensor,
                         const Column &a);
  ColumnPtr evalCmp(CmpPredicate pred, bool isTensor, const Column &a,
                    const Column &b);
  ColumnPtr evalWhere(bool isTensor, const Column &c, const Column &t,
                      const Column &f);
  ColumnPtr evalBitcast(ColumnPtr column, DType to);
  ColumnPtr evalRandom(OpKind op, DType offsetType, bool isTensor,
                       const Column &seed, const Column &offset);
  size_t getSize(bool isTensor) const {
    return isTensor ? static_cast<size_t>(blockSize) : 1;
  }
  /// The storage index in `view` of point k of the block, for a tensor of
  /// dimensions `dims` (expandDims).
  int64_t getElement(const ArrayView &view, llvm::ArrayRef<int64_t> dims,
                     size_t k) const;

  const KernelDecl &kernel;
  llvm::ArrayRef<ArrayView> inputs;
  const Bindings &bindings;
  unsigned result;
  /// The result's dimensions (expandDims) and their extents.
  std::vector<int64_t> dims, extents;
  int64_t numPoints = 1;

  /// The block being evaluated: its first point, its size, each dimension's
  /// coordinate at each of its points; and the columns of its parameters and
  /// `let`s, each computed at its first use.
  int64_t blockBegin = 0;
  int64_t blockSize = 0;
  std::vector<std::vector<int64_t>> coords;
  std::vector<ColumnPtr> params;
  llvm::DenseMap<const LetStmt *, ColumnPtr> lets;
  /// Per reduction or scan, its values by the coordinates of the dimensions
  /// it keeps (a scan: the whole run along its dimension): a reduction's
  /// value is the same at every point of a row, and is folded once.
  std::map<const OpExpr *,
           std::map<std::vector<int64_t>, std::vector<ref::Folded>>>
      combines;
  /// The values of an amax's run that bound the rescales of an online group
  /// (addRescaleSlack): its largest distinct values in increasing order,
  /// at most kMaxRunValues of them (NaNs left out), and how many values it
  /// has, an upper bound of its distinct ones below those kept.
  struct MaxRun {
    std::vector<double> top;
    int64_t count = 0;
    bool truncated = false;
    /// Sorts `top`, drops repeats and keeps the largest kMaxRunValues.
    void prune();
  };
  /// Per float amax, by key as `combines`.
  std::map<const OpExpr *, std::map<std::vector<int64_t>, MaxRun>> maxRuns;
  /// Per float amax evaluated in the block (the scope's), its run at each
  /// point of the block.
  llvm::DenseMap<const OpExpr *, std::vector<const MaxRun *>> blockMaxRuns;
  /// The dimensions of each sum whose operand is being evaluated, outermost
  /// first: the online groups rescale only inside a sum over the max's
  /// dimensions.
  std::vector<llvm::ArrayRef<DimId>> enclosingSums;

  /// `value` (exp(x) at the block's points, x its operand) with the slack
  /// of an online group's rescales where x is `a - amax(b, D)`.
  ColumnPtr addRescaleSlack(const OpExpr &exp, ColumnPtr value,
                            const Column &x);
};

} // namespace

Evaluator::Evaluator(const KernelDecl &kernel, llvm::ArrayRef<ArrayView> inputs,
                     const Bindings &bindings, unsigned result)
    : kernel(kernel), inputs(inputs), bindings(bindings), result(result) {
  dims = expandDims(kernel.getResults()[result], bindings.batchShape.size());
  for (int64_t dim : dims) {
    extents.push_back(dim >= kBatchBase ? bindings.batchShape[dim - kBatchBase]
                                        : bindings.extents[dim]);
    numPoints *= extents.back();
  }
}

int64_t Evaluator::getElement(const ArrayView &view,
                              llvm::ArrayRef<int64_t> tensorDims,
                              size_t k) const {
  int64_t element = view.offset;
  for (auto [dim, stride] : llvm::zip(tensorDims, view.strides)) {
    size_t position = llvm::find(dims, dim) - dims.begin();
    element += coords[position][k] * stride;
  }
  return element;
}

CompareResult Evaluator::run(const ArrayView &output,
                             const CheckOptions &options, int64_t begin,
                             int64_t end) {
  Tolerance tolerance = getDefaultTolerance(output.array->getDType());
  tolerance.rtol = options.rtol.value_or(tolerance.rtol);
  tolerance.atol = options.atol.value_or(tolerance.atol);
  ResultComparer comparer(*output.array, tolerance, options.numWorst,
                          output.secondRun);
  const Expr &value = *kernel.getReturn().getValues()[result];
  DType dtype = kernel.getResultType(result).dtype;
  coords.assign(dims.size(), {});
  for (blockBegin = begin; blockBegin < end; blockBegin += kBlockSize) {
    blockSize = std::min(kBlockSize, end - blockBegin);
    // Each point's coordinates, row-major: the first from the flat index,
    // the rest by counting on.
    for (auto &column : coords)
      column.resize(blockSize);
    int64_t rest = blockBegin;
    for (size_t d = dims.size(); d-- > 0;) {
      coords[d][0] = rest % extents[d];
      rest /= extents[d];
    }
    for (int64_t k = 1; k < blockSize; ++k) {
      bool carry = true;
      for (size_t d = dims.size(); d-- > 0;) {
        coords[d][k] = coords[d][k - 1] + (carry ? 1 : 0);
        carry = coords[d][k] == extents[d];
        if (carry)
          coords[d][k] = 0;
      }
    }
    params.assign(kernel.getParams().size(), nullptr);
    lets.clear();
    blockMaxRuns.clear();
    // The result is rounded to its declared type, once; a scalar fills.
    ColumnPtr column = convert(eval(value), dtype);
    for (int64_t k = 0; k < blockSize; ++k) {
      ExpectedElement expected;
      if (isFloat(column->dtype)) {
        expected.value = column->f(k);
        expected.slack = column->e(k);
      } else {
        expected.intValue = column->i(k);
        expected.unsure = column->u(k);
      }
      comparer.check(blockBegin + k, getElement(output, dims, k), expected);
    }
  }
  return comparer.finish();
}

ColumnPtr Evaluator::eval(const Expr &expr) {
  switch (expr.getKind()) {
  case Expr::Expr_Number:
  case Expr::Expr_Bool:
    return evalLiteral(expr);
  case Expr::Expr_Name: {
    auto &name = cast<NameExpr>(expr);
    if (const ParamDecl *param = name.getParam())
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

ColumnPtr Evaluator::evalParam(const ParamDecl &param) {
  ColumnPtr &slot = params[param.getIndex()];
  if (slot)
    return slot;
  const ArrayView &input = inputs[param.getIndex()];
  auto column = std::make_shared<Column>();
  // f16 and bf16 values are exact in f32, their compute type.
  column->dtype = getComputeDType(param.getDType());
  column->isTensor = param.isTensor();
  size_t size = getSize(column->isTensor);
  std::vector<int64_t> tensorDims;
  if (param.isTensor())
    tensorDims = expandDims(param.getTypeSpec(), bindings.batchShape.size());
  // The element each point reads: the point's coordinates along the
  // parameter's own dimensions (broadcasting by name).
  auto element = [&](size_t k) {
    return param.isTensor() ? getElement(input, tensorDims, k) : input.offset;
  };
  if (isFloat(column->dtype)) {
    column->floats.resize(size);
    for (size_t k = 0; k < size; ++k)
      column->floats[k] = input.array->getAsDouble(element(k));
  } else {
    column->ints.resize(size);
    for (size_t k = 0; k < size; ++k)
      column->ints[k] = input.array->getAsInt(element(k));
  }
  slot = column;
  return slot;
}

ColumnPtr Evaluator::evalDim(const OpExpr &op) {
  // index(d): each point's coordinate along d; size(d): d's extent.
  auto column = std::make_shared<Column>();
  column->dtype = DType::I64;
  if (op.getOp() == OpKind::Size) {
    column->ints = {bindings.extents[op.getDim()]};
    return column;
  }
  column->isTensor = true;
  if (op.getOp() == OpKind::IndexFlat) {
    // index_flat(): the row-major position in the batch, from the batch's
    // coordinates and its shape as bound (before any merging).
    column->ints.assign(blockSize, 0);
    for (size_t k = 0; k < bindings.batchShape.size(); ++k) {
      size_t position =
          llvm::find(dims, kBatchBase + int64_t(k)) - dims.begin();
      for (size_t p = 0; p < size_t(blockSize); ++p)
        column->ints[p] = column->ints[p] * bindings.batchShape[k] +
                          (position < dims.size() ? coords[position][p] : 0);
    }
    return column;
  }
  size_t position = llvm::find(dims, int64_t(op.getDim())) - dims.begin();
  column->ints.assign(coords[position].begin(), coords[position].end());
  return column;
}

std::vector<int64_t> Evaluator::expandShape(llvm::ArrayRef<DimId> shape) const {
  bool hasBatch =
      !kernel.getDims().empty() && kernel.getDims().front() == kBatchDimName;
  std::vector<int64_t> expanded;
  for (DimId id : shape) {
    if (hasBatch && id == 0) {
      for (size_t k = 0; k < bindings.batchShape.size(); ++k)
        expanded.push_back(kBatchBase + k);
      continue;
    }
    expanded.push_back(id);
  }
  return expanded;
}

ColumnPtr Evaluator::evalCombine(const OpExpr &op) {
  const Expr &operand = op.getOperand(0);
  DType dtype = getComputeDType(op.getOperandDType());
  bool isScan = getOpClass(op.getOp()) == OpClass::Scan;
  // The operand ranges over the kept dimensions (the key of a value) and
  // the combined ones, which vary fastest, in the order written.
  std::vector<int64_t> combined;
  for (DimId dim : op.getReducedDims())
    combined.push_back(dim);
  std::vector<int64_t> keyDims;
  for (int64_t dim : expandShape(operand.getType().shape))
    if (!llvm::is_contained(combined, dim))
      keyDims.push_back(dim);
  int64_t run = 1;
  for (int64_t dim : combined)
    run *= getExtent(dim);

  // Each point's key, and the keys not folded yet.
  auto position = [&](int64_t dim) {
    return static_cast<size_t>(llvm::find(dims, dim) - dims.begin());
  };
  auto &cache = combines[&op];
  size_t size = getSize(op.getType().isTensor());
  std::vector<std::vector<int64_t>> keys(size);
  std::vector<std::vector<int64_t>> missing;
  for (size_t k = 0; k < size; ++k) {
    for (int64_t dim : keyDims)
      keys[k].push_back(coords[position(dim)][k]);
    if (!cache.count(keys[k])) {
      cache[keys[k]];
      missing.push_back(keys[k]);
    }
  }

  if (!missing.empty()) {
    // Evaluate the operand over the missing keys' runs, a block of points at
    // a time, in a scope of its own (the `let`s and parameters of the outer
    // points do not hold there), folding each run in order.
    std::vector<int64_t> savedDims = std::move(dims);
    std::vector<std::vector<int64_t>> savedCoords = std::move(coords);
    int64_t savedSize = blockSize;
    std::vector<ColumnPtr> savedParams = std::move(params);
    llvm::DenseMap<const LetStmt *, ColumnPtr> savedLets = std::move(lets);
    auto savedMaxRuns = std::move(blockMaxRuns);
    blockMaxRuns.clear();
    dims = keyDims;
    llvm::append_range(dims, combined);
    std::vector<int64_t> combinedExtents;
    for (int64_t dim : combined)
      combinedExtents.push_back(getExtent(dim));

    int64_t total = static_cast<int64_t>(missing.size()) * run;
    std::vector<ref::Folder> folders(missing.size(),
                                     ref::Folder(op.getOp(), dtype));
    bool keepRun = op.getOp() == OpKind::Amax && isFloat(dtype);
    std::vector<MaxRun> runs(keepRun ? missing.size() : 0);
    bool isSum = op.getOp() == OpKind::Sum || op.getOp() == OpKind::Mean;
    for (int64_t begin = 0; begin < total; begin += kBlockSize) {
      blockSize = std::min(kBlockSize, total - begin);
      coords.assign(dims.size(), std::vector<int64_t>(blockSize));
      for (int64_t k = 0; k < blockSize; ++k) {
        int64_t point = begin + k;
        const std::vector<int64_t> &key = missing[point / run];
        for (size_t d = 0; d < keyDims.size(); ++d)
          coords[d][k] = key[d];
        int64_t rest = point % run;
        for (size_t d = combined.size(); d-- > 0;) {
          coords[keyDims.size() + d][k] = rest % combinedExtents[d];
          rest /= combinedExtents[d];
        }
      }
      params.assign(kernel.getParams().size(), nullptr);
      lets.clear();
      blockMaxRuns.clear();
      if (isSum)
        enclosingSums.push_back(op.getReducedDims());
      ColumnPtr values = convert(eval(operand), dtype);
      if (isSum)
        enclosingSums.pop_back();
      for (int64_t k = 0; k < blockSize; ++k) {
        int64_t point = begin + k;
        ref::Folder &folder = folders[point / run];
        if (keepRun && !std::isnan(values->f(k))) {
          MaxRun &maxRun = runs[point / run];
          maxRun.top.push_back(values->f(k));
          ++maxRun.count;
          if (maxRun.top.size() >= 2 * kMaxRunValues)
            maxRun.prune();
        }
        if (isFloat(dtype))
          folder.addFloat(values->f(k), values->e(k), values->m(k));
        else
          folder.addInt(values->i(k), values->u(k));
        if (isScan)
          cache[missing[point / run]].push_back(folder.finish());
      }
    }
    for (auto [key, folder] : llvm::zip(missing, folders))
      if (!isScan)
        cache[key].push_back(folder.finish());
    for (auto [key, maxRun] : llvm::zip(missing, runs)) {
      maxRun.prune();
      maxRuns[&op][key] = std::move(maxRun);
    }

    dims = std::move(savedDims);
    coords = std::move(savedCoords);
    blockSize = savedSize;
    params = std::move(savedParams);
    lets = std::move(savedLets);
    blockMaxRuns = std::move(savedMaxRuns);
  }
  if (op.getOp() == OpKind::Amax && isFloat(dtype)) {
    std::vector<const MaxRun *> &runs = blockMaxRuns[&op];
    runs.resize(size);
    for (size_t k = 0; k < size; ++k)
      runs[k] = &maxRuns[&op][keys[k]];
  }

  // A scan's value at a point is its run's prefix up to the point's
  // coordinate along the scanned dimension.
  ColumnBuilder out(dtype, op.getType().isTensor(), size);
  for (size_t k = 0; k < size; ++k) {
    const std::vector<ref::Folded> &values = cache[keys[k]];
    const ref::Folded &value =
        isScan ? values[coords[position(combined[0])][k]] : values[0];
    if (isFloat(dtype))
      out.setFloat(k, value.value, value.slack);
    else
      out.setInt(k, value.intValue, value.unsure);
  }
  ColumnPtr result = out.finish();
  // mean = sum / the number of elements, as a division (its rounding, and
  // 0 / 0 = NaN for none).
  if (op.getOp() != OpKind::Mean)
    return result;
  auto count = std::make_shared<Column>();
  count->dtype = dtype;
  count->floats = {ref::convertIntToFloat(run, DType::I64, dtype)};
  return evalFloatOp(OpKind::Div, dtype, op.getType().isTensor(),
                     {result, count});
}

ColumnPtr Evaluator::evalLiteral(const Expr &expr) {
  auto column = std::make_shared<Column>();
  column->dtype = getComputeDType(expr.getType().dtype);
  if (auto *b = dyn_cast<BoolExpr>(&expr)) {
    column->ints = {b->getValue() ? 1 : 0};
    return column;
  }
  auto &number = cast<NumberExpr>(expr);
  // A literal is the constant of its context's compute type: 0.1 next to a
  // bf16 tensor is the f32 nearest to 0.1.
  // The reference reads the spelling itself (parseDecimal), integer
  // literals in a float context too, and rounds it once.
  if (isFloat(column->dtype))
    column->floats = {*parseDecimal(number.getSpelling(), column->dtype)};
  else
    column->ints = {number.getIntValue()};
  return column;
}

ColumnPtr Evaluator::convert(ColumnPtr column, DType to) {
  DType from = column->dtype;
  if (from == to)
    return column;
  const Column &a = *column;
  size_t size = getSize(a.isTensor);
  ColumnBuilder out(to, a.isTensor, size);
  for (size_t k = 0; k < size; ++k) {
    if (isFloat(from)) {
      double v = a.f(k), e = a.e(k);
      if (isFloat(to)) {
        double r = ref::roundTo(v, to);
        // A type without infinities (f8e4m3) takes a number past its range
        // to NaN: an interval with both corners past it, one on each side,
        // still holds the finite numbers between them, which the corners
        // do not see (ewc-fuzz --seed 80 --generic --random, program 1720:
        // an f8e4m3 result of (x % s) * -5350, the remainder anywhere in
        // (-1.2, 1.2), was expected NaN; the CPU gave -208).
        double largest =
            llvm::APFloat::getLargest(getFloatSemantics(to)).convertToDouble();
        if (e != 0 && std::isnan(r) && !std::isnan(v) && v - e <= largest &&
            v + e >= -largest) {
          out.setFloat(k, r, kInfinity);
          continue;
        }
        out.setFloat(
            k, r,
            propagate([&](double x, double) { return ref::roundTo(x, to); }, r,
                      to, v, e, 0, 0, 0));
      } else if (to == DType::Bool) {
        // x != 0: NaN is true, -0.0 false. Undecidable within the slack.
        out.setInt(k, v != 0, e != 0 && !(std::fabs(v) > e));
      } else {
        int64_t r = ref::convertFloatToInt(v, to);
        bool unsure = e != 0 && (std::isinf(e) ||
                                 ref::convertFloatToInt(v - e, to) != r ||
                                 ref::convertFloatToInt(v + e, to) != r);
        out.setInt(k, r, unsure);
      }
      continue;
    }
    int64_t v = a.i(k);
    bool unsure = a.u(k);
    if (isFloat(to))
      out.setFloat(k, ref::convertIntToFloat(v, from, to),
                   unsure ? kInfinity : 0);
    else if (to == DType::Bool)
      out.setInt(k, v != 0, unsure);
    else
      out.setInt(k, wrapToIntegerType(v, to), unsure);
  }
  return out.finish();
}

/// The bits of each element of `column` (values of its own type, which
/// holds them exactly) read as `to`'s. The reference holds floats as
/// doubles, which keep no NaN payload: a NaN's bits are those of the quiet
/// NaN with its sign, the element unsure where they reach an integer (or
/// another float type, which could read a payload as a number); an
/// element within a slack is unsure too.
ColumnPtr Evaluator::evalBitcast(ColumnPtr column, DType to) {
  const Column &a = *column;
  DType from = a.dtype;
  size_t size = getSize(a.isTensor);
  ColumnBuilder out(to, a.isTensor, size);
  unsigned width = getDTypeSize(from) * 8;
  uint64_t mask = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  for (size_t k = 0; k < size; ++k) {
    uint64_t bits;
    bool unsure;
    if (isFloat(from)) {
      double v = a.f(k);
      bits = getFloatBits(v, from);
      unsure = a.e(k) != 0 || std::isnan(v);
    } else {
      bits = static_cast<uint64_t>(a.i(k)) & mask;
      unsure = a.u(k);
    }
    if (isFloat(to))
      out.setFloat(k, getFloatFromBits(bits, to), unsure ? kInfinity : 0);
    else
      out.setInt(k, wrapToIntegerType(static_cast<int64_t>(bits), to), unsure);
  }
  return out.finish();
}

ColumnPtr Evaluator::evalOp(const OpExpr &op) {
  if (op.isReduceOrScan())
    return evalCombine(op);
  // Every value operand is converted to the type the op computes in, as
  // MLIRGen does; `where`'s condition is bool.
  DType dtype = getComputeDType(op.getOperandDType());
  llvm::SmallVector<ColumnPtr, 3> operands;
  for (auto [index, operand] : llvm::enumerate(op.getOperands())) {
    ColumnPtr value = eval(*operand);
    bool isCondition = op.getOp() == OpKind::Where && index == 0;
    bool keepsType = isCondition || getOpClass(op.getOp()) == OpClass::Random;
    operands.push_back(keepsType ? value : convert(value, dtype));
  }
  bool isTensor = op.getType().isTensor();

  switch (getOpClass(op.getOp())) {
  case OpClass::Dim:
    return evalDim(op);
  case OpClass::Cast: {
    DType target = op.getCastType();
    if (op.getOp() == OpKind::Bitcast)
      return convert(
          evalBitcast(convert(operands[0], op.getOperandDType()), target),
          getComputeDType(target));
    // Round to the cast's type, then back to its compute type (f16 and bf16
    // values are computed in f32).
    return convert(convert(operands[0], target), getComputeDType(target));
  }
  case OpClass::Cmp:
    return evalCmp(op.getPredicate(), isTensor, *operands[0], *operands[1]);
  case OpClass::Classify:
    return evalClassify(op.getOp(), dtype, isTensor, *operands[0]);
  case OpClass::Where:
    return evalWhere(isTensor, *operands[0], *operands[1], *operands[2]);
  case OpClass::Random:
    return evalRandom(op.getOp(), op.getOperand(1).getType().dtype, isTensor,
                      *operands[0], *operands[1]);
  case OpClass::Arith:
  case OpClass::Math:
  case OpClass::Logic:
  case OpClass::Bits:
    break;
  case OpClass::Reduce:
  case OpClass::Scan:
    llvm_unreachable("handled by evalCombine");
  }
  if (op.getOp() == OpKind::Clamp) {
    // clamp(x, lo, hi) = min(max(x, lo), hi).
    ColumnPtr low = isFloat(dtype) ? evalFloatOp(OpKind::Max, dtype, isTensor,
                                                 {operands[0], operands[1]})
                                   : evalIntOp(OpKind::Max, dtype, isTensor,
                                               {operands[0], operands[1]});
    return isFloat(dtype)
               ? evalFloatOp(OpKind::Min, dtype, isTensor, {low, operands[2]})
               : evalIntOp(OpKind::Min, dtype, isTensor, {low, operands[2]});
  }
  if (op.getOp() == OpKind::Exp)
    return addRescaleSlack(
        op, evalFloatOp(op.getOp(), dtype, isTensor, operands), *operands[0]);
  if (isFloat(dtype))
    return evalFloatOp(op.getOp(), dtype, isTensor, operands);
  return evalIntOp(op.getOp(), dtype, isTensor, operands);
}

void Evaluator::MaxRun::prune() {
  llvm::sort(top);
  top.erase(std::unique(top.begin(), top.end()), top.end());
  if (top.size() > kMaxRunValues) {
    top.erase(top.begin(), top.end() - kMaxRunValues);
    truncated = true;
  }
}

/// `expr`, or the initializer of the `let` it names (at any depth).
static const Expr &lookThroughLets(const Expr &expr) {
  const Expr *e = &expr;
  while (auto *name = dyn_cast<NameExpr>(e)) {
    if (!name->getLet())
      break;
    e = &name->getLet()->getInit();
  }
  return *e;
}

// The GPU's online groups (docs/design.md, "Online groups") compute a sum
// of exp(a - max) times other factors in one pass: a lane's running max m
// grows, its sums are rescaled by exp(m_old - m_new) each time, and partial
// states (lanes, warps, a row's blocks) merge by rescaling the smaller
// max's sums. An element's term is then exp(a - m_1) exp(m_1 - m_2) ...
// exp(m_R - M), a <= m_1 < ... < M, where the reference has the one
// exp(a - M): R more exponentials and products, each off by its ulps and a
// rounding, and arguments rounded apart whose errors add up to 2u |a - M|
// against the reference's one subtraction (u the unit roundoff; the
// arguments' magnitudes sum to |a - M|). Each m_i is a value of the run
// larger than a, so R is at most the count of distinct run values at or
// above a, whatever the schedule. Only inside a sum over the max's
// dimensions: elsewhere (softmax's points) the kernel takes exp(a - M). The
// sum's own slack then covers any order of the terms (Combine.h). ewc-fuzz
// --seed 9146 on an H100, 2026-12-06, program 1000000137: a softmax-weighted
// sum over 6 elements split across 2 blocks was 8 ulps off where the reference
// allowed 7.8.
ColumnPtr Evaluator::addRescaleSlack(const OpExpr &exp, ColumnPtr value,
                                     const Column &x) {
  if (!isFloat(value->dtype))
    return value;
  auto *sub = dyn_cast<OpExpr>(&lookThroughLets(exp.getOperand(0)));
  if (!sub || sub->getOp() != OpKind::Sub)
    return value;
  auto *max = dyn_cast<OpExpr>(&lookThroughLets(sub->getOperand(1)));
  if (!max || max->getOp() != OpKind::Amax)
    return value;
  // Only a sum over the max's dimensions rescales (softmax's exp(x - mx) at
  // its points is computed once, against the row's max).
  auto sameDims = [&](llvm::ArrayRef<DimId> dims) {
    return dims.size() == max->getReducedDims().size() &&
           llvm::all_of(dims, [&](DimId dim) {
             return llvm::is_contained(max->getReducedDims(), dim);
           });
  };
  if (llvm::none_of(enclosingSums, sameDims))
    return value;
  auto runs = blockMaxRuns.find(max);
  if (runs == blockMaxRuns.end())
    return value;
  double u = value->dtype == DType::F64 ? 0x1p-53 : 0x1p-24;
  double perFactor = (ref::getMathUlps(OpKind::Exp) + 1) * 2 * u;
  size_t size = getSize(value->isTensor);
  auto column = std::make_shared<Column>(*value);
  if (column->slack.empty())
    column->slack.assign(column->floats.size(), 0);
  column->reach.resize(column->floats.size());
  for (size_t k = 0; k < size; ++k) {
    const MaxRun &run = *runs->second[std::min(k, runs->second.size() - 1)];
    double r = column->floats[column->index(k)];
    double arg = x.f(k);
    // The group adds exp(a - m) for the running max m, a <= m <= M: up to
    // 1 where the reference's exp(a - M) is smaller, or 0 (Column::reach).
    column->reach[column->index(k)] =
        std::isfinite(arg) ? std::fmax(std::fabs(r), 1.0) : std::fabs(r);
    if (run.top.empty() || r == 0 || !std::isfinite(r) || !std::isfinite(arg))
      continue;
    // a = arg + max: the run's values at or above it are the rescales'
    // (below the values kept, at most all of the run's).
    double a = arg + run.top.back();
    double above =
        run.truncated && a < run.top.front()
            ? static_cast<double>(run.count)
            : static_cast<double>(
                  run.top.end() -
                  std::lower_bound(run.top.begin(), run.top.end(), a));
    double extra = std::fabs(r) * (above * perFactor + 2 * u * std::fabs(arg));
    double &slack = column->slack[column->index(k)];
    slack += extra;
  }
  return column;
}

ColumnPtr Evaluator::evalFloatOp(OpKind op, DType dtype, bool isTensor,
                                 llvm::ArrayRef<ColumnPtr> operands) {
  size_t size = getSize(isTensor);
  const Column &a = *operands[0];
  const Column &b = operands.size() > 1 ? *operands[1] : a;
  bool unary = operands.size() == 1;
  bool isMath = getOpClass(op) == OpClass::Math;
  unsigned ulps = isMath ? ref::getMathUlps(op) : 0;
  // The exact function (in double); rounding to `dtype` makes it the
  // correctly rounded op of the compute type.
  auto f = [op](double x, double y) -> double {
    switch (op) {
    case OpKind::Add:
      return x + y;
    case OpKind::Sub:
      return x - y;
    case OpKind::Mul:
      return x * y;
    case OpKind::Div:
      return x / y;
    case OpKind::Max:
      return ref::maximum(x, y);
    case OpKind::Min:
      return ref::minimum(x, y);
    case OpKind::Neg:
      return -x;
    case OpKind::Abs:
      return std::fabs(x);
    case OpKind::Floor:
      return std::floor(x);
    case OpKind::Ceil:
      return std::ceil(x);
    case OpKind::Trunc:
      return std::trunc(x);
    case OpKind::Round:
      // Ties to even whatever the rounding mode: nearbyint would follow it.
      return ref::roundHalfEven(x);
    case OpKind::Fmod:
      return std::fmod(x, y); // exact
    case OpKind::Remainder:
      return ref::remainder(x, y);
    case OpKind::Sign:
      return x > 0 ? 1.0 : x < 0 ? -1.0 : x;
    default:
      return ref::applyMath(op, x, y);
    }
  };
  if (op == OpKind::Fma)
    return evalFma(dtype, isTensor, operands);
  ColumnBuilder out(dtype, isTensor, size);
  bool exact = a.isExact() && b.isExact() && !isMath;
  for (size_t k = 0; k < size; ++k) {
    double x = a.f(k), y = unary ? 0 : b.f(k);
    double r = ref::roundTo(f(x, y), dtype);
    if (exact) {
      out.setFloat(k, r, 0);
      continue;
    }
    double ex = a.e(k), ey = unary ? 0 : b.e(k);
    // A divisor that may be zero makes anything possible.
    if (op == OpKind::Div && ey != 0 && !(std::fabs(y) > ey)) {
      out.setFloat(k, r, kInfinity);
      continue;
    }
    if (op == OpKind::Fmod || op == OpKind::Remainder) {
      // A saw: an operand off by its slack may land past a multiple of y,
      // anywhere in (-|y|, |y|) (fmod) or between 0 and y (remainder); a y
      // that may be 0 makes it NaN.
      // An x that may be anything (NaN, infinity) makes it anything too
      // (ewc-fuzz --seed 46, program 2033: remainder(acos(rsqrt(x)), y) with
      // rsqrt(x) = 1 +- 2 ulps, whose acos may be NaN, was expected finite).
      double bound = std::fabs(y) + ey;
      bool mayBeZero = ey != 0 && !(std::fabs(y) > ey);
      out.setFloat(k, r,
                   mayBeZero || std::isinf(bound) || std::isinf(ex)
                       ? kInfinity
                       : 2 * bound);
      continue;
    }
    if ((op == OpKind::Pow && powMayMeetSpecialCase(x, ex, y, ey)) ||
        mayMeetTwoSidedDomain(op, x, ex, r)) {
      out.setFloat(k, r, kInfinity);
      continue;
    }
    double slack = propagate(f, r, dtype, x, ex, y, ey, ulps);
    if (ex != 0 &&
        (op == OpKind::Sin || op == OpKind::Cos || op == OpKind::Tan))
      slack = std::max(slack, periodicSlack(op, x, ex));
    out.setFloat(k, r, slack);
  }
  // An online group's term is a product with its exp(a - M) as one factor
  // (Column::reach): products, quotients and negations of it keep the
  // factor's reach.
  bool keepsReach =
      op == OpKind::Mul
          ? !a.reach.empty() || !b.reach.empty()
          : (op == OpKind::Div || op == OpKind::Neg) && !a.reach.empty();
  if (keepsReach)
    for (size_t k = 0; k < size; ++k)
      out.setReach(k, op == OpKind::Mul   ? a.m(k) * b.m(k)
                      : op == OpKind::Div ? a.m(k) / std::fabs(b.f(k))
                                          : a.m(k));
  return out.finish();
}

ColumnPtr Evaluator::evalFma(DType dtype, bool isTensor,
                             llvm::ArrayRef<ColumnPtr> operands) {
  size_t size = getSize(isTensor);
  const Column &a = *operands[0], &b = *operands[1], &c = *operands[2];
  bool exact = a.isExact() && b.isExact() && c.isExact();
  ColumnBuilder out(dtype, isTensor, size);
  for (size_t k = 0; k < size; ++k) {
    double x = a.f(k), y = b.f(k), z = c.f(k);
    double r = ref::fusedMultiplyAdd(x, y, z, dtype);
    if (exact) {
      out.setFloat(k, r, 0);
      continue;
    }
    double ex = a.e(k), ey = b.e(k), ez = c.e(k);
    if (std::isinf(ex) || std::isinf(ey) || std::isinf(ez)) {
      out.setFloat(k, r, kInfinity);
      continue;
    }
    // x * y + z over the corners of the three intervals (bilinear in x and
    // y, linear in z: the corners bound it), as cornerDeviation does for
    // two operands, plus the kernel's own rounding as propagate adds it.
    double deviation = 0;
    for (double cx : {x - ex, x + ex})
      for (double cy : {y - ey, y + ey})
        for (double cz : {z - ez, z + ez})
          deviation = std::max(deviation, cornerChange(cx * cy + cz, r, dtype));
    if (!std::isnan(r) && !std::isinf(deviation))
      deviation += ref::getUlp(r, dtype);
    out.setFloat(k, r, deviation);
  }
  return out.finish();
}

ColumnPtr Evaluator::evalIntOp(OpKind op, DType dtype, bool isTensor,
                               llvm::ArrayRef<ColumnPtr> operands) {
  size_t size = getSize(isTensor);
  const Column &a = *operands[0];
  const Column &b = operands.size() > 1 ? *operands[1] : a;
  ColumnBuilder out(dtype, isTensor, size);
  // Unsigned arithmetic wraps without undefined behaviour; the result is
  // then wrapped to the type's width.
  auto wrap = [dtype](uint64_t v) {
    return wrapToIntegerType(static_cast<int64_t>(v), dtype);
  };
  for (size_t k = 0; k < size; ++k) {
    int64_t x = a.i(k), y = b.i(k);
    uint64_t ux = static_cast<uint64_t>(x), uy = static_cast<uint64_t>(y);
    bool unsure = a.u(k) || b.u(k);
    int64_t r = 0;
    switch (op) {
    case OpKind::Add:
      r = wrap(ux + uy);
      break;
    case OpKind::Sub:
      r = wrap(ux - uy);
      break;
    case OpKind::Mul:
      r = wrap(ux * uy);
      break;
    case OpKind::Div:
      r = ref::divideInt(x, y, dtype);
      break;
    case OpKind::Fmod:
      r = ref::remainderInt(x, y, dtype, /*signOfDivisor=*/false);
      break;
    case OpKind::Remainder:
      r = ref::remainderInt(x, y, dtype, /*signOfDivisor=*/true);
      break;
    case OpKind::Sign:
      r = isUnsignedInteger(dtype) ? x != 0 : (x > 0) - (x < 0);
      break;
    case OpKind::BitAnd:
      r = x & y;
      break;
    case OpKind::BitOr:
      r = x | y;
      break;
    case OpKind::BitXor:
      r = x ^ y;
      break;
    case OpKind::BitNot:
      r = wrap(~ux); // ~ of an unsigned value sets its high bits
      break;
    case OpKind::Shl:
      r = ref::shiftLeft(x, y, dtype);
      break;
    case OpKind::Shr:
      r = ref::shiftRight(x, y, dtype);
      break;
    case OpKind::Neg:
      r = wrap(0 - ux);
      break;
    case OpKind::Abs:
      r = x < 0 && !isUnsignedInteger(dtype) ? wrap(0 - ux) : x;
      break;
    case OpKind::Floor:
    case OpKind::Ceil:
    case OpKind::Trunc:
    case OpKind::Round:
      r = x; // integral already
      break;
    case OpKind::Max:
      r = ref::lessInt(x, y, dtype) ? y : x;
      break;
    case OpKind::Min:
      r = ref::lessInt(y, x, dtype) ? y : x;
      break;
    case OpKind::And:
      // false && anything is false, however unsure the other side.
      r = x && y;
      unsure = (a.u(k) && (b.u(k) || y)) || (b.u(k) && x);
      break;
    case OpKind::Or:
      r = x || y;
      unsure = (a.u(k) && (b.u(k) || !y)) || (b.u(k) && !x);
      break;
    case OpKind::Not:
      r = !x;
      break;
    default:
      llvm_unreachable("not an integer or bool op");
    }
    out.setInt(k, r, unsure);
  }
  return out.finish();
}

ColumnPtr Evaluator::evalClassify(OpKind op, DType dtype, bool isTensor,
                                  const Column &a) {
  size_t size = getSize(isTensor);
  ColumnBuilder out(DType::Bool, isTensor, size);
  for (size_t k = 0; k < size; ++k) {
    if (!isFloat(dtype)) {
      // Whatever its value, an integer is finite.
      out.setInt(k, op == OpKind::IsFinite, false);
      continue;
    }
    double x = a.f(k);
    bool r = op == OpKind::IsNan   ? std::isnan(x)
             : op == OpKind::IsInf ? std::isinf(x)
                                   : std::isfinite(x);
    // A finite slack already says that the compiled value is NaN exactly
    // where this one is (cornerDeviation); it may still be infinite where
    // this one is finite if the slack reaches past the largest finite value
    // (a math function's ulps at the edge of the range).
    double e = a.e(k);
    double largest = dtype == DType::F32 ? std::numeric_limits<float>::max()
                                         : std::numeric_limits<double>::max();
    bool unsure = std::isinf(e) || (op != OpKind::IsNan && std::isfinite(x) &&
                                    e != 0 && std::fabs(x) + e >= largest);
    out.setInt(k, r, unsure);
  }
  return out.finish();
}

ColumnPtr Evaluator::evalCmp(CmpPredicate pred, bool isTensor, const Column &a,
                             const Column &b) {
  size_t size = getSize(isTensor);
  ColumnBuilder out(DType::Bool, isTensor, size);
  // C++'s operators have IEEE semantics: NaN compares false except `!=`.
  auto compare = [pred](auto x, auto y) -> bool {
    switch (pred) {
    case CmpPredicate::Eq:
      return x == y;
    case CmpPredicate::Ne:
      return x != y;
    case CmpPredicate::Lt:
      return x < y;
    case CmpPredicate::Le:
      return x <= y;
    case CmpPredicate::Gt:
      return x > y;
    case CmpPredicate::Ge:
      return x >= y;
    }
    llvm_unreachable("unknown CmpPredicate");
  };
  for (size_t k = 0; k < size; ++k) {
    if (a.dtype == DType::U64) {
      // Its int64 form is out of order from 2^63 on.
      out.setInt(
          k,
          compare(static_cast<uint64_t>(a.i(k)), static_cast<uint64_t>(b.i(k))),
          a.u(k) || b.u(k));
      continue;
    }
    if (!isFloat(a.dtype)) {
      out.setInt(k, compare(a.i(k), b.i(k)), a.u(k) || b.u(k));
      continue;
    }
    double x = a.f(k), y = b.f(k), e = a.e(k) + b.e(k);
    // Operands closer than their slacks may compare either way.
    bool unsure = e != 0 && !(std::fabs(x - y) > e);
    out.setInt(k, compare(x, y), unsure);
  }
  return out.finish();
}

ColumnPtr Evaluator::evalWhere(bool isTensor, const Column &c, const Column &t,
                               const Column &f) {
  size_t size = getSize(isTensor);
  ColumnBuilder out(t.dtype, isTensor, size);
  for (size_t k = 0; k < size; ++k) {
    bool pick = c.i(k) != 0;
    const Column &chosen = pick ? t : f, &other = pick ? f : t;
    if (isFloat(t.dtype)) {
      double slack = chosen.e(k);
      // An undecidable condition allows either value (and either sign of a
      // zero: the slack must not be zero then).
      double x = chosen.f(k), y = other.f(k);
      if (c.u(k) && (x != y || std::signbit(x) != std::signbit(y))) {
        double gap = x == y ? ref::getUlp(0, t.dtype) : std::fabs(x - y);
        slack = std::isnan(gap) ? kInfinity : std::max(slack, gap + other.e(k));
      }
      out.setFloat(k, chosen.f(k), slack);
    } else {
      bool unsure =
          chosen.u(k) || (c.u(k) && (other.u(k) || other.i(k) != chosen.i(k)));
      out.setInt(k, chosen.i(k), unsure);
    }
  }
  return out.finish();
}

ColumnPtr Evaluator::evalRandom(OpKind op, DType offsetType, bool isTensor,
                                const Column &seed, const Column &offset) {
  size_t size = getSize(isTensor);
  bool isBits = op == OpKind::Randint;
  ColumnBuilder out(isBits ? DType::I32 : DType::F32, isTensor, size);
  for (size_t k = 0; k < size; ++k) {
    int64_t s = seed.i(k), o = offset.i(k);
    // A seed or an offset that correct code may compute otherwise may give
    // any number.
    bool unsure = seed.u(k) || offset.u(k);
    switch (op) {
    case OpKind::Randint:
      out.setInt(k, ref::randomBits(s, o, offsetType), unsure);
      break;
    case OpKind::Rand:
      out.setFloat(k, ref::randomUniform(s, o, offsetType),
                   unsure ? kInfinity : 0);
      break;
    default: {
      double exact = ref::randomNormal(s, o, offsetType);
      double r = ref::roundTo(exact, DType::F32);
      out.setFloat(k, r,
                   unsure ? kInfinity
                          : ref::kRandnUlps * ref::getUlp(r, DType::F32));
      break;
    }
    }
  }
  return out.finish();
}

ArrayView ArrayView::of(const HostArray &array) {
  return of(array, {array.size()});
}

ArrayView ArrayView::of(const HostArray &array, std::vector<int64_t> shape) {
  ArrayView view;
  view.array = &array;
  view.strides.resize(shape.size());
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    view.strides[i] = stride;
    stride *= shape[i];
  }
  view.shape = std::move(shape);
  return view;
}

int64_t ArrayView::getNumElements() const {
  int64_t count = 1;
  for (int64_t extent : shape)
    count *= extent;
  return count;
}

/// Binds the kernel's dimensions from the views' shapes, and checks that
/// every view fits its parameter or result.
static llvm::Expected<Bindings> bindViews(const KernelDecl &kernel,
                                          llvm::ArrayRef<ArrayView> inputs,
                                          llvm::ArrayRef<ArrayView> outputs) {
  if (inputs.size() != kernel.getParams().size())
    return llvm::createStringError(llvm::formatv(
        "kernel '{0}' has {1} parameters but got {2} inputs", kernel.getName(),
        kernel.getParams().size(), inputs.size()));
  if (outputs.size() != kernel.getResults().size())
    return llvm::createStringError(llvm::formatv(
        "kernel '{0}' has {1} results but got {2} outputs", kernel.getName(),
        kernel.getResults().size(), outputs.size()));
  Bindings bindings;
  bindings.extents.assign(kernel.getDims().size(), -1);
  std::optional<std::vector<int64_t>> batch;
  auto bind = [&](const TypeSpec &type, const ArrayView &view,
                  const std::string &what) -> llvm::Error {
    if (!view.array || view.array->getDType() != type.dtype)
      return llvm::createStringError(what + " is not an array of " +
                                     getDTypeName(type.dtype).str());
    if (!type.isTensor) {
      if (!view.shape.empty() || view.offset >= view.array->size())
        return llvm::createStringError(what + " is not a scalar");
      return llvm::Error::success();
    }
    size_t named = type.dimIds.size() - (type.hasBatch ? 1 : 0);
    if (view.shape.size() != view.strides.size() || view.shape.size() < named ||
        (!type.hasBatch && view.shape.size() != named))
      return llvm::createStringError(
          llvm::formatv("{0} has rank {1}, which its type {2} cannot have",
                        what, view.shape.size(), kernel.formatType(type)));
    size_t batchRank = view.shape.size() - named;
    if (type.hasBatch) {
      std::vector<int64_t> shape(view.shape.begin(),
                                 view.shape.begin() + batchRank);
      if (batch && *batch != shape)
        return llvm::createStringError(what + " has other leading dimensions");
      batch = shape;
    }
    std::vector<int64_t> dims = expandDims(type, batchRank);
    for (auto [dim, extent] : llvm::zip(dims, view.shape)) {
      if (dim >= kBatchBase)
        continue;
      int64_t &bound = bindings.extents[dim];
      if (bound >= 0 && bound != extent)
        return llvm::createStringError(
            llvm::formatv("{0} has {1} = {2}, another tensor {3}", what,
                          kernel.getDimName(dim), extent, bound));
      bound = extent;
    }
    // Every element of the view is inside its array.
    int64_t last = view.offset;
    for (auto [extent, stride] : llvm::zip(view.shape, view.strides)) {
      if (extent == 0)
        return llvm::Error::success();
      last += (extent - 1) * stride;
    }
    if (view.offset < 0 || last >= view.array->size())
      return llvm::createStringError(what + " reaches past its array");
    return llvm::Error::success();
  };
  for (const std::unique_ptr<ParamDecl> &param : kernel.getParams())
    if (llvm::Error error =
            bind(param->getTypeSpec(), inputs[param->getIndex()],
                 "input for parameter '" + param->getName().str() + "'"))
      return std::move(error);
  for (auto [index, type] : llvm::enumerate(kernel.getResults()))
    if (llvm::Error error =
            bind(type, outputs[index], "output " + std::to_string(index)))
      return std::move(error);
  bindings.batchShape = batch.value_or(std::vector<int64_t>());
  return bindings;
}

llvm::Expected<std::vector<CompareResult>>
ewc::checkKernel(const KernelDecl &kernel, llvm::ArrayRef<ArrayView> inputs,
                 llvm::ArrayRef<ArrayView> outputs,
                 const CheckOptions &options) {
  llvm::Expected<Bindings> bindings = bindViews(kernel, inputs, outputs);
  if (!bindings)
    return bindings.takeError();

  // Points are independent, so ranges of blocks are checked on all cores,
  // each with its own evaluator, and the verdicts merged in order. A range
  // of 256 blocks (2^20 points, a few ms) keeps the tasks coarse; at 2^31
  // points that is 2048 of them, enough to balance 16 cores.
  constexpr int64_t kRangeSize = 256 * kBlockSize;
  std::vector<CompareResult> results;
  for (unsigned r = 0; r < kernel.getResults().size(); ++r) {
    int64_t points = Evaluator(kernel, inputs, *bindings, r).getNumPoints();
    int64_t numRanges =
        std::max<int64_t>(1, (points + kRangeSize - 1) / kRangeSize);
    std::vector<CompareResult> partial(numRanges);
    auto checkRange = [&](int64_t range) {
      int64_t begin = range * kRangeSize;
      partial[range] = Evaluator(kernel, inputs, *bindings, r)
                           .run(outputs[r], options, begin,
                                std::min(points, begin + kRangeSize));
    };
    if (numRanges == 1) {
      checkRange(0);
    } else {
      llvm::DefaultThreadPool pool(llvm::hardware_concurrency());
      for (int64_t range = 0; range < numRanges; ++range)
        pool.async([&, range] { checkRange(range); });
      pool.wait();
    }
    CompareResult result = std::move(partial[0]);
    for (int64_t range = 1; range < numRanges; ++range)
      result.merge(partial[range], options.numWorst);
    result.shape = outputs[r].shape;
    results.push_back(std::move(result));
  }
  return results;
}
