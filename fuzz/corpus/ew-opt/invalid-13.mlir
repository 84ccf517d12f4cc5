

ew.kernel @where_values(%c: tensor<?xi1>, %x: tensor<?xf32>, %y: tensor<?xf16>) -> tensor<?xf32> {
  // expected-error @+1 {{'ew.where' op failed to verify that all of {true_value, false_value, result} have same element type}}
  %0 = ew.where %c, %x, %y : tensor<?xi1>, tensor<?xf32>, tensor<?xf16>
  ew.return %0 : tensor<?xf32>
}

