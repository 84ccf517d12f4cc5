module {
  ew.kernel @sigmoid(%arg0: tensor<?xf32>) -> tensor<?xf32> {
    %0 = ew.sigmoid %arg0 : tensor<?xf32>
    ew.return %0 : tensor<?xf32>
  }
}

