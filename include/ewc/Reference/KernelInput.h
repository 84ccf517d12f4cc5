//===- KernelInput.h - Arguments of a validation run ------------*- C++ -*-===//
//
// The value a driver passes for each kernel parameter: a tensor, held as a
// HostArray of the kernel's length, or a scalar, held as a number until it is
// laid out for the device or the evaluator. Both the launch and the reference
// see the scalar rounded to its type by the same HostArray conversion.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_REFERENCE_KERNELINPUT_H
#define EWC_REFERENCE_KERNELINPUT_H

#include "ewc/Reference/HostArray.h"

#include <optional>

namespace ewc {

class Param;

/// A scalar argument before it is rounded to its type.
struct ScalarValue {
  DType dtype = DType::F32;
  /// The value of a bool (0 or 1) or integer scalar.
  int64_t intValue = 0;
  /// The value of a floating-point scalar.
  double floatValue = 0;

  /// A one-element array holding the value in `dtype`.
  HostArray toArray() const;
};

/// The default value of a scalar parameter, which must have one.
ScalarValue getDefaultValue(const Param &param);

/// The argument of one kernel parameter: a tensor or a scalar.
class KernelInput {
public:
  static KernelInput tensor(HostArray array) {
    KernelInput input;
    input.array = std::move(array);
    return input;
  }
  static KernelInput scalar(ScalarValue value) {
    KernelInput input;
    input.value = value;
    return input;
  }

  bool isTensor() const { return array.has_value(); }
  HostArray &getTensor() { return *array; }
  const HostArray &getTensor() const { return *array; }
  const ScalarValue &getScalar() const { return value; }

  /// The argument as `evaluate` takes it: the tensor, or a one-element array.
  HostArray toArray() const { return isTensor() ? *array : value.toArray(); }

private:
  KernelInput() = default;

  std::optional<HostArray> array;
  ScalarValue value;
};

} // namespace ewc

#endif // EWC_REFERENCE_KERNELINPUT_H
