func.func @return_outside() {
  "ew.return"() : () -> ()
}
