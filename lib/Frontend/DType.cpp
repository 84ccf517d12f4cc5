//===- DType.cpp - Element types of the ew language -----------------------===//
//
// Names, sizes and classes of the element types, and their APFloat
// semantics for literal range checks and f16/bf16 conversion.
//
//===----------------------------------------------------------------------===//

#include "ewc/Frontend/DType.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

using namespace ewc;

llvm::StringRef ewc::getDTypeName(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return "bool";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  }
  llvm_unreachable("unknown DType");
}

std::optional<DType> ewc::parseDTypeName(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<DType>>(name)
      .Case("bool", DType::Bool)
      .Case("i32", DType::I32)
      .Case("i64", DType::I64)
      .Case("f16", DType::F16)
      .Case("bf16", DType::BF16)
      .Case("f32", DType::F32)
      .Case("f64", DType::F64)
      .Default(std::nullopt);
}

unsigned ewc::getDTypeSize(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return 1;
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::I32:
  case DType::F32:
    return 4;
  case DType::I64:
  case DType::F64:
    return 8;
  }
  llvm_unreachable("unknown DType");
}

bool ewc::isFloat(DType dtype) {
  return dtype == DType::F16 || dtype == DType::BF16 || dtype == DType::F32 ||
         dtype == DType::F64;
}

DType ewc::getComputeDType(DType dtype) {
  return dtype == DType::F16 || dtype == DType::BF16 ? DType::F32 : dtype;
}

bool ewc::isInteger(DType dtype) {
  return dtype == DType::I32 || dtype == DType::I64;
}

unsigned ewc::getIntegerBitWidth(DType dtype) {
  assert(isInteger(dtype) && "not an integer type");
  return dtype == DType::I32 ? 32 : 64;
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
  default:
    llvm_unreachable("not a floating-point type");
  }
}
