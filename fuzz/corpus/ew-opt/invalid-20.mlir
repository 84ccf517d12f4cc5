

func.func @string_constant() {
  // expected-error @+1 {{'ew.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "ew.constant"() {value = "one"} : () -> f32
  return
}

