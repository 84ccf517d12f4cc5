//===- KernelSignature.cpp - The kernel ABI, described once ---------------===//
//
// The argument order of every lowered kernel and the typed signature that
// the driver and the APIs marshal by.
//
//===----------------------------------------------------------------------===//

#include "ewc/ABI/KernelSignature.h"

#include "ewc/Frontend/AST.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

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
  switch (dtype) {
  case DType::Bool: {
    uint8_t byte = intValue != 0;
    std::memcpy(storage, &byte, 1);
    return;
  }
  case DType::I32: {
    int32_t value = static_cast<int32_t>(intValue);
    std::memcpy(storage, &value, 4);
    return;
  }
  case DType::I64:
    std::memcpy(storage, &intValue, 8);
    return;
  case DType::F16:
  case DType::BF16: {
    // APFloat rounds to nearest-even, as the kernels' own conversions do.
    llvm::APFloat value(floatValue);
    bool losesInfo;
    value.convert(getFloatSemantics(dtype), llvm::APFloat::rmNearestTiesToEven,
                  &losesInfo);
    uint16_t bits =
        static_cast<uint16_t>(value.bitcastToAPInt().getZExtValue());
    std::memcpy(storage, &bits, 2);
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

std::string KernelSignature::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << name << "(";
  for (auto [i, param] : llvm::enumerate(params)) {
    os << (i ? ", " : "") << param.name << ": " << getDTypeName(param.dtype)
       << (param.isTensor ? "[n]" : "");
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
  for (auto [i, result] : llvm::enumerate(results))
    os << (i ? ", " : "") << getDTypeName(result) << "[n]";
  if (results.size() != 1)
    os << ")";
  return text;
}

std::vector<ABIArgument> ewc::getABIArguments(unsigned numParams,
                                              unsigned numResults) {
  std::vector<ABIArgument> arguments;
  for (unsigned i = 0; i < numParams; ++i)
    arguments.push_back({ABIArgument::Kind::Param, i});
  for (unsigned i = 0; i < numResults; ++i)
    arguments.push_back({ABIArgument::Kind::Result, i});
  arguments.push_back({ABIArgument::Kind::NumElements, 0});
  return arguments;
}

KernelSignature ewc::getKernelSignature(const Kernel &kernel) {
  KernelSignature signature;
  signature.name = kernel.getName().str();
  for (const auto &param : kernel.getParams()) {
    ParamSignature &entry = signature.params.emplace_back();
    entry.name = param->getName().str();
    entry.dtype = param->getDType();
    entry.isTensor = param->isTensor();
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
  for (unsigned r = 0; r < kernel.getResults().size(); ++r)
    signature.results.push_back(kernel.getResultType(r).dtype);
  return signature;
}
