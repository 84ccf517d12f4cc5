func.func @string_constant() {
  %0 = "ew.constant"() {value = "one"} : () -> f32
  return
}
