//===- KernelSignature.cpp - The kernel ABI, described once ---------------===//
//
// The argument order of every lowered kernel and the typed signature that
// the driver and the APIs marshal by.
//
//===----------------------------------------------------------------------===//

#include "ewc/ABI/KernelSignature.h"

#include "ewc/Frontend/AST.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <functional>

using namespace ewc;

/// The prefix of every kernel symbol (getKernelSymbol).
static constexpr llvm::StringLiteral kKernelSymbolPrefix = "ew$";

std::string ewc::getKernelSymbol(llvm::StringRef kernelName) {
  return (kKernelSymbolPrefix + kernelName).str();
}

std::optional<llvm::StringRef>
ewc::getKernelNameOfSymbol(llvm::StringRef symbol) {
  if (!symbol.consume_front(kKernelSymbolPrefix))
    return std::nullopt;
  return symbol;
}

double ScalarValue::asDouble() const {
  return isFloat(dtype) ? floatValue : static_cast<double>(intValue);
}

void ScalarValue::toBytes(void *storage) const {
  if (isInteger(dtype)) {
    // The low bytes of the value (little-endian host): it wraps to the type.
    std::memcpy(storage, &intValue, getDTypeSize(dtype));
    return;
  }
  switch (dtype) {
  case DType::Bool: {
    uint8_t byte = intValue != 0;
    std::memcpy(storage, &byte, 1);
    return;
  }
  case DType::F16:
  case DType::BF16:
  case DType::F8E4M3:
  case DType::F8E5M2: {
    // APFloat rounds to nearest-even, as the kernels' own conversions do
    // (f8e4m3 overflows to NaN, f8e5m2 to infinity, as torch's casts).
    llvm::APFloat value(floatValue);
    bool losesInfo;
    value.convert(getFloatSemantics(dtype), llvm::APFloat::rmNearestTiesToEven,
                  &losesInfo);
    uint16_t bits =
        static_cast<uint16_t>(value.bitcastToAPInt().getZExtValue());
    std::memcpy(storage, &bits, getDTypeSize(dtype)); // little-endian
    return;
  }
  case DType::F32: {
    float value = static_cast<float>(floatValue);
    std::memcpy(storage, &value, 4);
    return;
  }
  case DType::F64:
    std::memcpy(storage, &floatValue, 8);
    return;
  default:
    llvm_unreachable("unknown DType");
  }
}

/// The shortest decimal that reads back as the same `dtype` value: an f32
/// default of 0.01 is stored as 0.00999999978, and prints as 0.01.
static std::string formatShortest(double value, DType dtype) {
  auto round = [&](double v) {
    llvm::APFloat rounded(v);
    bool losesInfo;
    rounded.convert(getFloatSemantics(dtype),
                    llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    return rounded;
  };
  llvm::APFloat target = round(value);
  std::string text;
  for (int digits = 1; digits <= 17; ++digits) {
    text = llvm::formatv("{0}", llvm::format("%.*g", digits, value)).str();
    if (round(std::strtod(text.c_str(), nullptr)).bitwiseIsEqual(target))
      break;
  }
  return text;
}

const ParamSignature *
KernelSignature::lookupParam(llvm::StringRef paramName) const {
  for (const ParamSignature &param : params)
    if (param.name == paramName)
      return &param;
  return nullptr;
}

unsigned KernelSignature::getNumTensors() const {
  unsigned count = results.size();
  for (const ParamSignature &param : params)
    count += param.isTensor;
  return count;
}

const std::vector<std::string> &
KernelSignature::getTensorDims(unsigned tensor) const {
  for (const ParamSignature &param : params)
    if (param.isTensor && tensor-- == 0)
      return param.dims;
  return results[tensor].dims;
}

/// `f32[m, n]`, `f32[..., n]` or `f32`.
static void printType(llvm::raw_ostream &os, DType dtype, bool isTensor,
                      const std::vector<std::string> &dims) {
  os << getDTypeName(dtype);
  if (isTensor)
    os << "[" << llvm::join(dims, ", ") << "]";
}

std::string KernelSignature::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << name << "(";
  for (auto [i, param] : llvm::enumerate(params)) {
    os << (i ? ", " : "") << param.name << ": ";
    printType(os, param.dtype, param.isTensor, param.dims);
    if (param.defaultValue) {
      os << " = ";
      if (param.dtype == DType::Bool)
        os << (param.defaultValue->intValue ? "true" : "false");
      else if (isFloat(param.dtype))
        os << formatShortest(param.defaultValue->floatValue, param.dtype);
      else
        os << param.defaultValue->intValue;
    }
  }
  os << ") -> ";
  if (results.size() != 1)
    os << "(";
  for (auto [i, result] : llvm::enumerate(results)) {
    os << (i ? ", " : "");
    printType(os, result.dtype, true, result.dims);
  }
  if (results.size() != 1)
    os << ")";
  return text;
}

std::vector<unsigned> ewc::getTensorRanks(const KernelSignature &kernel,
                                          unsigned batchRank) {
  std::vector<unsigned> ranks;
  for (unsigned t = 0, e = kernel.getNumTensors(); t < e; ++t) {
    const std::vector<std::string> &dims = kernel.getTensorDims(t);
    bool batch = !dims.empty() && dims.front() == kBatchDim;
    ranks.push_back(dims.size() - batch + (batch ? batchRank : 0));
  }
  return ranks;
}

std::vector<ABIArgument> ewc::getABIArguments(const KernelSignature &kernel,
                                              unsigned batchRank) {
  std::vector<unsigned> ranks = getTensorRanks(kernel, batchRank);
  std::vector<ABIArgument> arguments;
  unsigned tensor = 0;
  auto addTensor = [&] {
    using Kind = ABIArgument::Kind;
    for (Kind kind :
         {Kind::AllocatedPointer, Kind::AlignedPointer, Kind::Offset})
      arguments.push_back({kind, 0, tensor, 0});
    for (Kind kind : {Kind::Extent, Kind::Stride})
      for (unsigned dim = 0; dim < ranks[tensor]; ++dim)
        arguments.push_back({kind, 0, tensor, dim});
    ++tensor;
  };
  for (auto [index, param] : llvm::enumerate(kernel.params)) {
    if (param.isTensor)
      addTensor();
    else
      arguments.push_back(
          {ABIArgument::Kind::Scalar, static_cast<unsigned>(index), 0, 0});
  }
  for (unsigned r = 0; r < kernel.results.size(); ++r)
    addTensor();
  return arguments;
}

KernelSignature ewc::getKernelSignature(const KernelDecl &kernel) {
  KernelSignature signature;
  signature.name = kernel.getName().str();
  auto dimsOf = [&](const TypeSpec &type) {
    std::vector<std::string> dims;
    for (DimId id : type.dimIds)
      dims.push_back(kernel.getDimName(id).str());
    return dims;
  };
  for (const auto &param : kernel.getParams()) {
    ParamSignature &entry = signature.params.emplace_back();
    entry.name = param->getName().str();
    entry.dtype = param->getDType();
    entry.isTensor = param->isTensor();
    entry.dims = dimsOf(param->getTypeSpec());
    if (param->hasDefault()) {
      ScalarValue value;
      value.dtype = entry.dtype;
      if (isFloat(entry.dtype))
        value.floatValue = *param->getDefaultAsDouble();
      else
        value.intValue = *param->getDefaultAsInt();
      entry.defaultValue = value;
    }
  }
  for (const TypeSpec &result : kernel.getResults())
    signature.results.push_back({result.dtype, dimsOf(result)});
  for (const std::string &dim : kernel.getDims())
    signature.dims.push_back(dim);
  // The dimensions whose coordinates or extents the body reads, and those
  // it reduces or scans (Driver.cpp says why, from the IR).
  auto pin = [&](DimId id) {
    std::string dim = kernel.getDimName(id).str();
    if (!llvm::is_contained(signature.pinnedDims, dim))
      signature.pinnedDims.push_back(dim);
  };
  std::function<void(const Expr &)> visit = [&](const Expr &expr) {
    if (auto *op = llvm::dyn_cast<OpExpr>(&expr)) {
      if (op->isResolved() && getOpClass(op->getOp()) == OpClass::Dim)
        pin(op->getDim());
      if (op->isReduceOrScan())
        for (DimId dim : op->getReducedDims())
          pin(dim);
      for (const auto &operand : op->getOperands())
        visit(*operand);
    }
  };
  for (const auto &stmt : kernel.getBody()) {
    if (auto *let = llvm::dyn_cast<LetStmt>(stmt.get()))
      visit(let->getInit());
    else
      for (const auto &value : llvm::cast<ReturnStmt>(stmt.get())->getValues())
        visit(*value);
  }
  return signature;
}
