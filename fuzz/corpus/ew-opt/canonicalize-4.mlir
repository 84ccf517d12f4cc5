

ew.kernel @dead_code(%x: tensor<?xf32>) -> tensor<?xf32> {
  %unused = ew.mul %x, %x : tensor<?xf32>, tensor<?xf32>
  ew.return %x : tensor<?xf32>
}

