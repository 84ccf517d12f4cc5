

ew.kernel @return_i8(%x: tensor<?xf32>) -> tensor<?xf32> {
  %s = arith.constant 1 : i8
  // expected-error @+1 {{'ew.return' op operand #0 must be variadic of ew tensor or scalar, but got 'i8'}}
  "ew.return"(%s) : (i8) -> ()
}

