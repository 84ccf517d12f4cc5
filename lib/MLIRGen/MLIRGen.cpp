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
// Values are computed in their compute type (f32 for f16 and bf16, see
// getComputeDType), so this is where mixed precision becomes explicit: an f16
// or bf16 parameter is extended with `ew.cast` at its first use, an operand
// is converted to the type its op computes in, and a result is rounded to its
// declared type at the `ew.return`. The ew ops themselves never mix types.
//
// Broadcasting by name becomes explicit here too: a value's dimensions are
// listed in the kernel's order (Kernel::getDims), and each tensor operand
// that lacks some of its op's dimensions, a parameter declared in another
// order, and a returned value are `ew.broadcast` to the dimensions they
// need, so the elementwise ops only ever see tensors of one shape.
//
//===----------------------------------------------------------------------===//

#include "ewc/MLIRGen/MLIRGen.h"
#include "ewc/Dialect/Ew/IR/EwDialect.h"
#include "ewc/Dialect/Ew/IR/EwOps.h"
#include "ewc/Frontend/AST.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLForwardCompat.h"
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

  mlir::OwningOpRef<mlir::ModuleOp> genModule(const ModuleDecl &module);

private:
  mlir::Location getLoc(llvm::SMLoc loc) {
    auto [line, col] = sourceMgr.getLineAndColumn(loc);
    return mlir::FileLineColLoc::get(fileName, line, col);
  }

  mlir::Type getElementType(DType dtype);
  /// The ew type of a value: a tensor over `type.shape` in the kernel's order
  /// of dimensions, or a scalar.
  mlir::Type getType(ValueType type);
  /// The ew type of a parameter or result: its dimensions in the declared
  /// order.
  mlir::Type getType(const TypeSpec &type);
  mlir::Type getTensorType(llvm::ArrayRef<DimId> dims, mlir::Type element);
  /// The attribute of a literal (NumberExpr or BoolExpr) as a scalar of
  /// `dtype`.
  mlir::TypedAttr getLiteralAttr(const Expr &literal, DType dtype);

  void genKernel(const KernelDecl &kernel);
  /// The value of `expr` in its compute type.
  mlir::Value genExpr(const Expr &expr);
  mlir::Value genOp(const OpExpr &op);
  /// A reduction or a scan: ew.reduce or ew.scan with its combiner.
  mlir::Value genReduce(const OpExpr &op);
  /// Converts `value` to element type `dtype` (keeping its dimensions) with
  /// an ew.cast, or returns it if it has that element type already.
  mlir::Value convert(mlir::Value value, DType dtype, mlir::Location loc);
  /// `value` as a tensor of type `type` (its element type, other dimensions):
  /// an ew.broadcast where the dimensions differ; scalars stay scalars.
  mlir::Value broadcastTo(mlir::Value value, mlir::Type type,
                          mlir::Location loc);

  mlir::OpBuilder builder;
  const llvm::SourceMgr &sourceMgr;
  mlir::StringAttr fileName;

  /// Per kernel: the kernel, the block argument of each parameter (by index)
  /// once in its compute type and the kernel's order of dimensions, and the
  /// value of each `let` emitted so far.
  const KernelDecl *kernel = nullptr;
  llvm::SmallVector<mlir::Value> paramValues;
  llvm::DenseMap<const LetStmt *, mlir::Value> letValues;
};

} // namespace

mlir::Type MLIRGenImpl::getElementType(DType dtype) {
  // Signed integers are MLIR's signless ones (as arith has them), unsigned
  // ones ui8 ... ui64: the type carries what the ops' lowering needs.
  if (isInteger(dtype))
    return mlir::IntegerType::get(
        builder.getContext(), getIntegerBitWidth(dtype),
        isUnsignedInteger(dtype) ? mlir::IntegerType::Unsigned
                                 : mlir::IntegerType::Signless);
  switch (dtype) {
  case DType::Bool:
    return builder.getI1Type();
  case DType::F16:
    return builder.getF16Type();
  case DType::BF16:
    return builder.getBF16Type();
  case DType::F32:
    return builder.getF32Type();
  case DType::F64:
    return builder.getF64Type();
  case DType::F8E4M3:
    return builder.getType<mlir::Float8E4M3FNType>();
  case DType::F8E5M2:
    return builder.getType<mlir::Float8E5M2Type>();
  default:
    llvm_unreachable("unknown DType");
  }
}

mlir::Type MLIRGenImpl::getTensorType(llvm::ArrayRef<DimId> dims,
                                      mlir::Type element) {
  llvm::SmallVector<mlir::StringAttr> names;
  for (DimId dim : dims)
    names.push_back(builder.getStringAttr(kernel->getDimName(dim)));
  return mlir::ew::NamedTensorType::get(names, element);
}

mlir::Type MLIRGenImpl::getType(ValueType type) {
  mlir::Type element = getElementType(type.dtype);
  if (!type.isTensor())
    return element;
  return getTensorType(type.shape, element);
}

mlir::Type MLIRGenImpl::getType(const TypeSpec &type) {
  mlir::Type element = getElementType(type.dtype);
  if (!type.isTensor)
    return element;
  return getTensorType(type.dimIds, element);
}

mlir::TypedAttr MLIRGenImpl::getLiteralAttr(const Expr &literal, DType dtype) {
  if (auto *b = dyn_cast<BoolExpr>(&literal))
    return builder.getBoolAttr(b->getValue());
  auto &number = cast<NumberExpr>(literal);
  mlir::Type type = getElementType(dtype);
  // Rounded from the spelling into the type once, not through a double.
  if (isFloat(dtype))
    return builder.getFloatAttr(type,
                                number.getValue(getFloatSemantics(dtype)));
  return builder.getIntegerAttr(type, number.getIntValue());
}

mlir::OwningOpRef<mlir::ModuleOp>
MLIRGenImpl::genModule(const ModuleDecl &module) {
  mlir::OwningOpRef<mlir::ModuleOp> result =
      mlir::ModuleOp::create(mlir::FileLineColLoc::get(fileName, 1, 1));
  for (const std::unique_ptr<KernelDecl> &kernel : module.getKernels()) {
    // A template (a generic kernel the binding leaves free) is compiled
    // only as a specialization, in a module of its own binding.
    if (!kernel->isBound())
      continue;
    builder.setInsertionPointToEnd(result->getBody());
    genKernel(*kernel);
  }
  if (failed(mlir::verify(*result))) {
    result->emitError("the generated module does not verify");
    return nullptr;
  }
  return result;
}

void MLIRGenImpl::genKernel(const KernelDecl &kernel) {
  this->kernel = &kernel;
  llvm::SmallVector<mlir::Type> inputs, results;
  for (const std::unique_ptr<ParamDecl> &param : kernel.getParams())
    inputs.push_back(getType(param->getTypeSpec()));
  for (const TypeSpec &result : kernel.getResults())
    results.push_back(getType(result));

  auto kernelOp = mlir::ew::KernelOp::create(
      builder, getLoc(kernel.getLoc()), kernel.getName(),
      builder.getFunctionType(inputs, results));
  mlir::Block *entry = kernelOp.addEntryBlock();

  paramValues.clear();
  letValues.clear();
  for (const std::unique_ptr<ParamDecl> &param : kernel.getParams()) {
    mlir::BlockArgument arg = entry->getArgument(param->getIndex());
    arg.setLoc(getLoc(param->getLoc()));
    paramValues.push_back(arg);
    if (const Expr *value = param->getDefault())
      kernelOp.setArgAttr(param->getIndex(),
                          mlir::ew::KernelOp::getDefaultAttrName(),
                          getLiteralAttr(*value, param->getDType()));
  }

  builder.setInsertionPointToStart(entry);
  const ReturnStmt &ret = kernel.getReturn();
  llvm::SmallVector<mlir::Value> values;
  // Each result is rounded to its declared type here, once, and broadcast
  // to the result's dimensions in their declared order. A scalar stays a
  // scalar: ew.return fills a tensor result with it.
  for (auto [index, value] : llvm::enumerate(ret.getValues())) {
    mlir::Location loc = getLoc(value->getLoc());
    mlir::Value rounded =
        convert(genExpr(*value), kernel.getResultType(index).dtype, loc);
    values.push_back(broadcastTo(rounded, results[index], loc));
  }
  mlir::ew::ReturnOp::create(builder, getLoc(ret.getLoc()), values);
}

mlir::Value MLIRGenImpl::convert(mlir::Value value, DType dtype,
                                 mlir::Location loc) {
  mlir::Type element = getElementType(dtype);
  if (mlir::ew::getElementType(value.getType()) == element)
    return value;
  mlir::Type type = mlir::ew::getBroadcastType(value.getType(), element);
  return mlir::ew::CastOp::create(builder, loc, type, value);
}

mlir::Value MLIRGenImpl::broadcastTo(mlir::Value value, mlir::Type type,
                                     mlir::Location loc) {
  auto tensor = llvm::dyn_cast<mlir::ew::NamedTensorType>(value.getType());
  auto target = llvm::dyn_cast<mlir::ew::NamedTensorType>(type);
  if (!tensor || !target)
    return value;
  target = target.withElementType(tensor.getElementType());
  if (tensor == target)
    return value;
  return mlir::ew::BroadcastOp::create(builder, loc, target, value);
}

mlir::Value MLIRGenImpl::genExpr(const Expr &expr) {
  switch (expr.getKind()) {
  case Expr::Expr_Number:
  case Expr::Expr_Bool:
    // A literal is a constant of its context's compute type: 0.1 next to a
    // bf16 tensor is the f32 nearest 0.1, as PyTorch's opmath has it.
    return mlir::ew::ConstantOp::create(
        builder, getLoc(expr.getLoc()),
        getLiteralAttr(expr, getComputeDType(expr.getType().dtype)));
  case Expr::Expr_Name: {
    auto &name = cast<NameExpr>(expr);
    if (const ParamDecl *param = name.getParam()) {
      // f16 and bf16 parameters are extended once, at their first use, and
      // a tensor declared in another order than the kernel's is put in that
      // order (no copy: ew.broadcast only renames the order).
      mlir::Value &value = paramValues[param->getIndex()];
      value =
          convert(value, getComputeDType(param->getDType()), value.getLoc());
      value = broadcastTo(value, getType(param->getType()), value.getLoc());
      return value;
    }
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

/// The identity a reduction or a scan of `kind` starts from, for elements of
/// `type`: 0 for sums (so the sum of an empty dimension, and of -0.0 alone,
/// is +0.0, as a CUDA sum from 0 gives), -inf and +inf (or the integer
/// type's extremes) for the maximum and the minimum, false for any, true for
/// all.
static mlir::TypedAttr getIdentity(mlir::OpBuilder &builder, OpKind kind,
                                   mlir::Type type) {
  bool isMax = kind == OpKind::Amax || kind == OpKind::Cummax;
  bool isMin = kind == OpKind::Amin || kind == OpKind::Cummin;
  if (auto floatType = llvm::dyn_cast<mlir::FloatType>(type)) {
    if (isMax || isMin)
      return builder.getFloatAttr(
          type, llvm::APFloat::getInf(floatType.getFloatSemantics(), isMax));
    return builder.getFloatAttr(type, 0.0);
  }
  unsigned width = type.getIntOrFloatBitWidth();
  if (kind == OpKind::All)
    return builder.getBoolAttr(true);
  bool isUnsigned = type.isUnsignedInteger();
  if (isMax)
    return builder.getIntegerAttr(
        type, isUnsigned ? llvm::APInt::getMinValue(width)
                         : llvm::APInt::getSignedMinValue(width));
  if (isMin)
    return builder.getIntegerAttr(
        type, isUnsigned ? llvm::APInt::getMaxValue(width)
                         : llvm::APInt::getSignedMaxValue(width));
  return builder.getIntegerAttr(type, 0);
}

mlir::Value MLIRGenImpl::genReduce(const OpExpr &op) {
  namespace ew = mlir::ew;
  mlir::Location loc = getLoc(op.getLoc());
  OpKind kind = op.getOp();
  // f16 and bf16 combine in f32, their compute type (torch's opmath).
  mlir::Value operand = convert(genExpr(op.getOperand(0)),
                                getComputeDType(op.getOperandDType()), loc);
  mlir::Type element = ew::getElementType(operand.getType());
  llvm::SmallVector<mlir::Attribute> dims;
  for (DimId dim : op.getReducedDims())
    dims.push_back(builder.getStringAttr(kernel->getDimName(dim)));
  // The result over the operand's other dimensions, in the kernel's order.
  mlir::Type resultType = getTensorType(op.getType().shape, element);
  if (!op.getType().isTensor())
    resultType = element;
  mlir::TypedAttr init = getIdentity(builder, kind, element);

  auto build = [&](auto opTag) {
    using Op = typename decltype(opTag)::type;
    auto combine = Op::create(builder, loc, resultType, operand,
                              builder.getArrayAttr(dims), init);
    mlir::OpBuilder::InsertionGuard guard(builder);
    mlir::Block *block = builder.createBlock(&combine.getCombiner(), {},
                                             {element, element}, {loc, loc});
    mlir::Value acc = block->getArgument(0), next = block->getArgument(1);
    mlir::Value value;
    switch (kind) {
    case OpKind::Sum:
    case OpKind::Mean:
    case OpKind::Cumsum:
      value = ew::AddOp::create(builder, loc, acc, next);
      break;
    case OpKind::Amax:
    case OpKind::Cummax:
      value = ew::MaxOp::create(builder, loc, acc, next);
      break;
    case OpKind::Amin:
    case OpKind::Cummin:
      value = ew::MinOp::create(builder, loc, acc, next);
      break;
    case OpKind::Any:
      value = ew::OrOp::create(builder, loc, acc, next);
      break;
    case OpKind::All:
      value = ew::AndOp::create(builder, loc, acc, next);
      break;
    default:
      llvm_unreachable("not a reduction or a scan");
    }
    ew::YieldOp::create(builder, loc, value);
    return combine.getResult();
  };
  if (getOpClass(kind) == OpClass::Scan)
    return build(llvm::type_identity<ew::ScanOp>());
  mlir::Value result = build(llvm::type_identity<ew::ReduceOp>());
  if (kind != OpKind::Mean)
    return result;
  // mean = sum / the number of elements combined (NaN for none: 0 / 0).
  mlir::Value count;
  for (DimId dim : op.getReducedDims()) {
    mlir::Value extent = ew::SizeOp::create(builder, loc, builder.getI64Type(),
                                            kernel->getDimName(dim));
    count = count ? ew::MulOp::create(builder, loc, count, extent).getResult()
                  : extent;
  }
  count = ew::CastOp::create(builder, loc, element, count);
  return ew::DivOp::create(builder, loc, result, count);
}

mlir::Value MLIRGenImpl::genOp(const OpExpr &op) {
  if (op.isReduceOrScan())
    return genReduce(op);
  // Operands first, left to right: this fixes the op order (see top). Each
  // is converted to the type the op computes in (`where`'s condition is
  // bool already) and broadcast to the op's dimensions.
  mlir::Location loc = getLoc(op.getLoc());
  DType computeType = getComputeDType(op.getOperandDType());
  mlir::Type shape = getType(op.getType());
  llvm::SmallVector<mlir::Value, 3> operands;
  for (auto [index, operand] : llvm::enumerate(op.getOperands())) {
    mlir::Value value = genExpr(*operand);
    // `where`'s condition is bool; a random number's seed and offset keep
    // their own integer types, which decide how they extend.
    bool isCondition = op.getOp() == OpKind::Where && index == 0;
    if (!isCondition && getOpClass(op.getOp()) != OpClass::Random)
      value = convert(value, computeType, loc);
    operands.push_back(broadcastTo(value, shape, loc));
  }
  auto unary = [&](auto opTag) {
    using Op = typename decltype(opTag)::type;
    return Op::create(builder, loc, operands[0]).getResult();
  };
  auto binary = [&](auto opTag) {
    using Op = typename decltype(opTag)::type;
    return Op::create(builder, loc, operands[0], operands[1]).getResult();
  };
  namespace ew = mlir::ew;
  switch (op.getOp()) {
  case OpKind::Add:
    return binary(llvm::type_identity<ew::AddOp>());
  case OpKind::Sub:
    return binary(llvm::type_identity<ew::SubOp>());
  case OpKind::Mul:
    return binary(llvm::type_identity<ew::MulOp>());
  case OpKind::Div:
    return binary(llvm::type_identity<ew::DivOp>());
  case OpKind::Max:
    return binary(llvm::type_identity<ew::MaxOp>());
  case OpKind::Min:
    return binary(llvm::type_identity<ew::MinOp>());
  case OpKind::And:
    return binary(llvm::type_identity<ew::AndOp>());
  case OpKind::Or:
    return binary(llvm::type_identity<ew::OrOp>());
  case OpKind::Neg:
    return unary(llvm::type_identity<ew::NegOp>());
  case OpKind::Abs:
    return unary(llvm::type_identity<ew::AbsOp>());
  case OpKind::IsNan:
    return unary(llvm::type_identity<ew::IsNanOp>());
  case OpKind::IsInf:
    return unary(llvm::type_identity<ew::IsInfOp>());
  case OpKind::IsFinite:
    return unary(llvm::type_identity<ew::IsFiniteOp>());
  case OpKind::Floor:
    return unary(llvm::type_identity<ew::FloorOp>());
  case OpKind::Ceil:
    return unary(llvm::type_identity<ew::CeilOp>());
  case OpKind::Trunc:
    return unary(llvm::type_identity<ew::TruncOp>());
  case OpKind::Round:
    return unary(llvm::type_identity<ew::RoundOp>());
  case OpKind::Not:
    return unary(llvm::type_identity<ew::NotOp>());
  case OpKind::Exp:
    return unary(llvm::type_identity<ew::ExpOp>());
  case OpKind::Log:
    return unary(llvm::type_identity<ew::LogOp>());
  case OpKind::Sqrt:
    return unary(llvm::type_identity<ew::SqrtOp>());
  case OpKind::Rsqrt:
    return unary(llvm::type_identity<ew::RsqrtOp>());
  case OpKind::Tanh:
    return unary(llvm::type_identity<ew::TanhOp>());
  case OpKind::Sigmoid:
    return unary(llvm::type_identity<ew::SigmoidOp>());
  case OpKind::Erf:
    return unary(llvm::type_identity<ew::ErfOp>());
  case OpKind::Erfc:
    return unary(llvm::type_identity<ew::ErfcOp>());
  case OpKind::Exp2:
    return unary(llvm::type_identity<ew::Exp2Op>());
  case OpKind::Expm1:
    return unary(llvm::type_identity<ew::Expm1Op>());
  case OpKind::Log2:
    return unary(llvm::type_identity<ew::Log2Op>());
  case OpKind::Log10:
    return unary(llvm::type_identity<ew::Log10Op>());
  case OpKind::Log1p:
    return unary(llvm::type_identity<ew::Log1pOp>());
  case OpKind::Sin:
    return unary(llvm::type_identity<ew::SinOp>());
  case OpKind::Cos:
    return unary(llvm::type_identity<ew::CosOp>());
  case OpKind::Tan:
    return unary(llvm::type_identity<ew::TanOp>());
  case OpKind::Asin:
    return unary(llvm::type_identity<ew::AsinOp>());
  case OpKind::Acos:
    return unary(llvm::type_identity<ew::AcosOp>());
  case OpKind::Atan:
    return unary(llvm::type_identity<ew::AtanOp>());
  case OpKind::Sinh:
    return unary(llvm::type_identity<ew::SinhOp>());
  case OpKind::Cosh:
    return unary(llvm::type_identity<ew::CoshOp>());
  case OpKind::Asinh:
    return unary(llvm::type_identity<ew::AsinhOp>());
  case OpKind::Acosh:
    return unary(llvm::type_identity<ew::AcoshOp>());
  case OpKind::Atanh:
    return unary(llvm::type_identity<ew::AtanhOp>());
  case OpKind::Remainder:
    return binary(llvm::type_identity<ew::RemainderOp>());
  case OpKind::Fmod:
    return binary(llvm::type_identity<ew::FmodOp>());
  case OpKind::Sign:
    return unary(llvm::type_identity<ew::SignOp>());
  case OpKind::BitAnd:
    return binary(llvm::type_identity<ew::BitAndOp>());
  case OpKind::BitOr:
    return binary(llvm::type_identity<ew::BitOrOp>());
  case OpKind::BitXor:
    return binary(llvm::type_identity<ew::BitXorOp>());
  case OpKind::BitNot:
    return unary(llvm::type_identity<ew::BitNotOp>());
  case OpKind::Shl:
    return binary(llvm::type_identity<ew::ShlOp>());
  case OpKind::Shr:
    return binary(llvm::type_identity<ew::ShrOp>());
  case OpKind::Fma:
    return ew::FmaOp::create(builder, loc, operands[0], operands[1],
                             operands[2])
        .getResult();
  case OpKind::Atan2:
    return binary(llvm::type_identity<ew::Atan2Op>());
  case OpKind::Pow:
    return binary(llvm::type_identity<ew::PowOp>());
  case OpKind::Clamp: {
    // clamp(x, lo, hi) is min(max(x, lo), hi), NaN-propagating like both.
    mlir::Value low = ew::MaxOp::create(builder, loc, operands[0], operands[1]);
    return ew::MinOp::create(builder, loc, low, operands[2]);
  }
  case OpKind::Cmp:
    return ew::CmpOp::create(builder, loc, convertPredicate(op.getPredicate()),
                             operands[0], operands[1]);
  case OpKind::Where:
    return ew::WhereOp::create(builder, loc, operands[0], operands[1],
                               operands[2]);
  case OpKind::Index:
    return ew::IndexOp::create(builder, loc, shape,
                               kernel->getDimName(op.getDim()));
  case OpKind::IndexFlat:
    return ew::IndexOp::create(builder, loc, shape,
                               mlir::ew::NamedTensorType::kBatchDim);
  case OpKind::Size:
    return ew::SizeOp::create(builder, loc, builder.getI64Type(),
                              kernel->getDimName(op.getDim()));
  case OpKind::Cast: {
    // Rounds to the cast's type, then (for f16 and bf16) back to the f32
    // that the value is computed in. A cast to the operand's own compute
    // type is no op: `f32(y)` of a bf16 value `y` is its f32 value.
    DType target = op.getCastType();
    mlir::Value rounded = convert(operands[0], target, loc);
    return convert(rounded, getComputeDType(target), loc);
  }
  case OpKind::Bitcast: {
    // The bits of the operand's own type (an f16 value is computed in f32:
    // its f16, exactly), read as the target's, then in its compute type.
    mlir::Value stored = convert(operands[0], op.getOperandDType(), loc);
    DType target = op.getCastType();
    mlir::Type type =
        mlir::ew::getBroadcastType(stored.getType(), getElementType(target));
    mlir::Value bits = ew::BitcastOp::create(builder, loc, type, stored);
    return convert(bits, getComputeDType(target), loc);
  }
  case OpKind::Rand:
    return binary(llvm::type_identity<ew::RandOp>());
  case OpKind::Randn:
    return binary(llvm::type_identity<ew::RandnOp>());
  case OpKind::Randint:
    return binary(llvm::type_identity<ew::RandintOp>());
  case OpKind::Sum:
  case OpKind::Mean:
  case OpKind::Amax:
  case OpKind::Amin:
  case OpKind::Any:
  case OpKind::All:
  case OpKind::Cumsum:
  case OpKind::Cummax:
  case OpKind::Cummin:
    break; // genReduce
  }
  llvm_unreachable("unknown OpKind");
}

mlir::OwningOpRef<mlir::ModuleOp>
ewc::mlirGen(mlir::MLIRContext &context, const ModuleDecl &module,
             const llvm::SourceMgr &sourceMgr) {
  context.getOrLoadDialect<mlir::ew::EwDialect>();
  return MLIRGenImpl(context, sourceMgr).genModule(module);
}
