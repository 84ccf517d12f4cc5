

func.func @return_outside() {
  // expected-error @+1 {{'ew.return' op expects parent op 'ew.kernel'}}
  "ew.return"() : () -> ()
}
