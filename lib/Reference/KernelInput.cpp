//===- KernelInput.cpp - Arguments of a validation run --------------------===//
//
// Scalar arguments and parameter defaults as values of their type.
//
//===----------------------------------------------------------------------===//

#include "ewc/Reference/KernelInput.h"
#include "ewc/Frontend/AST.h"

#include <cassert>

using namespace ewc;

HostArray ScalarValue::toArray() const {
  HostArray result(dtype, 1);
  if (isFloat(dtype))
    result.setFromDouble(0, floatValue);
  else
    result.setFromInt(0, intValue);
  return result;
}

ScalarValue ewc::getDefaultValue(const Param &param) {
  assert(param.hasDefault() && "parameter has no default");
  ScalarValue value;
  value.dtype = param.getDType();
  if (isFloat(value.dtype))
    value.floatValue = *param.getDefaultAsDouble();
  else
    value.intValue = *param.getDefaultAsInt();
  return value;
}
