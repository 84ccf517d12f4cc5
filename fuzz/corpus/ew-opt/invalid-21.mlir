

func.func @index_constant() {
  // expected-error @+1 {{result #0 must be ew element type, but got 'index'}}
  %0 = "ew.constant"() {value = 1 : index} : () -> index
  return
}

