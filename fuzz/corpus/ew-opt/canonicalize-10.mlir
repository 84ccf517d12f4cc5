

ew.kernel @fold_cast_chains(%b: tensor<?xbf16>, %h: tensor<?xf16>, %x: tensor<?xf32>)
    -> (tensor<?xbf16>, tensor<?xf64>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %0 = ew.cast %b : tensor<?xbf16> to tensor<?xf32>
  %1 = ew.cast %0 : tensor<?xf32> to tensor<?xbf16>
  %2 = ew.cast %h : tensor<?xf16> to tensor<?xf32>
  %3 = ew.cast %2 : tensor<?xf32> to tensor<?xf64>
  %4 = ew.cast %x : tensor<?xf32> to tensor<?xbf16>
  %5 = ew.cast %4 : tensor<?xbf16> to tensor<?xf32>
  %6 = ew.cast %x : tensor<?xf32> to tensor<?xi32>
  %7 = ew.cast %6 : tensor<?xi32> to tensor<?xf32>
  %8 = ew.cast %x : tensor<?xf32> to tensor<?xf32>
  ew.return %1, %3, %5, %7, %8 : tensor<?xbf16>, tensor<?xf64>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}

