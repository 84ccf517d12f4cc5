

ew.kernel @cse(%x: tensor<?xf32>, %c: tensor<?xi32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %0 = ew.exp %x : tensor<?xf32>
  %1 = ew.exp %x : tensor<?xf32>
  %2 = ew.cast %c : tensor<?xi32> to tensor<?xf32>
  %3 = ew.cast %c : tensor<?xi32> to tensor<?xf32>
  ew.return %0, %1, %2, %3 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}
