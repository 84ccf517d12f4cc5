//===- DType.cpp - Element types of the ew language -----------------------===//
//
// Names, sizes and classes of the element types, and their APFloat
// semantics for literal range checks and f16/bf16 conversion.
//
//===----------------------------------------------------------------------===//

#include "ewc/Frontend/DType.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ErrorHandling.h"

#include <cassert>
#include <iterator>

using namespace ewc;

namespace {
/// One row of DTypes.def.
struct DTypeFacts {
  llvm::StringLiteral name;
  unsigned bytes;
  bool isFloat;
  unsigned integerBits;
  bool isUnsigned;
  llvm::StringLiteral cxxType;
  llvm::StringLiteral npyDescr;
};
} // namespace

static constexpr DTypeFacts kDTypes[] = {
#define EWC_DTYPE(ENUM, NAME, BYTES, IS_FLOAT, INT_BITS, IS_UNSIGNED,          \
                  CXX_TYPE, NPY_DESCR)                                         \
  {NAME, BYTES, IS_FLOAT != 0, INT_BITS, IS_UNSIGNED != 0, CXX_TYPE, NPY_DESCR},
#include "ewc/Frontend/DTypes.def"
};

static const DTypeFacts &getFacts(DType dtype) {
  auto index = static_cast<size_t>(dtype);
  assert(index < std::size(kDTypes) && "unknown DType");
  return kDTypes[index];
}

llvm::StringRef ewc::getDTypeName(DType dtype) { return getFacts(dtype).name; }

std::optional<DType> ewc::parseDTypeName(llvm::StringRef name) {
  for (auto [index, facts] : llvm::enumerate(kDTypes))
    if (facts.name == name)
      return static_cast<DType>(index);
  return std::nullopt;
}

unsigned ewc::getDTypeSize(DType dtype) { return getFacts(dtype).bytes; }

bool ewc::isFloat(DType dtype) { return getFacts(dtype).isFloat; }

llvm::StringRef ewc::getDTypeCxxType(DType dtype) {
  return getFacts(dtype).cxxType;
}

llvm::StringRef ewc::getDTypeNpyDescr(DType dtype) {
  return getFacts(dtype).npyDescr;
}

DType ewc::getComputeDType(DType dtype) {
  switch (dtype) {
  case DType::F16:
  case DType::BF16:
  case DType::F8E4M3:
  case DType::F8E5M2:
    return DType::F32;
  default:
    return dtype;
  }
}

bool ewc::isFloat8(DType dtype) {
  return dtype == DType::F8E4M3 || dtype == DType::F8E5M2;
}

bool ewc::isInteger(DType dtype) { return getFacts(dtype).integerBits != 0; }

bool ewc::isUnsignedInteger(DType dtype) { return getFacts(dtype).isUnsigned; }

llvm::ArrayRef<DType> ewc::getAllDTypes() {
  static constexpr DType kAll[] = {
#define EWC_DTYPE(ENUM, NAME, BYTES, IS_FLOAT, INT_BITS, IS_UNSIGNED,          \
                  CXX_TYPE, NPY_DESCR)                                         \
  DType::ENUM,
#include "ewc/Frontend/DTypes.def"
  };
  return kAll;
}

unsigned ewc::getIntegerBitWidth(DType dtype) {
  assert(isInteger(dtype) && "not an integer type");
  return getFacts(dtype).integerBits;
}

const llvm::fltSemantics &ewc::getFloatSemantics(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return llvm::APFloat::IEEEhalf();
  case DType::BF16:
    return llvm::APFloat::BFloat();
  case DType::F32:
    return llvm::APFloat::IEEEsingle();
  case DType::F64:
    return llvm::APFloat::IEEEdouble();
  case DType::F8E4M3:
    return llvm::APFloat::Float8E4M3FN();
  case DType::F8E5M2:
    return llvm::APFloat::Float8E5M2();
  default:
    llvm_unreachable("not a floating-point type");
  }
}

std::string ewc::formatTypeBinding(const TypeBinding &binding) {
  std::string result;
  for (const auto &[name, dtype] : binding)
    result +=
        (result.empty() ? "" : ",") + name + "=" + getDTypeName(dtype).str();
  return result;
}

TypeBinding ewc::parseTypeBinding(llvm::StringRef text, std::string &error) {
  TypeBinding binding;
  error.clear();
  llvm::SmallVector<llvm::StringRef> entries;
  text.split(entries, ',');
  for (llvm::StringRef entry : entries) {
    auto [name, typeName] = entry.split('=');
    name = name.trim();
    typeName = typeName.trim();
    std::optional<DType> dtype = parseDTypeName(typeName);
    if (!entry.contains('=') || name.empty() || !dtype) {
      error = "expected NAME=TYPE, such as T=bf16";
      if (entry.contains('=') && !name.empty())
        error = "unknown type '" + typeName.str() + "' for " + name.str();
      return {};
    }
    if (!binding.try_emplace(name.str(), *dtype).second) {
      error = "type parameter " + name.str() + " is bound twice";
      return {};
    }
  }
  return binding;
}
