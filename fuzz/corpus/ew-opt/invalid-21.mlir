func.func @index_constant() {
  %0 = "ew.constant"() {value = 1 : index} : () -> index
  return
}
