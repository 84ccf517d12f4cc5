

ew.kernel @wrong_result_element(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'ew.add' op requires the same element type for all operands and results}}
  %0 = "ew.add"(%x, %x) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf64>
  ew.return %x : tensor<?xf32>
}

