ew.kernel @return_i8(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  %s = arith.constant 1 : i8
  "ew.return"(%s) : (i8) -> ()
}
