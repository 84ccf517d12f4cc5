

ew.kernel @return_count(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  // expected-error @+1 {{'ew.return' op returns 1 values but the kernel has 2 results}}
  ew.return %x : tensor<?xf32>
}

